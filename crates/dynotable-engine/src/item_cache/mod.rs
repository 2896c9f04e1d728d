//! A read-through cache of items by primary key, for GetItem and BatchGetItem.
//!
//! A GetItem that reaches SQLite costs two thread hand-offs (sqlx runs each connection on a
//! thread of its own), which on a small machine is most of its latency (bench/README.md, "Where
//! a GetItem's time goes"). Items read by key are kept here, in their stored form (the item's
//! DynamoDB JSON, as GetItem puts it in the response, and its size), keyed by the table's
//! keyspace and the encoded primary key; an absent item is remembered as absent. Keyspace ids
//! are never reused (`AUTOINCREMENT`), so a table deleted and created again under the same name
//! never finds the old table's items. The bytes held are bounded ([`Options::item_cache_bytes`],
//! weighed per entry by [`EntryWeight`]); eviction is quick_cache's (CLOCK-Pro).
//!
//! # Strong consistency
//!
//! Every read must see every write acknowledged before it began (rule B.2: strongly consistent
//! reads), and a read must never return an older item than one an earlier read returned. The
//! danger is the classic race: a reader misses, reads the old row from SQLite, a writer commits
//! and invalidates, and only then does the reader insert the old row. The guard here:
//!
//! - The keys are spread over [`SHARDS`] guard shards, each with a `generation` and a count of
//!   writes `writing` its keys.
//! - A writer *marks* each base item it is about to change before the statement that changes it
//!   is sent to SQLite ([`WriteMarks::mark`]: `writing += 1`, `generation += 1`, the entry
//!   removed, under the shard's lock), and *releases* it after `COMMIT` returned — or after the
//!   transaction was abandoned — and before the write is acknowledged ([`WriteMarks`]' drop:
//!   `generation += 1`, the entry removed again, `writing -= 1`).
//! - A reader looks the shard up first ([`ItemCache::lookup`]). While a write to the shard is
//!   in flight it bypasses the cache altogether (reads SQLite, inserts nothing): between a
//!   write's `COMMIT` and its release, the cache could still hold the old item. Otherwise it
//!   notes the generation, then returns the cached entry if there is one; on a miss it reads
//!   SQLite and inserts what it read only if the shard's generation is still the one it noted
//!   ([`ItemCache::fill`]) — no write to the shard began or ended while it read, so what it read
//!   is the committed item.
//!
//! So while no write to a shard is in flight, every entry of the shard is its key's committed
//! item; a cache hit (read under the shard's guard) is the committed item as of that moment.
//! Single-item writes rely on it too: a condition that is false on a hit is answered from it
//! without the writer ([`ItemCache::committed_item`], `ops::item_write`). Writes that drop whole keyspaces (DeleteTable) mark every shard
//! ([`WriteMarks::mark_all`]) and, at release, remove every entry of those keyspaces; the
//! other tables' entries stay (a table's delete changes nothing in another table).
//!
//! # Write-through
//!
//! A write knows the item it stores. When its transaction committed, the release puts that
//! item (or its absence) into the cache instead of only removing the old one. A table that was
//! just written is so read from memory too; a transaction that did not commit only removes.
//!
//! Releases that put items in run in commit order: each holds the *release turn*
//! ([`ItemCache::release_turn`]), and the writer that sent the `COMMIT` takes the turn before
//! it lets the writer connection go (`write_tx`, `writer`). The next `COMMIT` can only come
//! from the next owner of the writer connection, which waits for the turn before its own
//! release. Between one commit and its release a later write may already have been sent (the
//! writer is free again, so SQLite's thread need not wait while the cache is updated,
//! bench/README.md, session 2026-12-06 later), but every key that write changes is marked
//! before its statements reach SQLite: until its own release, readers of those shards bypass
//! the cache, and its release (later, in turn) leaves its items there. So an item put in by an
//! earlier commit's release is, whenever a reader can see it, still the committed item.
//! (Removals need no turn: a removed entry is only a miss.)
//!
//! Where changes are marked: every change to a base item is a [`crate::write_tx::StatementBatch`]
//! `put_entry`/`delete_entry` with an empty tail, and the batch records the key; a
//! [`crate::write_tx::WriteTx`] marks what its batch recorded before sending it, and releases at
//! commit or drop. A batch sent outside a `WriteTx` that changes a base item is refused, so no
//! write path can forget. DeleteTable, the one statement that removes base items in bulk, marks
//! every shard.
//!
//! # Collections
//!
//! Query reads one item collection of a table. A collection of at most
//! [`MAX_COLLECTION_ROWS`] items is cached whole under its own key (the keyspace and the
//! partition key), with the same guard: every change to an item also marks the item's
//! collection, which is only invalidated at release (read again from SQLite by the next
//! Query), never written through.
//!
//! A collection is read whole and cached only on its second miss within a while (a
//! doorkeeper, as TinyLFU has: [`ItemCache::admit_collection`]); on its first the Query reads
//! just its page from SQLite. Reading a whole collection to serve one page costs about twice
//! the page, and when the queried collections do not fit the budget (a 1M-item table against
//! 64 MB), nearly every fill is evicted before it is read again: a Query there took 0.4 ms
//! with the cache against 0.2 ms without (bench/README.md). Collections asked for again soon
//! are admitted at their second Query.
//!
//! The cache assumes the engine is the only writer of its database: a second process writing
//! the same SQLite file would not invalidate it (`Options::item_cache_bytes = 0` turns it off).

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use quick_cache::Equivalent;

