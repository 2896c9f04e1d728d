//! The simulations no local DynamoDB has (issue 18.7), on the engine with a manual clock:
//! throttling by provisioned throughput, burst capacity and the per-partition ceilings
//! (`Options::enforce_capacity`, rule B.19), and eventually consistent reads that see writes
//! late under a seed (`Options::eventual_lag`, rule B.20).

use std::sync::Arc;

use dynotable_engine::{
    ApiError, Engine, ErrorKind, EventualLag, Location, ManualClock, Options, Simulations,
};
use serde_json::{Value, json};

const START: f64 = 1_700_000_000.0;
const KEY_RANGE_MESSAGE: &str = "Throughput exceeds the current capacity of your table or index. DynamoDB is \
     automatically scaling your table or index so please try again shortly. If exceptions persist, check if you \
     have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
const TABLE_MESSAGE: &str = "The level of configured provisioned throughput for the table was exceeded. \
     Consider increasing your provisioning level with the UpdateTable API.";

async fn open(clock: &Arc<ManualClock>, enforce_capacity: bool, lag: Option<EventualLag>) -> Engine {
    let mut options = Options::new(Location::InMemory);
    options.clock = clock.clone();
    options.sweep_interval = None;
    options.enforce_capacity = enforce_capacity;
    options.eventual_lag = lag;
    Engine::open_with(options).await.unwrap()
}

async fn call(engine: &Engine, op: &str, body: Value) -> Result<Value, ApiError> {
    let answer = engine.call(op, body.to_string().as_bytes()).await?;
    Ok(serde_json::from_slice(&answer).unwrap())
}

/// A table `Tbl` keyed by `pk` (S) and `sk` (N), provisioned with `read`/`write` units, or
/// on-demand when both are 0.
async fn create(engine: &Engine, read: u64, write: u64) {
    let mut body = json!({
        "TableName": "Tbl",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
        ],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
    });
    if read == 0 && write == 0 {
        body["BillingMode"] = json!("PAY_PER_REQUEST");
    } else {
        body["ProvisionedThroughput"] = json!({"ReadCapacityUnits": read, "WriteCapacityUnits": write});
    }
    call(engine, "CreateTable", body).await.unwrap();
}

/// A PutItem of a small item (one write unit) at `pk`/`sk`.
async fn put(engine: &Engine, pk: &str, sk: u64) -> Result<Value, ApiError> {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": pk}, "sk": {"N": sk.to_string()}}}),
    )
    .await
}

async fn get(engine: &Engine, pk: &str, sk: u64, consistent: bool) -> Result<Value, ApiError> {
    call(
        engine,
        "GetItem",
        json!({"TableName": "Tbl", "Key": {"pk": {"S": pk}, "sk": {"N": sk.to_string()}}, "ConsistentRead": consistent}),
    )
    .await
}

fn assert_throttled(err: &ApiError, message: &str, reason: &str) {
    assert_eq!(
        err.kind,
        ErrorKind::ProvisionedThroughputExceededException,
        "{err:?}"
    );
    assert_eq!(err.message, message);
    let reasons = err.throttling_reasons.as_ref().expect("ThrottlingReasons");
    assert_eq!(reasons.len(), 1);
    assert_eq!(reasons[0].reason, reason);
}

// ---------------------------------------------------------------------------------------------
// --enforce-capacity

#[tokio::test]
async fn a_provisioned_table_serves_its_burst_then_throttles_until_refilled() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 5, 1).await;
    // One write unit a second, and 300 seconds of it banked: 300 one-unit writes at once.
    for sk in 0..300 {
        put(&engine, "a", sk).await.unwrap();
    }
    let err = put(&engine, "a", 300).await.unwrap_err();
    assert_throttled(&err, TABLE_MESSAGE, "TableWriteProvisionedThroughputExceeded");
    let resource = &err.throttling_reasons.as_ref().unwrap()[0].resource;
    assert!(resource.ends_with(":table/Tbl"), "{resource}");
    assert_eq!(engine.throttled_requests(), 1);
    // The throttled write changed nothing; reads have their own bucket.
    assert_eq!(get(&engine, "a", 300, true).await.unwrap(), json!({}));
    // A second later one unit is back: one write, then throttled again.
    clock.advance(1.0);
    put(&engine, "a", 300).await.unwrap();
    assert!(put(&engine, "a", 301).await.is_err());
    assert_eq!(engine.throttled_requests(), 2);
}

