//! Item collections as first-class data: the statistics the engine keeps for every partition-key
//! value of a table and of each index (count and bytes, maintained in each write's transaction,
//! see `items.rs`), read without scanning the items.
//!
//! The desktop app draws its map of a table from [`Engine::collection_stats`]: the largest
//! collections, how many distinct partition keys there are, and how their sizes are distributed.

use dynotable_types::{AttributeValue, ValidationError};
use serde::Serialize;
use sqlx::{Row, SqliteConnection};

use crate::catalog::{IndexKind, KeySchema, TableSchema};
use crate::{ApiError, Engine};

/// One item collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionSummary {
    /// The partition-key value that names the collection; for a multi-attribute GSI partition
    /// key (rule B.18.3), a list (`L`) of its attributes' values in key-schema order.
    pub partition_key: AttributeValue,
    pub item_count: u64,
    /// Bytes by DynamoDB's item-size rules (rule B.1).
    pub size_bytes: u64,
    /// On tables with an LSI, the size the 10 GB limit counts: the table's items plus their LSI
    /// entries for this partition key (rule B.7). `None` elsewhere.
    pub limited_size_bytes: Option<u64>,
}

/// How many collections have a size in `[lower_bytes, upper_bytes)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SizeBucket {
    pub lower_bytes: u64,
    pub upper_bytes: u64,
    pub collections: u64,
}

/// The collections of a table or of one of its indexes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionStats {
    pub distinct_partition_keys: u64,
    pub item_count: u64,
    pub size_bytes: u64,
    /// The largest collections, largest first (ties in key order).
    pub largest: Vec<CollectionSummary>,
    /// Collection sizes in power-of-two buckets, smallest first; empty buckets left out.
    pub size_distribution: Vec<SizeBucket>,
    /// The item-collection size limit in force, on tables with an LSI.
    pub collection_size_limit: Option<u64>,
}

impl Engine {
    /// The collection of one partition-key value of `table` (or of its index `index`): its
    /// item count and bytes, from the statistics every write keeps — what the cost estimator
    /// reads a Query's selection from. `None` when no item has that partition key.
    pub async fn collection_summary(
        &self,
        table: &str,
        index: Option<&str>,
        partition_key: &AttributeValue,
    ) -> Result<Option<CollectionSummary>, ApiError> {
        let table = self.table(table)?;
        let (keyspace, key) = keyspace_of(&table, index)?;
        let pk = encoded_partition_key(key, partition_key)?;
        let mut conn = self.reader().await?;
        let row: Option<(i64, i64)> =
            sqlx::query_as("SELECT item_count, size_bytes FROM collections WHERE keyspace = ? AND pk = ?")
                .bind(keyspace)
                .bind(&pk)
                .fetch_optional(&mut *conn)
                .await?;
        let Some((count, bytes)) = row else {
            return Ok(None);
        };
        let limited_size_bytes = if lsi_limited(&table, index) {
            Some(lsi_collection_bytes(&mut conn, &table, &pk).await?)
        } else {
            None
        };
        Ok(Some(CollectionSummary {
            partition_key: partition_key.clone(),
            item_count: u64::try_from(count).unwrap_or(0),
            size_bytes: u64::try_from(bytes).unwrap_or(0),
            limited_size_bytes,
        }))
    }

