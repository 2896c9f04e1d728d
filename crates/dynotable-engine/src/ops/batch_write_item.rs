//! BatchWriteItem: up to 25 puts and deletes over one or more tables (rule B.7). Every request
//! is validated before anything is written; then all are written in one storage transaction.
//! Each item is charged like a PutItem or DeleteItem, rounded per item (rule B.3).
//!
//! Each item is claimed as a single-item write (`in_flight`) before the writer is awaited. A
//! put or delete whose item an ongoing TransactWriteItems holds is not written, not charged, and
//! comes back in `UnprocessedItems` for the caller to send again: BatchWriteItem's errors do not
//! include `TransactionConflictException`, and a request of the batch that could not be
//! processed is returned in `UnprocessedItems` (API reference, BatchWriteItem). While the batch
//! is in flight its items make a TransactGetItems or TransactWriteItems that includes them
//! cancel with `TransactionConflict` (DG `transaction-apis.html`, "Transaction conflict handling
//! in DynamoDB").
//!
//! A batch of puts is usually a load of new items. Its old items are then all absent, and the
//! read that looks for them is a round trip to SQLite's thread for nothing: such a batch is
//! first written on the assumption that none of its items exists (`write_tx`, `commit_new`),
//! begin to commit in one round trip. If one did exist, nothing is committed and the batch is
//! written again the usual way, with its old items read — the outcome is the same either way.
//! A batch is written so only when every request is a put, no table has a local secondary
//! index (the collection size limit and ItemCollectionMetrics read the collection), the item
//! cache knows none of the items to exist, and no such attempt failed lately ([`FreshPuts`]).
//! Its statements — each item's entry and index entries with their bodies, the summed
//! statistics — need nothing from the transaction, so they are built before the writer is
//! taken: the writer, which every write request waits for in turn (`writer`), is held only to
//! send them. Built under it, they kept SQLite's thread idle while each member of a group
//! commit encoded its 25 items (bench/README.md, session 2026-12-06).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use dynotable_types::{ConstraintViolation, SizeCheck, check_item_size};

use crate::api::ConsumedCapacity;
use crate::api::item::{BatchWriteItemInput, BatchWriteItemOutput, ItemCollectionMetrics};
use crate::capacity::{self, WriteUnits};
use crate::catalog::TableSchema;
use crate::entry::{self, StorageKey};
use crate::in_flight::ItemId;
use crate::item_cache::{Entry, KeyRef, Lookup};
use crate::items::{self, WriteContext, WriteEffects};
use crate::ops::item_write::PreparedItem;
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::write_tx::StatementBatch;
use crate::{ApiError, Engine};

/// Rule B.7: at most 25 put or delete requests in one BatchWriteItem.
const MAX_REQUESTS: usize = 25;

enum Request {
    Put(PreparedItem),
    Delete,
}

struct TableWrites {
    table: Arc<TableSchema>,
    writes: Vec<(StorageKey, dynotable_types::Item, Request)>,
}

/// Whether a batch of puts is written as new items first (module documentation).
#[derive(Debug, Default)]
pub(crate) struct FreshPuts {
    /// Batches still to be written the usual way since an attempt met an existing item.
    skip: AtomicU32,
}

impl FreshPuts {
    /// After an attempt met an existing item, this many batches are not attempted: a
    /// workload that overwrites items pays for the failed attempt once in so many batches.
    const BACK_OFF: u32 = 32;

    fn worth_trying(&self) -> bool {
        self.skip
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |skip| skip.checked_sub(1))
            .is_err()
    }

    fn met_existing(&self) {
        self.skip.store(Self::BACK_OFF, Ordering::Relaxed);
    }
}

/// What writing the batches reports: ConsumedCapacity per table and ItemCollectionMetrics.
struct Written {
    capacities: Vec<ConsumedCapacity>,
    metrics: BTreeMap<String, Vec<ItemCollectionMetrics>>,
}