#[tokio::test]
async fn burst_capacity_keeps_at_most_300_seconds_of_unused_capacity() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 2, 1).await;
    // An hour unused banks no more than 300 s × 2 units: 600 strongly consistent reads.
    clock.advance(3600.0);
    for _ in 0..600 {
        get(&engine, "a", 1, true).await.unwrap();
    }
    let err = get(&engine, "a", 1, true).await.unwrap_err();
    assert_throttled(&err, TABLE_MESSAGE, "TableReadProvisionedThroughputExceeded");
}

#[tokio::test]
async fn a_large_write_is_admitted_and_the_debt_repaid_before_the_next() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 1, 1).await;
    // A 350 KB item: about 351 write units, with 300 in the bucket.
    let big = "x".repeat(350 * 1024);
    let written = call(
        &engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "0"}, "v": {"S": big}},
               "ReturnConsumedCapacity": "TOTAL"}),
    )
    .await
    .unwrap();
    let units = written["ConsumedCapacity"]["CapacityUnits"].as_f64().unwrap();
    let debt = units - 300.0;
    assert!(debt > 1.0, "{units}");
    // Until the debt is refilled and one unit more, every write is throttled.
    clock.advance(debt);
    assert!(put(&engine, "a", 1).await.is_err());
    clock.advance(1.0);
    put(&engine, "a", 1).await.unwrap();
}

#[tokio::test]
async fn a_global_index_short_of_write_capacity_throttles_the_table_writes() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Tbl",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "g", "AttributeType": "S"},
            ],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1000, "WriteCapacityUnits": 1000},
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
            }],
        }),
    )
    .await
    .unwrap();
    let put_g = |n: u64| {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"pk": {"S": format!("p{n}")}, "g": {"S": "same"}}}),
        )
    };
    for n in 0..300 {
        put_g(n).await.unwrap();
    }
    let err = put_g(300).await.unwrap_err();
    assert_throttled(
        &err,
        "The level of configured provisioned throughput for one or more global secondary indexes of the table \
         was exceeded. Consider increasing your provisioning level for the under-provisioned global secondary \
         indexes with the UpdateTable API",
        "IndexWriteProvisionedThroughputExceeded",
    );
    let resource = &err.throttling_reasons.as_ref().unwrap()[0].resource;
    assert!(resource.ends_with(":table/Tbl/index/ByG"), "{resource}");
    // The index's reads are metered apart from the table's: a Query of the index is served.
    call(
        &engine,
        "Query",
        json!({"TableName": "Tbl", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
               "ExpressionAttributeValues": {":g": {"S": "same"}}}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_on_demand_table_throttles_a_hot_partition_at_1000_write_units_a_second() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 0, 0).await;
    for sk in 0..1000 {
        put(&engine, "hot", sk).await.unwrap();
    }
    let err = put(&engine, "hot", 1000).await.unwrap_err();
    assert_throttled(
        &err,
        "Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your \
         table or index so please try again shortly. If exceptions persist, check if you have a hot key: \
         https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html",
        "TableWriteKeyRangeThroughputExceeded",
    );
    // Another partition-key value is another partition; reads of the hot one are served.
    put(&engine, "cold", 0).await.unwrap();
    get(&engine, "hot", 0, true).await.unwrap();
    // Burst capacity does not lift the partition ceiling: a minute later, 1,000 more and no
    // more (the partition banks one second).
    clock.advance(60.0);
    for sk in 1000..2000 {
        put(&engine, "hot", sk).await.unwrap();
    }
    assert!(put(&engine, "hot", 2000).await.is_err());
}

