//! Transaction shapes: TransactWriteItems and TransactGetItems.

use std::collections::BTreeMap;

use dynotable_types::{AttributeValue, Checked, Item};
use serde::{Deserialize, Serialize};

use super::ConsumedCapacity;
use super::item::{ItemCollectionMetrics, Names};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TransactWriteItemsInput {
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub transact_items: Option<Vec<TransactWriteItem>>,
    pub return_consumed_capacity: Option<String>,
    pub return_item_collection_metrics: Option<String>,
    pub client_request_token: Option<String>,
}

/// One action: exactly one of the four members is set.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure TransactWriteItem")]
pub struct TransactWriteItem {
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub condition_check: Option<TransactAction>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub put: Option<TransactAction>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub delete: Option<TransactAction>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub update: Option<TransactAction>,
}

/// The members of ConditionCheck, Put, Delete and Update (each uses its own subset).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure")]
pub struct TransactAction {
    pub table_name: Option<String>,
    pub key: Option<Checked<Item>>,
    pub item: Option<Checked<Item>>,
    pub update_expression: Option<String>,
    pub condition_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    /// Each value checked apart: the service names the placeholder of a bad one (rule B.16).
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_values: Option<BTreeMap<String, Checked<AttributeValue>>>,
    pub return_values_on_condition_check_failure: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct TransactWriteItemsOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_collection_metrics: Option<BTreeMap<String, Vec<ItemCollectionMetrics>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TransactGetItemsInput {
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub transact_items: Option<Vec<TransactGetItem>>,
    pub return_consumed_capacity: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure TransactGetItem")]
pub struct TransactGetItem {
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub get: Option<TransactGet>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure Get")]
pub struct TransactGet {
    pub table_name: Option<String>,
    pub key: Option<Checked<Item>>,
    pub projection_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct TransactGetItemsOutput {
    pub responses: Vec<ItemResponse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ItemResponse {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
}