    /// Statistics of the collections of `table` (or of its index `index`), with the `largest`
    /// biggest collections listed.
    pub async fn collection_stats(
        &self,
        table: &str,
        index: Option<&str>,
        largest: usize,
    ) -> Result<CollectionStats, ApiError> {
        let table = self.table(table)?;
        let (keyspace, key) = keyspace_of(&table, index)?;
        let lsi_limit = lsi_limited(&table, index);
        let mut conn = self.reader().await?;
        let (item_count, size_bytes) = crate::storage::keyspace_totals(&mut conn, keyspace).await?;

        let sizes: Vec<i64> = sqlx::query_scalar("SELECT size_bytes FROM collections WHERE keyspace = ?")
            .bind(keyspace)
            .fetch_all(&mut *conn)
            .await?;
        let mut size_distribution: Vec<SizeBucket> = Vec::new();
        for size in &sizes {
            let size = u64::try_from(*size).unwrap_or(0);
            let lower = if size == 0 {
                0
            } else {
                1u64 << (63 - size.leading_zeros())
            };
            let upper = if size == 0 { 1 } else { lower.saturating_mul(2) };
            match size_distribution.iter_mut().find(|b| b.lower_bytes == lower) {
                Some(bucket) => bucket.collections += 1,
                None => size_distribution.push(SizeBucket {
                    lower_bytes: lower,
                    upper_bytes: upper,
                    collections: 1,
                }),
            }
        }
        size_distribution.sort_by_key(|b| b.lower_bytes);

        let rows = sqlx::query(
            "SELECT pk, item_count, size_bytes FROM collections WHERE keyspace = ? ORDER BY size_bytes DESC, pk ASC LIMIT ?",
        )
        .bind(keyspace)
        .bind(i64::try_from(largest).unwrap_or(i64::MAX))
        .fetch_all(&mut *conn)
        .await?;
        let summaries = summaries(&mut conn, &table, key, lsi_limit, rows).await?;
        Ok(CollectionStats {
            distinct_partition_keys: sizes.len() as u64,
            item_count: u64::try_from(item_count).unwrap_or(0),
            size_bytes: u64::try_from(size_bytes).unwrap_or(0),
            largest: summaries,
            size_distribution,
            collection_size_limit: lsi_limit.then_some(self.inner.options.collection_size_limit),
        })
    }

    /// The collections of `table` (or of its index `index`) in key order, the order of their
    /// partition-key values (rule B.9: numbers by value, strings and binaries byte by byte),
    /// skipping the first `offset` and listing at most `limit`: the Collections view reads the
    /// run page by page as the user scrolls, so a table of 10,000 collections opens like one of 10.
    pub async fn collection_range(
        &self,
        table: &str,
        index: Option<&str>,
        offset: u64,
        limit: usize,
    ) -> Result<Vec<CollectionSummary>, ApiError> {
        let table = self.table(table)?;
        let (keyspace, key) = keyspace_of(&table, index)?;
        let lsi_limit = lsi_limited(&table, index);
        let mut conn = self.reader().await?;
        // The stored partition keys are order-preserving encodings (`dynotable_types::key_encoding`),
        // so SQLite's BLOB order along the primary key is the key order.
        let rows = sqlx::query(
            "SELECT pk, item_count, size_bytes FROM collections WHERE keyspace = ? ORDER BY pk LIMIT ? OFFSET ?",
        )
        .bind(keyspace)
        .bind(i64::try_from(limit).unwrap_or(i64::MAX))
        .bind(i64::try_from(offset).unwrap_or(i64::MAX))
        .fetch_all(&mut *conn)
        .await?;
        summaries(&mut conn, &table, key, lsi_limit, rows).await
    }

    /// Where the collection of `partition_key` stands in the key-ordered run of
    /// [`Engine::collection_range`]: how many collections come before it. `None` when no item has
    /// that partition key.
    pub async fn collection_position(
        &self,
        table: &str,
        index: Option<&str>,
        partition_key: &AttributeValue,
    ) -> Result<Option<u64>, ApiError> {
        let table = self.table(table)?;
        let (keyspace, key) = keyspace_of(&table, index)?;
        let pk = encoded_partition_key(key, partition_key)?;
        let mut conn = self.reader().await?;
        let exists: Option<i64> =
            sqlx::query_scalar("SELECT 1 FROM collections WHERE keyspace = ? AND pk = ?")
                .bind(keyspace)
                .bind(&pk)
                .fetch_optional(&mut *conn)
                .await?;
        if exists.is_none() {
            return Ok(None);
        }
        Ok(Some(collections_before(&mut conn, keyspace, &pk).await?))
    }

    /// How many collections of the key-ordered run come before `partition_key`, whether or not
    /// an item has it: where its collection is or would be. From there the run lists the keys
    /// that start with a typed string, since a string sorts before every longer string it begins
    /// (its encoding's terminator, `0x00 0x00`, sorts below any byte that could follow: rule
    /// B.9, `dynotable_types::key_encoding`).
    pub async fn collection_lower_bound(
        &self,
        table: &str,
        index: Option<&str>,
        partition_key: &AttributeValue,
    ) -> Result<u64, ApiError> {
        let table = self.table(table)?;
        let (keyspace, key) = keyspace_of(&table, index)?;
        let pk = encoded_partition_key(key, partition_key)?;
        let mut conn = self.reader().await?;
        collections_before(&mut conn, keyspace, &pk).await
    }
}