use crate::read::CollectionRows;

/// Guard shards: enough that unrelated keys rarely share one, few enough to mark all cheaply.
pub(crate) const SHARDS: usize = 64;

/// How many times [`ItemCache::committed_item`] waits for a shard's writes to be released
/// before it gives up (the caller then reads the item on the writer).
const RELEASE_WAITS: usize = 3;

/// The largest collection cached whole for Query.
pub(crate) const MAX_COLLECTION_ROWS: usize = 1000;

/// Slots of the collection doorkeeper: the hashes of the collections that missed last.
const DOORKEEPER_SLOTS: usize = 4096;

/// Bytes of bookkeeping counted for each entry beyond its key and body.
const ENTRY_OVERHEAD: u64 = 96;

/// An item as stored: its DynamoDB JSON and its size by DynamoDB's rules (rule B.1).
#[derive(Debug)]
pub(crate) struct StoredBody {
    pub body: Box<str>,
    pub size: u64,
}

impl StoredBody {
    /// The body as a `RawValue` (GetItem's output in the tests; the wire copies `body` as is).
    #[cfg(test)]
    pub fn raw(&self) -> Result<Box<serde_json::value::RawValue>, crate::ApiError> {
        serde_json::value::RawValue::from_string(self.body.to_string()).map_err(crate::ApiError::internal)
    }
}

/// What the cache holds for an item's key: the item, or `None` when there is none.
pub(crate) type Cached = Option<Arc<StoredBody>>;

/// A cache entry: an item (or its absence), or a collection.
#[derive(Debug, Clone)]
pub(crate) enum Entry {
    Item(Cached),
    Collection(Arc<CollectionRows>),
}

/// A cached item's key: the table's keyspace and the encoded primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CacheKey {
    keyspace: i64,
    pk: Box<[u8]>,
    sk: Box<[u8]>,
    /// The key names a whole collection (`sk` empty), not an item.
    collection: bool,
}

/// A key to look up without allocating; hashes and compares like the [`CacheKey`] it names.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyRef<'a> {
    pub keyspace: i64,
    pub pk: &'a [u8],
    pub sk: &'a [u8],
    pub collection: bool,
}

