//! Import and export on real files: each format round-trips a query result through a file into a
//! new table; a table exports whole; cancelling stops an export; BatchWriteItem's unprocessed
//! items and throttling are retried with backoff (against the real engine behind a fault-injecting
//! front); read-only connections and bad files are refused before anything is written.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use dynotable_app::dto::{AttributeValue, QueryInput};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::transfer::{ExportSource, FileFormat};
use dynotable_app::{App, ErrorCode};

use crate::chosen_files;
use chosen_files::{app, open, save};

fn vehicle_query(table: &str) -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: table.into(),
        index: None,
        partition_value: AttributeValue::S("VEH#V-7741".into()),
        sort_condition: None,
        scan_index_forward: true,
        limit: Some(500),
        consistent_read: true,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

async fn create_copy(app: &App, name: &str) {
    let body = format!(
        r#"{{"TableName":"{name}","BillingMode":"PAY_PER_REQUEST",
            "AttributeDefinitions":[{{"AttributeName":"vehicleId","AttributeType":"S"}},{{"AttributeName":"recordedAt","AttributeType":"S"}}],
            "KeySchema":[{{"AttributeName":"vehicleId","KeyType":"HASH"}},{{"AttributeName":"recordedAt","KeyType":"RANGE"}}]}}"#
    );
    app.engine()
        .await
        .unwrap()
        .call("CreateTable", body.as_bytes())
        .await
        .unwrap();
}

/// A Query export of VEH#V-7741's readings to `path`, 100 a page, cancelled when the first page
/// has been written.
async fn export_cancelled_after_its_first_page(
    app: &App,
    path: &std::path::Path,
    format: FileFormat,
) -> dynotable_app::transfer::TransferSummary {
    let canceller = app.clone();
    app.export(
        EMBEDDED_ID,
        "to-cancel",
        ExportSource::Query {
            query: Box::new(QueryInput {
                more_partition_values: Vec::new(),
                sort_equal_values: Vec::new(),
                limit: Some(100),
                ..vehicle_query("Telemetry")
            }),
        },
        format,
        &save(app, path),
        None,
        |_| {
            canceller.cancel_operation("to-cancel");
        },
    )
    .await
    .unwrap()
}

async fn all_items(app: &App, table: &str) -> Vec<dynotable_app::dto::Item> {
    let mut query = vehicle_query(table);
    let mut items = Vec::new();
    loop {
        let page = app.query(EMBEDDED_ID, query.clone()).await.unwrap();
        items.extend(page.items);
        match page.last_evaluated_key {
            Some(key) => query.exclusive_start_key = Some(key),
            None => return items,
        }
    }
}

#[tokio::test]
async fn every_format_round_trips_a_query_result_through_a_file() {
    let (dir, app) = app().await;
    let original = all_items(&app, "Telemetry").await;
    assert_eq!(original.len(), 1441, "META + 1,440 readings");
    for (format, file) in [
        (FileFormat::DynamodbJson, "v.ddb.jsonl"),
        (FileFormat::Csv, "v.csv"),
        (FileFormat::JsonLines, "v.jsonl"),
    ] {
        let path = dir.path().join(file);
        let mut reports = 0;
        let summary = app
            .export(
                EMBEDDED_ID,
                "export",
                ExportSource::Query {
                    query: Box::new(vehicle_query("Telemetry")),
                },
                format,
                &save(&app, &path),
                None,
                |_| reports += 1,
            )
            .await
            .unwrap();
        assert!(!summary.cancelled);
        assert_eq!(summary.progress.items, 1441);
        // The first page and the end are reported; between them at most one report per 100 ms.
        assert!(reports >= 2, "{reports} progress reports");
        assert!(summary.progress.capacity_units > 0.0);

        let copy = format!("Copy{file}").replace('.', "");
        create_copy(&app, &copy).await;
        // Before importing: the estimate of the whole file, which the import then costs exactly
        // (the copy has no index: one write per item of up to 1 KB).
        let estimate = app
            .estimate_import_file(EMBEDDED_ID, &copy, format, &open(&app, &path), None)
            .await
            .unwrap();
        assert_eq!(estimate.items, 1441.0);
        assert_eq!(estimate.requests, 58.0, "25 items a BatchWriteItem");
        let imported = app
            .import(
                EMBEDDED_ID,
                "import",
                &copy,
                format,
                &open(&app, &path),
                None,
                |_| {},
            )
            .await
            .unwrap();
        assert_eq!(imported.progress.items, 1441);
        assert!(
            imported.progress.capacity_units >= 1441.0,
            "one WCU per small item at least"
        );
        let copied = all_items(&app, &copy).await;
        // Every format keeps these items exactly: strings and numbers (demo numbers are short).
        assert_eq!(copied, original, "{format:?}");
    }
}

