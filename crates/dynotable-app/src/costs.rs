//! The cost commands: what a read or a write will consume before it runs, how that compares
//! with the `ConsumedCapacity` it then reports, what a request rate costs a month, and which
//! partition keys a rate would make throttle.
//!
//! # Design
//!
//! The cost rules live once, in `dynotable_engine::capacity` — the functions the engine charges
//! its own requests with — and this module only gathers their inputs and carries their answers
//! (with the explanation lines they write) to the UI as DTOs; nothing here rounds a unit.
//!
//! - The table's shape (keys, indexes, projections) comes from DescribeTable, for the embedded
//!   engine and AWS alike ([`table_shape`]).
//! - A Query's selection is sized from collection statistics: on the embedded engine the
//!   collection's live count and bytes ([`dynotable_engine::Engine::collection_summary`]); on
//!   other connections the statistics a scan gathered and cached ([`crate::statistics`]), or the
//!   table's averages when the collection is not among them. Statistics count whole
//!   collections, so a sort-key condition on the embedded engine is sized exactly instead, by
//!   reading the key range from the local engine (free: nothing is billed locally).
//! - A write is estimated on the items the editor holds (before and after).
//! - Reconciliation recomputes the estimate of the same request and hands it, with the reported
//!   `ConsumedCapacity`, to the estimator's `reconcile`, which explains every difference.

use dynotable_engine::api::{Capacity, ConsumedCapacity as EngineCapacity};
use dynotable_engine::capacity::ReadKind;
use dynotable_engine::capacity::estimate::read::{self, Way};
use dynotable_engine::capacity::estimate::write::{self, WriteInput, WriteKind, WriteMode};
use dynotable_engine::capacity::estimate::{Line, RequestCost, SizeProfile, TableShape, reconcile};
use dynotable_engine::capacity::hot_partitions::{
    self, KeyDistribution, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, Traffic, WeightBy,
};
use dynotable_engine::capacity::pricing::{self, PriceTable};
use dynotable_engine::catalog::{IndexKind as EngineIndexKind, KeyAttribute, KeySchema, ProjectionSchema};
use dynotable_engine::{CollectionStats as EngineStats, CollectionSummary};
use dynotable_types::ScalarAttributeType;
use serde_json::{Value, json};

use crate::dto::attribute::item_to_engine;
use crate::dto::cost::{
    ExplanationLine, HotPartitionReport, ImportEstimate, IndexCostFigure, IndexWriteEstimate, KeyLoad,
    KeySpread, ModeCost, MonthlyCost, QueryCostEstimate, QueryEstimate, ReadConsistency, ReadWayEstimate,
    ReadWayKind, ReconcileRow, Reconciliation, RegionPrices, RequestCostFigure, SizeSource, TrafficInput,
    Workload, WriteEstimate, WriteEstimateInput, WriteKindInput, WriteModeInput,
};
use crate::dto::{
    AttributeValue, CapacityFigure, CollectionStats, ConsumedCapacity, IndexKind, Item, ProjectionType,
    QueryInput, ScalarType, TableDescription,
};
use crate::{App, CommandError, ErrorCode};

/// The estimator's view of a table described by DescribeTable.
pub fn table_shape(description: &TableDescription) -> TableShape {
    fn key(keys: &crate::dto::KeySchema) -> KeySchema {
        let attribute = |a: &crate::dto::KeyAttribute| KeyAttribute {
            name: a.name.clone(),
            ty: match a.ty {
                ScalarType::S => ScalarAttributeType::S,
                ScalarType::N => ScalarAttributeType::N,
                ScalarType::B => ScalarAttributeType::B,
            },
        };
        KeySchema {
            partition: attribute(&keys.partition_key),
            sort: keys.sort_key.as_ref().map(attribute),
        }
    }
    TableShape {
        name: description.name.clone(),
        key: key(&description.keys),
        indexes: description
            .indexes
            .iter()
            .map(|i| dynotable_engine::capacity::estimate::IndexShape {
                name: i.name.clone(),
                kind: engine_kind(i.kind),
                key: key(&i.keys),
                projection: match i.projection.ty {
                    ProjectionType::All => ProjectionSchema::All,
                    ProjectionType::KeysOnly => ProjectionSchema::KeysOnly,
                    ProjectionType::Include => ProjectionSchema::Include(i.projection.attributes.clone()),
                },
            })
            .collect(),
    }
}

