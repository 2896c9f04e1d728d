//! The one connection that writes, and group commit.
//!
//! Every write request runs its statements on the writer connection, one request at a time
//! (the writer lock; see `write_tx`). Committing each request on its own costs one `COMMIT` per
//! request, and a commit is the dearest statement of a write: SQLite writes the changed pages
//! to the write-ahead log, and at every commit it also walks its whole page cache
//! (`pcache1TruncateUnsafe`: a B-tree page split renumbers a page through a temporary page
//! number past the end of the database, and the commit that follows then scans every slot of
//! the cache's hash table for pages past the end; bench/README.md). With many requests at
//! once, that was a large share of a BatchWriteItem's CPU.
//!
//! So requests that queue for the writer share one SQLite transaction — a *group*:
//!
//! - A request that finds no transaction open sends `BEGIN IMMEDIATE` with its first
//!   statements; one that finds a group open joins it: its statements run inside
//!   `SAVEPOINT member`, so a request that fails (an error, a ConditionalCheckFailed, a
//!   cancelled request) rolls back to its savepoint and undoes only its own changes. A member
//!   whose statements can fail only in their first one (a batch of new items, `write_tx`,
//!   "Members without a savepoint") opens no savepoint: SQLite undoes a failed statement by
//!   itself, and any other failure of such a member rolls the whole group back ([`Undo::Group`]),
//!   every member failing — none was acknowledged.
//! - When a request has written everything, it looks at the queue: if other writers are
//!   waiting for the lock (and the group has fewer members than its bound: [`MAX_GROUP`], or
//!   [`MEMORY_MAX_GROUP`] in memory), it releases its
//!   savepoint, leaves its item-cache marks with the group, hands the lock on and waits for the
//!   group's `COMMIT`; otherwise it sends `COMMIT` with its last statements.
//! - The request that commits releases every member's item-cache marks, in the order the
//!   members joined (a later member's write-through wins), and only then tells the members the
//!   outcome. It takes the item cache's release turn before it lets the writer lock go, and
//!   releases the marks after, holding the turn: the next writer's statements run on SQLite's
//!   thread meanwhile, and the releases still happen in commit order (`item_cache`,
//!   "Write-through"). No member is acknowledged before the `COMMIT` that made its write
//!   durable returned; if the `COMMIT` fails, every member fails.
//! - Someone always commits an open group: a request hands the lock on only to a writer queued
//!   for it; a queued writer that goes away (a cancelled request) leaves a task in its place
//!   ([`SharedWriter::lock`]); a request that fails or goes away while it holds the lock rolls
//!   back its own savepoint and commits the group if no one waits ([`SharedWriter::release`]).
//!   A member whose future is dropped while it waits for the `COMMIT` leaves its changes to the
//!   group (its marks stay with the group until the group ends); it was never acknowledged.
//! - Anything that takes the writer outside a request transaction (DDL, the TTL sweep, close)
//!   commits the open group first ([`Writer::settle`] then [`Writer::finish_group`]).
//!
//! A request's claims on its items (`in_flight`) are held until the request returns, after its
//! group committed, so two members of one group never write the same item unless single-item
//! writes share it — and those run one after the other anyway, their marks released in order.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use sqlx::SqliteConnection;
use tokio::sync::{Mutex, Notify, OwnedMutexGuard, watch};

use crate::ApiError;
use crate::item_cache::{ItemCache, WriteMarks};

/// The most requests one group commit takes: bounds how long the first member waits.
pub(crate) const MAX_GROUP: usize = 64;