impl<'a> KeyRef<'a> {
    /// The key of one item.
    pub fn item(keyspace: i64, pk: &'a [u8], sk: &'a [u8]) -> KeyRef<'a> {
        KeyRef {
            keyspace,
            pk,
            sk,
            collection: false,
        }
    }

    /// The key of a whole item collection of a table (for Query).
    pub fn collection(keyspace: i64, pk: &'a [u8]) -> KeyRef<'a> {
        KeyRef {
            keyspace,
            pk,
            sk: &[],
            collection: true,
        }
    }

    fn owned(&self) -> CacheKey {
        CacheKey {
            keyspace: self.keyspace,
            pk: self.pk.into(),
            sk: self.sk.into(),
            collection: self.collection,
        }
    }

    fn hash_parts<H: Hasher>(&self, state: &mut H) {
        state.write_u8(u8::from(self.collection));
        state.write_i64(self.keyspace);
        state.write_usize(self.pk.len());
        state.write(self.pk);
        state.write(self.sk);
    }

    /// The guard shard of this key.
    fn shard(&self) -> usize {
        (self.fnv() % SHARDS as u64) as usize
    }

    /// FNV-1a of the key, stable and cheap.
    fn fnv(&self) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self
            .keyspace
            .to_le_bytes()
            .iter()
            .chain(self.pk)
            .chain([0xff, u8::from(self.collection)].iter())
            .chain(self.sk)
        {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }
}

impl CacheKey {
    fn as_ref(&self) -> KeyRef<'_> {
        KeyRef {
            keyspace: self.keyspace,
            pk: &self.pk,
            sk: &self.sk,
            collection: self.collection,
        }
    }
}

impl Hash for CacheKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_ref().hash_parts(state);
    }
}

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash_parts(state);
    }
}

impl Equivalent<CacheKey> for KeyRef<'_> {
    fn equivalent(&self, key: &CacheKey) -> bool {
        self.keyspace == key.keyspace
            && self.collection == key.collection
            && self.pk == &*key.pk
            && self.sk == &*key.sk
    }
}

/// An entry's weight against the byte budget: its key, its body and the bookkeeping.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryWeight;

impl quick_cache::Weighter<CacheKey, Entry> for EntryWeight {
    fn weight(&self, key: &CacheKey, value: &Entry) -> u64 {
        let held = match value {
            Entry::Item(item) => item.as_ref().map_or(0, |v| v.body.len() as u64),
            Entry::Collection(collection) => {
                collection.batch.bytes() as u64 + collection.batch.len() as u64 * ENTRY_OVERHEAD
            }
        };
        key.pk.len() as u64 + key.sk.len() as u64 + held + ENTRY_OVERHEAD
    }
}

/// One guard shard's state (see the module documentation).
#[derive(Debug, Default)]
struct GuardState {
    generation: u64,
    writing: u32,
}

/// The cache and its guard shards. Shared by the readers (the engine) and the writer.
pub(crate) struct ItemCache {
    items: quick_cache::sync::Cache<CacheKey, Entry, EntryWeight>,
    guards: Box<[Mutex<GuardState>]>,
    /// Whether committed writes put their items in (see "Write-through"); tests turn it off
    /// so that every read after a write misses and races the fill guard.
    write_through: AtomicBool,
    /// The collections that missed once (see "Collections"): a slot per hash, 0 when empty.
    doorkeeper: Box<[AtomicU64]>,
    /// Per guard shard: told when the shard's last in-flight write is released.
    released: Box<[tokio::sync::Notify]>,
    /// Held by every release that puts committed items in, taken before the writer is let go
    /// (see "Write-through"). Async: its holder may let other tasks run before it releases.
    turn: Arc<tokio::sync::Mutex<()>>,
    #[cfg(test)]
    committed_items_served: AtomicU64,
}

/// What a lookup found.
pub(crate) enum Lookup {
    /// The committed item (or its absence), or collection.
    Hit(Entry),
    /// Not cached: read SQLite, then offer what was read to [`ItemCache::fill`].
    Miss(Ticket),
    /// A write to this key's shard is in flight: read SQLite and do not fill.
    Bypass,
}

/// The generation a reader noted before it read SQLite.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ticket {
    shard: usize,
    generation: u64,
}

