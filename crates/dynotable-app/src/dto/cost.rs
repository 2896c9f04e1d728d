//! What the cost commands exchange with the UI: estimates of reads and writes, their
//! reconciliation with the `ConsumedCapacity` reported, monthly cost and hot partitions.
//!
//! These mirror the estimator's types in `dynotable_engine::capacity` (plain serde, no specta);
//! every figure is computed there, these only carry it to TypeScript.

use serde::{Deserialize, Serialize};

use super::{AttributeValue, CapacityFigure, IndexKind, Item};

/// One sentence of an explanation, with the rule of docs/dynamodb-rules.md it applies (`"B.2"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExplanationLine {
    pub rule: Option<String>,
    pub text: String,
}

/// How a read is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ReadConsistency {
    Eventual,
    Strong,
    Transactional,
}

/// The units of one request, split as ConsumedCapacity splits them.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RequestCostFigure {
    #[specta(type = specta_typescript::Number)]
    pub total: f64,
    /// Units charged to the base table; `None` when the request does not touch it.
    #[specta(type = Option<specta_typescript::Number>)]
    pub table: Option<f64>,
    pub indexes: Vec<IndexCostFigure>,
    /// False when the figure rests on average item sizes.
    pub exact: bool,
    pub lines: Vec<ExplanationLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct IndexCostFigure {
    pub name: String,
    pub kind: IndexKind,
    #[specta(type = specta_typescript::Number)]
    pub units: f64,
}

/// A Query read to its end in one consistency, page by page.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct QueryCostEstimate {
    pub consistency: ReadConsistency,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    pub pages: Vec<RequestCostFigure>,
    pub exact: bool,
}

/// The ways of reading the same items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ReadWayKind {
    Query,
    GetItems,
    BatchGetItem,
    TransactGetItems,
    ScanWithFilter,
}

/// The selected items read one way.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReadWayEstimate {
    pub way: ReadWayKind,
    #[specta(type = specta_typescript::Number)]
    pub requests: f64,
    /// Units eventually consistent, strongly consistent, transactional; `None` where the way
    /// cannot read so.
    #[specta(type = Option<specta_typescript::Number>)]
    pub eventual: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub strong: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub transactional: Option<f64>,
    pub exact: bool,
    /// When not exact: the fewest and most 4 KB blocks the items can round to.
    #[specta(type = Option<(specta_typescript::Number, specta_typescript::Number)>)]
    pub blocks_range: Option<(f64, f64)>,
    pub lines: Vec<ExplanationLine>,
}

/// Where the sizes of an estimate come from.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum SizeSource {
    /// The embedded engine's statistics, kept with every write.
    LiveStatistics,
    /// A statistics scan of an AWS table, `gatheredAt` seconds since the epoch.
    GatheredStatistics {
        #[specta(type = Option<specta_typescript::Number>)]
        gathered_at: Option<f64>,
    },
    /// The collection is not among the statistics: the table's average item size times the
    /// average collection's item count.
    TableAverage,
}

/// What a Query costs before it runs, and the same items read other ways.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct QueryEstimate {
    pub table: String,
    pub index: Option<String>,
    pub source: SizeSource,
    /// Items (entries on an index) the key condition selects, and their bytes.
    #[specta(type = specta_typescript::Number)]
    pub item_count: f64,
    #[specta(type = specta_typescript::Number)]
    pub total_bytes: f64,
    /// The consistency the query asks for (`consistentRead`).
    pub requested: ReadConsistency,
    /// The first page in the requested consistency: what the next run reports.
    pub first_page: RequestCostFigure,
    /// One entry per consistency the target allows (a GSI: eventual only).
    pub query: Vec<QueryCostEstimate>,
    pub alternatives: Vec<ReadWayEstimate>,
    pub lines: Vec<ExplanationLine>,
}

/// One row of a reconciliation: `Total`, `Table` or an index.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReconcileRow {
    pub target: String,
    #[specta(type = specta_typescript::Number)]
    pub estimated: f64,
    #[specta(type = Option<specta_typescript::Number>)]
    pub actual: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub difference: Option<f64>,
}

/// An estimate beside the ConsumedCapacity a command reported, differences explained.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Reconciliation {
    pub rows: Vec<ReconcileRow>,
    pub matches: bool,
    pub lines: Vec<ExplanationLine>,
}

