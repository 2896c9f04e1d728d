//! Write transactions and group commit: what a member's failure undoes, who commits a group, and
//! that concurrent requests share commits.

use super::*;
use crate::{Engine, Location};

async fn engine() -> Engine {
    let mut options = crate::Options::new(Location::InMemory);
    options.sweep_interval = None;
    Engine::open_with(options).await.unwrap()
}

/// An engine with table `Tbl`, keyed by the string `k`.
async fn engine_with_table() -> Engine {
    let engine = engine().await;
    engine
        .call(
            "CreateTable",
            br#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"k","KeyType":"HASH"}],
                "AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}],
                "BillingMode":"PAY_PER_REQUEST"}"#,
        )
        .await
        .unwrap();
    engine
}

async fn count(engine: &Engine, sql: &str) -> i64 {
    let mut writer = engine.writer().await;
    sqlx::query_scalar(sql).fetch_one(&mut writer.conn).await.unwrap()
}

#[tokio::test]
async fn statistics_are_summed_per_collection_and_emptied_collections_removed() {
    let engine = engine().await;
    let mut tx = engine.write_tx().await;
    let batch = tx.batch();
    for (sk, size) in [(b"1", 10), (b"2", 20), (b"3", 30)] {
        batch.put_entry(7, b"a", sk, b"", b"{}".to_vec(), size);
        batch.adjust_collection(7, b"a", None, Some(size));
    }
    batch.put_entry(7, b"b", b"1", b"", b"{}".to_vec(), 5);
    batch.adjust_collection(7, b"b", None, Some(5));
    tx.commit().await.unwrap();
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 7").await,
        4
    );
    assert_eq!(
        count(
            &engine,
            "SELECT item_count * 1000 + size_bytes FROM collections WHERE keyspace = 7 AND pk = X'61'"
        )
        .await,
        3060
    );

    // Emptying "b" and shrinking "a" in one transaction: "b" loses its row.
    let mut tx = engine.write_tx().await;
    let batch = tx.batch();
    batch.delete_entry(7, b"b", b"1", b"");
    batch.adjust_collection(7, b"b", Some(5), None);
    batch.delete_entry(7, b"a", b"1", b"");
    batch.adjust_collection(7, b"a", Some(10), None);
    batch.adjust_collection(7, b"a", Some(20), Some(25));
    tx.commit().await.unwrap();
    assert_eq!(
        count(&engine, "SELECT count(*) FROM collections WHERE keyspace = 7").await,
        1
    );
    assert_eq!(
        count(
            &engine,
            "SELECT item_count * 1000 + size_bytes FROM collections WHERE keyspace = 7"
        )
        .await,
        2055
    );
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 7").await,
        2
    );
}

#[tokio::test]
async fn writes_pending_before_a_read_are_visible_to_it() {
    let engine = engine_with_table().await;
    let table = engine.table("Tbl").unwrap();
    let key = StorageKey {
        pk: dynotable_types::KeyValue::S("x".into()).encode(),
        sk: Vec::new(),
    };
    let mut tx = engine.write_tx().await;
    tx.batch().put_entry(
        table.keyspace,
        &key.pk,
        &key.sk,
        b"",
        br#"{"k":{"S":"x"}}"#.to_vec(),
        2,
    );
    let stored = tx
        .load_item(&table, &key)
        .await
        .unwrap()
        .expect("the pending write is read back");
    assert_eq!(stored.size, 2);
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_transaction_dropped_before_commit_is_rolled_back() {
    let engine = engine().await;
    {
        let mut tx = engine.write_tx().await;
        tx.batch().put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
        tx.batch().adjust_collection(9, b"a", None, Some(1));
        tx.flush().await.unwrap();
        // Dropped here, as when a request fails or is cancelled after its first round trip.
    }
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 9").await,
        0
    );
    assert_eq!(
        count(&engine, "SELECT count(*) FROM collections WHERE keyspace = 9").await,
        0
    );
    // The writer is usable again: a new transaction begins and commits.
    let mut tx = engine.write_tx().await;
    tx.batch().put_entry(9, b"b", b"", b"", b"{}".to_vec(), 1);
    tx.commit().await.unwrap();
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 9").await,
        1
    );
}

