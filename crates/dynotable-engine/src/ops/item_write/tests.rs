//! Conditions that fail on the cached item, answered without the writer (see the module
//! documentation of `item_write`): the answer is the one the writer gives, byte for byte; a
//! condition true on the cache still takes the writer; every write path is seen by the next
//! condition; and racing writers of every kind never make a condition fail on an item older
//! than one already acknowledged or already seen.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::entry::StorageKey;
use crate::item_cache::KeyRef;
use crate::{ApiError, Engine, ErrorKind, Location, ManualClock, Options};

const NOW: f64 = 1_700_000_000.0;

async fn engine_with(location: Location, cache_bytes: u64, clock: Arc<ManualClock>) -> Engine {
    let mut options = Options::new(location);
    options.sweep_interval = None;
    options.item_cache_bytes = cache_bytes;
    options.clock = clock;
    Engine::open_with(options).await.unwrap()
}

async fn call(engine: &Engine, op: &str, body: &Value) -> Result<Value, ApiError> {
    let out = engine.call(op, body.to_string().as_bytes()).await?;
    Ok(serde_json::from_slice(&out).unwrap())
}

async fn ok(engine: &Engine, op: &str, body: Value) -> Value {
    call(engine, op, &body)
        .await
        .unwrap_or_else(|err| panic!("{op} {body}: {err:?}"))
}

/// [`call`], sent again while the item is inside another writer's transaction (DynamoDB's
/// TransactionConflictException, or a TransactionConflict cancellation: a client retries).
async fn call_through_conflicts(engine: &Engine, op: &str, body: &Value) -> Result<Value, ApiError> {
    loop {
        match call(engine, op, body).await {
            Err(err)
                if err.kind == ErrorKind::TransactionConflictException
                    || err.cancellation_reasons.as_ref().is_some_and(|reasons| {
                        reasons.iter().any(|r| r.code == "TransactionConflict")
                            && reasons
                                .iter()
                                .all(|r| r.code == "TransactionConflict" || r.code == "None")
                    }) =>
            {
                tokio::task::yield_now().await
            }
            other => return other,
        }
    }
}

/// How many times the engine's item cache served a write's condition.
fn served(engine: &Engine) -> u64 {
    engine
        .inner
        .items
        .as_ref()
        .map_or(0, |c| c.committed_items_served())
}

/// Whether the cache holds the committed state of item `k` of table `Tbl` (hash key `k`).
fn cached(engine: &Engine, k: &str) -> bool {
    let table = engine.table("Tbl").unwrap();
    let key = StorageKey {
        pk: dynotable_types::KeyValue::S(k.into()).encode(),
        sk: Vec::new(),
    };
    let cache = engine.inner.items.as_ref().unwrap();
    let before = cache.committed_items_served();
    let found = matches!(
        cache.lookup(KeyRef::item(table.keyspace, &key.pk, &key.sk)),
        crate::item_cache::Lookup::Hit(crate::item_cache::Entry::Item(_))
    );
    assert_eq!(cache.committed_items_served(), before, "looking serves no write");
    found
}

/// A table with a sort key, a GSI and an LSI, so that ConsumedCapacity INDEXES has indexes to
/// name, and two items: `a` present (over 1 KB, so that charges are more than one unit), `b`
/// absent.
async fn indexed_engine(cache_bytes: u64) -> Engine {
    let engine = engine_with(Location::InMemory, cache_bytes, Arc::new(ManualClock::new(NOW))).await;
    ok(
        &engine,
        "CreateTable",
        json!({"TableName": "Idx", "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
               "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"},
                                        {"AttributeName": "s", "AttributeType": "N"},
                                        {"AttributeName": "g", "AttributeType": "S"},
                                        {"AttributeName": "v", "AttributeType": "S"}],
               "GlobalSecondaryIndexes": [{"IndexName": "ByG",
                   "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                   "Projection": {"ProjectionType": "ALL"}}],
               "LocalSecondaryIndexes": [{"IndexName": "ByV",
                   "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "v", "KeyType": "RANGE"}],
                   "Projection": {"ProjectionType": "KEYS_ONLY"}}]}),
    )
    .await;
    ok(
        &engine,
        "PutItem",
        json!({"TableName": "Idx", "Item": {"p": {"S": "a"}, "s": {"N": "1"}, "g": {"S": "g1"}, "v": {"S": "x"},
               "n": {"N": "5"}, "l": {"L": [{"N": "1.50"}, {"SS": ["q", "r"]}]}, "big": {"S": "z".repeat(1500)}}}),
    )
    .await;
    // The absent item read once: its absence is cached.
    ok(
        &engine,
        "GetItem",
        json!({"TableName": "Idx", "Key": {"p": {"S": "b"}, "s": {"N": "2"}}}),
    )
    .await;
    engine
}

