//! Import and export as streams, on real files and the embedded engine: numbers of 38 digits
//! travel unchanged through every format; a CSV export learns its header from items that arrive
//! page after page and leaves no spool behind; an import reports a checking pass and then its
//! progress against the file's count, and stops when cancelled in either pass; an export that
//! fails part-way leaves the chosen name as it was.

use dynotable_app::dto::{AttributeValue, Item};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::transfer::{ExportSource, FileFormat, TransferProgress, TransferStage};
use dynotable_app::{App, ErrorCode};

use crate::chosen_files;
use chosen_files::{app, open, save};

const BIG: &str = "12345678901234567890123456789012345678";
const TINY: &str = "-0.000000000000000000000000000000000001";

async fn create_table(app: &App, name: &str) {
    let body = format!(
        r#"{{"TableName":"{name}","BillingMode":"PAY_PER_REQUEST",
            "AttributeDefinitions":[{{"AttributeName":"pk","AttributeType":"S"}},{{"AttributeName":"sk","AttributeType":"N"}}],
            "KeySchema":[{{"AttributeName":"pk","KeyType":"HASH"}},{{"AttributeName":"sk","KeyType":"RANGE"}}]}}"#
    );
    app.engine()
        .await
        .unwrap()
        .call("CreateTable", body.as_bytes())
        .await
        .unwrap();
}