/// A write as the item editor has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum WriteKindInput {
    Put,
    Update,
    Delete,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum WriteModeInput {
    #[default]
    Single,
    Batch,
    Transactional,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct WriteEstimateInput {
    pub kind: WriteKindInput,
    /// The item at the key before the write, `None` for a new item.
    pub existing: Option<Item>,
    /// The item the write leaves (puts and updates).
    pub new_item: Option<Item>,
    pub mode: WriteModeInput,
    /// Estimate the charge of a write whose condition turns out false.
    pub condition_fails: bool,
}

/// One index's part of a write.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct IndexWriteEstimate {
    pub name: String,
    pub kind: IndexKind,
    /// 0, 1 or 2 index writes.
    pub writes: u8,
    #[specta(type = Option<specta_typescript::Number>)]
    pub entry_before_bytes: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub entry_after_bytes: Option<f64>,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// LSI writes consume the table's capacity.
    pub charged_to_table: bool,
    pub reason: ExplanationLine,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct WriteEstimate {
    pub cost: RequestCostFigure,
    #[specta(type = Option<specta_typescript::Number>)]
    pub before_bytes: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub after_bytes: Option<f64>,
    #[specta(type = specta_typescript::Number)]
    pub table_units: f64,
    pub indexes: Vec<IndexWriteEstimate>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportEstimate {
    #[specta(type = specta_typescript::Number)]
    pub items: f64,
    /// BatchWriteItem calls of at most 25 puts.
    #[specta(type = specta_typescript::Number)]
    pub requests: f64,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub table_units: f64,
    pub indexes: Vec<CapacityFigure>,
    pub exact: bool,
    pub lines: Vec<ExplanationLine>,
}

/// One region's prices (editable in the UI).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RegionPrices {
    pub region: String,
    pub currency: String,
    /// When these prices were in force, `YYYY-MM-DD`.
    pub as_of: String,
    pub source: String,
    #[specta(type = specta_typescript::Number)]
    pub on_demand_write_per_million: f64,
    #[specta(type = specta_typescript::Number)]
    pub on_demand_read_per_million: f64,
    #[specta(type = specta_typescript::Number)]
    pub provisioned_wcu_hour: f64,
    #[specta(type = specta_typescript::Number)]
    pub provisioned_rcu_hour: f64,
    #[specta(type = Option<specta_typescript::Number>)]
    pub storage_gb_month: Option<f64>,
}

/// A steady load to price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    #[specta(type = specta_typescript::Number)]
    pub reads_per_second: f64,
    #[specta(type = specta_typescript::Number)]
    pub read_units_per_request: f64,
    #[specta(type = specta_typescript::Number)]
    pub writes_per_second: f64,
    #[specta(type = specta_typescript::Number)]
    pub write_units_per_request: f64,
    /// Provisioned mode: the share of provisioned capacity the load may use (0 < u ≤ 1).
    #[specta(type = specta_typescript::Number)]
    pub target_utilisation: f64,
    #[specta(type = specta_typescript::Number)]
    pub stored_bytes: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ModeCost {
    #[specta(type = specta_typescript::Number)]
    pub reads: f64,
    #[specta(type = specta_typescript::Number)]
    pub writes: f64,
    #[specta(type = specta_typescript::Number)]
    pub total: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyCost {
    pub region: String,
    pub currency: String,
    pub prices_as_of: String,
    pub on_demand: ModeCost,
    pub provisioned: ModeCost,
    #[specta(type = specta_typescript::Number)]
    pub provisioned_rcu: f64,
    #[specta(type = specta_typescript::Number)]
    pub provisioned_wcu: f64,
    #[specta(type = Option<specta_typescript::Number>)]
    pub storage: Option<f64>,
    pub lines: Vec<ExplanationLine>,
}

/// How requests spread over partition-key values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum KeySpread {
    /// From the table's collection statistics: each collection weighted by its item count.
    ByItemCount,
    /// From the statistics, weighted by bytes.
    ByBytes,
    /// The same share for each of `keys` values.
    Uniform {
        #[specta(type = specta_typescript::Number)]
        keys: f64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TrafficInput {
    #[specta(type = specta_typescript::Number)]
    pub reads_per_second: f64,
    #[specta(type = specta_typescript::Number)]
    pub read_units_per_request: f64,
    #[specta(type = specta_typescript::Number)]
    pub writes_per_second: f64,
    #[specta(type = specta_typescript::Number)]
    pub write_units_per_request: f64,
    pub spread: KeySpread,
}

/// The load on one partition-key value (or on each of a group with the same share).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct KeyLoad {
    /// The key's value when the row is one key; `None` for a group.
    pub partition_value: Option<AttributeValue>,
    /// The key, or the group (`each of 50 keys`), as text.
    pub label: String,
    #[specta(type = specta_typescript::Number)]
    pub keys: f64,
    #[specta(type = specta_typescript::Number)]
    pub share: f64,
    #[specta(type = specta_typescript::Number)]
    pub read_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub write_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub read_ratio: f64,
    #[specta(type = specta_typescript::Number)]
    pub write_ratio: f64,
    pub throttles: bool,
    pub warning: bool,
    pub lines: Vec<ExplanationLine>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HotPartitionReport {
    /// The per-partition ceilings (rule B.11).
    #[specta(type = specta_typescript::Number)]
    pub partition_read_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub partition_write_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub table_read_units: f64,
    #[specta(type = specta_typescript::Number)]
    pub table_write_units: f64,
    /// Heaviest first.
    pub keys: Vec<KeyLoad>,
    #[specta(type = specta_typescript::Number)]
    pub throttling_keys: f64,
    pub lines: Vec<ExplanationLine>,
}