/// How many collections of `keyspace` have a stored partition key below `pk`.
async fn collections_before(
    conn: &mut sqlx::SqliteConnection,
    keyspace: i64,
    pk: &[u8],
) -> Result<u64, ApiError> {
    let before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM collections WHERE keyspace = ? AND pk < ?")
        .bind(keyspace)
        .bind(pk)
        .fetch_one(&mut *conn)
        .await?;
    Ok(u64::try_from(before).unwrap_or(0))
}

/// The stored form of a partition-key value of `key` (checked against the key's type first).
/// A multi-attribute partition key (rule B.18.3) is named by the list (`L`) of its values in
/// key-schema order, as [`CollectionSummary::partition_key`] reports it.
fn encoded_partition_key(key: &KeySchema, value: &AttributeValue) -> Result<Vec<u8>, ApiError> {
    let values: Vec<AttributeValue> = match value {
        AttributeValue::L(values) if !key.more_partition.is_empty() => values.clone(),
        _ if !key.more_partition.is_empty() => return Err(ValidationError::KeyElementMismatch.into()),
        value => vec![value.clone()],
    };
    if values.len() != key.partition_attributes().count() {
        return Err(ValidationError::KeyElementMismatch.into());
    }
    let mut out = Vec::new();
    for (attribute, value) in key.partition_attributes().zip(values) {
        let probe: dynotable_types::Item = std::iter::once((attribute.name.clone(), value)).collect();
        dynotable_types::KeyAttribute::new(
            &attribute.name,
            attribute.ty,
            dynotable_types::KeyRole::Partition,
        )
        .check_in_key(&probe)?
        .encode_into(&mut out);
    }
    Ok(out)
}

/// The keyspace and key schema of `table`, or of its index `index`.
fn keyspace_of<'t>(table: &'t TableSchema, index: Option<&str>) -> Result<(i64, &'t KeySchema), ApiError> {
    match index {
        None => Ok((table.keyspace, &table.key)),
        Some(name) => {
            let index = table.index(name).ok_or_else(|| {
                ApiError::validation(format!("The table does not have the specified index: {name}"))
            })?;
            Ok((index.keyspace, &index.key))
        }
    }
}

/// Whether the 10 GB item-collection limit applies to these collections: on a table with an LSI,
/// to the table's collections and the LSIs' (rule B.7), never to a GSI's.
fn lsi_limited(table: &TableSchema, index: Option<&str>) -> bool {
    table.has_lsi() && index.is_none_or(|n| table.index(n).is_some_and(|i| i.kind == IndexKind::Local))
}

/// The summaries of `collections` rows (`pk, item_count, size_bytes`), with the LSI-limited size
/// where it applies.
async fn summaries(
    conn: &mut sqlx::SqliteConnection,
    table: &TableSchema,
    key: &KeySchema,
    lsi_limit: bool,
    rows: Vec<sqlx::sqlite::SqliteRow>,
) -> Result<Vec<CollectionSummary>, ApiError> {
    let mut summaries = Vec::with_capacity(rows.len());
    for row in rows {
        let pk: Vec<u8> = row.get(0);
        let types: Vec<_> = key.partition_attributes().map(|a| a.ty).collect();
        let mut values: Vec<AttributeValue> = dynotable_types::decode_key_tuple(&types, &pk)
            .ok_or_else(|| ApiError::internal("a stored partition key could not be decoded"))?
            .into_iter()
            .map(AttributeValue::from)
            .collect();
        let value = if values.len() == 1 {
            values.remove(0)
        } else {
            AttributeValue::L(values)
        };
        let limited_size_bytes = if lsi_limit {
            Some(lsi_collection_bytes(conn, table, &pk).await?)
        } else {
            None
        };
        summaries.push(CollectionSummary {
            partition_key: value,
            item_count: u64::try_from(row.get::<i64, _>(1)).unwrap_or(0),
            size_bytes: u64::try_from(row.get::<i64, _>(2)).unwrap_or(0),
            limited_size_bytes,
        });
    }
    Ok(summaries)
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

/// The service's estimate range for an item collection's size, in GB: DynamoDB reports a
/// range, not the size; here the whole gigabytes around the exact size.
pub(crate) fn size_estimate_range_gb(bytes: u64) -> [f64; 2] {
    let gb = bytes as f64 / (1024.0 * 1024.0 * 1024.0);
    let lower = gb.floor();
    [lower, lower + 1.0]
}
