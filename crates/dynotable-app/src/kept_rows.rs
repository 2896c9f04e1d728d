//! The first rows of each collection a statistics scan read, kept so the Collections view draws
//! its boxes on AWS (or any endpoint) from the Scan pages already paid for, not a Query per box.
//!
//! The life of a kept row:
//! 1. [`App::gather_statistics`](crate::App::gather_statistics) hands every item of every page
//!    to a [`RowKeeper`], which sorts each collection's items as a Query returns them (rule B.4
//!    in `docs/dynamodb-rules.md`: by sort key, numbers by value, strings and binaries by their
//!    bytes, the order of rule B.9) and keeps the first [`ROWS_KEPT`]. Nothing here assumes the
//!    order a Scan returns a collection's items in: a collection met again on a later page is
//!    merged with what was kept of it. After each page the keeper writes what it holds to the
//!    app database (migration 0007), so a whole scan of a big table holds one page in memory.
//! 2. When the view reads a box ([`App::collection_page`](crate::App::collection_page)) with the
//!    box's plain first-page Query, [`App::kept_page`] answers from those rows when they are
//!    exactly what the Query would return: no read is sent, and the page says where its rows come
//!    from ([`crate::dto::QueryPage::kept_from_scan`]).
//!    - A collection of the table, larger than what was kept, is answered up to its last kept row,
//!      with that row's primary key as LastEvaluatedKey: a table's sort-key values are unique, so
//!      a Query from it reads on exactly where the kept rows end.
//!    - An index's collection only when the whole of it was kept: items with equal index keys
//!      have no order the documentation gives, so a Query could not be continued from a kept one.
//!    - Not the collection a stopped scan was in the middle of (`open`).
//!    - Not rows of more than 1 MB together: a Query's page would stop before their end.
//! 3. A write the app sends to the table forgets the table's kept rows (every index's too: a
//!    write moves items between an index's collections), and a new statistics scan replaces them.
//!    Writes by other clients are not seen, as with the statistics themselves: the box says when
//!    its rows were read.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use sqlx::{Row, SqlitePool};

use crate::collections::order_key;
use crate::dto::attribute::item_to_engine;
use crate::dto::{AttributeValue, Item, KeySchema, PageStop, QueryInput, QueryPage};
use crate::sessions::Session;
use crate::{App, CommandError, ErrorCode};

/// The rows kept of each collection: as many as the Collections view draws in a box before the
/// user asks for more (`rowsPerBox` in `useCollections.ts`).
pub const ROWS_KEPT: usize = 20;

fn storage(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::ProfileStorage,
        format!("The kept rows of a statistics scan could not be stored: {err}"),
    )
}

/// One collection's rows as they are gathered: the first ones in Query order, with the bytes
/// that order them.
#[derive(Default)]
struct Gathered {
    items: f64,
    rows: Vec<(Vec<u8>, Item)>,
}

impl Gathered {
    /// Counts an item that sorts at `order`, keeping it (`item()`, made only then) if it is
    /// among the first [`ROWS_KEPT`].
    fn add(&mut self, order: Vec<u8>, item: impl FnOnce() -> Item) {
        self.items += 1.0;
        if self.rows.len() == ROWS_KEPT && self.rows.last().is_some_and(|(last, _)| *last <= order) {
            return;
        }
        let at = self.rows.partition_point(|(o, _)| *o <= order);
        self.rows.insert(at, (order, item()));
        self.rows.truncate(ROWS_KEPT);
    }
}

/// What a statistics scan keeps of the collections it reads (see the module's docs).
pub(crate) struct RowKeeper {
    profile_id: String,
    table: String,
    index: String,
    /// The sort-key attribute of what is scanned (the table or the index); `None`: no sort key.
    sort_key: Option<String>,
    /// The table's primary-key attributes, which order items of equal sort keys (an index) and
    /// make a kept row's LastEvaluatedKey.
    table_keys: Vec<String>,
    /// Whether rows are kept at all: not for an index whose key has several attributes (rule
    /// B.18), whose boxes are read with one equality per attribute.
    keeps: bool,
    /// What this page gathered, by collection (the text of its partition-key value).
    page: HashMap<String, Gathered>,
    /// Collections with rows in the database from an earlier page or run.
    stored: HashSet<String>,
}

