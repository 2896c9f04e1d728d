//! The data modeler's commands, headless: the Telemetry model of the seed articles analysed,
//! its depot pattern flagged as a Scan until the suggested GSI is taken, exported, read back
//! from NoSQL Workbench's format, and applied to the embedded engine — where each pattern's
//! Query returns the items and costs the read units the modeler predicted on the same sample;
//! and applied to a connection (dynalite, a DynamoDB nobody here wrote, reached as an endpoint
//! the way every AWS connection is), where CreateTable makes its tables and indexes.

use std::sync::Arc;

use crate::support;
use support::Dynalite;

use dynotable_app::modeler::{ModelAnalysis, ModelExportFormat};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_modeler::partitions::{Spread, TrafficModel};
use dynotable_modeler::{Model, ModelPart};
use serde_json::Value;

fn start(dir: &std::path::Path) -> App {
    App::start_with("test", dir, Arc::new(MemoryStore::default()))
}

fn telemetry() -> Model {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../dynotable-modeler/tests/models/telemetry.json"
    );
    let mut model = Model::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    // The demo data already has a Telemetry table in the embedded engine.
    model.tables[0].name = "TelemetryModel".into();
    for entity in &mut model.entities {
        entity.table = "TelemetryModel".into();
    }
    model
}

fn traffic() -> TrafficModel {
    TrafficModel {
        read_units_per_second: 100.0,
        write_units_per_second: 40.0,
        spread: Spread::ByItems,
        scale: 1.0,
    }
}

fn pattern<'a>(analysis: &'a ModelAnalysis, prefix: &str) -> &'a dynotable_modeler::patterns::Resolution {
    analysis
        .patterns
        .iter()
        .find(|p| p.pattern.starts_with(prefix))
        .unwrap()
}

#[tokio::test]
async fn the_telemetry_model_from_analysis_to_the_embedded_engine() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let model = telemetry();

    let analysis = app.analyze_model(&model, 7, &traffic());
    assert_eq!(analysis.problem, None);
    // VEH#V-7741's box: its META item and the most readings of any vehicle.
    let table = &analysis.collections[0];
    assert_eq!(table.target.index, None);
    assert_eq!(
        serde_json::to_value(&table.collections[0].key).unwrap(),
        serde_json::json!({ "S": "VEH#V-7741" })
    );
    assert_eq!(table.collections[0].entities["Vehicle"], 1);
    assert_eq!(analysis.partitions.len(), 1);
    assert_eq!(analysis.growth.len(), 1);

    // The depot pattern needs a Scan until its GSI exists.
    let depot = pattern(&analysis, "a depot");
    assert_eq!(depot.operation, "Scan");
    let suggestion = depot.suggestion.clone().unwrap();
    let model = app.take_model_suggestion(&model, &suggestion).unwrap();
    let analysis = app.analyze_model(&model, 7, &traffic());
    let depot = pattern(&analysis, "a depot");
    assert_eq!(
        (depot.operation.as_str(), depot.target.index.as_deref()),
        ("Query", Some("ByDepotCode"))
    );
    // Taking it twice is refused.
    let twice = app.take_model_suggestion(&model, &suggestion).unwrap_err();
    assert_eq!(twice.code, ErrorCode::Validation);

    // Exports, and the Workbench file read back.
    let terraform = app
        .export_model(&model, ModelExportFormat::Terraform, 7, "now")
        .unwrap();
    assert!(terraform.contains("name = \"ByDepotCode\""), "{terraform}");
    let file = app
        .export_model(&model, ModelExportFormat::Workbench, 7, "now")
        .unwrap();
    let imported = app.import_workbench_model(&file).unwrap();
    assert_eq!(imported.tables[0].global_indexes, model.tables[0].global_indexes);
    assert_eq!(
        app.import_workbench_model("{}").unwrap_err().code,
        ErrorCode::Validation
    );

    // Applied to the embedded engine: every pattern's Query reads what the modeler said.
    let applied = app.apply_model_to_embedded(&model, 7).await.unwrap();
    assert_eq!(applied.tables, vec!["TelemetryModel".to_owned()]);
    assert_eq!(applied.items, 222);
    let engine = app.engine().await.unwrap();
    for resolution in &analysis.patterns {
        let mut body: Value = serde_json::from_str(&resolution.request).unwrap();
        body["ReturnConsumedCapacity"] = "TOTAL".into();
        let operation = resolution.operation.as_str();
        let answer: Value =
            serde_json::from_slice(&engine.call(operation, body.to_string().as_bytes()).await.unwrap())
                .unwrap();
        if operation == "Query" {
            assert_eq!(answer["Count"], resolution.items_read, "{}", resolution.pattern);
            assert_eq!(
                answer["ConsumedCapacity"]["CapacityUnits"].as_f64().unwrap(),
                resolution.read_units_per_call,
                "{}",
                resolution.pattern
            );
        }
    }

    // Applying again is refused before anything is written.
    let again = app.apply_model_to_embedded(&model, 7).await.unwrap_err();
    assert_eq!(again.exception.as_deref(), Some("ResourceInUseException"));
}

#[tokio::test]
async fn a_model_dynamodb_would_refuse_is_a_problem_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let mut model = telemetry();
    model.tables[0].name = "T".into();
    let analysis = app.analyze_model(&model, 7, &traffic());
    let problem = analysis.problem.unwrap();
    assert_eq!(problem.code, "INVALID_TABLE");
    assert_eq!(problem.exception.as_deref(), Some("ValidationException"));
    let at = problem.at.unwrap();
    assert_eq!(
        (at.part, at.name.as_str(), at.member),
        (ModelPart::Table, "T", None)
    );
    assert!(analysis.collections.is_empty());
    let export = app
        .export_model(&model, ModelExportFormat::CloudFormation, 7, "now")
        .unwrap_err();
    assert_eq!(export.code, ErrorCode::Validation);
}

