//! The commands of Help → Check for updates (`crate::updates`).

use dynotable_app::CommandError;

use crate::updates::{UpdateOffer, UpdateProgress};

/// Asks the update server for a newer version; `null` when this one is the newest.
#[tauri::command]
#[specta::specta]
pub async fn check_for_update(app: tauri::AppHandle) -> Result<Option<UpdateOffer>, CommandError> {
    crate::updates::check(&app).await
}

/// Downloads the offered update (`version`, the one the user was shown), checks its signature,
/// installs it and restarts the app (on Windows the installer exits and restarts it instead).
#[tauri::command]
#[specta::specta]
pub async fn install_update(
    app: tauri::AppHandle,
    version: String,
    on_progress: tauri::ipc::Channel<UpdateProgress>,
) -> Result<(), CommandError> {
    crate::updates::install(&app, &version, |progress| {
        // The window may have closed meanwhile; the install goes on regardless.
        let _ = on_progress.send(progress);
    })
    .await?;
    app.restart()
}

/// Stops the update's download; nothing is installed.
#[tauri::command]
#[specta::specta]
pub async fn cancel_update(app: tauri::AppHandle) -> Result<(), CommandError> {
    crate::updates::cancel(&app);
    Ok(())
}
