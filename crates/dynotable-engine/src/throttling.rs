//! `Options::enforce_capacity` (`dynotable-local --enforce-capacity`): requests throttled as
//! the service throttles them, with `ProvisionedThroughputExceededException`, so that an SDK's
//! retry and back-off code meets throttling on a laptop (rule B.19, docs/dynamodb-rules.md).
//!
//! The life of a request when capacity is enforced:
//!
//! 1. [`Engine::call_in`](crate::Engine::call_in) hands the request to [`Throttling::run`],
//!    with the call of `dispatch` to run it once admitted (this module sits below the
//!    operations: `params` records their charges here). With the switch off (`simulations`)
//!    nothing here runs.
//! 2. The request's target is read from its body ([`Target`]): the table (or the tables of a
//!    batch), the index a Query or Scan reads, and the partitions it reads or writes, each keyed
//!    by its canonical partition-key value: a single-item request's, a Query's (of the table or
//!    a local index), each action's of a transaction and each request's of a batch
//!    ([`batch_entries`]). A body that does not parse is left to the operation to refuse.
//! 3. Admission: every token bucket the request draws on is refilled up to the engine's clock
//!    (`clock.rs`; tests move a `ManualClock`, or run `dynotable-local --clock-step`, whose
//!    `RequestClock` moves a step a request) and must hold at least one unit. The buckets:
//!    - a provisioned table's reads and writes: refilled at its provisioned units per second
//!      and holding up to 300 seconds of them (burst capacity), full when first seen;
//!    - a provisioned global secondary index's reads and writes, the same way; a write to the
//!      table draws on every such index's write bucket too, as the service throttles table
//!      writes when an index cannot keep up;
//!    - one partition-key value's reads and writes, on provisioned and on-demand tables alike:
//!      3,000 read and 1,000 write units per second, with one second of burst (burst capacity
//!      does not lift the per-partition ceiling).
//!
//!    A request that finds a bucket empty is refused with the service's exception, message and
//!    `ThrottlingReasons`, and counted, once in all and once for each table it was throttled on
//!    ([`Throttling::throttled`], [`Throttling::throttled_on`]); it changes nothing.
//! 4. The operation runs inside a charge scope: every ConsumedCapacity an operation works out
//!    (`params::consumed_capacity`, whether or not the client asked for the report) is recorded
//!    ([`record`]), so what is charged is exactly what ConsumedCapacity would report.
//! 5. The recorded charges are taken from the buckets, which may go into debt: a large request
//!    is admitted while a unit is left, and the next ones wait until the debt is refilled.
//!
//! A BatchGetItem or BatchWriteItem runs without the requests on its throttled tables and hot
//! partitions and returns them as `UnprocessedKeys` / `UnprocessedItems`; it fails when none is
//! left (rule B.19.6). A transaction with a throttled action is cancelled
//! (`TransactionCanceledException`, a `ProvisionedThroughputExceeded` reason for a table or
//! index, `ThrottlingError` for a partition, for that action). A batch or a transaction
//! records, besides each table's charge, each item's own units ([`record_item`]: its size
//! rounded as rule B.3 rounds it), which fall on that item's partition alone: a big item makes
//! its partition hot, not the small ones beside it.
//! PartiQL statements are charged but never throttled (docs/compatibility.md).

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::capacity::Charge;
use crate::catalog::{Billing, IndexKind, TableSchema, Throughput};
use crate::error::ThrottlingReason;
use crate::{ApiError, Engine, ErrorKind};

mod draws;
mod unprocessed;

use draws::{BatchEntry, PartitionShare, batch_entries, bucket, draws};
use unprocessed::{canceled, set_aside_requests, with_unprocessed};

/// Rule B.19: DynamoDB retains up to 300 seconds of unused provisioned capacity (burst).
pub const BURST_SECONDS: f64 = 300.0;
/// Rule B.11: one partition serves at most 3,000 read units per second.
pub const PARTITION_READ_UNITS: f64 = 3000.0;
/// Rule B.11: one partition serves at most 1,000 write units per second.
pub const PARTITION_WRITE_UNITS: f64 = 1000.0;
/// A bucket holds at least this much for a request to be admitted (rule B.19).
const ADMIT_UNITS: f64 = 1.0;
/// Partition buckets kept before the full ones are forgotten (a full bucket is a new one).
const MAX_PARTITION_BUCKETS: usize = 65_536;

