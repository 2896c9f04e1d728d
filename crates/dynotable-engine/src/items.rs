//! Items in storage: locating an item by its key, reading it, and writing it together with its
//! index entries and the statistics of every item collection it belongs to.
//!
//! A write ([`write_item`]) runs inside the caller's transaction — its statements are appended to
//! the transaction's batch (`write_tx`) and reach SQLite together — and does, in order:
//! 1. the base item: replace or delete the entry, adjust its collection and the table's totals;
//! 2. each secondary index: the item's entry before and after ([`IndexEntry`]) decides whether
//!    the index is untouched, gets an entry, loses one, or has it moved (rule B.3, index write
//!    amplification), and the index's collections follow;
//! 3. the stream record of the change (if the table has a stream) and the item's Time to Live
//!    expiry (if the table has TTL enabled);
//! 4. on tables with an LSI, the item-collection size limit: if the write grew the collection
//!    (base items plus LSI entries for the partition key) past the limit it fails with
//!    `ItemCollectionSizeLimitExceededException` and the caller rolls back (rule B.7).
//!
//! Nothing is written unless the caller commits, so an item and its index entries change
//! together or not at all.

use dynotable_types::{Item, KeyRef, KeyRole, ValidationError};
use sqlx::{Row, SqliteConnection};

use crate::capacity::{self, WriteUnits};
use crate::catalog::{IndexKind, IndexSchema, KeySchema, TableSchema};
use crate::write_tx::{StatementBatch, WriteTx};
use crate::{ApiError, ErrorKind};

/// Where an item lives: its encoded partition and sort key (`sk` is empty without a sort key).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct StorageKey {
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
}

impl StorageKey {
    /// The key of an item being written (PutItem and friends): key attributes present, typed,
    /// non-empty and within their size limits.
    pub fn of_item(table: &TableSchema, item: &Item) -> Result<StorageKey, ApiError> {
        let pk = key_checker(&table.key, KeyRole::Partition).check_in_item(item)?;
        let sk = match &table.key.sort {
            Some(_) => Some(key_checker(&table.key, KeyRole::Sort).check_in_item(item)?),
            None => None,
        };
        Ok(StorageKey::encode(pk, sk))
    }

    /// The key named by a `Key` parameter: exactly the key attributes, typed (rule B.10:
    /// `The provided key element does not match the schema`).
    pub fn of_key(table: &TableSchema, key: &Item) -> Result<StorageKey, ApiError> {
        let expected = 1 + usize::from(table.key.sort.is_some());
        if key.len() != expected {
            return Err(ValidationError::KeyElementMismatch.into());
        }
        let pk = key_checker(&table.key, KeyRole::Partition).check_in_key(key)?;
        let sk = match &table.key.sort {
            Some(_) => Some(key_checker(&table.key, KeyRole::Sort).check_in_key(key)?),
            None => None,
        };
        Ok(StorageKey::encode(pk, sk))
    }

    fn encode(pk: KeyRef<'_>, sk: Option<KeyRef<'_>>) -> StorageKey {
        StorageKey {
            pk: pk.encode(),
            sk: sk.map(|k| k.encode()).unwrap_or_default(),
        }
    }
}

/// The dynotable-types checker for one attribute of a key schema.
pub(crate) fn key_checker(key: &KeySchema, role: KeyRole) -> dynotable_types::KeyAttribute<'_> {
    let attribute = match role {
        KeyRole::Partition => &key.partition,
        KeyRole::Sort => key.sort.as_ref().unwrap_or(&key.partition),
    };
    dynotable_types::KeyAttribute::new(&attribute.name, attribute.ty, role)
}

/// Only the key attributes of `item`, for `Key`/`LastEvaluatedKey` values.
pub(crate) fn key_of(key: &KeySchema, item: &Item) -> Item {
    key.attributes()
        .filter_map(|a| item.get(&a.name).map(|v| (a.name.clone(), v.clone())))
        .collect()
}

/// An item as stored, with its size by DynamoDB's rules (rule B.1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StoredItem {
    pub item: Item,
    pub size: u64,
}

/// Reads the item at `key`, if any.
pub(crate) async fn load_item(
    conn: &mut SqliteConnection,
    table: &TableSchema,
    key: &StorageKey,
) -> Result<Option<StoredItem>, ApiError> {
    let row =
        sqlx::query("SELECT body, size FROM entries WHERE keyspace = ? AND pk = ? AND sk = ? AND tail = X''")
            .bind(table.keyspace)
            .bind(&key.pk)
            .bind(&key.sk)
            .fetch_optional(&mut *conn)
            .await?;
    row.map(|row| decode_entry(row.get::<&[u8], _>(0), row.get(1)))
        .transpose()
}

/// Reads the item at `key` as stored (its JSON body, not decoded), with its size.
pub(crate) async fn load_stored(
    conn: &mut SqliteConnection,
    table: &TableSchema,
    key: &StorageKey,
) -> Result<Option<(Vec<u8>, u64)>, ApiError> {
    let row =
        sqlx::query("SELECT body, size FROM entries WHERE keyspace = ? AND pk = ? AND sk = ? AND tail = X''")
            .bind(table.keyspace)
            .bind(&key.pk)
            .bind(&key.sk)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.map(|row| (row.get(0), u64::try_from(row.get::<i64, _>(1)).unwrap_or(0))))
}