/// The most requests one group commit takes in an in-memory database. A group's members are
/// acknowledged only at its `COMMIT`, so a group that takes every request queued leaves the
/// writer nothing to do while all of them are answered and their clients send again; with
/// smaller groups the next group's requests queue while the last group's are answered. In
/// memory a `COMMIT` is cheap (no log to write), and with 16 clients a bound of 8 (or 4) loaded
/// ~16 % faster than 64 (bench/README.md, session 2026-12-06 later). Since a batch of new items
/// joins a group without a savepoint and SQLite's journal memory stays in its heap, 4 loads
/// ~9 % faster than 8 at c=16 (3 alike, 2 and 16 slower; session 2026-12-07). A database
/// file keeps [`MAX_GROUP`]: there every `COMMIT` writes the log, and large groups write less of
/// it.
pub(crate) const MEMORY_MAX_GROUP: usize = 4;

/// The writer connection behind its lock, and how many are waiting for the lock.
pub(crate) struct SharedWriter {
    lock: Arc<Mutex<Writer>>,
    /// Writers queued for [`SharedWriter::lock`] right now (not members waiting for their
    /// group's commit).
    waiting: AtomicUsize,
    /// `COMMIT`s sent for requests (alone or as a group).
    commits: AtomicU64,
    /// Told after each of those `COMMIT`s (the background checkpoint, `checkpoint`).
    committed: Arc<Notify>,
    /// The most requests one group takes ([`MAX_GROUP`] or [`MEMORY_MAX_GROUP`]).
    max_group: usize,
    /// Engine calls in flight ([`SharedWriter::call_started`]).
    calls: AtomicUsize,
    /// Whether a query's result may be waited for by spinning at all (`write_tx::spin`): in
    /// memory only.
    spin: bool,
    /// No spin for a query's result before this instant (`write_tx::spin`): a spin that found
    /// its CPU wanted by another thread holds the others off for a while.
    spin_back_off: std::sync::Mutex<Option<std::time::Instant>>,
}

impl SharedWriter {
    pub fn new(writer: Writer, committed: Arc<Notify>, max_group: usize) -> SharedWriter {
        SharedWriter {
            lock: Arc::new(Mutex::new(writer)),
            waiting: AtomicUsize::new(0),
            commits: AtomicU64::new(0),
            committed,
            max_group,
            calls: AtomicUsize::new(0),
            spin: false,
            spin_back_off: std::sync::Mutex::new(None),
        }
    }

    /// Lets the results of queries be waited for by spinning (`write_tx::spin`). Measured to
    /// pay in memory only: with a database file the load at concurrency 1 was no faster and its
    /// CPU a batch 2–8 % higher (bench/README.md, session 2026-12-08).
    pub fn spinning_for_results(mut self) -> SharedWriter {
        self.spin = true;
        self
    }

    /// The most requests one group commit takes.
    pub fn max_group(&self) -> usize {
        self.max_group
    }

    /// Takes the writer lock, counted among the waiting while it waits; rolls back what an
    /// earlier owner could not finish. A group may still be open (see [`Writer::group_open`]).
    ///
    /// A group's last member hands the lock on, instead of committing, only when someone waits
    /// for it: a waiter that goes away before its turn (a cancelled request) so leaves behind a
    /// task that takes its place, and commits the group if no one else is waiting by then.
    pub async fn lock(self: &Arc<Self>) -> OwnedMutexGuard<Writer> {
        struct Waiting {
            shared: Arc<SharedWriter>,
            acquired: bool,
        }
        impl Drop for Waiting {
            fn drop(&mut self) {
                self.shared.waiting.fetch_sub(1, Ordering::SeqCst);
                if !self.acquired
                    && let Ok(runtime) = tokio::runtime::Handle::try_current()
                {
                    let shared = self.shared.clone();
                    runtime.spawn(async move {
                        let writer = shared.lock().await;
                        shared.release(writer).await;
                    });
                }
            }
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let mut waiting = Waiting {
            shared: self.clone(),
            acquired: false,
        };
        let mut writer = self.lock.clone().lock_owned().await;
        waiting.acquired = true;
        drop(waiting);
        writer.settle().await;
        writer
    }

    /// Lets the writer go from an owner that did not finish its transaction (or never began
    /// one): what it left is rolled back, and an open group is committed unless another writer
    /// is waiting to continue it.
    pub async fn release(&self, mut writer: OwnedMutexGuard<Writer>) {
        writer.settle().await;
        if writer.group_open() && !self.others_waiting() {
            writer.finish_group().await;
            self.count_commit();
        }
    }

    /// The writer with no transaction open: a group left open is committed first.
    pub async fn lock_idle(self: &Arc<Self>) -> IdleWriter {
        let mut writer = self.lock().await;
        writer.finish_group().await;
        IdleWriter {
            writer,
            shared: self.clone(),
        }
    }

    /// How many writers are queued for the lock.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::SeqCst)
    }

