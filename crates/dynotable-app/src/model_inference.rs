//! A model inferred from a live table (issue 21, point 5), on the embedded engine and on any
//! connection alike: the same commands go through the connection's SDK client.
//!
//! 1. [`App::estimate_model_sample`] says, before anything is read, what the sample will cost:
//!    DescribeTable's item count and size give the items and bytes a Scan of `sample_limit`
//!    items reads, each page's bytes summed and rounded up to 4 KB once, half a unit per block
//!    eventually consistent (rules B.1, B.2, B.4).
//! 2. [`App::infer_model`] describes the table (keys, attribute types, GSIs and LSIs with their
//!    projections, billing), reads the sample — a Scan with `Limit` = the items still wanted, at
//!    most [`MAX_SAMPLE_PAGES`] pages, never the whole table unless it is that small — and hands
//!    it, with the connection's query history of the table, to `dynotable_modeler::infer`. The
//!    answer reports the capacity the reads consumed, as DynamoDB reported it.
//! 3. A Scan's first pages are the table's first keys in its own order (hash order on AWS, key
//!    order on the embedded engine), so the collection the user queries may be missing from
//!    them. When the history reads one collection most and the Scan did not reach it, one Query
//!    page of it (`Limit` = a quarter of the sample) joins the sample, estimated and reported
//!    with the Scan: the model then has the collection the user looks at, at its size.

use dynotable_builder::{
    Comparator, Direction, KeyConditionState, ReadOperation, ReadRequest, ReturnConsumedCapacity,
    SortKeyCondition as BuilderSort,
};
use dynotable_engine::capacity::estimate::counted;
use dynotable_engine::capacity::{ReadKind, range_read};
use dynotable_modeler::Model;
use dynotable_modeler::infer::{
    InferredEntity, ObservedRead, ObservedSort, SortOp, infer, most_read_partition,
};
use dynotable_modeler::model::{Billing, IndexModel, KeyAttr, Projection, TableModel};
use dynotable_types::ScalarAttributeType;
use serde::Serialize;

use crate::dto::attribute::item_to_engine;
use crate::dto::cost::ExplanationLine;
use crate::dto::{
    AttributeValue, KeyAttribute, KeySchema, ProjectionType, QueryPage, ScalarType, SortKeyCondition,
    TableDescription,
};
use crate::history::HistoryRequest;
use crate::{App, CommandError, ErrorCode, requests};

/// Most items a sample may ask for.
pub const MAX_SAMPLE_LIMIT: u32 = 5_000;

/// Most Scan pages a sample reads (each at most 1 MB, rule B.4).
pub const MAX_SAMPLE_PAGES: u32 = 4;

/// The items of the collection the history reads most that join the sample: a quarter of it.
fn focus_limit(sample_limit: u32) -> u32 {
    (sample_limit / 4).max(1)
}

const PAGE_BYTES: f64 = 1024.0 * 1024.0;

/// What the sample will read and cost, before it runs.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SampleEstimate {
    pub table: String,
    /// Items the sample will read: `sample_limit`, or the whole table when it is smaller.
    #[specta(type = specta_typescript::Number)]
    pub items: f64,
    #[specta(type = specta_typescript::Number)]
    pub bytes: f64,
    #[specta(type = specta_typescript::Number)]
    pub pages: f64,
    /// Read units (RCU or RRU), eventually consistent.
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// The table's item count as DescribeTable reports it.
    #[specta(type = specta_typescript::Number)]
    pub table_items: f64,
    /// DescribeTable's figures are refreshed about every six hours outside the embedded engine.
    pub approximate: bool,
    pub lines: Vec<ExplanationLine>,
}