#[tokio::test]
async fn a_failed_statement_fails_the_commit_and_leaves_nothing_written() {
    let engine = engine().await;
    let mut tx = engine.write_tx().await;
    tx.batch().put_entry(5, b"a", b"", b"", b"{}".to_vec(), 1);
    tx.batch()
        .push("INSERT INTO no_such_table VALUES (?)", |b| b.bind(1i64));
    assert!(tx.commit().await.is_err());
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 5").await,
        0
    );
    let mut tx = engine.write_tx().await;
    tx.batch().put_entry(5, b"b", b"", b"", b"{}".to_vec(), 1);
    tx.commit().await.unwrap();
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 5").await,
        1
    );
}

/// Waits until `n` writers are queued for the writer lock.
/// A request holding the writer with item `a` of keyspace 9 and its collection written, not
/// yet committed: the first member of the group the test makes.
async fn first_member_writing_a(engine: &Engine) -> WriteTx {
    let mut first = engine.write_tx().await;
    first.batch().put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
    first.batch().adjust_collection(9, b"a", None, Some(1));
    first
}

async fn until_waiting(engine: &Engine, n: usize) {
    while engine.inner.writer.waiting() < n {
        tokio::task::yield_now().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_member_of_a_group_undoes_only_its_own_writes() {
    let engine = engine().await;
    let commits_before = engine.inner.writer.commits();
    let first = first_member_writing_a(&engine).await;
    // Two more requests queue behind the first: one fails, one succeeds.
    let failing = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            assert_eq!(tx.undo, Undo::Savepoint, "the second request joins the group");
            tx.batch().put_entry(9, b"b", b"", b"", b"{}".to_vec(), 1);
            tx.batch().adjust_collection(9, b"b", None, Some(1));
            tx.batch()
                .push("INSERT INTO no_such_table VALUES (?)", |b| b.bind(1i64));
            tx.commit().await
        }
    });
    until_waiting(&engine, 1).await;
    let succeeding = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            assert_eq!(tx.undo, Undo::Savepoint, "the third request joins the group");
            assert_eq!(tx.writer().group_members(), 1, "the first request waits in it");
            tx.batch().put_entry(9, b"c", b"", b"", b"{}".to_vec(), 1);
            tx.batch().adjust_collection(9, b"c", None, Some(1));
            tx.commit().await
        }
    });
    until_waiting(&engine, 2).await;
    // Others are waiting: the first request hands its transaction on and is acknowledged
    // only when the group commits.
    first.commit().await.unwrap();
    assert!(failing.await.unwrap().is_err());
    succeeding.await.unwrap().unwrap();
    assert_eq!(
        engine.inner.writer.commits() - commits_before,
        1,
        "one COMMIT for the group"
    );
    let written = "SELECT group_concat(pk, ',') FROM (SELECT CAST(pk AS TEXT) AS pk FROM entries \
                   WHERE keyspace = 9 ORDER BY pk)";
    let mut writer = engine.writer().await;
    let pks: String = sqlx::query_scalar(written)
        .fetch_one(&mut writer.conn)
        .await
        .unwrap();
    assert_eq!(pks, "a,c");
    let stats: i64 = sqlx::query_scalar("SELECT count(*) FROM collections WHERE keyspace = 9")
        .fetch_one(&mut writer.conn)
        .await
        .unwrap();
    assert_eq!(stats, 2, "the failed request's statistics are undone with it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_alone_commits_at_once() {
    let engine = engine().await;
    let commits_before = engine.inner.writer.commits();
    let mut tx = engine.write_tx().await;
    assert_eq!(tx.undo, Undo::Transaction);
    tx.batch().put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
    tx.commit().await.unwrap();
    assert_eq!(engine.inner.writer.commits() - commits_before, 1);
    // Committed: a reader connection sees it.
    let mut reader = engine.inner.readers.acquire().await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM entries WHERE keyspace = 9")
        .fetch_one(&mut *reader)
        .await
        .unwrap();
    assert_eq!(n, 1);
}