    /// How many `COMMIT`s requests' transactions have taken so far.
    #[cfg(test)]
    pub fn commits(&self) -> u64 {
        self.commits.load(Ordering::SeqCst)
    }

    /// Counts a `COMMIT` that returned.
    pub fn count_commit(&self) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.committed.notify_one();
    }

    /// Counts an engine call (a request) as in flight until the returned guard is dropped.
    pub fn call_started(&self) -> CallInFlight<'_> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        CallInFlight(&self.calls)
    }

    /// Whether the caller's is the only engine call in flight and no writer is queued: nothing
    /// else in the engine wants a CPU (`write_tx::spin`).
    pub fn alone(&self) -> bool {
        self.calls.load(Ordering::Relaxed) <= 1 && !self.others_waiting()
    }

    /// Whether a spin for a query's result may start now (`write_tx::spin`).
    pub fn may_spin(&self) -> bool {
        if !self.spin {
            return false;
        }
        let back_off = self.spin_back_off.lock().map_or(None, |until| *until);
        back_off.is_none_or(|until| std::time::Instant::now() >= until)
    }

    /// No spin starts for `span` from now: a spin found the machine busy.
    pub fn hold_spins_off(&self, span: std::time::Duration) {
        if let Ok(mut until) = self.spin_back_off.lock() {
            *until = Some(std::time::Instant::now() + span);
        }
    }

    /// Whether another writer is queued for the lock.
    pub fn others_waiting(&self) -> bool {
        self.waiting.load(Ordering::SeqCst) > 0
    }

    /// Waits until the group has ended (see [`SharedWriter::lock`] for who commits it), and
    /// returns its outcome.
    pub async fn wait_for_group(
        &self,
        mut done: watch::Receiver<Option<Result<(), ApiError>>>,
    ) -> Result<(), ApiError> {
        let outcome = done
            .wait_for(|outcome| outcome.is_some())
            .await
            .map(|outcome| outcome.clone());
        match outcome {
            Ok(Some(outcome)) => outcome,
            _ => Err(ApiError::internal("a group commit ended without an outcome")),
        }
    }

    /// The writer itself, when no one else holds the lock (the engine closing).
    pub fn into_inner(self) -> Option<Writer> {
        Arc::try_unwrap(self.lock).ok().map(Mutex::into_inner)
    }
}

/// An engine call in flight, counted until dropped ([`SharedWriter::call_started`]).
pub(crate) struct CallInFlight<'a>(&'a AtomicUsize);

impl Drop for CallInFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The writer taken outside a request transaction (DDL, tagging, the TTL sweep, close). When
/// it is let go, the checkpoint task is told, as after a request's `COMMIT`: what such a
/// write put in the log (a DeleteTable's freed pages, say) is then checkpointed and the log
/// emptied once idle, not left until the next item write.
pub(crate) struct IdleWriter {
    writer: OwnedMutexGuard<Writer>,
    shared: Arc<SharedWriter>,
}

impl Drop for IdleWriter {
    fn drop(&mut self) {
        self.shared.committed.notify_one();
    }
}

impl std::ops::Deref for IdleWriter {
    type Target = Writer;
    fn deref(&self) -> &Writer {
        &self.writer
    }
}

impl std::ops::DerefMut for IdleWriter {
    fn deref_mut(&mut self) -> &mut Writer {
        &mut self.writer
    }
}