/// The inferred model and what the sample read.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct InferredModel {
    pub model: Model,
    pub entities: Vec<InferredEntity>,
    pub notes: Vec<String>,
    /// Items the sample read.
    pub sampled_items: u32,
    pub pages: u32,
    /// The read units the Scan consumed, as the service reported them; `None` when it did not.
    #[specta(type = Option<specta_typescript::Number>)]
    pub consumed_capacity: Option<f64>,
    /// The table's item count as DescribeTable reports it.
    #[specta(type = specta_typescript::Number)]
    pub table_items: f64,
    /// Reads of the history the patterns were found in.
    pub history_reads: u32,
}

/// Adds a page read for the sample to it: its items, one page, and its consumed capacity.
fn take_page(
    page: &QueryPage,
    items: &mut Vec<dynotable_types::Item>,
    pages: &mut u32,
    consumed: &mut Option<f64>,
) -> Result<(), CommandError> {
    *pages += 1;
    if let Some(c) = &page.consumed_capacity {
        *consumed.get_or_insert(0.0) += c.total;
    }
    for item in &page.items {
        items.push(item_to_engine(item).map_err(|e| CommandError::new(ErrorCode::Internal, e))?);
    }
    Ok(())
}

fn check_limit(sample_limit: u32) -> Result<(), CommandError> {
    if sample_limit == 0 || sample_limit > MAX_SAMPLE_LIMIT {
        return Err(CommandError::new(
            ErrorCode::Validation,
            format!("A sample reads 1 to {MAX_SAMPLE_LIMIT} items, not {sample_limit}."),
        ));
    }
    Ok(())
}

/// The estimate of a Scan of `limit` items of a table of `table_items` items and `table_bytes`
/// bytes (rules B.1, B.2, B.4).
///
/// With `focus`, the collection the history reads most, one Query page of a quarter of `limit`
/// items is added (it is read only when the Scan does not reach it: this is the most it costs).
pub fn sample_estimate(
    table: &str,
    limit: u32,
    table_items: f64,
    table_bytes: f64,
    approximate: bool,
    focus: Option<&str>,
) -> SampleEstimate {
    let items = f64::from(limit).min(table_items.max(0.0));
    // Rule B.1: an item's size is its names and values; DescribeTable's size is their sum.
    let average = if table_items > 0.0 {
        table_bytes / table_items
    } else {
        0.0
    };
    let bytes = (items * average).round();
    let pages = (bytes / PAGE_BYTES)
        .ceil()
        .clamp(1.0, f64::from(MAX_SAMPLE_PAGES));
    // Rule B.2: a Scan page's item sizes are summed, then rounded up to 4 KB once; half a unit
    // per block eventually consistent. Rule B.4: a page reads at most 1 MB.
    let mut capacity_units = 0.0;
    let mut left = bytes.min(pages * PAGE_BYTES);
    for _ in 0..pages as u32 {
        let page = left.min(PAGE_BYTES);
        left -= page;
        capacity_units += range_read(page as u64, ReadKind::Eventual).as_f64();
    }
    let mut lines = vec![
        ExplanationLine {
            rule: Some("B.4".into()),
            text: format!(
                "A Scan with Limit {limit} reads {} of the table's {}, at most 1 MB a page → {} (at most {MAX_SAMPLE_PAGES})",
                counted(items as u64, "item", "items"),
                counted(table_items.max(0.0) as u64, "item", "items"),
                counted(pages as u64, "page", "pages")
            ),
        },
        ExplanationLine {
            rule: Some("B.1".into()),
            text: format!(
                "At the table's average item size, {}, that is {}",
                counted(average.round() as u64, "byte", "bytes"),
                counted(bytes as u64, "byte", "bytes")
            ),
        },
        ExplanationLine {
            rule: Some("B.2".into()),
            text: format!(
                "Each page's sizes summed and rounded up to 4 KB once, half a unit per 4 KB eventually consistent → {capacity_units} RCU"
            ),
        },
    ];
    let (mut items, mut bytes, mut pages) = (items, bytes, pages);
    if let Some(focus) = focus {
        let more = f64::from(focus_limit(limit)).min(table_items.max(0.0));
        let more_bytes = (more * average).round().min(PAGE_BYTES);
        let units = range_read(more_bytes as u64, ReadKind::Eventual).as_f64();
        lines.push(ExplanationLine {
            rule: Some("B.2".into()),
            text: format!(
                "If the Scan does not reach {focus}, the collection the history reads most, one Query page of it with Limit {}: at most {}, {} → {units} RCU",
                focus_limit(limit),
                counted(more as u64, "item", "items"),
                counted(more_bytes as u64, "byte", "bytes")
            ),
        });
        items += more;
        bytes += more_bytes;
        pages += 1.0;
        capacity_units += units;
    }
    if approximate {
        lines.push(ExplanationLine {
            rule: None,
            text: "DescribeTable's item count and size are refreshed about every six hours: the sample may read more or less".into(),
        });
    }
    // Outside the embedded engine, 0 bytes may be a table whose figures were never refreshed
    // (some emulators never do): the pages are then the bound.
    if approximate && table_bytes <= 0.0 {
        lines.insert(
            0,
            ExplanationLine {
                rule: Some("B.4".into()),
                text: format!(
                    "DescribeTable reports 0 bytes: the table may be empty or its size not refreshed yet, so what the sample reads is not known before it runs; it reads at most {MAX_SAMPLE_PAGES} pages of 1 MB"
                ),
            },
        );
    }
    SampleEstimate {
        table: table.to_owned(),
        items,
        bytes,
        pages,
        capacity_units,
        table_items,
        approximate,
        lines,
    }
}

