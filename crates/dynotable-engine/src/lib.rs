//! DynoTable's storage engine: DynamoDB's API on SQLite.
//!
//! The life of a request:
//!
//! 1. A caller — the `dynotable-local` server, or the desktop app through it — hands
//!    [`Engine::call`] an operation name (`PutItem`) and the JSON body of a DynamoDB request.
//! 2. [`dispatch`] finds the operation and deserialises the body into its request shape from
//!    [`api`] (`api::body`). A member of the wrong JSON type is a `SerializationException`; an unknown operation
//!    an `UnknownOperationException`.
//! 3. The operation (one file per operation under `ops/`) validates the request the way the
//!    service does — member constraints first, in one `N validation errors detected` envelope
//!    ([`shape`]), then semantic rules — and looks the table up in the in-memory [`catalog`].
//! 4. Reads run on a reader connection of the engine's own small pool ([`storage`]); SQLite's
//!    WAL snapshots (in memory: shared-cache table locks) make each read see whole committed
//!    writes only, so every read is strongly consistent. GetItem, BatchGetItem and Query on a
//!    table first look in the [`item_cache`] (items, and small collections), which every write
//!    keeps right before it is acknowledged. Writes take the single writer connection in a [`write_tx`]
//!    transaction: `BEGIN IMMEDIATE`, read the old item, check the condition, and write the
//!    item, its index entries and its item-collection statistics together ([`items`]), then
//!    commit — a write is acknowledged after its `COMMIT` returned (WAL, `synchronous = NORMAL`:
//!    it survives a crash of the process; [`Durability::PowerLoss`] syncs each commit). sqlx
//!    hands every query to the connection's own thread, so the statements of a transaction are
//!    sent in batches (one round trip for begin + reads, one for writes + commit), not one by one.
//!    A write request first claims its items ([`in_flight`]): one that meets an item inside an
//!    ongoing transaction is refused at once with DynamoDB's transaction-conflict errors instead
//!    of waiting for the writer.
//! 5. The response shape is serialised back to JSON; failures are [`ApiError`]s, which the
//!    server renders in the wire format in one place.
//!
//! Two simulations, off by default and switched at open or at any time ([`simulations`]),
//! change this life (issue 18.7): with [`Options::enforce_capacity`] a request first passes the token buckets of [`throttling`]
//! (or fails with `ProvisionedThroughputExceededException`) and is charged what its
//! ConsumedCapacity says once it ran; with [`Options::eventual_lag`] an eventually consistent
//! GetItem, BatchGetItem or Query in step 4 may answer an item's earlier version
//! ([`eventual_lag`]).
//!
//! The modules form layers; each uses only the ones below it (no import loop: a module never
//! reaches, through others, back to itself). From the bottom:
//!
//! 1. the API model, the rules and the connections: [`api`], `error`, [`catalog`], `shape`,
//!    `storage`, [`capacity`] (with `collections`' statistics), `throttling`'s buckets and
//!    `params`' capacity report, `legacy`;
//! 2. the entries in storage: `entry` (keys, stored bodies, index entries, one item by key);
//! 3. reading in key order: `read` (ranges, batches, pages, the target of a Query or Scan);
//! 4. the caches and the writer: `item_cache`, `writer`, `write_tx`, `in_flight`;
//! 5. what a write carries along: `streams`' records, `expiry`, `eventual_lag`'s history;
//! 6. the write of an item with its index entries and statistics: `items`;
//! 7. the operations: `ops` (one file per operation), `ttl`, `streams`' API, `partiql`;
//! 8. [`dispatch`], and the [`Engine`] in this file, which opens all of it.
//!
//! Errors are two small types: [`ApiError`] (what a DynamoDB client is told) and
//! [`EngineError`] (the storage could not be opened).

pub mod api;
pub mod capacity;
pub mod catalog;
mod checkpoint;
mod clock;
mod collections;
mod database_lock;
mod dispatch;
mod entry;
mod error;
mod eventual_lag;
mod expiry;
pub mod identity;
mod in_flight;
mod item_cache;
mod items;
mod legacy;
mod ops;
mod options;
mod page_buffers;
mod params;
mod partiql;
mod read;
mod shape;
mod simulations;
mod sqlite_heap;
mod storage;
mod streams;
mod throttling;
mod ttl;
mod write_tx;
mod writer;

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

