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
//! `LastEvaluatedKey`.

use dynotable_expr::{Condition, Projection};
use dynotable_types::Item;
use serde_json::value::RawValue;
use sqlx::{Row, SqliteConnection};

use crate::ApiError;
use crate::item_cache::CollectionRows;
use crate::items::decode_entry;

/// Rule B.4: a single Query or Scan reads at most 1 MB before filtering.
pub(crate) const PAGE_BYTES: u64 = 1024 * 1024;
/// Rows fetched from SQLite at a time.
const BATCH: i64 = 128;

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
}

/// A page: the items returned, how many were evaluated, the bytes read and where it stopped.
pub(crate) struct Page {
    pub items: Vec<Item>,
    /// The items returned as stored, instead of `items` (see "Stored items" above).
    pub stored: Option<Vec<Box<RawValue>>>,
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
        stored: keep_stored.then(Vec::new),
        count: 0,
        scanned: 0,
        bytes_read: 0,
        stopped_at: None,
    };
    let mut cursor = range.start_after.clone();
    loop {
        // No more rows than the Limit can still take: a page of 100 reads 100, not a batch.
        let wanted = rules.limit.map_or(BATCH, |l| {
            (l.saturating_sub(page.scanned).max(1) as i64).min(BATCH)
        });
        let rows = match &mut source {
            Rows::Sqlite(conn) => fetch(conn, range, cursor.as_ref(), wanted).await?,
            Rows::Collection(collection) => fetch_cached(collection, range, cursor.as_ref(), wanted),
        };
        let exhausted = (rows.len() as i64) < wanted;
        for (pk, sk, tail, body, size) in rows {
            cursor = Some(EntryPosition {
                pk: pk.clone(),
                sk,
                tail,
            });
            if let Some((segment, total)) = range.segment
                && segment_of(&pk, total) != segment
            {
                continue;
            }
            if let Some(stored) = &mut page.stored {
                page.scanned += 1;
                page.count += 1;
                page.bytes_read += u64::try_from(size).unwrap_or(0);
                let full = rules.limit.is_some_and(|l| page.scanned >= l) || page.bytes_read >= PAGE_BYTES;
                if full {
                    page.stopped_at = Some(decode_entry(&body, size)?.item);
                }
                stored.push(stored_body(body)?);
                if full {
                    return Ok(page);
                }
                continue;
            }
            let stored = decode_entry(&body, size)?;
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

/// A stored body as a raw JSON value (checked to be JSON, not decoded).
pub(crate) fn stored_body(body: Vec<u8>) -> Result<Box<RawValue>, ApiError> {
    let text = String::from_utf8(body).map_err(ApiError::internal)?;
    RawValue::from_string(text).map_err(ApiError::internal)
}

type Row5 = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, i64);

/// [`fetch`] on a cached collection: the same bounds, cursor, order and count. A table's
/// entries have an empty tail, and SQLite compares blobs as byte strings, as slices compare.
fn fetch_cached(
    collection: &CollectionRows,
    range: &Range,
    cursor: Option<&EntryPosition>,
    wanted: i64,
) -> Vec<Row5> {
    let pk = range.pk.clone().unwrap_or_default();
    let within = |sk: &[u8]| {
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
            let here = (sk, &[][..]);
            let there = (c.sk.as_slice(), c.tail.as_slice());
            if range.forward { here > there } else { here < there }
        });
        above && below && after
    };
    let row = |(sk, item): &(Box<[u8]>, std::sync::Arc<crate::item_cache::StoredBody>)| {
        (
            pk.clone(),
            sk.to_vec(),
            Vec::new(),
            item.body.as_bytes().to_vec(),
            item.size as i64,
        )
    };
    let wanted = usize::try_from(wanted).unwrap_or(0);
    if range.forward {
        collection
            .rows
            .iter()
            .filter(|(sk, _)| within(sk))
            .take(wanted)
            .map(row)
            .collect()
    } else {
        collection
            .rows
            .iter()
            .rev()
            .filter(|(sk, _)| within(sk))
            .take(wanted)
            .map(row)
            .collect()
    }
}

