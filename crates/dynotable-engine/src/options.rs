//! The settings an engine is opened with ([`Options`]): where its data lives ([`Location`]),
//! what an acknowledged write survives ([`Durability`]), its caches' bounds and its simulations.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use sqlx::sqlite::SqliteSynchronous;

use crate::checkpoint::CheckpointPolicy;
use crate::clock::{Clock, SystemClock};
use crate::eventual_lag::EventualLag;
use crate::identity;

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

/// The name of a new in-memory database on SQLite's `memdb` VFS: starting with `/`, so that the
/// engine's connections share it, and unique in the process (its id and a counter), so that no
/// two engines do. It names no file: `memdb` keeps the database in this process's memory.
pub(crate) fn memdb_name() -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("/dynotable-memdb-{}-{n}", std::process::id())
}

/// Settings an engine is opened with.
#[derive(Debug, Clone)]
pub struct Options {
    pub location: Location,
    /// The item-collection size limit on tables with a local secondary index. DynamoDB's is
    /// 10 GB (rules B.7); tests set it lower to reach it.
    pub collection_size_limit: u64,
    /// Where the engine reads the time (creation dates, TTL expiry, stream records).
    pub clock: Arc<dyn Clock>,
    /// The address DescribeEndpoints reports (the server sets its own `host:port`).
    pub endpoint_address: String,
    /// How often the background sweep deletes expired items (Time to Live) and trims stream
    /// records; `None` runs no sweep (tests call [`Engine::sweep`] themselves).
    pub sweep_interval: Option<std::time::Duration>,
    /// The byte budget of the item cache that serves GetItem and BatchGetItem by key
    /// (`item_cache`); 0 turns it off. The cache assumes this engine is the only writer of
    /// its database file.
    pub item_cache_bytes: u64,
    /// What an acknowledged write survives (file databases; see [`Durability`]).
    pub durability: Durability,
    /// How many bytes at the start of a database file the reader connections map into memory
    /// (SQLite's `mmap_size`); 0 reads every page with a system call into each reader's own
    /// page cache. A mapped page is read where it lies in the OS page cache, with no copy and
    /// no cache of the connection's own to fill, which makes a read that misses the readers'
    /// caches cheaper (bench/README.md, "Query and GSI Query off the cache"). The pages a
    /// reader touched count in the process's RSS (they are the OS's file cache, shared and
    /// reclaimable), so the bound is also how much RSS the mapping can add.
    pub reader_mmap_bytes: u64,
    /// The page cache of each reader connection of a file database, in bytes (SQLite's
    /// `cache_size`). Readers share the file's pages through the OS page cache; their own
    /// caches keep the hot pages of the B-trees a read walks without a system call. A reader
    /// fills its cache only with pages read outside the memory map (`reader_mmap_bytes`), so a
    /// Scan of a table larger than the map fills it to this bound. There are up to eight readers.
    pub reader_cache_bytes: u64,
    /// When a file database's write-ahead log is checkpointed (see `checkpoint`).
    pub checkpoint: CheckpointPolicy,
    /// The account id every ARN reports (`identity`); DynamoDB's is the caller's account.
    pub account_id: String,
    /// Throttle requests as the service does, by provisioned throughput with 300 s of burst
    /// and by the per-partition ceilings (`throttling`, rule B.19). Off: nothing is throttled,
    /// as DynamoDB Local does.
    pub enforce_capacity: bool,
    /// Let eventually consistent GetItem, BatchGetItem, Query and Scan reads (and PartiQL
    /// SELECTs, which run as these) see writes up to this late, deterministically under its seed (`eventual_lag`, rule B.20). `None`: every read sees
    /// every acknowledged write.
    pub eventual_lag: Option<EventualLag>,
    /// How long a statement waits for a lock on the database file that another connection
    /// holds before it fails (SQLite's busy timeout): the engine's own connections never hold
    /// the write lock against each other (one writer), so only another process writing the
    /// file does. Tests that hold the lock themselves to keep a transaction ongoing set it past
    /// any test's length (`dynotable-local --busy-timeout`).
    pub busy_timeout: std::time::Duration,
}

/// What an acknowledged write survives, in a database file (an in-memory database survives
/// nothing). Both keep every acknowledged write across a crash of the process (`kill -9`):
/// a write is acknowledged only after its `COMMIT` returned, and in WAL mode a committed
/// transaction is in the write-ahead log in the OS's hands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// `synchronous = NORMAL`: the write-ahead log is synced at checkpoints, not at every
    /// commit. A crash of the process loses nothing acknowledged; a crash of the OS or a power
    /// cut may lose the last acknowledged writes (the database stays consistent).
    #[default]
    Process,
    /// `synchronous = FULL`: every commit waits for the write-ahead log to reach the disk, so an
    /// acknowledged write survives a power cut too; each commit costs an fsync.
    PowerLoss,
}

impl Durability {
    pub(crate) fn synchronous(self) -> SqliteSynchronous {
        match self {
            Durability::Process => SqliteSynchronous::Normal,
            Durability::PowerLoss => SqliteSynchronous::Full,
        }
    }
}

impl FromStr for Durability {
    type Err = String;
    fn from_str(text: &str) -> Result<Durability, String> {
        match text {
            "process" => Ok(Durability::Process),
            "power-loss" => Ok(Durability::PowerLoss),
            other => Err(format!(
                "unknown durability `{other}`: expected `process` or `power-loss`"
            )),
        }
    }
}

/// The default of [`Options::busy_timeout`].
pub const DEFAULT_BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The item cache's default budget, in bytes.
pub const DEFAULT_ITEM_CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// The default bound of the readers' memory map ([`Options::reader_mmap_bytes`]).
pub const DEFAULT_READER_MMAP_BYTES: u64 = 256 * 1024 * 1024;

/// The default page cache of each reader connection ([`Options::reader_cache_bytes`]).
pub const DEFAULT_READER_CACHE_BYTES: u64 = 16 * 1024 * 1024;

/// DynamoDB's item-collection size limit on tables with a local secondary index: 10 GB (rules
/// B.7).
pub const DEFAULT_COLLECTION_SIZE_LIMIT: u64 = 10 * 1024 * 1024 * 1024;

impl Options {
    pub fn new(location: Location) -> Options {
        Options {
            location,
            collection_size_limit: DEFAULT_COLLECTION_SIZE_LIMIT,
            clock: Arc::new(SystemClock),
            endpoint_address: "localhost:8000".to_owned(),
            sweep_interval: Some(std::time::Duration::from_secs(30)),
            item_cache_bytes: DEFAULT_ITEM_CACHE_BYTES,
            durability: Durability::default(),
            reader_mmap_bytes: DEFAULT_READER_MMAP_BYTES,
            reader_cache_bytes: DEFAULT_READER_CACHE_BYTES,
            checkpoint: CheckpointPolicy::default(),
            account_id: identity::DEFAULT_ACCOUNT.to_owned(),
            enforce_capacity: false,
            eventual_lag: None,
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        }
    }
}
