//! A write transaction whose statements travel to SQLite together.
//!
//! sqlx runs every SQLite connection on a thread of its own and hands it each statement over a
//! channel: one statement is one round trip between threads, and on a small machine those
//! hand-offs, not SQLite, were most of the cost of a write (bench/README.md, "Where
//! dynotable-local's time goes": a 25-item BatchWriteItem made ~177 of them). Here the writes of
//! a transaction are not sent one by one. They are appended to a [`StatementBatch`] — SQL text
//! and its bound arguments — and sent as one multi-statement query (sqlx binds `?` parameters
//! across the statements of one query, in order) when the transaction next needs to read, or at
//! commit:
//!
//! - `BEGIN IMMEDIATE` travels with the transaction's first read (the old items);
//! - the writes travel with the next read, or with `COMMIT`;
//! - consecutive entry writes become one multi-row `INSERT`, and the per-item changes to the
//!   item-collection and keyspace statistics are summed and written once per collection and
//!   per keyspace, just before the batch is sent.
//!
//! A BatchWriteItem is so two round trips (begin + read the old items, then write + commit), a
//! PutItem the same. What is written, and when it is durable, is unchanged: the statements run
//! in the order they were added, inside the one transaction, and the write is acknowledged only
//! after `COMMIT` returned — its own, or its group's when other writers were waiting (group
//! commit, `writer`: the transaction is then a savepoint of a transaction several requests
//! share).
//!
//! The item cache (`item_cache`) learns here of every change to a base item: the batch records
//! the keys of the base items it writes or deletes, and a [`WriteTx`] marks them in the cache
//! before it sends the batch and releases them after `COMMIT` returned (or the transaction was
//! abandoned), before the write is acknowledged. A batch that changes base items is refused
//! outside a `WriteTx`, so no write can bypass the cache's invalidation.
//!
//! A transaction that ends without a commit — an error returned with `?`, or a cancelled
//! request — is rolled back: [`WriteTx`] owns the writer lock, and its `Drop` hands the lock to
//! a task that sends `ROLLBACK` before any other writer can take it.
//!
//! # Members without a savepoint
//!
//! A request that joins a group runs inside `SAVEPOINT member`, so that its failure undoes
//! only its own statements. The savepoint is not free: while it is open, SQLite copies each
//! page the member changes first into the statement journal as well as the rollback journal
//! (sqlite.org/lang_savepoint.html; `subjournalPageIfRequired` in SQLite's pager), and in
//! memory each copy is a few allocations. A batch of new items ([`WriteTx::commit_new`]) does
//! without it when its statements are one plain `INSERT INTO entries` followed only by the
//! summed statistics ([`StatementBatch::fails_only_first`]):
//!
//! - The `INSERT` is the one statement that is expected to fail (an item that exists: a
//!   unique violation). A statement that fails a constraint is undone by SQLite itself, and
//!   the statements before it stay ("ABORT", sqlite.org/lang_conflict.html): with no statement
//!   of the member before it, the transaction is then as the member found it, and the batch is
//!   written again the usual way (with a savepoint).
//! - The statistics cannot fail short of an unexpected error (a full database, no memory).
//!   Then, and if the member goes away with its statements half sent, what it wrote cannot be
//!   told apart from the group's: the whole transaction is rolled back, and every member of the
//!   group fails ([`Undo::Group`]). None was acknowledged (a member is only after its group's
//!   `COMMIT`), and an InternalServerError is one the SDKs retry. With the savepoint a full
//!   database fails the whole group as well (SQLite may roll a transaction back by itself on
//!   SQLITE_FULL or SQLITE_NOMEM, sqlite.org/lang_transaction.html, "Response To Errors Within A
//!   Transaction").
//! - So that a cancelled request does not fail the others, such a member's last round trip
//!   runs in a task of its own, which finishes it (joins the group, or commits) whether or not
//!   the request still waits.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use sqlx::sqlite::SqliteArguments;
use sqlx::{Arguments, Encode, Row, Sqlite, SqliteConnection, Type};
use tokio::sync::OwnedMutexGuard;

use crate::ApiError;
use crate::catalog::TableSchema;
use crate::entry::{StorageKey, StoredItem, decode_entry};
use crate::item_cache::{Cached, KeyRef, StoredBody, WriteMarks};
use crate::writer::{SharedWriter, Undo, Writer};