/// How the statements a request has sent are undone if it does not finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Undo {
    /// It began the transaction: `ROLLBACK`.
    Transaction,
    /// It joined a group: `ROLLBACK TO member`.
    Savepoint,
    /// It joined a group without a savepoint of its own (`write_tx`, "Members without a
    /// savepoint"): what it sent can only be undone with the whole transaction, so the group
    /// is rolled back and every member fails.
    Group,
}

/// The requests whose changes are in the open transaction, waiting for its `COMMIT`.
struct OpenGroup {
    /// Each member's item-cache marks, in the order the members joined.
    marks: Vec<Option<WriteMarks>>,
    done: watch::Sender<Option<Result<(), ApiError>>>,
}

impl OpenGroup {
    /// Releases the members' marks (written through if committed), then tells them.
    fn end(self, outcome: Result<(), ApiError>) {
        let write_through = outcome.is_ok();
        self.end_releasing(outcome, write_through);
    }

    /// [`OpenGroup::end`]; without `write_through` the members' items are only removed from
    /// the cache (always right: a removed entry is a miss).
    fn end_releasing(self, outcome: Result<(), ApiError>, write_through: bool) {
        for marks in self.marks.into_iter().flatten() {
            let mut marks = marks;
            if write_through {
                marks.committed();
            }
            drop(marks);
        }
        self.done.send_replace(Some(outcome));
    }
}

/// The one connection that writes, and the state of its transaction.
pub(crate) struct Writer {
    pub conn: SqliteConnection,
    /// A transaction may be open on `conn` (`BEGIN` sent, no `COMMIT` or `ROLLBACK` since).
    transaction_open: bool,
    /// The statements of the lock's current owner that would need undoing if it went away.
    undo: Option<Undo>,
    /// The members waiting for the open transaction's `COMMIT`.
    group: Option<OpenGroup>,
    /// The item cache every change to a base item must invalidate (`None`: no cache).
    items: Option<Arc<ItemCache>>,
}

impl Writer {
    pub fn new(conn: SqliteConnection, items: Option<Arc<ItemCache>>) -> Writer {
        Writer {
            conn,
            transaction_open: false,
            undo: None,
            group: None,
            items,
        }
    }

    pub fn items(&self) -> Option<&Arc<ItemCache>> {
        self.items.as_ref()
    }

    /// For a write that removes the keyspaces `dropped` (DeleteTable): every key of the item
    /// cache marked, and the dropped keyspaces' entries removed, until the returned marks are
    /// dropped, which must be after `COMMIT` returned.
    pub async fn mark_all_items(&self, dropped: &[i64]) -> Option<WriteMarks> {
        let items = self.items.as_ref()?;
        // After the release of every earlier `COMMIT` (`item_cache`, "Write-through"): none
        // puts an item of the dropped keyspaces back after they were emptied.
        let turn = items.release_turn().await;
        let mut marks = WriteMarks::new(items.clone());
        marks.mark_all(dropped);
        drop(turn);
        Some(marks)
    }

    /// Whether a group's transaction is open: a new request joins it.
    pub fn group_open(&self) -> bool {
        self.transaction_open && self.group.is_some()
    }

    /// How many requests the open group holds.
    pub fn group_members(&self) -> usize {
        self.group.as_ref().map_or(0, |group| group.marks.len())
    }

    /// The owner's statements left nothing to undo: its only statement that sent anything
    /// failed, and SQLite undid that statement (`write_tx`, "Members without a savepoint").
    pub fn nothing_to_undo(&mut self) {
        self.undo = None;
    }

    /// The owner is about to send statements undone by `undo` if it does not finish.
    pub fn sending(&mut self, undo: Undo) {
        self.transaction_open = true;
        self.undo = Some(undo);
    }

    fn committed(&mut self) {
        self.transaction_open = false;
        self.undo = None;
    }

