//! The embedded engine's simulations (issue 18.7): throttling by the capacity rules and
//! eventually consistent reads that lag, switched from the app's settings.
//!
//! The life of a setting:
//! 1. [`App::set_simulations`] checks it, writes it to `embedded/simulations.json` in the data
//!    folder and switches the running engine at once (`Engine::set_simulations`): the next
//!    request is served under it.
//! 2. When the app starts, the embedded engine is opened with the settings last written
//!    ([`saved`]), before any request reaches it; no file means both off.
//! 3. [`App::simulations`] reports the settings and how many requests the engine throttled
//!    since it started; [`App::table_simulations`] adds what they did to one table (requests
//!    throttled on it, reads that saw an older version: `Engine::simulation_counts`), for the
//!    table's Settings view.
//!
//! Only the embedded connection has simulations: every command here answers another
//! connection (AWS, another endpoint) with `EMBEDDED_ONLY` and a sentence saying why.

use std::path::Path;

use dynotable_engine::{Engine, EventualLag, Simulations};

use crate::dto::{SimulationSettings, SimulationStatus, TableSimulations};
use crate::profiles::Connection;
use crate::{App, CommandError, ErrorCode};

/// The settings file, beside the embedded database.
pub(crate) const FILE: &str = "simulations.json";

/// The largest lag a setting may ask for: an hour, as `dynotable-local --eventual-lag`.
const MAX_LAG_MS: u32 = 3_600_000;

impl App {
    /// The simulations the embedded engine runs, and how many requests it throttled; the
    /// connection `profile_id` must be the embedded one.
    pub async fn simulations(&self, profile_id: &str) -> Result<SimulationStatus, CommandError> {
        let engine = self.simulated_engine(profile_id).await?;
        Ok(status(&engine))
    }

    /// What the simulations did to `table` of the embedded engine, with the settings.
    pub async fn table_simulations(
        &self,
        profile_id: &str,
        table: &str,
    ) -> Result<TableSimulations, CommandError> {
        let engine = self.simulated_engine(profile_id).await?;
        let counts = engine
            .simulation_counts(table)
            .map_err(|err| CommandError::from_engine(&err))?;
        let status = status(&engine);
        Ok(TableSimulations {
            table: table.to_owned(),
            settings: status.settings,
            throttled_requests: saturated(counts.throttled_requests),
            lagged_reads: saturated(counts.lagged_reads),
            throttled_on_every_table: status.throttled_requests,
        })
    }

    /// Switches the embedded engine's simulations and keeps the settings for the next launch.
    pub async fn set_simulations(
        &self,
        profile_id: &str,
        settings: SimulationSettings,
    ) -> Result<SimulationStatus, CommandError> {
        let engine = self.simulated_engine(profile_id).await?;
        let simulations = engine_settings(settings)?;
        let path = self.inner.engine_path.with_file_name(FILE);
        let json = serde_json::to_vec_pretty(&settings)
            .map_err(|err| CommandError::new(ErrorCode::Internal, err.to_string()))?;
        std::fs::write(&path, json).map_err(|err| {
            CommandError::new(
                ErrorCode::Internal,
                format!("cannot write {}: {err}", path.display()),
            )
        })?;
        engine.set_simulations(simulations);
        Ok(status(&engine))
    }

    /// The embedded engine, when `profile_id` is its connection; `EMBEDDED_ONLY` for any other
    /// (read from the profile store: no credentials are resolved to say so).
    async fn simulated_engine(&self, profile_id: &str) -> Result<Engine, CommandError> {
        let profile = self.profile_store().await?.get(profile_id).await?;
        if profile.connection != Connection::Embedded {
            return Err(CommandError::new(
                ErrorCode::EmbeddedOnly,
                format!(
                    "{} is not the embedded engine. Throttling on demand and lagging reads are simulations of DynoTable's embedded engine; DynamoDB throttles and serves eventually consistent reads on its own.",
                    profile.name
                ),
            ));
        }
        self.engine().await
    }
}

/// `n`, or `u32::MAX` past it.
fn saturated(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The engine's settings for `settings`, or the reason they are refused.
fn engine_settings(settings: SimulationSettings) -> Result<Simulations, CommandError> {
    let eventual_lag = match settings.eventual_lag_ms {
        None => None,
        Some(ms) if (1..=MAX_LAG_MS).contains(&ms) => Some(EventualLag {
            max_seconds: f64::from(ms) / 1000.0,
            seed: u64::from(settings.seed),
        }),
        Some(ms) => {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!("The eventual-consistency lag must be from 1 to {MAX_LAG_MS} ms, not {ms}."),
            ));
        }
    };
    Ok(Simulations {
        enforce_capacity: settings.enforce_capacity,
        eventual_lag,
    })
}

/// The engine's simulations as settings, with its count of throttled requests.
fn status(engine: &Engine) -> SimulationStatus {
    let simulations = engine.simulations();
    SimulationStatus {
        settings: SimulationSettings {
            enforce_capacity: simulations.enforce_capacity,
            eventual_lag_ms: simulations
                .eventual_lag
                .map(|lag| (lag.max_seconds * 1000.0).round() as u32),
            seed: simulations
                .eventual_lag
                .map_or(0, |lag| u32::try_from(lag.seed).unwrap_or(u32::MAX)),
        },
        throttled_requests: saturated(engine.throttled_requests()),
    }
}

/// Step 2: the settings written in the folder of the embedded database `database`, for the
/// engine to open with; off when there are none, or they cannot be read (said in the log).
pub(crate) fn saved(database: &Path) -> Simulations {
    let path = database.with_file_name(FILE);
    let Ok(json) = std::fs::read(&path) else {
        return Simulations::default();
    };
    match serde_json::from_slice(&json)
        .map_err(|err| err.to_string())
        .and_then(|s| engine_settings(s).map_err(|err| err.message))
    {
        Ok(simulations) => simulations,
        Err(err) => {
            tracing::warn!(%err, path = %path.display(), "the simulation settings are ignored");
            Simulations::default()
        }
    }
}
