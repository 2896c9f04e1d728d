//! The write-ahead log of a database file is checkpointed by a task of the engine's own, off the
//! writer's path (`checkpoint`): it copies the log into the database file while the writer keeps
//! writing, the log stays bounded under a steady load, an idle log is emptied, and nothing
//! written is lost on the way.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use dynotable_engine::{CheckpointPolicy, Engine, Location, Options};

const CREATE: &str = r#"{"TableName":"Readings","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"vehicle","AttributeType":"S"},{"AttributeName":"seq","AttributeType":"N"}],"KeySchema":[{"AttributeName":"vehicle","KeyType":"HASH"},{"AttributeName":"seq","KeyType":"RANGE"}]}"#;

/// A WAL frame: a 24-byte header and a page (4 KiB, SQLite's default).
const FRAME_BYTES: u64 = 4096 + 24;

fn wal(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", db.display()))
}

/// The pages the log holds: `mxFrame` in the wal-index header at the start of the `-shm` file
/// (sqlite.org/walformat.html, 2.2: a u32 in native byte order at byte 16).
fn log_frames(db: &Path) -> u64 {
    let header = std::fs::read(format!("{}-shm", db.display())).unwrap_or_default();
    header
        .get(16..20)
        .map_or(0, |word| u64::from(u32::from_ne_bytes(word.try_into().unwrap())))
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

async fn open(db: &Path, checkpoint: CheckpointPolicy) -> Engine {
    let mut options = Options::new(Location::File(db.to_path_buf()));
    options.checkpoint = checkpoint;
    options.sweep_interval = None;
    let engine = Engine::open_with(options).await.unwrap();
    if engine.table_count() == 0 {
        engine.call("CreateTable", CREATE.as_bytes()).await.unwrap();
    }
    engine
}

/// BatchWriteItem number `batch`: 25 readings, one for each of 25 vehicles (of 500), so each
/// batch touches many pages, as the benchmark's load does.
async fn write_batch(engine: &Engine, batch: usize) {
    let requests: Vec<String> = (0..25)
        .map(|i| {
            let vehicle = (batch * 25 + i) % 500;
            let seq = (batch * 25 + i) / 500;
            format!(
                r#"{{"PutRequest":{{"Item":{{"vehicle":{{"S":"v{vehicle:04}"}},"seq":{{"N":"{seq}"}},"payload":{{"S":"{}"}}}}}}}}"#,
                "x".repeat(200)
            )
        })
        .collect();
    let body = format!(r#"{{"RequestItems":{{"Readings":[{}]}}}}"#, requests.join(","));
    let out: serde_json::Value =
        serde_json::from_slice(&engine.call("BatchWriteItem", body.as_bytes()).await.unwrap()).unwrap();
    assert_eq!(out["UnprocessedItems"], serde_json::json!({}), "{out}");
}

/// The default policy but for an idle time of 100 ms.
/// `open`, once an engine dropped without `close` has let go of `db`: its lock is released when
/// its last task ends, a moment after the drop. Waits at most 10 s.
async fn open_once_released(db: &Path, checkpoint: CheckpointPolicy) -> Engine {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut options = Options::new(Location::File(db.to_path_buf()));
        options.checkpoint = checkpoint;
        options.sweep_interval = None;
        match Engine::open_with(options).await {
            Ok(engine) => return engine,
            Err(err) => {
                assert!(Instant::now() < deadline, "{err}");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    }
}

fn quick_idle() -> CheckpointPolicy {
    CheckpointPolicy {
        idle: Duration::from_millis(100),
        ..CheckpointPolicy::default()
    }
}

/// An engine on `db` with 40 batches written.
async fn open_and_write_40_batches(db: &Path, policy: CheckpointPolicy) -> Engine {
    let engine = open(db, policy).await;
    for batch in 0..40 {
        write_batch(&engine, batch).await;
    }
    engine
}

async fn item_count(engine: &Engine) -> u64 {
    let mut count = 0;
    let mut start: Option<serde_json::Value> = None;
    loop {
        let body = match &start {
            Some(key) => format!(r#"{{"TableName":"Readings","Select":"COUNT","ExclusiveStartKey":{key}}}"#),
            None => r#"{"TableName":"Readings","Select":"COUNT"}"#.to_owned(),
        };
        let page: serde_json::Value =
            serde_json::from_slice(&engine.call("Scan", body.as_bytes()).await.unwrap()).unwrap();
        count += page["Count"].as_u64().unwrap();
        match page.get("LastEvaluatedKey") {
            Some(key) => start = Some(key.clone()),
            None => return count,
        }
    }
}

async fn eventually(within: Duration, what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !check() {
        assert!(
            Instant::now() < deadline,
            "{what} did not happen within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_background_task_copies_the_log_while_the_writer_never_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    // The writer's own checkpoint far away, no idle checkpoint: only the background task can
    // copy pages into the database file.
    let policy = CheckpointPolicy {
        background_frames: 32,
        writer_frames: 1_000_000,
        idle: Duration::from_secs(3600),
    };
    let engine = open(&db, policy).await;
    let before = size(&db);
    for batch in 0..60 {
        write_batch(&engine, batch).await;
    }
    eventually(Duration::from_secs(10), "a background checkpoint", || {
        size(&db) > before
    })
    .await;
    assert_eq!(item_count(&engine).await, 60 * 25);
    engine.close().await;
    let reopened = open(&db, policy).await;
    assert_eq!(item_count(&reopened).await, 60 * 25);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_stays_bounded_under_a_steady_load() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let policy = CheckpointPolicy {
        background_frames: 64,
        writer_frames: 512,
        idle: Duration::from_secs(3600),
    };
    let engine = open(&db, policy).await;
    let mut lengths = Vec::new();
    let mut file_sizes = Vec::new();
    for batch in 0..300 {
        write_batch(&engine, batch).await;
        lengths.push(log_frames(&db));
        file_sizes.push(size(&wal(&db)));
    }
    // Each time the log passes 512 pages the writer restarts it at a later commit — the next
    // one, unless a background checkpoint still holds the checkpoint lock (a slow fsync): the
    // log is cut short again and again, it does not just grow. (It also restarts earlier when
    // a background checkpoint copied all of it between two commits.)
    let restarts = lengths.windows(2).filter(|w| w[1] < w[0]).count();
    assert!(restarts >= 3, "the log restarted {restarts} times: {lengths:?}");
    // The file is rewritten in place from the top: it is cut back only to the bound's length
    // (32 + 512 frames), never below it. (Whether it grows that long at all depends on the
    // machine: when the background checkpoints keep up, each commit finds the log copied and
    // restarts it sooner, and the file never needs cutting. A cold CI run saw it stop at
    // 1,009,432 bytes.)
    let limit = 32 + 512 * FRAME_BYTES;
    let cuts: Vec<(u64, u64)> = file_sizes
        .windows(2)
        .filter(|w| w[1] < w[0])
        .map(|w| (w[0], w[1]))
        .collect();
    assert!(
        cuts.iter().all(|&(_, after)| after >= limit),
        "the log file was cut back below {limit} bytes: {cuts:?} in {file_sizes:?}"
    );
    assert_eq!(item_count(&engine).await, 300 * 25);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_of_a_table_write_outside_requests_is_emptied_when_idle() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let engine = open_and_write_40_batches(&db, quick_idle()).await;
    eventually(Duration::from_secs(10), "the idle checkpoint", || {
        size(&wal(&db)) == 0
    })
    .await;
    // DDL takes the writer outside a request transaction: its commit is checkpointed too. (Its
    // log may be emptied at any moment after the commit, so what is checked is the database
    // file: the checkpoint copied the DeleteTable's pages into it.)
    let before = std::fs::read(&db).unwrap();
    engine
        .call("DeleteTable", br#"{"TableName":"Readings"}"#)
        .await
        .unwrap();
    eventually(
        Duration::from_secs(10),
        "the idle checkpoint after DeleteTable",
        || size(&wal(&db)) == 0 && std::fs::read(&db).unwrap() != before,
    )
    .await;
    assert_eq!(engine.table_count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_log_is_emptied_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("local.db");
    let policy = quick_idle();
    let engine = open_and_write_40_batches(&db, policy).await;
    assert!(size(&wal(&db)) > 0);
    eventually(Duration::from_secs(10), "the idle checkpoint", || {
        size(&wal(&db)) == 0
    })
    .await;
    // Writing again after the log was emptied, then idle again.
    for batch in 40..60 {
        write_batch(&engine, batch).await;
    }
    assert_eq!(item_count(&engine).await, 60 * 25);
    eventually(Duration::from_secs(10), "the second idle checkpoint", || {
        size(&wal(&db)) == 0
    })
    .await;
    // Dropped without close: what is in the database file alone is everything.
    drop(engine);
    let reopened = open_once_released(&db, policy).await;
    assert_eq!(item_count(&reopened).await, 60 * 25);
}