pub async fn run(engine: &Engine, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput, ApiError> {
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.one_of(
        "returnItemCollectionMetrics",
        input.return_item_collection_metrics.as_ref(),
        &["SIZE", "NONE"],
    );
    // A missing map is null (rule B.15); an empty one is refused after the envelope, as
    // BatchGetItem refuses it.
    let present = shape.required("requestItems", input.request_items.as_ref());
    let request_items = input.request_items.unwrap_or_default();
    for (name, requests) in &request_items {
        shape.table(&format!("requestItems.{name}.member.tableName"), Some(name));
        if requests.is_empty() || requests.len() > MAX_REQUESTS {
            // The service echoes the map as Java prints it (`{Orders=[]}`). That is certain only
            // for one table with no requests; otherwise the value is left out (the order and
            // the rendering of the requests are not recorded).
            let value = (request_items.len() == 1 && requests.is_empty()).then(|| format!("{{{name}=[]}}"));
            shape.push(ConstraintViolation {
                field: "requestItems".into(),
                value,
                constraint: format!(
                    "Map value must satisfy constraint: [Member must have length less than or equal to {MAX_REQUESTS}, Member must have length greater than or equal to 1]"
                ),
            });
        }
        // A put without its item, a delete without its key: null at the request's path, list
        // members numbered from 1 (rule B.15).
        for (position, request) in requests.iter().enumerate() {
            let member = format!("requestItems.{name}.member.{}.member", position + 1);
            if let Some(put) = &request.put_request {
                shape.required(&format!("{member}.putRequest.item"), put.item.as_ref());
            }
            if let Some(delete) = &request.delete_request {
                shape.required(&format!("{member}.deleteRequest.key"), delete.key.as_ref());
            }
        }
    }
    shape.finish()?;
    if present && request_items.is_empty() {
        return Err(ApiError::validation(
            "The requestItems parameter is required for BatchWriteItem",
        ));
    }
    let total: usize = request_items.values().map(Vec::len).sum();
    if total > MAX_REQUESTS {
        return Err(ApiError::validation(
            "Too many items requested for the BatchWriteItem call",
        ));
    }

    // Rule B.15: the attribute values of every table's requests are checked before any table
    // is looked up, so a bad value beside an unknown table is the value's error; so is a put's
    // item over 400 KB, request by request after its values (rule B.1; dynalite's
    // test/batchWriteItem.js meets the limit against a table that does not exist). The part of
    // the limit an item's LSI entries take needs the table (`PreparedItem::new`).
    for requests in request_items.values() {
        for request in requests {
            let put = request.put_request.as_ref().and_then(|p| p.item.as_ref());
            let delete = request.delete_request.as_ref().and_then(|d| d.key.as_ref());
            for checked in put.into_iter().chain(delete) {
                if let Err(err) = &checked.0 {
                    return Err(err.clone().into());
                }
            }
            if let Some(Ok(item)) = put.map(|checked| &checked.0) {
                check_item_size(item, SizeCheck::Write)?;
            }
        }
    }

    // Validate everything first: values, tables, keys, sizes, index keys, duplicates.
    let mut batches = Vec::new();
    for (name, requests) in request_items {
        let table = engine.table(&name)?;
        let mut seen = BTreeSet::new();
        let mut writes = Vec::new();
        for request in requests {
            let (key, key_item, write) = match (request.put_request, request.delete_request) {
                (Some(put), None) => {
                    let item = put.item.map(|c| c.into_result()).transpose()?.unwrap_or_default();
                    // BatchWriteItem reports a key attribute of the wrong type, or missing (an
                    // empty item too), as a schema mismatch (rule B.10; dynalite's
                    // test/batchWriteItem.js, run against the service, for `{}`, `{b: ...}` and a
                    // range table's item without its sort key).
                    let key = StorageKey::of_item(&table, &item).map_err(|err| {
                        if err.message.contains("Type mismatch") || err.message.contains("Missing the key") {
                            ApiError::validation("The provided key element does not match the schema")
                        } else {
                            err
                        }
                    })?;
                    let key_item = entry::key_of(&table.key, &item);
                    (
                        key,
                        key_item,
                        Request::Put(PreparedItem::new(&table, item, SizeCheck::Write)?),
                    )
                }
                (None, Some(delete)) => {
                    let key_item = delete
                        .key
                        .map(|c| c.into_result())
                        .transpose()?
                        .unwrap_or_default();
                    (StorageKey::of_key(&table, &key_item)?, key_item, Request::Delete)
                }
                _ => {
                    // DynoTable's wording; the service's is not recorded.
                    return Err(ApiError::validation(
                        "One or more parameter values were invalid: A WriteRequest must contain exactly one of PutRequest or DeleteRequest",
                    ));
                }
            };
            if !seen.insert(key.clone()) {
                return Err(ApiError::validation(
                    "Provided list of item keys contains duplicates",
                ));
            }
            writes.push((key, key_item, write));
        }
        batches.push((name, TableWrites { table, writes }));
    }

    let mut output = BatchWriteItemOutput::default();
    // Claim every item; held until the storage transaction has ended (declared before `tx`).
    let items: Vec<ItemId> = batches
        .iter()
        .flat_map(|(_, batch)| {
            batch
                .writes
                .iter()
                .map(|(key, _, _)| ItemId::new(batch.table.keyspace, key))
        })
        .collect();
    let (_claim, held) = engine.in_flight().claim_writes(&items);
    let mut held = held.into_iter();
    for (name, batch) in &mut batches {
        for write in std::mem::take(&mut batch.writes) {
            if held.next().unwrap_or(false) {
                output
                    .unprocessed_items
                    .entry(name.clone())
                    .or_default()
                    .push(unprocessed(write)?);
            } else {
                batch.writes.push(write);
            }
        }
    }
    batches.retain(|(_, batch)| !batch.writes.is_empty());
    if batches.is_empty() {
        output.consumed_capacity = (report != CapacityReport::None).then(Vec::new);
        output.item_collection_metrics =
            (input.return_item_collection_metrics.as_deref() == Some("SIZE")).then(BTreeMap::new);
        return Ok(output);
    }

    let context = engine.write_context();
    let asked_metrics = input.return_item_collection_metrics.as_deref() == Some("SIZE");
    let finish = |mut output: BatchWriteItemOutput, written: Written| {
        output.consumed_capacity = (report != CapacityReport::None).then_some(written.capacities);
        output.item_collection_metrics = asked_metrics.then_some(written.metrics);
        Ok(output)
    };
    let mut retry = None;
    if fresh_puts_likely(engine, &batches) {
        // Built before the writer is taken: while it is held (by this request or by its group),
        // it only sends what is ready. The old items are not read, so nothing here needs the
        // transaction (no table with an LSI: `fresh_puts_likely`).
        let mut statements = StatementBatch::new();
        statements.expect_new_entries();
        let written = new_item_statements(&mut statements, &batches, &context, report, asked_metrics)?;
        statements.seal();
        let mut tx = engine.write_tx().await;
        tx.adopt(statements)?;
        match tx.commit_new().await? {
            Ok(()) => return finish(output, written),
            Err(back) => {
                engine.fresh_puts().met_existing();
                // Written again below, and charged as written then.
                crate::throttling::discard_recorded();
                retry = Some(back);
            }
        }
    }
    let mut tx = match retry {
        Some(tx) => tx,
        None => engine.write_tx().await,
    };
    let written = write_batches(&mut tx, &batches, &context, report, asked_metrics).await?;
    tx.commit().await?;
    finish(output, written)
}

/// Whether the batch is to be written as new items first (module documentation).
fn fresh_puts_likely(engine: &Engine, batches: &[(String, TableWrites)]) -> bool {
    let simple = batches.iter().all(|(_, batch)| {
        !batch.table.has_lsi()
            && batch
                .writes
                .iter()
                .all(|(_, _, write)| matches!(write, Request::Put(_)))
    });
    if !simple {
        return false;
    }
    let known_to_exist = |table: &TableSchema, key: &StorageKey| {
        engine.item_cache().is_some_and(|cache| {
            matches!(
                cache.lookup(KeyRef::item(table.keyspace, &key.pk, &key.sk)),
                Lookup::Hit(Entry::Item(Some(_)))
            )
        })
    };
    let none_known = batches.iter().all(|(_, batch)| {
        batch
            .writes
            .iter()
            .all(|(key, _, _)| !known_to_exist(&batch.table, key))
    });
    none_known && engine.fresh_puts().worth_trying()
}

/// Writes every batch into `tx`, with each table's old items read first.
async fn write_batches(
    tx: &mut crate::write_tx::WriteTx,
    batches: &[(String, TableWrites)],
    context: &WriteContext,
    report: CapacityReport,
    asked_metrics: bool,
) -> Result<Written, ApiError> {
    let mut tally = Tally::new(report, asked_metrics);
    for (name, batch) in batches {
        let table = &batch.table;
        // Every old item of the table in one read (the keys are distinct), sent with what the
        // transaction has pending.
        let keys: Vec<StorageKey> = batch.writes.iter().map(|(key, _, _)| key.clone()).collect();
        let olds = tx.load_items(table, &keys).await?;
        let mut units = tally.table(table);
        for ((key, key_item, write), old) in batch.writes.iter().zip(olds) {
            let new = new_of(write);
            let base = units.charge(old.as_ref().map(|o| o.size), new.map(|(_, size, _)| size));
            if old.is_none() && new.is_none() {
                crate::throttling::record_item(table, &key.pk, Charge::Write(base), &[]);
                continue;
            }
            let effects = items::write_item(tx, table, context, key, old.as_ref(), new).await?;
            crate::throttling::record_item(table, &key.pk, Charge::Write(base), &effects.index_units);
            units.add(&mut tally, (name, table), key_item, &effects);
        }
        tally.table_done(table, name, units);
    }
    Ok(tally.written)
}

/// The statements of every batch as new items (none read; see `WriteTx::commit_new`), appended
/// to `statements` without the writer.
fn new_item_statements(
    statements: &mut StatementBatch,
    batches: &[(String, TableWrites)],
    context: &WriteContext,
    report: CapacityReport,
    asked_metrics: bool,
) -> Result<Written, ApiError> {
    let mut tally = Tally::new(report, asked_metrics);
    for (name, batch) in batches {
        let table = &batch.table;
        let mut units = tally.table(table);
        for (key, key_item, write) in &batch.writes {
            let new = new_of(write);
            let base = units.charge(None, new.map(|(_, size, _)| size));
            if new.is_none() {
                crate::throttling::record_item(table, &key.pk, Charge::Write(base), &[]);
                continue;
            }
            let effects = items::write_item_statements(statements, table, context, key, None, new)?;
            crate::throttling::record_item(table, &key.pk, Charge::Write(base), &effects.index_units);
            units.add(&mut tally, (name, table), key_item, &effects);
        }
        tally.table_done(table, name, units);
    }
    Ok(tally.written)
}

/// A put's item, its size and index entries, as `items::write_item` takes them.
fn new_of(write: &Request) -> Option<(&dynotable_types::Item, u64, &[Option<entry::IndexEntry>])> {
    match write {
        Request::Put(prepared) => Some((&prepared.item, prepared.size, prepared.entries.as_slice())),
        Request::Delete => None,
    }
}

/// ConsumedCapacity per table and ItemCollectionMetrics, summed as the items are written.
struct Tally {
    report: CapacityReport,
    asked_metrics: bool,
    written: Written,
}

/// The write units of one table and of each of its indexes so far.
struct TableUnits {
    table: WriteUnits,
    indexes: Vec<WriteUnits>,
}

impl Tally {
    fn new(report: CapacityReport, asked_metrics: bool) -> Tally {
        Tally {
            report,
            asked_metrics,
            written: Written {
                capacities: Vec::new(),
                metrics: BTreeMap::new(),
            },
        }
    }

    fn table(&self, table: &TableSchema) -> TableUnits {
        TableUnits {
            table: WriteUnits(0),
            indexes: vec![WriteUnits(0); table.indexes.len()],
        }
    }

    /// `named` is the table as RequestItems named it (its name or ARN), which ConsumedCapacity
    /// echoes (rule B.2).
    fn table_done(&mut self, table: &TableSchema, named: &str, units: TableUnits) {
        if let Some(consumed) = params::consumed_capacity(
            self.report,
            table,
            named,
            Some(Charge::Write(units.table)),
            &params::index_write_charges(&units.indexes),
        ) {
            self.written.capacities.push(consumed);
        }
    }
}

impl TableUnits {
    /// Each item is charged like a PutItem or DeleteItem, rounded per item (rule B.3): its
    /// units, added to the table's.
    fn charge(&mut self, old: Option<u64>, new: Option<u64>) -> WriteUnits {
        let units = capacity::item_write(old, new, false);
        self.table += units;
        units
    }

    /// An item written: its index units, and its collection's metrics if asked for.
    fn add(
        &mut self,
        tally: &mut Tally,
        (name, table): (&str, &TableSchema),
        key_item: &dynotable_types::Item,
        effects: &WriteEffects,
    ) {
        for (total, units) in self.indexes.iter_mut().zip(&effects.index_units) {
            *total += *units;
        }
        if let Some(m) =
            crate::ops::item_write::collection_metrics(tally.asked_metrics, table, key_item, effects)
        {
            tally.written.metrics.entry(name.to_owned()).or_default().push(m);
        }
    }
}

/// A write request returned in `UnprocessedItems`, as the caller sent it.
fn unprocessed(
    (_, key_item, write): (StorageKey, dynotable_types::Item, Request),
) -> Result<serde_json::Value, ApiError> {
    let (request, member, item) = match write {
        Request::Put(prepared) => ("PutRequest", "Item", prepared.item),
        Request::Delete => ("DeleteRequest", "Key", key_item),
    };
    let item = serde_json::to_value(item).map_err(ApiError::internal)?;
    let inner = serde_json::Map::from_iter([(member.to_owned(), item)]);
    Ok(serde_json::Value::Object(serde_json::Map::from_iter([(
        request.to_owned(),
        serde_json::Value::Object(inner),
    )])))
}

#[cfg(test)]
mod tests {
    //! A batch of puts written as new items first must end exactly as the usual way would: the
    //! same responses, items, index entries, statistics and stream records, also when some of
    //! its items did exist and the attempt was undone.

    use super::FreshPuts;
    use crate::{Engine, Location, Options};

    const CREATE: &str = r#"{"TableName":"Readings","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"vehicle","AttributeType":"S"},
            {"AttributeName":"seq","AttributeType":"N"},{"AttributeName":"depot","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"vehicle","KeyType":"HASH"},{"AttributeName":"seq","KeyType":"RANGE"}],
        "GlobalSecondaryIndexes":[{"IndexName":"ByDepot","KeySchema":[{"AttributeName":"depot","KeyType":"HASH"},
            {"AttributeName":"seq","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}"#;

    /// An engine with the table; `cache` off means it cannot know that an item exists, so a
    /// batch over existing items is attempted as new items and undone.
    async fn engine(cache: bool) -> Engine {
        engine_with(cache, CREATE).await
    }

    /// [`engine`], the table created by `create`.
    async fn engine_with(cache: bool, create: &str) -> Engine {
        let mut options = Options::new(Location::InMemory);
        options.sweep_interval = None;
        // One fixed time for every engine of these tests: their stream records carry it, and
        // two engines compared row by row must not differ because a second passed between them.
        options.clock = std::sync::Arc::new(crate::ManualClock::new(1_741_942_800.0));
        if !cache {
            options.item_cache_bytes = 0;
        }
        let engine = Engine::open_with(options).await.unwrap();
        engine.call("CreateTable", create.as_bytes()).await.unwrap();
        engine
    }

    /// A BatchWriteItem of puts of `(vehicle, seq, depot, payload length)`.
    fn puts(items: &[(u32, u32, &str, usize)]) -> String {
        let requests: Vec<String> = items
            .iter()
            .map(|(vehicle, seq, depot, len)| {
                format!(
                    r#"{{"PutRequest":{{"Item":{{"vehicle":{{"S":"v{vehicle}"}},"seq":{{"N":"{seq}"}},"depot":{{"S":"{depot}"}},"payload":{{"S":"{}"}}}}}}}}"#,
                    "x".repeat(*len)
                )
            })
            .collect();
        format!(
            r#"{{"RequestItems":{{"Readings":[{}]}},"ReturnConsumedCapacity":"INDEXES"}}"#,
            requests.join(",")
        )
    }

    /// Everything stored, as text: items and index entries, collection and keyspace
    /// statistics, and stream records (their times masked).
    async fn stored(engine: &Engine) -> Vec<String> {
        let mut writer = engine.writer().await;
        let mut rows = Vec::new();
        for sql in [
            "SELECT keyspace || ' ' || hex(pk) || ' ' || hex(sk) || ' ' || hex(tail) || ' ' || CAST(body AS TEXT) || ' ' || size FROM entries ORDER BY keyspace, pk, sk, tail",
            "SELECT keyspace || ' ' || hex(pk) || ' ' || item_count || ' ' || size_bytes FROM collections ORDER BY keyspace, pk",
            "SELECT id || ' ' || item_count || ' ' || size_bytes FROM keyspaces ORDER BY id",
            "SELECT seq || ' ' || event_name || ' ' || record FROM stream_records ORDER BY seq",
        ] {
            let found: Vec<String> = sqlx::query_scalar(sql).fetch_all(&mut writer.conn).await.unwrap();
            rows.extend(found);
        }
        rows
    }

    #[tokio::test]
    async fn a_batch_over_existing_items_ends_as_the_usual_way_would() {
        let (attempted, usual) = (engine(false).await, engine(true).await);
        let fresh: Vec<_> = (0..25).map(|i| (i, 1, "d1", 20 + i as usize)).collect();
        // Fifteen new items, then ten of the earlier ones again, moved to another depot and
        // grown: the attempt has written the new ones when it meets the first existing one.
        let mixed: Vec<_> = (0..15)
            .map(|i| (i, 2, "d1", 30))
            .chain((0..10).map(|i| (i, 1, "d2", 1500)))
            .collect();
        for (step, batch) in [puts(&fresh), puts(&mixed)].iter().enumerate() {
            let a = attempted.call("BatchWriteItem", batch.as_bytes()).await.unwrap();
            let u = usual.call("BatchWriteItem", batch.as_bytes()).await.unwrap();
            assert_eq!(
                String::from_utf8_lossy(&a),
                String::from_utf8_lossy(&u),
                "response of batch {step}"
            );
        }
        // The attempt did meet the existing items (so this test saw the undo), and backs off.
        assert!(!attempted.fresh_puts().worth_trying());
        // The grown items were charged by their new size, the index entries moved.
        let stored_attempted = stored(&attempted).await;
        assert_eq!(stored_attempted, stored(&usual).await);
        assert!(
            stored_attempted
                .iter()
                .filter(|row| row.contains(" MODIFY "))
                .count()
                == 10,
            "ten MODIFY stream records: {stored_attempted:#?}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_batches_undone_inside_a_group_lose_nothing() {
        // Many writers at once share group commits; batches that meet existing items are
        // undone to their savepoint while other members' writes stay.
        concurrent_batches(CREATE).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_batches_without_savepoints_lose_nothing() {
        // Without a stream, a batch of new items is one INSERT and the statistics: it joins a
        // group without a savepoint, and one that meets existing items is undone by SQLite's
        // own undo of its failed INSERT (`write_tx`, "Members without a savepoint").
        let (plain, stream) = CREATE
            .rsplit_once(r#""StreamSpecification""#)
            .expect("the table has a stream");
        let plain = format!("{}}}", plain.trim_end().trim_end_matches(','));
        assert!(stream.contains("NEW_AND_OLD_IMAGES") && !plain.contains("Stream"));
        concurrent_batches(&plain).await;
    }

    async fn concurrent_batches(create: &str) {
        let streams = create.contains("StreamSpecification");
        let engine = std::sync::Arc::new(engine_with(false, create).await);
        let mut tasks = Vec::new();
        for writer in 0..8u32 {
            let engine = engine.clone();
            tasks.push(tokio::spawn(async move {
                for round in 0..12u32 {
                    // Each writer's own vehicles; every third round rewrites the last round's
                    // items, changed (a put that changes nothing writes no stream record).
                    let (seq, len) = if round % 3 == 2 {
                        (round - 1, 41)
                    } else {
                        (round, 40)
                    };
                    let items: Vec<_> = (0..5).map(|i| (writer * 10 + i, seq, "d1", len)).collect();
                    let out = engine
                        .call("BatchWriteItem", puts(&items).as_bytes())
                        .await
                        .unwrap();
                    let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
                    assert_eq!(out["UnprocessedItems"], serde_json::json!({}));
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        // 8 writers × 5 vehicles × 8 distinct seqs (rounds 0,1,3,4,6,7,9,10).
        let described: serde_json::Value = serde_json::from_slice(
            &engine
                .call("DescribeTable", br#"{"TableName":"Readings"}"#)
                .await
                .unwrap(),
        )
        .unwrap();
        assert_eq!(described["Table"]["ItemCount"], 320);
        assert_eq!(described["Table"]["GlobalSecondaryIndexes"][0]["ItemCount"], 320);
        let rows = stored(&engine).await;
        let inserts = rows.iter().filter(|row| row.contains(" INSERT ")).count();
        let modifies = rows.iter().filter(|row| row.contains(" MODIFY ")).count();
        if streams {
            assert_eq!((inserts, modifies), (320, 8 * 5 * 4));
        } else {
            assert_eq!((inserts, modifies), (0, 0));
        }
        // The collection statistics agree with the entries (none counted twice by an undone
        // attempt), in the table and in the index.
        let mut writer = engine.writer().await;
        let (collections, wrong): (i64, i64) = sqlx::query_as(
            "SELECT count(*), coalesce(sum(item_count != (SELECT count(*) FROM entries AS e \
             WHERE e.keyspace = c.keyspace AND e.pk = c.pk)), 0) FROM collections AS c",
        )
        .fetch_one(&mut writer.conn)
        .await
        .unwrap();
        assert_eq!(
            (collections, wrong),
            (40 + 1, 0),
            "40 vehicles and one depot, counted right"
        );
    }

    #[test]
    fn after_meeting_an_existing_item_the_next_batches_are_not_attempted() {
        let fresh = FreshPuts::default();
        assert!(fresh.worth_trying());
        fresh.met_existing();
        for _ in 0..FreshPuts::BACK_OFF {
            assert!(!fresh.worth_trying());
        }
        assert!(fresh.worth_trying());
    }
}
