//! What a Query will cost before it runs (rule B.2), sized by the engine's collections and key
//! ranges or by gathered statistics, and the same items read other ways; then what it reported.

use dynotable_engine::CollectionSummary;
use dynotable_engine::capacity::ReadKind;
use dynotable_engine::capacity::estimate::read::{self, Way};
use dynotable_engine::capacity::estimate::{Line, RequestCost, SizeProfile, TableShape};
use dynotable_engine::catalog::IndexKind as EngineIndexKind;
use serde_json::{Value, json};

use super::{consistency, engine_error, figure, line, lines, reconciliation, table_shape, validation};
use crate::dto::attribute::item_to_engine;
use crate::dto::cost::{
    QueryCostEstimate, QueryEstimate, ReadWayEstimate, ReadWayKind, Reconciliation, SizeSource,
};
use crate::dto::{CollectionStats, ConsumedCapacity, Item, QueryInput, TableDescription};
use crate::{App, CommandError, ErrorCode};

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
        // A multi-attribute partition key (rule B.18.3) names its collection by the list of its
        // values, as the engine's collection statistics do.
        let pk = match input.more_partition_values.as_slice() {
            [] => input.partition_value.to_engine().map_err(validation)?,
            more => dynotable_types::AttributeValue::L(
                std::iter::once(&input.partition_value)
                    .chain(more)
                    .map(|v| v.to_engine().map_err(validation))
                    .collect::<Result<_, _>>()?,
            ),
        };
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
        // Rule B.18.5: an equality on every attribute of a multi-attribute partition key.
        for (i, (key, value)) in keys
            .more_partition_keys
            .iter()
            .zip(&input.more_partition_values)
            .enumerate()
        {
            names.insert(format!("#p{i}"), json!(key.name));
            values.insert(format!(":p{i}"), json!(value));
            condition.push_str(&format!(" AND #p{i} = :p{i}"));
        }
        let sort_keys: Vec<_> = keys.sort_key.iter().chain(&keys.more_sort_keys).collect();
        for (i, (key, value)) in sort_keys.iter().zip(&input.sort_equal_values).enumerate() {
            names.insert(format!("#e{i}"), json!(key.name));
            values.insert(format!(":e{i}"), json!(value));
            condition.push_str(&format!(" AND #e{i} = :e{i}"));
        }
        if let (Some(sort), Some(sort_key)) = (
            &input.sort_condition,
            sort_keys.get(input.sort_equal_values.len()),
        ) {
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
        match self
            .gathered_statistics(profile_id, &input.table, input.index.as_deref())
            .await
        {
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
}

/// The average collection of gathered statistics.
fn average_collection(stats: &CollectionStats) -> SizeProfile {
    let keys = stats.distinct_partition_keys.max(1.0);
    SizeProfile::Summary {
        item_count: (stats.item_count / keys).ceil() as u64,
        total_bytes: (stats.size_bytes / keys).ceil() as u64,
    }
}
