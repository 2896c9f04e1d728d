//! The size limits of the read operations that return many items, on items too large for a
//! goldenscript (rule B.7): TransactGetItems' 4 MB of items, read by TransactGetItems and by a
//! read-only PartiQL ExecuteTransaction; BatchGetItem's 16 MB response.

use std::sync::Arc;

use dynotable_engine::{Engine, ErrorKind, ManualClock};
use serde_json::{Value, json};

use crate::simulations::{START, call, open};

/// `count` items `k000`, `k001`, ... in table `big` (key `pk`, S), each with a string of
/// `payload` bytes under `v` ([`item_size`] gives their size).
async fn big_items(count: usize, payload: usize) -> Engine {
    let engine = open(&Arc::new(ManualClock::new(START)), false, None).await;
    call(
        &engine,
        "CreateTable",
        json!({"TableName": "big", "BillingMode": "PAY_PER_REQUEST",
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}),
    )
    .await
    .unwrap();
    let value = "x".repeat(payload);
    for i in 0..count {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "big", "Item": {"pk": {"S": key(i)}, "v": {"S": value}}}),
        )
        .await
        .unwrap();
    }
    engine
}

fn key(i: usize) -> String {
    format!("k{i:03}")
}

/// The item's size by rule B.1: names and values, `pk` + `k000` + `v` + the payload.
fn item_size(payload: usize) -> usize {
    2 + 4 + 1 + payload
}

fn gets(count: usize) -> Value {
    let items: Vec<Value> = (0..count)
        .map(|i| json!({"Get": {"TableName": "big", "Key": {"pk": {"S": key(i)}}}}))
        .collect();
    json!({"TransactItems": items})
}

const TOO_LARGE: &str = "Collection size of items exceeded, which can also be caused by the aggregate size of the \
     items in the transaction exceeding the 4MB limit";
const FOUR_MB: usize = 4 * 1024 * 1024;

#[tokio::test]
async fn transact_get_items_refuses_more_than_4_mb_of_items() {
    // 300 KB items: 13 are 3.8 MB, 14 are 4.1 MB.
    let payload = 300 * 1024;
    assert!(13 * item_size(payload) <= FOUR_MB && 14 * item_size(payload) > FOUR_MB);
    let engine = big_items(15, payload).await;
    let answer = call(&engine, "TransactGetItems", gets(13)).await.unwrap();
    assert_eq!(answer["Responses"].as_array().unwrap().len(), 13);
    let err = call(&engine, "TransactGetItems", gets(14)).await.unwrap_err();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (ErrorKind::ValidationException, TOO_LARGE)
    );
    // Items that are not there weigh nothing.
    let mut missing = gets(13);
    missing["TransactItems"]
        .as_array_mut()
        .unwrap()
        .push(json!({"Get": {"TableName": "big", "Key": {"pk": {"S": "nothing"}}}}));
    assert!(call(&engine, "TransactGetItems", missing).await.is_ok());
}

#[tokio::test]
async fn transact_get_items_counts_the_items_exactly_at_4_mb() {
    // Ten items of 400 KB and one of 96 KB are 4 MB exactly: allowed; one byte more is not.
    let engine = big_items(10, 400 * 1024 - item_size(0)).await;
    let rest = 4 * 1024 * 1024 - 10 * 400 * 1024;
    call(
        &engine,
        "PutItem",
        json!({"TableName": "big", "Item": {"pk": {"S": key(10)}, "v": {"S": "x".repeat(rest - item_size(0))}}}),
    )
    .await
    .unwrap();
    assert!(call(&engine, "TransactGetItems", gets(11)).await.is_ok());
    call(
        &engine,
        "UpdateItem",
        json!({"TableName": "big", "Key": {"pk": {"S": key(10)}}, "UpdateExpression": "SET w = :b",
               "ExpressionAttributeValues": {":b": {"B": ""}}}),
    )
    .await
    .unwrap();
    let err = call(&engine, "TransactGetItems", gets(11)).await.unwrap_err();
    assert_eq!(err.message, TOO_LARGE);
}