/// Every item of `table`, in key order (a Scan of one partition reads in sort-key order).
async fn items_of(app: &App, table: &str) -> Vec<Item> {
    let mut items = Vec::new();
    let input = dynotable_app::scans::ScanInput {
        scan_id: format!("read-{table}"),
        table: table.into(),
        index: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        projection: None,
        consistent_read: true,
        page_limit: None,
        segments: 1,
        capacity_budget: None,
    };
    app.scan(EMBEDDED_ID, input, |update| items.extend(update.page.items))
        .await
        .unwrap();
    items
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

/// Items whose numbers a double cannot hold: as the key, as attributes, in a list, a map and a
/// number set (in the order the engine keeps a set's numbers); and a column (`mixed`) that is a number in one item and a string in another.
fn exact_items() -> Vec<Item> {
    let line = format!(
        r#"{{"pk":{{"S":"P"}},"sk":{{"N":"{BIG}"}},"big":{{"N":"{BIG}"}},"tiny":{{"N":"{TINY}"}},"mixed":{{"N":"{TINY}"}},"l":{{"L":[{{"N":"{BIG}"}},{{"N":"{TINY}"}}]}},"m":{{"M":{{"t":{{"N":"{TINY}"}}}}}},"ns":{{"NS":["{TINY}","{BIG}"]}}}}"#
    );
    let first: Item = serde_json::from_str(&line).unwrap();
    let second: Item = [
        ("pk", AttributeValue::S("P".into())),
        ("sk", n(TINY)),
        ("big", n("-99999999999999999999999999999999999999")),
        ("tiny", n("0.000000000000000000000000000000000001")),
        ("mixed", AttributeValue::S("not a number".into())),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    vec![second, first]
}

#[tokio::test]
async fn numbers_of_38_digits_travel_unchanged_through_every_format() {
    let (dir, app) = app().await;
    create_table(&app, "Exact").await;
    // Written into the table from a DynamoDB JSON file (the numbers as text).
    let source = dir.path().join("source.ddb.jsonl");
    let text: String = exact_items()
        .iter()
        .map(|item| format!("{}\n", serde_json::to_string(item).unwrap()))
        .collect();
    std::fs::write(&source, text).unwrap();
    app.import(
        EMBEDDED_ID,
        "load",
        "Exact",
        FileFormat::DynamodbJson,
        &open(&app, &source),
        None,
        |_| {},
    )
    .await
    .unwrap();
    let original = items_of(&app, "Exact").await;
    assert_eq!(original, exact_items(), "the engine keeps every digit");

    for (format, file) in [
        (FileFormat::JsonLines, "exact.jsonl"),
        (FileFormat::DynamodbJson, "exact.ddb.jsonl"),
        (FileFormat::Csv, "exact.csv"),
    ] {
        let path = dir.path().join(file);
        let summary = app
            .export(
                EMBEDDED_ID,
                "out",
                ExportSource::Table {
                    table: "Exact".into(),
                },
                format,
                &save(&app, &path),
                None,
                |_| {},
            )
            .await
            .unwrap();
        assert_eq!(summary.progress.items, 2);
        let written = std::fs::read_to_string(&path).unwrap();
        for number in [BIG, TINY, "-99999999999999999999999999999999999999"] {
            assert!(written.contains(number), "{format:?} lost {number}: {written}");
        }
        let copy = format!("Copy{file}").replace('.', "");
        create_table(&app, &copy).await;
        app.import(EMBEDDED_ID, "in", &copy, format, &open(&app, &path), None, |_| {})
            .await
            .unwrap();
        let copied = items_of(&app, &copy).await;
        match format {
            // Plain JSON has no sets: the number set comes back as a list, its numbers intact.
            FileFormat::JsonLines => {
                assert_eq!(copied[1]["ns"], AttributeValue::L(vec![n(TINY), n(BIG)]));
                for (a, b) in copied.iter().zip(&original) {
                    for (name, value) in b {
                        if name != "ns" {
                            assert_eq!(&a[name], value, "{format:?} {name}");
                        }
                    }
                }
            }
            _ => assert_eq!(copied, original, "{format:?}"),
        }
    }
    let csv = std::fs::read_to_string(dir.path().join("exact.csv")).unwrap();
    let header = csv.lines().next().unwrap();
    assert!(header.starts_with("pk (S),sk (N),big (N),"), "{header}");
    assert!(
        header.contains(",mixed,"),
        "a column of two types holds DynamoDB JSON: {header}"
    );
}

/// A table `Many` of `count` items of about 1 KB, so that a Scan reads them in several pages.
async fn many(app: &App, dir: &std::path::Path, count: usize) {
    create_table(app, "Many").await;
    let path = dir.join("many.jsonl");
    let lines: String = (0..count)
        .map(|i| {
            // A column that appears only in the last items, as a number, and in one as a
            // string: the CSV header depends on items read pages after the first.
            let late = if i + 3 >= count {
                format!(r#","late":{i}"#)
            } else if i + 4 == count {
                r#","late":"four""#.to_owned()
            } else {
                String::new()
            };
            format!(
                "{{\"pk\":\"P\",\"sk\":{i},\"payload\":\"{}\"{late}}}\n",
                "x".repeat(1000)
            )
        })
        .collect();
    std::fs::write(&path, lines).unwrap();
    app.import(
        EMBEDDED_ID,
        "many",
        "Many",
        FileFormat::JsonLines,
        &open(app, &path),
        None,
        |_| {},
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_csv_export_learns_its_header_from_every_page_and_leaves_no_spool() {
    let (dir, app) = app().await;
    many(&app, dir.path(), 3000).await;
    let path = dir.path().join("many.csv");
    let mut reports: Vec<TransferProgress> = Vec::new();
    let summary = app
        .export(
            EMBEDDED_ID,
            "csv",
            ExportSource::Table { table: "Many".into() },
            FileFormat::Csv,
            &save(&app, &path),
            None,
            |p| reports.push(p),
        )
        .await
        .unwrap();
    assert_eq!(summary.progress.items, 3000);
    assert_eq!(summary.progress.expected_items, Some(3000.0));
    assert!(reports.iter().any(|p| p.stage == TransferStage::Transferring));
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().next().unwrap(), "pk (S),sk (N),payload (S),late");
    assert_eq!(text.lines().count(), 3001);
    assert!(
        text.ends_with(",\"{\"\"N\"\":\"\"2999\"\"}\"\n"),
        "{}",
        &text[text.len() - 80..]
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(names.is_empty(), "no partial or spool file is left: {names:?}");

    // Cancelled once the first page is written: neither the file nor the spool is left.
    let cancelled = dir.path().join("cancelled.csv");
    let canceller = app.clone();
    let summary = app
        .export(
            EMBEDDED_ID,
            "csv-cancel",
            ExportSource::Table { table: "Many".into() },
            FileFormat::Csv,
            &save(&app, &cancelled),
            None,
            |_| {
                canceller.cancel_operation("csv-cancel");
            },
        )
        .await
        .unwrap();
    assert!(summary.cancelled);
    assert!(summary.progress.items < 3000);
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("cancelled"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[tokio::test]
async fn an_import_checks_the_whole_file_then_reports_against_its_count_and_can_be_cancelled() {
    let (dir, app) = app().await;
    create_table(&app, "Target").await;
    let path = dir.path().join("in.jsonl");
    let lines: String = (0..5000)
        .map(|i| format!("{{\"pk\":\"P\",\"sk\":{i}}}\n"))
        .collect();
    std::fs::write(&path, lines).unwrap();
    let mut reports: Vec<TransferProgress> = Vec::new();
    let summary = app
        .import(
            EMBEDDED_ID,
            "in",
            "Target",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |p| reports.push(p),
        )
        .await
        .unwrap();
    assert_eq!(summary.progress.items, 5000);
    assert_eq!(summary.progress.expected_items, Some(5000.0));
    let first_write = reports
        .iter()
        .position(|p| p.stage == TransferStage::Transferring)
        .unwrap();
    assert!(
        reports[..first_write]
            .iter()
            .all(|p| p.stage == TransferStage::Checking && p.expected_items.is_none()),
        "{reports:?}"
    );
    assert!(
        reports[first_write..]
            .iter()
            .all(|p| p.stage == TransferStage::Transferring && p.expected_items == Some(5000.0))
    );
    assert_eq!(reports.last().unwrap().items, 5000, "the end is reported");

    // Cancelled while it writes: it stops between two batches.
    create_table(&app, "Halfway").await;
    let canceller = app.clone();
    let summary = app
        .import(
            EMBEDDED_ID,
            "half",
            "Halfway",
            FileFormat::JsonLines,
            &open(&app, &path),
            None,
            |p| {
                if p.stage == TransferStage::Transferring {
                    canceller.cancel_operation("half");
                }
            },
        )
        .await
        .unwrap();
    assert!(summary.cancelled);
    let written = items_of(&app, "Halfway").await.len();
    assert_eq!(written as u32, summary.progress.items);
    assert!(written < 5000, "{written}");
}

/// The embedded engine on loopback behind a front that refuses every Scan continuing from an
/// ExclusiveStartKey: an export whose second page fails.
async fn second_page_fails(app: &App) -> String {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, Response, StatusCode};
    use tower::ServiceExt;

    let engine_router = dynotable_server::router(app.engine().await.unwrap());
    let front = axum::Router::new().fallback(move |request: Request<Body>| {
        let engine_router = engine_router.clone();
        async move {
            let (parts, body) = request.into_parts();
            let bytes = to_bytes(body, usize::MAX).await.unwrap();
            let is_scan = parts
                .headers
                .get("x-amz-target")
                .is_some_and(|t| t.as_bytes().ends_with(b".Scan"));
            if is_scan && String::from_utf8_lossy(&bytes).contains("ExclusiveStartKey") {
                return Response::builder()
                    .status(StatusCode::BAD_REQUEST)
                    .header("content-type", "application/x-amz-json-1.0")
                    .body(Body::from(
                        r#"{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException","message":"The page could not be read."}"#,
                    ))
                    .unwrap();
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
async fn an_export_that_fails_part_way_leaves_the_chosen_name_as_it_was() {
    let (dir, app) = app().await;
    many(&app, dir.path(), 3000).await;
    let url = second_page_fails(&app).await;
    let profile = app
        .create_profile(ProfileInput {
            name: "failing".into(),
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
    for (format, file) in [(FileFormat::Csv, "had.csv"), (FileFormat::JsonLines, "had.jsonl")] {
        let path = dir.path().join(file);
        std::fs::write(&path, "what the user had\n").unwrap();
        let mut pages = 0;
        let err = app
            .export(
                &profile.id,
                "fails",
                ExportSource::Table { table: "Many".into() },
                format,
                &save(&app, &path),
                None,
                |_| pages += 1,
            )
            .await
            .unwrap_err();
        assert_eq!(pages, 1, "the first page was written before the second failed");
        assert_eq!(err.code, ErrorCode::Validation, "{err:?}");
        assert!(
            err.message.contains("The page could not be read."),
            "{}",
            err.message
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "what the user had\n");
        let hidden: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(hidden.is_empty(), "{format:?}: {hidden:?}");
    }
}

#[tokio::test]
async fn the_read_estimate_of_a_table_export_bounds_what_the_export_consumes() {
    let (dir, app) = app().await;
    many(&app, dir.path(), 3000).await;
    let description = app.describe_table(EMBEDDED_ID, "Many").await.unwrap();
    let estimate = app
        .estimate_export(EMBEDDED_ID, ExportSource::Table { table: "Many".into() })
        .await
        .unwrap();
    // The embedded engine's DescribeTable is live: the figures are the table's own.
    assert!(!estimate.approximate);
    assert_eq!(estimate.items, 3000.0);
    assert_eq!(estimate.bytes, description.size_bytes);
    let blocks = (description.size_bytes / 4096.0).ceil();
    assert_eq!(estimate.pages, (description.size_bytes / 1_048_576.0).ceil());
    assert_eq!(estimate.capacity_units, 0.5 * (blocks + estimate.pages + 1.0));
    let summary = app
        .export(
            EMBEDDED_ID,
            "measured",
            ExportSource::Table { table: "Many".into() },
            FileFormat::JsonLines,
            &save(&app, &dir.path().join("many.jsonl")),
            None,
            |_| {},
        )
        .await
        .unwrap();
    let consumed = summary.progress.capacity_units;
    assert!(
        consumed >= 0.5 * blocks && consumed <= estimate.capacity_units,
        "consumed {consumed}, at least {}, estimated {}",
        0.5 * blocks,
        estimate.capacity_units
    );

    // With a budget below it, the export stops after the page that reaches the budget.
    let summary = app
        .export(
            EMBEDDED_ID,
            "budgeted",
            ExportSource::Table { table: "Many".into() },
            FileFormat::Csv,
            &save(&app, &dir.path().join("budgeted.csv")),
            Some(estimate.capacity_units / 3.0),
            |_| {},
        )
        .await
        .unwrap();
    assert!(summary.budget_reached && !summary.cancelled);
    assert!(summary.progress.items > 0 && summary.progress.items < 3000);
    let text = std::fs::read_to_string(dir.path().join("budgeted.csv")).unwrap();
    assert_eq!(text.lines().count() as u32, summary.progress.items + 1);
}