/// Writes `count` items of 390 KB (98 strongly consistent read units, 196 transactional) to
/// the partition `pk`, a second apart so that the partition's write ceiling never throttles them.
async fn put_big(engine: &Engine, clock: &ManualClock, pk: &str, count: u64) {
    let big = "x".repeat(390 * 1024);
    for sk in 0..count {
        call(
            engine,
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"pk": {"S": pk}, "sk": {"N": sk.to_string()}, "v": {"S": big}}}),
        )
        .await
        .unwrap();
        clock.advance(1.0);
    }
    // Every partition's read bucket is full again (it banks one second).
    clock.advance(10.0);
}

const KEY_RANGE_READ: &str = "TableReadKeyRangeThroughputExceeded";

#[tokio::test]
async fn a_batch_get_charges_each_key_its_own_units_on_its_own_partition() {
    // Rule B.3: a BatchGetItem rounds each item up to 4 KB on its own. 35 big items of `hot`
    // (3,430 units) beside 65 keys of other partitions, read strongly consistent: `hot` is left
    // in debt and its next read throttled; the partitions beside it were charged a unit each.
    // (An even split of the batch's charge would have put some 1,220 units on `hot`.)
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 0, 0).await;
    put_big(&engine, &clock, "hot", 35).await;
    let keys: Vec<Value> = (0..35)
        .map(|sk| json!({"pk": {"S": "hot"}, "sk": {"N": sk.to_string()}}))
        .chain((0..65).map(|i| json!({"pk": {"S": format!("cold{i}")}, "sk": {"N": "0"}})))
        .collect();
    let answer = call(
        &engine,
        "BatchGetItem",
        json!({"RequestItems": {"Tbl": {"Keys": keys, "ConsistentRead": true, "ProjectionExpression": "pk"}}}),
    )
    .await
    .unwrap();
    assert_eq!(answer["Responses"]["Tbl"].as_array().unwrap().len(), 35);
    let err = get(&engine, "hot", 0, true).await.unwrap_err();
    assert_throttled(&err, KEY_RANGE_MESSAGE, KEY_RANGE_READ);
    for i in 0..65 {
        get(&engine, &format!("cold{i}"), 0, true).await.unwrap();
    }
}

#[tokio::test]
async fn a_transactional_read_charges_each_item_its_own_units_on_its_own_partition() {
    // Rule B.3: TransactGetItems charges 2 units per 4 KB per item. Ten big items of `hot`
    // (1,960 units) beside 90 keys of other partitions, twice: `hot` is left in debt. (An even
    // split would have put some 210 units on it each time.)
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 0, 0).await;
    put_big(&engine, &clock, "hot", 10).await;
    let gets: Vec<Value> = (0..10)
        .map(|sk| json!({"pk": {"S": "hot"}, "sk": {"N": sk.to_string()}}))
        .chain((0..90).map(|i| json!({"pk": {"S": format!("cold{i}")}, "sk": {"N": "0"}})))
        .map(|key| json!({"Get": {"TableName": "Tbl", "Key": key, "ProjectionExpression": "pk"}}))
        .collect();
    for _ in 0..2 {
        call(&engine, "TransactGetItems", json!({"TransactItems": gets}))
            .await
            .unwrap();
    }
    let err = get(&engine, "hot", 0, true).await.unwrap_err();
    assert_throttled(&err, KEY_RANGE_MESSAGE, KEY_RANGE_READ);
    for i in 0..90 {
        get(&engine, &format!("cold{i}"), 0, true).await.unwrap();
    }
}

#[tokio::test]
async fn a_batch_write_whose_tables_are_all_throttled_is_refused() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 1, 1).await;
    let batch = |from: u64| {
        let requests: Vec<Value> = (from..from + 25)
            .map(|sk| json!({"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": sk.to_string()}}}}))
            .collect();
        call(
            &engine,
            "BatchWriteItem",
            json!({"RequestItems": {"Tbl": requests}}),
        )
    };
    // 12 batches of 25 one-unit puts use the 300 banked units.
    for n in 0..12 {
        batch(n * 25).await.unwrap();
    }
    let err = batch(300).await.unwrap_err();
    assert_throttled(&err, TABLE_MESSAGE, "TableWriteProvisionedThroughputExceeded");
    assert_eq!(get(&engine, "a", 300, true).await.unwrap(), json!({}));
}

