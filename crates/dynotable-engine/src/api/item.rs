//! Data-plane shapes: the item operations, Query and Scan, and the batch operations.
//!
//! Members that hold attribute values are `Checked<...>` (from dynotable-types): the whole body
//! is parsed first — a shape error anywhere is a `SerializationException` — and the first value
//! error is reported afterwards as the service's `ValidationException`.

use std::collections::BTreeMap;

use dynotable_types::{AttributeValue, Checked, Item};
use serde::{Deserialize, Serialize};

use super::ConsumedCapacity;

/// `ExpressionAttributeNames`.
pub type Names = BTreeMap<String, String>;

/// `Expected`: the legacy condition of a write, one entry per attribute.
pub type Expected = BTreeMap<String, ExpectedAttributeValue>;

/// `KeyConditions`, `QueryFilter`, `ScanFilter`: legacy conditions, one per attribute.
pub type Conditions = BTreeMap<String, Condition>;

/// `AttributeUpdates`: the legacy update of UpdateItem, one entry per attribute.
pub type AttributeUpdates = BTreeMap<String, AttributeValueUpdate>;

/// `ExpectedAttributeValue` (legacy): `Value` with `Exists`, or `ComparisonOperator` with
/// `AttributeValueList` (see `crate::legacy`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure ExpectedAttributeValue")]
pub struct ExpectedAttributeValue {
    #[serde(deserialize_with = "crate::api::body::field_value")]
    pub value: Option<Checked<AttributeValue>>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub exists: Option<bool>,
    pub comparison_operator: Option<String>,
    pub attribute_value_list: Option<Checked<Vec<AttributeValue>>>,
}

/// `Condition` (legacy): a comparison operator and its values.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure Condition")]
pub struct Condition {
    pub comparison_operator: Option<String>,
    pub attribute_value_list: Option<Checked<Vec<AttributeValue>>>,
}

