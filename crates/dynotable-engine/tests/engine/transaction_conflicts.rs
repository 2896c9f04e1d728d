//! Transaction conflicts on a database file, through the public entry point `Engine::call`.
//!
//! A transaction is kept "ongoing" the way a slow commit keeps it in real use: another
//! connection to the file holds SQLite's write lock, so the engine's transaction waits at its
//! `BEGIN IMMEDIATE` (inside the busy timeout) after it was admitted. Whether it has been admitted
//! is observed through the API — a TransactGetItems of its item is cancelled — not guessed from
//! time. Then the other requests meet it, the lock is let go, and the transaction commits.
//!
//! The engine waits for the lock as long as the test holds it: with the default busy timeout
//! (10 s) a machine slow enough to take that long over the requests made meanwhile would fail
//! the transaction. An hour puts that out of reach; the test lets the lock go itself (and a
//! failing test drops the connection, which lets it go too), so the wait ends when the test
//! says, never at the timeout.

use dynotable_engine::{ApiError, Engine, ErrorKind, Location, Options};
use serde_json::{Value, json};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

async fn call(engine: &Engine, operation: &str, body: Value) -> Result<Value, ApiError> {
    let out = engine.call(operation, body.to_string().as_bytes()).await?;
    Ok(serde_json::from_slice(&out).expect("the engine answers JSON"))
}

fn key(id: &str) -> Value {
    json!({"TableName": "Accounts", "Key": {"id": {"S": id}}})
}

fn transfer() -> Value {
    json!({"TransactItems": [
        {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "carol"}, "balance": {"N": "10"}}}},
        {"Update": {"TableName": "Accounts", "Key": {"id": {"S": "alice"}},
            "UpdateExpression": "SET balance = balance - :ten", "ConditionExpression": "balance >= :ten",
            "ExpressionAttributeValues": {":ten": {"N": "10"}}}}
    ]})
}

async fn balance(engine: &Engine, id: &str) -> Option<String> {
    let mut body = key(id);
    body["ConsistentRead"] = json!(true);
    let out = call(engine, "GetItem", body).await.unwrap();
    out["Item"]["balance"]["N"].as_str().map(str::to_owned)
}

/// A request made while the test holds the lock that needs no writer (a conflict is answered at
/// once, a read reads): it is answered while the lock is held, or, if it waits for the writer,
/// not before the test lets the lock go. A minute without an answer is that wait, a failure,
/// rather than an hour's hang until the busy timeout.
async fn without_the_writer<T>(what: &str, answer: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(std::time::Duration::from_secs(60), answer)
        .await
        .unwrap_or_else(|_| panic!("{what} waited for the writer"))
}

fn codes(err: &ApiError) -> Vec<(&str, Option<&str>)> {
    err.cancellation_reasons
        .as_ref()
        .expect("a cancelled transaction has reasons")
        .iter()
        .map(|r| (r.code.as_str(), r.message.as_deref()))
        .collect()
}

#[tokio::test]
async fn requests_meeting_a_transaction_held_at_the_storage_lock_conflict_until_it_commits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conflicts.sqlite");
    let mut options = Options::new(Location::File(path.clone()));
    options.sweep_interval = None;
    options.busy_timeout = std::time::Duration::from_secs(3600);
    let engine = Engine::open_with(options).await.unwrap();
    call(
        &engine,
        "CreateTable",
        json!({"TableName": "Accounts", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"}),
    )
    .await
    .unwrap();
    call(
        &engine,
        "PutItem",
        json!({"TableName": "Accounts", "Item": {"id": {"S": "alice"}, "balance": {"N": "100"}}}),
    )
    .await
    .unwrap();

    let mut other = SqliteConnectOptions::new()
        .filename(&path)
        .connect()
        .await
        .unwrap();
    sqlx::query("BEGIN IMMEDIATE").execute(&mut other).await.unwrap();

    let ongoing = {
        let engine = engine.clone();
        tokio::spawn(async move { call(&engine, "TransactWriteItems", transfer()).await })
    };
    let probe = json!({"TransactItems": [{"Get": key("bob")}, {"Get": key("alice")}]});
    let mut admitted = None;
    for _ in 0..1_000 {
        match call(&engine, "TransactGetItems", probe.clone()).await {
            Ok(_) => tokio::task::yield_now().await,
            Err(err) => {
                admitted = Some(err);
                break;
            }
        }
    }
    let err = admitted.expect("the transaction was admitted while the lock was held");
    assert_eq!(err.kind, ErrorKind::TransactionCanceledException);
    assert_eq!(
        err.message,
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]"
    );
    assert_eq!(
        codes(&err),
        vec![
            ("None", None),
            ("TransactionConflict", Some("Transaction is ongoing for the item"))
        ]
    );

    // A single-item write of an item in the transaction fails at once, without waiting.
    let update = call(
        &engine,
        "UpdateItem",
        json!({"TableName": "Accounts", "Key": {"id": {"S": "carol"}},
            "UpdateExpression": "SET balance = :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}),
    );
    let err = without_the_writer("the UpdateItem", update).await.unwrap_err();
    assert_eq!(err.kind, ErrorKind::TransactionConflictException);
    assert_eq!(err.message, "Transaction is ongoing for the item");
    // Another transaction that includes one of its items is cancelled.
    let other_transaction = call(
        &engine,
        "TransactWriteItems",
        json!({"TransactItems": [
            {"Put": {"TableName": "Accounts", "Item": {"id": {"S": "dave"}}}},
            {"Delete": {"TableName": "Accounts", "Key": {"id": {"S": "alice"}}}}
        ]}),
    );
    let err = without_the_writer("the other TransactWriteItems", other_transaction)
        .await
        .unwrap_err();
    assert_eq!(
        codes(&err),
        vec![
            ("None", None),
            ("TransactionConflict", Some("Transaction is ongoing for the item"))
        ]
    );
    // Reads see the committed state.
    let alice = without_the_writer("the GetItem", balance(&engine, "alice")).await;
    assert_eq!(alice.as_deref(), Some("100"));

    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    other.close().await.unwrap();
    ongoing.await.unwrap().unwrap();
    assert_eq!(balance(&engine, "alice").await.as_deref(), Some("90"));
    assert_eq!(balance(&engine, "carol").await.as_deref(), Some("10"));
    assert_eq!(
        balance(&engine, "dave").await,
        None,
        "the cancelled transaction wrote nothing"
    );

    // The transaction is over: the same requests go through.
    call(&engine, "TransactGetItems", probe).await.unwrap();
    call(&engine, "TransactWriteItems", transfer()).await.unwrap();
    assert_eq!(balance(&engine, "alice").await.as_deref(), Some("80"));
    engine.close().await;
}
