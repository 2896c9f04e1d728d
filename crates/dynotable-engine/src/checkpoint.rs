//! Checkpoints of the write-ahead log, off the writer's path (file databases).
//!
//! In WAL mode every commit appends the pages it changed to the `-wal` file, and a *checkpoint*
//! copies them back into the database file. By default SQLite checkpoints on the committing
//! connection, inside the `COMMIT`, whenever the log passes 1,000 pages: on the writer's thread,
//! while every queued write waits. Under a bulk load that was ~19 % of the server's CPU samples
//! (bench/README.md, "Bulk load"), with an fsync of the log and of the database in each.
//!
//! Here a task with a connection of its own does that work instead:
//!
//! - After a commit it reads the wal-index header (the first 100 bytes of the `-shm` file):
//!   how many pages the log holds and how many of them checkpoints have copied. Once
//!   [`CheckpointPolicy::background_frames`] pages are not copied yet, it runs
//!   `PRAGMA wal_checkpoint(PASSIVE)`: that copies what is committed without taking the write
//!   lock, so the writer keeps committing (on the other core) while the pages are copied.
//! - A passive checkpoint never *restarts* the log; the writer does that, at the start of a
//!   transaction, when the log was wholly copied. Under a steady load a commit usually lands
//!   while the background checkpoint runs, so the log would grow. The writer's own automatic
//!   checkpoint stays on as the bound: at [`CheckpointPolicy::writer_frames`] pages the writer
//!   checkpoints inside its commit — by then only the pages since the last background
//!   checkpoint are left to copy — and its next transaction starts the log again from the top.
//!   The task leaves the last `background_frames` before that length alone, so that its
//!   checkpoint is not in the writer's way. What the writer copies (and syncs) at the bound is
//!   so at most about `2 × background_frames` pages: that step is the load's slowest commit,
//!   which is why the background step is small (512 pages; with 2,048 a c=1 load's p99 was
//!   ~40 ms, with 512 ~20 ms: bench/README.md "Checkpoints, third round").
//! - The log file keeps its length when the log restarts: the next commits overwrite it from
//!   the top (`journal_size_limit` is the bound's length, [`log_size_limit`]). Cutting it back
//!   at every restart made each commit after it grow the file again, block by block, which cost
//!   the writer more than the truncation itself.
//! - After [`CheckpointPolicy::idle`] without a commit it runs `wal_checkpoint(TRUNCATE)`: the
//!   whole log copied and the file emptied. That checkpoint briefly holds the write lock; it
//!   does not wait (its connection's busy timeout is short) when a reader still uses the log,
//!   and is tried again after the next commit's idle time.
//!
//! Durability is unchanged: a write is acknowledged after its `COMMIT` put its pages in the
//! log, and the log is never emptied before they are in the database file. A reader that holds
//! an old snapshot keeps the pages it may need in the log (a checkpoint stops short of them and
//! the log is not restarted under it), as with SQLite's own checkpoints.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection, Row};
use tokio::sync::{Notify, watch};

/// When the log is checkpointed, in pages (frames) of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointPolicy {
    /// Pages not yet copied at which the background task runs a passive checkpoint.
    pub background_frames: u32,
    /// The writer's own `wal_autocheckpoint`: the length at which it checkpoints inside its
    /// commit, and so restarts the log. Bounds the log under a steady load.
    pub writer_frames: u32,
    /// How long after the last commit the log is checkpointed and truncated.
    pub idle: Duration,
}

impl Default for CheckpointPolicy {
    fn default() -> CheckpointPolicy {
        CheckpointPolicy {
            background_frames: 512,
            writer_frames: 8192,
            idle: Duration::from_millis(500),
        }
    }
}

/// The running checkpoint task; stopped (and waited for) by [`Checkpointer::stop`], or left
/// to end by itself when the engine is dropped.
pub(crate) struct Checkpointer {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Checkpointer {
    /// Opens the task's connection to the database at `path` and starts the task; `commits`
    /// is notified after every commit of the writer.
    pub async fn start(
        connect: SqliteConnectOptions,
        path: &Path,
        page_size: u32,
        policy: CheckpointPolicy,
        commits: Arc<Notify>,
    ) -> Result<Checkpointer, sqlx::Error> {
        let conn = connect
            // A TRUNCATE checkpoint that meets a reader gives up at once instead of holding the
            // write lock while it waits.
            .busy_timeout(Duration::from_millis(20))
            .pragma("cache_size", "-256")
            .connect()
            .await?;
        let (stop, stopped) = watch::channel(false);
        let log = Log {
            path: wal_path(path),
            index: shm_path(path),
            frame_bytes: u64::from(page_size) + FRAME_HEADER_BYTES,
        };
        let task = tokio::spawn(run(conn, log, policy, commits, stopped));
        Ok(Checkpointer { stop, task })
    }

