//! One page of a Query or Scan: walk a keyspace's entries in key order from where the last page
//! stopped, until `Limit` items were evaluated or 1 MB was read (rule B.4), applying the filter
//! after reading, as the service does.
//!
//! Entries are fetched from SQLite in batches, so a page that stops early reads little, and a
//! page never holds more than one batch beyond what it returns.
//!
//! Stored items: an entry's body is the item in DynamoDB's JSON, as the response carries it.
//! When nothing reads the item (no filter, no projection, not `Select=COUNT`) and the caller
//! only serialises the page ([`PageRules::keep_stored`]), the bodies go into the response as
//! they are stored ([`Page::stored`]) instead of being decoded and encoded again — that was a
//! third of a Query's CPU (bench/README.md). Only the entry a page stops at is decoded, for its
//! `LastEvaluatedKey`; the page's bodies are written straight into the response body's `Items`
//! array ([`StoredItems`], completed by `ReadPageOutput::into_json`), in a buffer of the
//! engine's [`PageBuffers`] once the body is large.
//!
//! One row per batch: sqlx hands every result row from the connection's thread to the caller
//! through a channel, with a copy of each value — per row a wake-up and half a dozen
//! allocations, most of a 100-item page's cost (bench/README.md, "GSI Query"). A batch is
//! therefore read as a single row: SQLite joins the batch's entries, in key order, into one
//! value ([`BATCH_SQL_ROW`]: per entry the lengths of its parts and its size, then the parts),
//! and [`Batch::split`] finds the entries in it where it lies, in the row sqlx returned.

use std::ops::Range as Span;

use dynotable_expr::{Condition, Projection};
use dynotable_types::Item;
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};

use crate::api::item::StoredItems;
use crate::item_cache::CollectionRows;
use crate::items::decode_entry;
use crate::{ApiError, PageBuffers};

/// Rule B.4: a single Query or Scan reads at most 1 MB before filtering.
pub(crate) const PAGE_BYTES: u64 = 1024 * 1024;
/// Rows fetched from SQLite in a page's first batch.
const FIRST_BATCH: i64 = 128;
/// Rows fetched from SQLite at most at a time (a batch of small items is ~0.5 MB as joined).
const MAX_BATCH: i64 = 1024;

/// A bound on the encoded sort key.
#[derive(Debug, Clone)]
pub(crate) enum Bound {
    Unbounded,
    Included(Vec<u8>),
    Excluded(Vec<u8>),
}

/// The position of an entry in its keyspace: encoded partition key, sort key and (for index
/// entries) the base item's primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EntryPosition {
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    pub tail: Vec<u8>,
}

/// Which entries to walk, and in which direction.
#[derive(Debug, Clone)]
pub(crate) struct Range {
    pub keyspace: i64,
    /// One collection (Query) or all of them (Scan).
    pub pk: Option<Vec<u8>>,
    pub lower: Bound,
    pub upper: Bound,
    pub forward: bool,
    /// Continue strictly after (Query: `(sk, tail)`; Scan: `(pk, sk, tail)`).
    pub start_after: Option<EntryPosition>,
    /// Parallel scan: keep only entries whose partition falls in this segment.
    pub segment: Option<(u32, u32)>,
}

/// What to do with each entry read.
pub(crate) struct PageRules<'a> {
    pub limit: Option<usize>,
    pub filter: Option<&'a Condition>,
    pub projection: Option<&'a Projection>,
    /// Select=COUNT: count, return no items.
    pub count_only: bool,
    /// Return items that need no filter or projection as stored, in [`Page::stored`].
    pub keep_stored: bool,
    /// Where a large page of stored items gets its buffer.
    pub buffers: &'a PageBuffers,
}

/// A page: the items returned, how many were evaluated, the bytes read and where it stopped.
pub(crate) struct Page {
    pub items: Vec<Item>,
    /// The items returned as stored, instead of `items` (see "Stored items" above), written
    /// into the response body.
    pub stored: Option<StoredItems>,
    /// Items that passed the filter (returned, or counted with Select=COUNT).
    pub count: usize,
    pub scanned: usize,
    pub bytes_read: u64,
    /// The last entry evaluated, when the page stopped because of Limit or 1 MB; its item gives
    /// the LastEvaluatedKey.
    pub stopped_at: Option<Item>,
}

