//! Scans streamed page by page on the embedded engine's demo data: complete, parallel,
//! cancelled from the UI's side, and stopped by a capacity budget.

use std::collections::BTreeSet;
use std::sync::Arc;

use dynotable_app::App;
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::scans::{ScanEnd, ScanInput};
use dynotable_app::secrets::MemoryStore;

fn input(id: &str, segments: u32) -> ScanInput {
    ScanInput {
        scan_id: id.into(),
        table: "Telemetry".into(),
        index: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        projection: None,
        consistent_read: false,
        page_limit: Some(1000),
        segments,
        capacity_budget: None,
    }
}

async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    (dir, app)
}

fn key_of(item: &dynotable_app::dto::Item) -> String {
    serde_json::to_string(&(&item["vehicleId"], &item["recordedAt"])).unwrap()
}

#[tokio::test]
async fn a_plain_and_a_parallel_scan_return_every_item_once_with_running_totals() {
    let (_dir, app) = app().await;
    let expected = app
        .describe_table(EMBEDDED_ID, "Telemetry")
        .await
        .unwrap()
        .item_count;

    for segments in [1, 4] {
        let mut keys = BTreeSet::new();
        let mut last_totals = None;
        let mut segments_seen = BTreeSet::new();
        let summary = app
            .scan(
                EMBEDDED_ID,
                input(&format!("scan-{segments}"), segments),
                |update| {
                    for item in &update.page.items {
                        assert!(keys.insert(key_of(item)), "an item came twice");
                    }
                    segments_seen.insert(update.segment);
                    last_totals = Some(update.totals);
                },
            )
            .await
            .unwrap();
        assert_eq!(summary.end, ScanEnd::Completed);
        assert_eq!(keys.len() as f64, expected);
        assert_eq!(summary.totals.items, expected);
        assert_eq!(summary.totals.expected_items, expected);
        assert_eq!(Some(summary.totals.clone()), last_totals);
        assert!(summary.totals.bytes > 0.0 && summary.totals.capacity_units > 0.0);
        assert_eq!(segments_seen.len() as u32, segments);
    }
}

#[tokio::test]
async fn cancelling_stops_the_scan_after_the_current_page() {
    let (_dir, app) = app().await;
    let canceller = app.clone();
    let mut pages = 0;
    let summary = app
        .scan(EMBEDDED_ID, input("to-cancel", 1), |update| {
            pages += 1;
            if update.totals.pages == 2 {
                assert!(canceller.cancel_operation("to-cancel"));
            }
        })
        .await
        .unwrap();
    assert_eq!(summary.end, ScanEnd::Cancelled);
    assert_eq!(pages, 2);
    assert_eq!(summary.totals.items, 2000.0);
    // Once ended, the id is free again and cancelling it does nothing.
    assert!(!app.cancel_operation("to-cancel"));
}

#[tokio::test]
async fn a_capacity_budget_stops_the_scan_once_used_up() {
    let (_dir, app) = app().await;
    let mut budgeted = input("budget", 1);
    budgeted.capacity_budget = Some(10.0);
    let summary = app.scan(EMBEDDED_ID, budgeted, |_| {}).await.unwrap();
    assert_eq!(summary.end, ScanEnd::BudgetReached);
    assert!(summary.totals.capacity_units >= 10.0);
    let expected = app
        .describe_table(EMBEDDED_ID, "Telemetry")
        .await
        .unwrap()
        .item_count;
    assert!(summary.totals.items < expected);
}

#[tokio::test]
async fn bad_segment_counts_and_duplicate_ids_are_refused() {
    let (_dir, app) = app().await;
    let err = app.scan(EMBEDDED_ID, input("zero", 0), |_| {}).await.unwrap_err();
    assert_eq!(err.code, dynotable_app::ErrorCode::Validation);
    let err = app
        .scan(EMBEDDED_ID, input("many", 65), |_| {})
        .await
        .unwrap_err();
    assert!(err.message.contains("1 to 64"), "{}", err.message);
}