impl ItemCache {
    /// A cache of at most `budget_bytes` (by [`EntryWeight`]), or `None` for a budget of 0.
    pub fn new(budget_bytes: u64) -> Option<Arc<ItemCache>> {
        if budget_bytes == 0 {
            return None;
        }
        // The item estimate only sizes quick_cache's shards; tables start empty and grow.
        let estimated_items = (budget_bytes / 512).clamp(64, 1 << 20) as usize;
        Some(Arc::new(ItemCache {
            items: quick_cache::sync::Cache::with_weighter(estimated_items, budget_bytes, EntryWeight),
            guards: (0..SHARDS).map(|_| Mutex::new(GuardState::default())).collect(),
            write_through: AtomicBool::new(true),
            doorkeeper: (0..DOORKEEPER_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            released: (0..SHARDS).map(|_| tokio::sync::Notify::new()).collect(),
            turn: Arc::new(tokio::sync::Mutex::new(())),
            #[cfg(test)]
            committed_items_served: AtomicU64::new(0),
        }))
    }

    fn guard(&self, shard: usize) -> MutexGuard<'_, GuardState> {
        self.guards[shard]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The release turn (see "Write-through"): taken by the owner of the writer connection
    /// after a `COMMIT` returned and before it lets the writer go, and held while the marks of
    /// that `COMMIT` are released; taken (and waited for) by whoever holds the writer before
    /// marks of its own that must follow every earlier release (DeleteTable's).
    pub async fn release_turn(&self) -> tokio::sync::OwnedMutexGuard<()> {
        self.turn.clone().lock_owned().await
    }

    /// Looks `key` up; call before reading SQLite.
    ///
    /// The entry is read under the shard's guard, as every mark, release and fill changes the
    /// shard's entries under it: a hit is the committed item at that instant. (Read after the
    /// guard was let go, it could be a group member's write-through that a later member of the
    /// same group, committed by the same `COMMIT`, had not yet replaced: `writer`.)
    pub fn lookup(&self, key: KeyRef<'_>) -> Lookup {
        let shard = key.shard();
        let state = self.guard(shard);
        if state.writing > 0 {
            return Lookup::Bypass;
        }
        match self.items.get(&key) {
            Some(cached) => Lookup::Hit(cached),
            None => Lookup::Miss(Ticket {
                shard,
                generation: state.generation,
            }),
        }
    }

    /// The committed item at `key` (`Some(None)`: committed as absent) when the cache holds it,
    /// for a write that evaluates its condition on it (`ops::item_write`); `None` when it does
    /// not. What [`ItemCache::lookup`] hits — but while writes to the key's shard are in flight
    /// it waits for them to be released (their `COMMIT` returned: the write-through items are
    /// then in the cache) and looks again, at most [`RELEASE_WAITS`] times, rather than send
    /// the caller to the writer's queue behind them. Waiting here adds no one to the writer's
    /// queue, so it does not keep a group commit open (`writer`); the item read after the wait
    /// is still read within the request.
    pub async fn committed_item(&self, key: KeyRef<'_>) -> Option<Cached> {
        let shard = key.shard();
        for _ in 0..=RELEASE_WAITS {
            // Registered before the look, so a release between the look and the wait is not
            // missed.
            let released = self.released[shard].notified();
            let mut released = std::pin::pin!(released);
            released.as_mut().enable();
            match self.lookup(key) {
                Lookup::Hit(Entry::Item(cached)) => {
                    #[cfg(test)]
                    self.committed_items_served.fetch_add(1, Ordering::Relaxed);
                    return Some(cached);
                }
                Lookup::Hit(Entry::Collection(_)) | Lookup::Miss(_) => return None,
                Lookup::Bypass => released.await,
            }
        }
        None
    }

    /// How many times [`ItemCache::committed_item`] served an item (tests: a write's condition
    /// was evaluated on the cache).
    #[cfg(test)]
    pub fn committed_items_served(&self) -> u64 {
        self.committed_items_served.load(Ordering::Relaxed)
    }

    /// Offers what a reader read from SQLite after `ticket`'s lookup; kept only if no write to
    /// the shard began or ended since.
    pub fn fill(&self, ticket: Ticket, key: KeyRef<'_>, value: Entry) {
        let state = self.guard(ticket.shard);
        if state.generation == ticket.generation && state.writing == 0 {
            self.items.insert(key.owned(), value);
        }
    }

    /// Whether a collection that missed is to be read whole and cached: yes on its second miss
    /// since its slot last held another collection (see "Collections"). Only decides what is
    /// read; the fill guard decides what may be kept.
    pub fn admit_collection(&self, key: KeyRef<'_>) -> bool {
        // Never 0, the empty slot.
        let hash = key.fnv() | 1;
        let slot = &self.doorkeeper[((hash >> 8) % DOORKEEPER_SLOTS as u64) as usize];
        if slot.swap(hash, Ordering::Relaxed) == hash {
            slot.store(0, Ordering::Relaxed);
            true
        } else {
            false
        }
    }

    /// Committed writes only invalidate, as if they did not know their items.
    #[cfg(test)]
    pub fn without_write_through(&self) {
        self.write_through.store(false, Ordering::Relaxed);
    }

    /// Bytes held, by [`EntryWeight`].
    #[cfg(test)]
    pub fn weight(&self) -> u64 {
        self.items.weight()
    }
}

/// The keys a write transaction has marked; released (see the module documentation) when
/// dropped, which the transaction does after `COMMIT` returned, or when it was abandoned.
pub(crate) struct WriteMarks {
    cache: Arc<ItemCache>,
    /// The marked keys, each with the item as the transaction leaves it (`None`: not known).
    keys: Vec<(CacheKey, Option<Cached>)>,
    /// Every shard is marked (keyspaces dropped).
    all: bool,
    /// The keyspaces dropped, whose entries are removed at release.
    dropped: Vec<i64>,
    /// The transaction committed: the items it wrote go into the cache at release.
    committed: bool,
}

impl WriteMarks {
    pub fn new(cache: Arc<ItemCache>) -> WriteMarks {
        WriteMarks {
            cache,
            keys: Vec::new(),
            all: false,
            dropped: Vec::new(),
            committed: false,
        }
    }

