//! The app's embedded engine starts even when the window closed a moment ago still holds its
//! database: the app waits for the other engine to let go instead of failing at once.

use std::sync::Arc;
use std::time::Duration;

use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, WAITING_MESSAGE};
use dynotable_engine::{Engine, Location};

#[tokio::test]
async fn the_engine_opens_once_the_closing_window_lets_go_of_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("embedded").join("local.db");
    std::fs::create_dir_all(database.parent().unwrap()).unwrap();
    // The last window's engine, still open while that process exits.
    let last = Engine::open(Location::File(database.clone())).await.unwrap();
    std::fs::write(dir.path().join("embedded").join("demo-loaded"), "").unwrap();

    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    // The app found the database held, and says it waits (the status bar shows it).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let info = app.app_info().await.unwrap();
        if info.engine.message.as_deref() == Some(WAITING_MESSAGE) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the app never said it waits: {info:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drop(last);
    let engine = app.engine().await;
    assert!(engine.is_ok(), "{engine:?}");
}

#[tokio::test]
async fn a_database_held_for_good_is_reported_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("embedded").join("local.db");
    std::fs::create_dir_all(database.parent().unwrap()).unwrap();
    let _held = Engine::open(Location::File(database.clone())).await.unwrap();
    std::fs::write(dir.path().join("embedded").join("demo-loaded"), "").unwrap();

    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let err = app.engine().await.unwrap_err();
    assert!(
        err.message.contains("already open in another DynoTable engine"),
        "{}",
        err.message
    );
}