#[tokio::test]
async fn a_batch_returns_the_requests_on_its_throttled_tables_unprocessed() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 1, 1).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Other",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
        }),
    )
    .await
    .unwrap();
    // Tbl's 300 banked write units spent; Other's untouched.
    call(
        &engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "0"}, "v": {"S": "x".repeat(299 * 1024)}}}),
    )
    .await
    .unwrap();
    let tbl_requests = json!([{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}]);
    let answer = call(
        &engine,
        "BatchWriteItem",
        json!({"RequestItems": {
            "Tbl": tbl_requests,
            "Other": [{"PutRequest": {"Item": {"id": {"S": "o1"}}}}],
        }}),
    )
    .await
    .unwrap();
    assert_eq!(answer["UnprocessedItems"], json!({"Tbl": tbl_requests}));
    assert_eq!(engine.throttled_requests(), 1);
    let other = call(
        &engine,
        "GetItem",
        json!({"TableName": "Other", "Key": {"id": {"S": "o1"}}, "ConsistentRead": true}),
    )
    .await
    .unwrap();
    assert_eq!(other["Item"]["id"]["S"], "o1");
    assert_eq!(get(&engine, "a", 1, true).await.unwrap(), json!({}));
    // BatchGetItem the same way, with Tbl's reads spent by a read of the large item.
    for _ in 0..300 / 75 {
        get(&engine, "a", 0, true).await.unwrap();
    }
    let keys = json!({"Keys": [{"pk": {"S": "a"}, "sk": {"N": "0"}}], "ConsistentRead": true});
    let answer = call(
        &engine,
        "BatchGetItem",
        json!({"RequestItems": {"Tbl": keys, "Other": {"Keys": [{"id": {"S": "o1"}}]}}}),
    )
    .await
    .unwrap();
    assert_eq!(answer["UnprocessedKeys"], json!({"Tbl": keys}));
    assert_eq!(answer["Responses"]["Other"][0]["id"]["S"], "o1");
}

#[tokio::test]
async fn a_transaction_with_an_action_on_a_throttled_table_is_cancelled() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, 1, 1).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Other",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
        }),
    )
    .await
    .unwrap();
    // Tbl's 300 banked write units spent.
    call(
        &engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "0"}, "v": {"S": "x".repeat(299 * 1024)}}}),
    )
    .await
    .unwrap();
    let err = call(
        &engine,
        "TransactWriteItems",
        json!({"TransactItems": [
            {"Put": {"TableName": "Other", "Item": {"id": {"S": "o1"}}}},
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
        ]}),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::TransactionCanceledException);
    assert_eq!(
        err.message,
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ProvisionedThroughputExceeded]"
    );
    let reasons = err.cancellation_reasons.unwrap();
    assert_eq!(reasons[1].message.as_deref(), Some(TABLE_MESSAGE));
    assert_eq!(engine.throttled_requests(), 1);
    // Nothing was written, in either table.
    let other = call(
        &engine,
        "GetItem",
        json!({"TableName": "Other", "Key": {"id": {"S": "o1"}}, "ConsistentRead": true}),
    )
    .await
    .unwrap();
    assert_eq!(other, json!({}));
    // A second later Tbl has a unit again, and the same transaction goes through.
    clock.advance(1.0);
    call(
        &engine,
        "TransactWriteItems",
        json!({"TransactItems": [
            {"Put": {"TableName": "Other", "Item": {"id": {"S": "o1"}}}},
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
        ]}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn without_the_switch_nothing_is_throttled() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, None).await;
    create(&engine, 1, 1).await;
    for sk in 0..400 {
        put(&engine, "a", sk).await.unwrap();
    }
    assert_eq!(engine.throttled_requests(), 0);
}

// ---------------------------------------------------------------------------------------------
// --eventual-lag

fn lag(seed: u64) -> Option<EventualLag> {
    Some(EventualLag {
        max_seconds: 1.0,
        seed,
    })
}