    /// Stops the task and waits until its connection is closed (no checkpoint is running then).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

/// A WAL file: a 32-byte header, then frames of a 24-byte header and one page.
const WAL_HEADER_BYTES: u64 = 32;
const FRAME_HEADER_BYTES: u64 = 24;

/// The `-wal` file next to the database.
pub(crate) fn wal_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// The `-shm` file (the wal-index) next to the database.
fn shm_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-shm");
    PathBuf::from(name)
}

/// The `journal_size_limit` for a log bounded at `frames` pages of `page_size` bytes: the
/// file is left at its length when the log restarts (rewriting it in place costs the file
/// system no new blocks), and cut back to the bound if it outgrew it.
pub(crate) fn log_size_limit(frames: u32, page_size: u32) -> u64 {
    WAL_HEADER_BYTES + u64::from(frames) * (u64::from(page_size) + FRAME_HEADER_BYTES)
}

struct Log {
    path: PathBuf,
    /// The wal-index: its header says how long the log is and how much of it checkpoints
    /// have copied.
    index: PathBuf,
    frame_bytes: u64,
}

/// How far the log reaches, and how much of it is in the database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LogState {
    /// Frames in the log (the wal-index's `mxFrame`).
    frames: u64,
    /// Frames of it already copied into the database file (`nBackfill`).
    copied: u64,
}

impl Log {
    /// The log's length and what checkpoints copied of it, from the wal-index header
    /// (sqlite.org/walformat.html, 2.2: `mxFrame` is the u32 at byte 16 of each of the
    /// header's two 48-byte copies, `nBackfill` the u32 at byte 96, in native byte order).
    /// Without a readable header: the log file's length, nothing copied.
    fn state(&self) -> LogState {
        use std::io::Read;
        let mut header = [0u8; 100];
        let read = std::fs::File::open(&self.index).and_then(|mut file| file.read_exact(&mut header));
        if read.is_err() {
            let frames = std::fs::metadata(&self.path)
                .map(|m| m.len().saturating_sub(WAL_HEADER_BYTES) / self.frame_bytes)
                .unwrap_or(0);
            return LogState { frames, copied: 0 };
        }
        let word = |at: usize| {
            u64::from(u32::from_ne_bytes([
                header[at],
                header[at + 1],
                header[at + 2],
                header[at + 3],
            ]))
        };
        // The two copies differ only while a commit writes them; the later one is the longer.
        let frames = word(16).max(word(48 + 16));
        LogState {
            frames,
            copied: word(96).min(frames),
        }
    }
}

async fn run(
    mut conn: SqliteConnection,
    log: Log,
    policy: CheckpointPolicy,
    commits: Arc<Notify>,
    mut stopped: watch::Receiver<bool>,
) {
    // Whether a commit happened since the log was last truncated.
    let mut dirty = true;
    loop {
        let wait = async {
            if dirty {
                tokio::time::timeout(policy.idle, commits.notified())
                    .await
                    .is_ok()
            } else {
                commits.notified().await;
                true
            }
        };
        let committed = tokio::select! {
            committed = wait => committed,
            _ = stopped.changed() => break,
        };
        if committed {
            dirty = true;
            let LogState { frames, copied } = log.state();
            // Past the writer's bound the writer checkpoints at its next commit and restarts
            // the log; a background checkpoint then would only be in its way (the writer's
            // is skipped while another holds the checkpoint lock, and the log grows on).
            // The last stretch before the bound is the writer's too, so that a background
            // checkpoint still running when the log reaches it is rare.
            let last_stretch = u64::from(policy.writer_frames.saturating_sub(policy.background_frames));
            if frames - copied < u64::from(policy.background_frames) || frames >= last_stretch {
                continue;
            }
            if let Err(err) = checkpoint(&mut conn, "PASSIVE").await {
                tracing::warn!(%err, "a background checkpoint failed");
            }
        } else {
            // Idle: copy everything and empty the file, unless a reader still needs the log.
            match checkpoint(&mut conn, "TRUNCATE").await {
                Ok(result) if !result.busy => dirty = false,
                Ok(_) => {}
                Err(err) => tracing::warn!(%err, "an idle checkpoint failed"),
            }
        }
    }
    let _ = conn.close().await;
}

/// What `PRAGMA wal_checkpoint` reports.
struct CheckpointResult {
    /// The checkpoint could not finish (a reader or writer was in its way).
    busy: bool,
}

async fn checkpoint(conn: &mut SqliteConnection, mode: &str) -> Result<CheckpointResult, sqlx::Error> {
    // Stepped to the end: a statement left unfinished would keep a read transaction open,
    // and the writer could never restart the log under it.
    let rows = sqlx::query(&format!("PRAGMA wal_checkpoint({mode})"))
        .fetch_all(&mut *conn)
        .await?;
    let row = rows.first().ok_or(sqlx::Error::RowNotFound)?;
    let busy: i64 = row.try_get(0)?;
    Ok(CheckpointResult { busy: busy != 0 })
}