/// Rows per multi-row statement: far below SQLite's 32,766 bound parameters, and few enough
/// distinct statement shapes for sqlx's per-connection statement cache.
const ROWS_PER_STATEMENT: usize = 128;

/// SQL statements and their arguments, to be sent to SQLite as one query.
#[derive(Default)]
pub(crate) struct StatementBatch {
    sql: String,
    args: SqliteArguments<'static>,
    /// Rows in the open multi-row `INSERT INTO entries` at the end of `sql` (0: none open).
    entry_rows: usize,
    /// Item-collection statistics to add: (keyspace, pk) → (items, bytes).
    collections: BTreeMap<(i64, Vec<u8>), (i64, i64)>,
    /// Keyspace totals to add: keyspace → (items, bytes).
    keyspaces: BTreeMap<i64, (i64, i64)>,
    /// The base items (entries with an empty tail) written or deleted, for the item cache.
    items_changed: Vec<ItemChange>,
    /// Entries are written with a plain `INSERT`, which fails on an entry that exists
    /// ([`WriteTx::commit_new`]).
    entries_new: bool,
    /// Multi-row `INSERT`s of entries begun so far.
    entry_inserts: usize,
    /// Statements appended with [`StatementBatch::push`] so far.
    pushed: usize,
}

impl StatementBatch {
    pub fn new() -> StatementBatch {
        StatementBatch::default()
    }

    fn bind<T>(&mut self, value: T)
    where
        T: 'static + Send + Encode<'static, Sqlite> + Type<Sqlite>,
    {
        // Adding an owned value to SqliteArguments cannot fail (it only encodes into a Vec).
        self.args
            .add(value)
            .expect("encoding an owned value into SqliteArguments does not fail");
    }

    /// Ends the open multi-row `INSERT`, if any, before another statement follows.
    fn close_insert(&mut self) {
        if self.entry_rows > 0 {
            self.sql.push_str(";\n");
            self.entry_rows = 0;
        }
    }

