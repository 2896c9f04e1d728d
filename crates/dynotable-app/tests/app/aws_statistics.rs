//! The Collections view's statistics on an AWS connection come from Scan pages: a budget the user
//! sets stops the scan, what it read is kept as partial statistics, and the scan can be continued
//! to the same result a whole scan gives; an index's collections come from a scan of the index.
//! Run against dynalite (a DynamoDB implementation nobody here wrote) as a custom endpoint, the
//! code path every AWS connection takes.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::support;
use support::Dynalite;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue as SdkValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, PutRequest, ScalarAttributeType, WriteRequest,
};
use dynotable_app::dto::{AttributeValue, CollectionStats};
use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::statistics::StatisticsRequest;
use dynotable_app::{App, ErrorCode};

pub(crate) const VEHICLES: usize = 40;
pub(crate) const READINGS: usize = 9;

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .unwrap()
}

fn string_attribute(name: &str) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ScalarAttributeType::S)
        .build()
        .unwrap()
}

/// dynalite with `Fleet`: 40 vehicles, each a META item and nine readings of about 1 KB; every
/// fourth vehicle's META names a depot, so the GSI ByDepot holds only those (a sparse index).
pub(crate) async fn fleet() -> (Dynalite, tempfile::TempDir, App, String) {
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
    client
        .create_table()
        .table_name("Fleet")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(string_attribute("vehicleId"))
        .attribute_definitions(string_attribute("recordedAt"))
        .attribute_definitions(string_attribute("depot"))
        .key_schema(key("vehicleId", KeyType::Hash))
        .key_schema(key("recordedAt", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByDepot")
                .key_schema(key("depot", KeyType::Hash))
                .key_schema(key("recordedAt", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::KeysOnly)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    for _ in 0..200 {
        let table = client.describe_table().table_name("Fleet").send().await.unwrap();
        let active = |s: Option<&aws_sdk_dynamodb::types::TableStatus>| {
            s == Some(&aws_sdk_dynamodb::types::TableStatus::Active)
        };
        let table = table.table().unwrap();
        if active(table.table_status())
            && table
                .global_secondary_indexes()
                .iter()
                .all(|i| i.index_status().map(|s| s.as_str()) == Some("ACTIVE"))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let mut writes = Vec::new();
    for v in 0..VEHICLES {
        let vehicle = format!("VEH#V-{v:03}");
        let mut meta = HashMap::from([
            ("vehicleId".to_owned(), SdkValue::S(vehicle.clone())),
            ("recordedAt".to_owned(), SdkValue::S("META".into())),
        ]);
        if v % 4 == 0 {
            meta.insert("depot".into(), SdkValue::S(format!("DEPOT#{}", v % 3)));
        }
        writes.push(meta);
        for r in 0..READINGS {
            writes.push(HashMap::from([
                ("vehicleId".to_owned(), SdkValue::S(vehicle.clone())),
                ("recordedAt".to_owned(), SdkValue::S(format!("TS#{r:02}"))),
                ("payload".to_owned(), SdkValue::S("x".repeat(1000))),
            ]));
        }
    }
    for chunk in writes.chunks(25) {
        let requests: Vec<WriteRequest> = chunk
            .iter()
            .map(|item| {
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(item.clone()))
                            .build()
                            .unwrap(),
                    )
                    .build()
            })
            .collect();
        let out = client
            .batch_write_item()
            .request_items("Fleet", requests)
            .send()
            .await
            .unwrap();
        assert!(out.unprocessed_items().is_none_or(|u| u.is_empty()));
    }
    (dynalite, dir, app, profile.id)
}

pub(crate) fn request(index: Option<&str>, budget: Option<f64>, resume: bool) -> StatisticsRequest {
    StatisticsRequest {
        table: "Fleet".into(),
        index: index.map(str::to_owned),
        budget,
        resume,
    }
}

/// Each collection's count, by its key's text.
fn counts(stats: &CollectionStats) -> BTreeMap<String, f64> {
    stats
        .collections
        .iter()
        .map(|c| (c.partition_value.display_text(), c.item_count))
        .collect()
}

#[tokio::test]
async fn a_budget_stops_the_statistics_scan_and_a_continued_scan_ends_where_a_whole_one_does() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    // dynalite's DescribeTable reports no size yet, as AWS does for hours after a table fills
    // (it refreshes the figures about every six hours): the scan learns the items' size from its
    // first page and sizes the rest to the budget left.
    let cost = app.statistics_scan_cost(&profile, "Fleet", None).await.unwrap();
    assert_eq!(cost.item_count, 0.0, "{cost:?}");

    // A budget of 8 RCU reads part of the table (about 400 KB, some 50 RCU), and stops within
    // half a unit of it.
    let mut pages = 0;
    let mut last_units = 0.0;
    let partial = app
        .gather_statistics(&profile, "s1", request(None, Some(8.0), false), |totals| {
            pages += 1;
            last_units = totals.capacity_units;
        })
        .await
        .unwrap();
    let scan = partial.scan.clone().expect("a gathered scan says how far it got");
    assert!(!scan.complete);
    assert!(
        pages >= 2,
        "a first page to learn the size, then the rest: {pages}"
    );
    assert!(
        scan.capacity_units > 7.0 && scan.capacity_units <= 8.5,
        "{scan:?}"
    );
    assert_eq!(scan.capacity_units, last_units);
    assert!(
        scan.items_read > 0.0 && scan.items_read < (VEHICLES * (READINGS + 1)) as f64,
        "{scan:?}"
    );
    assert_eq!(partial.item_count, scan.items_read);
    let open = scan
        .open_collection
        .clone()
        .expect("the collection read last is named");
    assert!(partial.collections.iter().any(|c| c.partition_value == open));
    // Every collection but the open one is whole.
    for c in &partial.collections {
        if c.partition_value != open {
            assert_eq!(c.item_count, (READINGS + 1) as f64, "{:?}", c.partition_value);
        }
    }
    // The partial statistics are what the Collections view lists, in key order.
    let run = app
        .collection_range(&profile, "Fleet", None, 0, 1000)
        .await
        .unwrap();
    assert_eq!(run.total, partial.distinct_partition_keys);
    let keys: Vec<String> = run
        .collections
        .iter()
        .map(|c| c.partition_value.display_text())
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);

    // Continued without a budget, it reads the rest: the same statistics a whole scan gathers,
    // and the read units of both runs together.
    let continued = app
        .gather_statistics(&profile, "s2", request(None, None, true), |_| {})
        .await
        .unwrap();
    let continued_scan = continued.scan.clone().unwrap();
    assert!(continued_scan.complete);
    assert_eq!(continued_scan.open_collection, None);
    assert!(continued_scan.capacity_units > scan.capacity_units);
    assert_eq!(continued.item_count, (VEHICLES * (READINGS + 1)) as f64);
    assert_eq!(continued.distinct_partition_keys, VEHICLES as f64);
    let whole = app
        .gather_statistics(&profile, "s3", request(None, None, false), |_| {})
        .await
        .unwrap();
    assert!(whole.scan.as_ref().unwrap().complete);
    assert_eq!(counts(&continued), counts(&whole));
    assert_eq!(continued.size_bytes, whole.size_bytes);

    // Continuing a complete scan starts it over: the same figures again.
    let again = app
        .gather_statistics(&profile, "s4", request(None, None, true), |_| {})
        .await
        .unwrap();
    assert_eq!(counts(&again), counts(&whole));
}

