//! A model inferred from a live table (issue 21, point 5): the embedded demo's Telemetry —
//! its META and TS# entity types, the sparse ByDepot GSI, the patterns of the queries run on
//! it — and a table on dynalite (a DynamoDB nobody here wrote, reached as an endpoint, the code
//! path of every AWS connection). The sample is bounded and its cost estimated before and
//! reported after; a sample size out of range is refused with a plain sentence.

use std::sync::Arc;

use crate::support;
use support::Dynalite;

use dynotable_app::Expectation;
use dynotable_app::dto::{
    AttributeValue, Billing, IndexKind, KeyAttribute, KeySchema, NewIndex, NewTable, Projection,
    ProjectionType, QueryInput, ScalarType, SortKeyCondition,
};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_modeler::generate::Generator;
use dynotable_modeler::model::Projection as ModelProjection;

fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    (dir, app)
}

fn query(index: Option<&str>, partition: &str, sort: Option<SortKeyCondition>, forward: bool) -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: "Telemetry".into(),
        index: index.map(str::to_owned),
        partition_value: AttributeValue::S(partition.into()),
        sort_condition: sort,
        scan_index_forward: forward,
        limit: Some(20),
        consistent_read: false,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

#[tokio::test]
async fn the_demo_telemetry_infers_meta_and_ts_entities_the_sparse_gsi_and_its_patterns() {
    let (_dir, app) = app();
    app.engine().await.unwrap();
    // The history: vehicles' newest readings (three times, one pattern; V-7741 twice) and a
    // depot's, on the GSI.
    let ts = Some(SortKeyCondition::BeginsWith {
        value: AttributeValue::S("TS#".into()),
    });
    app.query(EMBEDDED_ID, query(None, "VEH#V-7741", ts.clone(), false))
        .await
        .unwrap();
    app.query(EMBEDDED_ID, query(None, "VEH#V-1007", ts.clone(), false))
        .await
        .unwrap();
    app.query(EMBEDDED_ID, query(None, "VEH#V-7741", ts, false))
        .await
        .unwrap();
    app.query(EMBEDDED_ID, query(Some("ByDepot"), "DEP-N", None, false))
        .await
        .unwrap();

    let estimate = app
        .estimate_model_sample(EMBEDDED_ID, "Telemetry", 1_000)
        .await
        .unwrap();
    // A Scan page of 1,000 items, and one Query page of a quarter of that from VEH#V-7741, the
    // collection the history reads most (the Scan reads the first keys: not V-7741's).
    assert_eq!(estimate.items, 1_250.0);
    assert!(!estimate.approximate);
    assert_eq!(estimate.pages, 2.0);
    assert!(estimate.capacity_units > 0.0);
    assert!(estimate.lines.iter().any(|l| l.rule.as_deref() == Some("B.2")));

    let inferred = app.infer_model(EMBEDDED_ID, "Telemetry", 1_000).await.unwrap();
    // A bounded sample: 1,000 of the table's items from the Scan, 250 of VEH#V-7741's.
    assert_eq!(inferred.sampled_items, 1_250);
    assert_eq!(inferred.pages, 2);
    assert!(
        inferred.notes.iter().any(|n| n.contains("VEH#V-7741")),
        "{:?}",
        inferred.notes
    );
    assert!(inferred.table_items > 10_000.0);
    // The engine reports what the Scan consumed; the estimate was made at the table's average
    // item size, so the two are close, not equal.
    let consumed = inferred.consumed_capacity.unwrap();
    assert!(consumed > 0.0);
    assert!(
        (consumed - estimate.capacity_units).abs() <= estimate.capacity_units * 0.5,
        "consumed {consumed}, estimated {}",
        estimate.capacity_units
    );

    let model = &inferred.model;
    if std::env::var_os("PRINT_MODEL").is_some() {
        println!("{}\n{:#?}", model.to_json(), inferred.entities);
    }
    let table = &model.tables[0];
    assert_eq!(table.name, "Telemetry");
    assert_eq!(table.partition_key.name, "vehicleId");
    assert_eq!(table.sort_key.as_ref().unwrap().name, "recordedAt");
    assert_eq!(table.global_indexes[0].name, "ByDepot");
    assert_eq!(table.global_indexes[0].projection, ModelProjection::All);

    let names: Vec<&str> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["META", "TS"]);
    let meta = model.entity("META").unwrap();
    let reading = model.entity("TS").unwrap();
    assert_eq!(meta.key("vehicleId").unwrap().template, "VEH#{vehicleId}");
    assert_eq!(meta.key("recordedAt").unwrap().template, "META");
    assert_eq!(reading.key("recordedAt").unwrap().template, "TS#{recordedAt}");
    // Readings taken in the yard carry no depotCode: the GSI is sparse for readings only.
    assert_eq!(meta.key("depotCode").unwrap().presence, 1.0);
    let presence = reading.key("depotCode").unwrap().presence;
    assert!(presence > 0.5 && presence < 1.0, "{presence}");
    assert!(matches!(
        reading.field("vehicleId").unwrap().generator,
        Generator::Ref { ref entity, .. } if entity == "META"
    ));
    assert!(matches!(
        reading.field("speedKph").unwrap().generator,
        Generator::Number { .. }
    ));
    // Counts are the sample's shares of the table: about 30 readings a vehicle.
    let sampled: u64 = inferred.entities.iter().map(|e| e.sampled).sum();
    assert_eq!(sampled, 1_250);
    let meta_estimate = inferred
        .entities
        .iter()
        .find(|e| e.name == "META")
        .unwrap()
        .estimated;
    let ts_estimate = inferred
        .entities
        .iter()
        .find(|e| e.name == "TS")
        .unwrap()
        .estimated;
    assert!(
        ts_estimate > 10.0 * meta_estimate,
        "{meta_estimate} META, {ts_estimate} TS"
    );

    // The history's reads: two distinct patterns, both Queries of the sample.
    assert_eq!(inferred.history_reads, 4);
    let patterns: Vec<&str> = model.patterns.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        patterns,
        [
            "TS by vehicleId, newest first",
            "TS by depotCode on ByDepot, newest first"
        ]
    );
    // The vehicle the history reads most is where the model's counter of vehicles starts, and
    // its readings outnumber the others': the readings refer to it most.
    assert!(matches!(
        reading.field("vehicleId").unwrap().generator,
        Generator::Ref {
            skew: Some(dynotable_modeler::generate::Skew { hot: 1, .. }),
            ..
        }
    ));
    assert!(matches!(
        meta.field("vehicleId").unwrap().generator,
        Generator::Sequence {
            start: 7741,
            step: 7,
            ..
        }
    ));
    // The pattern's example is the vehicle the history reads most.
    assert_eq!(model.patterns[0].given["vehicleId"], "V-7741");
    let analysis = app.analyze_model(
        model,
        7,
        &dynotable_modeler::partitions::TrafficModel {
            read_units_per_second: 10.0,
            write_units_per_second: 10.0,
            spread: dynotable_modeler::partitions::Spread::ByItems,
            scale: 1.0,
        },
    );
    assert_eq!(analysis.problem, None);
    let operations: Vec<&str> = analysis.patterns.iter().map(|p| p.operation.as_str()).collect();
    assert_eq!(operations, ["Query", "Query"]);
    // VEH#V-7741's box is the table's largest.
    assert_eq!(
        serde_json::to_value(&analysis.collections[0].collections[0].key).unwrap(),
        serde_json::json!({ "S": "VEH#V-7741" })
    );
}