    /// Appends one statement whose `?` placeholders take `binds`' values, in order.
    pub fn push(&mut self, sql: &str, binds: impl FnOnce(&mut StatementBinds<'_>)) {
        self.close_insert();
        self.pushed += 1;
        self.sql.push_str(sql);
        self.sql.push_str(";\n");
        binds(&mut StatementBinds { batch: self });
    }

    /// Records a change to a base item (an entry without a tail) for the item cache: `after`
    /// is the item as stored once the change is committed (`None`: deleted).
    fn note_change(&mut self, keyspace: i64, pk: &[u8], sk: &[u8], tail: &[u8], after: Option<(&[u8], u64)>) {
        if tail.is_empty() {
            let after = match after {
                None => Some(None),
                // The body is the item's JSON (UTF-8); if it were not, the change would only
                // invalidate.
                Some((body, size)) => std::str::from_utf8(body).ok().map(|body| {
                    Some(Arc::new(StoredBody {
                        body: body.into(),
                        size,
                    }))
                }),
            };
            self.items_changed.push(ItemChange {
                keyspace,
                pk: pk.to_vec(),
                sk: sk.to_vec(),
                after,
            });
        }
    }

    /// Writes (inserts or replaces) one entry.
    pub fn put_entry(&mut self, keyspace: i64, pk: &[u8], sk: &[u8], tail: &[u8], body: Vec<u8>, size: u64) {
        self.note_change(keyspace, pk, sk, tail, Some((&body, size)));
        if self.entry_rows == ROWS_PER_STATEMENT {
            self.close_insert();
        }
        if self.entry_rows == 0 {
            self.entry_inserts += 1;
            self.sql.push_str(if self.entries_new {
                "INSERT INTO entries (keyspace, pk, sk, tail, body, size) VALUES "
            } else {
                "INSERT OR REPLACE INTO entries (keyspace, pk, sk, tail, body, size) VALUES "
            });
        } else {
            self.sql.push(',');
        }
        self.sql.push_str("(?, ?, ?, ?, ?, ?)");
        self.entry_rows += 1;
        self.bind(keyspace);
        self.bind(pk.to_vec());
        self.bind(sk.to_vec());
        self.bind(tail.to_vec());
        self.bind(body);
        self.bind(size as i64);
    }

    /// From here on, entries are written on the assumption that none of them exists yet: a
    /// plain `INSERT`, so that the batch fails instead of replacing one (see
    /// [`WriteTx::commit_new`]).
    pub fn expect_new_entries(&mut self) {
        self.close_insert();
        self.entries_new = true;
        // Only the statements from here on are counted by `fails_only_first`, which asks for
        // an empty batch before them.
        if !self.sql.is_empty() {
            self.pushed += 1;
        }
    }

    /// Whether the batch's statements can fail only in their first, short of an unexpected
    /// error: it is one plain `INSERT` of new entries ([`StatementBatch::expect_new_entries`],
    /// begun on an empty batch), followed by nothing but the summed statistics (an upsert per
    /// collection and an `UPDATE` of the keyspaces, which no constraint refuses). Such a batch
    /// joins a group without a savepoint (module documentation).
    pub fn fails_only_first(&self) -> bool {
        self.entries_new && self.entry_inserts == 1 && self.pushed == 0
    }

    /// Deletes one entry.
    pub fn delete_entry(&mut self, keyspace: i64, pk: &[u8], sk: &[u8], tail: &[u8]) {
        self.note_change(keyspace, pk, sk, tail, None);
        self.push(
            "DELETE FROM entries WHERE keyspace = ? AND pk = ? AND sk = ? AND tail = ?",
            |b| {
                b.bind(keyspace);
                b.bind(pk.to_vec());
                b.bind(sk.to_vec());
                b.bind(tail.to_vec());
            },
        );
    }

    /// Moves a collection's and its keyspace's count and bytes from `old` to `new` (entry
    /// sizes; `None` = no entry). Summed per collection and written when the batch is sent.
    pub fn adjust_collection(&mut self, keyspace: i64, pk: &[u8], old: Option<u64>, new: Option<u64>) {
        let count = i64::from(new.is_some()) - i64::from(old.is_some());
        let bytes = new.unwrap_or(0) as i64 - old.unwrap_or(0) as i64;
        if count == 0 && bytes == 0 {
            return;
        }
        let collection = self.collections.entry((keyspace, pk.to_vec())).or_default();
        collection.0 += count;
        collection.1 += bytes;
        let totals = self.keyspaces.entry(keyspace).or_default();
        totals.0 += count;
        totals.1 += bytes;
    }

    /// Appends the summed statistics: one multi-row UPSERT for the collections, a DELETE for
    /// collections that may have emptied, one UPDATE per keyspace.
    fn write_statistics(&mut self) {
        self.close_insert();
        let collections = std::mem::take(&mut self.collections);
        let changed: Vec<_> = collections
            .into_iter()
            .filter(|(_, (count, bytes))| *count != 0 || *bytes != 0)
            .collect();
        for chunk in changed.chunks(ROWS_PER_STATEMENT) {
            self.sql
                .push_str("INSERT INTO collections (keyspace, pk, item_count, size_bytes) VALUES ");
            for (position, ((keyspace, pk), (count, bytes))) in chunk.iter().enumerate() {
                self.sql.push_str(if position == 0 {
                    "(?, ?, ?, ?)"
                } else {
                    ",(?, ?, ?, ?)"
                });
                self.bind(*keyspace);
                self.bind(pk.clone());
                self.bind(*count);
                self.bind(*bytes);
            }
            self.sql.push_str(
                " ON CONFLICT (keyspace, pk) DO UPDATE SET item_count = item_count + excluded.item_count, \
                 size_bytes = size_bytes + excluded.size_bytes;\n",
            );
        }
        // A collection whose count went down may now be empty; an empty collection has no row.
        for ((keyspace, pk), _) in changed.iter().filter(|(_, (count, _))| *count < 0) {
            self.push(
                "DELETE FROM collections WHERE keyspace = ? AND pk = ? AND item_count <= 0",
                |b| {
                    b.bind(*keyspace);
                    b.bind(pk.clone());
                },
            );
        }
        // Every keyspace's totals in one statement: each statement of a query is a message back
        // from sqlx's thread, and a wake-up of the task that waits for it.
        let totals: Vec<_> = std::mem::take(&mut self.keyspaces)
            .into_iter()
            .filter(|(_, (count, bytes))| *count != 0 || *bytes != 0)
            .collect();
        if !totals.is_empty() {
            self.close_insert();
            self.sql.push_str(
                "UPDATE keyspaces SET item_count = item_count + v.column2, size_bytes = size_bytes + v.column3 \
                 FROM (VALUES ",
            );
            for (position, (keyspace, (count, bytes))) in totals.into_iter().enumerate() {
                self.sql
                    .push_str(if position == 0 { "(?, ?, ?)" } else { ",(?, ?, ?)" });
                self.bind(keyspace);
                self.bind(count);
                self.bind(bytes);
            }
            self.sql.push_str(") AS v WHERE keyspaces.id = v.column1;\n");
        }
    }

    /// Appends the statistics summed so far (as sending the batch would), so that a batch built
    /// before the writer is taken has every statement ready ([`WriteTx::adopt`]).
    pub fn seal(&mut self) {
        self.write_statistics();
    }

    /// The batch as one query's text and arguments, leaving the batch empty.
    fn take(&mut self) -> (String, SqliteArguments<'static>) {
        self.write_statistics();
        let batch = std::mem::take(self);
        (batch.sql, batch.args)
    }

    /// Sends the batch on `conn` (outside a [`WriteTx`]: the caller's own transaction). Only
    /// for batches that change no base item: those go through a [`WriteTx`], which keeps the
    /// item cache right.
    pub async fn execute(&mut self, conn: &mut SqliteConnection) -> Result<(), ApiError> {
        if !self.items_changed.is_empty() {
            return Err(ApiError::internal(
                "a batch that changes items must be sent in a write transaction",
            ));
        }
        let (sql, args) = self.take();
        if !sql.is_empty() {
            sqlx::query_with(&sql, args).execute(conn).await?;
        }
        Ok(())
    }
}

/// A change to a base item, as the item cache learns of it.
struct ItemChange {
    keyspace: i64,
    pk: Vec<u8>,
    sk: Vec<u8>,
    /// The item as stored after the change (`Some(None)`: deleted; `None`: not known).
    after: Option<Cached>,
}

/// The arguments of one statement pushed onto a [`StatementBatch`].
pub(crate) struct StatementBinds<'a> {
    batch: &'a mut StatementBatch,
}

