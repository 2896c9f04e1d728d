//! Golden files of every export format, per model of `tests/models/`: `tests/exports/<model>/`
//! holds its CreateTable requests, CloudFormation template, CDK stack, Terraform and NoSQL
//! Workbench file (with sample data, seed 7). `tests/blackbox/test_modeler_exports.py` runs
//! `cfn-lint` on the templates and parses the Terraform with `python-hcl2`. Refresh with
//! `UPDATE_GOLDENFILES=1 cargo test -p dynotable-modeler --test exports`.
//!
//! Also here: NoSQL Workbench files round-trip byte for byte through import and export, those
//! Workbench wrote (`tests/workbench/`) and those the modeler writes.

use std::path::PathBuf;

use dynotable_modeler::Model;
use dynotable_modeler::export::cdk::cdk;
use dynotable_modeler::export::cloudformation::cloudformation;
use dynotable_modeler::export::create_table::create_table_json;
use dynotable_modeler::export::terraform::terraform;
use dynotable_modeler::export::workbench;
use dynotable_modeler::generate::generate;
use dynotable_modeler::validate::validate;

const NOW: &str = "Dec 4, 2026, 08:00 PM";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn golden(model: &str, file: &str, text: &str) {
    let dir = root().join("exports").join(model);
    let path = dir.join(file);
    if std::env::var_os("UPDATE_GOLDENFILES").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        expected,
        text,
        "{} differs (refresh with UPDATE_GOLDENFILES=1)",
        path.display()
    );
}

fn load(name: &str) -> Model {
    let text = std::fs::read_to_string(root().join("models").join(format!("{name}.json"))).unwrap();
    let model = Model::from_json(&text).unwrap();
    validate(&model).unwrap();
    model
}

fn check(name: &str, model: &Model) {
    golden(name, "create-table.json", &create_table_json(model));
    golden(name, "cloudformation.json", &cloudformation(model));
    golden(name, "stack.ts", &cdk(model));
    golden(name, "main.tf", &terraform(model));
    let sample = generate(model, 7).unwrap();
    let file = workbench::export(model, Some(&sample), NOW).unwrap();
    golden(name, "workbench.json", &file);
    // What the modeler writes, Workbench-style, reads back and writes out the same.
    let again = workbench::import(&file).unwrap();
    assert_eq!(workbench::export(&again, None, "another day").unwrap(), file);
    assert_eq!(again.tables.len(), model.tables.len());
    for (a, b) in again.tables.iter().zip(&model.tables) {
        assert_eq!(
            (
                &a.name,
                &a.partition_key,
                &a.sort_key,
                a.billing,
                &a.global_indexes,
                &a.local_indexes
            ),
            (
                &b.name,
                &b.partition_key,
                &b.sort_key,
                b.billing,
                &b.global_indexes,
                &b.local_indexes
            )
        );
    }
}

#[test]
fn the_telemetry_model_in_every_format() {
    let mut model = load("telemetry");
    // A small sample keeps the Workbench file readable.
    model.entities[0].count = 3;
    model.entities[1].count = 8;
    check("telemetry", &model);
}

#[test]
fn a_provisioned_table_with_an_lsi_in_every_format() {
    let mut model = load("orders");
    model.entities[0].count = 4;
    check("orders", &model);
}

#[test]
fn the_telemetry_model_with_the_suggested_gsi_in_every_format() {
    let mut model = load("telemetry");
    model.entities[0].count = 2;
    model.entities[1].count = 4;
    let sample = generate(&model, 7).unwrap();
    let pattern = model
        .patterns
        .iter()
        .find(|p| p.name.starts_with("a depot"))
        .unwrap()
        .clone();
    let resolution = dynotable_modeler::patterns::resolve(&model, &sample, &pattern).unwrap();
    let model = dynotable_modeler::suggest::apply(&model, &resolution.suggestion.unwrap()).unwrap();
    check("telemetry-by-depot", &model);
}

/// Every file in `tests/workbench/` is as NoSQL Workbench writes it; importing and exporting
/// it gives back the same bytes, and the model it imports to is valid.
#[test]
fn workbench_files_round_trip_byte_for_byte() {
    let mut seen = 0;
    for entry in std::fs::read_dir(root().join("workbench")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let model = workbench::import(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        validate(&model).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = workbench::export(&model, None, NOW).unwrap();
        assert_eq!(out, text, "{} does not round-trip", path.display());
        seen += 1;
    }
    assert!(seen >= 2, "tests/workbench holds the round-trip cases");
}

#[test]
fn a_workbench_file_that_is_not_one_is_refused() {
    for text in [
        "{}",
        r#"{"ModelName":"x","ModelMetadata":{},"DataModel":[{"TableName":"Tbl","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"BOOL"}}}]}"#,
        r#"{"ModelName":"x","ModelMetadata":{},"DataModel":[{"TableName":"Tbl","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"}},"GlobalSecondaryIndexes":[{"IndexName":"G","KeyAttributes":{"PartitionKey":{"AttributeName":"g","AttributeType":"S"}},"Projection":{"ProjectionType":"SOME"}}]}]}"#,
    ] {
        let error = workbench::import(text).unwrap_err();
        assert_eq!(
            error.code,
            dynotable_modeler::ErrorCode::InvalidImport,
            "{text}: {error}"
        );
    }
}