/// The segment (0-based) an encoded partition key belongs to in a parallel scan of `total`.
/// DynamoDB assigns partitions to segments by key hash; FNV-1a of the encoded key is stable
/// across runs and platforms, so a segment's contents never change between pages.
pub(crate) fn segment_of(pk: &[u8], total: u32) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in pk {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash % u64::from(total)) as u32
}

/// Where a page's entries come from: SQLite, or a table's item collection held by the item
/// cache (`item_cache`, "Collections"; base-table Query only).
pub(crate) enum Rows<'a> {
    Sqlite(&'a mut SqliteConnection),
    Collection(&'a CollectionRows),
}

pub(crate) async fn read_page(
    conn: &mut SqliteConnection,
    range: &Range,
    rules: &PageRules<'_>,
) -> Result<Page, ApiError> {
    read_page_from(Rows::Sqlite(conn), range, rules).await
}

pub(crate) async fn read_page_from(
    mut source: Rows<'_>,
    range: &Range,
    rules: &PageRules<'_>,
) -> Result<Page, ApiError> {
    let keep_stored =
        rules.keep_stored && rules.filter.is_none() && rules.projection.is_none() && !rules.count_only;
    let mut page = Page {
        items: Vec::new(),
        stored: keep_stored.then(StoredItems::new),
        count: 0,
        scanned: 0,
        bytes_read: 0,
        stopped_at: None,
    };
    let pk = range.pk.as_deref().unwrap_or_default();
    let mut cursor = range.start_after.clone();
    let mut progress = Progress::default();
    loop {
        let wanted = batch_size(rules.limit, &page, &progress);
        let fetched;
        let entries = match &mut source {
            Rows::Sqlite(conn) => {
                fetched = fetch(conn, range, cursor.as_ref(), wanted).await?;
                fetched.entries()
            }
            Rows::Collection(collection) => fetch_cached(collection, pk, range, cursor.as_ref(), wanted),
        };
        let exhausted = (entries.len() as i64) < wanted;
        progress.batches += 1;
        progress.rows += entries.len() as u64;
        progress.last = wanted;
        if let Some(last) = entries.last() {
            cursor = Some(last.position());
        }
        for entry in entries {
            if let Some((segment, total)) = range.segment
                && segment_of(entry.pk, total) != segment
            {
                continue;
            }
            if let Some(stored) = &mut page.stored {
                page.scanned += 1;
                page.count += 1;
                page.bytes_read += entry.size;
                let full = rules.limit.is_some_and(|l| page.scanned >= l) || page.bytes_read >= PAGE_BYTES;
                if full {
                    page.stopped_at = Some(decode_entry(entry.body, entry.size as i64)?.item);
                }
                stored.push(entry.body, rules.buffers);
                if full {
                    return Ok(page);
                }
                continue;
            }
            let stored = decode_entry(entry.body, entry.size as i64)?;
            page.scanned += 1;
            page.bytes_read += stored.size;
            let matches = rules.filter.is_none_or(|f| f.evaluate(Some(&stored.item)));
            let full = rules.limit.is_some_and(|l| page.scanned >= l) || page.bytes_read >= PAGE_BYTES;
            if full {
                page.stopped_at = Some(stored.item.clone());
            }
            if matches {
                page.count += 1;
                if !rules.count_only {
                    page.items.push(match rules.projection {
                        Some(projection) => projection.apply(&stored.item),
                        None => stored.item,
                    });
                }
            }
            if full {
                return Ok(page);
            }
        }
        if exhausted {
            return Ok(page);
        }
    }
}

/// The batches a page has fetched so far.
#[derive(Debug, Default)]
struct Progress {
    batches: u32,
    /// Entries fetched (in a parallel scan, also those of other segments).
    rows: u64,
    /// The size of the last batch asked for.
    last: i64,
}

/// How many entries the next batch of a page fetches.
///
/// No more than the Limit can still take: a page of 100 reads 100, not a batch. Otherwise a
/// first batch of [`FIRST_BATCH`], then as many as should fill what is left of the 1 MB (rule
/// B.4), at the size per entry fetched so far, with a sixteenth more so that items a little
/// larger than the mean do not cost one more round trip for the last few; at most
/// [`MAX_BATCH`]. Each batch is one round trip to the connection's thread (two wake-ups), so a
/// 1 MB page of 200-byte items costs ~6 of them rather than ~40 of 128 entries; a page that
/// ends early because the entries run out reads only what there is. In a parallel scan whose
/// segment has had no entry yet, each batch doubles the last.
fn batch_size(limit: Option<usize>, page: &Page, progress: &Progress) -> i64 {
    let by_bytes = if progress.batches == 0 {
        FIRST_BATCH
    } else if page.bytes_read == 0 {
        progress.last.saturating_mul(2)
    } else {
        let left = PAGE_BYTES.saturating_sub(page.bytes_read);
        let rows = u128::from(left) * u128::from(progress.rows) / u128::from(page.bytes_read);
        let rows = i64::try_from(rows + rows / 16 + 1).unwrap_or(MAX_BATCH);
        rows.max(FIRST_BATCH / 8)
    };
    let by_limit = limit.map_or(MAX_BATCH, |l| l.saturating_sub(page.scanned).max(1) as i64);
    by_bytes.min(by_limit).clamp(1, MAX_BATCH)
}

/// One entry of a batch, borrowed from where it was read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryRef<'a> {
    pub pk: &'a [u8],
    pub sk: &'a [u8],
    pub tail: &'a [u8],
    pub body: &'a [u8],
    pub size: u64,
}