/// Many concurrent PutItems, some failing their condition: every acknowledged put is
/// there, every failed one changed nothing, and they shared commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_requests_share_commits_and_failures_stay_their_own() {
    let engine = engine_with_table().await;
    let commits_before = engine.inner.writer.commits();
    const TASKS: usize = 16;
    const PUTS: usize = 30;
    let mut tasks = Vec::new();
    for task in 0..TASKS {
        let engine = engine.clone();
        tasks.push(tokio::spawn(async move {
            let mut failed = 0;
            for i in 0..PUTS {
                // Every third put repeats the previous key under attribute_not_exists: it
                // must fail and leave the first version.
                let (key, version, conditional) = if i % 3 == 2 {
                    (format!("t{task}-{}", i - 1), i, true)
                } else {
                    (format!("t{task}-{i}"), i, false)
                };
                let condition = if conditional {
                    r#","ConditionExpression":"attribute_not_exists(k)""#
                } else {
                    ""
                };
                let body = format!(
                    r#"{{"TableName":"Tbl","Item":{{"k":{{"S":"{key}"}},"v":{{"N":"{version}"}}}}{condition}}}"#
                );
                match engine.call("PutItem", body.as_bytes()).await {
                    Ok(_) => assert!(!conditional, "{key}: the condition should have failed"),
                    Err(err) => {
                        assert!(conditional, "{key}: {err:?}");
                        assert_eq!(err.kind, crate::ErrorKind::ConditionalCheckFailedException);
                        failed += 1;
                    }
                }
            }
            failed
        }));
    }
    let mut failed = 0;
    for task in tasks {
        failed += task.await.unwrap();
    }
    assert_eq!(failed, TASKS * (PUTS / 3));
    for task in 0..TASKS {
        for i in (0..PUTS).filter(|i| i % 3 != 2) {
            let body =
                format!(r#"{{"TableName":"Tbl","Key":{{"k":{{"S":"t{task}-{i}"}}}},"ConsistentRead":true}}"#);
            let out = engine.call("GetItem", body.as_bytes()).await.unwrap();
            let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(out["Item"]["v"]["N"], i.to_string(), "t{task}-{i}");
        }
    }
    let puts = (TASKS * PUTS) as u64;
    let commits = engine.inner.writer.commits() - commits_before;
    assert!(
        commits < puts,
        "{commits} commits for {puts} requests: no group commit happened"
    );
}

/// The request a group's last member handed the lock to goes away (cancelled while it
/// waited for the lock, or while it held it): the group is still committed and its members
/// acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_group_is_committed_when_the_request_it_was_handed_to_goes_away() {
    for hold in [false, true] {
        let engine = engine().await;
        let mut first = engine.write_tx().await;
        first.batch().put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
        let next = tokio::spawn({
            let engine = engine.clone();
            async move {
                let tx = engine.write_tx().await;
                if hold {
                    // Holds the lock (with the group open) until cancelled.
                    std::future::pending::<()>().await;
                }
                drop(tx);
                std::future::pending::<()>().await;
            }
        });
        until_waiting(&engine, 1).await;
        let commit = tokio::spawn(first.commit());
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        next.abort();
        tokio::time::timeout(std::time::Duration::from_secs(5), commit)
            .await
            .expect("the group is committed without the request that went away")
            .unwrap()
            .unwrap();
        assert_eq!(
            count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 9").await,
            1
        );
    }
}

