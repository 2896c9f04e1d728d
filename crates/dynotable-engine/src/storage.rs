//! The engine's SQL: the catalog, keyspaces, entries and item-collection statistics (schema in
//! `migrations/`). Every function takes the connection or transaction it runs on; the callers
//! decide what happens together.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, Row, SqliteConnection};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::catalog::TableSchema;
use crate::{ApiError, EngineError};

/// The connections that only read: opened on first need, at most `max` of
/// them, handed out one request at a time.
///
/// Not sqlx's `Pool`: its release path pings the connection (one more round trip to the
/// connection's thread per read, bench/README.md) and spawns a task; here a connection goes
/// back to a plain list when the read is done, and a read costs only its own statements.
pub(crate) struct ReaderPool {
    connect: SqliteConnectOptions,
    idle: std::sync::Mutex<Vec<SqliteConnection>>,
    permits: Arc<Semaphore>,
}

impl ReaderPool {
    pub fn new(connect: SqliteConnectOptions, max: usize) -> ReaderPool {
        ReaderPool {
            connect,
            idle: std::sync::Mutex::new(Vec::with_capacity(max)),
            permits: Arc::new(Semaphore::new(max)),
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<SqliteConnection>> {
        self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A reader connection: an idle one, or a new one while fewer than `max` are open.
    pub async fn acquire(self: &Arc<Self>) -> Result<PooledReader, ApiError> {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::internal("the engine is closed"))?;
        let idle = self.idle().pop();
        let conn = match idle {
            Some(conn) => conn,
            None => self.connect.connect().await?,
        };
        Ok(PooledReader {
            conn: Some(conn),
            pool: Arc::clone(self),
            _permit: permit,
        })
    }

    /// Closes the idle connections and refuses new reads.
    pub async fn close(&self) {
        self.permits.close();
        let idle = std::mem::take(&mut *self.idle());
        for conn in idle {
            let _ = conn.close().await;
        }
    }
}

/// A reader connection on loan from the [`ReaderPool`]; returned when dropped.
pub(crate) struct PooledReader {
    conn: Option<SqliteConnection>,
    pool: Arc<ReaderPool>,
    _permit: OwnedSemaphorePermit,
}

impl Drop for PooledReader {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take()
            && !self.pool.permits.is_closed()
        {
            self.pool.idle().push(conn);
        }
    }
}

impl Deref for PooledReader {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        self.conn.as_ref().expect("held until dropped")
    }
}

impl DerefMut for PooledReader {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        self.conn.as_mut().expect("held until dropped")
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

#[cfg(test)]
mod tests {
    use crate::{Engine, Location};

    /// `Tbl`: partition key `p` (S), sort key `s` (N), on demand.
    const CREATE_TBL: &[u8] = br#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"p","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}],
        "AttributeDefinitions":[{"AttributeName":"p","AttributeType":"S"},{"AttributeName":"s","AttributeType":"N"}],
        "BillingMode":"PAY_PER_REQUEST"}"#;

