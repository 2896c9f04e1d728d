//! BatchWriteItem: up to 25 puts and deletes over one or more tables (rule B.7). Every request
//! is validated before anything is written; then all are written in one storage transaction.
//! Each item is charged like a PutItem or DeleteItem, rounded per item (rule B.3).
//!
//! Each item is claimed as a single-item write (`in_flight`) before the writer is awaited. A
//! put or delete whose item an ongoing TransactWriteItems holds is not written, not charged, and
//! comes back in `UnprocessedItems` for the caller to send again: BatchWriteItem's errors do not
//! include `TransactionConflictException`, and a request of the batch that could not be
//! processed is returned in `UnprocessedItems` (API reference, BatchWriteItem). While the batch
//! is in flight its items make a TransactGetItems or TransactWriteItems that includes them
//! cancel with `TransactionConflict` (DG `transaction-apis.html`, "Transaction conflict handling
//! in DynamoDB").

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use dynotable_types::{ConstraintViolation, SizeCheck};

use crate::api::item::{BatchWriteItemInput, BatchWriteItemOutput, ItemCollectionMetrics};
use crate::capacity::{self, WriteUnits};
use crate::catalog::TableSchema;
use crate::in_flight::ItemId;
use crate::items::{self, StorageKey};
use crate::ops::item_write::PreparedItem;
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// Rule B.7: at most 25 put or delete requests in one BatchWriteItem.
const MAX_REQUESTS: usize = 25;

enum Request {
    Put(PreparedItem),
    Delete,
}

struct TableWrites {
    table: Arc<TableSchema>,
    writes: Vec<(StorageKey, dynotable_types::Item, Request)>,
}