    /// Marks `key` as being written: readers of its shard bypass the cache until released.
    /// `after` is the item as stored once the write commits (`Some(None)`: deleted), or
    /// `None` if not known; a later mark of the same key replaces it.
    /// The item's collection is marked too (and only invalidated at release).
    pub fn mark(&mut self, key: KeyRef<'_>, after: Option<Cached>) {
        if self.all {
            return;
        }
        if !key.collection {
            self.mark(KeyRef::collection(key.keyspace, key.pk), None);
        }
        if let Some((_, known)) = self.keys.iter_mut().find(|(k, _)| key.equivalent(k)) {
            *known = after;
            return;
        }
        {
            let mut state = self.cache.guard(key.shard());
            state.writing += 1;
            state.generation += 1;
            self.cache.items.remove(&key);
        }
        self.keys.push((key.owned(), after));
    }

    /// The transaction committed: at release the cache takes the items as written.
    pub fn committed(&mut self) {
        self.committed = true;
    }

    /// Marks every shard (a write that removes whole keyspaces, `dropped`) and removes the
    /// entries of those keyspaces; the others stay, and are served again at release. The caller
    /// holds the writer and waited for the release turn (`Writer::mark_all_items`), so no
    /// earlier commit's release is still putting items of those keyspaces in.
    pub fn mark_all(&mut self, dropped: &[i64]) {
        if self.all {
            return;
        }
        self.release_keys();
        for shard in 0..SHARDS {
            let mut state = self.cache.guard(shard);
            state.writing += 1;
            state.generation += 1;
        }
        self.dropped = dropped.to_vec();
        self.remove_dropped();
        self.all = true;
    }

    fn remove_dropped(&self) {
        let dropped = &self.dropped;
        self.cache.items.retain(|key, _| !dropped.contains(&key.keyspace));
    }

