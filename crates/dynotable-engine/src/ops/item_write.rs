//! The write of one item, shared by PutItem, UpdateItem and DeleteItem (and the PartiQL
//! statements that run them): load the current item inside a write transaction, check the
//! condition, compute the new item, write it with its index entries and statistics, commit.
//!
//! # A condition that fails on the cached item
//!
//! A write whose condition is false writes nothing — no item, no index entry, no statistics, no
//! stream record — and answers `ConditionalCheckFailedException` with what the current item
//! decides: the item itself for ReturnValuesOnConditionCheckFailure=ALL_OLD, and the capacity
//! charged for it (rule B.3). It is a read. So once the write holds its claim on the item
//! (`in_flight`), it first asks the item cache for the item's committed state
//! (`ItemCache::committed_item`); if the cache has it and the condition is false on it, the
//! write answers from it without taking the writer (without the writer lock's queue and the two round trips to SQLite's thread that
//! `BEGIN IMMEDIATE`+`SELECT` and the `ROLLBACK` cost). While writes to the item's cache shard
//! are in flight, it waits for their release (a few times at most) and looks again, outside
//! the writer's queue: a hot item is written all the time, and requests queued for the writer
//! keep a group commit open (`writer`) — and with it the marks of every item in the group.
//! When the condition holds on the cached item, or the cache does not have it (a miss, still a
//! write in flight, no cache), the write takes the writer and decides on the item read inside
//! its transaction, as before.
//!
//! Why the answer is linearizable — the one a request that took the writer could have given:
//!
//! - The cache's invariant (`item_cache`, "Strong consistency"): while no write to a shard is
//!   in flight, each entry of the shard is its key's committed item. Every change to a base
//!   item marks its key before its statements reach SQLite and releases it after `COMMIT`
//!   returned, before the write is acknowledged: PutItem, UpdateItem, DeleteItem,
//!   BatchWriteItem, TransactWriteItems, the PartiQL statements and the TTL sweep all write
//!   through a `WriteTx`, which refuses to send an item change it has not marked, and a group
//!   commit's members keep their marks until the group's `COMMIT` returned (`writer`);
//!   DeleteTable marks every shard. `committed_item` reads the entry under the shard's guard,
//!   under which all those marks and releases happen, so what it returns was the committed
//!   item at that instant: the linearization point of the answer, which lies within the
//!   request. A write acknowledged before the request began was released before it began, so
//!   the answer reflects it; a write not yet committed is not in it.
//! - What is evaluated is that snapshot, the same stored body (and size) the transaction would
//!   have read from SQLite: the same condition result, the same ALL_OLD item, the same charge
//!   ([`condition_failed`] builds the error for both paths).
//! - Only a false condition is answered. A condition that is true on the snapshot needs the
//!   writer anyway, and is evaluated again on the item the transaction reads, so a stale
//!   snapshot could at worst send a write the long way, never let one through.
//! - The writer's own answer to a false condition waits for what it read to be committed: a
//!   request that joined an open group read the items as the group's earlier members left
//!   them, before their `COMMIT` (`WriteTx::end_unchanged`).
//! - The claim is taken first, as before: an item that an ongoing TransactWriteItems holds is
//!   still a `TransactionConflictException`, whatever the condition, and a transaction that
//!   meets the claim is cancelled as it would have been. The TTL sweep takes no claim; it
//!   marks the item like every other write, which is what the answer depends on.

use dynotable_expr::{Condition, Update};
use dynotable_types::{Item, SizeCheck, check_item_size, check_size, validate_item};

use crate::api::item::{ItemCollectionMetrics, WriteItemOutput};
use crate::capacity::{self, WriteUnits};
use crate::catalog::{IndexKind, TableSchema};
use crate::entry::{self, IndexEntry, StorageKey, StoredItem};
use crate::in_flight::ItemId;
use crate::item_cache::KeyRef;
use crate::items::{self, WriteEffects};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// What the write does to the item.
pub(crate) enum Change<'a> {
    /// Replace it with this item (already validated, with its size and index entries).
    Put(PreparedItem),
    /// Apply an update expression (or none: the item is created with only its key) to it.
    Update {
        update: Option<&'a Update>,
        key: &'a Item,
    },
    /// Delete it.
    Delete,
}

