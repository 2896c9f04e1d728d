//! The data commands, run headless against two DynamoDB implementations: the embedded engine
//! (with its demo data, through the in-process SDK client) and dynalite — a DynamoDB
//! implementation nobody here wrote — on loopback, reached as a custom-endpoint profile, which is
//! the code path every AWS connection takes.
//!
//! dynalite comes from `tests/peers` (`npm ci --prefix tests/peers`, run by `scripts/setup.sh`).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::support;
use support::Dynalite;

use dynotable_app::dto::{AttributeValue, Item, PageStop, QueryInput, SortKeyCondition};
use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode, Expectation};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn reading_key(minute: u32) -> String {
    let total = 8 * 60 + minute;
    format!("TS#2025-03-14T{:02}:{:02}:00Z", total / 60, total % 60)
}

fn key(vehicle: &str, recorded_at: &str) -> Item {
    BTreeMap::from([
        ("vehicleId".to_owned(), s(vehicle)),
        ("recordedAt".to_owned(), s(recorded_at)),
    ])
}

fn window_query() -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: "Telemetry".into(),
        index: None,
        partition_value: s("VEH#V-7741"),
        // 09:00–09:09: ten readings, one a minute.
        sort_condition: Some(SortKeyCondition::Between {
            low: s(&reading_key(60)),
            high: s(&reading_key(69)),
        }),
        scan_index_forward: false,
        limit: Some(4),
        consistent_read: true,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

/// The scenario both implementations must pass: list, describe, page through a newest-first
/// window, edit a reading with an optimistic condition, see a concurrent edit refused, delete.
async fn explore_and_edit(app: &App, profile: &str) {
    let tables = app.list_tables(profile, None).await.unwrap();
    assert!(tables.names.contains(&"Telemetry".to_owned()), "{tables:?}");

    let description = app.describe_table(profile, "Telemetry").await.unwrap();
    assert_eq!(description.keys.partition_key.name, "vehicleId");
    assert_eq!(description.keys.sort_key.as_ref().unwrap().name, "recordedAt");

    // Page through the window, newest first, four at a time.
    let mut query = window_query();
    let mut seen = Vec::new();
    let mut stops = Vec::new();
    loop {
        let page = app.query(profile, query.clone()).await.unwrap();
        assert!(page.items.len() <= 4);
        seen.extend(page.items.iter().map(|i| i["recordedAt"].clone()));
        stops.push(page.stop);
        match page.last_evaluated_key {
            Some(last) => query.exclusive_start_key = Some(last),
            None => break,
        }
    }
    let expected: Vec<AttributeValue> = (60..70).rev().map(|m| s(&reading_key(m))).collect();
    assert_eq!(seen, expected);
    // 4 + 4 + 2: two pages end at the Limit, the last at the end of the window.
    assert_eq!(stops, [PageStop::Limit, PageStop::Limit, PageStop::End]);

    // Edit a reading with the condition that it is as we saw it.
    let reading = key("VEH#V-7741", &reading_key(65));
    let (original, _) = app
        .get_item(profile, "Telemetry", reading.clone(), true)
        .await
        .unwrap();
    let original = original.expect("the reading exists");
    let mut edited = original.clone();
    edited.insert("speedKph".into(), AttributeValue::N("88".into()));
    app.put_item(
        profile,
        "Telemetry",
        edited.clone(),
        Expectation::Unchanged {
            original: original.clone(),
        },
    )
    .await
    .unwrap();
    let (now, _) = app
        .get_item(profile, "Telemetry", reading.clone(), true)
        .await
        .unwrap();
    assert_eq!(now.unwrap()["speedKph"], AttributeValue::N("88".into()));

    // A second edit based on the stale original is detected, not written.
    let mut stale = original.clone();
    stale.insert("speedKph".into(), AttributeValue::N("12".into()));
    let err = app
        .put_item(profile, "Telemetry", stale, Expectation::Unchanged { original })
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ConditionFailed, "{err:?}");
    assert_eq!(err.exception.as_deref(), Some("ConditionalCheckFailedException"));
    let (now, _) = app
        .get_item(profile, "Telemetry", reading.clone(), true)
        .await
        .unwrap();
    assert_eq!(now.unwrap()["speedKph"], AttributeValue::N("88".into()));

    // Creating an item that exists is refused; deleting what we saw works.
    let err = app
        .put_item(profile, "Telemetry", edited.clone(), Expectation::Absent)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ConditionFailed);
    app.delete_item(
        profile,
        "Telemetry",
        reading.clone(),
        Expectation::Unchanged { original: edited },
    )
    .await
    .unwrap();
    let (gone, _) = app.get_item(profile, "Telemetry", reading, true).await.unwrap();
    assert_eq!(gone, None);

    // An item that breaks the rules is refused before it is sent, in the service's words.
    let mut bad = key("VEH#V-7741", "TS#bad");
    bad.insert("speedKph".into(), AttributeValue::N("fast".into()));
    let err = app
        .put_item(profile, "Telemetry", bad, Expectation::Anything)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(err.message.contains("numeric value"), "{}", err.message);

    // An update expression under the optimistic condition: applied once, then the stale
    // condition fails; the placeholders of the protecting condition are refused to the update.
    let reading = key("VEH#V-7741", &reading_key(66));
    let (seen, _) = app
        .get_item(profile, "Telemetry", reading.clone(), true)
        .await
        .unwrap();
    let seen = seen.unwrap();
    let names = BTreeMap::from([("#speed".to_owned(), "speedKph".to_owned())]);
    let values = BTreeMap::from([(":inc".to_owned(), AttributeValue::N("5".into()))]);
    let updated = app
        .update_item(
            profile,
            "Telemetry",
            reading.clone(),
            "SET #speed = #speed + :inc",
            names.clone(),
            values.clone(),
            Expectation::Unchanged {
                original: seen.clone(),
            },
        )
        .await
        .unwrap();
    let before: i64 = match &seen["speedKph"] {
        AttributeValue::N(n) => n.parse().unwrap(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        updated.item.unwrap()["speedKph"],
        AttributeValue::N((before + 5).to_string())
    );
    let err = app
        .update_item(
            profile,
            "Telemetry",
            reading.clone(),
            "SET #speed = #speed + :inc",
            names,
            values,
            Expectation::Unchanged { original: seen },
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ConditionFailed);
    let err = app
        .update_item(
            profile,
            "Telemetry",
            reading,
            "SET #k = :x",
            BTreeMap::from([("#k".to_owned(), "speedKph".to_owned())]),
            BTreeMap::from([(":x".to_owned(), AttributeValue::N("1".into()))]),
            Expectation::Absent,
        )
        .await
        .unwrap_err();
    assert!(err.message.contains("#k"), "{}", err.message);

    // A missing table is NOT_FOUND with DynamoDB's exception.
    let err = app.describe_table(profile, "NoSuchTable").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert_eq!(err.exception.as_deref(), Some("ResourceNotFoundException"));
}