impl EntryRef<'_> {
    fn position(&self) -> EntryPosition {
        EntryPosition {
            pk: self.pk.to_vec(),
            sk: self.sk.to_vec(),
            tail: self.tail.to_vec(),
        }
    }
}

/// [`fetch`] on a cached collection: the same bounds, cursor, order and count. Entries are
/// ordered by `(sk, tail)` (a table's have an empty tail; an index's, built by `eventual_lag`,
/// the base item's key), and SQLite compares blobs as byte strings, as slices compare.
fn fetch_cached<'a>(
    collection: &'a CollectionRows,
    pk: &'a [u8],
    range: &Range,
    cursor: Option<&EntryPosition>,
    wanted: i64,
) -> Vec<EntryRef<'a>> {
    let within = |(sk, tail): (&[u8], &[u8])| {
        let above = match &range.lower {
            Bound::Unbounded => true,
            Bound::Included(b) => sk >= b.as_slice(),
            Bound::Excluded(b) => sk > b.as_slice(),
        };
        let below = match &range.upper {
            Bound::Unbounded => true,
            Bound::Included(b) => sk <= b.as_slice(),
            Bound::Excluded(b) => sk < b.as_slice(),
        };
        let after = cursor.is_none_or(|c| {
            let here = (sk, tail);
            let there = (c.sk.as_slice(), c.tail.as_slice());
            if range.forward { here > there } else { here < there }
        });
        above && below && after
    };
    let wanted = usize::try_from(wanted).unwrap_or(0);
    let batch = &collection.batch;
    let sk = |i: usize| {
        let (_, sk, tail) = batch.key(i);
        (sk, tail)
    };
    // The entries are in key order: binary search for where the walk starts, go on from there.
    let first_not = |before: &dyn Fn(usize) -> bool| {
        let (mut low, mut high) = (0, batch.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if before(mid) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        low
    };
    let walk: Box<dyn Iterator<Item = usize>> = if range.forward {
        let from = first_not(&|i| !within_lower(range, cursor, sk(i)));
        Box::new(from..batch.len())
    } else {
        let to = first_not(&|i| within_upper(range, cursor, sk(i)));
        Box::new((0..to).rev())
    };
    walk.take_while(|&i| within(sk(i)))
        .take(wanted)
        .map(|i| batch.entry(i, pk))
        .collect()
}

/// Whether `(sk, tail)` is at or past the start of a forward walk (the lower bound and the
/// cursor).
fn within_lower(range: &Range, cursor: Option<&EntryPosition>, (sk, tail): (&[u8], &[u8])) -> bool {
    let above = match &range.lower {
        Bound::Unbounded => true,
        Bound::Included(b) => sk >= b.as_slice(),
        Bound::Excluded(b) => sk > b.as_slice(),
    };
    above && cursor.is_none_or(|c| (sk, tail) > (c.sk.as_slice(), c.tail.as_slice()))
}

/// Whether `(sk, tail)` is at or before the start of a backward walk (the upper bound and the
/// cursor).
fn within_upper(range: &Range, cursor: Option<&EntryPosition>, (sk, tail): (&[u8], &[u8])) -> bool {
    let below = match &range.upper {
        Bound::Unbounded => true,
        Bound::Included(b) => sk <= b.as_slice(),
        Bound::Excluded(b) => sk < b.as_slice(),
    };
    below && cursor.is_none_or(|c| (sk, tail) < (c.sk.as_slice(), c.tail.as_slice()))
}