/// An item checked for writing: DynamoDB's value rules, the 400 KB limit and index keys.
pub(crate) struct PreparedItem {
    pub item: Item,
    pub size: u64,
    pub entries: Vec<Option<IndexEntry>>,
}

impl PreparedItem {
    pub fn new(table: &TableSchema, item: Item, check: SizeCheck) -> Result<PreparedItem, ApiError> {
        validate_item(&item)?;
        let size = check_item_size(&item, check)? as u64;
        let entries = entry::index_entries(table, &item)?;
        // Rule B.7: on a table with local secondary indexes the 400 KB is the item's size plus
        // its entries in every LSI (an entry: the table's keys, the index's sort key and the
        // projected attributes, rule B.1). The answer is the one for an item over 400 KB.
        let lsi_bytes: u64 = table
            .indexes
            .iter()
            .zip(&entries)
            .filter(|(index, _)| index.kind == IndexKind::Local)
            .filter_map(|(_, entry)| entry.as_ref().map(|entry| entry.size))
            .sum();
        if lsi_bytes > 0 {
            check_size((size + lsi_bytes) as usize, check)?;
        }
        Ok(PreparedItem { item, size, entries })
    }
}

/// What happened, for the response.
pub(crate) struct Written {
    pub old: Option<StoredItem>,
    pub new: Option<Item>,
    pub units: WriteUnits,
    pub effects: WriteEffects,
}

/// Runs one conditional write. A false condition is `ConditionalCheckFailedException`, carrying
/// the current item when `options` ask for it (ReturnValuesOnConditionCheckFailure=ALL_OLD)
/// and, when their report asks for it, the capacity the failed write was charged (rule B.3).
///
/// The item is claimed first (`in_flight`): if an ongoing TransactWriteItems includes it, the
/// write fails at once with `TransactionConflictException` (DG `transaction-apis.html`,
/// "Transaction conflict handling in DynamoDB"), without reading the item or waiting for the
/// writer — so it consumes no capacity and carries none: the exception has only a message, and
/// DynamoDB documents a charge for a failed condition (rule B.3), not for a conflict.
pub(crate) async fn execute(
    engine: &Engine,
    table: &TableSchema,
    key: &StorageKey,
    condition: Option<&Condition>,
    options: &WriteOptions,
    change: Change<'_>,
) -> Result<Written, ApiError> {
    // Held until the storage transaction has ended (declared before `tx`, dropped after it).
    let _claim = engine
        .in_flight()
        .claim_write(ItemId::new(table.keyspace, key))
        .ok_or_else(ApiError::transaction_conflict)?;
    // A condition false on the cached committed item is answered without the writer (see the
    // module documentation).
    if let Some(condition) = condition
        && let Some(committed) = committed_item(engine, table, key).await?
        && !condition.evaluate(committed.as_ref().map(|o| &o.item))
    {
        return Err(condition_failed(table, committed, &change, options));
    }
    let mut tx = engine.write_tx().await;
    let old = tx.load_item(table, key).await?;
    if let Some(condition) = condition
        && !condition.evaluate(old.as_ref().map(|o| &o.item))
    {
        // Answered once what was read is committed (`WriteTx::end_unchanged`).
        tx.end_unchanged().await?;
        return Err(condition_failed(table, old, &change, options));
    }

    let new = match change {
        Change::Put(prepared) => Some(prepared),
        Change::Delete => None,
        Change::Update {
            update,
            key: key_item,
        } => {
            let updated = match update {
                // Only REMOVE / DELETE actions on an item that does not exist: nothing is
                // created (`Update::creates_item`), and the write is charged as a delete of a
                // missing item is.
                Some(update) if old.is_none() && !update.creates_item() => None,
                // Rule B.6.2: an index key attribute SET to a value of another type.
                Some(update) => Some(
                    update
                        .apply(old.as_ref().map(|o| &o.item), key_item)
                        .map_err(ApiError::from)
                        .and_then(|item| {
                            params::check_updated_index_keys(table, update, &item).map(|()| item)
                        }),
                ),
                None => Some(Ok(old
                    .as_ref()
                    .map_or_else(|| key_item.clone(), |o| o.item.clone()))),
            };
            match updated
                .map(|updated| {
                    updated.and_then(|updated| PreparedItem::new(table, updated, SizeCheck::Update))
                })
                .transpose()
            {
                Ok(prepared) => prepared,
                Err(err) => {
                    // An update that cannot apply to the item read: the same.
                    tx.end_unchanged().await?;
                    return Err(err);
                }
            }
        }
    };

    if old.is_none() && new.is_none() {
        // Deleting an item that is not there (or an update that creates nothing on it, see
        // above) changes nothing and still costs a write unit.
        tx.commit().await?;
        return Ok(Written {
            old,
            new: None,
            units: capacity::item_write(None, None, false),
            effects: WriteEffects::default(),
        });
    }
    let effects = items::write_item(
        &mut tx,
        table,
        &engine.write_context(),
        key,
        old.as_ref(),
        new.as_ref().map(|n| (&n.item, n.size, n.entries.as_slice())),
    )
    .await?;
    tx.commit().await?;
    let units = capacity::item_write(old.as_ref().map(|o| o.size), new.as_ref().map(|n| n.size), false);
    Ok(Written {
        old,
        new: new.map(|n| n.item),
        units,
        effects,
    })
}