fn key_attr(key: &KeyAttribute) -> KeyAttr {
    KeyAttr {
        name: key.name.clone(),
        ty: match key.ty {
            ScalarType::S => ScalarAttributeType::S,
            ScalarType::N => ScalarAttributeType::N,
            ScalarType::B => ScalarAttributeType::B,
        },
    }
}

/// The table's keys, billing and indexes from DescribeTable. An index keyed by several
/// attributes (rule B.18) has no place in the model: it is left out and said so.
pub fn table_model(description: &TableDescription, notes: &mut Vec<String>) -> TableModel {
    let simple = |keys: &KeySchema| keys.more_partition_keys.is_empty() && keys.more_sort_keys.is_empty();
    let mut table = TableModel {
        name: description.name.clone(),
        partition_key: key_attr(&description.keys.partition_key),
        sort_key: description.keys.sort_key.as_ref().map(key_attr),
        billing: match description.provisioned {
            Some((read, write)) if description.billing_mode == "PROVISIONED" => Billing::Provisioned {
                read_units: read as u64,
                write_units: write as u64,
            },
            _ => Billing::OnDemand,
        },
        global_indexes: Vec::new(),
        local_indexes: Vec::new(),
        items: Vec::new(),
    };
    for index in &description.indexes {
        if !simple(&index.keys) {
            notes.push(format!(
                "The index {} is keyed by several attributes (rule B.18), which the modeler does not model: it is left out.",
                index.name
            ));
            continue;
        }
        let model = IndexModel {
            name: index.name.clone(),
            partition_key: key_attr(&index.keys.partition_key),
            sort_key: index.keys.sort_key.as_ref().map(key_attr),
            projection: match index.projection.ty {
                ProjectionType::All => Projection::All,
                ProjectionType::KeysOnly => Projection::KeysOnly,
                ProjectionType::Include => Projection::Include(index.projection.attributes.clone()),
            },
        };
        match index.kind {
            crate::dto::IndexKind::Global => table.global_indexes.push(model),
            crate::dto::IndexKind::Local => table.local_indexes.push(model),
        }
    }
    table
}

fn engine_value(value: &AttributeValue) -> Option<dynotable_types::AttributeValue> {
    value.to_engine().ok()
}

