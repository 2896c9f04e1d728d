//! Items in storage: locating an item by its key, reading it, and writing it together with its
//! index entries and the statistics of every item collection it belongs to.
//!
//! A write ([`write_item`]) runs inside the caller's transaction — its statements are appended to
//! the transaction's batch (`write_tx`) and reach SQLite together — and does, in order:
//! 1. the base item: replace or delete the entry, adjust its collection and the table's totals;
//! 2. each secondary index: the item's entry before and after ([`IndexEntry`]) decides whether
//!    the index is untouched, gets an entry, loses one, or has it moved (rule B.3, index write
//!    amplification), and the index's collections follow; an entry of an ALL projection is
//!    stored with the base item's body, serialised once;
//! 3. the stream record of the change (if the table has a stream) and the item's Time to Live
//!    expiry (if the table has TTL enabled);
//! 4. on tables with an LSI, the item-collection size limit: if the write grew the collection
//!    (base items plus LSI entries for the partition key) past the limit it fails with
//!    `ItemCollectionSizeLimitExceededException` and the caller rolls back (rule B.7).
//!
//! Nothing is written unless the caller commits, so an item and its index entries change
//! together or not at all.
//!
//! The entries themselves — keys, stored bodies, index entries — are encoded by `entry`.

use dynotable_types::Item;

use crate::capacity::{self, WriteUnits};
use crate::catalog::{IndexSchema, ProjectionSchema, TableSchema};
use crate::entry::{IndexEntry, StorageKey, StoredItem, index_entry};
use crate::write_tx::{StatementBatch, WriteTx};
use crate::{ApiError, ErrorKind};

/// What a write needs to know beyond the item: the collection size limit, the time, and who
/// is writing (a request, or Time to Live), and where the replaced versions go when
/// eventually consistent reads lag (`eventual_lag`).
#[derive(Debug, Clone)]
pub(crate) struct WriteContext {
    pub collection_size_limit: u64,
    pub now: f64,
    pub origin: crate::streams::Origin,
    pub history: Option<std::sync::Arc<crate::eventual_lag::History>>,
}

/// What a write cost and touched, for ConsumedCapacity and ItemCollectionMetrics.
#[derive(Debug, Clone, Default)]
pub(crate) struct WriteEffects {
    /// Write units per secondary index (rule B.3), in the order of `table.indexes`.
    pub index_units: Vec<WriteUnits>,
    /// On tables with an LSI: the collection's size after the write (base items + LSI entries).
    pub collection_bytes: Option<u64>,
}

/// Replaces the item at `key` (`old`, if any) by `new` (`None` deletes it), with its index
/// entries (`new_entries`, from [`index_entries`]) and all statistics, inside the caller's
/// transaction. See the module documentation for the order of work.
pub(crate) async fn write_item(
    tx: &mut WriteTx,
    table: &TableSchema,
    context: &WriteContext,
    key: &StorageKey,
    old: Option<&StoredItem>,
    new: Option<(&Item, u64, &[Option<IndexEntry>])>,
) -> Result<WriteEffects, ApiError> {
    let mut effects = write_item_statements(tx.batch(), table, context, key, old, new)?;
    // 4. The item-collection size limit, on tables with an LSI (rule B.7): the writes so far
    // are sent first, so the statistics read include this one.
    if table.has_lsi() {
        let bytes = crate::collections::lsi_collection_bytes(tx.flush().await?, table, &key.pk).await?;
        let (old_size, new_size) = (old.map(|o| o.size), new.map(|(_, size, _)| size));
        let grew = new_size.unwrap_or(0) > old_size.unwrap_or(0) || old.is_none();
        if grew && bytes > context.collection_size_limit {
            return Err(ApiError::new(
                ErrorKind::ItemCollectionSizeLimitExceededException,
                "Collection size exceeded",
            ));
        }
        effects.collection_bytes = Some(bytes);
    }
    Ok(effects)
}