/// The item at `key` as committed, decoded, when the item cache has it and no write to it is
/// in flight (`Some(None)`: committed as absent); `None` when the writer must read it.
async fn committed_item(
    engine: &Engine,
    table: &TableSchema,
    key: &StorageKey,
) -> Result<Option<Option<StoredItem>>, ApiError> {
    let Some(cache) = engine.inner.items.as_ref() else {
        return Ok(None);
    };
    let Some(cached) = cache
        .committed_item(KeyRef::item(table.keyspace, &key.pk, &key.sk))
        .await
    else {
        return Ok(None);
    };
    let item = cached
        .map(|stored| entry::decode_entry(stored.body.as_bytes(), stored.size as i64))
        .transpose()?;
    Ok(Some(item))
}

/// `ConditionalCheckFailedException` for a write whose condition was false on `old`: with the
/// item when ReturnValuesOnConditionCheckFailure=ALL_OLD, and the capacity it was charged when
/// ReturnConsumedCapacity asks (rule B.3).
fn condition_failed(
    table: &TableSchema,
    old: Option<StoredItem>,
    change: &Change<'_>,
    options: &WriteOptions,
) -> ApiError {
    let charge = failed_condition_charge(old.as_ref(), change);
    let item = if options.return_old_on_failure {
        old.map(|o| o.item)
    } else {
        None
    };
    let mut err = ApiError::conditional_check_failed(item);
    err.consumed_capacity = params::consumed_capacity(
        options.report,
        table,
        &options.named,
        Some(Charge::Write(charge)),
        &[],
    )
    .map(Box::new);
    err
}

/// What a write whose condition was false is charged (rule B.3): the existing item against the
/// item the write tried to leave — the put item, or the update applied to the existing item.
fn failed_condition_charge(old: Option<&StoredItem>, change: &Change<'_>) -> WriteUnits {
    let attempted = match (change, old) {
        (Change::Put(prepared), _) => Some(prepared.size),
        (
            Change::Update {
                update: Some(update),
                key,
            },
            Some(old),
        ) => update
            .apply(Some(&old.item), key)
            .ok()
            .map(|item| dynotable_types::item_size(&item) as u64),
        _ => None,
    };
    capacity::failed_condition_write(old.map(|o| o.size), attempted)
}

/// The order in which a write operation's members are listed in the envelope (rule B.15):
/// PutItem and DeleteItem list ReturnValues first, UpdateItem ReturnConsumedCapacity.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemberOrder {
    ReturnValuesFirst,
    CapacityFirst,
}

/// The `Return*` options PutItem, UpdateItem and DeleteItem share, checked as member
/// constraints (their enumerations) in the request's envelope.
pub(crate) struct WriteOptions {
    /// The table as the request named it (its name or ARN), which ConsumedCapacity echoes.
    pub named: String,
    pub return_values: Option<String>,
    pub report: CapacityReport,
    pub collection_metrics: bool,
    pub return_old_on_failure: bool,
}