/// The `v` an eventually (or strongly) consistent GetItem of `a`/1 sees; `None` when it finds
/// no item.
async fn seen_v(engine: &Engine, consistent: bool) -> Option<String> {
    let answer = get(engine, "a", 1, consistent).await.unwrap();
    answer["Item"]["v"]["S"].as_str().map(str::to_owned)
}

async fn put_v(engine: &Engine, v: &str) {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": v}}}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_eventually_consistent_read_may_see_the_previous_version_within_the_lag() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(1)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    // Half the lag later: a read drawn more than half the lag back sees the first version.
    clock.advance(0.5);
    let mut seen = Vec::new();
    for _ in 0..200 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(seen.contains(&Some("one".into())), "{seen:?}");
    assert!(seen.contains(&Some("two".into())), "{seen:?}");
    assert!(seen.iter().all(|v| v.is_some()));
    // Past the lag every read sees the last write.
    clock.advance(0.5);
    for _ in 0..200 {
        assert_eq!(seen_v(&engine, false).await.as_deref(), Some("two"));
    }
}

#[tokio::test]
async fn strongly_consistent_reads_stay_exact() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(1)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    put_v(&engine, "two").await;
    for _ in 0..200 {
        assert_eq!(seen_v(&engine, true).await.as_deref(), Some("two"));
    }
}

#[tokio::test]
async fn a_new_item_may_be_missing_and_a_deleted_one_still_there() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(2)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(0.25);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(
        seen.contains(&None) && seen.contains(&Some("one".into())),
        "{seen:?}"
    );
    clock.advance(5.0);
    call(
        &engine,
        "DeleteItem",
        json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}),
    )
    .await
    .unwrap();
    clock.advance(0.25);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(
        seen.contains(&None) && seen.contains(&Some("one".into())),
        "{seen:?}"
    );
}

#[tokio::test]
async fn batch_get_item_reads_lag_too_unless_consistent() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(3)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    clock.advance(0.5);
    let batch = |consistent: bool| {
        call(
            &engine,
            "BatchGetItem",
            json!({"RequestItems": {"Tbl": {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1"}}],
                                          "ConsistentRead": consistent}}}),
        )
    };
    let mut seen = Vec::new();
    for _ in 0..200 {
        let answer = batch(false).await.unwrap();
        seen.push(
            answer["Responses"]["Tbl"][0]["v"]["S"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    assert!(
        seen.iter().any(|v| v == "one") && seen.iter().any(|v| v == "two"),
        "{seen:?}"
    );
    for _ in 0..100 {
        let answer = batch(true).await.unwrap();
        assert_eq!(answer["Responses"]["Tbl"][0]["v"]["S"], "two");
    }
}

/// The versions 100 eventually consistent reads see, on a fresh engine with `seed`.
async fn hundred_reads(seed: u64) -> Vec<Option<String>> {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(seed)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    clock.advance(0.5);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    seen
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answers() {
    let first = hundred_reads(42).await;
    assert_eq!(first, hundred_reads(42).await);
    assert_ne!(first, hundred_reads(43).await);
}

#[tokio::test]
async fn without_a_lag_every_read_sees_the_last_write() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, None).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    put_v(&engine, "two").await;
    for _ in 0..100 {
        assert_eq!(seen_v(&engine, false).await.as_deref(), Some("two"));
    }
}

/// What an eventually (or strongly) consistent Query of `a` on table `Tbl` returns, as
/// `sk=v` pairs in order.
async fn query_a(engine: &Engine, consistent: bool) -> Vec<String> {
    let answer = call(
        engine,
        "Query",
        json!({"TableName": "Tbl", "KeyConditionExpression": "pk = :a",
               "ExpressionAttributeValues": {":a": {"S": "a"}}, "ConsistentRead": consistent}),
    )
    .await
    .unwrap();
    answer["Items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            format!(
                "{}={}",
                item["sk"]["N"].as_str().unwrap(),
                item["v"]["S"].as_str().unwrap()
            )
        })
        .collect()
}

