//! The indexes-side-by-side view: the same items laid out as the base table and each secondary
//! index store them.
//!
//! # Design
//!
//! The items come from one Query of a base-table collection or the first items of a Scan (one
//! request, its cost reported). Each item's entry in each index is computed by the engine's own
//! rule function ([`dynotable_engine::capacity::index_entry_image`], the one the engine writes
//! its indexes and charges index writes with): the index key it sits under (or none — a sparse
//! index — with the key attribute the item lacks), and the attributes the projection copies.
//! Entries are grouped by index partition key in the order their first item appears, and ordered
//! inside a collection by the encoded sort key, which sorts as DynamoDB sorts (rule B.9).
//!
//! On tables with an LSI, every collection shown gets its size against the item-collection
//! limit (base items plus LSI entries, rule B.7), flagged from 80 %.

use std::collections::BTreeSet;

use dynotable_builder::{Direction, KeyConditionState, ReadOperation, ReadRequest, ReturnConsumedCapacity};
use dynotable_engine::capacity::index_entry_image;
use dynotable_engine::catalog::{IndexKind as EngineIndexKind, KeySchema, ProjectionSchema};

use crate::costs::table_shape;
use crate::dto::attribute::item_to_engine;
use crate::dto::index_view::{
    AbsentItem, CollectionGauge, CollectionLimits, IndexesSideBySide, Placement, ViewCollection, ViewColumn,
    ViewEntry, ViewItem, ViewSource,
};
use crate::dto::{AttributeValue, IndexKind, Item};
use crate::requests;
use crate::{App, CommandError, ErrorCode};

/// Rule B.7: an item collection of a table with an LSI holds at most 10 GB.
pub const COLLECTION_SIZE_LIMIT: f64 = 10.0 * 1024.0 * 1024.0 * 1024.0;
/// From this share of the limit a collection is flagged.
pub const COLLECTION_WARNING: f64 = 0.8;
/// Most items the view lays out.
pub const VIEW_ITEMS: u32 = 200;

/// One collection under construction: its encoded partition key, its value, and its entries
/// with their encoded sort keys.
struct PendingCollection {
    pk: Vec<u8>,
    partition_value: AttributeValue,
    entries: Vec<(Vec<u8>, ViewEntry)>,
}

/// One column under construction.
struct Column {
    collections: Vec<PendingCollection>,
    absent: Vec<AbsentItem>,
    returns: BTreeSet<String>,
}