impl StatementBinds<'_> {
    pub fn bind<T>(&mut self, value: T)
    where
        T: 'static + Send + Encode<'static, Sqlite> + Type<Sqlite>,
    {
        self.batch.bind(value);
    }
}

/// A write transaction on the writer connection: `BEGIN IMMEDIATE` (SQLite's write lock taken
/// at the start, so a transaction that read an item cannot be overtaken by another process's
/// write to it), the writes, `COMMIT` — sent in as few round trips as the reads allow. When a
/// group commit is open (`writer`), the transaction is a savepoint of the group's instead, and
/// its `COMMIT` may be another member's.
pub(crate) struct WriteTx {
    shared: Arc<SharedWriter>,
    /// The writer, locked for the whole transaction; `None` once handed to the rollback task.
    writer: Option<OwnedMutexGuard<Writer>>,
    /// How this transaction's statements are undone: it began the SQLite transaction, or joined
    /// a group's inside a savepoint.
    undo: Undo,
    /// What has not been sent yet; starts with `BEGIN IMMEDIATE` or `SAVEPOINT member`.
    pending: StatementBatch,
    /// The base items this transaction has sent changes to, marked in the item cache until
    /// the transaction ends (declared after `writer`: released after the rollback is handed
    /// on; uncommitted changes are not visible to readers either way).
    marks: Option<WriteMarks>,
}

impl WriteTx {
    /// Takes the writer lock and starts a transaction (sent with the first statement): its own,
    /// or a savepoint in an open group's.
    pub async fn begin(shared: &Arc<SharedWriter>) -> WriteTx {
        let guard = shared.lock().await;
        let (undo, pending) = WriteTx::start(&guard);
        let marks = guard.items().cloned().map(WriteMarks::new);
        WriteTx {
            shared: shared.clone(),
            writer: Some(guard),
            undo,
            pending,
            marks,
        }
    }

    /// How a transaction on `writer` starts: its own `BEGIN IMMEDIATE`, or a savepoint in the
    /// open group's.
    fn start(writer: &Writer) -> (Undo, StatementBatch) {
        let mut pending = StatementBatch::new();
        let undo = if writer.group_open() {
            pending.push("SAVEPOINT member", |_| {});
            Undo::Savepoint
        } else {
            pending.push("BEGIN IMMEDIATE", |_| {});
            Undo::Transaction
        };
        (undo, pending)
    }