impl RowKeeper {
    /// A keeper for a scan of `table` (or its index `index`, whose keys are `read_keys`).
    /// `resume`: the scan continues an earlier one, whose kept rows stay; otherwise they are
    /// dropped before the first page.
    pub(crate) async fn start(
        pool: &SqlitePool,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
        read_keys: &KeySchema,
        table_keys: &KeySchema,
        resume: bool,
    ) -> Result<RowKeeper, CommandError> {
        let index = index.unwrap_or("").to_owned();
        let mut stored = HashSet::new();
        if resume {
            let rows = sqlx::query(
                "SELECT partition_value FROM gathered_rows WHERE profile_id = ? AND table_name = ? AND index_name = ?",
            )
            .bind(profile_id)
            .bind(table)
            .bind(&index)
            .fetch_all(pool)
            .await
            .map_err(storage)?;
            stored.extend(rows.iter().map(|r| r.get::<String, _>(0)));
        } else {
            sqlx::query(
                "DELETE FROM gathered_rows WHERE profile_id = ? AND table_name = ? AND index_name = ?",
            )
            .bind(profile_id)
            .bind(table)
            .bind(&index)
            .execute(pool)
            .await
            .map_err(storage)?;
        }
        Ok(RowKeeper {
            profile_id: profile_id.to_owned(),
            table: table.to_owned(),
            index,
            sort_key: read_keys.sort_key.as_ref().map(|k| k.name.clone()),
            table_keys: table_keys
                .partition_keys()
                .chain(table_keys.sort_keys())
                .map(|k| k.name.clone())
                .collect(),
            keeps: read_keys.more_partition_keys.is_empty() && read_keys.more_sort_keys.is_empty(),
            page: HashMap::new(),
            stored,
        })
    }

    /// The bytes that put `item` in Query order: its sort key (rule B.9), then the table's key,
    /// which orders items of equal index sort keys (the documentation gives them no order) and
    /// is unique; a missing attribute sorts last.
    fn order_of(&self, item: &Item) -> Vec<u8> {
        let mut order = Vec::new();
        for name in self.sort_key.iter().chain(&self.table_keys) {
            match item.get(name) {
                Some(value) => {
                    let (odd, bytes) = order_key(value);
                    // Key encodings are self-delimiting (`dynotable_types::key_encoding`), so
                    // one attribute's bytes never run into the next's.
                    order.push(u8::from(odd));
                    order.extend(bytes);
                }
                None => order.push(2),
            }
        }
        order
    }

    /// Counts `item` into the collection whose partition-key value's text is `key`, keeping it
    /// if it is among the collection's first rows.
    pub(crate) fn add(&mut self, key: &str, item: &Item) {
        if !self.keeps {
            return;
        }
        let order = self.order_of(item);
        let gathered = self.page.entry(key.to_owned()).or_default();
        gathered.add(order, || item.clone());
    }

