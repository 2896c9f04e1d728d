//! A Query of one item collection, and the pages it returns with what each page cost.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{AttributeValue, Item};

/// A sort-key condition: exactly the operators DynamoDB allows on a sort key (rule B.5,
/// docs/dynamodb-rules.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum SortKeyCondition {
    Eq {
        value: AttributeValue,
    },
    Lt {
        value: AttributeValue,
    },
    Le {
        value: AttributeValue,
    },
    Gt {
        value: AttributeValue,
    },
    Ge {
        value: AttributeValue,
    },
    BeginsWith {
        value: AttributeValue,
    },
    Between {
        low: AttributeValue,
        high: AttributeValue,
    },
}

/// One Query request, as the collection view builds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct QueryInput {
    pub table: String,
    /// The index to query, or `None` for the table.
    pub index: Option<String>,
    pub partition_value: AttributeValue,
    /// On an index whose partition key has several attributes (rule B.18), the values of the
    /// others, in key-schema order (`KeySchema::more_partition_keys`; left out when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[specta(optional)]
    pub more_partition_values: Vec<AttributeValue>,
    /// On an index whose sort key has several attributes (rule B.18.5), the values the leading
    /// sort-key attributes are held equal to, in key-schema order; `sort_condition` is then on
    /// the next one (left out when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[specta(optional)]
    pub sort_equal_values: Vec<AttributeValue>,
    pub sort_condition: Option<SortKeyCondition>,
    /// `false` reads in descending sort-key order (newest first for timestamps).
    pub scan_index_forward: bool,
    pub limit: Option<u32>,
    pub consistent_read: bool,
    /// Attribute names to return, comma-separated, as plain names or dotted paths (`a, b.c`);
    /// a `#name` placeholder is made for every name, so reserved words need no care.
    pub projection: Option<String>,
    /// A FilterExpression, sent as written with `filter_names` and `filter_values`.
    pub filter: Option<String>,
    /// ExpressionAttributeNames the filter uses (`#status` → `status`).
    pub filter_names: Option<BTreeMap<String, String>>,
    /// ExpressionAttributeValues the filter uses (`:active` → `{"S":"ACTIVE"}`).
    pub filter_values: Option<Item>,
    pub exclusive_start_key: Option<Item>,
}

/// Capacity units consumed, per table and per index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CapacityFigure {
    pub name: String,
    #[specta(type = specta_typescript::Number)]
    pub units: f64,
}

/// (Also an argument: the cost commands reconcile an estimate with a reported figure.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConsumedCapacity {
    #[specta(type = specta_typescript::Number)]
    pub total: f64,
    #[specta(type = Option<specta_typescript::Number>)]
    pub table: Option<f64>,
    pub indexes: Vec<CapacityFigure>,
}

/// Why a page ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum PageStop {
    /// The request's Limit was reached.
    Limit,
    /// 1 MB of data was read (rule B.4: a Query or Scan reads at most 1 MB per call).
    Size,
    /// The collection (or the key range) ended.
    End,
}

/// One page of a Query or Scan.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct QueryPage {
    pub items: Vec<Item>,
    pub count: u32,
    pub scanned_count: u32,
    pub last_evaluated_key: Option<Item>,
    pub consumed_capacity: Option<ConsumedCapacity>,
    pub stop: PageStop,
    /// When the page was not read but answered from the rows a statistics scan kept
    /// (`crate::kept_rows`): when the scan read them, in seconds since the epoch. No read was
    /// sent, so nothing was consumed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[specta(optional, type = specta_typescript::Number)]
    pub kept_from_scan: Option<f64>,
}

/// GetItem's answer: the item, or `None` when no item has the key, and what the read cost.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ItemRead {
    pub item: Option<Item>,
    pub consumed_capacity: Option<ConsumedCapacity>,
}