impl App {
    /// The items of `source` grouped by the base table's key and by each index's key.
    pub async fn indexes_side_by_side(
        &self,
        profile_id: &str,
        table: &str,
        source: ViewSource,
    ) -> Result<IndexesSideBySide, CommandError> {
        let description = self.describe_table(profile_id, table).await?;
        let shape = table_shape(&description);
        let session = self.session(profile_id).await?;
        // One request, written by dynotable-builder like every read the app sends.
        let request = match &source {
            ViewSource::Partition { value, limit } => ReadRequest {
                operation: ReadOperation::Query,
                table_name: table.to_owned(),
                index_name: None,
                key_condition: Some(KeyConditionState {
                    more_partition: Vec::new(),
                    sort_equal: Vec::new(),
                    partition_key: description.keys.partition_key.name.clone(),
                    partition_value: value.to_engine().map_err(validation)?,
                    sort: None,
                }),
                filter: None,
                projection: None,
                direction: Direction::Ascending,
                limit: Some((*limit).clamp(1, VIEW_ITEMS)),
                consistent_read: false,
                return_consumed_capacity: Some(ReturnConsumedCapacity::TOTAL),
            },
            ViewSource::Scan { limit } => ReadRequest {
                operation: ReadOperation::Scan,
                table_name: table.to_owned(),
                index_name: None,
                key_condition: None,
                filter: None,
                projection: None,
                direction: Direction::Ascending,
                limit: Some((*limit).clamp(1, VIEW_ITEMS)),
                consistent_read: false,
                return_consumed_capacity: Some(ReturnConsumedCapacity::TOTAL),
            },
        };
        let page = requests::send(&session.client, &requests::generate(&request)?, None, None).await?;
        let read_units = page.consumed_capacity.as_ref().map(|c| c.total);
        let truncated = page.last_evaluated_key.is_some();
        let items = page.items;

        let mut view_items = Vec::with_capacity(items.len());
        let mut engine_items = Vec::with_capacity(items.len());
        for (id, item) in items.iter().enumerate() {
            let engine_item = item_to_engine(item).map_err(validation)?;
            let key: Item = item
                .iter()
                .filter(|(name, _)| shape.key.contains(name))
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect();
            view_items.push(ViewItem {
                id: id as u32,
                key,
                item: item.clone(),
                size_bytes: dynotable_types::item_size(&engine_item) as u32,
            });
            engine_items.push(engine_item);
        }

        // The base table is an "index" of every attribute under the table's own key.
        let mut targets: Vec<(Option<&str>, &KeySchema, ProjectionSchema)> =
            vec![(None, &shape.key, ProjectionSchema::All)];
        for index in &shape.indexes {
            targets.push((Some(index.name.as_str()), &index.key, index.projection.clone()));
        }
        let mut columns = Vec::with_capacity(targets.len());
        let mut placements = vec![Vec::with_capacity(targets.len()); items.len()];
        for (target, (index, key, projection)) in targets.iter().enumerate() {
            let column = lay_out(&shape.key, *index, key, projection, &items, &engine_items)?;
            let (summary, kind) = match index {
                None => (None, None),
                Some(name) => {
                    let summary = description.indexes.iter().find(|i| i.name == *name);
                    (summary, summary.map(|s| s.kind))
                }
            };
            let collections: Vec<ViewCollection> = column
                .collections
                .into_iter()
                .map(
                    |PendingCollection {
                         partition_value,
                         mut entries,
                         ..
                     }| {
                        // Stable: equal sort keys (a GSI allows them) keep the items' order.
                        entries.sort_by(|a, b| a.0.cmp(&b.0));
                        ViewCollection {
                            partition_value,
                            entries: entries.into_iter().map(|(_, e)| e).collect(),
                        }
                    },
                )
                .collect();
            for (c, collection) in collections.iter().enumerate() {
                for (p, entry) in collection.entries.iter().enumerate() {
                    placements[entry.item_id as usize].push(Placement {
                        index: index.map(str::to_owned),
                        collection: Some(c as u32),
                        position: Some(p as u32),
                    });
                }
            }
            for absent in &column.absent {
                placements[absent.item_id as usize].push(Placement {
                    index: index.map(str::to_owned),
                    collection: None,
                    position: None,
                });
            }
            debug_assert!(placements.iter().all(|p| p.len() == target + 1));
            columns.push(ViewColumn {
                index: index.map(str::to_owned),
                kind,
                keys: match summary {
                    Some(s) => s.keys.clone(),
                    None => description.keys.clone(),
                },
                projection: summary.map(|s| s.projection.clone()),
                query_returns: column.returns.into_iter().collect(),
                query_note: query_note(*index, kind, projection),
                collections,
                absent: column.absent,
            });
        }

        let collection_limits = if shape.indexes.iter().any(|i| i.kind == EngineIndexKind::Local) {
            let values: Vec<AttributeValue> = columns[0]
                .collections
                .iter()
                .map(|c| c.partition_value.clone())
                .collect();
            Some(self.collection_limits(profile_id, table, &values).await?)
        } else {
            None
        };

        Ok(IndexesSideBySide {
            table: table.to_owned(),
            items: view_items,
            columns,
            placements,
            collection_limits,
            read_units,
            truncated,
        })
    }

    /// The size of each collection of `values` against the item-collection limit: live on the
    /// embedded engine (items plus LSI entries), from gathered statistics elsewhere (items only).
    async fn collection_limits(
        &self,
        profile_id: &str,
        table: &str,
        values: &[AttributeValue],
    ) -> Result<CollectionLimits, CommandError> {
        let session = self.session(profile_id).await?;
        let mut limit_bytes = COLLECTION_SIZE_LIMIT;
        let mut sizes: Vec<(AttributeValue, f64)> = Vec::new();
        if session.is_embedded() {
            let engine = self.engine().await?;
            if let Some(limit) = engine
                .collection_stats(table, None, 0)
                .await
                .map_err(|e| CommandError::from_engine(&e))?
                .collection_size_limit
            {
                limit_bytes = limit as f64;
            }
            for value in values {
                let key = value.to_engine().map_err(validation)?;
                let summary = engine
                    .collection_summary(table, None, &key)
                    .await
                    .map_err(|e| CommandError::from_engine(&e))?;
                if let Some(s) = summary {
                    sizes.push((value.clone(), s.limited_size_bytes.unwrap_or(s.size_bytes) as f64));
                }
            }
        } else if let Ok(stats) = self.gathered_statistics(profile_id, table, None).await {
            for value in values {
                if let Some(c) = stats.collections.iter().find(|c| &c.partition_value == value) {
                    sizes.push((value.clone(), c.limited_size_bytes.unwrap_or(c.size_bytes)));
                }
            }
        }
        sizes.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(CollectionLimits {
            limit_bytes,
            warning_fraction: COLLECTION_WARNING,
            collections: sizes
                .into_iter()
                .map(|(partition_value, size_bytes)| {
                    let fraction = size_bytes / limit_bytes;
                    CollectionGauge {
                        partition_value,
                        size_bytes,
                        fraction,
                        warning: fraction >= COLLECTION_WARNING,
                    }
                })
                .collect(),
        })
    }
}

