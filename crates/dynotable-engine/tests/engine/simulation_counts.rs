//! What the simulations did, per table (issue 18.7): the requests throttled on a table (rule
//! B.19) and the eventually consistent reads of it that saw an older version (rule B.20), as
//! `Engine::simulation_counts` reports them for the app's table settings.

use std::sync::Arc;

use dynotable_engine::{
    ApiError, Engine, ErrorKind, EventualLag, Location, ManualClock, Options, TableSimulationCounts,
};
use serde_json::{Value, json};

const START: f64 = 1_700_000_000.0;

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

/// A table keyed by `pk` (S) and `sk` (N), provisioned with one read and one write unit, or
/// on-demand.
async fn create(engine: &Engine, name: &str, provisioned: bool) {
    let mut body = json!({
        "TableName": name,
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"},
        ],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
    });
    if provisioned {
        body["ProvisionedThroughput"] = json!({"ReadCapacityUnits": 1, "WriteCapacityUnits": 1});
    } else {
        body["BillingMode"] = json!("PAY_PER_REQUEST");
    }
    call(engine, "CreateTable", body).await.unwrap();
}

async fn put(engine: &Engine, table: &str, sk: u64, v: &str) -> Result<Value, ApiError> {
    call(
        engine,
        "PutItem",
        json!({"TableName": table, "Item": {"pk": {"S": "a"}, "sk": {"N": sk.to_string()}, "v": {"S": v}}}),
    )
    .await
}

fn counts(engine: &Engine, table: &str) -> TableSimulationCounts {
    engine.simulation_counts(table).unwrap()
}

/// Puts to `Tbl` (one write unit a second, 300 banked) until one is throttled; returns the
/// next sort key.
async fn exhaust(engine: &Engine) -> u64 {
    for sk in 0..1000 {
        if let Err(err) = put(engine, "Tbl", sk, "x").await {
            assert_eq!(err.kind, ErrorKind::ProvisionedThroughputExceededException);
            return sk;
        }
    }
    panic!("1,000 puts on a one-unit table were never throttled");
}

#[tokio::test]
async fn each_table_counts_the_requests_throttled_on_it() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, true, None).await;
    create(&engine, "Tbl", true).await;
    create(&engine, "Other", false).await;
    assert_eq!(counts(&engine, "Tbl"), TableSimulationCounts::default());

    let next = exhaust(&engine).await;
    assert_eq!(counts(&engine, "Tbl").throttled_requests, 1);
    put(&engine, "Tbl", next, "x").await.unwrap_err();
    put(&engine, "Other", 0, "x").await.unwrap();
    assert_eq!(counts(&engine, "Tbl").throttled_requests, 2);
    assert_eq!(counts(&engine, "Other").throttled_requests, 0);

    // Rule B.19.6: a batch on both tables returns Tbl's requests unprocessed: one more on Tbl.
    let answer = call(
        &engine,
        "BatchWriteItem",
        json!({"RequestItems": {
            "Tbl": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "9000"}}}}],
            "Other": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}],
        }}),
    )
    .await
    .unwrap();
    assert!(answer["UnprocessedItems"]["Tbl"].is_array(), "{answer}");
    assert_eq!(counts(&engine, "Tbl").throttled_requests, 3);
    assert_eq!(counts(&engine, "Other").throttled_requests, 0);

    // A cancelled transaction counts on the table that throttled it.
    let err = call(
        &engine,
        "TransactWriteItems",
        json!({"TransactItems": [
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "9001"}}}},
            {"Put": {"TableName": "Other", "Item": {"pk": {"S": "a"}, "sk": {"N": "2"}}}},
        ]}),
    )
    .await
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::TransactionCanceledException);
    assert_eq!(counts(&engine, "Tbl").throttled_requests, 4);
    assert_eq!(counts(&engine, "Other").throttled_requests, 0);
    assert_eq!(engine.throttled_requests(), 4);
    assert_eq!(counts(&engine, "Tbl").lagged_reads, 0);

    // A table created again under the same name starts at zero.
    call(&engine, "DeleteTable", json!({"TableName": "Tbl"}))
        .await
        .unwrap();
    create(&engine, "Tbl", true).await;
    assert_eq!(counts(&engine, "Tbl"), TableSimulationCounts::default());
    let err = engine.simulation_counts("Missing").unwrap_err();
    assert_eq!(err.kind, ErrorKind::ResourceNotFoundException);
}