    /// Writes what this page gathered, merged with what earlier pages kept of the same
    /// collections.
    pub(crate) async fn flush(&mut self, pool: &SqlitePool, read_at: f64) -> Result<(), CommandError> {
        if self.page.is_empty() {
            return Ok(());
        }
        let mut tx = pool.begin().await.map_err(storage)?;
        let page = std::mem::take(&mut self.page);
        for (key, mut gathered) in page {
            if self.stored.contains(&key) {
                let earlier = sqlx::query(
                    "SELECT items, rows FROM gathered_rows WHERE profile_id = ? AND table_name = ? AND index_name = ? AND partition_value = ?",
                )
                .bind(&self.profile_id)
                .bind(&self.table)
                .bind(&self.index)
                .bind(&key)
                .fetch_optional(&mut *tx)
                .await
                .map_err(storage)?;
                if let Some(row) = earlier {
                    let items: f64 = row.get(0);
                    let rows: Vec<Item> = serde_json::from_str(row.get::<&str, _>(1)).map_err(storage)?;
                    let counted = gathered.items;
                    for item in rows {
                        gathered.add(self.order_of(&item), || item);
                    }
                    gathered.items = counted + items;
                }
            }
            let rows: Vec<&Item> = gathered.rows.iter().map(|(_, item)| item).collect();
            sqlx::query(
                "INSERT INTO gathered_rows (profile_id, table_name, index_name, partition_value, items, rows, open, read_at) \
                 VALUES (?, ?, ?, ?, ?, ?, 0, ?) \
                 ON CONFLICT (profile_id, table_name, index_name, partition_value) DO UPDATE SET \
                 items = excluded.items, rows = excluded.rows, open = 0, read_at = excluded.read_at",
            )
            .bind(&self.profile_id)
            .bind(&self.table)
            .bind(&self.index)
            .bind(&key)
            .bind(gathered.items)
            .bind(serde_json::to_string(&rows).map_err(storage)?)
            .bind(read_at)
            .execute(&mut *tx)
            .await
            .map_err(storage)?;
            self.stored.insert(key);
        }
        tx.commit().await.map_err(storage)
    }

    /// The scan stopped while it read the collection of `key`: its rows are not served until a
    /// scan reads on past it.
    pub(crate) async fn stopped_in(&self, pool: &SqlitePool, key: &str) -> Result<(), CommandError> {
        sqlx::query(
            "UPDATE gathered_rows SET open = 1 WHERE profile_id = ? AND table_name = ? AND index_name = ? AND partition_value = ?",
        )
        .bind(&self.profile_id)
        .bind(&self.table)
        .bind(&self.index)
        .bind(key)
        .execute(pool)
        .await
        .map_err(storage)?;
        Ok(())
    }
}

