//! Every Query and Scan the app sends is written by `dynotable-builder` (issue 17, point 2), on
//! the embedded engine: the collection view's `query` and the streamed `scan` take names that
//! DynamoDB reserves (`status`, `data`) in projections and filters without the caller quoting
//! them, a typed filter is parsed and written again with the builder's placeholders, and what
//! DynamoDB would refuse comes back as its ValidationException before anything is sent.

use std::collections::BTreeMap;
use std::sync::Arc;

use dynotable_app::dto::{AttributeValue, Item, QueryInput, SortKeyCondition};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::scans::{ScanEnd, ScanInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, Expectation};

async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    (dir, app)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

/// Three readings of one vehicle whose attributes are DynamoDB reserved words.
async fn reserved_vehicle(app: &App) {
    for (minute, status) in [("TS#01", "OK"), ("TS#02", "ALERT"), ("TS#03", "OK")] {
        let item: Item = BTreeMap::from([
            ("vehicleId".to_owned(), s("VEH#RESERVED")),
            ("recordedAt".to_owned(), s(minute)),
            ("status".to_owned(), s(status)),
            (
                "data".to_owned(),
                AttributeValue::M(BTreeMap::from([(
                    "speed".to_owned(),
                    AttributeValue::N("42".into()),
                )])),
            ),
        ]);
        app.put_item(EMBEDDED_ID, "Telemetry", item, Expectation::Anything)
            .await
            .unwrap();
    }
}

fn query(partition: &str) -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: "Telemetry".into(),
        index: None,
        partition_value: s(partition),
        sort_condition: None,
        scan_index_forward: true,
        limit: None,
        consistent_read: false,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

fn scan(id: &str) -> ScanInput {
    ScanInput {
        scan_id: id.into(),
        table: "Telemetry".into(),
        index: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        projection: None,
        consistent_read: false,
        page_limit: Some(2000),
        segments: 1,
        capacity_budget: None,
    }
}

#[tokio::test]
async fn a_query_projects_reserved_words_without_the_caller_quoting_them() {
    let (_dir, app) = app().await;
    reserved_vehicle(&app).await;
    let mut input = query("VEH#RESERVED");
    input.projection = Some("status, data.speed, recordedAt".into());
    input.sort_condition = Some(SortKeyCondition::Between {
        low: s("TS#02"),
        high: s("TS#03"),
    });
    let page = app.query(EMBEDDED_ID, input).await.unwrap();
    assert_eq!(page.count, 2);
    let first = &page.items[0];
    assert_eq!(first["recordedAt"], s("TS#02"));
    assert_eq!(first["status"], s("ALERT"));
    // Only the projected part of `data` comes back.
    let AttributeValue::M(data) = &first["data"] else {
        panic!("data is not a map: {:?}", first["data"]);
    };
    assert_eq!(data.keys().collect::<Vec<_>>(), ["speed"]);
    assert!(
        !first.contains_key("vehicleId"),
        "the projection returned more than it asked for"
    );
}

#[tokio::test]
async fn a_typed_filter_is_written_again_by_the_builder_and_counts_what_it_dropped() {
    let (_dir, app) = app().await;
    reserved_vehicle(&app).await;
    let mut input = query("VEH#RESERVED");
    // The caller's placeholder names collide with nothing the key condition uses: the builder
    // chooses every placeholder of the request it sends.
    input.filter = Some("#s = :s".into());
    input.filter_names = Some(BTreeMap::from([("#s".to_owned(), "status".to_owned())]));
    input.filter_values = Some(BTreeMap::from([(":s".to_owned(), s("ALERT"))]));
    let page = app.query(EMBEDDED_ID, input).await.unwrap();
    assert_eq!(page.count, 1);
    assert_eq!(page.scanned_count, 3, "the filter runs after the read (rule B.4)");
    assert_eq!(page.items[0]["status"], s("ALERT"));
}