/// How SQLite writes a batch into one value: per entry, in key order, seven numbers as the
/// characters `char` writes for them (UTF-8, 1 to 4 bytes each) — the byte lengths of `pk`,
/// `sk` and `tail`, the body's length and the item's size each as its low 20 bits and the
/// rest — then the four parts' bytes. `||` and `group_concat` copy a blob's bytes as they are
/// (NULs included: they go by length), and `length` of a blob counts bytes.
///
/// Per entry that is one function call and four `||`, where one formatted in decimal
/// (`length(pk) || ',' || … || ';' || pk || …`) took nine `||` and five numbers to text; and
/// it is still one value: three aggregates (lengths in decimal lists beside the bytes) cost
/// SQLite about as little, but their buffers, growing side by side, made the C library's
/// allocator hand back and refault memory on every batch (bench/README.md, "The read batch").
///
/// `char` writes a number up to 0x10FFFF as one character and anything larger as U+FFFD. A
/// key part's length is far below that (rule B.7: an encoded partition key is at most ~4 KB —
/// 2,048 bytes, each `0x00` escaped into two, see `key_encoding` — a sort key ~2 KB, a tail,
/// an index entry's encoded base primary key, ~6 KB), and the body's length and the size are
/// split at 20 bits (a body is at most SQLite's blob limit, < 2^31; an item's size at most
/// 400 KB, rule B.3). Were a key part ever over the bound its length would read as 0xFFFD and
/// the entries after it would be misread; [`Batch::split`] fails on a character cut short or a
/// length past the end, and [`fetch`] checks the number of entries against SQLite's count.
const BATCH_SQL_ROW: &str = "char(length(pk), length(sk), length(tail), length(body) & 1048575, length(body) >> 20, \
     size & 1048575, size >> 20) || pk || sk || tail || body";

/// Where an entry's `pk`, `sk`, `tail` and `body` lie in its batch's bytes.
type Spans = [Span<usize>; 4];

/// A batch of entries as SQLite joined them (see [`BATCH_SQL_ROW`]).
pub(crate) struct Batch {
    data: Held,
    spans: Vec<Spans>,
    sizes: Vec<u64>,
}

/// Where a batch's bytes are.
enum Held {
    /// In the row sqlx returned, read where they lie: sqlx already copied the value
    /// out of SQLite, and a page's batches are ~40 MB for a full Scan of the benchmark's table,
    /// so a second copy into a `Vec` was worth avoiding.
    Row(SqliteRow),
    /// In a buffer of their own: a batch kept by the item cache (see [`Batch::into_owned`]),
    /// or built by a test.
    Owned(Vec<u8>),
}

impl Held {
    fn bytes(&self) -> &[u8] {
        match self {
            // Checked to decode when the batch was parsed; the value does not change.
            Held::Row(row) => row
                .try_get_unchecked::<Option<&[u8]>, _>(0)
                .ok()
                .flatten()
                .unwrap_or_default(),
            Held::Owned(bytes) => bytes,
        }
    }
}

impl Batch {
    /// Splits a batch's bytes (see [`BATCH_SQL_ROW`]): each entry's spans of `pk`, `sk`, `tail`
    /// and `body`, and its size. A malformed batch (which the SQL never writes) is an error.
    fn split(data: &[u8]) -> Result<(Vec<Spans>, Vec<u64>), ApiError> {
        let malformed = || ApiError::internal("malformed batch of entries");
        let mut spans = Vec::new();
        let mut sizes = Vec::new();
        let mut at = 0usize;
        while at < data.len() {
            let mut numbers = [0u64; 7];
            for number in &mut numbers {
                let (value, len) = char_at(&data[at..]).ok_or_else(malformed)?;
                *number = u64::from(value);
                at += len;
            }
            let mut part = |len: u64| -> Result<Span<usize>, ApiError> {
                let end = at.checked_add(usize::try_from(len).map_err(|_| malformed())?);
                let end = end.filter(|&e| e <= data.len()).ok_or_else(malformed)?;
                let span = at..end;
                at = end;
                Ok(span)
            };
            let [pk, sk, tail, body_low, body_high, size_low, size_high] = numbers;
            spans.push([
                part(pk)?,
                part(sk)?,
                part(tail)?,
                part(body_low | body_high << 20)?,
            ]);
            sizes.push(size_low | size_high << 20);
        }
        Ok((spans, sizes))
    }

