//! Tauri commands: one-line adapters over `dynotable_app::App`. Each command here must also be
//! listed in `src-tauri/build.rs` (its permission) and granted in `src-tauri/capabilities/`.

use dynotable_app::dto::AppInfo;
use dynotable_app::{App, CommandError};

/// The app's version, data folder and the embedded engine's state.
#[tauri::command]
#[specta::specta]
pub async fn app_info(app: tauri::State<'_, App>) -> Result<AppInfo, CommandError> {
    app.app_info().await
}
