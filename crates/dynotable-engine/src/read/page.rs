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

use dynotable_expr::{Condition, Projection};
use dynotable_types::Item;
use sqlx::SqliteConnection;

use super::batch::{Batch, EntryRef, fetch};
use crate::api::item::StoredItems;
use crate::capacity::PAGE_BYTES;
use crate::entry::decode_entry;
use crate::{ApiError, PageBuffers};

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

/// A whole item collection of a table, as stored: every item's keys and body, in sort-key
/// order, kept as the one batch SQLite returned it in (one buffer, no allocation per item).
/// Query reads its pages from it ([`read_page_from`]); the item cache keeps it (`item_cache`).
pub(crate) struct CollectionRows {
    pub batch: Batch,
}

impl std::fmt::Debug for CollectionRows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CollectionRows")
            .field("items", &self.batch.len())
            .finish()
    }
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
    if range.pk.is_none() {
        return fetch_cached_keyspace(collection, cursor, wanted);
    }
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
    let walk: Box<dyn Iterator<Item = usize>> = if range.forward {
        let from = first_not(batch.len(), |i| !within_lower(range, cursor, sk(i)));
        Box::new(from..batch.len())
    } else {
        let to = first_not(batch.len(), |i| within_upper(range, cursor, sk(i)));
        Box::new((0..to).rev())
    };
    walk.take_while(|&i| within(sk(i)))
        .take(wanted)
        .map(|i| batch.entry(i, pk))
        .collect()
}

/// The first of `0..len` for which `before` is false, `before` being true for a leading run and
/// false after it (entries in key order): a binary search.
fn first_not(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let mid = low + (high - low) / 2;
        if before(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// The entries of a whole keyspace held in memory (a lagged Scan, `eventual_lag`) after
/// `cursor`, in `(pk, sk, tail)` order: a Scan walks forward, without key bounds.
fn fetch_cached_keyspace<'a>(
    collection: &'a CollectionRows,
    cursor: Option<&EntryPosition>,
    wanted: i64,
) -> Vec<EntryRef<'a>> {
    let batch = &collection.batch;
    let wanted = usize::try_from(wanted).unwrap_or(0);
    let passed = |i: usize| {
        cursor.is_some_and(|c| batch.key(i) <= (c.pk.as_slice(), c.sk.as_slice(), c.tail.as_slice()))
    };
    (first_not(batch.len(), passed)..batch.len())
        .take(wanted)
        .map(|i| batch.entry(i, batch.key(i).0))
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

#[cfg(test)]
mod tests;