/// A read of the history as the inference sees it; `None` for a Scan or a read of another
/// shape (several key attributes).
fn observed(request: &HistoryRequest, description: &TableDescription) -> Option<ObservedRead> {
    match request {
        HistoryRequest::Collection { request } => {
            let keys = match &request.index {
                None => &description.keys,
                Some(name) => &description.indexes.iter().find(|i| i.name == *name)?.keys,
            };
            let sort = match (&request.sort_condition, &keys.sort_key) {
                (Some(condition), Some(key)) => {
                    let compare = |op, v: &AttributeValue| Some(ObservedSort::Compare(op, engine_value(v)?));
                    let condition = match condition {
                        SortKeyCondition::Eq { value } => compare(SortOp::Eq, value)?,
                        SortKeyCondition::Lt { value } => compare(SortOp::Lt, value)?,
                        SortKeyCondition::Le { value } => compare(SortOp::Le, value)?,
                        SortKeyCondition::Gt { value } => compare(SortOp::Gt, value)?,
                        SortKeyCondition::Ge { value } => compare(SortOp::Ge, value)?,
                        SortKeyCondition::BeginsWith { value } => {
                            ObservedSort::BeginsWith(engine_value(value)?)
                        }
                        SortKeyCondition::Between { low, high } => {
                            ObservedSort::Between(engine_value(low)?, engine_value(high)?)
                        }
                    };
                    Some((key.name.clone(), condition))
                }
                _ => None,
            };
            Some(ObservedRead {
                index: request.index.clone(),
                partition_key: keys.partition_key.name.clone(),
                partition_value: engine_value(&request.partition_value)?,
                sort,
                descending: !request.scan_index_forward,
                limit: request.limit,
                consistent: request.consistent_read,
            })
        }
        HistoryRequest::Builder { request, .. } => {
            if request.operation != ReadOperation::Query {
                return None;
            }
            let key = request.key_condition.as_ref()?;
            if !key.more_partition.is_empty() || !key.sort_equal.is_empty() {
                return None;
            }
            let sort = match &key.sort {
                None => None,
                Some(BuilderSort::Compare { name, op, value }) => {
                    let op = match op {
                        Comparator::Eq => SortOp::Eq,
                        Comparator::Lt => SortOp::Lt,
                        Comparator::Le => SortOp::Le,
                        Comparator::Gt => SortOp::Gt,
                        Comparator::Ge => SortOp::Ge,
                        // Rule B.5: `<>` is no sort-key condition.
                        _ => return None,
                    };
                    Some((name.clone(), ObservedSort::Compare(op, value.clone())))
                }
                Some(BuilderSort::Between { name, low, high }) => {
                    Some((name.clone(), ObservedSort::Between(low.clone(), high.clone())))
                }
                Some(BuilderSort::BeginsWith { name, prefix }) => {
                    Some((name.clone(), ObservedSort::BeginsWith(prefix.clone())))
                }
            };
            Some(ObservedRead {
                index: request.index_name.clone(),
                partition_key: key.partition_key.clone(),
                partition_value: key.partition_value.clone(),
                sort,
                descending: request.direction == Direction::Descending,
                limit: request.limit,
                consistent: request.consistent_read,
            })
        }
    }
}

/// A key value as text (`VEH#V-7741`, `42`).
fn value_text(value: &dynotable_types::AttributeValue) -> String {
    match value {
        dynotable_types::AttributeValue::S(s) => s.clone(),
        dynotable_types::AttributeValue::N(n) => n.to_string(),
        other => format!("{other:?}"),
    }
}

impl App {
    /// The connection's reads of the table in its query history, oldest first (patterns are
    /// named in the order the reads were first run).
    async fn observed_reads(
        &self,
        profile_id: &str,
        description: &TableDescription,
    ) -> Result<Vec<ObservedRead>, CommandError> {
        let history = self.query_history(profile_id, Some(&description.name)).await?;
        Ok(history
            .iter()
            .rev()
            .filter_map(|entry| observed(&entry.request, description))
            .collect())
    }