pub async fn run(engine: &Engine, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput, ApiError> {
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.one_of(
        "returnItemCollectionMetrics",
        input.return_item_collection_metrics.as_ref(),
        &["SIZE", "NONE"],
    );
    let request_items = input.request_items.unwrap_or_default();
    if request_items.is_empty() {
        shape.push(ConstraintViolation {
            field: "requestItems".into(),
            value: None,
            constraint: "Member must have length greater than or equal to 1".into(),
        });
    }
    for (name, requests) in &request_items {
        shape.name(&format!("requestItems.{name}.member.tableName"), Some(name));
        if requests.is_empty() || requests.len() > MAX_REQUESTS {
            shape.push(ConstraintViolation {
                field: "requestItems".into(),
                value: None,
                constraint: format!(
                    "Map value must satisfy constraint: [Member must have length less than or equal to {MAX_REQUESTS}, Member must have length greater than or equal to 1]"
                ),
            });
        }
    }
    shape.finish()?;
    let total: usize = request_items.values().map(Vec::len).sum();
    if total > MAX_REQUESTS {
        return Err(ApiError::validation(
            "Too many items requested for the BatchWriteItem call",
        ));
    }

    // Validate everything first: values, tables, keys, sizes, index keys, duplicates.
    let mut batches = Vec::new();
    for (name, requests) in request_items {
        let table = engine.table(&name)?;
        let mut seen = BTreeSet::new();
        let mut writes = Vec::new();
        for request in requests {
            let (key, key_item, write) = match (request.put_request, request.delete_request) {
                (Some(put), None) => {
                    let item = put.item.map(|c| c.into_result()).transpose()?.unwrap_or_default();
                    // BatchWriteItem reports a key of the wrong type as a schema mismatch (rule B.10).
                    let key = StorageKey::of_item(&table, &item).map_err(|err| {
                        if err.message.contains("Type mismatch") {
                            ApiError::validation("The provided key element does not match the schema")
                        } else {
                            err
                        }
                    })?;
                    let key_item = items::key_of(&table.key, &item);
                    (
                        key,
                        key_item,
                        Request::Put(PreparedItem::new(&table, item, SizeCheck::Write)?),
                    )
                }
                (None, Some(delete)) => {
                    let key_item = delete
                        .key
                        .map(|c| c.into_result())
                        .transpose()?
                        .unwrap_or_default();
                    (StorageKey::of_key(&table, &key_item)?, key_item, Request::Delete)
                }
                _ => {
                    // DynoTable's wording; the service's is not recorded.
                    return Err(ApiError::validation(
                        "One or more parameter values were invalid: A WriteRequest must contain exactly one of PutRequest or DeleteRequest",
                    ));
                }
            };
            if !seen.insert(key.clone()) {
                return Err(ApiError::validation(
                    "Provided list of item keys contains duplicates",
                ));
            }
            writes.push((key, key_item, write));
        }
        batches.push((name, TableWrites { table, writes }));
    }

    let mut output = BatchWriteItemOutput::default();
    // Claim every item; held until the storage transaction has ended (declared before `tx`).
    let items: Vec<ItemId> = batches
        .iter()
        .flat_map(|(_, batch)| {
            batch
                .writes
                .iter()
                .map(|(key, _, _)| ItemId::new(batch.table.keyspace, key))
        })
        .collect();
    let (_claim, held) = engine.in_flight().claim_writes(&items);
    let mut held = held.into_iter();
    for (name, batch) in &mut batches {
        for write in std::mem::take(&mut batch.writes) {
            if held.next().unwrap_or(false) {
                output
                    .unprocessed_items
                    .entry(name.clone())
                    .or_default()
                    .push(unprocessed(write)?);
            } else {
                batch.writes.push(write);
            }
        }
    }
    batches.retain(|(_, batch)| !batch.writes.is_empty());
    if batches.is_empty() {
        output.consumed_capacity = (report != CapacityReport::None).then(Vec::new);
        output.item_collection_metrics =
            (input.return_item_collection_metrics.as_deref() == Some("SIZE")).then(BTreeMap::new);
        return Ok(output);
    }

    let context = engine.write_context();
    let asked_metrics = input.return_item_collection_metrics.as_deref() == Some("SIZE");
    let mut capacities = Vec::new();
    let mut metrics: BTreeMap<String, Vec<ItemCollectionMetrics>> = BTreeMap::new();
    let mut tx = engine.write_tx().await;
    for (name, batch) in &batches {
        let table = &batch.table;
        let mut table_units = WriteUnits(0);
        let mut index_units = vec![WriteUnits(0); table.indexes.len()];
        // Every old item of the table in one read (the keys are distinct), sent with what the
        // transaction has pending.
        let keys: Vec<StorageKey> = batch.writes.iter().map(|(key, _, _)| key.clone()).collect();
        let olds = tx.load_items(table, &keys).await?;
        for ((key, key_item, write), old) in batch.writes.iter().zip(olds) {
            let new = match write {
                Request::Put(prepared) => Some((&prepared.item, prepared.size, prepared.entries.as_slice())),
                Request::Delete => None,
            };
            table_units +=
                capacity::item_write(old.as_ref().map(|o| o.size), new.map(|(_, size, _)| size), false);
            if old.is_none() && new.is_none() {
                continue;
            }
            let effects = items::write_item(&mut tx, table, &context, key, old.as_ref(), new).await?;
            for (total, units) in index_units.iter_mut().zip(&effects.index_units) {
                *total += *units;
            }
            if let Some(m) =
                crate::ops::item_write::collection_metrics(asked_metrics, table, key_item, &effects)
            {
                metrics.entry(name.clone()).or_default().push(m);
            }
        }
        if let Some(consumed) = params::consumed_capacity(
            report,
            table,
            Some(Charge::Write(table_units)),
            &params::index_write_charges(&index_units),
        ) {
            capacities.push(consumed);
        }
    }
    tx.commit().await?;
    output.consumed_capacity = (report != CapacityReport::None).then_some(capacities);
    output.item_collection_metrics = asked_metrics.then_some(metrics);
    Ok(output)
}

/// A write request returned in `UnprocessedItems`, as the caller sent it.
fn unprocessed(
    (_, key_item, write): (StorageKey, dynotable_types::Item, Request),
) -> Result<serde_json::Value, ApiError> {
    let (request, member, item) = match write {
        Request::Put(prepared) => ("PutRequest", "Item", prepared.item),
        Request::Delete => ("DeleteRequest", "Key", key_item),
    };
    let item = serde_json::to_value(item).map_err(ApiError::internal)?;
    let inner = serde_json::Map::from_iter([(member.to_owned(), item)]);
    Ok(serde_json::Value::Object(serde_json::Map::from_iter([(
        request.to_owned(),
        serde_json::Value::Object(inner),
    )])))
}
