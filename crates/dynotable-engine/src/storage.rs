//! The engine's SQL: the catalog, keyspaces, entries and item-collection statistics (schema in
//! `migrations/`). Every function takes the connection or transaction it runs on; the callers
//! decide what happens together.

use std::ops::{Deref, DerefMut};

use sqlx::pool::PoolConnection;
use sqlx::{Row, Sqlite, SqliteConnection};

use crate::catalog::TableSchema;
use crate::{ApiError, EngineError};

/// A connection to read on: from the reader pool, or the shared writer (in-memory databases).
pub(crate) enum ReadConnection<'a> {
    Pooled(PoolConnection<Sqlite>),
    Shared(tokio::sync::MutexGuard<'a, SqliteConnection>),
}

impl Deref for ReadConnection<'_> {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        match self {
            ReadConnection::Pooled(conn) => conn,
            ReadConnection::Shared(conn) => conn,
        }
    }
}

impl DerefMut for ReadConnection<'_> {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        match self {
            ReadConnection::Pooled(conn) => &mut *conn,
            ReadConnection::Shared(conn) => &mut *conn,
        }
    }
}

/// Every table definition in the catalog.
pub(crate) async fn load_catalog(conn: &mut SqliteConnection) -> Result<Vec<TableSchema>, EngineError> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT name, definition FROM catalog_tables ORDER BY name")
            .fetch_all(&mut *conn)
            .await?;
    rows.into_iter()
        .map(|(name, definition)| {
            serde_json::from_str(&definition)
                .map_err(|err| EngineError::Catalog(format!("table {name}: {err}")))
        })
        .collect()
}

/// Allocates keyspaces for the table and each of its indexes and stores the definition.
pub(crate) async fn create_table(
    conn: &mut SqliteConnection,
    table: &mut TableSchema,
) -> Result<(), ApiError> {
    table.keyspace = allocate_keyspace(conn, &table.name, None).await?;
    for index in &mut table.indexes {
        index.keyspace = allocate_keyspace(conn, &table.name, Some(&index.name)).await?;
    }
    save_table(conn, table).await
}

/// Writes (inserts or replaces) a table's definition.
pub(crate) async fn save_table(conn: &mut SqliteConnection, table: &TableSchema) -> Result<(), ApiError> {
    let definition = serde_json::to_string(table).map_err(ApiError::internal)?;
    sqlx::query("INSERT OR REPLACE INTO catalog_tables (name, definition, created_at) VALUES (?, ?, ?)")
        .bind(&table.name)
        .bind(definition)
        .bind(table.created_at)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

pub(crate) async fn allocate_keyspace(
    conn: &mut SqliteConnection,
    table: &str,
    index: Option<&str>,
) -> Result<i64, ApiError> {
    let id: i64 =
        sqlx::query_scalar("INSERT INTO keyspaces (table_name, index_name) VALUES (?, ?) RETURNING id")
            .bind(table)
            .bind(index)
            .fetch_one(&mut *conn)
            .await?;
    Ok(id)
}

/// Removes a keyspace with all its entries and statistics.
pub(crate) async fn drop_keyspace(conn: &mut SqliteConnection, keyspace: i64) -> Result<(), ApiError> {
    for sql in [
        "DELETE FROM entries WHERE keyspace = ?",
        "DELETE FROM collections WHERE keyspace = ?",
        "DELETE FROM keyspaces WHERE id = ?",
    ] {
        sqlx::query(sql).bind(keyspace).execute(&mut *conn).await?;
    }
    Ok(())
}

/// Removes a table, its indexes and all their data.
pub(crate) async fn delete_table(conn: &mut SqliteConnection, table: &TableSchema) -> Result<(), ApiError> {
    drop_keyspace(conn, table.keyspace).await?;
    for index in &table.indexes {
        drop_keyspace(conn, index.keyspace).await?;
    }
    for stream in &table.streams {
        sqlx::query("DELETE FROM stream_records WHERE stream_id = ?")
            .bind(stream.id)
            .execute(&mut *conn)
            .await?;
        drop_keyspace(conn, stream.id).await?;
    }
    sqlx::query("DELETE FROM expiries WHERE keyspace = ?")
        .bind(table.keyspace)
        .execute(&mut *conn)
        .await?;
    sqlx::query("DELETE FROM catalog_tables WHERE name = ?")
        .bind(&table.name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// A keyspace's item count and total size in bytes.
pub(crate) async fn keyspace_totals(
    conn: &mut SqliteConnection,
    keyspace: i64,
) -> Result<(i64, i64), ApiError> {
    let row = sqlx::query("SELECT item_count, size_bytes FROM keyspaces WHERE id = ?")
        .bind(keyspace)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.map(|r| (r.get(0), r.get(1))).unwrap_or((0, 0)))
}
