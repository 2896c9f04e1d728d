//! Tables as the UI sees them: names, key schemas, indexes with their projections, counts,
//! stream and TTL state, and the statistics of their item collections.

use serde::{Deserialize, Serialize};

use super::AttributeValue;

/// The scalar types a key attribute can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
pub enum ScalarType {
    S,
    N,
    B,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeyAttribute {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: ScalarType,
}

/// A table's or an index's primary key. A global secondary index's key may have up to four
/// partition-key and four sort-key attributes (rule B.18, docs/dynamodb-rules.md): the first of
/// each are `partition_key` and `sort_key`, the others, in key-schema order, `more_partition_keys`
/// and `more_sort_keys` (left out when empty).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeySchema {
    pub partition_key: KeyAttribute,
    pub sort_key: Option<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[specta(optional)]
    pub more_partition_keys: Vec<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[specta(optional)]
    pub more_sort_keys: Vec<KeyAttribute>,
}

impl KeySchema {
    /// The partition-key attributes, in key-schema order.
    pub fn partition_keys(&self) -> impl Iterator<Item = &KeyAttribute> {
        std::iter::once(&self.partition_key).chain(&self.more_partition_keys)
    }

    /// The sort-key attributes, in key-schema order.
    pub fn sort_keys(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.sort_key.iter().chain(&self.more_sort_keys)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum IndexKind {
    Global,
    Local,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ProjectionType {
    All,
    KeysOnly,
    Include,
}

/// Which attributes an index copies: all, the keys only, or the keys and `attributes`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Projection {
    #[serde(rename = "type")]
    pub ty: ProjectionType,
    pub attributes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct IndexSummary {
    pub name: String,
    pub kind: IndexKind,
    pub keys: KeySchema,
    pub projection: Projection,
    /// Items in the index, as DescribeTable reports it (refreshed about every six hours on AWS).
    #[specta(type = Option<specta_typescript::Number>)]
    pub item_count: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub size_bytes: Option<f64>,
    /// `ACTIVE`, `CREATING`, ... (GSIs only).
    pub status: Option<String>,
    /// Whether the service is still filling a new GSI from the table's items (GSIs only).
    pub backfilling: Option<bool>,
}

/// One page of table names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TableList {
    pub names: Vec<String>,
    /// Where the next page starts, when there is one.
    pub next_start: Option<String>,
}

/// What DescribeTable (and DescribeTimeToLive) say about a table.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TableDescription {
    pub name: String,
    pub status: String,
    pub keys: KeySchema,
    /// Every attribute definition (the table's and its indexes' key attributes).
    pub attribute_definitions: Vec<KeyAttribute>,
    /// `PAY_PER_REQUEST` or `PROVISIONED`.
    pub billing_mode: String,
    /// Provisioned read and write units, for provisioned tables.
    #[specta(type = Option<(specta_typescript::Number, specta_typescript::Number)>)]
    pub provisioned: Option<(f64, f64)>,
    #[specta(type = specta_typescript::Number)]
    pub item_count: f64,
    #[specta(type = specta_typescript::Number)]
    pub size_bytes: f64,
    pub indexes: Vec<IndexSummary>,
    /// The stream's view type (`NEW_AND_OLD_IMAGES`, ...) when a stream is enabled.
    pub stream_view_type: Option<String>,
    /// The TTL attribute, when time to live is enabled.
    pub ttl_attribute: Option<String>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub created_at: Option<f64>,
    pub arn: Option<String>,
}

/// One item collection: a partition-key value, its item count and bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionStat {
    pub partition_value: AttributeValue,
    #[specta(type = specta_typescript::Number)]
    pub item_count: f64,
    #[specta(type = specta_typescript::Number)]
    pub size_bytes: f64,
    /// On tables with an LSI: the size the 10 GB item-collection limit counts (items + LSI entries).
    #[specta(type = Option<specta_typescript::Number>)]
    pub limited_size_bytes: Option<f64>,
}

/// The collections of a table or an index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionStats {
    pub table: String,
    pub index: Option<String>,
    #[specta(type = specta_typescript::Number)]
    pub distinct_partition_keys: f64,
    #[specta(type = specta_typescript::Number)]
    pub item_count: f64,
    #[specta(type = specta_typescript::Number)]
    pub size_bytes: f64,
    /// The largest collections, largest first.
    pub collections: Vec<CollectionStat>,
    /// The item-collection size limit, on tables with an LSI.
    #[specta(type = Option<specta_typescript::Number>)]
    pub collection_size_limit: Option<f64>,
    /// When a scan gathered these statistics (seconds since the Unix epoch); `None` when they are
    /// live (the embedded engine keeps them with every write).
    #[specta(type = Option<specta_typescript::Number>)]
    pub gathered_at: Option<f64>,
    /// How far the scan that gathered these statistics got; `None` when they are live (the
    /// embedded engine) or were gathered whole before partial scans existed.
    #[serde(default)]
    pub scan: Option<StatisticsScan>,
}

/// How far a statistics scan of a table (or an index) on AWS got. A scan the user's budget or
/// Cancel stopped keeps what it read: the collections seen so far, of which only the one read
/// last can be unfinished (a Scan returns one collection's items together, rule B.4), and it can
/// be continued from where it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StatisticsScan {
    /// Read to the end: every collection is listed, whole.
    pub complete: bool,
    /// Items read by every run of the scan so far.
    #[specta(type = specta_typescript::Number)]
    pub items_read: f64,
    /// Read capacity units consumed by every run so far.
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// The item count DescribeTable reported (refreshed about every six hours on AWS): how much
    /// there is to read.
    #[specta(type = specta_typescript::Number)]
    pub expected_items: f64,
    /// When not complete: the collection read last, whose items may go on past the stop.
    pub open_collection: Option<AttributeValue>,
}

/// A stretch of the key-ordered run of a table's (or an index's) collections: what the
/// Collections view draws as it scrolls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionRange {
    pub table: String,
    pub index: Option<String>,
    /// How many collections come before the first one listed.
    #[specta(type = specta_typescript::Number)]
    pub offset: f64,
    /// How many collections the run has in all.
    #[specta(type = specta_typescript::Number)]
    pub total: f64,
    /// The collections from `offset` on, in the order of their partition-key values.
    pub collections: Vec<CollectionStat>,
}

/// How a new table is billed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "mode", rename_all = "camelCase")]
pub enum Billing {
    OnDemand,
    Provisioned { read_units: u32, write_units: u32 },
}

/// A secondary index of a new table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NewIndex {
    pub name: String,
    pub kind: IndexKind,
    pub keys: KeySchema,
    pub projection: Projection,
}

/// A table to create.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NewTable {
    pub name: String,
    pub keys: KeySchema,
    pub billing: Billing,
    pub indexes: Vec<NewIndex>,
    /// The stream's view type (`NEW_IMAGE`, `OLD_IMAGE`, `NEW_AND_OLD_IMAGES`, `KEYS_ONLY`), when
    /// the table has a stream.
    #[serde(default)]
    pub stream_view_type: Option<String>,
    /// The attribute time to live reads, enabled with UpdateTimeToLive once the table exists.
    #[serde(default)]
    pub ttl_attribute: Option<String>,
    #[serde(default)]
    pub tags: Vec<TableTag>,
}

/// One tag of a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TableTag {
    pub key: String,
    pub value: String,
}
