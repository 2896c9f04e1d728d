//! The engine on disk: a database file is created with its folder, survives close and reopen
//! with its catalog and items, and a folder that cannot be created is a clear error. In memory:
//! a database is private to its engine and never a file.

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

/// Issue 18.8: an in-memory database lives on SQLite's `memdb` VFS, under a name starting with
/// `/`, with its journal in memory; nothing of it may appear as a file — not the database, not a
/// rollback journal beside that name — in the root folder, the working folder or the temp folder.
#[tokio::test]
async fn an_in_memory_database_writes_no_file() {
    let ours = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|name| name.contains("dynotable-memdb"))
                    .collect()
            })
            .unwrap_or_default()
    };
    let engine = Engine::open(Location::InMemory).await.unwrap();
    engine.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    engine.call("PutItem", PUT.as_bytes()).await.unwrap();
    let got: serde_json::Value =
        serde_json::from_slice(&engine.call("GetItem", GET.as_bytes()).await.unwrap()).unwrap();
    assert_eq!(got["Item"]["Age"], serde_json::json!({"N": "7"}));
    let folders = [
        std::path::PathBuf::from("/"),
        std::env::current_dir().unwrap(),
        std::env::temp_dir(),
    ];
    for folder in &folders {
        assert_eq!(ours(folder), Vec::<String>::new(), "in {}", folder.display());
    }
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
