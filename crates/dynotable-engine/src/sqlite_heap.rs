//! SQLite's freed memory kept for its next transaction: glibc's trim threshold raised, once.
//!
//! SQLite allocates with the C library's `malloc` (the binary's Rust allocator is not SQLite's).
//! An in-memory journal — the rollback journal of an `--in-memory` database (`journal_mode =
//! MEMORY`), and the statement journals (`temp_store = memory`) — is a list of 1 KiB chunks,
//! allocated as each page is first changed and all freed when the transaction or statement
//! ends (`memjrnlWrite`, `memjrnlFreeChunks` in SQLite's `memjournal.c`). glibc gives the free
//! memory at the top of a heap back to the kernel once it is more than its trim threshold,
//! 128 KiB by default (on a thread's heap with `madvise(MADV_DONTNEED)`), so each group commit's
//! journal was faulted back in by the next one, every page zeroed by the kernel again: in a
//! memory-mode load at c=16 that was ~55,000 of the load's ~85,000 page faults, and setting
//! the threshold high (`GLIBC_TUNABLES=glibc.malloc.trim_threshold=…`) loaded ~14 % faster
//! (bench/README.md, session 2026-12-07).
//!
//! This workspace has no `unsafe` code, so the engine does not call `mallopt`. glibc raises
//! the threshold by itself: "when blocks larger than the current threshold and less than or
//! equal to DEFAULT_MMAP_THRESHOLD_MAX [32 MiB on 64-bit systems] are freed, the threshold is
//! adjusted upward to the size of the freed block. When dynamic mmap thresholding is in effect,
//! the threshold for trimming the heap is also dynamically adjusted to be twice the dynamic
//! mmap threshold" (mallopt(3), `M_MMAP_THRESHOLD`). So once per process SQLite is made to
//! allocate and free one block of [`BLOCK_BYTES`]: a blob bound to a statement, which SQLite
//! copies into an allocation of its own (sqlx binds with `SQLITE_TRANSIENT`) and frees when the
//! statement is finalized. From then on up to twice that much free memory stays in a heap for
//! the next allocation instead of going back to the kernel (and blocks below [`BLOCK_BYTES`]
//! come from the heaps, not from `mmap`).
//!
//! Elsewhere — another C library, or glibc with thresholds set by `mallopt` or
//! `GLIBC_TUNABLES`, which turn the adjustment off — it is one allocation, once, and nothing
//! else.
//!
//! It changes the allocator of the whole process, so the engine does it only when it opens an
//! in-memory database (`dynotable-local --in-memory`, tests): the desktop app's engine, on a
//! file, leaves its memory as it was.

use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::SqliteConnection;

/// The block SQLite allocates and frees: glibc then keeps up to twice this much free memory in a
/// heap. 1 MiB already removed the load's extra page faults; 4 MiB leaves room for larger
/// groups' journals.
pub(crate) const BLOCK_BYTES: usize = 4 << 20;

/// Whether this process's SQLite has freed the block yet.
static DONE: AtomicBool = AtomicBool::new(false);

/// Has SQLite allocate and free the block on `conn`, the first time it is called in this
/// process (module documentation). Its errors are ignored: it only spares page faults.
pub(crate) async fn keep_freed_memory(conn: &mut SqliteConnection) {
    if !DONE.swap(true, Ordering::Relaxed) {
        allocate_and_free(conn).await;
    }
}

async fn allocate_and_free(conn: &mut SqliteConnection) {
    let block = vec![0u8; BLOCK_BYTES];
    let _ = sqlx::query("SELECT length(?)")
        .bind(block)
        .persistent(false)
        .execute(&mut *conn)
        .await;
    // sqlx keeps the last statement it did not cache until the next one replaces it: that
    // finalizes the one holding SQLite's copy of the block, which frees it.
    let _ = sqlx::query("SELECT 1")
        .persistent(false)
        .execute(&mut *conn)
        .await;
}

#[cfg(test)]
mod tests {
    use sqlx::Connection;

    /// The connection is left usable, and once the block was freed in this process, later
    /// calls do nothing.
    #[tokio::test]
    async fn the_block_goes_through_sqlite_once_and_the_connection_goes_on() {
        let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
        super::allocate_and_free(&mut conn).await;
        let length: i64 = sqlx::query_scalar("SELECT length(?)")
            .bind(vec![1u8; 3])
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(length, 3);
        super::keep_freed_memory(&mut conn).await;
        assert!(super::DONE.load(std::sync::atomic::Ordering::Relaxed));
    }
}