/// Requests whose condition is false on the items of [`indexed_engine`].
fn failing_requests() -> Vec<(&'static str, Value)> {
    let a = json!({"p": {"S": "a"}, "s": {"N": "1"}});
    let b = json!({"p": {"S": "b"}, "s": {"N": "2"}});
    vec![
        (
            "PutItem",
            json!({"TableName": "Idx", "Item": {"p": {"S": "a"}, "s": {"N": "1"}, "g": {"S": "g2"}},
                   "ConditionExpression": "attribute_not_exists(p)",
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "PutItem",
            json!({"TableName": "Idx", "Item": {"p": {"S": "a"}, "s": {"N": "1"}, "big": {"S": "y".repeat(3000)}},
                   "ConditionExpression": "n = :six", "ExpressionAttributeValues": {":six": {"N": "6"}},
                   "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "PutItem",
            json!({"TableName": "Idx", "Item": {"p": {"S": "b"}, "s": {"N": "2"}, "v": {"S": "w"}},
                   "ConditionExpression": "attribute_exists(p)",
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Idx", "Key": a, "UpdateExpression": "SET n = n + :one, big2 = :big",
                   "ConditionExpression": "n > :ten",
                   "ExpressionAttributeValues": {":one": {"N": "1"}, ":ten": {"N": "10"}, ":big": {"S": "b".repeat(2500)}},
                   "ReturnValues": "ALL_NEW",
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Idx", "Key": a, "UpdateExpression": "REMOVE big",
                   "ConditionExpression": "contains(l[1], :s)", "ExpressionAttributeValues": {":s": {"S": "t"}},
                   "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "UpdateItem",
            json!({"TableName": "Idx", "Key": b, "UpdateExpression": "SET v = :v",
                   "ConditionExpression": "attribute_exists(p)", "ExpressionAttributeValues": {":v": {"S": "u"}},
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "DeleteItem",
            json!({"TableName": "Idx", "Key": a, "ConditionExpression": "v = :other",
                   "ExpressionAttributeValues": {":other": {"S": "other"}}, "ReturnValues": "ALL_OLD",
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "INDEXES"}),
        ),
        (
            "DeleteItem",
            json!({"TableName": "Idx", "Key": b, "ConditionExpression": "attribute_exists(p)",
                   "ReturnConsumedCapacity": "TOTAL"}),
        ),
        (
            "ExecuteStatement",
            json!({"Statement": "UPDATE Idx SET v = 'y' WHERE p = 'a' AND s = 1 AND n = 7",
                   "ReturnValuesOnConditionCheckFailure": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"}),
        ),
    ]
}

/// Every failing request is answered from the cache while the test holds the writer (it could
/// not be answered otherwise), and its error — exception, message, ALL_OLD item, capacity — is
/// the one an engine without a cache gives after reading the item in its transaction.
#[tokio::test]
async fn a_failed_condition_answered_from_the_cache_is_the_writers_answer() {
    let cached = indexed_engine(crate::DEFAULT_ITEM_CACHE_BYTES).await;
    let uncached = indexed_engine(0).await;
    for (op, body) in failing_requests() {
        let before = served(&cached);
        let writer = cached.writer().await;
        let fast = tokio::time::timeout(Duration::from_secs(10), call(&cached, op, &body))
            .await
            .unwrap_or_else(|_| panic!("{op} {body} waited for the writer"))
            .unwrap_err();
        drop(writer);
        assert_eq!(served(&cached), before + 1, "{op} {body}");
        let slow = call(&uncached, op, &body).await.unwrap_err();
        assert_eq!(
            fast.kind,
            ErrorKind::ConditionalCheckFailedException,
            "{op} {body}"
        );
        assert_eq!(fast, slow, "{op} {body}");
        // Rendered as the wire renders them (`serde_json` on the item and the capacity).
        assert_eq!(
            serde_json::to_vec(&serde_json::to_value(&fast.item).unwrap()).unwrap(),
            serde_json::to_vec(&serde_json::to_value(&slow.item).unwrap()).unwrap(),
        );
        assert_eq!(
            serde_json::to_vec(&fast.consumed_capacity).unwrap(),
            serde_json::to_vec(&slow.consumed_capacity).unwrap(),
        );
    }
    // Nothing was written: the items are as they were, on both engines.
    for engine in [&cached, &uncached] {
        let out = ok(
            engine,
            "Scan",
            json!({"TableName": "Idx", "ConsistentRead": true}),
        )
        .await;
        assert_eq!(out["Count"], 1);
        assert_eq!(out["Items"][0]["n"], json!({"N": "5"}));
        assert_eq!(out["Items"][0]["g"], json!({"S": "g1"}));
    }
}

/// A condition true on the cached item needs the writer: with the writer held, the request
/// waits; once it is let go, the write goes through.
#[tokio::test]
async fn a_condition_true_on_the_cache_takes_the_writer() {
    let engine = indexed_engine(crate::DEFAULT_ITEM_CACHE_BYTES).await;
    let writer = engine.writer().await;
    let write = {
        let engine = engine.clone();
        tokio::spawn(async move {
            call(
                &engine,
                "PutItem",
                &json!({"TableName": "Idx", "Item": {"p": {"S": "a"}, "s": {"N": "1"}, "n": {"N": "6"}},
                        "ConditionExpression": "n = :five", "ExpressionAttributeValues": {":five": {"N": "5"}}}),
            )
            .await
        })
    };
    for _ in 0..1000 {
        tokio::task::yield_now().await;
    }
    assert_eq!(served(&engine), 1, "the condition was evaluated on the cache");
    assert!(
        !write.is_finished(),
        "a write whose condition holds waits for the writer"
    );
    drop(writer);
    write.await.unwrap().unwrap();
    let out = ok(
        &engine,
        "GetItem",
        json!({"TableName": "Idx", "Key": {"p": {"S": "a"}, "s": {"N": "1"}}}),
    )
    .await;
    assert_eq!(out["Item"]["n"], json!({"N": "6"}));
}

async fn simple_engine(clock: Arc<ManualClock>) -> Engine {
    let engine = engine_with(Location::InMemory, crate::DEFAULT_ITEM_CACHE_BYTES, clock).await;
    create(&engine).await;
    engine
}

async fn create(engine: &Engine) {
    ok(
        engine,
        "CreateTable",
        json!({"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
               "KeySchema": [{"AttributeName": "k", "KeyType": "HASH"}],
               "AttributeDefinitions": [{"AttributeName": "k", "AttributeType": "S"}]}),
    )
    .await;
}

/// An engine at `location` with the default item cache and table `Tbl`.
async fn cached_table(location: Location) -> Engine {
    let engine = engine_with(
        location,
        crate::DEFAULT_ITEM_CACHE_BYTES,
        Arc::new(ManualClock::new(NOW)),
    )
    .await;
    create(&engine).await;
    engine
}

fn put_body(k: &str, v: &str) -> Value {
    json!({"TableName": "Tbl", "Item": {"k": {"S": k}, "v": {"S": v}}})
}

/// After a change to `k` that left `v` = `new` (`None`: no item), a condition true only on the
/// item as it was before (`v` = "old") fails with the new item, and one true only on the new
/// item succeeds — wrong if the condition were evaluated on a stale cached item.
async fn check_seen(engine: &Engine, k: &str, new: Option<&str>, path: &str) {
    let mut stale = put_body(k, "next");
    stale["ConditionExpression"] = json!("v = :old");
    stale["ExpressionAttributeValues"] = json!({":old": {"S": "old"}});
    stale["ReturnValuesOnConditionCheckFailure"] = json!("ALL_OLD");
    let err = call(engine, "PutItem", &stale).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::ConditionalCheckFailedException, "{path}");
    let item = err.item.map(|item| serde_json::to_value(item).unwrap());
    let expected = new.map(|v| json!({"k": {"S": k}, "v": {"S": v}}));
    assert_eq!(item, expected, "{path}: the item the condition failed on");

    let mut fresh = put_body(k, "after");
    match new {
        Some(v) => {
            fresh["ConditionExpression"] = json!("v = :new");
            fresh["ExpressionAttributeValues"] = json!({":new": {"S": v}});
        }
        None => fresh["ConditionExpression"] = json!("attribute_not_exists(k)"),
    }
    call(engine, "PutItem", &fresh)
        .await
        .unwrap_or_else(|err| panic!("{path}: a condition true on the new item failed: {err:?}"));
}

/// Puts `k` = "old" and makes sure the cache holds it, as a condition would find it.
async fn old_cached(engine: &Engine, k: &str) {
    ok(engine, "PutItem", put_body(k, "old")).await;
    ok(
        engine,
        "GetItem",
        json!({"TableName": "Tbl", "Key": {"k": {"S": k}}}),
    )
    .await;
    assert!(cached(engine, k), "{k} is cached before the change");
}

async fn every_write_path_is_seen(write_through: bool) {
    let clock = Arc::new(ManualClock::new(NOW));
    let engine = simple_engine(clock.clone()).await;
    if !write_through {
        engine.inner.items.as_ref().unwrap().without_write_through();
    }
    let e = &engine;
    let served_before = served(e);
    let paths: Vec<(&str, &str, Option<&str>, Value)> = vec![
        ("PutItem", "put", Some("new"), put_body("put", "new")),
        (
            "UpdateItem",
            "update",
            Some("new"),
            json!({"TableName": "Tbl", "Key": {"k": {"S": "update"}}, "UpdateExpression": "SET v = :v",
                   "ExpressionAttributeValues": {":v": {"S": "new"}}}),
        ),
        (
            "DeleteItem",
            "delete",
            None,
            json!({"TableName": "Tbl", "Key": {"k": {"S": "delete"}}}),
        ),
        (
            "BatchWriteItem",
            "batch-put",
            Some("new"),
            json!({"RequestItems": {"Tbl": [{"PutRequest": {"Item": {"k": {"S": "batch-put"}, "v": {"S": "new"}}}},
                                            {"PutRequest": {"Item": {"k": {"S": "other"}, "v": {"S": "x"}}}}]}}),
        ),
        (
            "BatchWriteItem",
            "batch-delete",
            None,
            json!({"RequestItems": {"Tbl": [{"DeleteRequest": {"Key": {"k": {"S": "batch-delete"}}}}]}}),
        ),
        (
            "TransactWriteItems",
            "tx-put",
            Some("new"),
            json!({"TransactItems": [{"Put": put_body("tx-put", "new")}]}),
        ),
        (
            "TransactWriteItems",
            "tx-update",
            Some("new"),
            json!({"TransactItems": [{"Update": {"TableName": "Tbl", "Key": {"k": {"S": "tx-update"}},
                   "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "new"}},
                   "ConditionExpression": "attribute_exists(v)"}}]}),
        ),
        (
            "TransactWriteItems",
            "tx-delete",
            None,
            json!({"TransactItems": [{"Delete": {"TableName": "Tbl", "Key": {"k": {"S": "tx-delete"}}}}]}),
        ),
        (
            "ExecuteStatement",
            "pq-update",
            Some("new"),
            json!({"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-update'"}),
        ),
        (
            "ExecuteStatement",
            "pq-delete",
            None,
            json!({"Statement": "DELETE FROM Tbl WHERE k = 'pq-delete'"}),
        ),
        (
            "BatchExecuteStatement",
            "pq-batch",
            Some("new"),
            json!({"Statements": [{"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-batch'"}]}),
        ),
        (
            "ExecuteTransaction",
            "pq-tx",
            Some("new"),
            json!({"TransactStatements": [{"Statement": "UPDATE Tbl SET v = 'new' WHERE k = 'pq-tx'"}]}),
        ),
    ];
    for (op, k, new, body) in paths {
        old_cached(e, k).await;
        ok(e, op, body).await;
        check_seen(e, k, new, &format!("{op} on {k}")).await;
    }

    // The TTL sweep, which claims nothing but marks what it deletes.
    ok(
        e,
        "UpdateTimeToLive",
        json!({"TableName": "Tbl", "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "expires"}}),
    )
    .await;
    ok(
        e,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"k": {"S": "ttl"}, "v": {"S": "old"},
                                             "expires": {"N": (NOW + 10.0).to_string()}}}),
    )
    .await;
    ok(
        e,
        "GetItem",
        json!({"TableName": "Tbl", "Key": {"k": {"S": "ttl"}}}),
    )
    .await;
    assert!(cached(e, "ttl"));
    clock.advance(60.0);
    assert_eq!(e.sweep().await.unwrap(), 1);
    check_seen(e, "ttl", None, "the TTL sweep").await;

    // DeleteTable, and the table created again under the same name.
    old_cached(e, "dropped").await;
    ok(e, "DeleteTable", json!({"TableName": "Tbl"})).await;
    create(e).await;
    check_seen(e, "dropped", None, "DeleteTable and CreateTable").await;

    assert!(
        served(e) > served_before,
        "the failing conditions were evaluated on the cache"
    );
}

#[tokio::test]
async fn every_write_path_is_seen_by_the_next_condition() {
    every_write_path_is_seen(true).await;
}

/// The same with committed writes only invalidating: every condition after a change misses,
/// and the item the writer reads is offered back to the cache by the reads that follow.
#[tokio::test]
async fn every_write_path_is_seen_without_write_through() {
    every_write_path_is_seen(false).await;
}

/// N clients race a conditional put of one absent item whose absence is cached: exactly one
/// succeeds, and its item is stored; the others fail their condition on the winner's item.
async fn exactly_one_wins(location: Location) {
    const CLIENTS: usize = 16;
    const ROUNDS: usize = 20;
    let engine = cached_table(location).await;
    for round in 0..ROUNDS {
        let k = format!("race-{round}");
        ok(
            &engine,
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": k}}}),
        )
        .await;
        assert!(cached(&engine, &k));
        let start = Arc::new(tokio::sync::Barrier::new(CLIENTS));
        let racers: Vec<_> = (0..CLIENTS)
            .map(|racer| {
                let (engine, start, k) = (engine.clone(), start.clone(), k.clone());
                tokio::spawn(async move {
                    start.wait().await;
                    let mut body = put_body(&k, &racer.to_string());
                    body["ConditionExpression"] = json!("attribute_not_exists(k)");
                    body["ReturnValuesOnConditionCheckFailure"] = json!("ALL_OLD");
                    (racer, call(&engine, "PutItem", &body).await)
                })
            })
            .collect();
        let mut winners = Vec::new();
        let mut seen_by_losers = Vec::new();
        for racer in racers {
            match racer.await.unwrap() {
                (racer, Ok(_)) => winners.push(racer),
                (_, Err(err)) => {
                    assert_eq!(err.kind, ErrorKind::ConditionalCheckFailedException, "{err:?}");
                    let item = serde_json::to_value(err.item.expect("ALL_OLD")).unwrap();
                    seen_by_losers.push(item["v"]["S"].as_str().unwrap().to_owned());
                }
            }
        }
        assert_eq!(winners.len(), 1, "round {round}: winners {winners:?}");
        let winner = winners[0].to_string();
        assert!(
            seen_by_losers.iter().all(|v| *v == winner),
            "round {round}: the losers failed on the winner's item {winner}: {seen_by_losers:?}"
        );
        let out = ok(
            &engine,
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": k}}}),
        )
        .await;
        assert_eq!(out["Item"]["v"]["S"], json!(winner));
    }
    assert!(served(&engine) > 0, "losers were answered from the cache");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn in_memory_racing_conditional_puts_exactly_one_wins() {
    exactly_one_wins(Location::InMemory).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn file_racing_conditional_puts_exactly_one_wins() {
    let dir = tempfile::tempdir().unwrap();
    exactly_one_wins(Location::File(dir.path().join("db.sqlite"))).await;
}

/// The highest counter acknowledged and the highest seen, per lane.
struct Floors {
    acked: Vec<AtomicU64>,
    seen: Vec<AtomicU64>,
}

const LANES: [&str; 4] = ["put", "update", "batch", "tx"];

fn counter_of(item: &Value) -> u64 {
    item["n"]["N"].as_str().unwrap().parse().unwrap()
}

/// Writers of four kinds each raise a counter `n` by one on a key of their own ("lanes"):
/// conditional PutItems (the optimistic pattern: `n = :known`), UpdateItem `ADD`, a
/// BatchWriteItem that puts the next value, a TransactWriteItems that puts the next value.
/// Probers send conditional PutItem, UpdateItem and DeleteItem requests and TransactWriteItems
/// ConditionChecks whose condition is never true (`n = :never`), asking for ALL_OLD, and
/// strongly consistent GetItems, on every lane all the while. Every item a
/// failed condition returns must be at least as new as the newest write acknowledged before
/// the request began, and as the newest item any request that ended before it began returned;
/// at the end each counter equals the writes that succeeded on it.
async fn failed_conditions_never_go_back(location: Location, write_through: bool) {
    const ROUNDS: u64 = 40;
    const PUTTERS: usize = 3;
    const UPDATERS: usize = 2;
    const PROBERS: usize = 4;
    let engine = cached_table(location).await;
    if !write_through {
        engine.inner.items.as_ref().unwrap().without_write_through();
    }
    for lane in LANES {
        ok(
            &engine,
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"k": {"S": lane}, "n": {"N": "0"}}}),
        )
        .await;
    }
    let floors = Arc::new(Floors {
        acked: LANES.iter().map(|_| AtomicU64::new(0)).collect(),
        seen: LANES.iter().map(|_| AtomicU64::new(0)).collect(),
    });
    let writing = Arc::new(AtomicU64::new((PUTTERS + UPDATERS + 2) as u64));
    let put_successes = Arc::new(AtomicU64::new(0));
    let mut writers = Vec::new();
    let mut probers = Vec::new();

    // Lane 0: optimistic conditional puts, re-reading the counter from the failed condition.
    for _ in 0..PUTTERS {
        let (engine, floors, writing, successes) = (
            engine.clone(),
            floors.clone(),
            writing.clone(),
            put_successes.clone(),
        );
        writers.push(tokio::spawn(async move {
            let mut known = 0u64;
            let mut done = 0;
            while done < ROUNDS {
                let floor = floors.acked[0].load(Ordering::SeqCst);
                let body = json!({"TableName": "Tbl", "Item": {"k": {"S": "put"}, "n": {"N": (known + 1).to_string()}},
                                  "ConditionExpression": "n = :known",
                                  "ExpressionAttributeValues": {":known": {"N": known.to_string()}},
                                  "ReturnValuesOnConditionCheckFailure": "ALL_OLD"});
                match call_through_conflicts(&engine, "PutItem", &body).await {
                    Ok(_) => {
                        known += 1;
                        done += 1;
                        successes.fetch_add(1, Ordering::SeqCst);
                        floors.acked[0].fetch_max(known, Ordering::SeqCst);
                    }
                    Err(err) => {
                        assert_eq!(err.kind, ErrorKind::ConditionalCheckFailedException, "{err:?}");
                        let n = counter_of(&serde_json::to_value(err.item.unwrap()).unwrap());
                        assert_ne!(n, known, "the condition n = {known} failed on n = {n}");
                        assert!(n >= floor, "put: failed on n = {n} after n = {floor} was acknowledged");
                        floors.seen[0].fetch_max(n, Ordering::SeqCst);
                        known = n;
                    }
                }
                tokio::task::yield_now().await;
            }
            writing.fetch_sub(1, Ordering::SeqCst);
        }));
    }
    // Lane 1: UpdateItem ADD, the new value returned.
    for _ in 0..UPDATERS {
        let (engine, floors, writing) = (engine.clone(), floors.clone(), writing.clone());
        writers.push(tokio::spawn(async move {
            for _ in 0..ROUNDS {
                let out = call_through_conflicts(
                    &engine,
                    "UpdateItem",
                    &json!({"TableName": "Tbl", "Key": {"k": {"S": "update"}}, "UpdateExpression": "ADD n :one",
                            "ExpressionAttributeValues": {":one": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}),
                )
                .await
                .unwrap();
                floors.acked[1].fetch_max(counter_of(&out["Attributes"]), Ordering::SeqCst);
                tokio::task::yield_now().await;
            }
            writing.fetch_sub(1, Ordering::SeqCst);
        }));
    }
    // Lane 2: one BatchWriteItem writer putting 1, 2, 3, …; lane 3: one TransactWriteItems
    // writer doing the same. Each is its lane's only writer, so what it acknowledges is the
    // counter.
    for (lane, op) in [(2usize, "BatchWriteItem"), (3, "TransactWriteItems")] {
        let (engine, floors, writing) = (engine.clone(), floors.clone(), writing.clone());
        writers.push(tokio::spawn(async move {
            for i in 1..=ROUNDS {
                let item = json!({"k": {"S": LANES[lane]}, "n": {"N": i.to_string()}});
                let body = if op == "BatchWriteItem" {
                    json!({"RequestItems": {"Tbl": [{"PutRequest": {"Item": item}},
                        {"PutRequest": {"Item": {"k": {"S": format!("batch-other-{i}")}, "n": {"N": "0"}}}}]}})
                } else {
                    json!({"TransactItems": [{"Put": {"TableName": "Tbl", "Item": item}}]})
                };
                loop {
                    let out = call_through_conflicts(&engine, op, &body).await.unwrap();
                    // A batch's put that met a transaction comes back unprocessed; there are
                    // none here (no transaction on this lane), but send again if so.
                    if out.get("UnprocessedItems").is_none_or(|u| u.as_object().is_some_and(|u| u.is_empty())) {
                        break;
                    }
                }
                floors.acked[lane].fetch_max(i, Ordering::SeqCst);
                tokio::task::yield_now().await;
            }
            writing.fetch_sub(1, Ordering::SeqCst);
        }));
    }
    // Probers: conditions that are never true, of every single-item write kind.
    for p in 0..PROBERS {
        let (engine, floors, writing) = (engine.clone(), floors.clone(), writing.clone());
        probers.push(tokio::spawn(async move {
            let mut probes = 0usize;
            while writing.load(Ordering::SeqCst) > 0 || probes < 20 {
                let lane = (p + probes) % LANES.len();
                let k = LANES[lane];
                let common = |mut body: Value| {
                    body["ConditionExpression"] = json!("n = :never");
                    body["ReturnValuesOnConditionCheckFailure"] = json!("ALL_OLD");
                    body
                };
                let acked = floors.acked[lane].load(Ordering::SeqCst);
                let seen = floors.seen[lane].load(Ordering::SeqCst);
                if probes % 4 == 3 {
                    // A strongly consistent read, held to the same floors: a failed condition
                    // must not have shown a write this read cannot see yet.
                    let out = ok(
                        &engine,
                        "GetItem",
                        json!({"TableName": "Tbl", "Key": {"k": {"S": k}}, "ConsistentRead": true}),
                    )
                    .await;
                    let n = counter_of(&out["Item"]);
                    assert!(n >= acked, "GetItem on {k}: n = {n} after n = {acked} was acknowledged");
                    assert!(n >= seen, "GetItem on {k}: n = {n} after a request had seen n = {seen}");
                    floors.seen[lane].fetch_max(n, Ordering::SeqCst);
                    probes += 1;
                    continue;
                }
                if probes % 4 == 2 {
                    // A transaction whose ConditionCheck is never true: its cancellation
                    // carries the item it failed on.
                    let body = json!({"TransactItems": [{"ConditionCheck": {"TableName": "Tbl",
                        "Key": {"k": {"S": k}}, "ConditionExpression": "n = :never",
                        "ExpressionAttributeValues": {":never": {"N": "-1"}},
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]});
                    let err = call_through_conflicts(&engine, "TransactWriteItems", &body)
                        .await
                        .unwrap_err();
                    let reasons = err.cancellation_reasons.expect("a cancellation");
                    assert_eq!(reasons[0].code, "ConditionalCheckFailed", "{reasons:?}");
                    let item = reasons[0].item.clone().expect("ALL_OLD");
                    let n = counter_of(&serde_json::to_value(item).unwrap());
                    assert!(n >= acked, "ConditionCheck on {k}: n = {n} after n = {acked} was acknowledged");
                    assert!(n >= seen, "ConditionCheck on {k}: n = {n} after a request had seen n = {seen}");
                    floors.seen[lane].fetch_max(n, Ordering::SeqCst);
                    probes += 1;
                    continue;
                }
                let (op, body) = match probes % 3 {
                    0 => (
                        "PutItem",
                        common(json!({"TableName": "Tbl", "Item": {"k": {"S": k}, "n": {"N": "0"}},
                                      "ExpressionAttributeValues": {":never": {"N": "-1"}}})),
                    ),
                    1 => (
                        "UpdateItem",
                        common(json!({"TableName": "Tbl", "Key": {"k": {"S": k}}, "UpdateExpression": "SET n = :never",
                                      "ExpressionAttributeValues": {":never": {"N": "-1"}}})),
                    ),
                    _ => (
                        "DeleteItem",
                        common(json!({"TableName": "Tbl", "Key": {"k": {"S": k}},
                                      "ExpressionAttributeValues": {":never": {"N": "-1"}}})),
                    ),
                };
                let err = call_through_conflicts(&engine, op, &body).await.unwrap_err();
                assert_eq!(err.kind, ErrorKind::ConditionalCheckFailedException, "{err:?}");
                let n = counter_of(&serde_json::to_value(err.item.unwrap()).unwrap());
                assert!(
                    n >= acked,
                    "{op} on {k}: failed on n = {n} after n = {acked} was acknowledged"
                );
                assert!(
                    n >= seen,
                    "{op} on {k}: failed on n = {n} after another request had seen n = {seen}"
                );
                floors.seen[lane].fetch_max(n, Ordering::SeqCst);
                probes += 1;
                tokio::task::yield_now().await;
            }
        }));
    }
    for task in writers.into_iter().chain(probers) {
        task.await.unwrap();
    }
    let expected = [
        put_successes.load(Ordering::SeqCst),
        UPDATERS as u64 * ROUNDS,
        ROUNDS,
        ROUNDS,
    ];
    for (lane, expected) in LANES.iter().zip(expected) {
        let out = ok(
            &engine,
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"k": {"S": lane}}, "ConsistentRead": true}),
        )
        .await;
        assert_eq!(counter_of(&out["Item"]), expected, "lane {lane}");
    }
    assert_eq!(put_successes.load(Ordering::SeqCst), PUTTERS as u64 * ROUNDS);
    assert!(
        served(&engine) > 0,
        "failed conditions were answered from the cache"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn in_memory_failed_conditions_never_go_back() {
    failed_conditions_never_go_back(Location::InMemory, true).await;
    failed_conditions_never_go_back(Location::InMemory, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn file_failed_conditions_never_go_back() {
    let dir = tempfile::tempdir().unwrap();
    failed_conditions_never_go_back(Location::File(dir.path().join("db.sqlite")), true).await;
    failed_conditions_never_go_back(Location::File(dir.path().join("db2.sqlite")), false).await;
}
