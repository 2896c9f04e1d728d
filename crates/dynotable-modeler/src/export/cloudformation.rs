//! A CloudFormation template (JSON) with one `AWS::DynamoDB::Table` per table of the model.
//!
//! `AWS::DynamoDB::Table` takes CreateTable's members under the same names (TableName,
//! AttributeDefinitions, KeySchema, BillingMode, ProvisionedThroughput, GlobalSecondaryIndexes,
//! LocalSecondaryIndexes), so each resource's properties are the table's CreateTable request
//! ([`super::create_table::create_table_request`]): one definition, nothing re-derived.

use serde_json::{Map, Value, json};

use super::create_table::create_table_request;
use super::pascal;
use crate::Model;

pub fn cloudformation(model: &Model) -> String {
    let mut resources = Map::new();
    for table in &model.tables {
        let mut id = pascal(&table.name);
        if !id.ends_with("Table") {
            id.push_str("Table");
        }
        resources.insert(
            id,
            json!({ "Type": "AWS::DynamoDB::Table", "Properties": create_table_request(table) }),
        );
    }
    let mut template = json!({
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": format!("DynamoDB tables of the data model {}", model.name),
        "Resources": Value::Object(resources),
    });
    if !model.description.is_empty() {
        template["Description"] = json!(model.description);
    }
    let mut text = serde_json::to_string_pretty(&template).unwrap_or_default();
    text.push('\n');
    text
}
