//! Updates (issue 19, point 7), through `tauri-plugin-updater`: nothing is asked of the network
//! until the user chooses Help → Check for updates.
//!
//! The life of an update:
//! 1. [`check`] asks the release endpoint (`plugins.updater.endpoints` in `tauri.conf.json`) for
//!    its manifest (`latest.json`: a version, notes, a date, and per platform a download URL and
//!    the minisign signature of the file there). An older or equal version is no update. The
//!    offer is kept in [`Updates`], so the one installed is the one the user was shown.
//! 2. [`install`] downloads that file, reporting progress, and checks its signature against the
//!    public key built into the app (`plugins.updater.pubkey`). The signature must also carry
//!    the offered version (`requireSignedVersion`), so a manifest cannot pass an older signed
//!    release off as a newer one. A file that fails either check is dropped: nothing is changed.
//! 3. The plugin installs it as the platform does: on Linux the AppImage is replaced, or the .deb
//!    installed with `dpkg -i` (after a password prompt); on macOS the .app bundle is replaced;
//!    then the shell restarts the app ([`crate::commands::updates::install_update`]). On Windows
//!    the plugin starts the MSI or NSIS installer and exits the process itself; the installer
//!    starts the new version.
//!
//! The release workflow merges the project's public key into the config (`tauri build --config`);
//! a build from source has none and says so instead of checking. Debug builds also read
//! `DYNOTABLE_UPDATE_ENDPOINT` and `DYNOTABLE_UPDATE_PUBKEY`, for the tests' update server on
//! loopback; release builds ignore both.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use dynotable_app::{CommandError, ErrorCode};
use serde::Serialize;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_updater::{Error as UpdaterError, Update, UpdaterExt};

/// Debug builds only: the update manifest's URL, replacing the configured endpoints.
pub const ENDPOINT_VAR: &str = "DYNOTABLE_UPDATE_ENDPOINT";
/// Debug builds only: the public key (as `tauri signer generate` prints it), replacing the
/// configured one.
pub const PUBKEY_VAR: &str = "DYNOTABLE_UPDATE_PUBKEY";

/// How long one request to the update server may take before the check gives up.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A newer version the update server offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UpdateOffer {
    pub version: String,
    pub current_version: String,
    /// The release notes, as the manifest gives them.
    pub notes: Option<String>,
    /// The release date, RFC 3339.
    pub date: Option<String>,
}

/// What an install reports while it works.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(tag = "stage", rename_all = "camelCase")]
pub enum UpdateProgress {
    /// Bytes downloaded so far, of `total` when the server said (numbers for the UI: a download
    /// is far below 2^53 bytes).
    #[serde(rename_all = "camelCase")]
    Downloading { bytes: f64, total: Option<f64> },
    /// Downloaded and its signature checked; now installing.
    Installing,
}

/// Where updates come from, and where they go: the plugin's configuration unless overridden.
#[derive(Debug, Clone, Default)]
pub struct Source {
    pub endpoint: Option<tauri::Url>,
    pub pubkey: Option<String>,
    /// The executable an install replaces (tests install into a scratch copy).
    pub executable: Option<PathBuf>,
}

impl Source {
    /// The configured source; in a debug build, with the test variables applied.
    pub fn from_build() -> Source {
        Source::from_variables(cfg!(debug_assertions), |name| std::env::var(name).ok())
    }

    /// The source `variable` (the environment) gives: the configured one, unless `debug`.
    fn from_variables(debug: bool, variable: impl Fn(&str) -> Option<String>) -> Source {
        if !debug {
            return Source::default();
        }
        Source {
            endpoint: variable(ENDPOINT_VAR).and_then(|url| url.parse().ok()),
            pubkey: variable(PUBKEY_VAR),
            executable: None,
        }
    }
}

/// The updater's state in the app: its source, the offer the user was last shown, and the
/// install running, if any.
pub struct Updates {
    source: Source,
    offer: Mutex<Option<Update>>,
    /// Set while [`install`] runs: a second install is refused.
    installing: AtomicBool,
    /// Stops the running download ([`cancel`]). The UI offers Cancel once the download has
    /// reported progress, so the install is waiting on this by then.
    cancel: tokio::sync::Notify,
}

