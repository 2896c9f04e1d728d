//! The commands of the IAM Identity Center sign-in (`dynotable_app::sign_in`), and the system
//! browser they open its verification page in.

use dynotable_app::sign_in::SsoSignInPrompt;
use dynotable_app::{App, CommandError};
use dynotable_aws::sso::Browser;

/// The user's default browser, through the `open` crate (`xdg-open`, `open`, `start`).
struct SystemBrowser;

impl Browser for SystemBrowser {
    fn open(&self, url: &str) -> Result<(), String> {
        open::that_detached(url).map_err(|err| err.to_string())
    }
}

/// Starts signing an AWS profile in to IAM Identity Center: opens the verification page in the
/// system browser and returns the code the user checks there.
#[tauri::command]
#[specta::specta]
pub async fn start_sso_sign_in(
    app: tauri::State<'_, App>,
    profile_id: String,
) -> Result<SsoSignInPrompt, CommandError> {
    app.start_sso_sign_in(&profile_id, &SystemBrowser).await
}

/// Waits until the user approves the sign-in in the browser (or refuses, lets it expire, or
/// cancels it).
#[tauri::command]
#[specta::specta]
pub async fn finish_sso_sign_in(app: tauri::State<'_, App>, profile_id: String) -> Result<(), CommandError> {
    app.finish_sso_sign_in(&profile_id).await
}

/// Stops waiting for a sign-in; its `finish_sso_sign_in` answers `CANCELLED`.
#[tauri::command]
#[specta::specta]
pub async fn cancel_sso_sign_in(app: tauri::State<'_, App>, profile_id: String) -> Result<(), CommandError> {
    app.cancel_sso_sign_in(&profile_id).await;
    Ok(())
}