#[tokio::test]
async fn a_filter_dynamodb_would_refuse_is_refused_before_sending_with_its_exception() {
    let (_dir, app) = app().await;
    let mut input = query("VEH#V-7741");
    input.filter = Some("status = :s".into());
    input.filter_values = Some(BTreeMap::from([(":s".to_owned(), s("ALERT"))]));
    let err = app.query(EMBEDDED_ID, input).await.unwrap_err();
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
    assert!(
        err.message.contains("reserved keyword; reserved keyword: status"),
        "{}",
        err.message
    );

    let mut unused = query("VEH#V-7741");
    unused.filter = Some("speedKph > :fast".into());
    unused.filter_values = Some(BTreeMap::from([
        (":fast".to_owned(), AttributeValue::N("100".into())),
        (":unused".to_owned(), AttributeValue::N("1".into())),
    ]));
    let err = app.query(EMBEDDED_ID, unused).await.unwrap_err();
    assert!(err.message.contains(":unused"), "{}", err.message);
}

#[tokio::test]
async fn a_scan_filters_on_a_reserved_word_through_the_builder() {
    let (_dir, app) = app().await;
    reserved_vehicle(&app).await;
    let mut input = scan("scan-reserved");
    input.filter = Some("#st = :alert".into());
    input.filter_names = Some(BTreeMap::from([("#st".to_owned(), "status".to_owned())]));
    input.filter_values = Some(BTreeMap::from([(":alert".to_owned(), s("ALERT"))]));
    let mut returned = Vec::new();
    let summary = app
        .scan(EMBEDDED_ID, input, |update| returned.extend(update.page.items))
        .await
        .unwrap();
    assert_eq!(summary.end, ScanEnd::Completed);
    assert_eq!(returned.len(), 1);
    assert_eq!(summary.totals.items, 1.0);
    // Every item of the table was read to find it.
    let expected = app
        .describe_table(EMBEDDED_ID, "Telemetry")
        .await
        .unwrap()
        .item_count;
    assert_eq!(summary.totals.scanned, expected);
}

#[tokio::test]
async fn a_scan_returns_only_the_projected_attributes_and_pays_for_the_whole_items() {
    let (_dir, app) = app().await;
    reserved_vehicle(&app).await;
    let mut whole = Vec::new();
    let unprojected = app
        .scan(EMBEDDED_ID, scan("scan-whole"), |update| {
            whole.extend(update.page.items)
        })
        .await
        .unwrap();
    let mut input = scan("scan-projected");
    // Reserved words, unquoted: the builder gives them placeholders.
    input.projection = Some("recordedAt, data.speed, status".into());
    let mut returned = Vec::new();
    let projected = app
        .scan(EMBEDDED_ID, input, |update| returned.extend(update.page.items))
        .await
        .unwrap();
    assert_eq!(returned.len(), whole.len());
    let reserved = returned
        .iter()
        .find(|item| item.get("recordedAt") == Some(&s("TS#02")))
        .expect("the projected reading");
    let expected: Item = BTreeMap::from([
        ("recordedAt".to_owned(), s("TS#02")),
        ("status".to_owned(), s("ALERT")),
        (
            "data".to_owned(),
            AttributeValue::M(BTreeMap::from([(
                "speed".to_owned(),
                AttributeValue::N("42".into()),
            )])),
        ),
    ]);
    assert_eq!(reserved, &expected);
    // Rule B.4: the capacity is that of the items read, not of the attributes returned.
    assert_eq!(projected.totals.capacity_units, unprojected.totals.capacity_units);
}

#[tokio::test]
async fn a_scan_with_a_bare_reserved_word_fails_before_its_first_page() {
    let (_dir, app) = app().await;
    let mut input = scan("scan-refused");
    input.filter = Some("data.speed > :v".into());
    input.filter_values = Some(BTreeMap::from([(":v".to_owned(), AttributeValue::N("1".into()))]));
    let mut pages = 0;
    let err = app.scan(EMBEDDED_ID, input, |_| pages += 1).await.unwrap_err();
    assert_eq!(pages, 0);
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
    assert!(
        err.message.contains("reserved keyword; reserved keyword: data"),
        "{}",
        err.message
    );
}