    /// Reads run beside writes on their own connections (in memory too, over a shared cache);
    /// a read sees a BatchWriteItem entirely or not at all.
    async fn reads_never_see_part_of_a_write(location: Location) {
        let mut options = crate::Options::new(location);
        options.sweep_interval = None;
        let engine = Engine::open_with(options).await.unwrap();
        engine.call("CreateTable", CREATE_TBL).await.unwrap();
        let writer = {
            let engine = engine.clone();
            tokio::spawn(async move {
                for batch in 0..20 {
                    let puts: Vec<String> = (0..25)
                        .map(|i| {
                            format!(
                                r#"{{"PutRequest":{{"Item":{{"p":{{"S":"a"}},"s":{{"N":"{}"}}}}}}}}"#,
                                batch * 25 + i
                            )
                        })
                        .collect();
                    let body = format!(r#"{{"RequestItems":{{"Tbl":[{}]}}}}"#, puts.join(","));
                    engine.call("BatchWriteItem", body.as_bytes()).await.unwrap();
                }
            })
        };
        let query = br#"{"TableName":"Tbl","KeyConditionExpression":"p = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"COUNT"}"#;
        let mut readers = Vec::new();
        for _ in 0..4 {
            let engine = engine.clone();
            readers.push(tokio::spawn(async move {
                let mut seen = Vec::new();
                for _ in 0..50 {
                    let out = engine.call("Query", query).await.unwrap();
                    let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
                    seen.push(out["Count"].as_i64().unwrap());
                    tokio::task::yield_now().await;
                }
                seen
            }));
        }
        writer.await.unwrap();
        for reader in readers {
            for count in reader.await.unwrap() {
                assert_eq!(
                    count % 25,
                    0,
                    "a read saw part of a BatchWriteItem: {count} items"
                );
            }
        }
        let out = engine.call("Query", query).await.unwrap();
        let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(out["Count"], 500);
    }

    /// File readers map the configured bound of the file (`Options::reader_mmap_bytes`), or
    /// nothing when it is 0; a reader that has read through the map sees the writes committed
    /// after, in the write-ahead log and (after a checkpoint) in the file beyond what it mapped.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn file_readers_map_the_configured_bound_and_see_later_commits() {
        use sqlx::Row;
        for bound in [0u64, 64 * 1024, 256 * 1024 * 1024] {
            let dir = tempfile::tempdir().unwrap();
            let mut options = crate::Options::new(Location::File(dir.path().join("db.sqlite")));
            options.sweep_interval = None;
            options.item_cache_bytes = 0;
            options.reader_mmap_bytes = bound;
            let engine = Engine::open_with(options).await.unwrap();
            {
                let mut reader = engine.reader().await.unwrap();
                let row = sqlx::query("PRAGMA mmap_size")
                    .fetch_one(&mut *reader)
                    .await
                    .unwrap();
                assert_eq!(row.get::<i64, _>(0), bound as i64);
            }
            engine.call("CreateTable", CREATE_TBL).await.unwrap();
            let query = br#"{"TableName":"Tbl","KeyConditionExpression":"p = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Select":"COUNT"}"#;
            let pad = "x".repeat(1500);
            for round in 0..4 {
                // 100 items of ~1.5 KB a round (under the 1 MB page in all): the file outgrows a 64 KB map
                // at once.
                for batch in 0..4 {
                    let puts: Vec<String> = (0..25)
                        .map(|i| {
                            format!(
                                r#"{{"PutRequest":{{"Item":{{"p":{{"S":"a"}},"s":{{"N":"{}"}},"pad":{{"S":"{pad}"}}}}}}}}"#,
                                round * 100 + batch * 25 + i
                            )
                        })
                        .collect();
                    let body = format!(r#"{{"RequestItems":{{"Tbl":[{}]}}}}"#, puts.join(","));
                    engine.call("BatchWriteItem", body.as_bytes()).await.unwrap();
                }
                if round == 2 {
                    let mut writer = engine.writer().await;
                    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                        .execute(&mut writer.conn)
                        .await
                        .unwrap();
                }
                let out = engine.call("Query", query).await.unwrap();
                let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
                assert_eq!(
                    out["Count"],
                    (round + 1) * 100,
                    "mmap_size {bound}, round {round}"
                );
            }
        }
    }

    /// Each file reader's page cache is `Options::reader_cache_bytes` (SQLite's `cache_size`, in
    /// KiB when negative), 16 MiB by default; the writer's stays its own 8 MiB.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn file_readers_keep_a_page_cache_of_the_configured_size() {
        use sqlx::Row;
        for (bytes, kib) in [
            (None, -16384i64),
            (Some(2 * 1024 * 1024), -2048),
            (Some(512 * 1024), -512),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut options = crate::Options::new(Location::File(dir.path().join("db.sqlite")));
            options.sweep_interval = None;
            if let Some(bytes) = bytes {
                options.reader_cache_bytes = bytes;
            }
            let engine = Engine::open_with(options).await.unwrap();
            let mut reader = engine.reader().await.unwrap();
            let row = sqlx::query("PRAGMA cache_size")
                .fetch_one(&mut *reader)
                .await
                .unwrap();
            assert_eq!(row.get::<i64, _>(0), kib, "reader_cache_bytes {bytes:?}");
            drop(reader);
            let mut writer = engine.writer().await;
            let row = sqlx::query("PRAGMA cache_size")
                .fetch_one(&mut writer.conn)
                .await
                .unwrap();
            assert_eq!(row.get::<i64, _>(0), -8192, "the writer's own cache");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn in_memory_reads_never_see_part_of_a_write() {
        reads_never_see_part_of_a_write(Location::InMemory).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn file_reads_never_see_part_of_a_write() {
        let dir = tempfile::tempdir().unwrap();
        reads_never_see_part_of_a_write(Location::File(dir.path().join("db.sqlite"))).await;
    }
}