    /// What a sample of `sample_limit` items of `table` will read and cost (nothing is read
    /// but DescribeTable).
    pub async fn estimate_model_sample(
        &self,
        profile_id: &str,
        table: &str,
        sample_limit: u32,
    ) -> Result<SampleEstimate, CommandError> {
        check_limit(sample_limit)?;
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, table).await?;
        let reads = self.observed_reads(profile_id, &description).await?;
        let focus = most_read_partition(&description.keys.partition_key.name, &reads).map(|v| value_text(&v));
        Ok(sample_estimate(
            table,
            sample_limit,
            description.item_count,
            description.size_bytes,
            !session.is_embedded(),
            focus.as_deref(),
        ))
    }

    /// A model of `table` inferred from DescribeTable, a Scan of at most `sample_limit` items
    /// (and [`MAX_SAMPLE_PAGES`] pages), and the connection's query history of the table.
    pub async fn infer_model(
        &self,
        profile_id: &str,
        table: &str,
        sample_limit: u32,
    ) -> Result<InferredModel, CommandError> {
        check_limit(sample_limit)?;
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, table).await?;
        let mut notes = Vec::new();
        let table_model = table_model(&description, &mut notes);

        let mut items = Vec::new();
        let mut pages = 0u32;
        let mut consumed: Option<f64> = None;
        let mut start = None;
        while pages < MAX_SAMPLE_PAGES && items.len() < sample_limit as usize {
            // Rule B.4: Limit caps the items a page evaluates; a page also stops at 1 MB.
            let request = ReadRequest {
                operation: ReadOperation::Scan,
                table_name: table.to_owned(),
                index_name: None,
                key_condition: None,
                filter: None,
                projection: None,
                direction: Direction::Ascending,
                limit: Some(sample_limit - items.len() as u32),
                consistent_read: false,
                return_consumed_capacity: Some(ReturnConsumedCapacity::TOTAL),
            };
            let generated = requests::generate(&request)?;
            let page = requests::send(&session.client, &generated, start.as_ref(), None).await?;
            take_page(&page, &mut items, &mut pages, &mut consumed)?;
            match page.last_evaluated_key {
                Some(key) => start = Some(key),
                None => break,
            }
        }

        let reads = self.observed_reads(profile_id, &description).await?;
        let partition_key = description.keys.partition_key.name.clone();
        if let Some(focus) = most_read_partition(&partition_key, &reads)
            && !items.iter().any(|i| i.get(&partition_key) == Some(&focus))
        {
            let request = ReadRequest {
                operation: ReadOperation::Query,
                table_name: table.to_owned(),
                index_name: None,
                key_condition: Some(KeyConditionState::simple(
                    partition_key.clone(),
                    focus.clone(),
                    None,
                )),
                filter: None,
                projection: None,
                direction: Direction::Ascending,
                limit: Some(focus_limit(sample_limit)),
                consistent_read: false,
                return_consumed_capacity: Some(ReturnConsumedCapacity::TOTAL),
            };
            let generated = requests::generate(&request)?;
            let page = requests::send(&session.client, &generated, None, None).await?;
            take_page(&page, &mut items, &mut pages, &mut consumed)?;
            notes.push(format!(
                "The Scan did not reach {}, the collection the history reads most: one Query page of it ({}) joined the sample, so it weighs more in the counts than in the table.",
                value_text(&focus),
                counted(page.items.len() as u64, "item", "items")
            ));
        }
        let item_count = description.item_count.max(0.0) as u64;
        let inference = infer(&table_model, &items, item_count, &reads);
        notes.extend(inference.notes);
        Ok(InferredModel {
            model: inference.model,
            entities: inference.entities,
            notes,
            sampled_items: items.len() as u32,
            pages,
            consumed_capacity: consumed,
            table_items: description.item_count,
            history_reads: reads.len() as u32,
        })
    }
}