#[tokio::test]
async fn a_whole_table_exports_and_cancelling_stops_an_export_without_a_file() {
    let (dir, app) = app().await;
    let path = dir.path().join("pets.csv");
    let expected = app.describe_table(EMBEDDED_ID, "Pets").await.unwrap().item_count;
    let summary = app
        .export(
            EMBEDDED_ID,
            "pets",
            ExportSource::Table { table: "Pets".into() },
            FileFormat::Csv,
            &save(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap();
    assert_eq!(f64::from(summary.progress.items), expected);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count() as f64,
        expected + 1.0,
        "a header and one row per item"
    );
    assert!(
        text.starts_with("AnimalType (S),Name (S)"),
        "{}",
        text.lines().next().unwrap()
    );

    let cancelled_path = dir.path().join("cancelled.jsonl");
    let summary = export_cancelled_after_its_first_page(&app, &cancelled_path, FileFormat::JsonLines).await;
    assert!(summary.cancelled);
    assert_eq!(summary.progress.items, 100);
    assert!(!cancelled_path.exists());
}

#[tokio::test]
async fn bad_files_and_read_only_connections_are_refused_before_anything_is_written() {
    let (dir, app) = app().await;
    create_copy(&app, "Target").await;
    let path = dir.path().join("bad.jsonl");
    std::fs::write(
        &path,
        "{\"vehicleId\":\"V\",\"recordedAt\":\"A\"}\n{\"vehicleId\":\"V\"}\n",
    )
    .unwrap();
    let err = app
        .import(
            EMBEDDED_ID,
            "bad",
            "Target",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(err.message.contains("Item 2 of"), "{}", err.message);
    assert!(err.message.contains("recordedAt is missing"), "{}", err.message);
    assert_eq!(all_items(&app, "Target").await.len(), 0, "nothing was imported");

    std::fs::write(&path, "not json\n").unwrap();
    let err = app
        .import(
            EMBEDDED_ID,
            "bad",
            "Target",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert!(err.message.contains("line 1"), "{}", err.message);

    let shared = app.share_engine(0).await.unwrap();
    let read_only = app
        .create_profile(ProfileInput {
            name: "watch".into(),
            color: "#000000".into(),
            region: "local".into(),
            read_only: true,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: shared.url,
                access_key_id: "local".into(),
                secret_access_key: SecretInput::new("local"),
            },
        })
        .await
        .unwrap();
    let err = app
        .import(
            &read_only.id,
            "ro",
            "Target",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
}

/// The embedded engine served on loopback behind a front that refuses the first BatchWriteItem
/// calls: the first returns every request as unprocessed, the next three are throttled — as many
/// as the SDK's standard retry mode tries (3 attempts) before it gives the error to the import.
async fn faulty_endpoint(app: &App, batch_calls: Arc<AtomicU32>) -> String {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, Response, StatusCode};
    use tower::ServiceExt;

    let engine_router = dynotable_server::router(app.engine().await.unwrap());
    let front = axum::Router::new().fallback(move |request: Request<Body>| {
        let engine_router = engine_router.clone();
        let batch_calls = batch_calls.clone();
        async move {
            let is_batch = request
                .headers()
                .get("x-amz-target")
                .is_some_and(|t| t.as_bytes().ends_with(b".BatchWriteItem"));
            let (parts, body) = request.into_parts();
            let bytes = to_bytes(body, usize::MAX).await.unwrap();
            if is_batch {
                match batch_calls.fetch_add(1, Ordering::SeqCst) {
                    0 => {
                        let body: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                        let answer = serde_json::json!({ "UnprocessedItems": body["RequestItems"] });
                        return Response::builder()
                            .status(StatusCode::OK)
                            .header("content-type", "application/x-amz-json-1.0")
                            .body(Body::from(answer.to_string()))
                            .unwrap();
                    }
                    1..=3 => {
                        return Response::builder()
                            .status(StatusCode::BAD_REQUEST)
                            .header("content-type", "application/x-amz-json-1.0")
                            .body(Body::from(
                                r#"{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}"#,
                            ))
                            .unwrap();
                    }
                    _ => {}
                }
            }
            engine_router
                .oneshot(Request::from_parts(parts, Body::from(bytes)))
                .await
                .unwrap()
        }
    });
    dynotable_stand_ins::serve(front).await
}

#[tokio::test]
async fn unprocessed_items_and_throttling_are_retried_with_backoff() {
    let (dir, app) = app().await;
    create_copy(&app, "Retried").await;
    let batch_calls = Arc::new(AtomicU32::new(0));
    let url = faulty_endpoint(&app, batch_calls.clone()).await;
    let profile = app
        .create_profile(ProfileInput {
            name: "faulty".into(),
            color: "#000000".into(),
            region: "local".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: url,
                access_key_id: "local".into(),
                secret_access_key: SecretInput::new("local"),
            },
        })
        .await
        .unwrap();
    let path = dir.path().join("items.jsonl");
    let lines: String = (0..30)
        .map(|i| format!("{{\"vehicleId\":\"VEH#V-7741\",\"recordedAt\":\"TS#{i:02}\"}}\n"))
        .collect();
    std::fs::write(&path, lines).unwrap();
    let summary = app
        .import(
            &profile.id,
            "retry",
            "Retried",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap();
    assert_eq!(summary.progress.items, 30);
    // The import sent the first batch again twice: after the unprocessed answer, and after the
    // SDK gave up on three throttled attempts.
    assert_eq!(summary.progress.retries, 2);
    // 1 unprocessed + 3 throttled + 1 accepted for the first 25 items, 1 for the last 5.
    assert_eq!(batch_calls.load(Ordering::SeqCst), 6);
    assert_eq!(all_items(&app, "Retried").await.len(), 30);
}

#[tokio::test]
async fn selected_items_are_deleted_in_batches() {
    let (_dir, app) = app().await;
    let before = all_items(&app, "Telemetry").await;
    // 60 readings: three BatchWriteItem requests (25 + 25 + 10).
    let keys: Vec<dynotable_app::dto::Item> = before[1..61]
        .iter()
        .map(|item| {
            ["vehicleId", "recordedAt"]
                .iter()
                .map(|k| (k.to_string(), item[*k].clone()))
                .collect()
        })
        .collect();
    let progress = app.delete_items(EMBEDDED_ID, "Telemetry", keys).await.unwrap();
    assert_eq!(progress.items, 60);
    // One WCU per small reading, and one more for each reading's entry in the sparse ByDepot GSI
    // (only readings with a depotCode have one).
    let in_gsi = before[1..61]
        .iter()
        .filter(|i| i.contains_key("depotCode"))
        .count();
    assert!(in_gsi > 0 && in_gsi < 60);
    assert_eq!(progress.capacity_units, 60.0 + in_gsi as f64);
    let after = all_items(&app, "Telemetry").await;
    assert_eq!(after.len(), before.len() - 60);
    assert_eq!(after[0], before[0], "META stays");
    assert_eq!(after[1], before[61]);
}

#[tokio::test]
async fn a_cancelled_export_leaves_the_file_it_would_replace_as_it_was() {
    let (dir, app) = app().await;
    let path = dir.path().join("readings.ddb.jsonl");
    std::fs::write(&path, "what the user had\n").unwrap();
    let summary = export_cancelled_after_its_first_page(&app, &path, FileFormat::DynamodbJson).await;
    assert!(summary.cancelled);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "what the user had\n");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(left.is_empty(), "no partial file is left behind: {left:?}");

    // Completed, the export replaces the file whole.
    let summary = app
        .export(
            EMBEDDED_ID,
            "replace",
            ExportSource::Query {
                query: Box::new(vehicle_query("Telemetry")),
            },
            FileFormat::DynamodbJson,
            &save(&app, &path),
            None,
            |_| {},
        )
        .await
        .unwrap();
    assert!(!summary.cancelled);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1441);
}

