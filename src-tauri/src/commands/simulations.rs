//! The commands of the embedded engine's simulations (`dynotable_app::simulations`, issue
//! 18.7): throttling by the capacity rules and eventually consistent reads that lag. Another
//! connection answers `EMBEDDED_ONLY`. The table's Settings view reads the settings with its
//! counts (`table_simulations`), so the window is granted no command that reads them alone.

use dynotable_app::dto::{SimulationSettings, SimulationStatus, TableSimulations};
use dynotable_app::{App, CommandError};

/// Switches the embedded engine's simulations at once, kept for the next launch.
#[tauri::command]
#[specta::specta]
pub async fn set_simulations(
    app: tauri::State<'_, App>,
    profile_id: String,
    settings: SimulationSettings,
) -> Result<SimulationStatus, CommandError> {
    app.set_simulations(&profile_id, settings).await
}

/// What the simulations did to one table of the embedded engine, with the settings.
#[tauri::command]
#[specta::specta]
pub async fn table_simulations(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
) -> Result<TableSimulations, CommandError> {
    app.table_simulations(&profile_id, &table).await
}
