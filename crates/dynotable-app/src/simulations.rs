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
//!    since it started, for the status bar.

use std::path::Path;

use dynotable_engine::{Engine, EventualLag, Simulations};

use crate::dto::{SimulationSettings, SimulationStatus};
use crate::{App, CommandError, ErrorCode};

/// The settings file, beside the embedded database.
pub(crate) const FILE: &str = "simulations.json";

/// The largest lag a setting may ask for: an hour, as `dynotable-local --eventual-lag`.
const MAX_LAG_MS: u32 = 3_600_000;

impl App {
    /// The simulations the embedded engine runs, and how many requests it throttled.
    pub async fn simulations(&self) -> Result<SimulationStatus, CommandError> {
        let engine = self.engine().await?;
        Ok(status(&engine))
    }

    /// Switches the embedded engine's simulations and keeps the settings for the next launch.
    pub async fn set_simulations(
        &self,
        settings: SimulationSettings,
    ) -> Result<SimulationStatus, CommandError> {
        let simulations = engine_settings(settings)?;
        let engine = self.engine().await?;
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
        throttled_requests: u32::try_from(engine.throttled_requests()).unwrap_or(u32::MAX),
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
