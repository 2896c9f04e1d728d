//! Query history and saved queries, kept per connection in the app database across restarts.

use std::sync::Arc;

use dynotable_app::App;
use dynotable_app::dto::{AttributeValue, QueryInput};
use dynotable_app::history::{HISTORY_LIMIT, HistoryEntry, HistoryRequest};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;

fn query(table: &str, vehicle: &str) -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: table.into(),
        index: None,
        partition_value: AttributeValue::S(vehicle.into()),
        sort_condition: None,
        scan_index_forward: false,
        limit: Some(5),
        consistent_read: false,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

/// The partition-key value of each collection query in `history`, in its order.
fn partition_values(history: &[HistoryEntry]) -> Vec<&AttributeValue> {
    history
        .iter()
        .map(|h| match &h.request {
            HistoryRequest::Collection { request } => &request.partition_value,
            other => panic!("a collection query was recorded as {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn queries_run_are_remembered_newest_first_and_next_pages_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::default());
    let app = App::start_with("test", dir.path(), secrets.clone());
    let first = app
        .query(EMBEDDED_ID, query("Telemetry", "VEH#V-7741"))
        .await
        .unwrap();
    // Following the page is the same query, not a new one.
    let mut next = query("Telemetry", "VEH#V-7741");
    next.exclusive_start_key = first.last_evaluated_key.clone();
    app.query(EMBEDDED_ID, next).await.unwrap();
    app.query(EMBEDDED_ID, query("Telemetry", "VEH#V-1007"))
        .await
        .unwrap();
    // A failed query is not history.
    assert!(app.query(EMBEDDED_ID, query("NoSuchTable", "x")).await.is_err());

    drop(app);
    let again = App::start_with("test", dir.path(), secrets);
    let history = again.query_history(EMBEDDED_ID, Some("Telemetry")).await.unwrap();
    let vehicles = partition_values(&history);
    assert_eq!(
        vehicles,
        [
            &AttributeValue::S("VEH#V-1007".into()),
            &AttributeValue::S("VEH#V-7741".into())
        ]
    );
    assert_eq!(history[1].item_count, 5);
    assert!(history[1].capacity_units > 0.0);
    assert_eq!(again.query_history(EMBEDDED_ID, Some("Pets")).await.unwrap(), []);
}

#[tokio::test]
async fn the_collections_views_box_reads_read_the_same_page_and_stay_out_of_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.query(EMBEDDED_ID, query("Telemetry", "VEH#V-1007"))
        .await
        .unwrap();
    // A scroll of the Collections view reads a box per collection in sight.
    let boxed = app
        .collection_page(EMBEDDED_ID, &query("Telemetry", "VEH#V-7741"))
        .await
        .unwrap();
    for vehicle in ["VEH#V-1014", "VEH#V-1021", "VEH#V-1028"] {
        app.collection_page(EMBEDDED_ID, &query("Telemetry", vehicle))
            .await
            .unwrap();
    }
    let queried = app
        .query(EMBEDDED_ID, query("Telemetry", "VEH#V-7741"))
        .await
        .unwrap();
    assert_eq!(
        boxed.items, queried.items,
        "the box reads what the same Query reads"
    );
    assert_eq!(boxed.last_evaluated_key, queried.last_evaluated_key);

    let history = app.query_history(EMBEDDED_ID, Some("Telemetry")).await.unwrap();
    let vehicles = partition_values(&history);
    assert_eq!(
        vehicles,
        [
            &AttributeValue::S("VEH#V-7741".into()),
            &AttributeValue::S("VEH#V-1007".into())
        ],
        "only the two queries the user ran"
    );
}

#[tokio::test]
async fn history_keeps_the_newest_entries_only() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    for _ in 0..HISTORY_LIMIT + 5 {
        app.query(EMBEDDED_ID, query("Telemetry", "VEH#V-7741"))
            .await
            .unwrap();
    }
    let history = app.query_history(EMBEDDED_ID, None).await.unwrap();
    assert_eq!(history.len() as i64, HISTORY_LIMIT);
}

#[tokio::test]
async fn a_scan_the_user_ran_is_in_the_history_with_what_it_read_and_a_plain_scan_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let input = |id: &str| dynotable_app::scans::ScanInput {
        scan_id: id.into(),
        table: "Pets".into(),
        index: None,
        filter: Some("Age > :a".into()),
        filter_names: None,
        filter_values: Some([(":a".to_owned(), AttributeValue::N("2".into()))].into()),
        projection: None,
        consistent_read: false,
        page_limit: None,
        segments: 1,
        capacity_budget: None,
    };
    // What an export runs (App::scan) is not history.
    app.scan(EMBEDDED_ID, input("export"), |_| {}).await.unwrap();
    assert_eq!(app.query_history(EMBEDDED_ID, Some("Pets")).await.unwrap(), []);

    let summary = app.run_scan(EMBEDDED_ID, input("bar"), |_| {}).await.unwrap();
    let history = app.query_history(EMBEDDED_ID, Some("Pets")).await.unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
    let HistoryRequest::Builder {
        request,
        summary: line,
    } = &history[0].request
    else {
        panic!("a scan was recorded as {:?}", history[0].request);
    };
    assert_eq!(request.operation, dynotable_builder::ReadOperation::Scan);
    assert!(line.starts_with("Scan · filter Age > 2"), "{line}");
    assert_eq!(f64::from(history[0].item_count), summary.totals.items);
    assert!(summary.totals.items > 0.0);
    assert_eq!(history[0].capacity_units, summary.totals.capacity_units);
}