/// `AttributeValueUpdate` (legacy): `PUT` (the default), `DELETE` or `ADD`, and a value.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure AttributeValueUpdate")]
pub struct AttributeValueUpdate {
    #[serde(deserialize_with = "crate::api::body::field_value")]
    pub value: Option<Checked<AttributeValue>>,
    pub action: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct PutItemInput {
    pub table_name: Option<String>,
    pub item: Option<Checked<Item>>,
    pub condition_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    pub expression_attribute_values: Option<Checked<Item>>,
    pub return_values: Option<String>,
    pub return_consumed_capacity: Option<String>,
    pub return_item_collection_metrics: Option<String>,
    pub return_values_on_condition_check_failure: Option<String>,
    /// Legacy conditional parameters (see `crate::legacy`).
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expected: Option<Expected>,
    pub conditional_operator: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct WriteItemOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes: Option<Item>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<ConsumedCapacity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_collection_metrics: Option<ItemCollectionMetrics>,
}

/// `ItemCollectionMetrics`: on tables with an LSI, the collection a write touched and its size.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ItemCollectionMetrics {
    pub item_collection_key: Item,
    pub size_estimate_range_g_b: [f64; 2],
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct GetItemInput {
    pub table_name: Option<String>,
    pub key: Option<Checked<Item>>,
    pub projection_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    pub return_consumed_capacity: Option<String>,
    pub attributes_to_get: Option<Vec<String>>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetItemOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
    /// The item as stored, when the response returns it unchanged (set instead of `item`; see
    /// `read::page`, "Stored items").
    #[serde(rename = "Item", skip_serializing_if = "Option::is_none")]
    pub stored_item: Option<Box<serde_json::value::RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<ConsumedCapacity>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DeleteItemInput {
    pub table_name: Option<String>,
    pub key: Option<Checked<Item>>,
    pub condition_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    pub expression_attribute_values: Option<Checked<Item>>,
    pub return_values: Option<String>,
    pub return_consumed_capacity: Option<String>,
    pub return_item_collection_metrics: Option<String>,
    pub return_values_on_condition_check_failure: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expected: Option<Expected>,
    pub conditional_operator: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct UpdateItemInput {
    pub table_name: Option<String>,
    pub key: Option<Checked<Item>>,
    pub update_expression: Option<String>,
    pub condition_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    pub expression_attribute_values: Option<Checked<Item>>,
    pub return_values: Option<String>,
    pub return_consumed_capacity: Option<String>,
    pub return_item_collection_metrics: Option<String>,
    pub return_values_on_condition_check_failure: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expected: Option<Expected>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub attribute_updates: Option<AttributeUpdates>,
    pub conditional_operator: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct QueryInput {
    pub table_name: Option<String>,
    pub index_name: Option<String>,
    pub key_condition_expression: Option<String>,
    pub filter_expression: Option<String>,
    pub projection_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    pub expression_attribute_values: Option<Checked<Item>>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub scan_index_forward: Option<bool>,
    pub limit: Option<i64>,
    pub exclusive_start_key: Option<Checked<Item>>,
    pub select: Option<String>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    pub return_consumed_capacity: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub key_conditions: Option<Conditions>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub query_filter: Option<Conditions>,
    pub attributes_to_get: Option<Vec<String>>,
    pub conditional_operator: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ScanInput {
    pub table_name: Option<String>,
    pub index_name: Option<String>,
    pub filter_expression: Option<String>,
    pub projection_expression: Option<String>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    /// Checked value by value: Scan names the placeholder of a bad value (rule B.16).
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_values: Option<BTreeMap<String, Checked<AttributeValue>>>,
    pub limit: Option<i64>,
    pub exclusive_start_key: Option<Checked<Item>>,
    pub select: Option<String>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    pub return_consumed_capacity: Option<String>,
    pub segment: Option<i64>,
    pub total_segments: Option<i64>,
    #[serde(deserialize_with = "crate::api::body::map")]
    pub scan_filter: Option<Conditions>,
    pub attributes_to_get: Option<Vec<String>>,
    pub conditional_operator: Option<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ReadPageOutput {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<Item>>,
    /// The items as stored, when the response returns them unchanged (set instead of `items`;
    /// see `read::page`, "Stored items"), already written into the start of the response
    /// body, which [`ReadPageOutput::into_json`] completes.
    #[serde(skip)]
    pub stored_items: Option<StoredItems>,
    pub count: i64,
    pub scanned_count: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_evaluated_key: Option<Item>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<ConsumedCapacity>,
}

impl ReadPageOutput {
    /// The response's JSON: serde's, or, with stored items, the body they were written into,
    /// completed with the other members (`Count`, `ScannedCount`, ...) as serde writes them.
    pub fn into_json(mut self) -> Result<Vec<u8>, serde_json::Error> {
        let stored = self.stored_items.take();
        let rest = serde_json::to_vec(&self)?;
        let Some(stored) = stored else {
            return Ok(rest);
        };
        let mut out = stored.json;
        out.push(b']');
        // `rest` is an object: `{}` or `{"Count":...}`.
        if rest.len() > 2 {
            out.push(b',');
        }
        out.extend_from_slice(rest.get(1..).unwrap_or_default());
        Ok(out)
    }
}

/// The items of a page returned as stored, written straight into the response body: the
/// opening `{"Items":[`, then each item's stored JSON, comma-separated
/// ([`ReadPageOutput::into_json`] closes the array and adds the other members).
///
/// The bodies are the ones the engine itself wrote with serde_json (`items::put_entry`) into a
/// database it alone writes, so they go out unchecked: checking them again was a quarter of a
/// 100-item Query's CPU (bench/README.md). A body that grows large moves into a buffer of the
/// engine's [`PageBuffers`](crate::PageBuffers), which the server gives back once the response
/// is sent (see `page_buffers`).
#[derive(Debug)]
pub struct StoredItems {
    json: Vec<u8>,
    items: usize,
}

impl StoredItems {
    const OPENING: &'static [u8] = b"{\"Items\":[";

    pub(crate) fn new() -> StoredItems {
        let mut json = Vec::with_capacity(16 * 1024);
        json.extend_from_slice(Self::OPENING);
        StoredItems { json, items: 0 }
    }

    /// Appends one item's stored JSON.
    pub(crate) fn push(&mut self, body: &[u8], buffers: &crate::PageBuffers) {
        let needed = self.json.len() + 1 + body.len();
        if needed > self.json.capacity()
            && needed > crate::page_buffers::LARGE_BODY_BYTES
            && self.json.capacity() < crate::page_buffers::NEW_BUFFER_BYTES
        {
            let mut buffer = buffers.take(needed);
            buffer.extend_from_slice(&self.json);
            self.json = buffer;
        }
        if self.items > 0 {
            self.json.push(b',');
        }
        self.json.extend_from_slice(body);
        self.items += 1;
    }

    /// How many items were written.
    pub fn len(&self) -> usize {
        self.items
    }

    /// Whether no item was written.
    pub fn is_empty(&self) -> bool {
        self.items == 0
    }

    /// The items' JSON as written so far (the array's elements, without the opening).
    pub fn items_json(&self) -> &[u8] {
        &self.json[Self::OPENING.len()..]
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct BatchGetItemInput {
    #[serde(deserialize_with = "crate::api::body::map")]
    pub request_items: Option<BTreeMap<String, KeysAndAttributes>>,
    pub return_consumed_capacity: Option<String>,
}

#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure KeysAndAttributes")]
pub struct KeysAndAttributes {
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_checked_keys",
        deserialize_with = "crate::api::objects::keys"
    )]
    pub keys: Option<Checked<Vec<Item>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection_expression: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::api::body::map")]
    pub expression_attribute_names: Option<Names>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub consistent_read: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes_to_get: Option<Vec<String>>,
}

fn serialize_checked_keys<S: serde::Serializer>(
    keys: &Option<Checked<Vec<Item>>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match keys {
        Some(Checked(Ok(keys))) => keys.serialize(s),
        _ => s.serialize_none(),
    }
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchGetItemOutput {
    pub responses: BTreeMap<String, Vec<Item>>,
    pub unprocessed_keys: BTreeMap<String, KeysAndAttributes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct BatchWriteItemInput {
    #[serde(deserialize_with = "crate::api::body::map")]
    pub request_items: Option<BTreeMap<String, Vec<WriteRequest>>>,
    pub return_consumed_capacity: Option<String>,
    pub return_item_collection_metrics: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure WriteRequest")]
pub struct WriteRequest {
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub put_request: Option<PutRequest>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub delete_request: Option<DeleteRequest>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure PutRequest")]
pub struct PutRequest {
    pub item: Option<Checked<Item>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure DeleteRequest")]
pub struct DeleteRequest {
    pub key: Option<Checked<Item>>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct BatchWriteItemOutput {
    pub unprocessed_items: BTreeMap<String, Vec<serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<Vec<ConsumedCapacity>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_collection_metrics: Option<BTreeMap<String, Vec<ItemCollectionMetrics>>>,
}
