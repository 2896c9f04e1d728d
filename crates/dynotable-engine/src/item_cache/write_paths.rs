//! Every path that changes items invalidates the item cache: for each, an item is read (and
//! so cached: the test checks it is), changed through the path, and read again through
//! GetItem and BatchGetItem. Then a race of many writers and readers on a few keys checks that
//! no read returns an older version than a write acknowledged before it began, or than a read
//! that finished before it began.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use crate::entry::StorageKey;
use crate::item_cache::{KeyRef, Lookup};
use crate::{Engine, Location, ManualClock, Options};

const NOW: f64 = 1_700_000_000.0;

async fn engine_at(location: Location, clock: Arc<ManualClock>) -> Engine {
    let mut options = Options::new(location);
    options.sweep_interval = None;
    options.clock = clock;
    let engine = Engine::open_with(options).await.unwrap();
    create(&engine, "Tbl").await;
    engine
}

async fn engine() -> (Engine, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(NOW));
    (engine_at(Location::InMemory, clock.clone()).await, clock)
}

async fn create(engine: &Engine, name: &str) {
    call(
        engine,
        "CreateTable",
        json!({"TableName": name, "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}],
               "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}]}),
    )
    .await;
}

async fn call(engine: &Engine, op: &str, body: Value) -> Value {
    let out = engine
        .call(op, body.to_string().as_bytes())
        .await
        .unwrap_or_else(|err| panic!("{op} {body}: {err:?}"));
    serde_json::from_slice(&out).unwrap()
}

/// [`call`], sent again while the item is inside another writer's transaction: the writers of
/// the race below meet each other's transactions on purpose, and DynamoDB answers that with
/// TransactionConflictException or a TransactionConflict cancellation, which a client retries.
async fn call_through_conflicts(engine: &Engine, op: &str, body: Value) -> Value {
    loop {
        match engine.call(op, body.to_string().as_bytes()).await {
            Ok(out) => return serde_json::from_slice(&out).unwrap(),
            Err(err)
                if err.kind == crate::ErrorKind::TransactionConflictException
                    || err.cancellation_reasons.as_ref().is_some_and(|reasons| {
                        reasons.iter().any(|r| r.code == "TransactionConflict")
                            && reasons
                                .iter()
                                .all(|r| r.code == "TransactionConflict" || r.code == "None")
                    }) =>
            {
                tokio::task::yield_now().await
            }
            Err(err) => panic!("{op} {body}: {err:?}"),
        }
    }
}

/// The item's `v` through GetItem (`None`: no item).
async fn get(engine: &Engine, k: &str) -> Option<Value> {
    let out = call(
        engine,
        "GetItem",
        json!({"TableName": "Tbl", "Key": {"k": {"S": k}}}),
    )
    .await;
    out.get("Item").map(|item| item["v"].clone())
}

/// The item's `v` through BatchGetItem.
async fn batch_get(engine: &Engine, k: &str) -> Option<Value> {
    let out = call(
        engine,
        "BatchGetItem",
        json!({"RequestItems": {"Tbl": {"Keys": [{"k": {"S": k}}]}}}),
    )
    .await;
    out["Responses"]["Tbl"]
        .as_array()
        .unwrap()
        .first()
        .map(|item| item["v"].clone())
}

/// Whether the cache holds the item at `k` of table `Tbl` (present or absent).
fn cached(engine: &Engine, k: &str) -> bool {
    let table = engine.table("Tbl").unwrap();
    let key = StorageKey {
        pk: dynotable_types::KeyValue::S(k.into()).encode(),
        sk: Vec::new(),
    };
    let items = engine.inner.items.as_ref().expect("the cache is on by default");
    matches!(
        items.lookup(KeyRef::item(table.keyspace, &key.pk, &key.sk)),
        Lookup::Hit(_)
    )
}

async fn put(engine: &Engine, k: &str, v: &str) {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"k": {"S": k}, "v": {"S": v}}}),
    )
    .await;
}