#[tokio::test]
async fn each_table_counts_the_reads_that_saw_an_older_version() {
    let clock = Arc::new(ManualClock::new(START));
    let lag = EventualLag {
        max_seconds: 1.0,
        seed: 5,
    };
    let engine = open(&clock, false, Some(lag)).await;
    create(&engine, "Tbl", false).await;
    create(&engine, "Other", false).await;
    put(&engine, "Tbl", 1, "one").await.unwrap();
    put(&engine, "Other", 1, "one").await.unwrap();
    clock.advance(10.0);
    put(&engine, "Tbl", 1, "two").await.unwrap();
    clock.advance(0.5);

    let get = |consistent: bool| {
        call(
            &engine,
            "GetItem",
            json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ConsistentRead": consistent}),
        )
    };
    let mut older = 0;
    for _ in 0..100 {
        let answer = get(false).await.unwrap();
        if answer["Item"]["v"]["S"] == "one" {
            older += 1;
        }
    }
    assert!(older > 0 && older < 100, "{older}");
    assert_eq!(counts(&engine, "Tbl").lagged_reads, older);
    // Strongly consistent reads are exact and never counted.
    for _ in 0..20 {
        get(true).await.unwrap();
    }
    assert_eq!(counts(&engine, "Tbl").lagged_reads, older);

    // A Query of the collection counts when it sees the collection as it was.
    let mut older_pages = 0;
    for _ in 0..100 {
        let answer = call(
            &engine,
            "Query",
            json!({"TableName": "Tbl", "KeyConditionExpression": "pk = :a",
                   "ExpressionAttributeValues": {":a": {"S": "a"}}}),
        )
        .await
        .unwrap();
        if answer["Items"][0]["v"]["S"] == "one" {
            older_pages += 1;
        }
    }
    assert!(older_pages > 0, "{older_pages}");
    assert_eq!(counts(&engine, "Tbl").lagged_reads, older + older_pages);
    // Nothing was written to Other within the lag.
    assert_eq!(counts(&engine, "Other"), TableSimulationCounts::default());
}

#[tokio::test]
async fn a_gsi_query_that_saw_an_older_version_of_its_collection_is_counted() {
    let clock = Arc::new(ManualClock::new(START));
    let lag = EventualLag {
        max_seconds: 1.0,
        seed: 11,
    };
    let engine = open(&clock, false, Some(lag)).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Tbl",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"},
                {"AttributeName": "v", "AttributeType": "S"},
            ],
            "KeySchema": [
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByV",
                "KeySchema": [{"AttributeName": "v", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        }),
    )
    .await
    .unwrap();
    put(&engine, "Tbl", 1, "one").await.unwrap();
    clock.advance(10.0);
    // The item moves from ByV's collection "one" to "two".
    put(&engine, "Tbl", 1, "two").await.unwrap();
    clock.advance(0.5);

    // Rule B.20: a GSI Query is eventually consistent; one that still sees the item in "one"
    // (or not yet in "two") saw an older version of its collection.
    let mut older = 0;
    for round in 0..100 {
        let value = if round % 2 == 0 { "one" } else { "two" };
        let answer = call(
            &engine,
            "Query",
            json!({"TableName": "Tbl", "IndexName": "ByV", "KeyConditionExpression": "v = :v",
                   "ExpressionAttributeValues": {":v": {"S": value}}}),
        )
        .await
        .unwrap();
        let count = answer["Count"].as_u64().unwrap();
        // As of now the item is in "two" only: one in "one", or none in "two", is the past.
        if (value == "one" && count == 1) || (value == "two" && count == 0) {
            older += 1;
        }
    }
    assert!(older > 0 && older < 100, "{older}");
    assert_eq!(counts(&engine, "Tbl").lagged_reads, older);

    // A collection of the index that no write within the lag touched reads as committed and is
    // not counted.
    call(
        &engine,
        "Query",
        json!({"TableName": "Tbl", "IndexName": "ByV", "KeyConditionExpression": "v = :v",
               "ExpressionAttributeValues": {":v": {"S": "three"}}}),
    )
    .await
    .unwrap();
    assert_eq!(counts(&engine, "Tbl").lagged_reads, older);
}
