//! A table definition as code: the CreateTable request body (and the UpdateTimeToLive that
//! follows it when the table has a TTL attribute, since CreateTable cannot carry one), the same
//! as AWS CLI commands, and as a CloudFormation `AWS::DynamoDB::Table` resource.
//!
//! The input is the CreateTable request exactly as it would be sent (DynamoDB's JSON, PascalCase
//! members): one definition, three renderings, nothing re-derived. The output is deterministic:
//! golden files under `tests/codegen/tables/` pin it.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::cli::shell_quoted;
use super::pascal_identifier;

/// A table definition in each form the create-table screen shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TableCode {
    /// The CreateTable request body, pretty-printed.
    pub create_table: String,
    /// The UpdateTimeToLive request body sent once the table exists, when it has a TTL attribute.
    pub update_time_to_live: Option<String>,
    /// `aws dynamodb create-table …` (then `wait table-exists` and `update-time-to-live`).
    pub aws_cli: String,
    /// A CloudFormation template (YAML) with the table as its one resource.
    pub cloud_formation: String,
}

/// The code of `create_table` (a CreateTable request body) with `ttl_attribute` enabled after it.
pub fn table_code(create_table: &Value, ttl_attribute: Option<&str>) -> TableCode {
    let table_name = create_table["TableName"].as_str().unwrap_or_default();
    let update_time_to_live = ttl_attribute.map(|attribute| {
        pretty(&json!({
            "TableName": table_name,
            "TimeToLiveSpecification": { "Enabled": true, "AttributeName": attribute },
        }))
    });
    TableCode {
        create_table: pretty(create_table),
        update_time_to_live,
        aws_cli: aws_cli(create_table, ttl_attribute),
        cloud_formation: cloud_formation(create_table, ttl_attribute),
    }
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// One `create-table` command, one option a line: simple lists in the CLI's shorthand
/// (`AttributeName=pk,AttributeType=S`), structures in compact JSON, every argument single-quoted.
fn aws_cli(request: &Value, ttl_attribute: Option<&str>) -> String {
    let table_name = request["TableName"].as_str().unwrap_or_default();
    let mut args = vec![format!("--table-name {}", shell_quoted(table_name))];
    // The shorthand cannot carry a name with `,` `=` or brackets in it: such lists go as JSON.
    let shorthand = |items: &Value, fields: &[&str]| -> Vec<String> {
        let plain = |text: &str| {
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-#:".contains(c))
        };
        let all_plain = items.as_array().into_iter().flatten().all(|item| {
            fields
                .iter()
                .all(|f| plain(item[*f].as_str().unwrap_or_default()))
        });
        if !all_plain {
            return vec![shell_quoted(&items.to_string())];
        }
        items
            .as_array()
            .into_iter()
            .flatten()
            .map(|item| {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|f| format!("{f}={}", item[*f].as_str().unwrap_or_default()))
                    .collect();
                shell_quoted(&parts.join(","))
            })
            .collect()
    };
    let definitions = shorthand(
        &request["AttributeDefinitions"],
        &["AttributeName", "AttributeType"],
    );
    args.push(format!("--attribute-definitions {}", definitions.join(" ")));
    let keys = shorthand(&request["KeySchema"], &["AttributeName", "KeyType"]);
    args.push(format!("--key-schema {}", keys.join(" ")));
    if let Some(mode) = request["BillingMode"].as_str() {
        args.push(format!("--billing-mode {mode}"));
    }
    if let Some(throughput) = request.get("ProvisionedThroughput") {
        args.push(format!(
            "--provisioned-throughput ReadCapacityUnits={},WriteCapacityUnits={}",
            throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"]
        ));
    }
    for (member, option) in [
        ("LocalSecondaryIndexes", "--local-secondary-indexes"),
        ("GlobalSecondaryIndexes", "--global-secondary-indexes"),
    ] {
        if let Some(indexes) = request.get(member) {
            args.push(format!("{option} {}", shell_quoted(&indexes.to_string())));
        }
    }
    if let Some(stream) = request.get("StreamSpecification") {
        args.push(format!(
            "--stream-specification StreamEnabled=true,StreamViewType={}",
            stream["StreamViewType"].as_str().unwrap_or_default()
        ));
    }
    if let Some(tags) = request.get("Tags") {
        args.push(format!("--tags {}", shell_quoted(&tags.to_string())));
    }
    let mut out = format!("aws dynamodb create-table \\\n  {}\n", args.join(" \\\n  "));
    if let Some(attribute) = ttl_attribute {
        let spec = json!({ "Enabled": true, "AttributeName": attribute }).to_string();
        out.push_str(&format!(
            "aws dynamodb wait table-exists --table-name {name}\naws dynamodb update-time-to-live --table-name {name} \\\n  --time-to-live-specification {}\n",
            shell_quoted(&spec),
            name = shell_quoted(table_name),
        ));
    }
    out
}

