//! The cost estimator: what a read or a write will consume before it runs, why, and how the
//! figure compares with the `ConsumedCapacity` reported afterwards.
//!
//! # Specification
//!
//! Everything here is plain data in, plain data out (serde), so the desktop app can expose it as
//! commands for tables of the embedded engine and of AWS alike. Every figure comes from the rule
//! functions of [`crate::capacity`] — the ones the engine charges with — and carries
//! [`Line`]s: one sentence each, naming the rule of `docs/dynamodb-rules.md` it applies.
//!
//! **Inputs.** A table is described by its [`TableShape`] (key schema, and each index's kind,
//! key and projection; [`Engine::table_shape`] gives it for an embedded table). Items are
//! described by a [`SizeProfile`]: their exact sizes in read order when known (the app has the
//! items of a collection it shows, or sampled them), otherwise the item count and total bytes
//! that collection statistics keep ([`Engine::collection_summary`], [`Engine::collection_stats`]).
//! A figure computed from a summary assumes every item has the average size and is marked
//! `exact: false`; sums rounded once (Query, Scan) are exact from the total alone as long as the
//! read fits one page, per-item roundings (GetItem, BatchGetItem, transactions) are not.
//!
//! **Reads** ([`read`]). One Query over the selected items is simulated page by page exactly as
//! the engine reads (a page stops after the item that reaches 1 MB, or at `Limit`; a page that
//! ended exactly at the last item is followed by an empty one that still costs the minimum):
//! each page costs its bytes summed and rounded up to 4 KB once, at least one block, half a unit
//! per block eventually consistent, one strongly consistent (rule B.2). A GSI is read eventually
//! consistent only and on its entries' sizes, charged to the index; an LSI query that asks for
//! attributes the index does not project adds one base-table read per returned item, each
//! rounded on its own and charged to the table. The same items read other ways: N GetItems and
//! BatchGetItem round every item to 4 KB on its own (100 keys a request); TransactGetItems does
//! too at two units a block; a Scan with a filter reads — and pays for — every item of the table
//! whatever the filter keeps, at least one block per partition it touches.
//!
//! **Writes** ([`write`](mod@write)). A put, update or delete costs the larger of the item before and after,
//! rounded up to 1 KB (rule B.3). Each index is charged from the item's entry in it before and
//! after — entry = the table's keys, the index's keys and the projected attributes, sized by
//! rule B.1 without the 100-byte storage overhead: no entry either side → 0 writes; an entry
//! appears or disappears → 1 write of its size; the index key changes → 2 writes (delete the
//! old entry, put the new one, each rounded); the key stays and the entry changes → 1 write of
//! the larger; the entry is unchanged → 0. GSI writes are charged to the GSI, LSI writes to the
//! table. A transactional write doubles the base-table units (not the index arms); a batch
//! write rounds each item on its own (25 requests a call); a write whose condition is false
//! writes nothing and is charged one unit when no item is at the key, otherwise the larger of
//! the existing and the attempted item. An import of N items is N batched puts of new items.
//!
//! **Requests.** One request's estimate is a [`RequestCost`]: its units split as
//! `ConsumedCapacity` splits them (table, each GSI, each LSI), and
//! [`RequestCost::consumed_capacity`] builds the very report the engine would return, with the
//! engine's own function. A BatchGetItem, BatchWriteItem or transaction is the
//! [`RequestCost::sum`] of its items, table by table and index by index; transactions repeat
//! their units in `ReadCapacityUnits` / `WriteCapacityUnits`.
//!
//! **Reconciliation** ([`reconcile`]). An estimate of one request and the `ConsumedCapacity`
//! the engine or AWS reported are compared table by table and index by index; each difference
//! is explained from what the estimate assumed: average item sizes (rounding), one partition
//! (the per-partition minimum), no base-table fetches on an LSI, an index entry that was or was
//! not there.

pub mod read;
pub mod reconcile;
#[cfg(test)]
mod tests;
pub mod write;

use serde::{Deserialize, Serialize};

use dynotable_types::ScalarAttributeType;

use crate::api::table::TableDescription;
use crate::api::{ConsumedCapacity, KeySchemaElement, Projection};
use crate::capacity::{self, CapacityReport, Charge};
use crate::catalog::{IndexKind, KeyAttribute, KeySchema, ProjectionSchema, TableSchema};
use crate::{ApiError, Engine};