    fn release_keys(&mut self) {
        let write_through = self.committed && self.cache.write_through.load(Ordering::Relaxed);
        for (owned, after) in std::mem::take(&mut self.keys) {
            let key = owned.as_ref();
            let shard = key.shard();
            let mut state = self.cache.guard(shard);
            state.generation += 1;
            match after {
                // Committed, and released in commit order (the release turn, "Write-through"):
                // this is the item now, or a later write to it is marked (readers bypass the
                // shard) and its own release comes after this one.
                Some(item) if write_through => self.cache.items.insert(owned, Entry::Item(item)),
                _ => {
                    self.cache.items.remove(&key);
                }
            }
            state.writing -= 1;
            if state.writing == 0 {
                self.cache.released[shard].notify_waiters();
            }
        }
    }
}

impl Drop for WriteMarks {
    fn drop(&mut self) {
        self.release_keys();
        if self.all {
            for shard in 0..SHARDS {
                let mut state = self.cache.guard(shard);
                state.generation += 1;
                state.writing -= 1;
                if state.writing == 0 {
                    self.cache.released[shard].notify_waiters();
                }
            }
            // Whatever of the dropped keyspaces a reader inserted before the shards were marked
            // is gone too.
            self.remove_dropped();
        }
    }
}

#[cfg(test)]
mod write_paths;

#[cfg(test)]
mod tests {
    use super::*;

    fn key(pk: &[u8]) -> KeyRef<'_> {
        KeyRef::item(1, pk, b"")
    }

    fn body(text: &str) -> Entry {
        Entry::Item(Some(Arc::new(StoredBody {
            body: text.into(),
            size: text.len() as u64,
        })))
    }

    fn hit(cache: &ItemCache, k: KeyRef<'_>) -> Option<Cached> {
        match cache.lookup(k) {
            Lookup::Hit(Entry::Item(cached)) => Some(cached),
            _ => None,
        }
    }