/// The message of a table over its provisioned throughput (rule B.19; the service's words).
pub const TABLE_MESSAGE: &str = "The level of configured provisioned throughput for the table was exceeded. \
     Consider increasing your provisioning level with the UpdateTable API.";
/// The message of a global secondary index over its provisioned throughput (rule B.19).
pub const INDEX_MESSAGE: &str = "The level of configured provisioned throughput for one or more global \
     secondary indexes of the table was exceeded. Consider increasing your provisioning level for the \
     under-provisioned global secondary indexes with the UpdateTable API";
/// The message of a partition over its ceiling (a hot key; rule B.19).
pub const KEY_RANGE_MESSAGE: &str = "Throughput exceeds the current capacity of your table or index. \
     DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions \
     persist, check if you have a hot key: \
     https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";

/// Reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Direction {
    Read,
    Write,
}

/// What a bucket meters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Meter {
    /// A provisioned table's capacity.
    Table,
    /// A provisioned global secondary index's capacity.
    Index(String),
    /// One partition-key value of the table, in its canonical key encoding (the number 1.0 and
    /// the number 1 are one partition, as they are one key).
    Partition(Vec<u8>),
}

/// A bucket's identity: the table (by its id, so a table created again starts afresh), what it
/// meters, and the direction.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct BucketKey {
    table_id: String,
    meter: Meter,
    direction: Direction,
}

/// A token bucket: `tokens` units at time `at` (seconds on the engine's clock).
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: f64,
}

/// How fast a bucket refills and how much it holds.
#[derive(Debug, Clone, Copy)]
struct Limit {
    per_second: f64,
    holds: f64,
}

impl Limit {
    fn provisioned(throughput: Throughput, direction: Direction) -> Limit {
        let per_second = match direction {
            Direction::Read => throughput.read,
            Direction::Write => throughput.write,
        } as f64;
        Limit {
            per_second,
            holds: per_second * BURST_SECONDS,
        }
    }

    fn partition(direction: Direction) -> Limit {
        let per_second = match direction {
            Direction::Read => PARTITION_READ_UNITS,
            Direction::Write => PARTITION_WRITE_UNITS,
        };
        Limit {
            per_second,
            holds: per_second,
        }
    }
}

impl Bucket {
    /// The bucket at `now`: refilled, never above what it holds.
    fn refilled(self, limit: Limit, now: f64) -> Bucket {
        let elapsed = (now - self.at).max(0.0);
        Bucket {
            tokens: (self.tokens + elapsed * limit.per_second).min(limit.holds),
            at: now.max(self.at),
        }
    }
}

/// One bucket a request draws on, with why it would be throttled.
struct Draw {
    key: BucketKey,
    limit: Limit,
    /// `{Table|Index}{Read|Write}{...}` and the resource's ARN.
    reason: ThrottlingReason,
    message: &'static str,
}

/// The engine's buckets and the count of throttled requests.
#[derive(Debug, Default)]
pub(crate) struct Throttling {
    buckets: Mutex<HashMap<BucketKey, Bucket>>,
    throttled: AtomicU64,
    /// Throttled requests per table, by table id (a table created again starts at zero).
    throttled_tables: Mutex<HashMap<String, u64>>,
}

/// A table a request was throttled on: the name the request gave it, the table's id, and the
/// error of its first empty bucket.
struct Empty {
    name: String,
    table_id: String,
    err: ApiError,
}

/// What a request's body names, as far as throttling needs it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Target {
    table_name: Option<String>,
    index_name: Option<String>,
    key: Option<BTreeMap<String, serde_json::Value>>,
    item: Option<BTreeMap<String, serde_json::Value>>,
    request_items: Option<BTreeMap<String, IgnoredAny>>,
    transact_items: Option<Vec<serde_json::Value>>,
}

