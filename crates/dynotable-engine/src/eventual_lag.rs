//! `Options::eventual_lag` (`dynotable-local --eventual-lag MS --seed N`): eventually
//! consistent reads that see writes late, as DynamoDB's may (rule B.20,
//! docs/dynamodb-rules.md), so that read-after-write bugs show up on a laptop. Strongly
//! consistent reads stay exact.
//!
//! The life of an eventually consistent read when a lag is set:
//!
//! 1. Every write of an item ([`crate::items::write_item`], whatever request or sweep makes it)
//!    records the item as it was before, with the time of the write on the engine's clock
//!    ([`History::record`]). Versions older than the lag are dropped as new ones come, so the
//!    history holds at most the last `lag` of writes.
//! 2. A GetItem or BatchGetItem with `ConsistentRead` false (the default) first draws how stale
//!    it is: `as_of = now − lag × u`, with `u` in [0, 1) from a generator seeded with the seed
//!    and the read's number since the engine opened ([`History::as_of`]). The same seed and
//!    the same sequence of requests give the same answers.
//! 3. The item is read as usual (the item cache, else SQLite: the latest committed version),
//!    then replaced by the version it had at `as_of` when it was written since
//!    ([`History::seen`]): the `before` of the first write after `as_of`. An item created
//!    after `as_of` is not found; one deleted after it is still there.
//!
//! 4. An eventually consistent Query — of the table, a local or a global secondary index —
//!    draws its `as_of` the same way. When items of the table were written since
//!    ([`History::changed_since`]), the queried collection is read whole as committed and each
//!    such item's entry replaced by the entry its version at `as_of` made, if any
//!    ([`collection_as_of`]); the page is then read from that collection as from a cached one
//!    (`read::page`, `Rows::Collection`), with the Query's bounds, filter, Limit and 1 MB. A GSI
//!    Query is always eventually consistent, as on the service.
//!
//! 5. An eventually consistent Scan — of the table or of an index — draws its `as_of` the same
//!    way. When items of the table were written since, the whole table (or index) is read as
//!    committed and patched as in step 4 ([`keyspace_as_of`]), and the page read from it with
//!    the Scan's segment, start key, filter, Limit and 1 MB.
//!
//! PartiQL SELECTs run as GetItem, Query or Scan, and lag as they do unless their
//! `ConsistentRead` is true. With the lag off the engine holds no `History` (`simulations`):
//! writes record nothing and reads take no lock. Strongly consistent reads never look here.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::ApiError;
use crate::catalog::{IndexSchema, TableSchema};
use crate::entry::{self, StorageKey, StoredItem};
use crate::item_cache::{Cached, StoredBody};
use crate::read::{self, Batch, Bound, CollectionRows, EntryRef, Range};

/// How late eventually consistent reads may see writes, and the seed of the draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventualLag {
    /// The largest lag, in seconds.
    pub max_seconds: f64,
    /// The seed of the per-read draws: the same seed, the same answers.
    pub seed: u64,
}

/// Writes between two sweeps of the whole history for versions past the lag.
const SWEEP_EVERY: u64 = 4096;

/// Where an item lives: its table's keyspace and its encoded key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ItemKey {
    keyspace: i64,
    pk: Vec<u8>,
    sk: Vec<u8>,
}

/// The item as it was until a write at `replaced_at` replaced it (`None`: there was none).
#[derive(Debug)]
struct Version {
    replaced_at: f64,
    before: Cached,
}

/// The recent versions of the items written within the lag.
#[derive(Debug)]
pub(crate) struct History {
    lag: EventualLag,
    /// Eventually consistent reads so far: the draw's counter.
    reads: AtomicU64,
    writes: AtomicU64,
    versions: Mutex<HashMap<ItemKey, VecDeque<Version>>>,
}

impl History {
    pub fn new(lag: EventualLag) -> History {
        History {
            lag,
            reads: AtomicU64::new(0),
            writes: AtomicU64::new(0),
            versions: Mutex::new(HashMap::new()),
        }
    }

    /// The lag this history serves.
    pub fn lag(&self) -> EventualLag {
        self.lag
    }