    /// The pending batch as one query, its changes to base items marked in the item cache
    /// first.
    fn take_pending(&mut self) -> (String, SqliteArguments<'static>) {
        let changed = std::mem::take(&mut self.pending.items_changed);
        if let Some(marks) = &mut self.marks {
            for change in changed {
                let key = KeyRef::item(change.keyspace, &change.pk, &change.sk);
                marks.mark(key, change.after);
            }
        }
        self.pending.take()
    }

    /// Takes `statements`, built before the writer was taken, as this transaction's writes: they
    /// follow its `BEGIN IMMEDIATE` or `SAVEPOINT member` in the next query. Only for a
    /// transaction that has nothing else pending yet (the start statement binds nothing, so the
    /// batch's `?` arguments keep their order).
    pub fn adopt(&mut self, mut statements: StatementBatch) -> Result<(), ApiError> {
        let start = &mut self.pending;
        if start.args.len() > 0
            || !start.items_changed.is_empty()
            || !start.collections.is_empty()
            || !start.keyspaces.is_empty()
        {
            return Err(ApiError::internal(
                "statements built outside a transaction follow only its start",
            ));
        }
        start.close_insert();
        if self.undo == Undo::Savepoint && statements.fails_only_first() {
            // No `SAVEPOINT member` (module documentation, "Members without a savepoint").
            self.undo = Undo::Group;
        } else {
            statements.sql.insert_str(0, &start.sql);
        }
        self.pending = statements;
        Ok(())
    }

    /// The statements to send with the next query.
    pub fn batch(&mut self) -> &mut StatementBatch {
        &mut self.pending
    }

    fn writer(&mut self) -> &mut Writer {
        self.writer
            .as_mut()
            .expect("the writer is held until the transaction ends")
    }

    /// The writer, about to run statements of this transaction's.
    fn sending(&mut self) -> &mut Writer {
        let undo = self.undo;
        let writer = self.writer();
        writer.sending(undo);
        writer
    }

    /// Sends what is pending, and returns the connection for statements of the caller's own
    /// (reads that need the writes before them).
    pub async fn flush(&mut self) -> Result<&mut SqliteConnection, ApiError> {
        let (sql, args) = self.take_pending();
        if !sql.is_empty() {
            let writer = self.sending();
            sqlx::query_with(&sql, args).execute(&mut writer.conn).await?;
        }
        Ok(&mut self.sending().conn)
    }

    /// Reads the item at `key` (after sending what is pending, in the same round trip).
    pub async fn load_item(
        &mut self,
        table: &TableSchema,
        key: &StorageKey,
    ) -> Result<Option<StoredItem>, ApiError> {
        Ok(self
            .load_items(table, std::slice::from_ref(key))
            .await?
            .pop()
            .flatten())
    }

    /// Reads the items at `keys` of one table, in one query sent together with what is
    /// pending; the result has one place per key.
    pub async fn load_items(
        &mut self,
        table: &TableSchema,
        keys: &[StorageKey],
    ) -> Result<Vec<Option<StoredItem>>, ApiError> {
        let mut found: Vec<Option<StoredItem>> = keys.iter().map(|_| None).collect();
        for (chunk_number, chunk) in keys.chunks(ROWS_PER_STATEMENT).enumerate() {
            let (mut sql, mut args) = self.take_pending();
            // The key list joined to the primary key: one index search per key.
            sql.push_str("SELECT k.column1, e.body, e.size FROM (VALUES ");
            for (position, key) in chunk.iter().enumerate() {
                let _ = write!(sql, "{}(?, ?, ?)", if position == 0 { "" } else { "," });
                let place = (chunk_number * ROWS_PER_STATEMENT + position) as i64;
                for result in [
                    args.add(place),
                    args.add(key.pk.clone()),
                    args.add(key.sk.clone()),
                ] {
                    result.map_err(ApiError::internal)?;
                }
            }
            sql.push_str(
                ") AS k CROSS JOIN entries AS e ON e.keyspace = ? AND e.pk = k.column2 \
                 AND e.sk = k.column3 AND e.tail = X''",
            );
            args.add(table.keyspace).map_err(ApiError::internal)?;
            let writer = self.sending();
            let rows = sqlx::query_with(&sql, args).fetch_all(&mut writer.conn).await?;
            for row in rows {
                let place: i64 = row.try_get(0)?;
                let stored = decode_entry(row.try_get::<&[u8], _>(1)?, row.try_get(2)?)?;
                if let Some(slot) = usize::try_from(place).ok().and_then(|p| found.get_mut(p)) {
                    *slot = Some(stored);
                }
            }
        }
        Ok(found)
    }