/// An entry's body, as stored.
pub(crate) fn decode_entry(body: &[u8], size: i64) -> Result<StoredItem, ApiError> {
    let item = serde_json::from_slice(body).map_err(ApiError::internal)?;
    Ok(StoredItem {
        item,
        size: u64::try_from(size).unwrap_or(0),
    })
}

/// An item's entry in one secondary index.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct IndexEntry {
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    /// The projected attributes (always including the table's and the index's keys).
    pub item: Item,
    pub size: u64,
}

/// The item's entry in `index`, or `None` when the item lacks one of the index's key attributes
/// (a sparse index). An index key attribute of the wrong type or empty is a ValidationException.
pub(crate) fn index_entry(
    table: &TableSchema,
    index: &IndexSchema,
    item: &Item,
) -> Result<Option<IndexEntry>, ApiError> {
    // The rule lives with the capacity rules, which the cost estimator shares.
    let image = capacity::index_entry_image(&table.key, &index.name, &index.key, &index.projection, item)?;
    Ok(image.map(|image| IndexEntry {
        pk: image.pk,
        sk: image.sk,
        item: image.item,
        size: image.size,
    }))
}

/// Every index entry of `item`, in the order of `table.indexes`. Checking them is part of
/// validating a write, before its condition is evaluated.
pub(crate) fn index_entries(table: &TableSchema, item: &Item) -> Result<Vec<Option<IndexEntry>>, ApiError> {
    table
        .indexes
        .iter()
        .map(|index| index_entry(table, index, item))
        .collect()
}

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
    let batch = tx.batch();
    // 1. The base item.
    match new {
        Some((item, size, _)) => put_entry(batch, table.keyspace, &key.pk, &key.sk, &[], item, size)?,
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
        let changed = before.as_ref() != after;
        if let Some(b) = &before
            && (after.is_none() || moved)
        {
            batch.delete_entry(index.keyspace, &b.pk, &b.sk, &tail);
            batch.adjust_collection(index.keyspace, &b.pk, Some(b.size), None);
        }
        if let Some(a) = after
            && changed
        {
            put_entry(batch, index.keyspace, &a.pk, &a.sk, &tail, &a.item, a.size)?;
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
    let new_item = new.map(|(item, _, _)| item);
    crate::streams::record_change(
        batch,
        table,
        context.now,
        context.origin,
        old.map(|o| &o.item),
        new_item,
    )?;
    let had_expiry = crate::ttl::has_expiry(table, old.map(|o| &o.item));
    crate::ttl::track_expiry(batch, table, key, had_expiry, new_item);

    // 4. The item-collection size limit, on tables with an LSI (rule B.7): the writes so far
    // are sent first, so the statistics read include this one.
    if table.has_lsi() {
        let bytes = lsi_collection_bytes(tx.flush().await?, table, &key.pk).await?;
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

/// The size of an item collection as the 10 GB limit counts it: the table's items with the
/// partition key plus their entries in every LSI (rule B.7).
pub(crate) async fn lsi_collection_bytes(
    conn: &mut SqliteConnection,
    table: &TableSchema,
    pk: &[u8],
) -> Result<u64, ApiError> {
    let mut total = collection_bytes(conn, table.keyspace, pk).await?;
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Local) {
        total += collection_bytes(conn, index.keyspace, pk).await?;
    }
    Ok(total)
}

async fn collection_bytes(conn: &mut SqliteConnection, keyspace: i64, pk: &[u8]) -> Result<u64, ApiError> {
    let bytes: Option<i64> =
        sqlx::query_scalar("SELECT size_bytes FROM collections WHERE keyspace = ? AND pk = ?")
            .bind(keyspace)
            .bind(pk)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(bytes.map(|b| u64::try_from(b).unwrap_or(0)).unwrap_or(0))
}

/// Writes one index entry for the base item at `key` and counts it in the index's collection
/// (used by a new index's backfill), on the caller's batch.
pub(crate) fn put_index_entry(
    batch: &mut StatementBatch,
    index: &IndexSchema,
    key: &StorageKey,
    entry: &IndexEntry,
) -> Result<(), ApiError> {
    let tail = [key.pk.as_slice(), key.sk.as_slice()].concat();
    put_entry(
        batch,
        index.keyspace,
        &entry.pk,
        &entry.sk,
        &tail,
        &entry.item,
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

/// The service's estimate range for an item collection's size, in GB: DynamoDB reports a
/// range, not the size; here the whole gigabytes around the exact size.
pub(crate) fn size_estimate_range_gb(bytes: u64) -> [f64; 2] {
    let gb = bytes as f64 / (1024.0 * 1024.0 * 1024.0);
    let lower = gb.floor();
    [lower, lower + 1.0]
}