/// One table's charge, as an operation worked it out (see [`record`]).
#[derive(Debug)]
struct Recorded {
    table_id: String,
    billing: Billing,
    base: Option<Charge>,
    /// `(index name, kind, its provisioned throughput, charge)`.
    indexes: Vec<(String, IndexKind, Option<Throughput>, Charge)>,
}

/// One item's charge in a batch or a transaction, for its partition (see [`record_item`]).
#[derive(Debug)]
struct ItemCharge {
    table_id: String,
    pk: Vec<u8>,
    charge: Charge,
}

/// What a request recorded while it ran: each table's charge, and each item's of a batch or
/// transaction.
#[derive(Debug, Default)]
struct Charges {
    tables: Vec<Recorded>,
    items: Vec<ItemCharge>,
}

tokio::task_local! {
    static CHARGES: RefCell<Charges>;
}

/// Records what a request is charged on `table` (step 4): called wherever an operation works
/// out its ConsumedCapacity. Outside a charge scope (capacity not enforced) it does nothing.
pub(crate) fn record(table: &TableSchema, base: Option<Charge>, indexes: &[(usize, Charge)]) {
    let _ = CHARGES.try_with(|charges| {
        charges.borrow_mut().tables.push(Recorded {
            table_id: table.table_id.clone(),
            billing: table.billing,
            base,
            indexes: indexes
                .iter()
                .map(|(position, charge)| {
                    let index = &table.indexes[*position];
                    (index.name.clone(), index.kind, index.throughput, *charge)
                })
                .collect(),
        });
    });
}

/// Records the units one item of a batch or a transaction costs on its partition (the partition
/// key `pk`, canonically encoded as `StorageKey::pk`): its own read or write, rounded per item
/// (rule B.3), and, for a write, its local indexes' entries, which live in its partition (rule
/// B.3: an LSI write consumes the table's capacity). The item's part of its table's charge,
/// which [`record`] takes. Outside a charge scope it does nothing.
pub(crate) fn record_item(
    table: &TableSchema,
    pk: &[u8],
    base: Charge,
    index_units: &[crate::capacity::WriteUnits],
) {
    let local: u64 = table
        .indexes
        .iter()
        .zip(index_units)
        .filter(|(index, _)| index.kind == IndexKind::Local)
        .map(|(_, units)| units.0)
        .sum();
    let charge = match base {
        Charge::Write(units) => Charge::Write(crate::capacity::WriteUnits(units.0 + local)),
        read => read,
    };
    let _ = CHARGES.try_with(|charges| {
        charges.borrow_mut().items.push(ItemCharge {
            table_id: table.table_id.clone(),
            pk: pk.to_vec(),
            charge,
        });
    });
}

/// Forgets what the request recorded so far: an attempt that is undone and run again (a batch
/// of puts first tried as new items) records its charges again.
pub(crate) fn discard_recorded() {
    let _ = CHARGES.try_with(|charges| charges.take());
}

impl Throttling {
    /// How many requests have been throttled since the engine opened.
    pub fn throttled(&self) -> u64 {
        self.throttled.load(Ordering::Relaxed)
    }

    /// How many requests have been throttled on the table `table_id` since the engine opened
    /// (a batch or transaction throttled on two tables counts once on each).
    pub fn throttled_on(&self, table_id: &str) -> u64 {
        let tables = self.throttled_tables.lock().unwrap_or_else(|p| p.into_inner());
        tables.get(table_id).copied().unwrap_or(0)
    }

