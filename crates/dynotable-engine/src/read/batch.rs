//! A batch of entries read from SQLite as one row: SQLite joins the batch's entries, in key
//! order, into one value ([`BATCH_SQL_ROW`]: per entry the lengths of its parts and its size,
//! then the parts), and [`Batch::split`] finds the entries in it where it lies, in the row sqlx
//! returned (see `read::page`, "One row per batch", for why). The item cache keeps a whole
//! collection as one such batch (`read::CollectionRows`).

use std::ops::Range as Span;

use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};

use super::{Bound, EntryPosition, Range};
use crate::ApiError;

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
    pub(super) fn position(&self) -> EntryPosition {
        EntryPosition {
            pk: self.pk.to_vec(),
            sk: self.sk.to_vec(),
            tail: self.tail.to_vec(),
        }
    }
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
pub(super) const BATCH_SQL_ROW: &str = "char(length(pk), length(sk), length(tail), length(body) & 1048575, length(body) >> 20, \
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
    pub(super) fn entry<'a>(&'a self, i: usize, pk: &'a [u8]) -> EntryRef<'a> {
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
    pub(super) fn key(&self, i: usize) -> (&[u8], &[u8], &[u8]) {
        key_of(self.data.bytes(), &self.spans[i])
    }

    /// Puts the entries in key order (ascending when `forward`), if SQLite joined them in
    /// another: a comparison per entry when they already are.
    pub(super) fn in_order(&mut self, forward: bool) {
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
pub(super) fn char_at(bytes: &[u8]) -> Option<(u32, usize)> {
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
