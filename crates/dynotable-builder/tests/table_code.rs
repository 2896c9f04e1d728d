//! Golden files for a table definition as code: each case is a CreateTable request body (and a
//! TTL attribute), and `tests/codegen/tables/<case>/` holds its CreateTable JSON, the
//! UpdateTimeToLive that follows it, the AWS CLI commands and the CloudFormation template.
//! Refresh with `UPDATE_GOLDENFILES=1 cargo test -p dynotable-builder --test table_code`.

use std::path::PathBuf;

use dynotable_builder::codegen::table::table_code;
use serde_json::{Value, json};

fn golden(case: &str, file: &str, text: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/codegen/tables")
        .join(case);
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

fn check(case: &str, request: Value, ttl: Option<&str>) {
    let code = table_code(&request, ttl);
    // The CreateTable JSON is the request itself, nothing dropped or added.
    assert_eq!(
        serde_json::from_str::<Value>(&code.create_table).unwrap(),
        request
    );
    golden(case, "create-table.json", &code.create_table);
    golden(case, "aws-cli.sh", &code.aws_cli);
    golden(case, "cloudformation.yaml", &code.cloud_formation);
    match (&code.update_time_to_live, ttl) {
        (Some(update), Some(attribute)) => {
            let update: Value = serde_json::from_str(update).unwrap();
            assert_eq!(update["TimeToLiveSpecification"]["AttributeName"], attribute);
            golden(
                case,
                "update-time-to-live.json",
                &code.update_time_to_live.clone().unwrap(),
            );
        }
        (None, None) => {}
        other => panic!("UpdateTimeToLive {other:?}"),
    }
}

#[test]
fn an_on_demand_table_with_a_gsi_a_stream_tags_and_ttl() {
    check(
        "fleet-events",
        json!({
            "TableName": "FleetEvents",
            "AttributeDefinitions": [
                { "AttributeName": "vehicleId", "AttributeType": "S" },
                { "AttributeName": "at", "AttributeType": "N" },
                { "AttributeName": "depot", "AttributeType": "S" }
            ],
            "KeySchema": [
                { "AttributeName": "vehicleId", "KeyType": "HASH" },
                { "AttributeName": "at", "KeyType": "RANGE" }
            ],
            "BillingMode": "PAY_PER_REQUEST",
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByDepot",
                "KeySchema": [
                    { "AttributeName": "depot", "KeyType": "HASH" },
                    { "AttributeName": "at", "KeyType": "RANGE" }
                ],
                "Projection": { "ProjectionType": "INCLUDE", "NonKeyAttributes": ["speed", "driver's note"] }
            }],
            "StreamSpecification": { "StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES" },
            "Tags": [{ "Key": "team", "Value": "fleet ops" }]
        }),
        Some("expiresAt"),
    );
}

#[test]
fn a_provisioned_table_with_an_lsi_and_nothing_else() {
    check(
        "orders-provisioned",
        json!({
            "TableName": "orders-2026",
            "AttributeDefinitions": [
                { "AttributeName": "customerId", "AttributeType": "S" },
                { "AttributeName": "orderedAt", "AttributeType": "N" },
                { "AttributeName": "total", "AttributeType": "N" }
            ],
            "KeySchema": [
                { "AttributeName": "customerId", "KeyType": "HASH" },
                { "AttributeName": "orderedAt", "KeyType": "RANGE" }
            ],
            "BillingMode": "PROVISIONED",
            "ProvisionedThroughput": { "ReadCapacityUnits": 5, "WriteCapacityUnits": 2 },
            "LocalSecondaryIndexes": [{
                "IndexName": "ByTotal",
                "KeySchema": [
                    { "AttributeName": "customerId", "KeyType": "HASH" },
                    { "AttributeName": "total", "KeyType": "RANGE" }
                ],
                "Projection": { "ProjectionType": "KEYS_ONLY" }
            }]
        }),
        None,
    );
}

#[test]
fn a_key_name_the_cli_shorthand_cannot_carry_goes_as_json() {
    check(
        "odd-key-names",
        json!({
            "TableName": "odd.names",
            "AttributeDefinitions": [{ "AttributeName": "a,b=c", "AttributeType": "S" }],
            "KeySchema": [{ "AttributeName": "a,b=c", "KeyType": "HASH" }],
            "BillingMode": "PAY_PER_REQUEST"
        }),
        None,
    );
}