#[tokio::test]
async fn only_a_file_chosen_for_the_purpose_can_be_read_or_written() {
    let (dir, app) = app().await;
    create_copy(&app, "Target").await;
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "{\"vehicleId\":\"V\",\"recordedAt\":\"A\"}\n").unwrap();
    // A path, as a compromised web view would send it, names no file.
    let err = app
        .import(
            EMBEDDED_ID,
            "raw",
            "Target",
            FileFormat::JsonLines,
            secret.to_str().unwrap(),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::FileNotChosen);
    let err = app
        .estimate_import_file(
            EMBEDDED_ID,
            "Target",
            FileFormat::JsonLines,
            secret.to_str().unwrap(),
            None,
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::FileNotChosen);
    // A file chosen to be written cannot be read, and one chosen to be read cannot be written.
    let err = app
        .import(
            EMBEDDED_ID,
            "wrong",
            "Target",
            FileFormat::JsonLines,
            &save(&app, &secret),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::FileNotChosen);
    let err = app
        .export(
            EMBEDDED_ID,
            "wrong",
            ExportSource::Table { table: "Pets".into() },
            FileFormat::JsonLines,
            &open(&app, &secret),
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::FileNotChosen);
    assert_eq!(
        std::fs::read_to_string(&secret).unwrap(),
        "{\"vehicleId\":\"V\",\"recordedAt\":\"A\"}\n",
        "the file read-only to the app was not written"
    );
    assert_eq!(all_items(&app, "Target").await.len(), 0, "nothing was imported");
}

