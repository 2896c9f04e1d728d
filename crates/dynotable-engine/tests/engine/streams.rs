//! Stream iterators expire after 15 minutes, and a write's stream record is never lost: on a
//! file database, records survive a reopen with their items.

use std::sync::Arc;

use dynotable_engine::{Engine, ErrorKind, Location, ManualClock, Options};
use serde_json::{Value, json};

async fn call(engine: &Engine, op: &str, body: Value) -> Value {
    serde_json::from_slice(&engine.call(op, body.to_string().as_bytes()).await.unwrap()).unwrap()
}

async fn streams(engine: &Engine, op: &str, body: Value) -> Result<Value, dynotable_engine::ApiError> {
    Ok(serde_json::from_slice(&engine.call_streams(op, body.to_string().as_bytes()).await?).unwrap())
}

async fn iterator(engine: &Engine) -> Value {
    let arn = call(engine, "DescribeTable", json!({"TableName": "Events"})).await["Table"]["LatestStreamArn"]
        .clone();
    let shard = streams(engine, "DescribeStream", json!({"StreamArn": arn}))
        .await
        .unwrap()["StreamDescription"]["Shards"][0]["ShardId"]
        .clone();
    streams(
        engine,
        "GetShardIterator",
        json!({"StreamArn": arn, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON"}),
    )
    .await
    .unwrap()["ShardIterator"]
        .clone()
}

async fn open(location: Location, clock: &Arc<ManualClock>) -> Engine {
    let mut options = Options::new(location);
    options.clock = clock.clone();
    options.sweep_interval = None;
    Engine::open_with(options).await.unwrap()
}

const CREATE: &str = r#"{"TableName":"Events","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}"#;

#[tokio::test]
async fn iterators_expire_after_fifteen_minutes() {
    let clock = Arc::new(ManualClock::new(1_700_000_000.0));
    let engine = open(Location::InMemory, &clock).await;
    engine.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    call(
        &engine,
        "PutItem",
        json!({"TableName": "Events", "Item": {"id": {"S": "a"}}}),
    )
    .await;
    let iterator = iterator(&engine).await;

    clock.advance(14.0 * 60.0);
    let page = streams(&engine, "GetRecords", json!({"ShardIterator": iterator}))
        .await
        .unwrap();
    assert_eq!(page["Records"].as_array().unwrap().len(), 1);

    clock.advance(2.0 * 60.0);
    let err = streams(&engine, "GetRecords", json!({"ShardIterator": iterator}))
        .await
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::ExpiredIteratorException);
    // The next iterator of the last page is fresh.
    let next = page["NextShardIterator"].clone();
    assert!(
        streams(&engine, "GetRecords", json!({"ShardIterator": next}))
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn records_are_durable_with_their_items() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("local.db");
    let clock = Arc::new(ManualClock::new(1_700_000_000.0));
    let engine = open(Location::File(path.clone()), &clock).await;
    engine.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    for id in ["a", "b", "c"] {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "Events", "Item": {"id": {"S": id}}}),
        )
        .await;
    }
    call(
        &engine,
        "DeleteItem",
        json!({"TableName": "Events", "Key": {"id": {"S": "b"}}}),
    )
    .await;
    engine.close().await;

    let reopened = open(Location::File(path), &clock).await;
    let page = streams(
        &reopened,
        "GetRecords",
        json!({"ShardIterator": iterator(&reopened).await}),
    )
    .await
    .unwrap();
    let events: Vec<(String, String)> = page["Records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["eventName"].as_str().unwrap().to_owned(),
                r["dynamodb"]["Keys"]["id"]["S"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> =
        [("INSERT", "a"), ("INSERT", "b"), ("INSERT", "c"), ("REMOVE", "b")]
            .iter()
            .map(|(e, k)| (e.to_string(), k.to_string()))
            .collect();
    assert_eq!(events, expected);
}