    /// Step 1: the write at `now` of the item at `key` replaced `old`.
    pub fn record(
        &self,
        keyspace: i64,
        key: &StorageKey,
        now: f64,
        old: Option<&StoredItem>,
    ) -> Result<(), ApiError> {
        let before = old
            .map(|old| {
                let body = serde_json::to_string(&old.item).map_err(ApiError::internal)?;
                Ok::<_, ApiError>(Arc::new(StoredBody {
                    body: body.into_boxed_str(),
                    size: old.size,
                }))
            })
            .transpose()?;
        let horizon = now - self.lag.max_seconds;
        let mut versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
        let item = versions
            .entry(ItemKey {
                keyspace,
                pk: key.pk.clone(),
                sk: key.sk.clone(),
            })
            .or_default();
        while item.front().is_some_and(|v| v.replaced_at < horizon) {
            item.pop_front();
        }
        item.push_back(Version {
            replaced_at: now,
            before,
        });
        if self.writes.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            versions.retain(|_, item| item.back().is_some_and(|v| v.replaced_at >= horizon));
        }
        Ok(())
    }

    /// Step 2: the time an eventually consistent read made at `now` sees the data as of.
    pub fn as_of(&self, now: f64) -> f64 {
        let n = self.reads.fetch_add(1, Ordering::Relaxed);
        now - self.lag.max_seconds * unit(self.lag.seed, n)
    }

    /// Step 3: the item at `key` as of `as_of`: the older version it had then, or `None` when
    /// the latest committed version is what a read at `as_of` sees.
    pub fn seen(&self, keyspace: i64, key: &StorageKey, as_of: f64) -> Option<Cached> {
        let versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
        let item = ItemKey {
            keyspace,
            pk: key.pk.clone(),
            sk: key.sk.clone(),
        };
        versions
            .get(&item)
            .and_then(|v| v.iter().find(|v| v.replaced_at > as_of))
            .map(|version| version.before.clone())
    }
}

impl History {
    /// Step 4 (Query): the items of the table in `keyspace` written after `as_of`, each with
    /// its version at `as_of` (`None`: it did not exist).
    pub fn changed_since(&self, keyspace: i64, as_of: f64) -> Vec<(StorageKey, Cached)> {
        let versions = self.versions.lock().unwrap_or_else(|p| p.into_inner());
        versions
            .iter()
            .filter(|(item, _)| item.keyspace == keyspace)
            .filter_map(|(item, versions)| {
                let version = versions.iter().find(|v| v.replaced_at > as_of)?;
                let key = StorageKey {
                    pk: item.pk.clone(),
                    sk: item.sk.clone(),
                };
                Some((key, version.before.clone()))
            })
            .collect()
    }
}

/// An entry as owned parts: `(pk, sk, tail, body, size)`.
type OwnedEntry = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, u64);

/// Step 4: the collection `pk` of `index` (or of the table, `None`) as it was when the items
/// in `changed` had the versions given there: the collection as committed, read whole, with
/// each changed item's entry taken out and its earlier version's entry (if it had one, and it
/// was in this collection) put in, in key order.
///
/// Also whether that differs from the collection as committed (an entry taken out or put in):
/// whether the Query sees an older version of it, which the engine counts per table.
pub(crate) async fn collection_as_of(
    conn: &mut sqlx::SqliteConnection,
    table: &TableSchema,
    index: Option<&IndexSchema>,
    pk: &[u8],
    changed: &[(StorageKey, Cached)],
) -> Result<(CollectionRows, bool), ApiError> {
    rows_as_of(conn, table, index, Some(pk), changed).await
}

/// Step 5 (Scan): the whole table, or the whole of `index`, as it was when the items in
/// `changed` had the versions given there, as [`collection_as_of`] makes one collection; a
/// lagged Scan reads its page from it (`read::page`, a keyspace held in memory).
pub(crate) async fn keyspace_as_of(
    conn: &mut sqlx::SqliteConnection,
    table: &TableSchema,
    index: Option<&IndexSchema>,
    changed: &[(StorageKey, Cached)],
) -> Result<(CollectionRows, bool), ApiError> {
    rows_as_of(conn, table, index, None, changed).await
}

