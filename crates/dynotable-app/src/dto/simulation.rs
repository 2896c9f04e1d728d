//! The embedded engine's simulations (issue 18.7) as the settings exchange them with the UI.

use serde::{Deserialize, Serialize};

/// Which simulations the embedded engine runs: what `dynotable-local --enforce-capacity
/// --eventual-lag MS --seed N` sets for the server. Stored in the data folder, so they hold
/// across launches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SimulationSettings {
    /// Throttle requests by provisioned throughput, 300 s of burst and the per-partition
    /// ceilings, with ProvisionedThroughputExceededException (rule B.19).
    pub enforce_capacity: bool,
    /// Let eventually consistent reads see writes up to this many milliseconds late (1 to
    /// 3,600,000); `None` keeps every read exact (rule B.20).
    pub eventual_lag_ms: Option<u32>,
    /// The seed of the lag's per-read draws.
    pub seed: u32,
}

/// The simulations running, and what they did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SimulationStatus {
    pub settings: SimulationSettings,
    /// Requests the embedded engine throttled since it started (at most 2^32 − 1).
    pub throttled_requests: u32,
}

/// The simulations running, and what they did to one table of the embedded engine: what its
/// Settings view shows, polled while it is open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TableSimulations {
    pub table: String,
    pub settings: SimulationSettings,
    /// Requests throttled on this table since the engine started (at most 2^32 − 1): refused
    /// with ProvisionedThroughputExceededException, a batch's requests on it returned
    /// unprocessed, or a transaction cancelled for it (rule B.19).
    pub throttled_requests: u32,
    /// Eventually consistent reads of this table that saw an older version than the latest
    /// (GetItem, BatchGetItem, a Query of the table; rule B.20), since the engine started.
    pub lagged_reads: u32,
    /// Requests the engine throttled on every table.
    pub throttled_on_every_table: u32,
}
