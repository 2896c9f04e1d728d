//! The size limits of the read operations that return many items, on items too large for a
//! goldenscript (rule B.7): TransactGetItems' 4 MB of items, read by TransactGetItems and by a
//! read-only PartiQL ExecuteTransaction.

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