/// The entries of `index` (or of the table) in the collection `pk` (every collection, `None`)
/// as of the versions in `changed`, and whether they differ from those committed.
async fn rows_as_of(
    conn: &mut sqlx::SqliteConnection,
    table: &TableSchema,
    index: Option<&IndexSchema>,
    pk: Option<&[u8]>,
    changed: &[(StorageKey, Cached)],
) -> Result<(CollectionRows, bool), ApiError> {
    let whole = Range {
        keyspace: index.map_or(table.keyspace, |i| i.keyspace),
        pk: pk.map(<[u8]>::to_vec),
        lower: Bound::Unbounded,
        upper: Bound::Unbounded,
        forward: true,
        start_after: None,
        segment: None,
    };
    let committed = read::fetch(conn, &whole, None, i64::MAX).await?;
    let mut entries: Vec<OwnedEntry> = committed
        .entries()
        .iter()
        .map(|e| {
            (
                e.pk.to_vec(),
                e.sk.to_vec(),
                e.tail.to_vec(),
                e.body.to_vec(),
                e.size,
            )
        })
        .collect();
    let committed_len = entries.len();
    let in_range = |entry_pk: &[u8]| pk.is_none_or(|pk| pk == entry_pk);
    let mut put_back = 0;
    for (key, before) in changed {
        // An index entry's tail is its item's primary key (`items::write_item`).
        match index {
            None => entries.retain(|(p, sk, ..)| !(key.pk == *p && *sk == key.sk)),
            Some(_) => {
                let tail = [key.pk.as_slice(), key.sk.as_slice()].concat();
                entries.retain(|(_, _, t, ..)| *t != tail);
            }
        }
        let Some(before) = before else { continue };
        match index {
            None if in_range(&key.pk) => {
                entries.push((
                    key.pk.clone(),
                    key.sk.clone(),
                    Vec::new(),
                    before.body.as_bytes().to_vec(),
                    before.size,
                ));
                put_back += 1;
            }
            None => {}
            Some(index) => {
                let item = entry::decode_entry(before.body.as_bytes(), before.size as i64)?.item;
                if let Some(entry) = entry::index_entry(table, index, &item)?
                    && in_range(&entry.pk)
                {
                    let body = serde_json::to_vec(entry.projected(&item)).map_err(ApiError::internal)?;
                    let tail = [key.pk.as_slice(), key.sk.as_slice()].concat();
                    entries.push((entry.pk, entry.sk, tail, body, entry.size));
                    put_back += 1;
                }
            }
        }
    }
    // Entries are only taken out, then put back: fewer left than committed means one was taken.
    let saw_older = put_back > 0 || entries.len() - put_back < committed_len;
    entries.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
    let refs: Vec<EntryRef<'_>> = entries
        .iter()
        .map(|(pk, sk, tail, body, size)| EntryRef {
            pk,
            sk,
            tail,
            body,
            size: *size,
        })
        .collect();
    Ok((
        CollectionRows {
            batch: Batch::from_entries(&refs)?,
        },
        saw_older,
    ))
}

/// A number in [0, 1) from `seed` and `n`: SplitMix64 of their mix, top 53 bits.
fn unit(seed: u64, n: u64) -> f64 {
    let mut z = seed ^ n.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::unit;

    #[test]
    fn draws_are_in_the_unit_interval_and_repeat_under_a_seed() {
        let draws: Vec<f64> = (0..1000).map(|n| unit(7, n)).collect();
        assert!(draws.iter().all(|u| (0.0..1.0).contains(u)));
        assert_eq!(draws, (0..1000).map(|n| unit(7, n)).collect::<Vec<_>>());
        assert_ne!(draws, (0..1000).map(|n| unit(8, n)).collect::<Vec<_>>());
        // Spread over the interval, not stuck at one end.
        assert!(draws.iter().any(|u| *u < 0.1) && draws.iter().any(|u| *u > 0.9));
    }
}
