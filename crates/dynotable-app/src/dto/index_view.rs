//! The indexes-side-by-side view: the same items grouped by the base table's key and by each
//! index's key, with each item's place (or absence, and why) in every column.

use serde::{Deserialize, Serialize};

use super::{AttributeValue, IndexKind, Item, KeySchema, Projection};

/// Which items the view lays out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ViewSource {
    /// The base-table collection of one partition-key value (up to `limit` items).
    Partition { value: AttributeValue, limit: u32 },
    /// The first `limit` items of a Scan of the table.
    Scan { limit: u32 },
}

/// One item of the view, identified by its position in `items`.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ViewItem {
    pub id: u32,
    /// The base table's key attributes.
    pub key: Item,
    pub item: Item,
    /// Its size by rule B.1.
    pub size_bytes: u32,
}

/// The base table (`index: None`) or one index.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ViewColumn {
    pub index: Option<String>,
    /// `None` for the base table.
    pub kind: Option<IndexKind>,
    pub keys: KeySchema,
    /// What the index copies; `None` for the base table (every attribute).
    pub projection: Option<Projection>,
    /// The attributes a Query on this column returns (of the items shown), in name order.
    pub query_returns: Vec<String>,
    /// What a Query asking for more than the projection does, in a sentence.
    pub query_note: String,
    /// Collections by partition-key value, in the order their first item appears.
    pub collections: Vec<ViewCollection>,
    /// Items with no entry here (sparse indexes), with why.
    pub absent: Vec<AbsentItem>,
}

/// The entries of one partition-key value in one column, in sort-key order.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ViewCollection {
    pub partition_value: AttributeValue,
    pub entries: Vec<ViewEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ViewEntry {
    pub item_id: u32,
    pub sort_value: Option<AttributeValue>,
    /// The attributes the entry holds (all of them in the base table).
    pub projected: Item,
    /// The entry's size (rule B.1, without the 100-byte overhead): what index reads are charged on.
    pub size_bytes: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AbsentItem {
    pub item_id: u32,
    /// The index key attributes the item lacks.
    pub missing: Vec<String>,
    pub reason: String,
}

/// Where one item sits in one column.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    /// The column's index name, `None` for the base table.
    pub index: Option<String>,
    /// Position of its collection in the column and its own position in the collection;
    /// `None` when it has no entry there.
    pub collection: Option<u32>,
    pub position: Option<u32>,
}

/// A collection's size against the item-collection limit (tables with an LSI, rule B.7).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionGauge {
    pub partition_value: AttributeValue,
    /// Base items plus LSI entries.
    #[specta(type = specta_typescript::Number)]
    pub size_bytes: f64,
    #[specta(type = specta_typescript::Number)]
    pub fraction: f64,
    /// From 80 % of the limit.
    pub warning: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionLimits {
    #[specta(type = specta_typescript::Number)]
    pub limit_bytes: f64,
    #[specta(type = specta_typescript::Number)]
    pub warning_fraction: f64,
    /// Largest first.
    pub collections: Vec<CollectionGauge>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct IndexesSideBySide {
    pub table: String,
    pub items: Vec<ViewItem>,
    /// The base table first, then each index in the table's order.
    pub columns: Vec<ViewColumn>,
    /// `placements[itemId]`: the item's place in every column, in column order.
    pub placements: Vec<Vec<Placement>>,
    /// Only on tables with an LSI.
    pub collection_limits: Option<CollectionLimits>,
    /// What loading the items consumed.
    #[specta(type = Option<specta_typescript::Number>)]
    pub read_units: Option<f64>,
    /// More items were there than the limit allowed.
    pub truncated: bool,
}
