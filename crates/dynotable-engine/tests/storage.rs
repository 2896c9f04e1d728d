//! The engine on disk: a database file is created with its folder, survives close and reopen
//! with its catalog and items, and a folder that cannot be created is a clear error.

use dynotable_engine::{Engine, EngineError, Location};

const CREATE: &str = r#"{"TableName":"Pets","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"AnimalType","AttributeType":"S"},{"AttributeName":"Name","AttributeType":"S"}],"KeySchema":[{"AttributeName":"AnimalType","KeyType":"HASH"},{"AttributeName":"Name","KeyType":"RANGE"}]}"#;
const PUT: &str =
    r#"{"TableName":"Pets","Item":{"AnimalType":{"S":"Dog"},"Name":{"S":"Fido"},"Age":{"N":"7"}}}"#;
const GET: &str = r#"{"TableName":"Pets","Key":{"AnimalType":{"S":"Dog"},"Name":{"S":"Fido"}}}"#;

#[tokio::test]
async fn a_database_file_keeps_tables_and_items_across_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("local.db");
    let engine = Engine::open(Location::File(path.clone())).await.unwrap();
    assert_eq!(engine.table_count(), 0);
    engine.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    engine.call("PutItem", PUT.as_bytes()).await.unwrap();
    engine.close().await;
    assert!(path.is_file());

    let reopened = Engine::open(Location::File(path)).await.unwrap();
    assert_eq!(reopened.table_count(), 1);
    let got: serde_json::Value =
        serde_json::from_slice(&reopened.call("GetItem", GET.as_bytes()).await.unwrap()).unwrap();
    assert_eq!(got["Item"]["Age"], serde_json::json!({"N": "7"}));
}

#[tokio::test]
async fn in_memory_databases_are_private() {
    let first = Engine::open(Location::InMemory).await.unwrap();
    first.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    let second = Engine::open(Location::InMemory).await.unwrap();
    assert_eq!(first.table_count(), 1);
    assert_eq!(second.table_count(), 0);
}

#[tokio::test]
async fn a_folder_that_cannot_be_created_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let err = Engine::open(Location::File(blocker.join("local.db")))
        .await
        .unwrap_err();
    assert!(matches!(err, EngineError::CreateFolder { .. }), "{err}");
}