    /// Sends what is pending and ends the transaction. The write is durable when this
    /// returns: either this transaction sent `COMMIT` with its last statements, or — other
    /// writers waiting — it released its changes into a group and waited for the group's
    /// `COMMIT` (`writer`). The marked items are released (see `item_cache`) after that
    /// `COMMIT` returned, before the caller acknowledges the write.
    pub async fn commit(mut self) -> Result<(), ApiError> {
        let hand_off = self.send_last().await?;
        self.end(hand_off).await
    }

    /// Sends what is pending with the end of this transaction's statements: `COMMIT`, unless it
    /// will hand the lock on to a waiting writer (returned: whether it will), in which case a
    /// savepoint is released (`RELEASE member`) into the open transaction instead.
    async fn send_last(&mut self) -> Result<bool, sqlx::Error> {
        let (mut sql, args) = self.take_pending();
        let hand_off =
            self.shared.others_waiting() && self.writer().group_members() + 1 < self.shared.max_group();
        // `COMMIT` releases every savepoint (sqlite.org/lang_savepoint.html): a member that
        // commits the group sends no `RELEASE` of its own.
        if hand_off {
            if self.undo == Undo::Savepoint {
                sql.push_str("RELEASE member;\n");
            }
        } else {
            sql.push_str("COMMIT");
        }
        let contended = self.shared.others_waiting();
        let shared = self.shared.clone();
        let writer = self.sending();
        let sent = sqlx::query_with(&sql, args).execute(&mut writer.conn);
        if contended {
            step_aside_once(sent).await?;
        } else {
            spin::spin_while_alone(sent, &shared).await?;
        }
        Ok(hand_off)
    }

    /// Commits, for writes built on the assumption that none of the entries they write exists
    /// yet ([`StatementBatch::expect_new_entries`]): a fresh item needs no read of its old
    /// self, so its whole transaction — begin, writes, commit — is one round trip to SQLite.
    /// If an entry did exist, its plain `INSERT` fails before anything is committed: this
    /// transaction's statements are undone (its savepoint, or its own transaction) and the
    /// transaction comes back, the writer lock still held and nothing pending, to be written
    /// again with the old items read (`Ok(Err(tx))`). The item-cache marks stay: the same
    /// items are marked again, with the same new values.
    ///
    /// A member without a savepoint ([`Undo::Group`]) sends its statements and joins its group
    /// (or commits it) in a task of its own: dropped half-way, it would leave the whole group
    /// to be rolled back (module documentation).
    pub async fn commit_new(self) -> Result<Result<(), WriteTx>, ApiError> {
        if self.undo != Undo::Group {
            return self.commit_new_here().await;
        }
        tokio::spawn(self.commit_new_here())
            .await
            .map_err(|_| ApiError::internal("a write to the group's transaction failed"))?
    }

