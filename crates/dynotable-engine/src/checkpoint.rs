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
//! - After a commit it looks at the size of the `-wal` file (one `stat`). Once the log holds
//!   [`CheckpointPolicy::background_frames`] pages that no checkpoint has copied yet, it runs
//!   `PRAGMA wal_checkpoint(PASSIVE)`: that copies what is committed without taking the write
//!   lock, so the writer keeps committing (on the other core) while the pages are copied.
//! - A passive checkpoint never *restarts* the log; the writer does that, at the start of a
//!   transaction, when the log was wholly copied. Under a steady load a commit usually lands
//!   while the background checkpoint runs, so the log would grow. The writer's own automatic
//!   checkpoint stays on as the bound: at [`CheckpointPolicy::writer_frames`] pages the writer
//!   checkpoints inside its commit — by then only the pages since the last background
//!   checkpoint are left to copy — and its next transaction starts the log again from the top.
//!   The task leaves a log past that length alone, so that its checkpoint is not in the
//!   writer's way. `journal_size_limit = 0` then truncates the file to what that first commit wrote, so the
//!   file's size tracks the log's length (which is what the task reads).
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
            background_frames: 2048,
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

struct Log {
    path: PathBuf,
    frame_bytes: u64,
}

impl Log {
    /// The frames in the log file (0 if it is missing or empty).
    fn frames(&self) -> u64 {
        std::fs::metadata(&self.path)
            .map(|m| m.len().saturating_sub(WAL_HEADER_BYTES) / self.frame_bytes)
            .unwrap_or(0)
    }
}

async fn run(
    mut conn: SqliteConnection,
    log: Log,
    policy: CheckpointPolicy,
    commits: Arc<Notify>,
    mut stopped: watch::Receiver<bool>,
) {
    // Frames of the current log already copied by this task's checkpoints (the log is
    // restarted when the file becomes shorter than that).
    let mut copied: u64 = 0;
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
            let frames = log.frames();
            if frames < copied {
                copied = 0;
            }
            // Past the writer's bound the writer checkpoints at its next commit and restarts
            // the log; a background checkpoint then would only be in its way (the writer's
            // is skipped while another holds the checkpoint lock, and the log grows on).
            // The last stretch before the bound is the writer's too, so that a background
            // checkpoint still running when the log reaches it is rare.
            let last_stretch = u64::from(policy.writer_frames.saturating_sub(policy.background_frames));
            if frames - copied < u64::from(policy.background_frames) || frames >= last_stretch {
                continue;
            }
            match checkpoint(&mut conn, "PASSIVE").await {
                Ok(result) => copied = result.checkpointed,
                Err(err) => tracing::warn!(%err, "a background checkpoint failed"),
            }
        } else {
            // Idle: copy everything and empty the file, unless a reader still needs the log.
            match checkpoint(&mut conn, "TRUNCATE").await {
                Ok(result) if !result.busy => {
                    dirty = false;
                    copied = 0;
                }
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
    /// Frames of the log copied into the database file so far.
    checkpointed: u64,
}

async fn checkpoint(conn: &mut SqliteConnection, mode: &str) -> Result<CheckpointResult, sqlx::Error> {
    // Stepped to the end: a statement left unfinished would keep a read transaction open,
    // and the writer could never restart the log under it.
    let rows = sqlx::query(&format!("PRAGMA wal_checkpoint({mode})"))
        .fetch_all(&mut *conn)
        .await?;
    let row = rows.first().ok_or(sqlx::Error::RowNotFound)?;
    let busy: i64 = row.try_get(0)?;
    let checkpointed: i64 = row.try_get(2)?;
    Ok(CheckpointResult {
        busy: busy != 0,
        checkpointed: u64::try_from(checkpointed).unwrap_or(0),
    })
}
