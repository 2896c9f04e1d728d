//! PartiQL shapes: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction (API reference
//! `API_ExecuteStatement.html`, `API_BatchExecuteStatement.html`, `API_ExecuteTransaction.html`,
//! `API_BatchStatementRequest.html`, `API_BatchStatementResponse.html`,
//! `API_BatchStatementError.html`, `API_ParameterizedStatement.html`).
//!
//! `Parameters` hold attribute values, so they are `Checked`: a value error in them is the
//! service's `ValidationException`, reported after the whole body parsed.

use dynotable_types::{AttributeValue, Checked, Item};
use serde::{Deserialize, Serialize};

use super::ConsumedCapacity;
use super::transact::ItemResponse;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ExecuteStatementInput {
    pub statement: Option<String>,
    pub parameters: Option<Checked<Vec<AttributeValue>>>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    pub next_token: Option<String>,
    pub return_consumed_capacity: Option<String>,
    pub limit: Option<i64>,
    pub return_values_on_condition_check_failure: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ExecuteStatementOutput {
    /// The items a SELECT returned, or what a RETURNING clause asked for; `[]` for other writes.
    pub items: Vec<Item>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<ConsumedCapacity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_evaluated_key: Option<Item>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct BatchExecuteStatementInput {
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub statements: Option<Vec<BatchStatementRequest>>,
    pub return_consumed_capacity: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure BatchStatementRequest")]
pub struct BatchStatementRequest {
    pub statement: Option<String>,
    pub parameters: Option<Checked<Vec<AttributeValue>>>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    pub return_values_on_condition_check_failure: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchExecuteStatementOutput {
    pub responses: Vec<BatchStatementResponse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
}

/// One statement's outcome: the item read (or returned), or why the statement failed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchStatementResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<BatchStatementError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
}

/// `BatchStatementError`: `Code` is one of `ConditionalCheckFailed`, `DuplicateItem`,
/// `ValidationError`, `ResourceNotFound`, `ItemCollectionSizeLimitExceeded`, ...
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchStatementError {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ExecuteTransactionInput {
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub transact_statements: Option<Vec<ParameterizedStatement>>,
    pub client_request_token: Option<String>,
    pub return_consumed_capacity: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure ParameterizedStatement")]
pub struct ParameterizedStatement {
    pub statement: Option<String>,
    pub parameters: Option<Checked<Vec<AttributeValue>>>,
    pub return_values_on_condition_check_failure: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ExecuteTransactionOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub responses: Option<Vec<ItemResponse>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
}