    /// A batch of `entries` (in key order), written as [`BATCH_SQL_ROW`] writes it: a
    /// collection built in memory (`eventual_lag`, a Query that sees a collection as it was).
    pub fn from_entries(entries: &[EntryRef<'_>]) -> Result<Batch, ApiError> {
        let mut data = Vec::new();
        for entry in entries {
            let body = entry.body.len() as u64;
            for number in [
                entry.pk.len() as u64,
                entry.sk.len() as u64,
                entry.tail.len() as u64,
                body & 0xf_ffff,
                body >> 20,
                entry.size & 0xf_ffff,
                entry.size >> 20,
            ] {
                push_char(&mut data, u32::try_from(number).map_err(ApiError::internal)?);
            }
            for part in [entry.pk, entry.sk, entry.tail, entry.body] {
                data.extend_from_slice(part);
            }
        }
        Batch::from_bytes(data)
    }

    /// A batch of `data`, written as [`BATCH_SQL_ROW`] writes it.
    pub fn from_bytes(data: Vec<u8>) -> Result<Batch, ApiError> {
        let (spans, sizes) = Batch::split(&data)?;
        Ok(Batch {
            data: Held::Owned(data),
            spans,
            sizes,
        })
    }

    /// The batch with its bytes in a buffer of its own, not in the row: what the item cache
    /// keeps, shared between threads (reading a row's value calls into SQLite, which marks the
    /// value as it reads it; and the row's other columns need not be kept).
    pub fn into_owned(self) -> Batch {
        let data = match &self.data {
            Held::Row(_) => Held::Owned(self.data.bytes().to_vec()),
            Held::Owned(_) => return self,
        };
        Batch { data, ..self }
    }

    /// How many entries the batch holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// The bytes it holds.
    pub fn bytes(&self) -> usize {
        self.data.bytes().len()
    }

    /// Entry `i`, with `pk` as its partition key (a collection's entries all share it).
    fn entry<'a>(&'a self, i: usize, pk: &'a [u8]) -> EntryRef<'a> {
        let [_, sk, tail, body] = &self.spans[i];
        let data = self.data.bytes();
        EntryRef {
            pk,
            sk: &data[sk.clone()],
            tail: &data[tail.clone()],
            body: &data[body.clone()],
            size: self.sizes[i],
        }
    }

    /// The key of entry `i`: `(pk, sk, tail)`.
    fn key(&self, i: usize) -> (&[u8], &[u8], &[u8]) {
        key_of(self.data.bytes(), &self.spans[i])
    }

    /// Puts the entries in key order (ascending when `forward`), if SQLite joined them in
    /// another: a comparison per entry when they already are.
    fn in_order(&mut self, forward: bool) {
        let data = self.data.bytes();
        let key = |i: usize| key_of(data, &self.spans[i]);
        let ordered = |a, b| if forward { a < b } else { a > b };
        if (1..self.spans.len()).all(|i| ordered(key(i - 1), key(i))) {
            return;
        }
        let mut order: Vec<usize> = (0..self.spans.len()).collect();
        order.sort_by(|&a, &b| {
            let by_key = key(a).cmp(&key(b));
            if forward { by_key } else { by_key.reverse() }
        });
        self.spans = order.iter().map(|&i| self.spans[i].clone()).collect();
        self.sizes = order.iter().map(|&i| self.sizes[i]).collect();
    }

    /// The entries, in the order they are held.
    pub fn entries(&self) -> Vec<EntryRef<'_>> {
        let data = self.data.bytes();
        self.spans
            .iter()
            .zip(&self.sizes)
            .map(|([pk, sk, tail, body], &size)| EntryRef {
                pk: &data[pk.clone()],
                sk: &data[sk.clone()],
                tail: &data[tail.clone()],
                body: &data[body.clone()],
                size,
            })
            .collect()
    }
}

/// The key `(pk, sk, tail)` of the entry at `spans` in `data`.
fn key_of<'a>(data: &'a [u8], spans: &Spans) -> (&'a [u8], &'a [u8], &'a [u8]) {
    let [pk, sk, tail, _] = spans;
    (&data[pk.clone()], &data[sk.clone()], &data[tail.clone()])
}