#[tokio::test]
async fn the_commands_work_on_the_embedded_engine_and_its_demo_data() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    explore_and_edit(&app, dynotable_app::profiles::EMBEDDED_ID).await;

    // The embedded engine reports what each page cost, per table.
    let page = app
        .query(dynotable_app::profiles::EMBEDDED_ID, window_query())
        .await
        .unwrap();
    let capacity = page.consumed_capacity.expect("ConsumedCapacity is asked for");
    // Four small readings, strongly consistent: one 4 KB block, 1 RCU (rule B.2).
    assert_eq!(capacity.total, 1.0);
    assert_eq!(capacity.table, Some(1.0));

    // Statistics come from the engine without a scan: the hot vehicle is the largest collection.
    let stats = app
        .collection_stats(dynotable_app::profiles::EMBEDDED_ID, "Telemetry", None)
        .await
        .unwrap();
    assert_eq!(stats.distinct_partition_keys, 300.0);
    assert_eq!(stats.collections[0].partition_value, s("VEH#V-7741"));
    assert!(stats.collections[0].size_bytes > stats.collections[1].size_bytes);
}

fn endpoint_profile(name: &str, port: u16, read_only: bool) -> ProfileInput {
    ProfileInput {
        name: name.into(),
        color: "#3366ff".into(),
        region: "us-east-1".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: format!("http://127.0.0.1:{port}"),
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SecretInput::new("dynalite-secret"),
        },
    }
}