/// The table as a template's one resource. CloudFormation takes the same members as CreateTable
/// (with the stream's view type alone, and TTL as `TimeToLiveSpecification`).
fn cloud_formation(request: &Value, ttl_attribute: Option<&str>) -> String {
    let table_name = request["TableName"].as_str().unwrap_or_default();
    let mut properties = Map::new();
    for member in [
        "TableName",
        "AttributeDefinitions",
        "KeySchema",
        "BillingMode",
        "ProvisionedThroughput",
        "LocalSecondaryIndexes",
        "GlobalSecondaryIndexes",
    ] {
        if let Some(value) = request.get(member) {
            properties.insert(member.to_owned(), value.clone());
        }
    }
    if let Some(view_type) = request.pointer("/StreamSpecification/StreamViewType") {
        properties.insert(
            "StreamSpecification".to_owned(),
            json!({ "StreamViewType": view_type }),
        );
    }
    if let Some(attribute) = ttl_attribute {
        properties.insert(
            "TimeToLiveSpecification".to_owned(),
            json!({ "AttributeName": attribute, "Enabled": true }),
        );
    }
    if let Some(tags) = request.get("Tags") {
        properties.insert("Tags".to_owned(), tags.clone());
    }
    let mut logical_id = pascal_identifier(table_name);
    if !logical_id.ends_with("Table") {
        logical_id.push_str("Table");
    }
    let template = json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Resources": {
            logical_id: { "Type": "AWS::DynamoDB::Table", "Properties": Value::Object(properties) }
        }
    });
    let mut out = String::new();
    yaml(&template, 0, &mut out);
    out
}

/// YAML, block style: strings double-quoted with JSON's escapes (which YAML's double-quoted
/// scalars share), so a date-like version or a name like `yes` stays a string; numbers and
/// booleans bare; keys bare (CloudFormation's are plain words). Members come in the JSON map's
/// order (sorted), which keeps the output stable.
fn yaml(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                out.push_str(&format!("{pad}{key}:"));
                block(item, indent, out);
            }
        }
        Value::Array(items) => {
            for item in items {
                out.push_str(&format!("{pad}-"));
                match item {
                    Value::Object(map) if !map.is_empty() => {
                        // The first member on the dash's line, the others under it.
                        let mut first = true;
                        for (key, member) in map {
                            if first {
                                out.push_str(&format!(" {key}:"));
                                first = false;
                            } else {
                                out.push_str(&format!("{pad}  {key}:"));
                            }
                            block(member, indent + 2, out);
                        }
                    }
                    _ => block(item, indent, out),
                }
            }
        }
        scalar => out.push_str(&format!("{pad}{}\n", scalar_text(scalar))),
    }
}

/// What follows `key:` or `-`: a scalar on the same line, a collection on the lines under it.
fn block(value: &Value, indent: usize, out: &mut String) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            yaml(value, indent + 2, out);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            yaml(value, indent + 2, out);
        }
        Value::Object(_) => out.push_str(" {}\n"),
        Value::Array(_) => out.push_str(" []\n"),
        scalar => out.push_str(&format!(" {}\n", scalar_text(scalar))),
    }
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => Value::String(text.clone()).to_string(),
        other => other.to_string(),
    }
}
