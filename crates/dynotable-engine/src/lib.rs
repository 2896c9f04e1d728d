//! DynoTable's storage engine: DynamoDB's data model on SQLite.
//!
//! The life of the engine, as far as it goes today:
//!
//! 1. [`Engine::open`] takes a [`Location`]: a database file on disk (created with its parent
//!    folder if missing) or a private in-memory database.
//! 2. It opens a SQLite pool through sqlx in WAL mode with `synchronous = FULL`, so an
//!    acknowledged write survives the process being killed, and applies the embedded
//!    migrations in `migrations/` — the catalog first, data tables in later migrations.
//! 3. Callers ask it questions ([`Engine::table_count`]) and, as the storage-engine work lands,
//!    send it DynamoDB operations.
//!
//! Errors are one small type, [`EngineError`].

use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

/// Where an engine keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// One SQLite database file; its folder is created if it does not exist.
    File(PathBuf),
    /// A private database that lives as long as the engine.
    InMemory,
}

impl Location {
    /// The file behind this location, if it has one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::File(path) => Some(path),
            Location::InMemory => None,
        }
    }
}

/// Everything that can go wrong inside the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot create the data folder {path}: {source}")]
    CreateFolder { path: PathBuf, source: std::io::Error },
    #[error("the database could not be opened: {0}")]
    Open(#[source] sqlx::Error),
    #[error("the database could not be migrated: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the database failed: {0}")]
    Storage(#[from] sqlx::Error),
}

/// An open engine. Cheap to clone: clones share one connection pool.
#[derive(Debug, Clone)]
pub struct Engine {
    pool: SqlitePool,
    location: Location,
}

impl Engine {
    /// Opens (creating if needed) the database at `location` and brings its schema up to date.
    pub async fn open(location: Location) -> Result<Engine, EngineError> {
        let options = match &location {
            Location::File(path) => {
                if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(folder).map_err(|source| EngineError::CreateFolder {
                        path: folder.to_path_buf(),
                        source,
                    })?;
                }
                SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
            }
            // One connection only: every connection to ":memory:" would be a separate database.
            Location::InMemory => {
                SqliteConnectOptions::from_str("sqlite::memory:").map_err(EngineError::Open)?
            }
        }
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true);

        let max_connections = if location == Location::InMemory { 1 } else { 8 };
        let pool = SqlitePoolOptions::new()
            .max_connections(max_connections)
            .connect_with(options)
            .await
            .map_err(EngineError::Open)?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        tracing::debug!(?location, "engine opened");
        Ok(Engine { pool, location })
    }

    /// Where this engine keeps its data.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// How many tables the catalog holds.
    pub async fn table_count(&self) -> Result<u64, EngineError> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM catalog_tables")
            .fetch_one(&self.pool)
            .await?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// Closes the pool, waiting for connections to finish and checkpointing the WAL.
    pub async fn close(self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn opens_an_empty_in_memory_database() {
        let engine = Engine::open(Location::InMemory).await.unwrap();
        assert_eq!(engine.table_count().await.unwrap(), 0);
        assert_eq!(engine.location().path(), None);
    }

    #[tokio::test]
    async fn creates_the_file_and_its_folder_and_reopens_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("local.db");
        let engine = Engine::open(Location::File(path.clone())).await.unwrap();
        sqlx::query("INSERT INTO catalog_tables (name, definition, created_at) VALUES ('Pets', '{}', 0)")
            .execute(&engine.pool)
            .await
            .unwrap();
        engine.close().await;
        assert!(path.is_file());

        let reopened = Engine::open(Location::File(path)).await.unwrap();
        assert_eq!(reopened.table_count().await.unwrap(), 1);
    }

    #[tokio::test]
    async fn a_folder_that_cannot_be_created_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"not a folder").unwrap();
        let err = Engine::open(Location::File(blocker.join("local.db")))
            .await
            .unwrap_err();
        assert!(matches!(err, EngineError::CreateFolder { .. }), "{err}");
    }
}