/// Writes `value` as SQLite's `char` does (UTF-8 of any number up to 0x10FFFF, surrogates
/// included): what [`char_at`] reads back.
fn push_char(out: &mut Vec<u8>, value: u32) {
    match value {
        0..=0x7f => out.push(value as u8),
        0x80..=0x7ff => out.extend_from_slice(&[0xc0 | (value >> 6) as u8, 0x80 | (value & 0x3f) as u8]),
        0x800..=0xffff => out.extend_from_slice(&[
            0xe0 | (value >> 12) as u8,
            0x80 | (value >> 6 & 0x3f) as u8,
            0x80 | (value & 0x3f) as u8,
        ]),
        _ => out.extend_from_slice(&[
            0xf0 | (value >> 18 & 0x07) as u8,
            0x80 | (value >> 12 & 0x3f) as u8,
            0x80 | (value >> 6 & 0x3f) as u8,
            0x80 | (value & 0x3f) as u8,
        ]),
    }
}

/// The character at the start of `bytes` as SQLite's `char` writes it (UTF-8 of any number
/// up to 0x10FFFF, surrogates included), and its length in bytes; `None` if there is none.
fn char_at(bytes: &[u8]) -> Option<(u32, usize)> {
    let lead = *bytes.first()?;
    let (len, bits) = match lead {
        0x00..=0x7f => return Some((u32::from(lead), 1)),
        0xc0..=0xdf => (2, lead & 0x1f),
        0xe0..=0xef => (3, lead & 0x0f),
        0xf0..=0xf7 => (4, lead & 0x07),
        _ => return None,
    };
    let tail = bytes.get(1..len)?;
    let mut value = u32::from(bits);
    for &byte in tail {
        if byte & 0xc0 != 0x80 {
            return None;
        }
        value = value << 6 | u32::from(byte & 0x3f);
    }
    Some((value, len))
}

/// Reads the next `wanted` entries of `range` after `cursor`, as one row (see the module
/// documentation).
pub(crate) async fn fetch(
    conn: &mut SqliteConnection,
    range: &Range,
    cursor: Option<&EntryPosition>,
    wanted: i64,
) -> Result<Batch, ApiError> {
    let mut sql = String::from("SELECT pk, sk, tail, body, size FROM entries WHERE keyspace = ?");
    let mut binds: Vec<&[u8]> = Vec::new();
    if let Some(pk) = &range.pk {
        sql.push_str(" AND pk = ?");
        binds.push(pk);
    }
    match &range.lower {
        Bound::Unbounded => {}
        Bound::Included(b) => {
            sql.push_str(" AND sk >= ?");
            binds.push(b);
        }
        Bound::Excluded(b) => {
            sql.push_str(" AND sk > ?");
            binds.push(b);
        }
    }
    match &range.upper {
        Bound::Unbounded => {}
        Bound::Included(b) => {
            sql.push_str(" AND sk <= ?");
            binds.push(b);
        }
        Bound::Excluded(b) => {
            sql.push_str(" AND sk < ?");
            binds.push(b);
        }
    }
    let op = if range.forward { ">" } else { "<" };
    if let Some(EntryPosition { pk, sk, tail }) = cursor {
        if range.pk.is_some() {
            sql.push_str(&format!(" AND (sk, tail) {op} (?, ?)"));
        } else {
            sql.push_str(&format!(" AND (pk, sk, tail) {op} (?, ?, ?)"));
            binds.push(pk);
        }
        binds.push(sk);
        binds.push(tail);
    }
    let dir = if range.forward { "ASC" } else { "DESC" };
    // SQLite joins the subquery's rows in the order it produces them (a LIMIT subquery is not
    // flattened into an aggregate), but documents the order as arbitrary; an ORDER BY inside
    // the aggregate would sort every batch again. [`Batch::in_order`] checks instead.
    let sql = format!(
        "SELECT CAST(group_concat({BATCH_SQL_ROW}, '') AS BLOB), count(*) \
         FROM ({sql} ORDER BY pk {dir}, sk {dir}, tail {dir} LIMIT ?)"
    );
    let mut query = sqlx::query(&sql).bind(range.keyspace);
    for b in binds {
        query = query.bind(b);
    }
    query = query.bind(wanted);
    let row = query.fetch_one(&mut *conn).await?;
    // No entries: the value is NULL.
    let data: Option<&[u8]> = row.try_get_unchecked(0)?;
    let count: i64 = row.try_get_unchecked(1)?;
    let (spans, sizes) = Batch::split(data.unwrap_or_default())?;
    if i64::try_from(spans.len()) != Ok(count) {
        return Err(ApiError::internal("malformed batch of entries"));
    }
    let mut batch = Batch {
        data: Held::Row(row),
        spans,
        sizes,
    };
    batch.in_order(range.forward);
    Ok(batch)
}

#[cfg(test)]
mod tests;