async fn put_sk(engine: &Engine, sk: u64, v: &str) {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": sk.to_string()}, "v": {"S": v}}}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_eventually_consistent_query_may_see_the_collection_as_it_was() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(5)).await;
    create(&engine, 0, 0).await;
    put_sk(&engine, 1, "one").await;
    put_sk(&engine, 3, "three").await;
    clock.advance(10.0);
    put_sk(&engine, 1, "uno").await;
    put_sk(&engine, 2, "two").await;
    call(
        &engine,
        "DeleteItem",
        json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "3"}}}),
    )
    .await
    .unwrap();
    clock.advance(0.5);
    let before = vec!["1=one".to_owned(), "3=three".to_owned()];
    let after = vec!["1=uno".to_owned(), "2=two".to_owned()];
    let mut seen = Vec::new();
    for _ in 0..200 {
        seen.push(query_a(&engine, false).await);
    }
    // The three writes came at one instant: a read sees all of them or none, in key order.
    assert!(
        seen.iter().all(|page| *page == before || *page == after),
        "{seen:?}"
    );
    assert!(seen.contains(&before) && seen.contains(&after));
    for _ in 0..100 {
        assert_eq!(query_a(&engine, true).await, after);
    }
    clock.advance(0.5);
    for _ in 0..100 {
        assert_eq!(query_a(&engine, false).await, after);
    }
}

#[tokio::test]
async fn a_gsi_query_may_miss_an_item_that_moved_into_its_collection() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(6)).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Tbl",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "g", "AttributeType": "S"},
            ],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        }),
    )
    .await
    .unwrap();
    let put_g = |pk: &'static str, g: &'static str| {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"pk": {"S": pk}, "g": {"S": g}}}),
        )
    };
    put_g("p1", "x").await.unwrap();
    put_g("p2", "y").await.unwrap();
    clock.advance(10.0);
    // p2 moves from collection y to collection x.
    put_g("p2", "x").await.unwrap();
    clock.advance(0.5);
    let members = |g: &'static str| {
        let engine = engine.clone();
        async move {
            let answer = call(
                &engine,
                "Query",
                json!({"TableName": "Tbl", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
                       "ExpressionAttributeValues": {":g": {"S": g}}}),
            )
            .await
            .unwrap();
            answer["Items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| item["pk"]["S"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    let mut in_x = Vec::new();
    let mut in_y = Vec::new();
    for _ in 0..100 {
        in_x.push(members("x").await);
        in_y.push(members("y").await);
    }
    assert!(
        in_x.iter().all(|m| *m == ["p1"] || *m == ["p1", "p2"]),
        "{in_x:?}"
    );
    assert!(in_x.iter().any(|m| *m == ["p1"]) && in_x.iter().any(|m| *m == ["p1", "p2"]));
    assert!(in_y.iter().all(|m| m.is_empty() || *m == ["p2"]), "{in_y:?}");
    assert!(in_y.iter().any(|m| m.is_empty()) && in_y.iter().any(|m| *m == ["p2"]));
    clock.advance(0.5);
    assert_eq!(members("x").await, ["p1", "p2"]);
    assert!(members("y").await.is_empty());
}

#[tokio::test]
async fn the_simulations_switch_on_and_off_while_the_engine_runs() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, None).await;
    assert_eq!(engine.simulations(), Simulations::default());
    create(&engine, 1, 1).await;
    // Off: a one-unit table takes 400 writes at once.
    for sk in 0..400 {
        put(&engine, "a", sk).await.unwrap();
    }
    let on = Simulations {
        enforce_capacity: true,
        eventual_lag: lag(9),
    };
    engine.set_simulations(on);
    assert_eq!(engine.simulations(), on);
    // On: the burst of 300, then throttled.
    for sk in 400..700 {
        put(&engine, "a", sk).await.unwrap();
    }
    assert!(put(&engine, "a", 700).await.is_err());
    assert_eq!(engine.throttled_requests(), 1);
    // Off again: served, and the count kept.
    engine.set_simulations(Simulations::default());
    put(&engine, "a", 700).await.unwrap();
    assert_eq!(engine.throttled_requests(), 1);
    // The lag was on for the writes 400..700: their eventually consistent reads are exact
    // again now that it is off.
    clock.advance(0.25);
    for sk in 400..500 {
        assert!(get(&engine, "a", sk, false).await.unwrap()["Item"].is_object());
    }
}