#[tokio::test]
async fn a_sample_size_out_of_range_is_refused_with_a_plain_sentence() {
    let (_dir, app) = app();
    for limit in [0, 5_001] {
        let err = app
            .infer_model(EMBEDDED_ID, "Telemetry", limit)
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
        assert_eq!(
            err.message,
            format!("A sample reads 1 to 5000 items, not {limit}.")
        );
        let err = app
            .estimate_model_sample(EMBEDDED_ID, "Telemetry", limit)
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
    }
    let err = app.infer_model(EMBEDDED_ID, "NoSuchTable", 10).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

fn key(name: &str, ty: ScalarType) -> KeyAttribute {
    KeyAttribute {
        name: name.into(),
        ty,
    }
}

#[tokio::test]
async fn a_table_on_dynalite_is_inferred_through_the_aws_code_path() {
    let (_dir, app) = app();
    let dynalite = Dynalite::start_with(&["--createTableMs", "0"]);
    let profile = app
        .create_profile(ProfileInput {
            name: "dynalite".into(),
            color: "#3366ff".into(),
            region: "us-east-1".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: format!("http://127.0.0.1:{}", dynalite.port),
                access_key_id: "AKIDEXAMPLE".into(),
                secret_access_key: SecretInput::new("local-secret"),
            },
        })
        .await
        .unwrap();
    let keys = |p: &str, s: Option<&str>| KeySchema {
        partition_key: key(p, ScalarType::S),
        sort_key: s.map(|s| key(s, ScalarType::S)),
        more_partition_keys: Vec::new(),
        more_sort_keys: Vec::new(),
    };
    app.create_table(
        &profile.id,
        NewTable {
            name: "Shop".into(),
            keys: keys("pk", Some("sk")),
            billing: Billing::Provisioned {
                read_units: 5,
                write_units: 3,
            },
            indexes: vec![
                NewIndex {
                    name: "ByStatus".into(),
                    kind: IndexKind::Global,
                    keys: keys("status", Some("sk")),
                    projection: Projection {
                        ty: ProjectionType::KeysOnly,
                        attributes: vec![],
                    },
                },
                NewIndex {
                    name: "ByTotal".into(),
                    kind: IndexKind::Local,
                    keys: keys("pk", Some("placedAt")),
                    projection: Projection {
                        ty: ProjectionType::Include,
                        attributes: vec!["total".into()],
                    },
                },
            ],
            stream_view_type: None,
            ttl_attribute: None,
            tags: vec![],
        },
    )
    .await
    .unwrap();
    // Customers with a PROFILE item and orders; only open orders carry `status`.
    let mut items = Vec::new();
    for c in 0..5 {
        items.push(serde_json::json!({
            "pk": { "S": format!("CUST#{c:03}") }, "sk": { "S": "PROFILE" },
            "email": { "S": format!("c{c}@example.com") }, "vip": { "BOOL": c == 0 },
        }));
        for o in 0..4 {
            let mut order = serde_json::json!({
                "pk": { "S": format!("CUST#{c:03}") }, "sk": { "S": format!("ORDER#{:04}", c * 10 + o) },
                "placedAt": { "S": format!("2025-03-1{o}T10:00:00Z") }, "total": { "N": format!("{}.50", 10 + o) },
            });
            if o == 0 {
                order["status"] = serde_json::json!({ "S": "OPEN" });
            }
            items.push(order);
        }
    }
    for item in items {
        let item: dynotable_app::dto::Item = serde_json::from_value(item).unwrap();
        app.put_item(&profile.id, "Shop", item, Expectation::Anything)
            .await
            .unwrap();
    }

    // dynalite never refreshes DescribeTable's size: the estimate says the cost is not known.
    let estimate = app.estimate_model_sample(&profile.id, "Shop", 100).await.unwrap();
    assert!(estimate.approximate);
    assert!(
        estimate.lines[0]
            .text
            .starts_with("DescribeTable reports 0 bytes"),
        "{:?}",
        estimate.lines
    );

    let inferred = app.infer_model(&profile.id, "Shop", 100).await.unwrap();
    assert_eq!(inferred.sampled_items, 25);
    assert_eq!(inferred.pages, 1);
    assert!(inferred.consumed_capacity.is_some_and(|c| c > 0.0));
    let model = &inferred.model;
    let table = &model.tables[0];
    assert_eq!(
        table.billing,
        dynotable_modeler::model::Billing::Provisioned {
            read_units: 5,
            write_units: 3
        }
    );
    assert_eq!(table.global_indexes[0].projection, ModelProjection::KeysOnly);
    assert_eq!(
        table.local_indexes[0].projection,
        ModelProjection::Include(vec!["total".into()])
    );
    let names: Vec<&str> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["PROFILE", "ORDER"]);
    let order = model.entity("ORDER").unwrap();
    assert_eq!(order.key("sk").unwrap().template, "ORDER#{sk}");
    assert_eq!(order.key("status").unwrap().presence, 0.25);
    assert_eq!(order.key("status").unwrap().template, "OPEN");
    assert_eq!(order.key("placedAt").unwrap().template, "{placedAt}");
    assert!(matches!(
        order.field("placedAt").unwrap().generator,
        Generator::Time { .. }
    ));
    let profile_entity = model.entity("PROFILE").unwrap();
    assert!(
        matches!(profile_entity.field("vip").unwrap().generator, Generator::Flag { share } if share == 0.2)
    );
    assert_eq!(profile_entity.key("status"), None);
    dynotable_modeler::validate::validate(model).unwrap();
}