/// What the estimator needs to know of a table: its key and its indexes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TableShape {
    pub name: String,
    pub key: KeySchema,
    pub indexes: Vec<IndexShape>,
}

/// One secondary index of a [`TableShape`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexShape {
    pub name: String,
    pub kind: IndexKind,
    pub key: KeySchema,
    pub projection: ProjectionSchema,
}

impl From<&TableSchema> for TableShape {
    fn from(table: &TableSchema) -> TableShape {
        TableShape {
            name: table.name.clone(),
            key: table.key.clone(),
            indexes: table
                .indexes
                .iter()
                .map(|i| IndexShape {
                    name: i.name.clone(),
                    kind: i.kind,
                    key: i.key.clone(),
                    projection: i.projection.clone(),
                })
                .collect(),
        }
    }
}

impl TableShape {
    /// The shape of a table as DescribeTable describes it (for tables in AWS): key types from
    /// the attribute definitions, each index's keys and projection.
    pub fn from_description(description: &TableDescription) -> Result<TableShape, ApiError> {
        // Every HASH element, then every RANGE element, in order (rule B.18: a GSI may have up
        // to four of each).
        let key = |elements: &[KeySchemaElement]| -> Result<KeySchema, ApiError> {
            let attributes = |role: &str| -> Result<Vec<KeyAttribute>, ApiError> {
                elements
                    .iter()
                    .filter(|e| e.key_type.as_deref() == Some(role))
                    .filter_map(|e| e.attribute_name.clone())
                    .map(|name| {
                        let ty = description
                            .attribute_definitions
                            .iter()
                            .find(|d| d.attribute_name.as_deref() == Some(name.as_str()))
                            .and_then(|d| d.attribute_type.as_deref())
                            .and_then(ScalarAttributeType::from_descriptor)
                            .ok_or_else(|| {
                                ApiError::validation(format!(
                                    "The key attribute {name} has no attribute definition"
                                ))
                            })?;
                        Ok(KeyAttribute { name, ty })
                    })
                    .collect()
            };
            let mut partition = attributes("HASH")?.into_iter();
            let mut sort = attributes("RANGE")?.into_iter();
            Ok(KeySchema {
                partition: partition
                    .next()
                    .ok_or_else(|| ApiError::validation("A key schema needs a HASH key"))?,
                sort: sort.next(),
                more_partition: partition.collect(),
                more_sort: sort.collect(),
            })
        };
        let projection = |p: &Projection| match p.projection_type.as_deref() {
            Some("ALL") => Ok(ProjectionSchema::All),
            Some("KEYS_ONLY") => Ok(ProjectionSchema::KeysOnly),
            Some("INCLUDE") => Ok(ProjectionSchema::Include(
                p.non_key_attributes.clone().unwrap_or_default(),
            )),
            other => Err(ApiError::validation(format!(
                "Unknown projection type {}",
                other.unwrap_or("(none)")
            ))),
        };
        let mut indexes = Vec::new();
        for gsi in description.global_secondary_indexes.iter().flatten() {
            indexes.push(IndexShape {
                name: gsi.index_name.clone(),
                kind: IndexKind::Global,
                key: key(&gsi.key_schema)?,
                projection: projection(&gsi.projection)?,
            });
        }
        for lsi in description.local_secondary_indexes.iter().flatten() {
            indexes.push(IndexShape {
                name: lsi.index_name.clone(),
                kind: IndexKind::Local,
                key: key(&lsi.key_schema)?,
                projection: projection(&lsi.projection)?,
            });
        }
        Ok(TableShape {
            name: description.table_name.clone(),
            key: key(&description.key_schema)?,
            indexes,
        })
    }

    pub fn index(&self, name: &str) -> Option<&IndexShape> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// The index named by a request, or the service's ValidationException.
    pub fn require_index(&self, name: &str) -> Result<&IndexShape, ApiError> {
        self.index(name).ok_or_else(|| {
            ApiError::validation(format!("The table does not have the specified index: {name}"))
        })
    }
}

impl Engine {
    /// The shape of an embedded table, for the estimator.
    pub fn table_shape(&self, table: &str) -> Result<TableShape, ApiError> {
        Ok(TableShape::from(self.table(table)?.as_ref()))
    }
}

/// One line of an explanation: a sentence the UI shows as it is, and the rule of
/// `docs/dynamodb-rules.md` it applies (`"B.2"`), if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    pub rule: Option<String>,
    pub text: String,
}

