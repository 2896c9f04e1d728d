//! A whole Query or Scan as the builder holds it, and the request it becomes.
//!
//! [`ReadRequest`] is what the user picks: table or index, key condition (Query only), filter,
//! projection, direction, page size, consistency, ReturnConsumedCapacity. [`ReadRequest::generate`]
//! writes its expressions with one shared set of placeholders into a [`GeneratedRequest`] —
//! the request exactly as it is sent — which gives the DynamoDB JSON body
//! ([`GeneratedRequest::to_json`]) and is what every code exporter ([`crate::codegen`]) reads.
//! [`ReadRequest::check`] adds DynamoDB's verdict on the expressions (see [`crate::expression`]).

use std::collections::BTreeMap;

use dynotable_types::AttributeValue;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::attributes::ExpressionAttributes;
use crate::condition::ConditionState;
use crate::error::{BuildError, Diagnostic, ExpressionParameter};
use crate::expression::{ExpressionText, check_request};
use crate::key_condition::{KeyConditionState, KeySchemaState};
use crate::update::ProjectionState;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ReadOperation {
    Query,
    Scan,
}

impl ReadOperation {
    pub fn name(self) -> &'static str {
        match self {
            ReadOperation::Query => "Query",
            ReadOperation::Scan => "Scan",
        }
    }
}

/// Sort-key order of a Query's results (`ScanIndexForward`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    #[default]
    Ascending,
    Descending,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[allow(clippy::upper_case_acronyms)]
pub enum ReturnConsumedCapacity {
    INDEXES,
    TOTAL,
    NONE,
}

impl ReturnConsumedCapacity {
    pub fn as_str(self) -> &'static str {
        match self {
            ReturnConsumedCapacity::INDEXES => "INDEXES",
            ReturnConsumedCapacity::TOTAL => "TOTAL",
            ReturnConsumedCapacity::NONE => "NONE",
        }
    }
}

/// A Query or Scan as built in the UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ReadRequest {
    pub operation: ReadOperation,
    pub table_name: String,
    #[serde(default)]
    pub index_name: Option<String>,
    #[serde(default)]
    pub key_condition: Option<KeyConditionState>,
    #[serde(default)]
    pub filter: Option<ConditionState>,
    #[serde(default)]
    pub projection: Option<ProjectionState>,
    #[serde(default)]
    pub direction: Direction,
    /// Items evaluated per page (`Limit`); every page is still read.
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub consistent_read: bool,
    #[serde(default)]
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

/// The request as sent: every parameter the builder sets, expressions written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct GeneratedRequest {
    pub operation: ReadOperation,
    pub table_name: String,
    pub index_name: Option<String>,
    pub key_condition_expression: Option<String>,
    pub filter_expression: Option<String>,
    pub projection_expression: Option<String>,
    pub expression_attribute_names: Option<BTreeMap<String, String>>,
    #[cfg_attr(feature = "specta", specta(type = Option<BTreeMap<String, crate::typescript::AttributeValueJson>>))]
    pub expression_attribute_values: Option<BTreeMap<String, AttributeValue>>,
    /// `Some(false)` for newest first; absent means the default, ascending.
    pub scan_index_forward: Option<bool>,
    pub limit: Option<u32>,
    /// `Some(true)` for strongly consistent reads; absent means eventually consistent.
    pub consistent_read: Option<bool>,
    pub return_consumed_capacity: Option<ReturnConsumedCapacity>,
}