    async fn commit_new_here(mut self) -> Result<Result<(), WriteTx>, ApiError> {
        match self.send_last().await {
            Ok(hand_off) => self.end(hand_off).await.map(Ok),
            Err(sqlx::Error::Database(err)) if err.is_unique_violation() => {
                let group = self.undo == Undo::Group;
                let writer = self.writer();
                if group {
                    // Its first statement failed and SQLite undid it; nothing else was run
                    // (`StatementBatch::fails_only_first`, and a query stops at its first
                    // failing statement).
                    writer.nothing_to_undo();
                } else {
                    writer.settle().await;
                }
                let (undo, pending) = WriteTx::start(writer);
                self.undo = undo;
                self.pending = pending;
                Ok(Err(self))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// After the last statements were sent: marks released once committed, or the lock handed
    /// on and the group's `COMMIT` waited for.
    async fn end(mut self, hand_off: bool) -> Result<(), ApiError> {
        if !hand_off {
            self.shared.count_commit();
            return self.release_committed().await;
        }
        let marks = self.marks.take();
        let done = self.writer().join_group(marks);
        // The next writer continues the transaction; this one waits for its `COMMIT`.
        self.writer = None;
        self.shared.wait_for_group(done).await
    }
}

impl WriteTx {
    /// After this transaction's `COMMIT` returned: the group's members' items first, then this
    /// one's, go into the cache as written (`item_cache`, "Write-through"). The release turn is
    /// taken while the writer lock is held, and the lock let go before the marks are released:
    /// the next writer's statements need not wait for the cache (bench/README.md, session
    /// 2026-12-06 later), and the next `COMMIT`'s release waits for the turn, so releases stay
    /// in commit order.
    async fn release_committed(&mut self) -> Result<(), ApiError> {
        let writer = self.writer();
        let group = writer.committed_group();
        let Some(items) = writer.items().cloned() else {
            // No cache: nothing to release, only the members to tell.
            self.writer = None;
            group.end();
            return Ok(());
        };
        // Dropped here (the request went away), the group still tells its members, and the
        // marks only remove (`CommittedGroup`).
        let turn = items.release_turn().await;
        let marks = self.marks.take();
        let release = move || {
            group.end();
            if let Some(mut marks) = marks {
                marks.committed();
            }
            drop(turn);
        };
        if !self.shared.others_waiting() {
            self.writer = None;
            release();
            return Ok(());
        }
        // Spawned before the writer lock is let go, so that the writer it wakes runs first on
        // this thread (tokio runs the task woken last first); the release runs after, here or
        // on another worker, and finishes even if this request goes away.
        let released = tokio::spawn(async move { release() });
        self.writer = None;
        released
            .await
            .map_err(|_| ApiError::internal("the release of a committed write failed"))
    }
}

/// Awaits `sent`, a query just handed to sqlx's SQLite thread, and the first time it is not
/// done yet lets that thread have this CPU (`sched_yield`) before the runtime thread moves on.
///
/// While other requests wait for the writer, SQLite's thread is what every write waits for,
/// and it sleeps between queries. Woken by the runtime thread that sent the query, the kernel
/// tends to queue it on that thread's CPU, behind whatever that thread runs next — on a small
/// machine, the next request's JSON: `perf sched` showed the SQLite thread runnable for up to
/// ~1 ms while the runtime thread parsed, with the other core idle (bench/README.md, session
/// 2026-12-06). Yielding once lets it start; with a core free, the yield returns at once.
/// Without contention the query is awaited plainly, or in memory by spinning while nothing else
/// is in flight (`spin`).
async fn step_aside_once<F: Future>(sent: F) -> F::Output {
    let mut sent = std::pin::pin!(sent);
    let mut yielded = false;
    std::future::poll_fn(|cx| {
        let polled = sent.as_mut().poll(cx);
        if polled.is_pending() && !yielded {
            yielded = true;
            std::thread::yield_now();
        }
        polled
    })
    .await
}

impl WriteTx {
    /// Ends a transaction that changed nothing, once what it read is committed. One that began
    /// the SQLite transaction read only committed items: it is rolled back (dropped). One that
    /// joined an open group read the items as the group's earlier members left them, and those
    /// are not committed before the group's `COMMIT` returned: a request that answered from
    /// them at once (a failed condition, with the item) could show a write that a read begun
    /// after the answer does not see yet — or ever, if the `COMMIT` fails. So it releases its
    /// savepoint and waits for the group's `COMMIT` like any member (`writer`), and fails if
    /// the group does.
    pub async fn end_unchanged(self) -> Result<(), ApiError> {
        match self.undo {
            Undo::Transaction => Ok(()),
            // (A member without a savepoint only ever writes new items: `commit_new`.)
            Undo::Savepoint | Undo::Group => self.commit().await,
        }
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        let Some(writer) = self.writer.take() else {
            return;
        };
        if !writer.needs_settling() && !writer.group_open() {
            return;
        }
        // Roll back (and commit a group no one else will) before the next writer can take the
        // lock: the task holds it until then. Without a runtime, the next owner rolls back
        // first (`Writer::settle`).
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let shared = self.shared.clone();
            runtime.spawn(async move {
                shared.release(writer).await;
            });
        }
    }
}

mod spin;
#[cfg(test)]
mod tests;