impl Line {
    pub fn rule(rule: &str, text: impl Into<String>) -> Line {
        Line {
            rule: Some(rule.to_owned()),
            text: text.into(),
        }
    }

    pub fn note(text: impl Into<String>) -> Line {
        Line {
            rule: None,
            text: text.into(),
        }
    }
}

/// The sizes of the items a request touches, in the order it reads them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "kind")]
pub enum SizeProfile {
    /// Each item's size by rule B.1.
    Exact { sizes: Vec<u64> },
    /// Only how many items and how many bytes, as collection statistics keep them.
    Summary { item_count: u64, total_bytes: u64 },
}

impl SizeProfile {
    pub fn item_count(&self) -> u64 {
        match self {
            SizeProfile::Exact { sizes } => sizes.len() as u64,
            SizeProfile::Summary { item_count, .. } => *item_count,
        }
    }

    pub fn total_bytes(&self) -> u64 {
        match self {
            SizeProfile::Exact { sizes } => sizes.iter().sum(),
            SizeProfile::Summary { total_bytes, .. } => *total_bytes,
        }
    }

    pub fn is_exact(&self) -> bool {
        matches!(self, SizeProfile::Exact { .. })
    }

    /// The average item size, rounded up.
    pub fn average_bytes(&self) -> u64 {
        self.total_bytes().div_ceil(self.item_count().max(1))
    }

    /// Every item's size: the exact sizes, or the total spread evenly (the first items one byte
    /// larger where it does not divide), so the sum stays exact.
    pub fn sizes(&self) -> Vec<u64> {
        match self {
            SizeProfile::Exact { sizes } => sizes.clone(),
            SizeProfile::Summary {
                item_count,
                total_bytes,
            } => {
                let n = *item_count;
                if n == 0 {
                    return Vec::new();
                }
                let (each, extra) = (total_bytes / n, total_bytes % n);
                (0..n).map(|i| each + u64::from(i < extra)).collect()
            }
        }
    }

    /// A line saying where the sizes come from.
    pub fn basis_line(&self) -> Line {
        match self {
            SizeProfile::Exact { sizes } => Line::rule(
                "B.1",
                format!(
                    "{}, {} in all, each sized by DynamoDB's item-size rule",
                    counted(sizes.len() as u64, "item", "items"),
                    counted(self.total_bytes(), "byte", "bytes")
                ),
            ),
            SizeProfile::Summary {
                item_count,
                total_bytes,
            } => Line::note(format!(
                "From collection statistics: {}, {}; assumes every item is the average {}, so per-item roundings are approximate",
                counted(*item_count, "item", "items"),
                counted(*total_bytes, "byte", "bytes"),
                counted(self.average_bytes(), "byte", "bytes")
            )),
        }
    }
}

/// The units one request consumes, split the way `ConsumedCapacity` splits them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestCost {
    pub table_name: String,
    /// All units, table and indexes.
    pub capacity_units: f64,
    /// Units charged to the base table (`None`: the table is not touched).
    pub table_units: Option<f64>,
    /// Units charged to each index touched.
    pub indexes: Vec<IndexUnits>,
    /// Whether the figure is exact for the inputs (false when it rests on average sizes).
    pub exact: bool,
    pub lines: Vec<Line>,
    #[serde(skip)]
    table: Option<Charge>,
    #[serde(skip)]
    mirror: Option<Mirror>,
}

/// Transactions repeat their units in `ReadCapacityUnits` / `WriteCapacityUnits` (rule B.2,
/// "What ConsumedCapacity reports"), as the engine's transaction operations do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mirror {
    Read,
    Write,
}

/// Units charged to one index by one request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexUnits {
    pub name: String,
    pub kind: IndexKind,
    pub capacity_units: f64,
    #[serde(skip)]
    charge: Option<Charge>,
}

impl RequestCost {
    fn new(
        table_name: &str,
        table: Option<Charge>,
        indexes: Vec<(String, IndexKind, Charge)>,
        exact: bool,
        lines: Vec<Line>,
    ) -> RequestCost {
        let indexes: Vec<IndexUnits> = indexes
            .into_iter()
            .map(|(name, kind, charge)| IndexUnits {
                name,
                kind,
                capacity_units: charge.units(),
                charge: Some(charge),
            })
            .collect();
        RequestCost {
            table_name: table_name.to_owned(),
            capacity_units: table.map_or(0.0, Charge::units)
                + indexes.iter().map(|i| i.capacity_units).sum::<f64>(),
            table_units: table.map(Charge::units),
            indexes,
            exact,
            lines,
            table,
            mirror: None,
        }
    }

