//! The item collections that form on a table and on each of its indexes, and how a collection
//! grows over time against the LSI 10 GB limit.
//!
//! A collection is every item (or index entry) with one partition-key value. On the table it
//! holds whole items, sized by rule B.1 (`dynotable_types::item_size`); on an index it holds the
//! entries the engine itself would keep, made by `dynotable_engine::capacity::index_entry_image`
//! — the function the engine maintains its indexes with — so an item without the index's key
//! attributes is not in the index (sparse) and an entry holds the keys and the projection only.
//! Sizes carry no 100-byte storage overhead: that is storage billing, not the size the limits
//! and the read and write units count (rule B.1).
//!
//! Rule B.7: on a table with a local secondary index, an item collection — the table's items
//! of one partition-key value plus their entries in every LSI — may not pass 10 GB. [`growth`]
//! projects one collection forward: each entity adds `writes_per_second` items a second,
//! shared over its collections as the sample shares them, each the sample's average size, and
//! an entity with a retention (TTL) stops growing once its oldest items start expiring.

use std::collections::BTreeMap;

use dynotable_engine::capacity::index_entry_image;
use dynotable_engine::catalog::{KeyAttribute, KeySchema, ProjectionSchema};
use dynotable_types::{AttributeValue, Item, item_size};
use serde::Serialize;

use crate::ModelError;
use crate::generate::Sample;
use crate::model::{KeyAttr, Model, Projection, TableModel, Target, TargetKind};

/// Rule B.7: the item-collection limit on tables with an LSI, 10 GB (1 GB = 1,024³ bytes).
pub const COLLECTION_LIMIT_BYTES: u64 = 10 * 1024 * 1024 * 1024;

/// One collection on one table or index.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    /// The partition-key value, in DynamoDB JSON.
    #[cfg_attr(feature = "specta", specta(type = dynotable_builder::typescript::AttributeValueJson))]
    pub key: AttributeValue,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub items: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes: u64,
    /// Items per entity type.
    #[cfg_attr(feature = "specta", specta(type = std::collections::BTreeMap<String, specta_typescript::Number>))]
    pub entities: BTreeMap<String, u64>,
}

/// The collections of one table or index, largest first.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TargetCollections {
    pub target: Target,
    pub kind: TargetKind,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub items: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes: u64,
    pub collections: Vec<Collection>,
}

pub(crate) fn key_schema(partition: &KeyAttr, sort: Option<&KeyAttr>) -> KeySchema {
    let attribute = |k: &KeyAttr| KeyAttribute {
        name: k.name.clone(),
        ty: k.ty,
    };
    KeySchema::simple(attribute(partition), sort.map(attribute))
}

pub(crate) fn projection_schema(projection: &Projection) -> ProjectionSchema {
    match projection {
        Projection::All => ProjectionSchema::All,
        Projection::KeysOnly => ProjectionSchema::KeysOnly,
        Projection::Include(names) => ProjectionSchema::Include(names.clone()),
    }
}

/// An item as it lands on one target: its partition-key value, its entry, the entry's size.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub entity: String,
    pub partition: AttributeValue,
    pub sort: Option<AttributeValue>,
    pub item: Item,
    pub bytes: u64,
}

/// The entries of `table`'s items on `target` (the table itself or one of its indexes), in
/// sample order; items outside a sparse index are left out.
pub fn entries(sample: &Sample, table: &TableModel, target: &Target) -> Result<Vec<Entry>, ModelError> {
    let targets = table.targets();
    let Some(on) = targets.iter().find(|t| &t.target == target) else {
        return Err(ModelError::model(format!(
            "the table {} has no index {:?}",
            table.name, target.index
        )));
    };
    let table_key = key_schema(&table.partition_key, table.sort_key.as_ref());
    let mut labelled: Vec<(&str, &Item)> = sample
        .entities
        .iter()
        .filter(|e| e.table == table.name)
        .flat_map(|e| e.items.iter().map(move |i| (e.entity.as_str(), i)))
        .collect();
    labelled.extend(table.items.iter().map(|i| ("(typed)", i)));
    let mut out = Vec::new();
    for (entity, item) in labelled {
        let (entry, bytes) = match &target.index {
            None => (item.clone(), item_size(item) as u64),
            Some(name) => {
                let index = table.index(name).expect("target listed by the table");
                let image = index_entry_image(
                    &table_key,
                    name,
                    &key_schema(&index.partition_key, index.sort_key.as_ref()),
                    &projection_schema(&index.projection),
                    item,
                )
                .map_err(|e| ModelError::model(format!("an item of {entity} on index {name}: {e}")))?;
                match image {
                    Some(image) => (image.item, image.size),
                    None => continue,
                }
            }
        };
        let Some(partition) = entry.get(&on.partition.name).cloned() else {
            continue;
        };
        let sort = on.sort.and_then(|s| entry.get(&s.name).cloned());
        out.push(Entry {
            entity: entity.to_owned(),
            partition,
            sort,
            item: entry,
            bytes,
        });
    }
    Ok(out)
}