/// Puts `k` = "old", reads it into the cache (and checks it is there), runs `change`, and
/// checks both reads then see `expected`.
async fn check_path<F, Fut>(engine: &Engine, k: &str, expected: Option<&str>, change: F)
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    put(engine, k, "old").await;
    assert_eq!(get(engine, k).await, Some(json!({"S": "old"})));
    assert!(cached(engine, k), "GetItem cached {k}");
    change().await;
    let expected = expected.map(|v| json!({"S": v}));
    assert_eq!(get(engine, k).await, expected, "GetItem after the change of {k}");
    assert_eq!(
        batch_get(engine, k).await,
        expected,
        "BatchGetItem after the change of {k}"
    );
}

/// A committed write leaves its item in the cache (write-through); a write that failed its
/// condition leaves the committed item there.
#[tokio::test]
async fn committed_writes_are_cached_and_failed_ones_are_not() {
    let (engine, _) = engine().await;
    let e = &engine;
    put(e, "w", "first").await;
    assert!(cached(e, "w"), "a put leaves its item in the cache");
    assert_eq!(get(e, "w").await, Some(json!({"S": "first"})));
    let failed = e
        .call(
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"k": {"S": "w"}, "v": {"S": "second"}},
                   "ConditionExpression": "attribute_not_exists(k)"})
            .to_string()
            .as_bytes(),
        )
        .await;
    assert!(failed.is_err());
    assert_eq!(get(e, "w").await, Some(json!({"S": "first"})));
    call(
        e,
        "DeleteItem",
        json!({"TableName": "Tbl", "Key": {"k": {"S": "w"}}}),
    )
    .await;
    assert!(cached(e, "w"), "a delete leaves the item's absence in the cache");
    assert_eq!(get(e, "w").await, None);
}

#[tokio::test]
async fn item_writes_invalidate() {
    let (engine, _) = engine().await;
    let e = &engine;
    check_path(e, "put", Some("new"), || put(e, "put", "new")).await;
    check_path(e, "update", Some("new"), || async {
        call(
            e,
            "UpdateItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": "update"}}, "UpdateExpression": "SET v = :v",
                   "ExpressionAttributeValues": {":v": {"S": "new"}}}),
        )
        .await;
    })
    .await;
    check_path(e, "delete", None, || async {
        call(
            e,
            "DeleteItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": "delete"}}}),
        )
        .await;
    })
    .await;
    // An absent item is cached as absent; a put makes it present.
    assert_eq!(get(e, "absent").await, None);
    assert!(cached(e, "absent"));
    put(e, "absent", "new").await;
    assert_eq!(get(e, "absent").await, Some(json!({"S": "new"})));
}