    /// The request as one of a transaction: its units repeated as read or write units.
    fn transactional(mut self) -> RequestCost {
        self.mirror = match self.table {
            Some(Charge::Read(_)) => Some(Mirror::Read),
            _ => Some(Mirror::Write),
        };
        self
    }

    /// One request made of `parts` on the same table — the items of a BatchGetItem or
    /// BatchWriteItem, the actions of a transaction: units added table by table and index by
    /// index, the explanation lines kept in order.
    pub fn sum(parts: &[RequestCost]) -> Result<RequestCost, ApiError> {
        let Some(first) = parts.first() else {
            return Err(ApiError::validation("A request needs at least one item"));
        };
        let add = |a: Option<Charge>, b: Option<Charge>| -> Result<Option<Charge>, ApiError> {
            match (a, b) {
                (None, x) | (x, None) => Ok(x),
                (Some(Charge::Read(a)), Some(Charge::Read(b))) => Ok(Some(Charge::Read(a + b))),
                (Some(Charge::Write(a)), Some(Charge::Write(b))) => Ok(Some(Charge::Write(a + b))),
                _ => Err(ApiError::validation(
                    "Reads and writes cannot be added into one request",
                )),
            }
        };
        let mut table = None;
        let mut indexes: Vec<(String, IndexKind, Option<Charge>)> = Vec::new();
        let mut lines = Vec::new();
        for part in parts {
            if part.table_name != first.table_name || part.mirror != first.mirror {
                return Err(ApiError::validation(
                    "The parts of one request must be on one table and of one kind",
                ));
            }
            table = add(table, part.table)?;
            for index in &part.indexes {
                match indexes.iter_mut().find(|(name, _, _)| *name == index.name) {
                    Some(entry) => entry.2 = add(entry.2, index.charge)?,
                    None => indexes.push((index.name.clone(), index.kind, index.charge)),
                }
            }
            lines.extend(part.lines.iter().cloned());
        }
        let indexes = indexes
            .into_iter()
            .filter_map(|(name, kind, charge)| charge.map(|c| (name, kind, c)))
            .collect();
        let mut sum = RequestCost::new(
            &first.table_name,
            table,
            indexes,
            parts.iter().all(|p| p.exact),
            lines,
        );
        sum.mirror = first.mirror;
        Ok(sum)
    }

    /// The `ConsumedCapacity` this request would report with `ReturnConsumedCapacity = report`,
    /// built by the function the engine builds its reports with.
    pub fn consumed_capacity(&self, report: CapacityReport) -> Option<ConsumedCapacity> {
        let indexes: Vec<(&str, IndexKind, Charge)> = self
            .indexes
            .iter()
            .filter_map(|i| i.charge.map(|c| (i.name.as_str(), i.kind, c)))
            .collect();
        let mut consumed = capacity::consumed_capacity(report, &self.table_name, self.table, &indexes)?;
        match self.mirror {
            Some(Mirror::Read) => consumed.read_capacity_units = Some(consumed.capacity_units),
            Some(Mirror::Write) => consumed.write_capacity_units = Some(consumed.capacity_units),
            None => {}
        }
        Some(consumed)
    }
}

/// Formats units the way the service prints them (`2.5`, `5`).
pub(crate) fn units(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// A count and its noun as the explanations say it: "1 item", "60 items", "10,710 items" (never
/// "item(s)").
pub fn counted(n: u64, one: &str, many: &str) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3 + 1 + many.len());
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped.push(' ');
    grouped.push_str(if n == 1 { one } else { many });
    grouped
}

/// Formats a byte count with its thousands grouped and, from 1 KB, its size as the UI writes one
/// (`formatBytes` in ui/src/shared/format.ts): "1,000 B", "988,740 B (966 KB)", "2,150 B (2.1 KB)".
pub(crate) fn bytes(value: u64) -> String {
    let exact = counted(value, "B", "B");
    if value < 1024 {
        return exact;
    }
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    let mut size = value as f64 / 1024.0;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    let shown = if size < 10.0 {
        format!("{size:.1}")
    } else {
        format!("{size:.0}")
    };
    format!("{exact} ({shown} {})", UNITS[unit])
}