#[tokio::test]
async fn the_commands_work_on_dynalite_through_a_custom_endpoint_profile() {
    let dynalite = Dynalite::start_with(&[]);
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let profile = app
        .create_profile(endpoint_profile("dynalite", dynalite.port, false))
        .await
        .unwrap();

    // The table and VEH#V-7741's first two hours of readings, written through the commands.
    let client = app.session(&profile.id).await.unwrap().client.clone();
    client
        .create_table()
        .table_name("Telemetry")
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .attribute_definitions(attribute("vehicleId"))
        .attribute_definitions(attribute("recordedAt"))
        .key_schema(key_element("vehicleId", aws_sdk_dynamodb::types::KeyType::Hash))
        .key_schema(key_element("recordedAt", aws_sdk_dynamodb::types::KeyType::Range))
        .send()
        .await
        .unwrap();
    wait_active(&client).await;
    let mut meta = key("VEH#V-7741", "META");
    meta.insert("plate".into(), s("KX-1000"));
    app.put_item(&profile.id, "Telemetry", meta, Expectation::Absent)
        .await
        .unwrap();
    for minute in 0..120 {
        let mut reading = key("VEH#V-7741", &reading_key(minute));
        reading.insert("speedKph".into(), AttributeValue::N((minute % 110).to_string()));
        app.put_item(&profile.id, "Telemetry", reading, Expectation::Absent)
            .await
            .unwrap();
    }

    explore_and_edit(&app, &profile.id).await;

    // Statistics of an AWS-side table are not free: none until the user starts the scan, whose
    // cost is told first; then they are kept.
    let err = app
        .collection_stats(&profile.id, "Telemetry", None)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("scan"), "{}", err.message);
    let cost = app
        .statistics_scan_cost(&profile.id, "Telemetry", None)
        .await
        .unwrap();
    assert_eq!(cost.read_units, (cost.table_bytes / 4096.0).ceil() / 2.0);
    let mut progress = 0;
    let gathered = app
        .gather_statistics(&profile.id, "stats", whole_table("Telemetry"), |_| progress += 1)
        .await
        .unwrap();
    assert!(gathered.scan.as_ref().unwrap().complete, "the scan completed");
    assert!(progress >= 1);
    // META + 120 readings, one of which was deleted above.
    assert_eq!(gathered.item_count, 120.0);
    assert_eq!(gathered.distinct_partition_keys, 1.0);
    assert_eq!(gathered.collections[0].partition_value, s("VEH#V-7741"));
    assert!(gathered.gathered_at.is_some());
    let cached = app
        .collection_stats(&profile.id, "Telemetry", None)
        .await
        .unwrap();
    assert_eq!(cached, gathered);

    // The cost estimate of a Query on this connection is sized from the gathered statistics.
    let mut whole = window_query();
    whole.sort_condition = None;
    whole.limit = None;
    let estimate = app.estimate_query(&profile.id, whole.clone()).await.unwrap();
    assert!(
        matches!(
            estimate.source,
            dynotable_app::dto::cost::SizeSource::GatheredStatistics { gathered_at: Some(_) }
        ),
        "{:?}",
        estimate.source
    );
    assert_eq!(estimate.item_count, 120.0);
    assert_eq!(estimate.total_bytes, gathered.size_bytes);
    let page = app.query(&profile.id, whole.clone()).await.unwrap();
    let reconciled = app
        .reconcile_query(&profile.id, whole, page.consumed_capacity.unwrap())
        .await
        .unwrap();
    assert_eq!(reconciled.rows[0].target, "Total");
    assert!(reconciled.rows[0].actual.is_some());
}