    /// Counts one throttled request, on each table of `empty`.
    fn count(&self, empty: &[Empty]) {
        self.throttled.fetch_add(1, Ordering::Relaxed);
        let mut ids: Vec<&str> = empty.iter().map(|e| e.table_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut tables = self.throttled_tables.lock().unwrap_or_else(|p| p.into_inner());
        for id in ids {
            *tables.entry(id.to_owned()).or_default() += 1;
        }
    }

    /// Runs the operation `operation` on `body` under the capacity rules (steps 2–5); `dispatch`
    /// runs the request once admitted (on the body left once throttled tables are set aside).
    pub async fn run(
        &self,
        engine: &Engine,
        operation: &str,
        body: &[u8],
        dispatch: impl AsyncFnOnce(&[u8]) -> Result<Vec<u8>, ApiError>,
    ) -> Result<Vec<u8>, ApiError> {
        let target: Target = serde_json::from_slice(body).unwrap_or_default();
        let (groups, partitions) = draws(engine, operation, &target, body);
        let now = engine.now();
        let throttled = self.empty(&groups, now);
        if target.transact_items.is_some() && !throttled.is_empty() {
            // Rule B.19.6: a throttled action cancels its transaction.
            self.count(&throttled);
            return Err(canceled(&groups, &throttled));
        }
        let batch = target.request_items.is_some();
        let mut set_aside = Vec::new();
        let body = if batch {
            // Rule B.19.6: a batch's requests on throttled tables, and on partitions at their
            // ceiling, come back unprocessed; the batch fails only when none is left.
            let whole: Vec<&str> = throttled.iter().map(|e| e.name.as_str()).collect();
            let entries = batch_entries(engine, operation, body);
            let hot = self.hot_entries(&entries, &whole, now);
            if throttled.is_empty() && hot.is_empty() {
                Cow::Borrowed(body)
            } else {
                let first = throttled
                    .first()
                    .map(|e| e.err.clone())
                    .or_else(|| hot.first().map(|(_, err)| err.clone()))
                    .unwrap_or_else(|| ApiError::internal("a throttled batch without an error"));
                let hot_positions: Vec<(String, usize)> = hot.iter().map(|(at, _)| at.clone()).collect();
                let (rest, aside, left) = set_aside_requests(body, operation, &whole, &hot_positions)
                    .ok_or_else(|| first.clone())?;
                let mut empty: Vec<Empty> = throttled;
                empty.extend(hot.iter().map(|((name, _), err)| {
                    Empty {
                        name: name.clone(),
                        table_id: entries
                            .iter()
                            .find(|e| &e.table == name)
                            .map(|e| e.table_id.clone())
                            .unwrap_or_default(),
                        err: err.clone(),
                    }
                }));
                self.count(&empty);
                if left == 0 {
                    return Err(first);
                }
                set_aside = aside;
                Cow::Owned(rest)
            }
        } else {
            if let Some(first) = throttled.first() {
                let err = first.err.clone();
                self.count(&throttled);
                return Err(err);
            }
            Cow::Borrowed(body)
        };
        let (result, charges) = CHARGES
            .scope(RefCell::new(Charges::default()), async {
                let result = dispatch(&body).await;
                (result, CHARGES.with(|charges| charges.take()))
            })
            .await;
        self.charge(&charges, &partitions, now);
        match result {
            Ok(answer) if !set_aside.is_empty() => Ok(with_unprocessed(answer, operation, set_aside)),
            result => result,
        }
    }

    /// The requests of a batch (by table name and position in the table's list) whose
    /// partition has less than a unit left, each with its error; the tables in `whole` are set
    /// aside already.
    fn hot_entries(
        &self,
        entries: &[BatchEntry],
        whole: &[&str],
        now: f64,
    ) -> Vec<((String, usize), ApiError)> {
        if entries.is_empty() {
            return Vec::new();
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let mut hot = Vec::new();
        for entry in entries.iter().filter(|e| !whole.contains(&e.table.as_str())) {
            if bucket(&mut buckets, &entry.draw.key, entry.draw.limit, now).tokens < ADMIT_UNITS {
                let mut err = ApiError::new(
                    ErrorKind::ProvisionedThroughputExceededException,
                    entry.draw.message,
                );
                err.throttling_reasons = Some(vec![entry.draw.reason.clone()]);
                hot.push(((entry.table.clone(), entry.position), err));
            }
        }
        hot
    }

    /// Step 3: the tables (by the name the request gave) with a bucket short of a unit, each
    /// with the error of the first such bucket.
    fn empty(&self, groups: &[(String, Vec<Draw>)], now: f64) -> Vec<Empty> {
        if groups.iter().all(|(_, draws)| draws.is_empty()) {
            return Vec::new();
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        let mut throttled = Vec::new();
        for (name, draws) in groups {
            let empty = draws
                .iter()
                .find(|draw| bucket(&mut buckets, &draw.key, draw.limit, now).tokens < ADMIT_UNITS);
            if let Some(draw) = empty {
                let mut err = ApiError::new(ErrorKind::ProvisionedThroughputExceededException, draw.message);
                err.throttling_reasons = Some(vec![draw.reason.clone()]);
                throttled.push(Empty {
                    name: name.clone(),
                    table_id: draw.key.table_id.clone(),
                    err,
                });
            }
        }
        throttled
    }

    /// Step 5: the charges recorded while the request ran, taken from its buckets.
    fn charge(&self, charges: &Charges, partitions: &[PartitionShare], now: f64) {
        if charges.tables.is_empty() && charges.items.is_empty() {
            return;
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        // Each item of a batch or transaction charges its own partition its own units.
        for item in &charges.items {
            let direction = match item.charge {
                Charge::Read(_) => Direction::Read,
                Charge::Write(_) => Direction::Write,
            };
            let key = BucketKey {
                table_id: item.table_id.clone(),
                meter: Meter::Partition(item.pk.clone()),
                direction,
            };
            bucket(&mut buckets, &key, Limit::partition(direction), now).tokens -= item.charge.units();
        }
        for recorded in &charges.tables {
            let provisioned = match recorded.billing {
                Billing::Provisioned(throughput) => Some(throughput),
                Billing::PayPerRequest => None,
            };
            let mut table_units = [0.0, 0.0];
            let add = |charge: Charge, units: &mut [f64; 2]| match charge {
                Charge::Read(_) => units[0] += charge.units(),
                Charge::Write(_) => units[1] += charge.units(),
            };
            if let Some(base) = recorded.base {
                add(base, &mut table_units);
            }
            for (name, kind, throughput, charge) in &recorded.indexes {
                if *kind == IndexKind::Local {
                    // A local index shares its table's capacity.
                    add(*charge, &mut table_units);
                    continue;
                }
                // An on-demand index has no bucket of its own.
                let Some(throughput) = *throughput else { continue };
                let mut index_units = [0.0, 0.0];
                add(*charge, &mut index_units);
                for (direction, units) in [
                    (Direction::Read, index_units[0]),
                    (Direction::Write, index_units[1]),
                ] {
                    if units <= 0.0 {
                        continue;
                    }
                    let key = BucketKey {
                        table_id: recorded.table_id.clone(),
                        meter: Meter::Index(name.clone()),
                        direction,
                    };
                    bucket(&mut buckets, &key, Limit::provisioned(throughput, direction), now).tokens -=
                        units;
                }
            }
            for (direction, units) in [
                (Direction::Read, table_units[0]),
                (Direction::Write, table_units[1]),
            ] {
                if units <= 0.0 {
                    continue;
                }
                if let Some(throughput) = provisioned {
                    let key = BucketKey {
                        table_id: recorded.table_id.clone(),
                        meter: Meter::Table,
                        direction,
                    };
                    bucket(&mut buckets, &key, Limit::provisioned(throughput, direction), now).tokens -=
                        units;
                }
                for share in partitions.iter().filter(|p| p.table_id == recorded.table_id) {
                    let key = BucketKey {
                        table_id: share.table_id.clone(),
                        meter: Meter::Partition(share.pk.clone()),
                        direction,
                    };
                    bucket(&mut buckets, &key, Limit::partition(direction), now).tokens -= units;
                }
            }
        }
        if buckets.len() > MAX_PARTITION_BUCKETS {
            buckets.retain(|key, bucket| {
                !matches!(key.meter, Meter::Partition(_))
                    || bucket.refilled(Limit::partition(key.direction), now).tokens
                        < Limit::partition(key.direction).holds
            });
        }
    }
}