    /// The owner's statements succeeded and its savepoint (if any) was released into the open
    /// transaction: joins (or opens) the group with `marks`, and returns where its
    /// outcome will be told.
    pub fn join_group(&mut self, marks: Option<WriteMarks>) -> watch::Receiver<Option<Result<(), ApiError>>> {
        self.undo = None;
        let group = self.group.get_or_insert_with(|| OpenGroup {
            marks: Vec::new(),
            done: watch::channel(None).0,
        });
        group.marks.push(marks);
        group.done.subscribe()
    }

    /// Undoes what the lock's previous owner sent but could not finish: its savepoint, or the
    /// whole transaction if it began it (or its savepoint cannot be rolled back, in which case
    /// the open group fails too). An open transaction with no group is rolled back.
    pub async fn settle(&mut self) {
        match self.undo.take() {
            None => {}
            Some(Undo::Savepoint) => {
                let undone = sqlx::query("ROLLBACK TO member; RELEASE member")
                    .execute(&mut self.conn)
                    .await;
                if undone.is_err() {
                    self.abort().await;
                }
            }
            Some(Undo::Transaction | Undo::Group) => self.abort().await,
        }
        if self.transaction_open && self.group.is_none() {
            self.abort().await;
        }
    }

    /// Rolls the whole transaction back; the open group, if any, fails.
    async fn abort(&mut self) {
        // A `ROLLBACK` with no transaction open fails; that means there was nothing to undo.
        let _ = sqlx::query("ROLLBACK").execute(&mut self.conn).await;
        self.transaction_open = false;
        self.undo = None;
        if let Some(group) = self.group.take() {
            group.end(Err(ApiError::internal(
                "the group's write transaction was rolled back",
            )));
        }
    }

    /// Commits the open group's transaction, if there is one, and tells its members.
    pub async fn finish_group(&mut self) {
        if !self.group_open() {
            return;
        }
        let committed = sqlx::query("COMMIT").execute(&mut self.conn).await;
        match committed {
            Ok(_) => {
                self.transaction_open = false;
                let group = CommittedGroup(self.group.take());
                // In commit order, after an earlier release still running (`item_cache`).
                let _turn = match &self.items {
                    Some(items) if group.0.is_some() => Some(items.release_turn().await),
                    _ => None,
                };
                group.end();
            }
            Err(err) => {
                let err = ApiError::from(err);
                let _ = sqlx::query("ROLLBACK").execute(&mut self.conn).await;
                self.transaction_open = false;
                if let Some(group) = self.group.take() {
                    group.end(Err(err));
                }
            }
        }
    }

    /// Whether the owner left statements to undo (see [`Writer::settle`]).
    pub fn needs_settling(&self) -> bool {
        self.undo.is_some() || (self.transaction_open && self.group.is_none())
    }

    /// The owner's `COMMIT` returned: the group it committed with it, to be ended (members'
    /// marks released in order, then told) before the owner releases its own marks, under the
    /// release turn ([`CommittedGroup`]).
    pub fn committed_group(&mut self) -> CommittedGroup {
        self.committed();
        CommittedGroup(self.group.take())
    }
}

/// A group whose `COMMIT` returned, not yet told. Its owner takes the item cache's release
/// turn, lets the writer lock go, and then ends it ([`CommittedGroup::end`]). Dropped without
/// that (its owner's future dropped while it waited for the turn), it still tells the members
/// their writes are committed, and only removes their items from the cache.
pub(crate) struct CommittedGroup(Option<OpenGroup>);

impl CommittedGroup {
    /// Releases the members' marks (written through), in the order they joined, and tells
    /// them. The caller holds the release turn, if there is an item cache.
    pub fn end(mut self) {
        if let Some(group) = self.0.take() {
            group.end(Ok(()));
        }
    }
}

impl Drop for CommittedGroup {
    fn drop(&mut self) {
        if let Some(group) = self.0.take() {
            group.end_releasing(Ok(()), false);
        }
    }
}

impl std::ops::Deref for Writer {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        &self.conn
    }
}

impl std::ops::DerefMut for Writer {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.conn
    }
}