#[tokio::test]
async fn a_read_only_profile_refuses_every_write_before_sending_it() {
    let dynalite = Dynalite::start_with(&[]);
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let profile = app
        .create_profile(endpoint_profile("watch only", dynalite.port, true))
        .await
        .unwrap();
    let item = key("VEH#V-7741", "META");
    let refusals = [
        app.put_item(&profile.id, "Telemetry", item.clone(), Expectation::Anything)
            .await
            .unwrap_err(),
        app.delete_item(&profile.id, "Telemetry", item, Expectation::Anything)
            .await
            .unwrap_err(),
        // Read-only refuses whatever the UI sends: with no token, a made-up one, or asking for one.
        app.delete_table(&profile.id, "Telemetry", "delete-1-0000000000000000")
            .await
            .unwrap_err(),
        app.issue_delete_token(&profile.id, "Telemetry")
            .await
            .unwrap_err(),
    ];
    for err in refusals {
        assert_eq!(err.code, ErrorCode::ReadOnly, "{err:?}");
        assert!(err.message.contains("watch only"), "{}", err.message);
    }
    // Reads still work: the table does not exist there, and dynalite says so.
    let err = app.describe_table(&profile.id, "Telemetry").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

fn attribute(name: &str) -> aws_sdk_dynamodb::types::AttributeDefinition {
    aws_sdk_dynamodb::types::AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
        .build()
        .unwrap()
}

fn key_element(
    name: &str,
    ty: aws_sdk_dynamodb::types::KeyType,
) -> aws_sdk_dynamodb::types::KeySchemaElement {
    aws_sdk_dynamodb::types::KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(ty)
        .build()
        .unwrap()
}

/// dynalite creates tables asynchronously (CREATING, then ACTIVE), like DynamoDB.
async fn wait_active(client: &aws_sdk_dynamodb::Client) {
    for _ in 0..100 {
        let table = client
            .describe_table()
            .table_name("Telemetry")
            .send()
            .await
            .unwrap();
        if table.table().and_then(|t| t.table_status()) == Some(&aws_sdk_dynamodb::types::TableStatus::Active)
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the table did not become ACTIVE");
}

/// An endpoint that answers ListTables with the region the request was signed for (from the
/// SigV4 credential scope), and refuses one region as DynamoDB refuses a denied action.
async fn region_echo() -> String {
    use axum::body::Body;
    use axum::http::{Request, Response, StatusCode};
    dynotable_stand_ins::serve(axum::Router::new().fallback(|request: Request<Body>| async move {
        let region = dynotable_stand_ins::signing_region(request.headers()).unwrap_or_else(|| "?".to_owned());
        let (status, body) = if region == "ap-south-2" {
            (
                StatusCode::BAD_REQUEST,
                r#"{"__type":"com.amazon.coral.service#AccessDeniedException","message":"not allowed in ap-south-2"}"#.to_owned(),
            )
        } else {
            (StatusCode::OK, format!(r#"{{"TableNames":["tables-of-{region}"]}}"#))
        };
        Response::builder()
            .status(status)
            .header("content-type", "application/x-amz-json-1.0")
            .body(Body::from(body))
            .unwrap()
    }))
    .await
}

#[tokio::test]
async fn tables_are_listed_across_regions_each_signed_for_its_region() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let url = region_echo().await;
    let mut input = endpoint_profile("regions", 9, false);
    if let ConnectionInput::CustomEndpoint { endpoint_url, .. } = &mut input.connection {
        *endpoint_url = url;
    }
    let profile = app.create_profile(input).await.unwrap();
    let listed = app
        .list_tables_in_regions(
            &profile.id,
            vec!["eu-west-1".into(), "ap-south-2".into(), "us-west-2".into()],
        )
        .await
        .unwrap();
    let names: Vec<(&str, Vec<String>)> = listed
        .iter()
        .map(|r| (r.region.as_str(), r.names.clone()))
        .collect();
    assert_eq!(
        names,
        [
            ("eu-west-1", vec!["tables-of-eu-west-1".to_owned()]),
            ("ap-south-2", vec![]),
            ("us-west-2", vec!["tables-of-us-west-2".to_owned()]),
        ]
    );
    let denied = listed[1].error.as_ref().expect("the denied region says why");
    assert_eq!(denied.code, ErrorCode::AccessDenied);
    assert!(listed[0].error.is_none() && listed[2].error.is_none());

    // The embedded engine has one region: its tables once.
    let embedded = app
        .list_tables_in_regions(
            dynotable_app::profiles::EMBEDDED_ID,
            vec!["eu-west-1".into(), "us-west-2".into()],
        )
        .await
        .unwrap();
    assert_eq!(embedded.len(), 1);
    assert_eq!(embedded[0].names.len(), dynotable_app::demo::TABLES.len());
}

/// The embedded engine served on loopback behind a front that counts the operations it sees.
async fn counting_front(app: &App, seen: Arc<std::sync::Mutex<Vec<String>>>) -> String {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    let engine_router = dynotable_server::router(app.engine().await.unwrap());
    let front = axum::Router::new().fallback(move |request: Request<Body>| {
        let engine_router = engine_router.clone();
        let seen = seen.clone();
        async move {
            if let Some(target) = request
                .headers()
                .get("x-amz-target")
                .and_then(|t| t.to_str().ok())
            {
                seen.lock()
                    .unwrap()
                    .push(target.rsplit('.').next().unwrap_or_default().to_owned());
            }
            engine_router.oneshot(request).await.unwrap()
        }
    });
    dynotable_stand_ins::serve(front).await
}

#[tokio::test]
async fn queries_and_writes_describe_a_table_once_per_connection() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let url = counting_front(&app, seen.clone()).await;
    let mut input = endpoint_profile("counted", 9, false);
    if let ConnectionInput::CustomEndpoint { endpoint_url, .. } = &mut input.connection {
        *endpoint_url = url;
    }
    let profile = app.create_profile(input).await.unwrap();
    let mut query = window_query();
    for _ in 0..3 {
        let page = app.query(&profile.id, query.clone()).await.unwrap();
        query.exclusive_start_key = page.last_evaluated_key;
    }
    let mut item = key("VEH#V-7741", "TS#counted");
    item.insert("speedKph".into(), AttributeValue::N("1".into()));
    app.put_item(&profile.id, "Telemetry", item, Expectation::Absent)
        .await
        .unwrap();
    let operations = seen.lock().unwrap().clone();
    assert_eq!(
        operations,
        ["DescribeTable", "Query", "Query", "Query", "PutItem"],
        "one DescribeTable for the keys, then only the requests themselves"
    );
    // Describing the table (opening it) asks again, and refreshes what is kept.
    app.describe_table(&profile.id, "Telemetry").await.unwrap();
    assert_eq!(
        seen.lock()
            .unwrap()
            .iter()
            .filter(|o| *o == "DescribeTable")
            .count(),
        2
    );
}

/// The Collections view's run on the embedded engine: every collection of the demo Telemetry in
/// key order a stretch at a time (not only the largest), the same for the sparse ByDepot GSI,
/// and the position of the hot vehicle.
#[tokio::test]
async fn the_collections_run_of_the_embedded_engine_is_listed_in_key_order_page_by_page() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let embedded = dynotable_app::profiles::EMBEDDED_ID;
    let mut listed = Vec::new();
    let mut offset = 0;
    loop {
        let range = app
            .collection_range(embedded, "Telemetry", None, offset, 64)
            .await
            .unwrap();
        assert_eq!(range.total, 300.0);
        assert_eq!(range.offset, offset as f64);
        if range.collections.is_empty() {
            break;
        }
        offset += range.collections.len() as u64;
        listed.extend(range.collections);
    }
    assert_eq!(listed.len(), 300);
    let names: Vec<String> = listed.iter().map(|c| c.partition_value.display_text()).collect();
    let mut sorted = names.clone();
    // Strings: byte order of their UTF-8 (rule B.9); the demo's keys are ASCII.
    sorted.sort();
    assert_eq!(names, sorted);
    let hot = names.iter().position(|n| n == "VEH#V-7741").unwrap();
    assert_eq!(
        app.collection_position(embedded, "Telemetry", None, &s("VEH#V-7741"))
            .await
            .unwrap(),
        Some(hot as u64)
    );
    assert_eq!(
        app.collection_position(embedded, "Telemetry", None, &s("VEH#nobody"))
            .await
            .unwrap(),
        None
    );
    // From a typed start of a key: the stretch from the first key at or after it, which is the
    // first key that starts with it (a string sorts before every longer one it begins).
    let from = |start: &'static str| {
        let app = &app;
        async move {
            app.collections_from(embedded, "Telemetry", None, &s(start), 5)
                .await
                .unwrap()
        }
    };
    let twos = from("VEH#V-2").await;
    let first_two = names.iter().position(|n| n.starts_with("VEH#V-2")).unwrap();
    assert_eq!(twos.offset, first_two as f64);
    let got: Vec<String> = twos
        .collections
        .iter()
        .map(|c| c.partition_value.display_text())
        .collect();
    assert_eq!(got, names[first_two..first_two + 5]);
    assert!(got.iter().all(|n| n.starts_with("VEH#V-2")), "{got:?}");
    let sevens = from("VEH#V-7").await;
    assert_eq!(sevens.collections[0].partition_value.display_text(), "VEH#V-7741");
    let past = from("VEH#W").await;
    assert_eq!((past.offset, past.collections.len()), (300.0, 0));

    // Regrouped by the sparse GSI: its own partition-key values, fewer items than the table.
    let depots = app
        .collection_range(embedded, "Telemetry", Some("ByDepot"), 0, 1000)
        .await
        .unwrap();
    assert!(depots.total >= 1.0 && depots.total < 300.0, "{}", depots.total);
    assert_eq!(depots.collections.len() as f64, depots.total);
    let in_index: f64 = depots.collections.iter().map(|c| c.item_count).sum();
    let in_table: f64 = listed.iter().map(|c| c.item_count).sum();
    assert!(in_index < in_table, "{in_index} of {in_table}");
    let err = app
        .collection_range(embedded, "Telemetry", Some("Nope"), 0, 10)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
}