impl Updates {
    pub fn new(source: Source) -> Updates {
        Updates {
            source,
            offer: Mutex::new(None),
            installing: AtomicBool::new(false),
            cancel: tokio::sync::Notify::new(),
        }
    }
}

/// Clears [`Updates::installing`] however the install ends.
struct Installing<'a>(&'a AtomicBool);

impl Drop for Installing<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

/// Where an error happened, for its sentence.
#[derive(Clone, Copy)]
enum Stage {
    Check,
    Install,
}

/// Asks the update server whether a newer version exists; `None` when this one is the newest.
pub async fn check<R: Runtime>(app: &AppHandle<R>) -> Result<Option<UpdateOffer>, CommandError> {
    let updates = app.state::<Updates>();
    let updater = updater(app, &updates.source)?;
    let found = updater.check().await.map_err(|err| explain(&err, Stage::Check))?;
    let offer = found.as_ref().map(|update| UpdateOffer {
        version: update.version.clone(),
        current_version: update.current_version.clone(),
        notes: update.body.clone().filter(|notes| !notes.trim().is_empty()),
        date: update
            .date
            .and_then(|date| date.format(&time::format_description::well_known::Rfc3339).ok()),
    });
    *updates
        .offer
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = found;
    Ok(offer)
}

/// Downloads the offer [`check`] found, which must be `version` (the one the user was shown),
/// checks its signature and installs it. The caller restarts the app afterwards.
pub async fn install<R: Runtime>(
    app: &AppHandle<R>,
    version: &str,
    mut on_progress: impl FnMut(UpdateProgress),
) -> Result<(), CommandError> {
    let updates = app.state::<Updates>();
    if updates.installing.swap(true, Ordering::SeqCst) {
        return Err(CommandError::new(
            ErrorCode::UpdateUnavailable,
            "An update is being installed already.",
        ));
    }
    let _installing = Installing(&updates.installing);
    let update = updates
        .offer
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .clone()
        .filter(|update| update.version == version)
        .ok_or_else(|| {
            CommandError::new(
                ErrorCode::UpdateUnavailable,
                format!("DynoTable {version} is not the update last found: check for updates again."),
            )
        })?;
    let mut bytes = 0u64;
    let download = update.download(
        |chunk, total| {
            bytes += chunk as u64;
            on_progress(UpdateProgress::Downloading {
                bytes: bytes as f64,
                total: total.map(|total| total as f64),
            });
        },
        || {},
    );
    let file = tokio::select! {
        file = download => file.map_err(|err| explain(&err, Stage::Install))?,
        () = updates.cancel.notified() => {
            return Err(CommandError::new(
                ErrorCode::Cancelled,
                "The download was cancelled. Nothing was installed.",
            ));
        }
    };
    // Past this point the install is not stopped half-way. It writes files, or waits on `dpkg`
    // and its password prompt: off the async runtime, which other commands share.
    on_progress(UpdateProgress::Installing);
    let installer = update.clone();
    tokio::task::spawn_blocking(move || installer.install(&file))
        .await
        .map_err(|err| {
            CommandError::new(
                ErrorCode::Internal,
                format!("The install stopped unexpectedly ({err})."),
            )
        })?
        .map_err(|err| explain(&err, Stage::Install))?;
    *updates
        .offer
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    Ok(())
}

/// Stops the download [`install`] is running, if any; an install already writing goes on.
pub fn cancel<R: Runtime>(app: &AppHandle<R>) {
    app.state::<Updates>().cancel.notify_waiters();
}