/// The request that commits a group goes away while it waits for the item cache's release
/// turn (an earlier commit's release still running): its members are still told their writes
/// are committed, and the cache only drops their items (a miss), never holds a stale one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_committer_that_goes_away_before_its_release_still_acknowledges_its_group() {
    use crate::item_cache::{KeyRef, Lookup};
    let engine = engine().await;
    let cache = engine.inner.items.clone().expect("the cache is on by default");
    // An earlier release in progress.
    let turn = cache.release_turn().await;
    let mut first = engine.write_tx().await;
    first.batch().put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
    let committer = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            assert_eq!(tx.undo, Undo::Savepoint, "the second request joins the group");
            tx.batch().put_entry(9, b"b", b"", b"", b"{}".to_vec(), 1);
            tx.commit().await
        }
    });
    until_waiting(&engine, 1).await;
    // Others are waiting: the first hands the group on; the second commits it, then waits
    // for the turn, and goes away there.
    let member = tokio::spawn(first.commit());
    while engine.inner.writer.commits() == 0 {
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    committer.abort();
    tokio::time::timeout(std::time::Duration::from_secs(5), member)
        .await
        .expect("the member is told")
        .unwrap()
        .expect("and told its write is committed");
    drop(turn);
    assert_eq!(
        count(&engine, "SELECT count(*) FROM entries WHERE keyspace = 9").await,
        2
    );
    for pk in [b"a", b"b"] {
        assert!(
            matches!(cache.lookup(KeyRef::item(9, pk, b"")), Lookup::Miss(_)),
            "released, and not written through"
        );
    }
}

/// A batch of new items over keyspace 9 (`pks`), as BatchWriteItem builds one before it takes
/// the writer: a plain `INSERT` of the entries, then the statistics.
fn new_items(pks: &[&[u8]]) -> StatementBatch {
    let mut statements = StatementBatch::new();
    statements.expect_new_entries();
    for pk in pks {
        statements.put_entry(9, pk, b"", b"", b"{}".to_vec(), 1);
        statements.adjust_collection(9, pk, None, Some(1));
    }
    statements.seal();
    statements
}

async fn keyspace_9(engine: &Engine) -> (String, i64) {
    let mut writer = engine.writer().await;
    let pks: Option<String> = sqlx::query_scalar(
        "SELECT group_concat(pk, ',') FROM (SELECT CAST(pk AS TEXT) AS pk FROM entries \
         WHERE keyspace = 9 ORDER BY pk)",
    )
    .fetch_one(&mut writer.conn)
    .await
    .unwrap();
    let items: i64 =
        sqlx::query_scalar("SELECT coalesce(sum(item_count), 0) FROM collections WHERE keyspace = 9")
            .fetch_one(&mut writer.conn)
            .await
            .unwrap();
    (pks.unwrap_or_default(), items)
}

#[test]
fn only_a_lone_insert_of_new_entries_then_statistics_goes_without_a_savepoint() {
    assert!(new_items(&[b"a", b"b"]).fails_only_first());
    // Rows past one statement's: a second INSERT could fail after the first ran.
    let many: Vec<Vec<u8>> = (0..=ROWS_PER_STATEMENT)
        .map(|n| n.to_string().into_bytes())
        .collect();
    let many: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
    assert!(!new_items(&many).fails_only_first());
    // Another statement (a stream record, say) among them.
    let mut other = new_items(&[b"a"]);
    other.push("SELECT 1", |_| {});
    assert!(!other.fails_only_first());
    // Replacing entries, or a statement before the INSERT.
    let mut replacing = StatementBatch::new();
    replacing.put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
    assert!(!replacing.fails_only_first());
    let mut after = StatementBatch::new();
    after.push("SELECT 1", |_| {});
    after.expect_new_entries();
    after.put_entry(9, b"a", b"", b"", b"{}".to_vec(), 1);
    assert!(!after.fails_only_first());
}