async fn fetch(
    conn: &mut SqliteConnection,
    range: &Range,
    cursor: Option<&EntryPosition>,
    wanted: i64,
) -> Result<Vec<Row5>, ApiError> {
    let mut sql = String::from("SELECT pk, sk, tail, body, size FROM entries WHERE keyspace = ?");
    let mut binds: Vec<Vec<u8>> = Vec::new();
    if let Some(pk) = &range.pk {
        sql.push_str(" AND pk = ?");
        binds.push(pk.clone());
    }
    match &range.lower {
        Bound::Unbounded => {}
        Bound::Included(b) => {
            sql.push_str(" AND sk >= ?");
            binds.push(b.clone());
        }
        Bound::Excluded(b) => {
            sql.push_str(" AND sk > ?");
            binds.push(b.clone());
        }
    }
    match &range.upper {
        Bound::Unbounded => {}
        Bound::Included(b) => {
            sql.push_str(" AND sk <= ?");
            binds.push(b.clone());
        }
        Bound::Excluded(b) => {
            sql.push_str(" AND sk < ?");
            binds.push(b.clone());
        }
    }
    let op = if range.forward { ">" } else { "<" };
    if let Some(EntryPosition { pk, sk, tail }) = cursor {
        if range.pk.is_some() {
            sql.push_str(&format!(" AND (sk, tail) {op} (?, ?)"));
        } else {
            sql.push_str(&format!(" AND (pk, sk, tail) {op} (?, ?, ?)"));
            binds.push(pk.clone());
        }
        binds.push(sk.clone());
        binds.push(tail.clone());
    }
    let dir = if range.forward { "ASC" } else { "DESC" };
    sql.push_str(&format!(" ORDER BY pk {dir}, sk {dir}, tail {dir} LIMIT ?"));

    let mut query = sqlx::query(&sql).bind(range.keyspace);
    for b in binds {
        query = query.bind(b);
    }
    query = query.bind(wanted);
    let rows = query.fetch_all(&mut *conn).await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect())
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Location};

    /// The wire path splices stored bodies; PartiQL's path decodes them. Both must say the same.
    #[tokio::test]
    async fn stored_items_serialise_as_the_decoded_items_do() {
        let mut options = crate::Options::new(Location::InMemory);
        options.sweep_interval = None;
        let engine = Engine::open_with(options).await.unwrap();
        let call = |op: &'static str, body: String| {
            let engine = engine.clone();
            async move { engine.call(op, body.as_bytes()).await.unwrap() }
        };
        call(
            "CreateTable",
            r#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"p","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}],
                "AttributeDefinitions":[{"AttributeName":"p","AttributeType":"S"},{"AttributeName":"s","AttributeType":"N"}],
                "BillingMode":"PAY_PER_REQUEST"}"#
                .to_owned(),
        )
        .await;
        for s in 0..5 {
            call(
                "PutItem",
                format!(
                    r#"{{"TableName":"Tbl","Item":{{"p":{{"S":"a"}},"s":{{"N":"{s}"}},"n":{{"N":"1.50"}},"l":{{"L":[{{"S":"x"}},{{"BOOL":true}}]}},"m":{{"M":{{"z":{{"NULL":true}}}}}}}}}}"#
                ),
            )
            .await;
        }
        let query = r#"{"TableName":"Tbl","KeyConditionExpression":"p = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":3,"ScanIndexForward":false,"ReturnConsumedCapacity":"TOTAL"}"#;
        let input = || serde_json::from_str(query).unwrap();
        let decoded = crate::ops::query::run(&engine, input()).await.unwrap();
        assert!(decoded.stored_items.is_none());
        let spliced = crate::ops::query::respond(&engine, input()).await.unwrap();
        assert_eq!(spliced.stored_items.as_ref().map(Vec::len), Some(3));
        let json = |v: &crate::api::item::ReadPageOutput| serde_json::to_value(v).unwrap();
        assert_eq!(json(&spliced), json(&decoded));
        assert!(json(&spliced)["LastEvaluatedKey"].is_object());

        let get = r#"{"TableName":"Tbl","Key":{"p":{"S":"a"},"s":{"N":"2"}}}"#;
        let input = || serde_json::from_str(get).unwrap();
        let decoded = crate::ops::get_item::run(&engine, input()).await.unwrap();
        let spliced = crate::ops::get_item::respond(&engine, input()).await.unwrap();
        assert!(spliced.stored_item.is_some() && spliced.item.is_none());
        assert_eq!(
            serde_json::to_value(&spliced).unwrap(),
            serde_json::to_value(&decoded).unwrap()
        );
    }
}