/// On an AWS connection the run comes from the gathered statistics (every collection kept), in
/// key order: numbers by value, against dynalite.
#[tokio::test]
async fn the_collections_run_of_an_aws_table_comes_from_its_gathered_statistics_in_key_order() {
    let dynalite = Dynalite::start_with(&[]);
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let profile = app
        .create_profile(endpoint_profile("dynalite", dynalite.port, false))
        .await
        .unwrap();
    let client = app.session(&profile.id).await.unwrap().client.clone();
    client
        .create_table()
        .table_name("Telemetry")
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .attribute_definitions(
            aws_sdk_dynamodb::types::AttributeDefinition::builder()
                .attribute_name("vehicleId")
                .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::N)
                .build()
                .unwrap(),
        )
        .attribute_definitions(attribute("recordedAt"))
        .key_schema(key_element("vehicleId", aws_sdk_dynamodb::types::KeyType::Hash))
        .key_schema(key_element("recordedAt", aws_sdk_dynamodb::types::KeyType::Range))
        .send()
        .await
        .unwrap();
    wait_active(&client).await;
    // 600 collections: more than the 500 the statistics list; numbers whose text order is not
    // their order.
    let values: Vec<String> = (0..600).map(|i| format!("{}", (i * 37) % 600 - 300)).collect();
    for v in &values {
        let item = BTreeMap::from([
            ("vehicleId".to_owned(), AttributeValue::N(v.clone())),
            ("recordedAt".to_owned(), s("META")),
        ]);
        app.put_item(&profile.id, "Telemetry", item, Expectation::Absent)
            .await
            .unwrap();
    }
    let err = app
        .collection_range(&profile.id, "Telemetry", None, 0, 10)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    let gathered = app
        .gather_statistics(&profile.id, "stats", whole_table("Telemetry"), |_| {})
        .await
        .unwrap();
    assert!(gathered.scan.as_ref().unwrap().complete, "the scan completed");
    // The UI's statistics name the largest 500; the run has all 600.
    assert_eq!(gathered.collections.len(), 500);
    assert_eq!(gathered.distinct_partition_keys, 600.0);
    let first = app
        .collection_range(&profile.id, "Telemetry", None, 0, 3)
        .await
        .unwrap();
    assert_eq!(first.total, 600.0);
    let numbers = |r: &dynotable_app::dto::CollectionRange| -> Vec<String> {
        r.collections
            .iter()
            .map(|c| c.partition_value.display_text())
            .collect()
    };
    assert_eq!(numbers(&first), ["-300", "-299", "-298"]);
    let last = app
        .collection_range(&profile.id, "Telemetry", None, 598, 10)
        .await
        .unwrap();
    assert_eq!(numbers(&last), ["298", "299"]);
    assert_eq!(
        app.collection_position(&profile.id, "Telemetry", None, &AttributeValue::N("-1".into()))
            .await
            .unwrap(),
        Some(299)
    );
    // From a value: the first collection at or after it in key order, numbers by value.
    let from = app
        .collections_from(
            &profile.id,
            "Telemetry",
            None,
            &AttributeValue::N("-0.5".into()),
            2,
        )
        .await
        .unwrap();
    assert_eq!(
        (from.offset, numbers(&from)),
        (300.0, vec!["0".to_owned(), "1".to_owned()])
    );
    // No gathered run of an index: said plainly.
    let err = app
        .collection_range(&profile.id, "Telemetry", Some("ByDepot"), 0, 10)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

/// A statistics scan of a whole table, without a budget.
fn whole_table(table: &str) -> dynotable_app::statistics::StatisticsRequest {
    dynotable_app::statistics::StatisticsRequest {
        table: table.to_owned(),
        index: None,
        budget: None,
        resume: false,
    }
}