fn updater<R: Runtime>(
    app: &AppHandle<R>,
    source: &Source,
) -> Result<tauri_plugin_updater::Updater, CommandError> {
    let configured_key = app
        .config()
        .plugins
        .0
        .get("updater")
        .and_then(|config| config.get("pubkey"))
        .and_then(|key| key.as_str())
        .unwrap_or_default()
        .to_owned();
    let key = source.pubkey.clone().unwrap_or(configured_key);
    if key.trim().is_empty() {
        return Err(CommandError::new(
            ErrorCode::UpdateUnavailable,
            "This build of DynoTable was made from source and carries no update key, so it cannot \
             check for updates. Install a release from the project's releases page, or build the \
             newer source with `make app`.",
        ));
    }
    // The plugin decodes the key only to verify a download; a key that cannot be read is this
    // build's fault, not the download's, and is said before anything is asked.
    if !key_is_readable(&key) {
        return Err(CommandError::new(
            ErrorCode::UpdateUnavailable,
            "This build's update key cannot be read, so it cannot check for updates. Install a \
             release from the project's releases page.",
        ));
    }
    let mut builder = app.updater_builder().pubkey(key).timeout(TIMEOUT);
    if let Some(endpoint) = &source.endpoint {
        builder = builder
            .endpoints(vec![endpoint.clone()])
            .map_err(|err| explain(&err, Stage::Check))?;
    }
    if let Some(executable) = &source.executable {
        builder = builder.executable_path(executable);
    }
    builder.build().map_err(|err| explain(&err, Stage::Check))
}

/// Whether `key` is a minisign public key as `tauri signer generate` writes it (the base64 of
/// its `.pub` file), the form the plugin expects.
fn key_is_readable(key: &str) -> bool {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(key.trim())
        .ok()
        .and_then(|file| String::from_utf8(file).ok())
        .is_some_and(|file| minisign_verify::PublicKey::decode(&file).is_ok())
}

/// The plugin's error as a code and a sentence for people (the plugin's own text is for logs).
fn explain(err: &UpdaterError, stage: Stage) -> CommandError {
    tracing::warn!(error = %err, "update failed");
    let (code, message) = match err {
        UpdaterError::Reqwest(err) if err.is_decode() => (
            ErrorCode::Network,
            "The update server's answer is not a release manifest DynoTable can read.".to_owned(),
        ),
        UpdaterError::Reqwest(_) | UpdaterError::Network(_) | UpdaterError::ReleaseNotFound => (
            ErrorCode::Network,
            "DynoTable could not reach its update server, or the server gave no release. Check the \
             network connection and try again later."
                .to_owned(),
        ),
        UpdaterError::Serialization(_) | UpdaterError::Semver(_) | UpdaterError::UrlParse(_) => (
            ErrorCode::Network,
            "The update server's answer is not a release manifest DynoTable can read.".to_owned(),
        ),
        UpdaterError::Minisign(_)
        | UpdaterError::Base64(_)
        | UpdaterError::SignatureUtf8(_)
        | UpdaterError::SignedVersionMismatch { .. }
        | UpdaterError::MissingSignedVersion => (
            ErrorCode::UpdateRejected,
            "The downloaded update is not signed with DynoTable's release key for the version \
             offered, so it was not installed. Nothing was changed."
                .to_owned(),
        ),
        UpdaterError::TargetNotFound(target) => (
            ErrorCode::UpdateUnavailable,
            format!("The newest release has no build for this system ({target})."),
        ),
        UpdaterError::TargetsNotFound(targets) => (
            ErrorCode::UpdateUnavailable,
            format!(
                "The newest release has no build for this system ({}).",
                targets.join(", ")
            ),
        ),
        UpdaterError::UnsupportedOs
        | UpdaterError::UnsupportedArch
        | UpdaterError::InsecureTransportProtocol => (
            ErrorCode::UpdateUnavailable,
            "Updates are not available for this system or this build.".to_owned(),
        ),
        UpdaterError::AuthenticationFailed => (
            ErrorCode::Cancelled,
            "The install was not authorised (the password prompt was closed or refused). Nothing \
             was installed."
                .to_owned(),
        ),
        UpdaterError::PreviousAppNotRestored(path) => (
            ErrorCode::Internal,
            format!(
                "The update could not be installed, and the previous version could not be put back: \
                 it is at {}. Install DynoTable again from the project's releases page.",
                path.display()
            ),
        ),
        other => match stage {
            Stage::Check => (
                ErrorCode::Internal,
                format!("DynoTable could not check for updates ({other})."),
            ),
            Stage::Install => (
                ErrorCode::Internal,
                format!(
                    "The update was downloaded and its signature checked, but it could not be \
                     installed ({other}). The installed version is unchanged."
                ),
            ),
        },
    };
    CommandError::new(code, message)
}

// The tests install an ELF file in place of a Linux executable, as on Linux.
#[cfg(all(test, target_os = "linux"))]
mod tests;