/// A batch of new items joins a group without a savepoint; one of its items exists, so its
/// `INSERT` fails: SQLite undoes that statement alone, the earlier member's write stays, and
/// the batch is written again inside the same group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_without_a_savepoint_that_meets_an_existing_item_leaves_the_group_whole() {
    let engine = engine().await;
    let mut tx = engine.write_tx().await;
    tx.adopt(new_items(&[b"old"])).unwrap();
    assert!(tx.commit_new().await.unwrap().is_ok());
    let commits_before = engine.inner.writer.commits();

    let first = first_member_writing_a(&engine).await;
    let second = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            tx.adopt(new_items(&[b"b", b"old"])).unwrap();
            assert_eq!(
                tx.undo,
                Undo::Group,
                "the batch joins the group without a savepoint"
            );
            let Err(mut tx) = tx.commit_new().await.unwrap() else {
                panic!("the INSERT of an existing entry must fail");
            };
            assert_eq!(tx.undo, Undo::Savepoint, "written again, in the same group");
            assert_eq!(
                tx.writer().group_members(),
                1,
                "the first request still waits in it"
            );
            let batch = tx.batch();
            batch.put_entry(9, b"b", b"", b"", b"{}".to_vec(), 1);
            batch.adjust_collection(9, b"b", None, Some(1));
            batch.put_entry(9, b"old", b"", b"", b"{}".to_vec(), 1);
            batch.adjust_collection(9, b"old", Some(1), Some(1));
            tx.commit().await
        }
    });
    until_waiting(&engine, 1).await;
    first.commit().await.unwrap();
    second.await.unwrap().unwrap();
    assert_eq!(
        engine.inner.writer.commits() - commits_before,
        1,
        "one COMMIT for the group"
    );
    assert_eq!(keyspace_9(&engine).await, ("a,b,old".to_owned(), 3));
}

/// A member without a savepoint fails after its first statement ran (an unexpected error, as
/// a full database would be): its writes cannot be undone alone, so the whole group is rolled
/// back and every member fails; nothing of the group is committed, and the writer goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_without_a_savepoint_that_fails_later_rolls_back_its_group() {
    let engine = engine().await;
    let first = first_member_writing_a(&engine).await;
    let second = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            tx.adopt(new_items(&[b"b"])).unwrap();
            assert_eq!(tx.undo, Undo::Group);
            tx.batch()
                .push("INSERT INTO no_such_table VALUES (?)", |b| b.bind(1i64));
            tx.commit_new().await.map(|written| written.is_ok())
        }
    });
    until_waiting(&engine, 1).await;
    let first = first.commit().await;
    assert!(second.await.unwrap().is_err(), "the failing member fails");
    assert!(
        first.is_err(),
        "and so does the member whose write was rolled back with it"
    );
    assert_eq!(keyspace_9(&engine).await, (String::new(), 0));
    let mut tx = engine.write_tx().await;
    tx.adopt(new_items(&[b"c"])).unwrap();
    assert!(tx.commit_new().await.unwrap().is_ok());
    assert_eq!(keyspace_9(&engine).await, ("c".to_owned(), 1));
}

/// A member without a savepoint goes away once its statements are on their way (its request
/// cancelled): they are not left half sent, which would fail the group; its write joins the
/// group like a member's that went away while it waited for the `COMMIT`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_without_a_savepoint_that_goes_away_leaves_its_group_whole() {
    let engine = engine().await;
    let first = first_member_writing_a(&engine).await;
    let second = tokio::spawn({
        let engine = engine.clone();
        async move {
            let mut tx = engine.write_tx().await;
            tx.adopt(new_items(&[b"b"])).unwrap();
            assert_eq!(tx.undo, Undo::Group);
            // Polled once (its statements handed on), then dropped.
            let mut commit = std::pin::pin!(tx.commit_new());
            // (Pending, short of a thread that ran the whole commit meanwhile: not asserted.)
            let _ = std::future::poll_fn(|cx| std::task::Poll::Ready(commit.as_mut().poll(cx))).await;
        }
    });
    until_waiting(&engine, 1).await;
    first.commit().await.unwrap();
    second.await.unwrap();
    // The second member committed the group in its task, or left it to the next writer.
    assert_eq!(keyspace_9(&engine).await, ("a,b".to_owned(), 2));
}