pub use checkpoint::CheckpointPolicy;
pub use clock::{Clock, ManualClock, RequestClock, SystemClock};
pub use collections::{CollectionStats, CollectionSummary, SizeBucket};
pub use error::{ApiError, CancellationReason, EngineError, ErrorKind, ThrottlingReason};
pub use eventual_lag::EventualLag;
pub use options::{
    DEFAULT_BUSY_TIMEOUT, DEFAULT_COLLECTION_SIZE_LIMIT, DEFAULT_ITEM_CACHE_BYTES,
    DEFAULT_READER_CACHE_BYTES, DEFAULT_READER_MMAP_BYTES, Durability, Location, Options,
};
pub use page_buffers::PageBuffers;
pub use simulations::{Simulations, TableSimulationCounts};

use catalog::TableSchema;

/// CreateTable's validation alone, on a request body as a client sends it: `Ok` when CreateTable
/// would accept the definition (the table's existence aside), else the service's exception and
/// message, exactly as [`Engine::call`] would answer. Nothing is stored, no engine is needed:
/// the app's create-table form runs it as the user types, so the form and the engine share one
/// rule set (rules B.7, B.8, B.10 in docs/dynamodb-rules.md).
pub fn check_create_table(body: &[u8]) -> Result<(), ApiError> {
    ops::create_table::check(&api::body::input_of(body)?)
}

/// UpdateTimeToLive's member constraints alone, on a request body: the TTL attribute a form
/// offers to enable after CreateTable, checked with the service's message.
pub fn check_update_time_to_live(body: &[u8]) -> Result<(), ApiError> {
    ttl::check_shape(&api::body::input_of(body)?)
}

/// An open engine. Cheap to clone: clones share the storage and the catalog.
#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

struct Inner {
    options: Options,
    /// The one connection that writes. Serialising writes here (rather than racing for SQLite's
    /// write lock) makes every write transaction start at once and never fail with SQLITE_BUSY.
    writer: Arc<writer::SharedWriter>,
    /// Connections that only read.
    readers: Arc<storage::ReaderPool>,
    /// Items read by key (`None`: no cache). The writer holds it too, to invalidate.
    items: Option<Arc<item_cache::ItemCache>>,
    /// Every table's definition, loaded at open and changed under the writer lock.
    catalog: RwLock<BTreeMap<String, Arc<TableSchema>>>,
    /// TransactWriteItems' idempotency tokens.
    /// Locked only to look a token up or record it, never across an `await`.
    tokens: std::sync::Mutex<ops::transact_write_items::Tokens>,
    /// The items write requests are working on: who meets a transaction (see `in_flight`).
    in_flight: in_flight::InFlight,
    /// Whether BatchWriteItem tries batches of puts as new items first.
    fresh_puts: ops::batch_write_item::FreshPuts,
    /// The task that checkpoints the write-ahead log (`None` in memory); see `checkpoint`.
    checkpointer: std::sync::Mutex<Option<checkpoint::Checkpointer>>,
    /// This engine's hold on its database file (`None` in memory); see `database_lock`.
    _lock: Option<database_lock::DatabaseLock>,
    /// Buffers of large response bodies, kept for the next one (see `page_buffers`).
    page_buffers: Arc<PageBuffers>,
    /// When the background sweep runs next, on the engine's clock (`None`: no sweeper).
    next_sweep: std::sync::Mutex<Option<f64>>,
    /// The simulations' switches and state (`simulations`).
    simulations: simulations::Simulators,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("location", &self.inner.options.location)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Opens (creating if needed) the database at `location` with default options.
    pub async fn open(location: Location) -> Result<Engine, EngineError> {
        Engine::open_with(Options::new(location)).await
    }