/// Places every item in one column.
fn lay_out(
    table_key: &KeySchema,
    index: Option<&str>,
    key: &KeySchema,
    projection: &ProjectionSchema,
    items: &[Item],
    engine_items: &[dynotable_types::Item],
) -> Result<Column, CommandError> {
    let mut column = Column {
        collections: Vec::new(),
        absent: Vec::new(),
        returns: BTreeSet::new(),
    };
    let name = index.unwrap_or("table");
    for (id, (item, engine_item)) in items.iter().zip(engine_items).enumerate() {
        let image = match index_entry_image(table_key, name, key, projection, engine_item) {
            Ok(image) => image,
            Err(err) => {
                // An index key of the wrong type: the service would have refused the write.
                column.absent.push(AbsentItem {
                    item_id: id as u32,
                    missing: Vec::new(),
                    reason: err.message(),
                });
                continue;
            }
        };
        let Some(image) = image else {
            let missing: Vec<String> = key
                .attributes()
                .filter(|a| !item.contains_key(&a.name))
                .map(|a| a.name.clone())
                .collect();
            column.absent.push(AbsentItem {
                item_id: id as u32,
                reason: format!(
                    "No {} attribute, so the item has no entry in the sparse index {name}: an index holds only items that have every attribute of its key",
                    missing.join(" / ")
                ),
                missing,
            });
            continue;
        };
        let projected: Item = item
            .iter()
            .filter(|(n, _)| image.item.contains_key(n.as_str()))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect();
        column.returns.extend(projected.keys().cloned());
        // A multi-attribute partition key (rule B.18.3) names its collection by the list of its
        // values, in key-schema order, as the engine's collection statistics do.
        let mut values = key
            .partition_attributes()
            .map(|a| item.get(&a.name).cloned())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                CommandError::new(ErrorCode::Internal, "An index entry without its partition key.")
            })?;
        let partition_value = if values.len() == 1 {
            values.remove(0)
        } else {
            AttributeValue::L(values)
        };
        let entry = ViewEntry {
            item_id: id as u32,
            sort_value: key.sort.as_ref().and_then(|s| item.get(&s.name).cloned()),
            projected,
            size_bytes: image.size as u32,
        };
        match column.collections.iter_mut().find(|c| c.pk == image.pk) {
            Some(collection) => collection.entries.push((image.sk, entry)),
            None => column.collections.push(PendingCollection {
                pk: image.pk,
                partition_value,
                entries: vec![(image.sk, entry)],
            }),
        }
    }
    Ok(column)
}

/// What a Query on the column returns, in a sentence (rule B.2 for LSI fetches).
fn query_note(index: Option<&str>, kind: Option<IndexKind>, projection: &ProjectionSchema) -> String {
    match (index, kind, projection) {
        (None, _, _) => "A Query on the table returns every attribute of each item.".to_owned(),
        (Some(_), _, ProjectionSchema::All) => {
            "The index projects every attribute: a Query on it returns whole items, read from the index alone."
                .to_owned()
        }
        (Some(_), Some(IndexKind::Local), _) => {
            "A Query on this LSI returns the projected attributes; asking for others fetches each item from the table as well, one more read per item rounded to 4 KB on its own, charged to the table.".to_owned()
        }
        (Some(_), _, _) => {
            "A Query on this GSI returns only the projected attributes; asking for others is refused (ValidationException).".to_owned()
        }
    }
}

fn validation(message: String) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}
