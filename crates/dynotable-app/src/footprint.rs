//! What the app's process holds in memory besides what it shows: the embedded engine's caches.
//!
//! `dynotable-local`, a server, opens the engine with its defaults: a 64 MiB item cache, a
//! 256 MiB memory map of the database file on each reader and a 16 MiB page cache per reader,
//! sized for the throughput it is benchmarked on (bench/README.md). A desktop app reads a page
//! of items at a time for a person, and moves whole tables in and out (import, export): with
//! those defaults a 1,000,000-item export held 250–380 MB of RSS, most of it the mapped file,
//! and an import ~115 MB, most of it the item cache the puts filled (bench/transfer/README.md).
//! So the app opens its engine with smaller bounds, which a Scan of any size cannot exceed:
//!
//! - no memory map ([`READER_MMAP_BYTES`]): every page is read into a reader's own bounded
//!   cache, so a streamed export's RSS does not grow with the table;
//! - a 4 MiB page cache per reader ([`READER_CACHE_BYTES`]);
//! - a 16 MiB item cache ([`ITEM_CACHE_BYTES`]), which an import's puts fill to its bound.
//!
//! Measured in bench/transfer/README.md: a million items imported at 49 MB and exported at
//! 82–84 MB of peak RSS (release build). Side by side on `dynotable-local`, these bounds halve
//! the rate of GetItem and Query at concurrency 1 on a 100,000-item table (0.2 ms at the median
//! instead of 0.1 ms), all of it the smaller item cache; the Scan is the same. A person reading a
//! page at a time does not see 0.1 ms; they do see 200 MB more RSS.

use dynotable_engine::{Location, Options};

/// The embedded engine's item cache (`Options::item_cache_bytes`).
pub const ITEM_CACHE_BYTES: u64 = 16 * 1024 * 1024;
/// How much of the database file each reader maps (`Options::reader_mmap_bytes`): none.
pub const READER_MMAP_BYTES: u64 = 0;
/// Each reader's SQLite page cache (`Options::reader_cache_bytes`).
pub const READER_CACHE_BYTES: u64 = 4 * 1024 * 1024;

/// The options the app opens its embedded engine at `location` with.
pub fn engine_options(location: Location) -> Options {
    let mut options = Options::new(location);
    options.item_cache_bytes = ITEM_CACHE_BYTES;
    options.reader_mmap_bytes = READER_MMAP_BYTES;
    options.reader_cache_bytes = READER_CACHE_BYTES;
    options
}