/// A stable text form of a key value, for grouping and ordering.
pub(crate) fn key_text(value: &AttributeValue) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The collections of every table and index of the model.
pub fn collections(model: &Model, sample: &Sample) -> Result<Vec<TargetCollections>, ModelError> {
    let mut out = Vec::new();
    for table in &model.tables {
        for target in table.targets() {
            let mut groups: BTreeMap<String, Collection> = BTreeMap::new();
            for entry in entries(sample, table, &target.target)? {
                let group = groups
                    .entry(key_text(&entry.partition))
                    .or_insert_with(|| Collection {
                        key: entry.partition.clone(),
                        items: 0,
                        bytes: 0,
                        entities: BTreeMap::new(),
                    });
                group.items += 1;
                group.bytes += entry.bytes;
                *group.entities.entry(entry.entity).or_insert(0) += 1;
            }
            let mut collections: Vec<Collection> = groups.into_values().collect();
            collections.sort_by(|a, b| {
                b.bytes
                    .cmp(&a.bytes)
                    .then_with(|| key_text(&a.key).cmp(&key_text(&b.key)))
            });
            out.push(TargetCollections {
                target: target.target.clone(),
                kind: target.kind,
                items: collections.iter().map(|c| c.items).sum(),
                bytes: collections.iter().map(|c| c.bytes).sum(),
                collections,
            });
        }
    }
    Ok(out)
}

/// One collection's size projected over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Growth {
    pub table: String,
    #[cfg_attr(feature = "specta", specta(type = dynotable_builder::typescript::AttributeValueJson))]
    pub key: AttributeValue,
    /// The sample's bytes, table items plus LSI entries.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes_now: u64,
    /// Bytes added a day while nothing expires.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes_per_day: f64,
    /// The size once every entity with a retention is at its steady state, if all have one.
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub steady_bytes: Option<f64>,
    /// `(day, bytes)` at 30, 90, 180, 365, 730 and 1,095 days.
    #[cfg_attr(feature = "specta", specta(type = Vec<(u32, specta_typescript::Number)>))]
    pub points: Vec<(u32, f64)>,
    /// The 10 GB limit when the table has an LSI (rule B.7), else none.
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub limit_bytes: Option<u64>,
    /// The first day the collection passes the limit, if it ever does (within 100 years).
    pub days_to_limit: Option<u32>,
}

/// How the collection `key` of `table` grows (items and LSI entries, rule B.7).
pub fn growth(
    model: &Model,
    sample: &Sample,
    table: &str,
    key: &AttributeValue,
) -> Result<Growth, ModelError> {
    let table = model
        .table(table)
        .ok_or_else(|| ModelError::model(format!("the model has no table {table}")))?;
    // Per entity: (items in this collection, bytes in it, items in all the table).
    let mut per_entity: BTreeMap<String, (u64, u64, u64)> = BTreeMap::new();
    let mut bytes_now = 0;
    let mut lsi_targets = vec![Target {
        table: table.name.clone(),
        index: None,
    }];
    lsi_targets.extend(table.local_indexes.iter().map(|i| Target {
        table: table.name.clone(),
        index: Some(i.name.clone()),
    }));
    for (n, target) in lsi_targets.iter().enumerate() {
        for entry in entries(sample, table, target)? {
            let slot = per_entity.entry(entry.entity.clone()).or_insert((0, 0, 0));
            if n == 0 {
                slot.2 += 1;
            }
            if &entry.partition == key {
                if n == 0 {
                    slot.0 += 1;
                }
                slot.1 += entry.bytes;
                bytes_now += entry.bytes;
            }
        }
    }
    // (bytes a day, retention in days) per entity writing into this collection.
    let mut rates: Vec<(f64, Option<f64>)> = Vec::new();
    for (name, (items_here, bytes_here, items_all)) in &per_entity {
        let Some(entity) = model.entity(name) else {
            continue;
        };
        if *items_here == 0 || *items_all == 0 || entity.writes_per_second <= 0.0 {
            continue;
        }
        let share = *items_here as f64 / *items_all as f64;
        let average = *bytes_here as f64 / *items_here as f64;
        rates.push((
            entity.writes_per_second * 86_400.0 * share * average,
            entity.retention_days,
        ));
    }
    let at = |day: f64| -> f64 {
        bytes_now as f64
            + rates
                .iter()
                .map(|(rate, retention)| rate * retention.map_or(day, |r| day.min(r)))
                .sum::<f64>()
    };
    let limit_bytes = (!table.local_indexes.is_empty()).then_some(COLLECTION_LIMIT_BYTES);
    let days_to_limit = limit_bytes.and_then(|limit| {
        let limit = limit as f64;
        if at(36_500.0) <= limit {
            return None;
        }
        let (mut low, mut high) = (0u32, 36_500u32);
        while low < high {
            let mid = (low + high) / 2;
            if at(f64::from(mid)) > limit {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        Some(low)
    });
    Ok(Growth {
        table: table.name.clone(),
        key: key.clone(),
        bytes_now,
        // An empty f64 sum is -0.0; a collection nothing is written to grows by 0.
        bytes_per_day: rates.iter().map(|(rate, _)| rate).sum::<f64>() + 0.0,
        steady_bytes: rates
            .iter()
            .all(|(_, retention)| retention.is_some())
            .then(|| at(f64::MAX)),
        points: [30u32, 90, 180, 365, 730, 1095]
            .iter()
            .map(|d| (*d, at(f64::from(*d))))
            .collect(),
        limit_bytes,
        days_to_limit,
    })
}