/// Steps 1 to 3 of [`write_item`] (module documentation): the statements of the write, appended
/// to `batch`, with nothing sent. On its own (a batch built before the writer is taken, for a
/// table without an LSI) it is the whole write; step 4 needs the transaction.
pub(crate) fn write_item_statements(
    batch: &mut StatementBatch,
    table: &TableSchema,
    context: &WriteContext,
    key: &StorageKey,
    old: Option<&StoredItem>,
    new: Option<(&Item, u64, &[Option<IndexEntry>])>,
) -> Result<WriteEffects, ApiError> {
    // 1. The base item. Its body is serialised once: an index that projects ALL (rule B.3)
    // stores every attribute of the item, so its entry's body is the same JSON (step 2).
    let mut body = new
        .map(|(item, _, _)| serde_json::to_vec(item))
        .transpose()
        .map_err(ApiError::internal)?;
    let reused = table
        .indexes
        .iter()
        .any(|index| index.projection == ProjectionSchema::All);
    match new {
        Some((_, size, _)) => {
            let base = if reused { body.clone() } else { body.take() };
            batch.put_entry(
                table.keyspace,
                &key.pk,
                &key.sk,
                &[],
                base.unwrap_or_default(),
                size,
            );
        }
        None if old.is_some() => batch.delete_entry(table.keyspace, &key.pk, &key.sk, &[]),
        None => {}
    }
    if let Some(history) = &context.history {
        history.record(table.keyspace, key, context.now, old)?;
    }
    let old_size = old.map(|o| o.size);
    let new_size = new.map(|(_, size, _)| size);
    batch.adjust_collection(table.keyspace, &key.pk, old_size, new_size);

    // 2. Every secondary index.
    let tail = [key.pk.as_slice(), key.sk.as_slice()].concat();
    let mut effects = WriteEffects::default();
    let new_item = new.map(|(item, _, _)| item);
    for (position, index) in table.indexes.iter().enumerate() {
        let before = match old {
            Some(old) => index_entry(table, index, &old.item)?,
            None => None,
        };
        // The new entry is borrowed from the prepared item: no copy of its attributes.
        let after = new.and_then(|(_, _, entries)| entries.get(position)?.as_ref());
        let moved = match (&before, after) {
            (Some(b), Some(a)) => (&b.pk, &b.sk) != (&a.pk, &a.sk),
            _ => true,
        };
        // An entry of an ALL projection holds no copy of its item: compared by the items.
        let changed = match (&before, after, old, new_item) {
            (Some(b), Some(a), Some(old), Some(new_item)) => {
                (&b.pk, &b.sk, b.size) != (&a.pk, &a.sk, a.size)
                    || b.projected(&old.item) != a.projected(new_item)
            }
            (None, None, _, _) => false,
            _ => true,
        };
        if let Some(b) = &before
            && (after.is_none() || moved)
        {
            batch.delete_entry(index.keyspace, &b.pk, &b.sk, &tail);
            batch.adjust_collection(index.keyspace, &b.pk, Some(b.size), None);
        }
        if let Some(a) = after
            && changed
        {
            match (&body, &index.projection, new_item) {
                // The entry of an ALL projection holds the item whole: the base item's body.
                (Some(body), ProjectionSchema::All, _) => {
                    batch.put_entry(index.keyspace, &a.pk, &a.sk, &tail, body.clone(), a.size)
                }
                (_, _, Some(item)) => put_entry(
                    batch,
                    index.keyspace,
                    &a.pk,
                    &a.sk,
                    &tail,
                    a.projected(item),
                    a.size,
                )?,
                (_, _, None) => {}
            }
            let replaced = if moved {
                None
            } else {
                before.as_ref().map(|b| b.size)
            };
            batch.adjust_collection(index.keyspace, &a.pk, replaced, Some(a.size));
        }
        effects.index_units.push(capacity::index_write(
            before
                .as_ref()
                .map(|b| ((&b.pk, &b.sk), b.size))
                .as_ref()
                .map(|(k, s)| (k, *s)),
            after
                .map(|a| ((&a.pk, &a.sk), a.size))
                .as_ref()
                .map(|(k, s)| (k, *s)),
            changed,
        ));
    }

    // 3. The stream record and the Time to Live expiry, in the same transaction.
    crate::streams::record_change(
        batch,
        table,
        context.now,
        context.origin,
        old.map(|o| &o.item),
        new_item,
    )?;
    let had_expiry = crate::expiry::has_expiry(table, old.map(|o| &o.item));
    crate::expiry::track_expiry(batch, table, key, had_expiry, new_item);
    Ok(effects)
}

/// Writes one index entry for the base item at `key` and counts it in the index's collection
/// (used by a new index's backfill), on the caller's batch.
pub(crate) fn put_index_entry(
    batch: &mut StatementBatch,
    index: &IndexSchema,
    key: &StorageKey,
    entry: &IndexEntry,
    base: &Item,
) -> Result<(), ApiError> {
    let tail = [key.pk.as_slice(), key.sk.as_slice()].concat();
    put_entry(
        batch,
        index.keyspace,
        &entry.pk,
        &entry.sk,
        &tail,
        entry.projected(base),
        entry.size,
    )?;
    batch.adjust_collection(index.keyspace, &entry.pk, None, Some(entry.size));
    Ok(())
}

fn put_entry(
    batch: &mut StatementBatch,
    keyspace: i64,
    pk: &[u8],
    sk: &[u8],
    tail: &[u8],
    item: &Item,
    size: u64,
) -> Result<(), ApiError> {
    let body = serde_json::to_vec(item).map_err(ApiError::internal)?;
    batch.put_entry(keyspace, pk, sk, tail, body, size);
    Ok(())
}
