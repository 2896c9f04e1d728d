//! The write of one item, shared by PutItem, UpdateItem and DeleteItem (and later by the
//! transactions): load the current item inside a write transaction, check the condition,
//! compute the new item, write it with its index entries and statistics, commit.

use dynotable_expr::{Condition, Update};
use dynotable_types::{Item, SizeCheck, check_item_size, validate_item};

use crate::api::item::{ItemCollectionMetrics, WriteItemOutput};
use crate::capacity::{self, WriteUnits};
use crate::catalog::TableSchema;
use crate::in_flight::ItemId;
use crate::items::{self, IndexEntry, StorageKey, StoredItem, WriteEffects};
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
        let entries = items::index_entries(table, &item)?;
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
/// the current item when `return_old_on_failure` (ReturnValuesOnConditionCheckFailure=ALL_OLD)
/// and, when `report` asks for it, the capacity the failed write was charged (rule B.3).
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
    return_old_on_failure: bool,
    report: CapacityReport,
    change: Change<'_>,
) -> Result<Written, ApiError> {
    // Held until the storage transaction has ended (declared before `tx`, dropped after it).
    let _claim = engine
        .in_flight()
        .claim_write(ItemId::new(table.keyspace, key))
        .ok_or_else(ApiError::transaction_conflict)?;
    let mut tx = engine.write_tx().await;
    let old = tx.load_item(table, key).await?;
    if let Some(condition) = condition
        && !condition.evaluate(old.as_ref().map(|o| &o.item))
    {
        let charge = failed_condition_charge(old.as_ref(), &change);
        let item = if return_old_on_failure {
            old.map(|o| o.item)
        } else {
            None
        };
        let mut err = ApiError::conditional_check_failed(item);
        err.consumed_capacity =
            params::consumed_capacity(report, table, Some(Charge::Write(charge)), &[]).map(Box::new);
        return Err(err);
    }

    let new = match change {
        Change::Put(prepared) => Some(prepared),
        Change::Delete => None,
        Change::Update {
            update,
            key: key_item,
        } => {
            let updated = match update {
                Some(update) => update.apply(old.as_ref().map(|o| &o.item), key_item)?,
                None => old.as_ref().map_or_else(|| key_item.clone(), |o| o.item.clone()),
            };
            Some(PreparedItem::new(table, updated, SizeCheck::Update)?)
        }
    };

    if old.is_none() && new.is_none() {
        // Deleting an item that is not there changes nothing and still costs a write unit.
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

/// The `Return*` options PutItem, UpdateItem and DeleteItem share, checked as member
/// constraints (their enumerations) in the request's envelope.
pub(crate) struct WriteOptions {
    pub return_values: Option<String>,
    pub report: CapacityReport,
    pub collection_metrics: bool,
    pub return_old_on_failure: bool,
}

impl WriteOptions {
    pub fn check(
        shape: &mut Shape,
        return_values: Option<&String>,
        return_consumed_capacity: Option<&String>,
        return_item_collection_metrics: Option<&String>,
        return_values_on_condition_check_failure: Option<&String>,
    ) -> WriteOptions {
        shape.one_of(
            "returnValues",
            return_values,
            &["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"],
        );
        let report = CapacityReport::check(shape, return_consumed_capacity);
        shape.one_of(
            "returnItemCollectionMetrics",
            return_item_collection_metrics,
            &["SIZE", "NONE"],
        );
        shape.one_of(
            "returnValuesOnConditionCheckFailure",
            return_values_on_condition_check_failure,
            &["ALL_OLD", "NONE"],
        );
        WriteOptions {
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
        size_estimate_range_g_b: items::size_estimate_range_gb(bytes),
    })
}
