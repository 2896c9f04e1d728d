//! Entries in storage, the layer every read and write goes through: where an item lives
//! ([`StorageKey`], its key encoded in key order), an item as stored ([`StoredItem`], the
//! DynamoDB JSON body and its size by rule B.1), an item's entry in a secondary index
//! ([`IndexEntry`], rule B.3), and reading one item by its key.
//!
//! Below this module are only the catalog and the capacity rules; above it, the read machinery
//! (`read`), the caches, and the write of an item with its index entries and statistics
//! (`items::write_item`), which encode and decode entries here and nowhere else.

use dynotable_types::{Item, KeyRef, KeyRole, ValidationError};
use sqlx::{Row, SqliteConnection};

use crate::ApiError;
use crate::capacity;
use crate::catalog::{IndexSchema, KeySchema, ProjectionSchema, TableSchema};

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
    /// The projected attributes (always including the table's and the index's keys); `None`
    /// when the index projects ALL (rule B.3): the entry then holds the base item whole, and
    /// is not copied from it ([`IndexEntry::projected`]).
    pub item: Option<Item>,
    pub size: u64,
}

impl IndexEntry {
    /// The entry's attributes, given the base item it was made from.
    pub fn projected<'a>(&'a self, base: &'a Item) -> &'a Item {
        self.item.as_ref().unwrap_or(base)
    }
}

/// The item's entry in `index`, or `None` when the item lacks one of the index's key attributes
/// (a sparse index). An index key attribute of the wrong type or empty is a ValidationException.
pub(crate) fn index_entry(
    table: &TableSchema,
    index: &IndexSchema,
    item: &Item,
) -> Result<Option<IndexEntry>, ApiError> {
    // The rule lives with the capacity rules, which the cost estimator shares.
    if index.projection == ProjectionSchema::All {
        // Every attribute projected: the entry is the item, its size the item's (rule B.1).
        let key = capacity::index_entry_key(&index.name, &index.key, item)?;
        return Ok(key.map(|(pk, sk)| IndexEntry {
            pk,
            sk,
            item: None,
            size: dynotable_types::item_size(item) as u64,
        }));
    }
    let image = capacity::index_entry_image(&table.key, &index.name, &index.key, &index.projection, item)?;
    Ok(image.map(|image| IndexEntry {
        pk: image.pk,
        sk: image.sk,
        item: Some(image.item),
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
