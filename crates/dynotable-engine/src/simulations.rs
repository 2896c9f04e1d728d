//! The switches of the two simulations no local DynamoDB has (issue 18.7): throttling by the
//! capacity rules ([`crate::throttling`], rule B.19) and eventually consistent reads that lag
//! ([`crate::eventual_lag`], rule B.20).
//!
//! Both are set when the engine opens (`Options::enforce_capacity`, `Options::eventual_lag`:
//! `dynotable-local --enforce-capacity --eventual-lag MS --seed N`) and can be switched while it
//! runs ([`Engine::set_simulations`]: the desktop app's settings of its embedded engine). The
//! path of a request with both off reads two atomic flags and nothing else:
//! - [`Engine::call_in`] sends a request through the token buckets only while capacity is
//!   enforced. The buckets and the count of throttled requests outlive a switch off and on: a
//!   bucket is refilled from when it was last used, as unused capacity is banked.
//! - Writes record the versions they replace, and eventually consistent reads look them up,
//!   only while a lag is set. A new lag starts with an empty history: reads see every write made
//!   before it exactly.
//!
//! Per table (by its id, so a table created again starts at zero) the engine counts the
//! requests throttled on it and the eventually consistent reads that saw an older version than
//! the latest ([`Engine::simulation_counts`], shown in the app's table settings).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use crate::capacity::ReadKind;
use crate::catalog::TableSchema;
use crate::entry::StorageKey;
use crate::eventual_lag::{EventualLag, History};
use crate::item_cache::Cached;
use crate::throttling::Throttling;
use crate::{ApiError, Engine};

/// Which simulations an engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Simulations {
    /// Throttle requests by provisioned throughput, burst capacity and the per-partition
    /// ceilings (`Options::enforce_capacity`).
    pub enforce_capacity: bool,
    /// Let eventually consistent reads see writes up to this late (`Options::eventual_lag`).
    pub eventual_lag: Option<EventualLag>,
}

/// What the simulations did to one table since the engine opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TableSimulationCounts {
    /// Requests refused with `ProvisionedThroughputExceededException` (or a batch's requests on
    /// the table returned unprocessed, or a transaction cancelled) because of this table.
    pub throttled_requests: u64,
    /// Eventually consistent reads of the table that saw an older version than the latest:
    /// a GetItem or BatchGetItem item, or a Query of a collection of the table (not of an
    /// index) with a write it did not see yet (rule B.20).
    pub lagged_reads: u64,
}

/// The simulations' state in an engine.
#[derive(Debug)]
pub(crate) struct Simulators {
    enforcing: AtomicBool,
    /// The token buckets, kept while capacity is not enforced.
    pub throttling: Throttling,
    lagging: AtomicBool,
    /// The versions eventually consistent reads may still see (`None`: reads do not lag).
    history: RwLock<Option<Arc<History>>>,
    /// Reads that saw an older version, per table id.
    lagged: Mutex<HashMap<String, u64>>,
}

impl Simulators {
    pub fn new(simulations: Simulations) -> Simulators {
        let simulators = Simulators {
            enforcing: AtomicBool::new(false),
            throttling: Throttling::default(),
            lagging: AtomicBool::new(false),
            history: RwLock::new(None),
            lagged: Mutex::new(HashMap::new()),
        };
        simulators.set(simulations);
        simulators
    }

    fn set(&self, simulations: Simulations) {
        self.enforcing
            .store(simulations.enforce_capacity, Ordering::Release);
        let mut history = self.history.write().unwrap_or_else(|p| p.into_inner());
        if history.as_ref().map(|h| h.lag()) != simulations.eventual_lag {
            *history = simulations.eventual_lag.map(|lag| Arc::new(History::new(lag)));
        }
        self.lagging
            .store(simulations.eventual_lag.is_some(), Ordering::Release);
    }

    fn get(&self) -> Simulations {
        Simulations {
            enforce_capacity: self.enforce_capacity(),
            eventual_lag: self.history().map(|h| h.lag()),
        }
    }

    /// Whether requests go through the token buckets now.
    pub fn enforce_capacity(&self) -> bool {
        self.enforcing.load(Ordering::Acquire)
    }

    /// Where writes record the versions they replace, while reads lag.
    pub fn history(&self) -> Option<Arc<History>> {
        if !self.lagging.load(Ordering::Acquire) {
            return None;
        }
        self.history.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Counts a read of the table `table_id` that saw an older version.
    fn lagged(&self, table_id: &str) {
        let mut lagged = self.lagged.lock().unwrap_or_else(|p| p.into_inner());
        *lagged.entry(table_id.to_owned()).or_default() += 1;
    }

    fn lagged_on(&self, table_id: &str) -> u64 {
        let lagged = self.lagged.lock().unwrap_or_else(|p| p.into_inner());
        lagged.get(table_id).copied().unwrap_or(0)
    }
}

impl Engine {
    /// Switches the simulations on or off, at once: the next request is served by the new
    /// settings (requests in flight finish under the old ones).
    pub fn set_simulations(&self, simulations: Simulations) {
        self.inner.simulations.set(simulations);
    }

    /// The simulations the engine runs now.
    pub fn simulations(&self) -> Simulations {
        self.inner.simulations.get()
    }

    /// How many requests were throttled (refused with `ProvisionedThroughputExceededException`,
    /// or a batch's tables returned unprocessed) since the engine opened.
    pub fn throttled_requests(&self) -> u64 {
        self.inner.simulations.throttling.throttled()
    }

    /// What the simulations did to `table` (a name or an ARN) since the engine opened.
    pub fn simulation_counts(&self, table: &str) -> Result<TableSimulationCounts, ApiError> {
        let table = self.table(table)?;
        let simulations = &self.inner.simulations;
        Ok(TableSimulationCounts {
            throttled_requests: simulations.throttling.throttled_on(&table.table_id),
            lagged_reads: simulations.lagged_on(&table.table_id),
        })
    }

    /// The items of `table` an eventually consistent range read (Query) does not see yet, with
    /// the versions it sees instead, when reads lag (`eventual_lag`, step 4); `None` for every
    /// other read, without a lag, or when nothing was written within it.
    pub(crate) fn unseen_writes(
        &self,
        table: &TableSchema,
        kind: ReadKind,
    ) -> Option<Vec<(StorageKey, Cached)>> {
        if kind != ReadKind::Eventual {
            return None;
        }
        let history = self.inner.simulations.history()?;
        let changed = history.changed_since(table.keyspace, history.as_of(self.now()));
        (!changed.is_empty()).then_some(changed)
    }

    /// Counts a Query (of the table's collection or an index's) or a Scan of `table` that saw
    /// an older version of what it read than the latest.
    pub(crate) fn count_lagged_query(&self, table: &TableSchema) {
        self.inner.simulations.lagged(&table.table_id);
    }

    /// The item at `key` as a read of `kind` sees it, given `current`, the latest committed
    /// version: an eventually consistent read may see an older one when reads lag
    /// (`eventual_lag`); every other read, and every read without a lag, sees `current`.
    pub(crate) fn as_read(
        &self,
        table: &TableSchema,
        key: &StorageKey,
        kind: ReadKind,
        current: Cached,
    ) -> Cached {
        if kind != ReadKind::Eventual {
            return current;
        }
        let Some(history) = self.inner.simulations.history() else {
            return current;
        };
        let as_of = history.as_of(self.now());
        match history.seen(table.keyspace, key, as_of) {
            Some(older) => {
                self.inner.simulations.lagged(&table.table_id);
                older
            }
            None => current,
        }
    }
}