    /// Opens (creating if needed) the database and brings its schema up to date.
    pub async fn open_with(options: Options) -> Result<Engine, EngineError> {
        // A database file that does not exist yet (or is empty) is created below.
        let new_file = options
            .location
            .path()
            .is_some_and(|path| std::fs::metadata(path).map_or(true, |m| m.len() == 0));
        let mut lock = None;
        let connect = match &options.location {
            Location::File(path) => {
                if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(folder).map_err(|source| EngineError::CreateFolder {
                        path: folder.to_path_buf(),
                        source,
                    })?;
                }
                // Before anything touches the file: is another engine using it?
                lock = Some(database_lock::DatabaseLock::acquire(path)?);
                // The journal mode is set on the writer below (WAL).
                SqliteConnectOptions::new().filename(path).create_if_missing(true)
            }
            // Issue 18.8: an in-memory database on SQLite's `memdb` VFS, not `:memory:`. Both keep
            // the data in this process's memory only (nothing on disk, nothing left after the
            // process ends, however it ends). But a `:memory:` database *is* its page cache, and
            // every `COMMIT` after a page split walks the whole cache (`pcache1TruncateUnsafe`,
            // bench/README.md "In-memory databases: each COMMIT walks the whole database"), so
            // inserts slowed down as the data grew (83k to 17k rows/s over 400k rows). A `memdb`
            // database is a buffer in memory read and written like a file, behind an ordinary,
            // bounded page cache (the writer's 2 MiB below): the walk stays that small.
            // - The name starting with `/` shares the buffer between this engine's connections;
            //   it is unique in the process, so each engine's database stays private.
            // - `cache=shared`: the connections share one page cache, and readers keep the
            //   shared-cache table locks the `:memory:` database had (a read waits for a write
            //   transaction that changed its table, so it never sees part of a write).
            // - The journal is in memory (`journal_mode = MEMORY`, set on the writer before any
            //   write): `memdb` would otherwise open a rollback journal as a real file.
            // - `memdb` caps a database at `SQLITE_MEMDB_DEFAULT_MAXSIZE` (1 GiB unless raised),
            //   and keeps it in one allocation, which SQLite bounds at 2 GiB: `.cargo/config.toml`
            //   raises the cap to just under 2 GiB for this workspace's builds. A deliberate
            //   limit, in docs/compatibility.md ("Storage"): past it a write fails.
            Location::InMemory => SqliteConnectOptions::new()
                .filename(options::memdb_name())
                .vfs("memdb")
                .shared_cache(true)
                .create_if_missing(true),
        }
        // An acknowledged write survives kill -9 (and with `Durability::PowerLoss` a power cut).
        .synchronous(options.durability.synchronous())
        .busy_timeout(options.busy_timeout)
        .pragma("temp_store", "memory");