impl WriteOptions {
    /// Checks the options together with the table's name and the operation's required member
    /// (`item` or `key`: its name, and whether it is there), in the operation's order.
    #[allow(clippy::too_many_arguments)]
    pub fn check(
        shape: &mut Shape,
        order: MemberOrder,
        table_name: Option<&String>,
        (required, present): (&str, bool),
        return_values: Option<&String>,
        return_consumed_capacity: Option<&String>,
        return_item_collection_metrics: Option<&String>,
        return_values_on_condition_check_failure: Option<&String>,
    ) -> WriteOptions {
        let return_values_member = |shape: &mut Shape| {
            shape.one_of(
                "returnValues",
                return_values,
                // Rule B.15: the order the service lists them in, not the API model's.
                &["ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW"],
            )
        };
        let required_member = |shape: &mut Shape| {
            if !present {
                shape.push(dynotable_types::ConstraintViolation::not_null(required));
            }
        };
        let metrics_member = |shape: &mut Shape| {
            shape.one_of(
                "returnItemCollectionMetrics",
                return_item_collection_metrics,
                &["SIZE", "NONE"],
            )
        };
        let report = match order {
            MemberOrder::ReturnValuesFirst => {
                return_values_member(shape);
                shape.table("tableName", table_name);
                required_member(shape);
                let report = CapacityReport::check(shape, return_consumed_capacity);
                metrics_member(shape);
                report
            }
            MemberOrder::CapacityFirst => {
                let report = CapacityReport::check(shape, return_consumed_capacity);
                shape.table("tableName", table_name);
                metrics_member(shape);
                return_values_member(shape);
                required_member(shape);
                report
            }
        };
        shape.one_of(
            "returnValuesOnConditionCheckFailure",
            return_values_on_condition_check_failure,
            &["ALL_OLD", "NONE"],
        );
        WriteOptions {
            named: table_name.cloned().unwrap_or_default(),
            return_values: return_values.cloned(),
            report,
            collection_metrics: return_item_collection_metrics.map(String::as_str) == Some("SIZE"),
            return_old_on_failure: return_values_on_condition_check_failure.map(String::as_str)
                == Some("ALL_OLD"),
        }
    }

    /// PutItem and DeleteItem take only ALL_OLD or NONE; whether the old item is returned.
    pub fn old_or_none(&self) -> Result<bool, ApiError> {
        match self.return_values.as_deref() {
            None | Some("NONE") => Ok(false),
            Some("ALL_OLD") => Ok(true),
            Some(_) => Err(ApiError::validation("ReturnValues can only be ALL_OLD or NONE")),
        }
    }

    /// The response of a write: `attributes` as ReturnValues chose them, ConsumedCapacity and
    /// ItemCollectionMetrics as asked.
    pub fn output(
        &self,
        table: &TableSchema,
        key_item: &Item,
        written: &Written,
        attributes: Option<Item>,
    ) -> WriteItemOutput {
        WriteItemOutput {
            attributes,
            consumed_capacity: params::consumed_capacity(
                self.report,
                table,
                &self.named,
                Some(Charge::Write(written.units)),
                &params::index_write_charges(&written.effects.index_units),
            ),
            item_collection_metrics: collection_metrics(
                self.collection_metrics,
                table,
                key_item,
                &written.effects,
            ),
        }
    }
}

/// `ItemCollectionMetrics` for a write, when asked for and the table has an LSI (rule B.7).
pub(crate) fn collection_metrics(
    asked: bool,
    table: &TableSchema,
    item_key: &Item,
    effects: &WriteEffects,
) -> Option<ItemCollectionMetrics> {
    let bytes = effects.collection_bytes?;
    if !asked {
        return None;
    }
    let pk = &table.key.partition.name;
    let key: Item = item_key
        .get(pk)
        .map(|v| (pk.clone(), v.clone()))
        .into_iter()
        .collect();
    Some(ItemCollectionMetrics {
        item_collection_key: key,
        size_estimate_range_g_b: crate::collections::size_estimate_range_gb(bytes),
    })
}

#[cfg(test)]
mod tests;
