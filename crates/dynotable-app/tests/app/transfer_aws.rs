//! Export from an AWS connection: before it starts, what it will read and cost (from
//! DescribeTable's size and item count, by DynamoDB's rules for a Scan), and a read budget that
//! stops it, the file then holding what was read. Run against dynalite (a DynamoDB
//! implementation nobody here wrote) as a custom endpoint, the code path every AWS connection
//! takes; the items get there through the app's own import.

use std::sync::Arc;

use crate::support;
use support::Dynalite;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
};
use dynotable_app::files::FilePurpose;
use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::transfer::{ExportSource, FileFormat};
use dynotable_app::{App, ErrorCode};

const ITEMS: usize = 2000;

/// dynalite with `Readings`: 2,000 items of about 1 KB imported from a JSON lines file.
async fn readings() -> (Dynalite, tempfile::TempDir, App, String) {
    let dynalite = Dynalite::start_with(&[]);
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let profile = app
        .create_profile(ProfileInput {
            name: "dynalite".into(),
            color: "#3366ff".into(),
            region: "us-east-1".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: format!("http://127.0.0.1:{}", dynalite.port),
                access_key_id: "AKIDEXAMPLE".into(),
                secret_access_key: SecretInput::new("dynalite-secret"),
            },
        })
        .await
        .unwrap();
    let client = app.session(&profile.id).await.unwrap().client.clone();
    let attribute = |name: &str, ty: ScalarAttributeType| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ty)
            .build()
            .unwrap()
    };
    let key = |name: &str, kind: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .unwrap()
    };
    client
        .create_table()
        .table_name("Readings")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("vehicleId", ScalarAttributeType::S))
        .attribute_definitions(attribute("seq", ScalarAttributeType::N))
        .key_schema(key("vehicleId", KeyType::Hash))
        .key_schema(key("seq", KeyType::Range))
        .send()
        .await
        .unwrap();
    for _ in 0..200 {
        let table = client
            .describe_table()
            .table_name("Readings")
            .send()
            .await
            .unwrap();
        if table.table().and_then(|t| t.table_status()).map(|s| s.as_str()) == Some("ACTIVE") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let path = dir.path().join("readings.jsonl");
    let lines: String = (0..ITEMS)
        .map(|i| {
            format!(
                "{{\"vehicleId\":\"VEH#{}\",\"seq\":{i},\"odometer\":12345678901234567890123456789012345678,\"payload\":\"{}\"}}\n",
                i % 7,
                "x".repeat(1000)
            )
        })
        .collect();
    std::fs::write(&path, lines).unwrap();
    let handle = app.grant_file(path, FilePurpose::Open).handle;
    let imported = app
        .import(
            &profile.id,
            "load",
            "Readings",
            FileFormat::JsonLines,
            &handle,
            None,
            |_| {},
        )
        .await
        .unwrap();
    assert_eq!(imported.progress.items as usize, ITEMS);
    (dynalite, dir, app, profile.id)
}

fn table() -> ExportSource {
    ExportSource::Table {
        table: "Readings".into(),
    }
}

#[tokio::test]
async fn an_aws_export_is_estimated_before_it_starts_and_stops_at_the_budget_the_user_set() {
    let (_dynalite, dir, app, profile) = readings().await;
    // Like DynamoDB until its next refresh (about every six hours), dynalite's DescribeTable
    // still says what it said of the new table: no items, no bytes. The estimate is made from
    // those figures and says how old they may be (the rules are checked against live figures on
    // the embedded engine, tests/transfer_streaming.rs).
    let description = app.describe_table(&profile, "Readings").await.unwrap();
    let estimate = app.estimate_export(&profile, table()).await.unwrap();
    assert_eq!(estimate.items, description.item_count);
    assert_eq!(estimate.bytes, description.size_bytes);
    assert!(
        estimate.approximate,
        "DescribeTable's figures on AWS are hours old"
    );
    assert!(
        estimate.lines.iter().any(|l| l.text.contains("six hours")),
        "{:?}",
        estimate.lines
    );
    // dynalite's 0 bytes is no size at all: the estimate says so rather than costing the
    // export one page.
    assert_eq!(
        description.size_bytes, 0.0,
        "dynalite never updates TableSizeBytes"
    );
    assert!(estimate.size_unknown, "{estimate:?}");

    // A whole export, with a budget it does not reach.
    let whole = dir.path().join("whole.jsonl");
    let summary = app
        .export(
            &profile,
            "whole",
            table(),
            FileFormat::JsonLines,
            &app.grant_file(whole.clone(), FilePurpose::Save).handle,
            Some(10_000.0),
            |_| {},
        )
        .await
        .unwrap();
    assert!(!summary.budget_reached && !summary.cancelled, "{summary:?}");
    assert_eq!(summary.progress.items as usize, ITEMS);
    // 2,000 items of about 1 KB: about 500 blocks of 4 KB, half a unit each.
    let consumed = summary.progress.capacity_units;
    assert!((240.0..=270.0).contains(&consumed), "{consumed}");
    let text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(text.lines().count(), ITEMS);
    assert!(text.contains("\"odometer\":12345678901234567890123456789012345678"));

    // A budget of 100 RCU: the first 1 MB page (about 128 RCU) reaches it, and the export stops
    // there, saying so; the file holds the items of that page, complete lines.
    let budgeted = dir.path().join("budgeted.ddb.jsonl");
    std::fs::write(&budgeted, "what the user had\n").unwrap();
    let summary = app
        .export(
            &profile,
            "budgeted",
            table(),
            FileFormat::DynamodbJson,
            &app.grant_file(budgeted.clone(), FilePurpose::Save).handle,
            Some(100.0),
            |_| {},
        )
        .await
        .unwrap();
    assert!(summary.budget_reached, "{summary:?}");
    assert!(!summary.cancelled);
    let read = summary.progress.capacity_units;
    assert!((100.0..=100.0 + 129.0).contains(&read), "{read}");
    let items = summary.progress.items as usize;
    assert!(items > 0 && items < ITEMS, "{items}");
    let text = std::fs::read_to_string(&budgeted).unwrap();
    assert_eq!(text.lines().count(), items);
    assert!(
        text.lines()
            .all(|l| l.starts_with("{\"Item\":{") && l.ends_with("}}"))
    );
    let hidden: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");

    // A budget must be a positive number of units.
    for bad in [0.0, -1.0, f64::NAN] {
        let err = app
            .export(
                &profile,
                "bad",
                table(),
                FileFormat::JsonLines,
                &app.grant_file(dir.path().join("bad.jsonl"), FilePurpose::Save)
                    .handle,
                Some(bad),
                |_| {},
            )
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
        assert_eq!(
            err.message,
            "A read budget is a number of capacity units above 0."
        );
    }
}
