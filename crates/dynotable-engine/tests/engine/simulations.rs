//! The simulations no local DynamoDB has (issue 18.7), on the engine with a manual clock:
//! throttling by provisioned throughput, burst capacity and the per-partition ceilings
//! (`Options::enforce_capacity`, rule B.19), and both switches turned on and off while the
//! engine runs. The eventually consistent reads (`Options::eventual_lag`) are in
//! `eventual_lag.rs`, on this file's helpers.

use std::sync::Arc;

use dynotable_engine::{
    ApiError, Engine, ErrorKind, EventualLag, Location, ManualClock, Options, Simulations,
};
use serde_json::{Value, json};

pub(crate) const START: f64 = 1_700_000_000.0;
const KEY_RANGE_MESSAGE: &str = "Throughput exceeds the current capacity of your table or index. DynamoDB is \
     automatically scaling your table or index so please try again shortly. If exceptions persist, check if you \
     have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
const TABLE_MESSAGE: &str = "The level of configured provisioned throughput for the table was exceeded. \
     Consider increasing your provisioning level with the UpdateTable API.";

pub(crate) async fn open(
    clock: &Arc<ManualClock>,
    enforce_capacity: bool,
    lag: Option<EventualLag>,
) -> Engine {
    let mut options = Options::new(Location::InMemory);
    options.clock = clock.clone();
    options.sweep_interval = None;
    options.enforce_capacity = enforce_capacity;
    options.eventual_lag = lag;
    Engine::open_with(options).await.unwrap()
}

pub(crate) async fn call(engine: &Engine, op: &str, body: Value) -> Result<Value, ApiError> {
    let answer = engine.call(op, body.to_string().as_bytes()).await?;
    Ok(serde_json::from_slice(&answer).unwrap())
}

/// A table `Tbl` keyed by `pk` (S) and `sk` (N), provisioned with `read`/`write` units, or
/// on-demand when both are 0.
pub(crate) async fn create(engine: &Engine, read: u64, write: u64) {
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

pub(crate) async fn get(engine: &Engine, pk: &str, sk: u64, consistent: bool) -> Result<Value, ApiError> {
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

/// A lag of up to a second under `seed`.
pub(crate) fn lag(seed: u64) -> Option<EventualLag> {
    Some(EventualLag {
        max_seconds: 1.0,
        seed,
    })
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