#[tokio::test]
async fn an_index_gets_its_own_collections_from_a_scan_of_the_index() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    let err = app
        .collection_range(&profile, "Fleet", Some("ByDepot"), 0, 10)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("ByDepot"), "{}", err.message);
    let err = app
        .statistics_scan_cost(&profile, "Fleet", Some("Nope"))
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);

    let depots = app
        .gather_statistics(&profile, "i1", request(Some("ByDepot"), None, false), |_| {})
        .await
        .unwrap();
    assert_eq!(depots.index.as_deref(), Some("ByDepot"));
    assert!(depots.scan.as_ref().unwrap().complete);
    // Only the ten vehicles whose META names a depot are in the index (sparse), under their depot.
    let expected: BTreeMap<String, f64> =
        (0..VEHICLES)
            .filter(|v| v % 4 == 0)
            .fold(BTreeMap::new(), |mut by, v| {
                *by.entry(format!("DEPOT#{}", v % 3)).or_insert(0.0) += 1.0;
                by
            });
    assert_eq!(counts(&depots), expected);
    let run = app
        .collection_range(&profile, "Fleet", Some("ByDepot"), 0, 10)
        .await
        .unwrap();
    assert_eq!(
        run.collections
            .iter()
            .map(|c| c.partition_value.clone())
            .collect::<Vec<_>>(),
        vec![
            AttributeValue::S("DEPOT#0".into()),
            AttributeValue::S("DEPOT#1".into()),
            AttributeValue::S("DEPOT#2".into())
        ]
    );
    // The table's own statistics are still not gathered: an index's are kept apart.
    let err = app.collection_stats(&profile, "Fleet", None).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    let by_index = app
        .collection_stats(&profile, "Fleet", Some("ByDepot"))
        .await
        .unwrap();
    assert_eq!(counts(&by_index), expected);
}