    #[test]
    fn a_fill_after_a_lookup_is_served() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let Lookup::Miss(ticket) = cache.lookup(key(b"a")) else {
            panic!("an empty cache misses")
        };
        cache.fill(ticket, key(b"a"), body("1"));
        assert_eq!(hit(&cache, key(b"a")).unwrap().unwrap().body.as_ref(), "1");
        // Absence is cached too.
        let Lookup::Miss(ticket) = cache.lookup(key(b"b")) else {
            panic!()
        };
        cache.fill(ticket, key(b"b"), Entry::Item(None));
        assert!(hit(&cache, key(b"b")).unwrap().is_none());
    }

    /// The classic race: the reader's ticket predates a write that committed while it read.
    #[test]
    fn a_fill_that_raced_a_write_is_dropped() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let Lookup::Miss(ticket) = cache.lookup(key(b"a")) else {
            panic!()
        };
        // The reader reads "old" from SQLite here; meanwhile a write marks, commits, releases.
        drop({
            let mut marks = WriteMarks::new(cache.clone());
            marks.mark(key(b"a"), None);
            marks
        });
        cache.fill(ticket, key(b"a"), body("old"));
        assert!(matches!(cache.lookup(key(b"a")), Lookup::Miss(_)));
    }

    #[test]
    fn readers_bypass_while_a_write_is_in_flight_and_fills_are_refused() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let Lookup::Miss(ticket) = cache.lookup(key(b"a")) else {
            panic!()
        };
        cache.fill(ticket, key(b"a"), body("old"));
        let mut marks = WriteMarks::new(cache.clone());
        marks.mark(key(b"a"), None);
        // The old entry is gone, and the shard is bypassed until the write is released.
        assert!(matches!(cache.lookup(key(b"a")), Lookup::Bypass));
        drop(marks);
        assert!(matches!(cache.lookup(key(b"a")), Lookup::Miss(_)));
    }

    /// A reader that inserted just before a write began: the write's mark removes it.
    #[test]
    fn a_mark_removes_the_entry() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let Lookup::Miss(ticket) = cache.lookup(key(b"a")) else {
            panic!()
        };
        cache.fill(ticket, key(b"a"), body("old"));
        let mut marks = WriteMarks::new(cache.clone());
        marks.mark(key(b"a"), None);
        marks.mark(key(b"a"), None);
        drop(marks);
        assert!(matches!(cache.lookup(key(b"a")), Lookup::Miss(_)));
        // Marking twice released twice: nothing is left marked.
        assert_eq!(
            cache
                .guards
                .iter()
                .map(|g| g.lock().unwrap().writing)
                .sum::<u32>(),
            0
        );
    }

    #[test]
    fn mark_all_bypasses_every_shard_and_removes_only_the_dropped_keyspaces() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let keys: Vec<Vec<u8>> = (0..200u32).map(|i| i.to_be_bytes().to_vec()).collect();
        // Keyspace 1 is dropped; keyspace 2 (another table) is not.
        let other = |k: &[u8]| KeyRef::item(2, k, b"").owned();
        for k in &keys {
            if let Lookup::Miss(ticket) = cache.lookup(key(k)) {
                cache.fill(ticket, key(k), body("x"));
            }
            let k = other(k);
            if let Lookup::Miss(ticket) = cache.lookup(k.as_ref()) {
                cache.fill(ticket, k.as_ref(), body("kept"));
            }
        }
        let Lookup::Miss(late) = cache.lookup(key(b"late")) else {
            panic!()
        };
        let mut marks = WriteMarks::new(cache.clone());
        marks.mark(key(&keys[0]), None);
        marks.mark_all(&[1]);
        assert!(keys.iter().all(|k| {
            matches!(cache.lookup(key(k)), Lookup::Bypass)
                && matches!(cache.lookup(other(k).as_ref()), Lookup::Bypass)
        }));
        drop(marks);
        cache.fill(late, key(b"late"), body("stale"));
        assert!(
            keys.iter()
                .all(|k| matches!(cache.lookup(key(k)), Lookup::Miss(_)))
        );
        assert!(matches!(cache.lookup(key(b"late")), Lookup::Miss(_)));
        // The other table's items are served as before.
        for k in &keys {
            let found = hit(&cache, other(k).as_ref()).expect("another table's item stays cached");
            assert_eq!(found.as_ref().map(|item| &*item.body), Some("kept"));
        }
    }

    #[test]
    fn the_byte_budget_bounds_what_is_held() {
        let budget = 64 * 1024;
        let cache = ItemCache::new(budget).unwrap();
        let text = "x".repeat(1000);
        for i in 0..1000u32 {
            let pk = i.to_be_bytes();
            if let Lookup::Miss(ticket) = cache.lookup(key(&pk)) {
                cache.fill(ticket, key(&pk), body(&text));
            }
        }
        assert!(cache.weight() <= budget, "{} > {budget}", cache.weight());
        assert!(cache.weight() > budget / 2);
    }

    #[test]
    fn a_budget_of_zero_is_no_cache() {
        assert!(ItemCache::new(0).is_none());
    }

    #[test]
    fn a_collection_is_admitted_on_its_second_miss() {
        let cache = ItemCache::new(1 << 20).unwrap();
        let a = KeyRef::collection(1, b"a");
        let b = KeyRef::collection(1, b"b");
        assert!(!cache.admit_collection(a));
        assert!(!cache.admit_collection(b));
        assert!(cache.admit_collection(a));
        // Admitted once: a later miss (the collection evicted) starts over.
        assert!(!cache.admit_collection(a));
        assert!(cache.admit_collection(a));
        // Collections crowding the doorkeeper push out those that missed long ago.
        let c = KeyRef::collection(1, b"c");
        assert!(!cache.admit_collection(c));
        for i in 0..(4 * DOORKEEPER_SLOTS as u32) {
            let pk = i.to_be_bytes();
            cache.admit_collection(KeyRef::collection(2, &pk));
        }
        assert!(!cache.admit_collection(c));
    }
}