#[tokio::test]
async fn a_problem_names_the_part_of_the_model_it_concerns() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let at = |model: &Model| {
        let at = app
            .analyze_model(model, 7, &traffic())
            .problem
            .unwrap()
            .at
            .unwrap();
        (at.part, at.name, at.member)
    };

    // A key template naming a field the entity does not have: that entity, that key.
    let mut model = telemetry();
    let reading = model.entities.iter_mut().find(|e| e.name == "Reading").unwrap();
    reading
        .keys
        .iter_mut()
        .find(|k| k.attribute == "recordedAt")
        .unwrap()
        .template = "TS#{when}".into();
    assert_eq!(
        at(&model),
        (ModelPart::Entity, "Reading".into(), Some("key:recordedAt".into()))
    );

    // An entity without a template for the table's sort key (rule B.7).
    let mut model = telemetry();
    model.entities[0].keys.retain(|k| k.attribute != "recordedAt");
    assert_eq!(
        at(&model),
        (
            ModelPart::Entity,
            model.entities[0].name.clone(),
            Some("key:recordedAt".into())
        )
    );

    // A pattern given a field its entity lacks.
    let mut model = telemetry();
    let name = model.patterns[0].name.clone();
    model.patterns[0].given.insert("colour".into(), "red".into());
    assert_eq!(
        at(&model),
        (ModelPart::Pattern, name, Some("given:colour".into()))
    );
}

fn dynalite_profile(port: u16, read_only: bool) -> dynotable_app::profiles::ProfileInput {
    use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
    ProfileInput {
        name: if read_only {
            "dynalite (read-only)"
        } else {
            "dynalite"
        }
        .into(),
        color: "#3366ff".into(),
        region: "us-east-1".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: format!("http://127.0.0.1:{port}"),
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SecretInput::new("local-secret"),
        },
    }
}

#[tokio::test]
async fn a_model_is_applied_to_a_connection_as_create_table_and_refused_where_it_cannot_be() {
    use dynotable_app::dto::{IndexKind, ProjectionType, ScalarType};
    use dynotable_modeler::model::{Billing, IndexModel, KeyAttr, Projection};
    use dynotable_types::ScalarAttributeType;
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let dynalite = Dynalite::start_with(&["--createTableMs", "50"]);

    // The Telemetry model with its depot GSI taken, an LSI on fuel, and provisioned billing.
    let depot = pattern(&app.analyze_model(&telemetry(), 7, &traffic()), "a depot's")
        .suggestion
        .clone()
        .unwrap();
    let mut model = app.take_model_suggestion(&telemetry(), &depot).unwrap();
    let table = &mut model.tables[0];
    table.billing = Billing::Provisioned {
        read_units: 5,
        write_units: 4,
    };
    table.local_indexes.push(IndexModel {
        name: "ByFuel".into(),
        partition_key: table.partition_key.clone(),
        sort_key: Some(KeyAttr {
            name: "fuelPct".into(),
            ty: ScalarAttributeType::N,
        }),
        projection: Projection::KeysOnly,
    });
    assert_eq!(app.analyze_model(&model, 7, &traffic()).problem, None);

    // A read-only connection is refused before anything is sent.
    let read_only = app
        .create_profile(dynalite_profile(dynalite.port, true))
        .await
        .unwrap();
    let refused = app
        .apply_model_to_connection(&read_only.id, &model)
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::ReadOnly);

    let profile = app
        .create_profile(dynalite_profile(dynalite.port, false))
        .await
        .unwrap();
    let applied = app.apply_model_to_connection(&profile.id, &model).await.unwrap();
    assert_eq!(applied.tables, ["TelemetryModel"]);
    assert_eq!(applied.items, 0);

    let created = app.describe_table(&profile.id, "TelemetryModel").await.unwrap();
    assert_eq!(created.keys.partition_key.name, "vehicleId");
    assert_eq!(created.keys.sort_key.as_ref().unwrap().name, "recordedAt");
    assert_eq!(created.provisioned, Some((5.0, 4.0)));
    let gsi = created
        .indexes
        .iter()
        .find(|i| i.name == depot.index.name)
        .unwrap();
    assert_eq!(gsi.kind, IndexKind::Global);
    assert_eq!(gsi.keys.partition_key.name, "depotCode");
    let lsi = created.indexes.iter().find(|i| i.name == "ByFuel").unwrap();
    assert_eq!(lsi.kind, IndexKind::Local);
    assert_eq!(lsi.keys.partition_key.name, "vehicleId");
    assert_eq!(lsi.keys.sort_key.as_ref().unwrap().ty, ScalarType::N);
    assert_eq!(lsi.projection.ty, ProjectionType::KeysOnly);

    // Applying again: the table is there, so nothing is created (a second table of the model
    // is not made either).
    let mut again = model.clone();
    let mut second = again.tables[0].clone();
    second.name = "TelemetrySecond".into();
    second.local_indexes.clear();
    again.tables.insert(0, second);
    let refused = app
        .apply_model_to_connection(&profile.id, &again)
        .await
        .unwrap_err();
    assert_eq!(refused.exception.as_deref(), Some("ResourceInUseException"));
    let missing = app
        .describe_table(&profile.id, "TelemetrySecond")
        .await
        .unwrap_err();
    assert_eq!(missing.exception.as_deref(), Some("ResourceNotFoundException"));

    // A model CreateTable would refuse never reaches the connection.
    let mut invalid = model.clone();
    invalid.tables[0].name = "T".into();
    let refused = app
        .apply_model_to_connection(&profile.id, &invalid)
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::Validation);
}