fn engine_kind(kind: IndexKind) -> EngineIndexKind {
    match kind {
        IndexKind::Global => EngineIndexKind::Global,
        IndexKind::Local => EngineIndexKind::Local,
    }
}

fn app_kind(kind: EngineIndexKind) -> IndexKind {
    match kind {
        EngineIndexKind::Global => IndexKind::Global,
        EngineIndexKind::Local => IndexKind::Local,
    }
}

fn validation(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

fn engine_error(err: &dynotable_engine::ApiError) -> CommandError {
    CommandError::from_engine(err)
}

pub(crate) fn lines(lines: &[Line]) -> Vec<ExplanationLine> {
    lines.iter().map(line).collect()
}

fn line(line: &Line) -> ExplanationLine {
    ExplanationLine {
        rule: line.rule.clone(),
        text: line.text.clone(),
    }
}

fn figure(cost: &RequestCost) -> RequestCostFigure {
    RequestCostFigure {
        total: cost.capacity_units,
        table: cost.table_units,
        indexes: cost
            .indexes
            .iter()
            .map(|i| IndexCostFigure {
                name: i.name.clone(),
                kind: app_kind(i.kind),
                units: i.capacity_units,
            })
            .collect(),
        exact: cost.exact,
        lines: lines(&cost.lines),
    }
}

fn consistency(kind: ReadKind) -> ReadConsistency {
    match kind {
        ReadKind::Eventual => ReadConsistency::Eventual,
        ReadKind::Strong => ReadConsistency::Strong,
        ReadKind::Transactional => ReadConsistency::Transactional,
    }
}

/// The reported capacity (as the UI holds it) in the engine's shape, each index filed as a GSI
/// or an LSI by the table's shape.
fn engine_capacity(shape: &TableShape, actual: &ConsumedCapacity) -> EngineCapacity {
    let capacity = |units: f64| Capacity {
        capacity_units: units,
        read_capacity_units: None,
        write_capacity_units: None,
    };
    let mut global = std::collections::BTreeMap::new();
    let mut local = std::collections::BTreeMap::new();
    for index in &actual.indexes {
        let is_local = shape
            .index(&index.name)
            .is_some_and(|i| i.kind == EngineIndexKind::Local);
        let target = if is_local { &mut local } else { &mut global };
        target.insert(index.name.clone(), capacity(index.units));
    }
    EngineCapacity {
        table_name: shape.name.clone(),
        capacity_units: actual.total,
        read_capacity_units: None,
        write_capacity_units: None,
        table: actual.table.map(capacity),
        global_secondary_indexes: (!global.is_empty()).then_some(global),
        local_secondary_indexes: (!local.is_empty()).then_some(local),
    }
}

fn reconciliation(estimate: &RequestCost, shape: &TableShape, actual: &ConsumedCapacity) -> Reconciliation {
    let result = reconcile::reconcile(estimate, &engine_capacity(shape, actual));
    Reconciliation {
        rows: result
            .rows
            .into_iter()
            .map(|r| ReconcileRow {
                target: r.target,
                estimated: r.estimated,
                actual: r.actual,
                difference: r.difference,
            })
            .collect(),
        matches: result.matches,
        lines: lines(&result.lines),
    }
}

/// A Query's estimate with the estimator's own values, before they become DTOs.
struct ReadPlan {
    shape: TableShape,
    estimate: read::ReadEstimate,
    source: SizeSource,
    selected: SizeProfile,
    requested: ReadKind,
    notes: Vec<Line>,
}

impl ReadPlan {
    /// The page the request `input` reads: the first, or (continuing with an
    /// ExclusiveStartKey) the second — statistics cannot say where later pages break.
    fn page(&self, input: &QueryInput) -> Option<&RequestCost> {
        let query = self
            .estimate
            .query
            .iter()
            .find(|q| q.kind == self.requested)
            .or_else(|| self.estimate.query.first())?;
        let at = usize::from(input.exclusive_start_key.is_some());
        query.pages.get(at.min(query.pages.len().saturating_sub(1)))
    }
}

impl App {
    /// What the Query `input` will cost before it runs, and the same items read other ways.
    pub async fn estimate_query(
        &self,
        profile_id: &str,
        input: QueryInput,
    ) -> Result<QueryEstimate, CommandError> {
        let plan = self.read_plan(profile_id, &input).await?;
        let first_page = plan
            .page(&input)
            .map(figure)
            .ok_or_else(|| CommandError::new(ErrorCode::Internal, "The estimate has no page."))?;
        let mut all_lines = lines(&plan.notes);
        all_lines.extend(lines(&plan.estimate.lines));
        Ok(QueryEstimate {
            table: input.table.clone(),
            index: input.index.clone(),
            source: plan.source.clone(),
            item_count: plan.selected.item_count() as f64,
            total_bytes: plan.selected.total_bytes() as f64,
            requested: consistency(plan.requested),
            first_page,
            query: plan
                .estimate
                .query
                .iter()
                .map(|q| QueryCostEstimate {
                    consistency: consistency(q.kind),
                    capacity_units: q.capacity_units,
                    pages: q.pages.iter().map(figure).collect(),
                    exact: q.exact,
                })
                .collect(),
            alternatives: plan
                .estimate
                .alternatives
                .iter()
                .map(|w| ReadWayEstimate {
                    way: match w.way {
                        Way::Query => ReadWayKind::Query,
                        Way::GetItems => ReadWayKind::GetItems,
                        Way::BatchGetItem => ReadWayKind::BatchGetItem,
                        Way::TransactGetItems => ReadWayKind::TransactGetItems,
                        Way::ScanWithFilter => ReadWayKind::ScanWithFilter,
                    },
                    requests: w.requests as f64,
                    eventual: w.eventual,
                    strong: w.strong,
                    transactional: w.transactional,
                    exact: w.exact,
                    blocks_range: w.blocks_range.map(|[a, b]| (a as f64, b as f64)),
                    lines: lines(&w.lines),
                })
                .collect(),
            lines: all_lines,
        })
    }

    /// The estimate of the page `input` reads beside the ConsumedCapacity the query reported.
    pub async fn reconcile_query(
        &self,
        profile_id: &str,
        input: QueryInput,
        actual: ConsumedCapacity,
    ) -> Result<Reconciliation, CommandError> {
        let plan = self.read_plan(profile_id, &input).await?;
        let page = plan
            .page(&input)
            .ok_or_else(|| CommandError::new(ErrorCode::Internal, "The estimate has no page."))?;
        let mut result = reconciliation(page, &plan.shape, &actual);
        if input.exclusive_start_key.is_some() {
            result.lines.push(line(&Line::note(
                "A continued page: compared with the estimate's second page, since statistics cannot say where later pages break",
            )));
        }
        Ok(result)
    }

    async fn read_plan(&self, profile_id: &str, input: &QueryInput) -> Result<ReadPlan, CommandError> {
        let description = self.describe_table(profile_id, &input.table).await?;
        let shape = table_shape(&description);
        let index = match &input.index {
            Some(name) => Some(shape.require_index(name).map_err(|e| engine_error(&e))?.clone()),
            None => None,
        };
        let mut notes = Vec::new();
        let is_gsi = index.as_ref().is_some_and(|i| i.kind == EngineIndexKind::Global);
        let requested = if input.consistent_read && !is_gsi {
            ReadKind::Strong
        } else {
            if input.consistent_read {
                notes.push(Line::rule(
                    "B.2",
                    "A GSI is read eventually consistent only: the service refuses ConsistentRead on it",
                ));
            }
            ReadKind::Eventual
        };
        // An LSI query asking for attributes the index does not project reads each item again
        // from the table (rule B.2). Without a projection an index query returns what the index
        // projects (Select defaults to ALL_PROJECTED_ATTRIBUTES on an index): no fetch.
        let fetch_from_table = match &index {
            Some(i) if i.kind == EngineIndexKind::Local => match input.projection.as_deref().map(str::trim) {
                None | Some("") => false,
                Some(names) => names.split(',').any(|path| {
                    let top = path.trim().split(['.', '[']).next().unwrap_or_default();
                    !i.projection.projects(top, &i.key, &shape.key)
                }),
            },
            _ => false,
        };
        if input.filter.as_deref().is_some_and(|f| !f.trim().is_empty()) {
            notes.push(Line::rule(
                "B.2",
                "The filter does not lower the cost: every item the key condition selects is read, and paid for, before the filter drops any",
            ));
        }
        let session = self.session(profile_id).await?;
        let (selected, base_items, source) = if session.is_embedded() {
            self.embedded_selection(input, &shape, fetch_from_table, &mut notes)
                .await?
        } else {
            self.gathered_selection(profile_id, input, &description, &mut notes)
                .await?
        };
        let scanned = self.scanned(profile_id, input, session.is_embedded()).await;
        let estimate = read::estimate_query(&read::QueryInput {
            table: shape.clone(),
            index: input.index.clone(),
            selected: selected.clone(),
            base_items,
            limit: input.limit.map(u64::from),
            fetch_from_table,
            scanned,
            partitions: 1,
        })
        .map_err(|e| engine_error(&e))?;
        Ok(ReadPlan {
            shape,
            estimate,
            source,
            selected,
            requested,
            notes,
        })
    }

    /// The embedded engine: the collection's live statistics, or — under a sort-key condition,
    /// which statistics cannot narrow — the exact sizes of the key range read locally.
    async fn embedded_selection(
        &self,
        input: &QueryInput,
        shape: &TableShape,
        fetch_from_table: bool,
        notes: &mut Vec<Line>,
    ) -> Result<(SizeProfile, Option<SizeProfile>, SizeSource), CommandError> {
        let engine = self.engine().await?;
        let pk = input.partition_value.to_engine().map_err(validation)?;
        if input.sort_condition.is_some() {
            let entries = self.key_range_sizes(input, false).await?;
            let base = if fetch_from_table {
                Some(SizeProfile::Exact {
                    sizes: self.key_range_sizes(input, true).await?,
                })
            } else {
                None
            };
            notes.push(Line::note(
                "The sort-key condition narrows the collection, so the items it selects were sized one by one on the local engine",
            ));
            return Ok((
                SizeProfile::Exact { sizes: entries },
                base,
                SizeSource::LiveStatistics,
            ));
        }
        let summary = |s: Option<CollectionSummary>| {
            let (item_count, total_bytes) = s.map_or((0, 0), |s| (s.item_count, s.size_bytes));
            SizeProfile::Summary {
                item_count,
                total_bytes,
            }
        };
        let selected = summary(
            engine
                .collection_summary(&input.table, input.index.as_deref(), &pk)
                .await
                .map_err(|e| engine_error(&e))?,
        );
        let base = match &input.index {
            Some(name)
                if shape
                    .index(name)
                    .is_some_and(|i| i.kind == EngineIndexKind::Local) =>
            {
                let table = summary(
                    engine
                        .collection_summary(&input.table, None, &pk)
                        .await
                        .map_err(|e| engine_error(&e))?,
                );
                // A sparse LSI holds fewer entries than the collection has items: the base
                // items behind them are taken at the collection's average size.
                let count = selected.item_count();
                Some(SizeProfile::Summary {
                    item_count: count,
                    total_bytes: table.average_bytes() * count,
                })
            }
            _ => None,
        };
        Ok((selected, base, SizeSource::LiveStatistics))
    }

    /// Each item's size (rule B.1) that the key condition of `input` selects, read from the
    /// embedded engine without charging anything: the index entries, or with `full` the items.
    async fn key_range_sizes(&self, input: &QueryInput, full: bool) -> Result<Vec<u64>, CommandError> {
        let engine = self.engine().await?;
        let mut names = serde_json::Map::new();
        let mut values = serde_json::Map::new();
        let description = self.engine_description(&input.table).await?;
        let keys = match &input.index {
            None => description.keys.clone(),
            Some(name) => description
                .indexes
                .iter()
                .find(|i| &i.name == name)
                .map(|i| i.keys.clone())
                .ok_or_else(|| validation(format!("The table has no index named {name}.")))?,
        };
        names.insert("#p".into(), json!(keys.partition_key.name));
        values.insert(":p".into(), json!(input.partition_value));
        let mut condition = "#p = :p".to_owned();
        if let (Some(sort), Some(sort_key)) = (&input.sort_condition, &keys.sort_key) {
            use crate::dto::SortKeyCondition as C;
            names.insert("#s".into(), json!(sort_key.name));
            let (text, low, high) = match sort {
                C::Eq { value } => ("#s = :s", value, None),
                C::Lt { value } => ("#s < :s", value, None),
                C::Le { value } => ("#s <= :s", value, None),
                C::Gt { value } => ("#s > :s", value, None),
                C::Ge { value } => ("#s >= :s", value, None),
                C::BeginsWith { value } => ("begins_with(#s, :s)", value, None),
                C::Between { low, high } => ("#s BETWEEN :s AND :h", low, Some(high)),
            };
            values.insert(":s".into(), json!(low));
            if let Some(high) = high {
                values.insert(":h".into(), json!(high));
            }
            condition = format!("{condition} AND {text}");
        }
        let mut sizes = Vec::new();
        let mut start: Option<Value> = None;
        loop {
            let mut body = json!({
                "TableName": input.table,
                "KeyConditionExpression": condition,
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": values,
                "ScanIndexForward": input.scan_index_forward,
            });
            if let Some(index) = &input.index {
                body["IndexName"] = json!(index);
                if full {
                    body["Select"] = json!("ALL_ATTRIBUTES");
                }
            }
            if let Some(start) = start.take() {
                body["ExclusiveStartKey"] = start;
            }
            let out = engine
                .call("Query", body.to_string().as_bytes())
                .await
                .map_err(|e| engine_error(&e))?;
            let page: Value = serde_json::from_slice(&out)
                .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?;
            for item in page["Items"].as_array().into_iter().flatten() {
                let item: Item = serde_json::from_value(item.clone())
                    .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?;
                let engine_item = item_to_engine(&item).map_err(validation)?;
                sizes.push(dynotable_types::item_size(&engine_item) as u64);
            }
            match page.get("LastEvaluatedKey") {
                Some(key) => start = Some(key.clone()),
                None => break,
            }
        }
        Ok(sizes)
    }

    /// DescribeTable on the embedded engine.
    async fn engine_description(&self, table: &str) -> Result<TableDescription, CommandError> {
        self.describe_table(crate::profiles::EMBEDDED_ID, table).await
    }

    /// Other connections: the collection in the statistics a scan gathered, or the table's
    /// averages when the collection is not among them (or no scan was run).
    async fn gathered_selection(
        &self,
        profile_id: &str,
        input: &QueryInput,
        description: &TableDescription,
        notes: &mut Vec<Line>,
    ) -> Result<(SizeProfile, Option<SizeProfile>, SizeSource), CommandError> {
        if let Some(name) = &input.index {
            let index = description.indexes.iter().find(|i| &i.name == name);
            let (count, bytes) = index
                .map(|i| (i.item_count.unwrap_or(0.0), i.size_bytes.unwrap_or(0.0)))
                .unwrap_or((0.0, 0.0));
            notes.push(Line::note(format!(
                "No statistics of the index {name}'s collections: sized as the whole index ({count:.0} entries, DescribeTable), an upper bound"
            )));
            return Ok((
                SizeProfile::Summary {
                    item_count: count as u64,
                    total_bytes: bytes as u64,
                },
                None,
                SizeSource::TableAverage,
            ));
        }
        if input.sort_condition.is_some() {
            notes.push(Line::note(
                "Statistics count whole collections: with a sort-key condition this is an upper bound",
            ));
        }
        match self.gathered_statistics(profile_id, &input.table).await {
            Ok(stats) => {
                if let Some(c) = stats
                    .collections
                    .iter()
                    .find(|c| c.partition_value == input.partition_value)
                {
                    return Ok((
                        SizeProfile::Summary {
                            item_count: c.item_count as u64,
                            total_bytes: c.size_bytes as u64,
                        },
                        None,
                        SizeSource::GatheredStatistics {
                            gathered_at: stats.gathered_at,
                        },
                    ));
                }
                notes.push(Line::note(
                    "The collection is not among the gathered statistics: sized as the average collection",
                ));
                Ok((average_collection(&stats), None, SizeSource::TableAverage))
            }
            Err(err) if err.code == ErrorCode::NotFound => {
                notes.push(Line::note(
                    "No statistics gathered yet: sized as the average collection of DescribeTable's counts over one key per item, the smallest possible; gather statistics for a real figure",
                ));
                let each = if description.item_count > 0.0 {
                    (description.size_bytes / description.item_count).ceil()
                } else {
                    0.0
                };
                Ok((
                    SizeProfile::Summary {
                        item_count: 1,
                        total_bytes: each as u64,
                    },
                    None,
                    SizeSource::TableAverage,
                ))
            }
            Err(err) => Err(err),
        }
    }

    /// What a Scan of the target reads, for the Scan-with-filter comparison; `None` when unknown.
    async fn scanned(&self, profile_id: &str, input: &QueryInput, embedded: bool) -> Option<SizeProfile> {
        let index = if embedded { input.index.as_deref() } else { None };
        if !embedded && input.index.is_some() {
            return None;
        }
        let stats = self
            .collection_stats(profile_id, &input.table, index)
            .await
            .ok()?;
        Some(SizeProfile::Summary {
            item_count: stats.item_count as u64,
            total_bytes: stats.size_bytes as u64,
        })
    }

    /// What a write will cost, as the item editor has it (rule B.3).
    pub async fn estimate_write(
        &self,
        profile_id: &str,
        table: &str,
        input: WriteEstimateInput,
    ) -> Result<WriteEstimate, CommandError> {
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let estimate = write_estimate(&shape, &input)?;
        Ok(WriteEstimate {
            cost: figure(&estimate.cost),
            before_bytes: estimate.table.before_bytes.map(|b| b as f64),
            after_bytes: estimate.table.after_bytes.map(|b| b as f64),
            table_units: estimate.table.capacity_units,
            indexes: estimate
                .indexes
                .iter()
                .map(|i| IndexWriteEstimate {
                    name: i.name.clone(),
                    kind: app_kind(i.kind),
                    writes: i.writes,
                    entry_before_bytes: i.entry_before_bytes.map(|b| b as f64),
                    entry_after_bytes: i.entry_after_bytes.map(|b| b as f64),
                    capacity_units: i.capacity_units,
                    charged_to_table: i.charged_to_table,
                    reason: line(&i.reason),
                })
                .collect(),
        })
    }

    /// The estimate of a write beside the ConsumedCapacity the put or delete reported.
    pub async fn reconcile_write(
        &self,
        profile_id: &str,
        table: &str,
        input: WriteEstimateInput,
        actual: ConsumedCapacity,
    ) -> Result<Reconciliation, CommandError> {
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let estimate = write_estimate(&shape, &input)?;
        Ok(reconciliation(&estimate.cost, &shape, &actual))
    }

    /// What importing `total_items` items like `sample` costs, as BatchWriteItem puts.
    pub async fn estimate_import(
        &self,
        profile_id: &str,
        table: &str,
        sample: Vec<Item>,
        total_items: f64,
    ) -> Result<ImportEstimate, CommandError> {
        if !total_items.is_finite() || total_items < sample.len() as f64 {
            return Err(validation(
                "The number of items to import must be at least the sample's size",
            ));
        }
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let sample = sample
            .iter()
            .map(item_to_engine)
            .collect::<Result<Vec<_>, String>>()
            .map_err(validation)?;
        let estimate =
            write::estimate_import(&shape, &sample, total_items as u64).map_err(|e| engine_error(&e))?;
        Ok(ImportEstimate {
            items: estimate.items as f64,
            requests: estimate.requests as f64,
            capacity_units: estimate.capacity_units,
            table_units: estimate.table_units,
            indexes: estimate
                .index_units
                .iter()
                .map(|(name, units)| CapacityFigure {
                    name: name.clone(),
                    units: *units,
                })
                .collect(),
            exact: estimate.exact,
            lines: lines(&estimate.lines),
        })
    }

    /// The load `traffic` puts on each partition key of `table`, against the per-partition
    /// ceilings (rule B.11).
    pub async fn hot_partitions(
        &self,
        profile_id: &str,
        table: &str,
        traffic: TrafficInput,
    ) -> Result<HotPartitionReport, CommandError> {
        let distribution = match traffic.spread {
            KeySpread::Uniform { keys } => {
                if !keys.is_finite() || keys < 1.0 {
                    return Err(validation("Spread the requests over at least one key"));
                }
                KeyDistribution::Uniform { keys: keys as u64 }
            }
            KeySpread::ByItemCount | KeySpread::ByBytes => {
                let stats = self.collection_stats(profile_id, table, None).await?;
                let by = if traffic.spread == KeySpread::ByBytes {
                    WeightBy::Bytes
                } else {
                    WeightBy::ItemCount
                };
                KeyDistribution::from_collection_stats(&engine_stats(&stats)?, by)
            }
        };
        hot_partition_report(&Traffic {
            reads_per_second: traffic.reads_per_second,
            read_units_per_request: traffic.read_units_per_request,
            writes_per_second: traffic.writes_per_second,
            write_units_per_request: traffic.write_units_per_request,
            distribution,
        })
    }
}

fn write_estimate(
    shape: &TableShape,
    input: &WriteEstimateInput,
) -> Result<write::WriteEstimate, CommandError> {
    let item = |i: &Option<Item>| {
        i.as_ref()
            .map(|i| item_to_engine(i).map_err(validation))
            .transpose()
    };
    write::estimate_write(&WriteInput {
        table: shape.clone(),
        kind: match input.kind {
            WriteKindInput::Put => WriteKind::Put,
            WriteKindInput::Update => WriteKind::Update,
            WriteKindInput::Delete => WriteKind::Delete,
        },
        existing: item(&input.existing)?,
        new_item: item(&input.new_item)?,
        mode: match input.mode {
            WriteModeInput::Single => WriteMode::Single,
            WriteModeInput::Batch => WriteMode::Batch,
            WriteModeInput::Transactional => WriteMode::Transactional,
        },
        condition_fails: input.condition_fails,
    })
    .map_err(|e| engine_error(&e))
}

/// The average collection of gathered statistics.
fn average_collection(stats: &CollectionStats) -> SizeProfile {
    let keys = stats.distinct_partition_keys.max(1.0);
    SizeProfile::Summary {
        item_count: (stats.item_count / keys).ceil() as u64,
        total_bytes: (stats.size_bytes / keys).ceil() as u64,
    }
}

/// The app's statistics (live or gathered) in the engine's shape, for the key distribution.
fn engine_stats(stats: &CollectionStats) -> Result<EngineStats, CommandError> {
    let largest = stats
        .collections
        .iter()
        .map(|c| {
            let json = serde_json::to_value(&c.partition_value)
                .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?;
            Ok(CollectionSummary {
                partition_key: serde_json::from_value(json)
                    .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?,
                item_count: c.item_count as u64,
                size_bytes: c.size_bytes as u64,
                limited_size_bytes: c.limited_size_bytes.map(|b| b as u64),
            })
        })
        .collect::<Result<Vec<_>, CommandError>>()?;
    Ok(EngineStats {
        distinct_partition_keys: stats.distinct_partition_keys as u64,
        item_count: stats.item_count as u64,
        size_bytes: stats.size_bytes as u64,
        largest,
        size_distribution: Vec::new(),
        collection_size_limit: stats.collection_size_limit.map(|b| b as u64),
    })
}

fn hot_partition_report(traffic: &Traffic) -> Result<HotPartitionReport, CommandError> {
    let report = hot_partitions::hot_partitions(traffic).map_err(|e| engine_error(&e))?;
    Ok(HotPartitionReport {
        partition_read_units: PARTITION_READ_UNITS,
        partition_write_units: PARTITION_WRITE_UNITS,
        table_read_units: report.table_read_units,
        table_write_units: report.table_write_units,
        throttling_keys: report.throttling_keys as f64,
        keys: report
            .keys
            .iter()
            .map(|k| {
                // A single key is named by its value as DynamoDB JSON; a group by a sentence.
                let partition_value: Option<AttributeValue> =
                    serde_json::from_str(&k.key).ok().filter(|_| k.keys == 1);
                KeyLoad {
                    label: partition_value
                        .as_ref()
                        .map_or_else(|| k.key.clone(), AttributeValue::display_text),
                    partition_value,
                    keys: k.keys as f64,
                    share: k.share,
                    read_units: k.read_units,
                    write_units: k.write_units,
                    read_ratio: k.read_ratio,
                    write_ratio: k.write_ratio,
                    throttles: k.throttles,
                    warning: k.warning,
                    lines: lines(&k.lines),
                }
            })
            .collect(),
        lines: lines(&report.lines),
    })
}

/// The default price table: one region, with the date of its figures.
pub fn default_prices() -> Vec<RegionPrices> {
    PriceTable::default()
        .regions
        .into_iter()
        .map(|r| RegionPrices {
            region: r.region,
            currency: r.currency,
            as_of: r.as_of,
            source: r.source,
            on_demand_write_per_million: r.on_demand_write_per_million,
            on_demand_read_per_million: r.on_demand_read_per_million,
            provisioned_wcu_hour: r.provisioned_wcu_hour,
            provisioned_rcu_hour: r.provisioned_rcu_hour,
            storage_gb_month: r.storage_gb_month,
        })
        .collect()
}

/// What `workload` costs a month at `prices`, on-demand and provisioned (rule B.12).
pub fn monthly_cost(prices: RegionPrices, workload: Workload) -> Result<MonthlyCost, CommandError> {
    if !workload.stored_bytes.is_finite() || workload.stored_bytes < 0.0 {
        return Err(validation("The stored bytes must be a number of at least 0"));
    }
    let cost = pricing::monthly_cost(
        &pricing::RegionPrices {
            region: prices.region,
            currency: prices.currency,
            as_of: prices.as_of,
            source: prices.source,
            on_demand_write_per_million: prices.on_demand_write_per_million,
            on_demand_read_per_million: prices.on_demand_read_per_million,
            provisioned_wcu_hour: prices.provisioned_wcu_hour,
            provisioned_rcu_hour: prices.provisioned_rcu_hour,
            storage_gb_month: prices.storage_gb_month,
        },
        &pricing::Workload {
            reads_per_second: workload.reads_per_second,
            read_units_per_request: workload.read_units_per_request,
            writes_per_second: workload.writes_per_second,
            write_units_per_request: workload.write_units_per_request,
            target_utilisation: workload.target_utilisation,
            stored_bytes: workload.stored_bytes as u64,
        },
    )
    .map_err(|e| engine_error(&e))?;
    let mode = |m: &pricing::ModeCost| ModeCost {
        reads: m.reads,
        writes: m.writes,
        total: m.total,
    };
    Ok(MonthlyCost {
        region: cost.region,
        currency: cost.currency,
        prices_as_of: cost.prices_as_of,
        on_demand: mode(&cost.on_demand),
        provisioned: mode(&cost.provisioned),
        provisioned_rcu: cost.provisioned_rcu as f64,
        provisioned_wcu: cost.provisioned_wcu as f64,
        storage: cost.storage,
        lines: lines(&cost.lines),
    })
}