/// The text a collection's partition-key value is kept under (the statistics count by it too).
pub(crate) fn value_key(value: &AttributeValue) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl App {
    /// The page of a box's first Query answered from a statistics scan's kept rows, when they are
    /// exactly what the Query returns (see the module's docs); `None`: send the Query.
    pub(crate) async fn kept_page(
        &self,
        profile_id: &str,
        input: &QueryInput,
        table_keys: &KeySchema,
    ) -> Result<Option<QueryPage>, CommandError> {
        // Only the plain first page of a box: no condition, filter or projection, forward,
        // eventually consistent (what the scan read), one partition-key attribute.
        if input.exclusive_start_key.is_some()
            || input.sort_condition.is_some()
            || !input.scan_index_forward
            || input.consistent_read
            || input.projection.is_some()
            || input.filter.is_some()
            || !input.more_partition_values.is_empty()
            || !input.sort_equal_values.is_empty()
        {
            return Ok(None);
        }
        let pool = self.profile_store().await?.pool();
        let row = sqlx::query(
            "SELECT items, rows, read_at FROM gathered_rows \
             WHERE profile_id = ? AND table_name = ? AND index_name = ? AND partition_value = ? AND open = 0",
        )
        .bind(profile_id)
        .bind(&input.table)
        .bind(input.index.as_deref().unwrap_or(""))
        .bind(value_key(&input.partition_value))
        .fetch_optional(pool)
        .await
        .map_err(storage)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let items: f64 = row.get(0);
        let mut rows: Vec<Item> = serde_json::from_str(row.get::<&str, _>(1)).map_err(storage)?;
        let read_at: f64 = row.get(2);
        let limit = input.limit.map_or(usize::MAX, |l| l as usize);
        let whole = rows.len() as f64 >= items;
        let page = if whole && limit >= rows.len() {
            // The whole collection, and the Query's Limit does not cut it.
            (rows, None, PageStop::End)
        } else if input.index.is_none() && limit <= rows.len() {
            rows.truncate(limit);
            let last = rows.last().map(|item| {
                table_keys
                    .partition_keys()
                    .chain(table_keys.sort_keys())
                    .filter_map(|k| Some((k.name.clone(), item.get(&k.name)?.clone())))
                    .collect::<Item>()
            });
            (rows, last, PageStop::Limit)
        } else {
            return Ok(None);
        };
        let (items, last_evaluated_key, stop) = page;
        // A Query page reads at most 1 MB (rule B.4): rows past it would not all be in the
        // Query's first page, so a page of large items is left to the Query.
        let bytes: usize = items
            .iter()
            .map(|item| item_to_engine(item).map_or(0, |i| dynotable_types::item_size(&i)))
            .sum();
        if bytes > 1024 * 1024 {
            return Ok(None);
        }
        let count = items.len() as u32;
        Ok(Some(QueryPage {
            items,
            count,
            scanned_count: count,
            last_evaluated_key,
            consumed_capacity: None,
            stop,
            kept_from_scan: Some(read_at),
        }))
    }

    /// The session of a profile the app is about to write to `table` through (`None`: a table
    /// it cannot name, a PartiQL statement's), `READ_ONLY` when the connection is read-only.
    /// Every row the statistics scans of that table (or of every table of the connection) kept is
    /// forgotten first, so no box is drawn from rows older than the write.
    pub(crate) async fn writing(
        &self,
        profile_id: &str,
        table: Option<&str>,
    ) -> Result<Arc<Session>, CommandError> {
        let session = self.session(profile_id).await?;
        session.writable()?;
        if !session.is_embedded() {
            self.forget_kept_rows(profile_id, table).await?;
        }
        Ok(session)
    }

    async fn forget_kept_rows(&self, profile_id: &str, table: Option<&str>) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        sqlx::query("DELETE FROM gathered_rows WHERE profile_id = ? AND (? IS NULL OR table_name = ?)")
            .bind(profile_id)
            .bind(table)
            .bind(table)
            .execute(pool)
            .await
            .map_err(storage)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Gathered, ROWS_KEPT};
    use crate::collections::order_key;
    use crate::dto::{AttributeValue, Item};
    use proptest::prelude::*;

    fn reading(at: &str) -> Item {
        Item::from([("recordedAt".to_owned(), AttributeValue::N(at.to_owned()))])
    }

    proptest! {
        /// Whatever order a collection's items arrive in, and however they are split between
        /// pages merged later, what is kept is its first `ROWS_KEPT` items in Query order
        /// (numbers by value, rule B.9) and the count of all of them.
        #[test]
        fn the_first_rows_in_query_order_are_kept_whatever_order_they_arrive_in(
            values in proptest::collection::btree_set(-10_000i64..10_000, 0..80),
            seed in any::<u64>(),
            split in 0usize..80,
        ) {
            let mut arriving: Vec<String> = values.iter().map(|v| format!("{v}.5")).collect();
            // A shuffle from the seed (no rand crate): sort by a hash of the position.
            arriving.sort_by_key(|v| v.bytes().fold(seed, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))));
            let split = split.min(arriving.len());
            let (first, second) = arriving.split_at(split);
            let mut one = Gathered::default();
            for v in first {
                one.add(order_key(&AttributeValue::N(v.clone())).1, || reading(v));
            }
            // The second page, merged with what the first kept (as `RowKeeper::flush` does).
            let mut two = Gathered::default();
            for v in second {
                two.add(order_key(&AttributeValue::N(v.clone())).1, || reading(v));
            }
            let counted = two.items;
            for (order, item) in one.rows {
                two.add(order, || item);
            }
            two.items = counted + one.items;
            let kept: Vec<String> = two.rows.iter().map(|(_, i)| i["recordedAt"].display_text()).collect();
            let expected: Vec<String> = values.iter().take(ROWS_KEPT).map(|v| format!("{v}.5")).collect();
            prop_assert_eq!(kept, expected);
            prop_assert_eq!(two.items, values.len() as f64);
        }
    }
}