#[tokio::test]
async fn batch_and_transaction_writes_invalidate() {
    let (engine, _) = engine().await;
    let e = &engine;
    check_path(e, "batch-put", Some("new"), || async {
        call(
            e,
            "BatchWriteItem",
            json!({"RequestItems": {"Tbl": [
                {"PutRequest": {"Item": {"k": {"S": "batch-put"}, "v": {"S": "new"}}}}]}}),
        )
        .await;
    })
    .await;
    check_path(e, "batch-delete", None, || async {
        call(
            e,
            "BatchWriteItem",
            json!({"RequestItems": {"Tbl": [{"DeleteRequest": {"Key": {"k": {"S": "batch-delete"}}}}]}}),
        )
        .await;
    })
    .await;
    check_path(e, "tx-update", Some("new"), || async {
        call(
            e,
            "TransactWriteItems",
            json!({"TransactItems": [{"Update": {"TableName": "Tbl", "Key": {"k": {"S": "tx-update"}},
                   "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "new"}}}}]}),
        )
        .await;
    })
    .await;
    check_path(e, "tx-delete", None, || async {
        call(
            e,
            "TransactWriteItems",
            json!({"TransactItems": [{"Delete": {"TableName": "Tbl", "Key": {"k": {"S": "tx-delete"}}}}]}),
        )
        .await;
    })
    .await;
    // A cancelled transaction changes nothing, and the cached item is still right.
    put(e, "tx-cancelled", "old").await;
    get(e, "tx-cancelled").await;
    let cancelled = e
        .call(
            "TransactWriteItems",
            json!({"TransactItems": [
                {"Put": {"TableName": "Tbl", "Item": {"k": {"S": "tx-cancelled"}, "v": {"S": "new"}}}},
                {"ConditionCheck": {"TableName": "Tbl", "Key": {"k": {"S": "nothing"}},
                                    "ConditionExpression": "attribute_exists(k)"}}]})
            .to_string()
            .as_bytes(),
        )
        .await;
    assert!(cancelled.is_err());
    assert_eq!(get(e, "tx-cancelled").await, Some(json!({"S": "old"})));
}

#[tokio::test]
async fn partiql_writes_invalidate() {
    let (engine, _) = engine().await;
    let e = &engine;
    check_path(e, "pq-update", Some("new"), || async {
        call(
            e,
            "ExecuteStatement",
            json!({"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-update'"}),
        )
        .await;
    })
    .await;
    check_path(e, "pq-delete", None, || async {
        call(
            e,
            "ExecuteStatement",
            json!({"Statement": "DELETE FROM Tbl WHERE k = 'pq-delete'"}),
        )
        .await;
    })
    .await;
    check_path(e, "pq-batch", Some("new"), || async {
        call(
            e,
            "BatchExecuteStatement",
            json!({"Statements": [{"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-batch'"}]}),
        )
        .await;
    })
    .await;
    check_path(e, "pq-tx", Some("new"), || async {
        call(
            e,
            "ExecuteTransaction",
            json!({"TransactStatements": [{"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-tx'"}]}),
        )
        .await;
    })
    .await;
    assert_eq!(get(e, "pq-insert").await, None);
    call(
        e,
        "ExecuteStatement",
        json!({"Statement": "INSERT INTO Tbl VALUE {'k': 'pq-insert', 'v': 'new'}"}),
    )
    .await;
    assert_eq!(get(e, "pq-insert").await, Some(json!({"S": "new"})));
}

#[tokio::test]
async fn the_ttl_sweep_invalidates() {
    let (engine, clock) = engine().await;
    let e = &engine;
    call(
        e,
        "UpdateTimeToLive",
        json!({"TableName": "Tbl", "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "expires"}}),
    )
    .await;
    call(
        e,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"k": {"S": "ttl"}, "v": {"S": "old"},
                                             "expires": {"N": (NOW + 10.0).to_string()}}}),
    )
    .await;
    assert_eq!(get(e, "ttl").await, Some(json!({"S": "old"})));
    assert!(cached(e, "ttl"));
    clock.advance(60.0);
    assert_eq!(e.sweep().await.unwrap(), 1);
    assert_eq!(get(e, "ttl").await, None);
}

#[tokio::test]
async fn a_table_deleted_and_created_again_serves_no_old_item() {
    let (engine, _) = engine().await;
    let e = &engine;
    put(e, "a", "old").await;
    assert_eq!(get(e, "a").await, Some(json!({"S": "old"})));
    assert!(cached(e, "a"));
    call(e, "DeleteTable", json!({"TableName": "Tbl"})).await;
    create(e, "Tbl").await;
    assert!(!cached(e, "a"));
    assert_eq!(get(e, "a").await, None);
    assert_eq!(batch_get(e, "a").await, None);
    put(e, "a", "new").await;
    assert_eq!(get(e, "a").await, Some(json!({"S": "new"})));
}

#[tokio::test]
async fn update_table_keeps_items_readable_and_right() {
    let (engine, _) = engine().await;
    let e = &engine;
    put(e, "a", "old").await;
    get(e, "a").await;
    call(
        e,
        "UpdateTable",
        json!({"TableName": "Tbl",
               "AttributeDefinitions": [{"AttributeName": "v", "AttributeType": "S"}],
               "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByV",
                   "KeySchema": [{"AttributeName": "v", "KeyType": "HASH"}],
                   "Projection": {"ProjectionType": "ALL"}}}]}),
    )
    .await;
    assert_eq!(get(e, "a").await, Some(json!({"S": "old"})));
    put(e, "a", "new").await;
    assert_eq!(get(e, "a").await, Some(json!({"S": "new"})));
    let out = call(
        e,
        "Query",
        json!({"TableName": "Tbl", "IndexName": "ByV", "KeyConditionExpression": "v = :v",
               "ExpressionAttributeValues": {":v": {"S": "new"}}}),
    )
    .await;
    assert_eq!(out["Count"], 1);
}

#[tokio::test]
async fn a_cache_budget_of_zero_turns_it_off() {
    let mut options = Options::new(Location::InMemory);
    options.sweep_interval = None;
    options.item_cache_bytes = 0;
    let engine = Engine::open_with(options).await.unwrap();
    assert!(engine.inner.items.is_none());
    create(&engine, "Tbl").await;
    put(&engine, "a", "old").await;
    assert_eq!(get(&engine, "a").await, Some(json!({"S": "old"})));
    put(&engine, "a", "new").await;
    assert_eq!(get(&engine, "a").await, Some(json!({"S": "new"})));
}

/// Writers increment a few counters (UpdateItem and TransactWriteItems, `ADD n 1`, the new value
/// returned); readers read them (GetItem, BatchGetItem and Query) all the while. Each read must see at
/// least the highest version acknowledged before it began, and at least the highest version
/// any read that finished before it began returned.
///
/// Without write-through every read after a write misses, reads SQLite and offers what it
/// read to the cache: the race the fill guard is there for.
async fn reads_never_go_back(location: Location, write_through: bool) {
    const KEYS: usize = 3;
    const WRITERS: usize = 4;
    const WRITES: usize = 60;
    const READERS: usize = 8;
    let engine = engine_at(location, Arc::new(ManualClock::new(NOW))).await;
    if !write_through {
        engine.inner.items.as_ref().unwrap().without_write_through();
    }
    let acked: Arc<Vec<AtomicU64>> = Arc::new((0..KEYS).map(|_| AtomicU64::new(0)).collect());
    let seen: Arc<Vec<AtomicU64>> = Arc::new((0..KEYS).map(|_| AtomicU64::new(0)).collect());
    let writing = Arc::new(AtomicU64::new(WRITERS as u64));
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let (engine, acked, writing) = (engine.clone(), acked.clone(), writing.clone());
        tasks.push(tokio::spawn(async move {
            for i in 0..WRITES {
                let key = (w + i) % KEYS;
                let k = format!("c{key}");
                let n = if (w + i) % 2 == 0 {
                    let out = call_through_conflicts(
                        &engine,
                        "UpdateItem",
                        json!({"TableName": "Tbl", "Key": {"k": {"S": k}}, "UpdateExpression": "ADD n :one",
                               "ExpressionAttributeValues": {":one": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}),
                    )
                    .await;
                    out["Attributes"]["n"]["N"].as_str().unwrap().parse::<u64>().unwrap()
                } else {
                    call_through_conflicts(
                        &engine,
                        "TransactWriteItems",
                        json!({"TransactItems": [{"Update": {"TableName": "Tbl", "Key": {"k": {"S": k}},
                               "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}]}),
                    )
                    .await;
                    // The transaction returns no values: at least what a read sees now.
                    read_version(&engine, &k, 0).await
                };
                acked[key].fetch_max(n, Ordering::SeqCst);
                tokio::task::yield_now().await;
            }
            writing.fetch_sub(1, Ordering::SeqCst);
        }));
    }
    for r in 0..READERS {
        let (engine, acked, seen, writing) = (engine.clone(), acked.clone(), seen.clone(), writing.clone());
        tasks.push(tokio::spawn(async move {
            let mut reads = 0;
            while writing.load(Ordering::SeqCst) > 0 || reads < 20 {
                let key = (r + reads) % KEYS;
                let k = format!("c{key}");
                let floor_acked = acked[key].load(Ordering::SeqCst);
                let floor_seen = seen[key].load(Ordering::SeqCst);
                let version = read_version(&engine, &k, reads % 3).await;
                assert!(
                    version >= floor_acked,
                    "{k}: read version {version} after version {floor_acked} was acknowledged"
                );
                assert!(
                    version >= floor_seen,
                    "{k}: read version {version} after another read had returned {floor_seen}"
                );
                seen[key].fetch_max(version, Ordering::SeqCst);
                reads += 1;
                tokio::task::yield_now().await;
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let total: u64 = (0..KEYS).map(|key| acked[key].load(Ordering::SeqCst)).sum();
    assert_eq!(total, (WRITERS * WRITES) as u64);
}

/// The counter `n` of item `k` (0 when there is none yet), read by GetItem (`how` 0),
/// BatchGetItem (1) or Query (2, from the cached collection).
async fn read_version(engine: &Engine, k: &str, how: usize) -> u64 {
    let item = if how == 2 {
        let out = call(
            engine,
            "Query",
            json!({"TableName": "Tbl", "KeyConditionExpression": "k = :k",
                   "ExpressionAttributeValues": {":k": {"S": k}}}),
        )
        .await;
        out["Items"].as_array().unwrap().first().cloned()
    } else if how == 1 {
        let out = call(
            engine,
            "BatchGetItem",
            json!({"RequestItems": {"Tbl": {"Keys": [{"k": {"S": k}}]}}}),
        )
        .await;
        out["Responses"]["Tbl"].as_array().unwrap().first().cloned()
    } else {
        call(
            engine,
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": k}}}),
        )
        .await
        .get("Item")
        .cloned()
    };
    item.map_or(0, |item| item["n"]["N"].as_str().unwrap().parse().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn in_memory_reads_never_go_back() {
    reads_never_go_back(Location::InMemory, true).await;
    reads_never_go_back(Location::InMemory, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn file_reads_never_go_back() {
    let dir = tempfile::tempdir().unwrap();
    reads_never_go_back(Location::File(dir.path().join("db.sqlite")), true).await;
    reads_never_go_back(Location::File(dir.path().join("db2.sqlite")), false).await;
}

/// A table with a sort key, for Query.
async fn sorted_engine(cache_bytes: u64) -> Engine {
    let mut options = Options::new(Location::InMemory);
    options.sweep_interval = None;
    options.item_cache_bytes = cache_bytes;
    let engine = Engine::open_with(options).await.unwrap();
    call(
        &engine,
        "CreateTable",
        json!({"TableName": "Sorted", "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
               "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"},
                                        {"AttributeName": "s", "AttributeType": "N"}]}),
    )
    .await;
    for s in 0..40 {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "Sorted", "Item": {"p": {"S": "a"}, "s": {"N": (s * 5).to_string()},
                                                    "v": {"S": "x".repeat(s % 7)}}}),
        )
        .await;
    }
    engine
}

/// Every page of a Query, following LastEvaluatedKey.
async fn all_pages(engine: &Engine, mut query: Value) -> Vec<Value> {
    let mut pages = Vec::new();
    loop {
        let page = call(engine, "Query", query.clone()).await;
        let next = page.get("LastEvaluatedKey").cloned();
        pages.push(page);
        match next {
            Some(key) => query["ExclusiveStartKey"] = key,
            None => return pages,
        }
    }
}

/// Query pages read from a cached collection are the pages read from SQLite: every key
/// condition operator, both directions, with and without Limit, filter and projection,
/// page after page.
#[tokio::test]
async fn queries_on_a_cached_collection_answer_as_sqlite_does() {
    let cached = sorted_engine(crate::DEFAULT_ITEM_CACHE_BYTES).await;
    let uncached = sorted_engine(0).await;
    let conditions = [
        ("p = :p", json!({})),
        ("p = :p AND s = :a", json!({":a": {"N": "35"}})),
        ("p = :p AND s < :a", json!({":a": {"N": "35"}})),
        ("p = :p AND s <= :a", json!({":a": {"N": "35"}})),
        ("p = :p AND s > :a", json!({":a": {"N": "35"}})),
        ("p = :p AND s >= :a", json!({":a": {"N": "36"}})),
        (
            "p = :p AND s BETWEEN :a AND :b",
            json!({":a": {"N": "12"}, ":b": {"N": "150"}}),
        ),
    ];
    for (condition, values) in &conditions {
        for forward in [true, false] {
            for limit in [None, Some(1), Some(7)] {
                for extra in [
                    json!({}),
                    json!({"FilterExpression": "size(v) > :z", "ProjectionExpression": "s, v"}),
                ] {
                    let mut values = values.clone();
                    values[":p"] = json!({"S": "a"});
                    if extra.get("FilterExpression").is_some() {
                        values[":z"] = json!({"N": "2"});
                    }
                    let mut query = json!({"TableName": "Sorted", "KeyConditionExpression": condition,
                                           "ExpressionAttributeValues": values, "ScanIndexForward": forward,
                                           "ReturnConsumedCapacity": "TOTAL"});
                    if let Some(limit) = limit {
                        query["Limit"] = json!(limit);
                    }
                    for (k, v) in extra.as_object().unwrap() {
                        query[k] = v.clone();
                    }
                    // Three times on the cached engine: the collection is admitted at its
                    // second miss (the doorkeeper), so the third run reads only the cache.
                    all_pages(&cached, query.clone()).await;
                    all_pages(&cached, query.clone()).await;
                    let from_cache = all_pages(&cached, query.clone()).await;
                    let from_sqlite = all_pages(&uncached, query.clone()).await;
                    assert_eq!(from_cache, from_sqlite, "{query}");
                }
            }
        }
    }
}

/// A Query after a write to its collection sees the write, whatever path wrote.
#[tokio::test]
async fn writes_invalidate_cached_collections() {
    let engine = sorted_engine(crate::DEFAULT_ITEM_CACHE_BYTES).await;
    let e = &engine;
    let pk = dynotable_types::KeyValue::S("a".into()).encode();
    // The Query, sent until the collection is cached (it is admitted at its second miss, see
    // `ItemCache::admit_collection`); every answer must agree. So each write below meets a
    // cached collection.
    let count = |engine: &Engine| {
        let engine = engine.clone();
        let pk = pk.clone();
        async move {
            let mut answers = Vec::new();
            loop {
                let out = call(
                    &engine,
                    "Query",
                    json!({"TableName": "Sorted", "KeyConditionExpression": "p = :p",
                           "ExpressionAttributeValues": {":p": {"S": "a"}}}),
                )
                .await;
                answers.push((out["Count"].as_u64().unwrap(), out["Items"][0]["v"].clone()));
                let keyspace = engine.table("Sorted").unwrap().keyspace;
                let cached = matches!(
                    engine
                        .inner
                        .items
                        .as_ref()
                        .unwrap()
                        .lookup(KeyRef::collection(keyspace, &pk)),
                    Lookup::Hit(crate::item_cache::Entry::Collection(_))
                );
                if cached {
                    break;
                }
                assert!(answers.len() < 3, "not cached after two Queries: {answers:?}");
            }
            assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
            answers.pop().unwrap()
        }
    };
    assert_eq!(count(e).await.0, 40);
    call(
        e,
        "PutItem",
        json!({"TableName": "Sorted", "Item": {"p": {"S": "a"}, "s": {"N": "-1"}, "v": {"S": "new"}}}),
    )
    .await;
    assert_eq!(count(e).await, (41, json!({"S": "new"})));
    call(
        e,
        "UpdateItem",
        json!({"TableName": "Sorted", "Key": {"p": {"S": "a"}, "s": {"N": "-1"}},
               "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "newer"}}}),
    )
    .await;
    assert_eq!(count(e).await, (41, json!({"S": "newer"})));
    call(
        e,
        "BatchWriteItem",
        json!({"RequestItems": {"Sorted": [{"DeleteRequest": {"Key": {"p": {"S": "a"}, "s": {"N": "-1"}}}}]}}),
    )
    .await;
    assert_eq!(count(e).await.0, 40);
    call(
        e,
        "TransactWriteItems",
        json!({"TransactItems": [{"Delete": {"TableName": "Sorted", "Key": {"p": {"S": "a"}, "s": {"N": "0"}}}}]}),
    )
    .await;
    assert_eq!(count(e).await.0, 39);
    call(
        e,
        "ExecuteStatement",
        json!({"Statement": "DELETE FROM Sorted WHERE p = 'a' AND s = 5"}),
    )
    .await;
    assert_eq!(count(e).await.0, 38);
    call(e, "DeleteTable", json!({"TableName": "Sorted"})).await;
    call(
        e,
        "CreateTable",
        json!({"TableName": "Sorted", "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
               "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"},
                                        {"AttributeName": "s", "AttributeType": "N"}]}),
    )
    .await;
    assert_eq!(count(e).await.0, 0);
}
