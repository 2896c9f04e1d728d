//! Tauri commands: one-line adapters over `dynotable_app::App`. Each command here must also be
//! listed in `src-tauri/build.rs` (its permission) and granted in `src-tauri/capabilities/`.

use dynotable_app::dto::AppInfo;
use dynotable_app::profiles::Profile;
use dynotable_app::{App, CommandError};
use dynotable_aws::client::ConnectionTest;
use dynotable_aws::profiles::AwsProfile;

/// The app's version, data folder and the embedded engine's state.
#[tauri::command]
#[specta::specta]
pub async fn app_info(app: tauri::State<'_, App>) -> Result<AppInfo, CommandError> {
    app.app_info().await
}

/// Every connection profile: the embedded engine's first, then the user's by name.
#[tauri::command]
#[specta::specta]
pub async fn list_profiles(app: tauri::State<'_, App>) -> Result<Vec<Profile>, CommandError> {
    app.profiles().await
}

/// The named profiles of the user's AWS config files.
#[tauri::command]
#[specta::specta]
pub async fn list_aws_profiles(app: tauri::State<'_, App>) -> Result<Vec<AwsProfile>, CommandError> {
    app.aws_profiles().await
}

/// One ListTables on a profile's connection, and what went wrong in plain words.
#[tauri::command]
#[specta::specta]
pub async fn test_connection(
    app: tauri::State<'_, App>,
    profile_id: String,
) -> Result<ConnectionTest, CommandError> {
    app.test_connection(&profile_id).await
}