impl ReadRequest {
    /// Writes the request's expressions (key condition, filter, projection, in that order,
    /// sharing one set of placeholders).
    pub fn generate(&self) -> Result<GeneratedRequest, BuildError> {
        if self.table_name.is_empty() {
            return Err(BuildError::new("Choose the table to read"));
        }
        match (self.operation, &self.key_condition) {
            (ReadOperation::Query, None) => {
                return Err(BuildError::new(
                    "A Query needs a key condition on the partition key",
                ));
            }
            (ReadOperation::Scan, Some(_)) => {
                return Err(BuildError::new(
                    "A Scan has no key condition; use a filter instead",
                ));
            }
            _ => {}
        }
        if self.limit == Some(0) {
            return Err(BuildError::new("Limit is at least 1 (items evaluated per page)"));
        }
        let mut attrs = ExpressionAttributes::new();
        let key_condition_expression = self
            .key_condition
            .as_ref()
            .map(|k| k.write(&mut attrs))
            .transpose()?;
        let filter_expression = self.filter.as_ref().map(|f| f.write(&mut attrs)).transpose()?;
        let projection_expression = self
            .projection
            .as_ref()
            .map(|p| p.write(&mut attrs))
            .transpose()?;
        let is_query = self.operation == ReadOperation::Query;
        Ok(GeneratedRequest {
            operation: self.operation,
            table_name: self.table_name.clone(),
            index_name: self.index_name.clone().filter(|name| !name.is_empty()),
            key_condition_expression,
            filter_expression,
            projection_expression,
            expression_attribute_names: attrs.names(),
            expression_attribute_values: attrs.values(),
            scan_index_forward: (is_query && self.direction == Direction::Descending).then_some(false),
            limit: self.limit,
            consistent_read: self.consistent_read.then_some(true),
            return_consumed_capacity: self.return_consumed_capacity,
        })
    }

    /// What DynamoDB would say about the generated request's expressions, checked against the
    /// key schema of the table or index it reads (`key_schema`).
    pub fn check(&self, key_schema: Option<&KeySchemaState>) -> Result<Vec<Diagnostic>, BuildError> {
        let generated = self.generate()?;
        Ok(check_request(
            &generated.expressions(),
            generated.expression_attribute_names.clone(),
            generated.expression_attribute_values.clone(),
            key_schema,
        ))
    }
}

impl GeneratedRequest {
    /// The request's expressions with the parameter each is sent in.
    pub fn expressions(&self) -> Vec<ExpressionText> {
        [
            (
                ExpressionParameter::KeyConditionExpression,
                &self.key_condition_expression,
            ),
            (ExpressionParameter::FilterExpression, &self.filter_expression),
            (
                ExpressionParameter::ProjectionExpression,
                &self.projection_expression,
            ),
        ]
        .into_iter()
        .filter_map(|(parameter, text)| {
            text.as_ref().map(|text| ExpressionText {
                parameter,
                text: text.clone(),
            })
        })
        .collect()
    }

    /// The DynamoDB JSON body of the request (`X-Amz-Target: DynamoDB_20120810.Query`/`.Scan`),
    /// keys in sorted order (serde_json maps).
    pub fn to_json(&self) -> Value {
        let mut body = Map::new();
        body.insert("TableName".into(), json!(self.table_name));
        let mut put = |key: &str, value: Option<Value>| {
            if let Some(value) = value {
                body.insert(key.into(), value);
            }
        };
        put("IndexName", self.index_name.as_ref().map(|v| json!(v)));
        put(
            "KeyConditionExpression",
            self.key_condition_expression.as_ref().map(|v| json!(v)),
        );
        put(
            "FilterExpression",
            self.filter_expression.as_ref().map(|v| json!(v)),
        );
        put(
            "ProjectionExpression",
            self.projection_expression.as_ref().map(|v| json!(v)),
        );
        put(
            "ExpressionAttributeNames",
            self.expression_attribute_names.as_ref().map(|v| json!(v)),
        );
        put(
            "ExpressionAttributeValues",
            self.expression_attribute_values.as_ref().map(|v| json!(v)),
        );
        put("ScanIndexForward", self.scan_index_forward.map(|v| json!(v)));
        put("Limit", self.limit.map(|v| json!(v)));
        put("ConsistentRead", self.consistent_read.map(|v| json!(v)));
        put(
            "ReturnConsumedCapacity",
            self.return_consumed_capacity.map(|v| json!(v.as_str())),
        );
        Value::Object(body)
    }
}