        // The writer's statements come in batches of a few shapes (`write_tx`); a larger cache
        // keeps them all prepared.
        // Its page cache is small (8 MiB): a `COMMIT` after a B-tree page split walks the
        // whole of the writer's page cache (`pcache1TruncateUnsafe`, bench/README.md "Bulk
        // load"), so the cost of every such commit grows with the cache. With 64 MiB that walk
        // was ~15 % of a c=1 load's CPU; the pages an 8 MiB cache misses are read back from the
        // OS's cache for less ("Checkpoints, third round").
        // In memory it is smaller still, 2 MiB (shared with the readers: `cache=shared`): a page
        // it misses is a copy from the `memdb` buffer, and the walk after a split, ~30 µs a
        // batch of 25 new items with 8 MiB, cost more than the copies it saved. With 2 MiB
        // SQLite's thread took ~11 % less CPU a batch in memory-mode loads at concurrency 1 and
        // 16 (1 MiB alike, 16 MiB slower; bench/README.md, session 2026-12-08).
        let writer_cache_kib = match options.location {
            Location::InMemory => 2048,
            Location::File(_) => 8192,
        };
        let mut writer = connect
            .clone()
            .pragma("cache_size", format!("-{writer_cache_kib}"))
            .statement_cache_capacity(256)
            .connect()
            .await
            .map_err(EngineError::Open)?;
        // Migrations commit without waiting for the disk (each of their commits would be an fsync,
        // most of a new file's startup time when the disk is busy): a schema change lost to a
        // power cut is run again at the next open. Requests' writes then get the chosen level.
        sqlx::query("PRAGMA synchronous = NORMAL")
            .execute(&mut writer)
            .await?;
        if options.location.path().is_none() {
            // Before anything is written (see `Location::InMemory` above).
            sqlx::query("PRAGMA journal_mode = MEMORY")
                .execute(&mut writer)
                .await?;
        } else {
            // A new file becomes a WAL database in a first transaction that writes its header.
            // In the default rollback mode that transaction creates, syncs and deletes a
            // journal file (three fsyncs and an unlink, most of a new file's startup on a busy
            // disk); with the journal in memory it is one write and one fsync of the file.
            // There is nothing in a new file to roll back to.
            if new_file {
                sqlx::query("PRAGMA journal_mode = MEMORY")
                    .execute(&mut writer)
                    .await?;
            }
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&mut writer)
                .await?;
            // The writer checkpoints only as the log's bound; a task of its own does the rest
            // (`checkpoint`). The log file keeps its length when the log restarts, up to the
            // bound's.
            let page_size: i64 = sqlx::query_scalar("PRAGMA page_size")
                .fetch_one(&mut writer)
                .await?;
            let writer_frames = options.checkpoint.writer_frames;
            sqlx::query(&format!(
                "PRAGMA wal_autocheckpoint = {writer_frames}; PRAGMA journal_size_limit = {}",
                checkpoint::log_size_limit(writer_frames, u32::try_from(page_size).unwrap_or(4096))
            ))
            .execute(&mut writer)
            .await?;
        }
        sqlx::migrate!("./migrations").run_direct(&mut writer).await?;
        let synchronous = match options.durability {
            Durability::Process => "PRAGMA synchronous = NORMAL",
            Durability::PowerLoss => "PRAGMA synchronous = FULL",
        };
        sqlx::query(synchronous).execute(&mut writer).await?;
        if options.location.path().is_none() {
            // Once per process, for an in-memory database, whose rollback journal is in memory
            // and freed at every commit: that memory stays in its heap (`sqlite_heap`). A
            // database file (the desktop app's) leaves the process's allocator as it is.
            sqlite_heap::keep_freed_memory(&mut writer).await;
        }
        // Two readers per core: a read's SQLite work is short, and each connection is a thread.
        let max_readers = std::thread::available_parallelism()
            .map_or(4, |n| n.get() * 2)
            .clamp(2, 8);
        let readers = Arc::new(storage::ReaderPool::new(
            match options.location {
                // Readers share the file's pages through the OS page cache; a smaller cache of
                // their own (`reader_cache_bytes`) keeps RSS near the data size.
                // Pages within the first `reader_mmap_bytes` of the file are read through a
                // memory map, the rest with a system call into that cache.
                Location::File(_) => connect
                    .clone()
                    .read_only(true)
                    // A negative cache_size is in KiB.
                    .pragma(
                        "cache_size",
                        format!("-{}", (options.reader_cache_bytes / 1024).max(1)),
                    )
                    .pragma("mmap_size", options.reader_mmap_bytes.to_string()),
                // The in-memory database is named (`memdb_name`) and opened with a shared cache,
                // so readers opened with the same options see the writer's data. Shared-cache
                // locks are per table: a read waits (sqlx's unlock_notify) while a write
                // transaction has changed the table, so it never sees a partial write.
                Location::InMemory => connect.clone().pragma("query_only", "ON"),
            },
            max_readers,
        ));
        let tables = storage::load_catalog(&mut writer).await?;
        let catalog = tables
            .into_iter()
            .map(|t| (t.name.clone(), Arc::new(t)))
            .collect();
        tracing::debug!(location = ?options.location, "engine opened");
        let sweep_interval = options.sweep_interval;
        let items = item_cache::ItemCache::new(options.item_cache_bytes);
        let commits = Arc::new(tokio::sync::Notify::new());
        let checkpointer = match &options.location {
            Location::File(path) => {
                let page_size: i64 = sqlx::query_scalar("PRAGMA page_size")
                    .fetch_one(&mut writer)
                    .await?;
                let page_size = u32::try_from(page_size).unwrap_or(4096);
                Some(
                    checkpoint::Checkpointer::start(
                        connect.clone(),
                        path,
                        page_size,
                        options.checkpoint,
                        commits.clone(),
                    )
                    .await
                    .map_err(EngineError::Open)?,
                )
            }
            Location::InMemory => None,
        };
        let options_enforce_capacity = options.enforce_capacity;
        let max_group = match options.location {
            Location::File(_) => writer::MAX_GROUP,
            Location::InMemory => writer::MEMORY_MAX_GROUP,
        };
        let options_lag = options.eventual_lag;
        let shared_writer =
            writer::SharedWriter::new(writer::Writer::new(writer, items.clone()), commits, max_group);
        let shared_writer = match options.location {
            Location::InMemory => shared_writer.spinning_for_results(),
            Location::File(_) => shared_writer,
        };
        let engine = Engine {
            inner: Arc::new(Inner {
                options,
                writer: Arc::new(shared_writer),
                readers,
                items,
                catalog: RwLock::new(catalog),
                tokens: std::sync::Mutex::new(Default::default()),
                in_flight: Default::default(),
                fresh_puts: Default::default(),
                checkpointer: std::sync::Mutex::new(checkpointer),
                _lock: lock,
                page_buffers: Arc::new(PageBuffers::new()),
                next_sweep: std::sync::Mutex::new(None),
                simulations: simulations::Simulators::new(Simulations {
                    enforce_capacity: options_enforce_capacity,
                    eventual_lag: options_lag,
                }),
            }),
        };
        if let Some(interval) = sweep_interval {
            engine.spawn_sweeper(interval);
        }
        Ok(engine)
    }

    /// Runs [`Engine::sweep`] every `interval` for as long as the engine is open.
    fn spawn_sweeper(&self, interval: std::time::Duration) {
        let weak = Arc::downgrade(&self.inner);
        let next_sweep = move |inner: &Inner| {
            let at = inner.options.clock.now_seconds() + interval.as_secs_f64();
            *inner.next_sweep.lock().unwrap_or_else(|p| p.into_inner()) = Some(at);
        };
        next_sweep(&self.inner);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(interval).await;
                let Some(inner) = weak.upgrade() else { return };
                let engine = Engine { inner };
                match engine.sweep().await {
                    Ok(0) => {}
                    Ok(deleted) => tracing::debug!(deleted, "Time to Live deleted expired items"),
                    Err(err) => tracing::warn!(%err, "the Time to Live sweep failed"),
                }
                next_sweep(&engine.inner);
            }
        });
    }

    /// When the background sweep (Time to Live, stream trimming) runs next, in seconds since
    /// the epoch on the engine's clock; `None` when the engine runs no sweeper.
    pub fn next_sweep_at(&self) -> Option<f64> {
        *self.inner.next_sweep.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How often the background sweep runs (`None`: never; see [`Options::sweep_interval`]).
    pub fn sweep_interval(&self) -> Option<std::time::Duration> {
        self.inner.options.sweep_interval
    }

    /// The options this engine was opened with.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }

    /// Where this engine keeps its data.
    pub fn location(&self) -> &Location {
        &self.inner.options.location
    }

    /// How many tables the catalog holds.
    pub fn table_count(&self) -> usize {
        self.catalog().len()
    }

    /// Runs one DynamoDB operation: `operation` is the name after `DynamoDB_20120810.` in the
    /// `X-Amz-Target` header, `body` the request's JSON. Returns the response's JSON.
    /// The request is reported in the default region (`identity`); see [`Engine::call_in`].
    pub async fn call(&self, operation: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        self.call_in(identity::DEFAULT_REGION, operation, body).await
    }

    /// [`Engine::call`] for a request signed for `region`: the ARNs of its answer carry that
    /// region and the engine's account (`identity`).
    pub async fn call_in(&self, region: &str, operation: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        self.inner.options.clock.request_arrived();
        // Counted while it runs: a write waits for SQLite's thread by spinning only while it is
        // the one call in flight (`write_tx::spin`).
        let _call = self.inner.writer.call_started();
        if self.inner.simulations.enforce_capacity() {
            let dispatch = async |body: &[u8]| dispatch::call(self, operation, body).await;
            let throttled = self
                .inner
                .simulations
                .throttling
                .run(self, operation, body, dispatch);
            identity::scope_operation(self.identity(region), operation, throttled).await
        } else {
            identity::scope_operation(
                self.identity(region),
                operation,
                dispatch::call(self, operation, body),
            )
            .await
        }
    }

    /// The identity of a request signed for `region`.
    fn identity(&self, region: &str) -> identity::Identity {
        identity::Identity {
            region: region.to_owned(),
            account: self.inner.options.account_id.clone(),
        }
    }

    /// The buffers large response bodies are written into. A caller that is done with a
    /// body [`Engine::call`] returned may give its buffer back ([`PageBuffers::give_back`]),
    /// so that the next large page need not fault in fresh memory.
    pub fn page_buffers(&self) -> &Arc<PageBuffers> {
        &self.inner.page_buffers
    }

    /// Closes the storage, waiting for connections to finish and checkpointing the WAL.
    pub async fn close(self) {
        self.inner.readers.close().await;
        // No background checkpoint may hold the log while the final one runs.
        let checkpointer = self
            .inner
            .checkpointer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        if let Some(checkpointer) = checkpointer {
            checkpointer.stop().await;
        }
        // Checkpoint even if other handles (a request in flight, the sweeper) still hold the
        // engine: the WAL is folded into the database file and truncated.
        {
            let mut writer = self.writer().await;
            if let Err(err) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(&mut writer.conn)
                .await
            {
                tracing::warn!(%err, "the write-ahead log could not be checkpointed at close");
            }
        }
        if let Ok(inner) = Arc::try_unwrap(self.inner)
            && let Some(writer) = Arc::try_unwrap(inner.writer).ok().and_then(|w| w.into_inner())
        {
            let _ = writer.conn.close().await;
        }
    }

    // ---- internals shared by the operations ------------------------------------------------

    fn catalog(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Arc<TableSchema>>> {
        self.inner
            .catalog
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn catalog_mut(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Arc<TableSchema>>> {
        self.inner
            .catalog
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The table named by a request (a name or an ARN), or `ResourceNotFoundException` as the
    /// data plane words it.
    fn table(&self, name: &str) -> Result<Arc<TableSchema>, ApiError> {
        self.table_or(name, |_| ApiError::resource_not_found())
    }

    /// The table named by a request's TableName (a name or an ARN), through
    /// [`Engine::table_name`]; a table that does not exist is `not_found(<its name>)`, the error
    /// the operation words.
    fn table_or(
        &self,
        name: &str,
        not_found: impl FnOnce(&str) -> ApiError,
    ) -> Result<Arc<TableSchema>, ApiError> {
        let name = Self::table_name(name)?;
        self.catalog().get(name).cloned().ok_or_else(|| not_found(name))
    }

    /// The table name a request's TableName (a name or an ARN) gives: the one place every
    /// operation, CreateTable included, reads one. A table ARN names a table of the caller's
    /// region and account only (`identity::check_table_arn`).
    fn table_name(name: &str) -> Result<&str, ApiError> {
        identity::check_table_arn(name)?;
        Ok(shape::table_name_of(name))
    }

    fn now(&self) -> f64 {
        self.inner.options.clock.now_seconds()
    }

    /// A connection for reading, from the reader pool.
    async fn reader(&self) -> Result<storage::PooledReader, ApiError> {
        self.inner.readers.acquire().await
    }

    /// The item at `key` as stored, through the item cache; `conn` is a reader connection,
    /// taken from the pool only if SQLite must be read.
    async fn read_item(
        &self,
        conn: &mut Option<storage::PooledReader>,
        table: &TableSchema,
        key: &entry::StorageKey,
    ) -> Result<item_cache::Cached, ApiError> {
        use item_cache::Lookup;
        let cache_key = item_cache::KeyRef::item(table.keyspace, &key.pk, &key.sk);
        let ticket = match self.inner.items.as_ref().map(|items| items.lookup(cache_key)) {
            Some(Lookup::Hit(item_cache::Entry::Item(cached))) => return Ok(cached),
            Some(Lookup::Miss(ticket)) => Some(ticket),
            Some(Lookup::Hit(item_cache::Entry::Collection(_)) | Lookup::Bypass) | None => None,
        };
        let conn = match conn {
            Some(conn) => conn,
            None => conn.insert(self.reader().await?),
        };
        let stored = entry::load_stored(conn, table, key)
            .await?
            .map(|(body, size)| {
                let body = String::from_utf8(body).map_err(ApiError::internal)?;
                Ok::<_, ApiError>(Arc::new(item_cache::StoredBody {
                    body: body.into_boxed_str(),
                    size,
                }))
            })
            .transpose()?;
        if let (Some(items), Some(ticket)) = (&self.inner.items, ticket) {
            items.fill(ticket, cache_key, item_cache::Entry::Item(stored.clone()));
        }
        Ok(stored)
    }

    /// The whole item collection `pk` of a table as stored, through the item cache, or `None`
    /// when the cache is off, a write to it is in flight, it missed for the first time in a
    /// while (`ItemCache::admit_collection`), or it has more than
    /// [`item_cache::MAX_COLLECTION_ROWS`] items (the caller then reads SQLite itself).
    async fn read_collection(
        &self,
        conn: &mut Option<storage::PooledReader>,
        table: &TableSchema,
        pk: &[u8],
    ) -> Result<Option<Arc<read::CollectionRows>>, ApiError> {
        use item_cache::{Entry, Lookup};
        let Some(items) = &self.inner.items else {
            return Ok(None);
        };
        let cache_key = item_cache::KeyRef::collection(table.keyspace, pk);
        let ticket = match items.lookup(cache_key) {
            Lookup::Hit(Entry::Collection(rows)) => return Ok(Some(rows)),
            Lookup::Miss(ticket) if items.admit_collection(cache_key) => ticket,
            Lookup::Miss(_) | Lookup::Hit(Entry::Item(_)) | Lookup::Bypass => return Ok(None),
        };
        let conn = match conn {
            Some(conn) => conn,
            None => conn.insert(self.reader().await?),
        };
        // The whole collection, one more row than is cached: more means too big to cache.
        let whole = read::Range {
            keyspace: table.keyspace,
            pk: Some(pk.to_vec()),
            lower: read::Bound::Unbounded,
            upper: read::Bound::Unbounded,
            forward: true,
            start_after: None,
            segment: None,
        };
        let batch = read::fetch(conn, &whole, None, item_cache::MAX_COLLECTION_ROWS as i64 + 1).await?;
        if batch.len() > item_cache::MAX_COLLECTION_ROWS {
            return Ok(None);
        }
        let rows = Arc::new(read::CollectionRows {
            batch: batch.into_owned(),
        });
        items.fill(ticket, cache_key, Entry::Collection(rows.clone()));
        Ok(Some(rows))
    }

    /// The context of a write made by a request, now.
    fn write_context(&self) -> items::WriteContext {
        items::WriteContext {
            collection_size_limit: self.inner.options.collection_size_limit,
            now: self.now(),
            origin: streams::Origin::Request,
            history: self.inner.simulations.history(),
        }
    }

    /// Runs one DynamoDB Streams operation: `operation` is the name after
    /// `DynamoDBStreams_20120810.` in the `X-Amz-Target` header.
    pub async fn call_streams(&self, operation: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
        self.call_streams_in(identity::DEFAULT_REGION, operation, body)
            .await
    }

    /// [`Engine::call_streams`] for a request signed for `region` (see [`Engine::call_in`]).
    pub async fn call_streams_in(
        &self,
        region: &str,
        operation: &str,
        body: &[u8],
    ) -> Result<Vec<u8>, ApiError> {
        self.inner.options.clock.request_arrived();
        identity::scope(self.identity(region), streams::call(self, operation, body)).await
    }

    /// The writer connection with no transaction open (a group commit in progress is
    /// committed first), held for the length of one write transaction.
    async fn writer(&self) -> writer::IdleWriter {
        self.inner.writer.lock_idle().await
    }

    /// TransactWriteItems' ClientRequestTokens.
    fn tokens(&self) -> std::sync::MutexGuard<'_, ops::transact_write_items::Tokens> {
        self.inner
            .tokens
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether BatchWriteItem tries batches of puts as new items first.
    fn fresh_puts(&self) -> &ops::batch_write_item::FreshPuts {
        &self.inner.fresh_puts
    }

    /// The item cache, if there is one.
    fn item_cache(&self) -> Option<&item_cache::ItemCache> {
        self.inner.items.as_deref()
    }

    /// The registry of items write requests hold (see `in_flight`).
    fn in_flight(&self) -> &in_flight::InFlight {
        &self.inner.in_flight
    }

    /// A write transaction on the writer connection (see `write_tx`).
    async fn write_tx(&self) -> write_tx::WriteTx {
        write_tx::WriteTx::begin(&self.inner.writer).await
    }
}

/// Opens a `BEGIN IMMEDIATE` transaction: SQLite's write lock is taken at the start, so a
/// transaction that read an item cannot be overtaken by another process's write to it.
async fn begin_write(conn: &mut SqliteConnection) -> Result<sqlx::Transaction<'_, sqlx::Sqlite>, ApiError> {
    Ok(conn.begin_with("BEGIN IMMEDIATE").await?)
}