#[tokio::test]
async fn a_read_only_partiql_transaction_refuses_more_than_4_mb_of_items() {
    let engine = big_items(14, 300 * 1024).await;
    let statements: Vec<Value> = (0..14)
        .map(|i| json!({"Statement": format!("SELECT * FROM big WHERE pk = '{}'", key(i))}))
        .collect();
    let err = call(
        &engine,
        "ExecuteTransaction",
        json!({"TransactStatements": statements}),
    )
    .await
    .unwrap_err();
    assert_eq!(
        (err.kind, err.message.as_str()),
        (ErrorKind::ValidationException, TOO_LARGE)
    );
    let answer = call(
        &engine,
        "ExecuteTransaction",
        json!({"TransactStatements": statements[..13].to_vec()}),
    )
    .await
    .unwrap();
    assert_eq!(answer["Responses"].as_array().unwrap().len(), 13);
}

fn batch(keys: std::ops::Range<usize>) -> Value {
    let keys: Vec<Value> = keys.map(|i| json!({"pk": {"S": key(i)}})).collect();
    json!({"RequestItems": {"big": {"Keys": keys}}, "ReturnConsumedCapacity": "TOTAL"})
}

fn returned_keys(answer: &Value) -> Vec<String> {
    answer["Responses"]["big"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["pk"]["S"].as_str().unwrap().to_owned())
        .collect()
}

fn unprocessed_keys(answer: &Value) -> Vec<String> {
    answer["UnprocessedKeys"]["big"]["Keys"]
        .as_array()
        .map(|keys| {
            keys.iter()
                .map(|k| k["pk"]["S"].as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

const SIXTEEN_MB: usize = 16 * 1024 * 1024;

#[tokio::test]
async fn batch_get_item_returns_at_most_16_mb() {
    // The API reference's example: 100 items of 300 KB. 54 fit in 16 × 1,048,576 bytes, the 55th
    // would cross (the reference says 52: docs/compatibility.md).
    let payload = 300 * 1024;
    assert!(54 * item_size(payload) <= SIXTEEN_MB && 55 * item_size(payload) > SIXTEEN_MB);
    let engine = big_items(100, payload).await;
    let first = call(&engine, "BatchGetItem", batch(0..100)).await.unwrap();
    let (returned, unprocessed) = (returned_keys(&first), unprocessed_keys(&first));
    assert_eq!(returned, (0..54).map(key).collect::<Vec<_>>());
    assert_eq!(unprocessed, (54..100).map(key).collect::<Vec<_>>());
    // Only the items returned are charged: 76 × 4 KB each, eventually consistent, 38 units
    // (rule B.2).
    assert_eq!(first["ConsumedCapacity"][0]["CapacityUnits"], json!(54.0 * 38.0));
    let second = call(&engine, "BatchGetItem", batch(54..100)).await.unwrap();
    assert_eq!(returned_keys(&second), (54..100).map(key).collect::<Vec<_>>());
    assert!(unprocessed_keys(&second).is_empty());
}

#[tokio::test]
async fn batch_get_item_returns_exactly_16_mb() {
    // Forty items of 400 KB and one of 384 KB are 16 MB exactly: all returned; one byte more
    // and the last is left for the next call.
    let engine = big_items(40, 400 * 1024 - item_size(0)).await;
    let rest = SIXTEEN_MB - 40 * 400 * 1024;
    call(
        &engine,
        "PutItem",
        json!({"TableName": "big", "Item": {"pk": {"S": key(40)}, "v": {"S": "x".repeat(rest - item_size(0))}}}),
    )
    .await
    .unwrap();
    let all = call(&engine, "BatchGetItem", batch(0..41)).await.unwrap();
    assert_eq!(returned_keys(&all).len(), 41);
    assert!(all["UnprocessedKeys"].as_object().unwrap().is_empty());
    call(
        &engine,
        "UpdateItem",
        json!({"TableName": "big", "Key": {"pk": {"S": key(40)}}, "UpdateExpression": "SET w = :b",
               "ExpressionAttributeValues": {":b": {"B": ""}}}),
    )
    .await
    .unwrap();
    let partial = call(&engine, "BatchGetItem", batch(0..41)).await.unwrap();
    assert_eq!(returned_keys(&partial).len(), 40);
    assert_eq!(unprocessed_keys(&partial), vec![key(40)]);
}