#[tokio::test]
async fn a_38_digit_number_survives_a_json_lines_import_and_export() {
    let (dir, app) = app().await;
    create_copy(&app, "Exact").await;
    let number = "12345678901234567890123456789012345678";
    let path = dir.path().join("exact.jsonl");
    std::fs::write(
        &path,
        format!("{{\"vehicleId\":\"VEH#V-7741\",\"recordedAt\":\"A\",\"odometer\":{number},\"tiny\":-1.0000000000000000000000000000000000001}}\n"),
    )
    .unwrap();
    app.import(
        EMBEDDED_ID,
        "exact",
        "Exact",
        FileFormat::JsonLines,
        &open(&app, &path),
        None,
        |_| {},
    )
    .await
    .unwrap();
    let items = all_items(&app, "Exact").await;
    assert_eq!(items[0]["odometer"], AttributeValue::N(number.into()));
    assert_eq!(
        items[0]["tiny"],
        AttributeValue::N("-1.0000000000000000000000000000000000001".into())
    );

    let out = dir.path().join("exact-out.jsonl");
    app.export(
        EMBEDDED_ID,
        "exact-out",
        ExportSource::Table {
            table: "Exact".into(),
        },
        FileFormat::JsonLines,
        &save(&app, &out),
        None,
        |_| {},
    )
    .await
    .unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(&format!("\"odometer\":{number}")), "{text}");
}
