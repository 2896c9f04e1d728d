//! DynoTable's command layer, independent of any window toolkit.
//!
//! The desktop shell (`src-tauri/`) is a set of one-line adapters over this crate: a UI call
//! arrives as a Tauri command, the adapter hands it to [`App`], and the answer (a DTO from
//! [`dto`]) or a [`CommandError`] goes back to the UI, typed by the bindings that tauri-specta
//! generates. Nothing here knows about Tauri, so every command is testable headless.
//!
//! The life of the app today:
//! 1. The shell resolves the data folder ([`data_dir::resolve`]) and calls [`App::start`].
//! 2. `App::start` returns at once and opens the embedded engine in the background, so the window
//!    never waits for the disk; on the first launch it also loads the [`demo`] tables.
//!    [`App::app_info`] reports the engine as `starting` (with what it is doing), then `ready`
//!    (or `failed`, with the reason). The engine runs the simulations the user left on
//!    ([`App::set_simulations`]: throttling, lagging reads), switched on after the demo load.
//! 3. Opening an AWS profile may need the user first: a role behind MFA answers `MFA_REQUIRED`
//!    — again each time its session runs out ([`sessions`]) — and a profile that signs in with
//!    IAM Identity Center but has no usable token answers `SSO_SIGN_IN_REQUIRED`, which the
//!    in-app sign-in clears ([`sign_in`]). Nothing is sent to AWS before.

pub mod builder;
pub mod bulk;
mod cancellation;
pub mod collections;
mod connections;
pub mod costs;
pub mod data_dir;
pub mod deletion;
pub mod demo;
pub mod dto;
mod error;
pub mod files;
pub mod footprint;
pub mod history;
pub mod index_views;
mod kept_rows;
pub mod model_inference;
pub mod modeler;
pub mod new_table;
pub mod partiql;
pub mod profiles;
mod reads;
mod requests;
mod saved;
pub mod scans;
pub mod secrets;
pub mod sessions;
pub mod sharing;
pub mod sign_in;
mod simulations;
pub mod statistics;
pub mod streams;
pub mod table_changes;
pub mod tables;
pub mod transfer;
pub mod ttl;
pub(crate) mod writes;
pub use writes::{Expectation, ItemCheck, ItemProblem, UpdateOutcome, WriteOutcome, check_item};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dynotable_aws::files::AwsFiles;
use dynotable_engine::{Engine, Location};
use tokio::sync::watch;

pub use error::{CommandError, ErrorCode};

use dto::{AppInfo, EngineInfo, EngineState};

/// The state of the embedded engine as the app sees it.
#[derive(Debug, Clone)]
enum EngineSlot {
    Starting,
    /// Another engine holds the database (a window closed a moment ago, still exiting).
    WaitingForRelease,
    LoadingDemo,
    Ready(Engine),
    Failed(String),
}

/// The file whose presence says the demo data was loaded once (so tables the user deletes stay
/// deleted across launches).
const DEMO_MARKER: &str = "demo-loaded";

/// The running application: its data folder, its embedded engine, its connection profiles.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    version: String,
    data_dir: PathBuf,
    engine_path: PathBuf,
    engine: watch::Receiver<EngineSlot>,
    /// Where secrets typed into DynoTable are kept (the OS keychain in the app).
    secrets: Arc<dyn secrets::SecretStore>,
    /// The AWS config and credentials files named profiles are read from.
    aws_files: AwsFiles,
    /// The profile database, opened on first use.
    profiles: tokio::sync::OnceCell<profiles::ProfileStore>,
    /// Open connections by profile id.
    sessions: tokio::sync::Mutex<std::collections::HashMap<String, Arc<sessions::Session>>>,
    /// Scans, exports and imports running now, by id, with their cancel flags.
    running: cancellation::Running,
    /// IAM Identity Center sign-ins waiting for the user's approval, by profile id.
    sign_ins: sign_in::SignIns,
    /// Temporary credentials bought with an MFA code, by profile id.
    mfa: tokio::sync::Mutex<std::collections::HashMap<String, dynotable_aws::mfa::AssumedCredentials>>,
    /// The embedded engine's loopback share, when the user turned it on.
    share: tokio::sync::Mutex<Option<sharing::Share>>,
    /// The files the user chose in the file dialog, by handle.
    files: files::FileGrants,
    /// Confirmations of table deletions, issued after the shell's native dialog.
    delete_tokens: deletion::DeleteTokens,
    /// The pause and filter controls of running stream tails, by id.
    tails: streams::Tails,
    /// The old images of the last bulk edit, by connection and table.
    bulk_undo: bulk::UndoShelf,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App")
            .field("data_dir", &self.inner.data_dir)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Starts the app on `data_dir` with secrets in the OS keychain: returns immediately and opens
    /// the embedded engine (the file `embedded/local.db` inside it) on the current tokio runtime.
    pub fn start(version: impl Into<String>, data_dir: impl Into<PathBuf>) -> App {
        App::start_with(
            version,
            data_dir,
            Arc::new(secrets::KeychainStore::new(secrets::SERVICE)),
        )
    }

    /// [`App::start`] with the secret store given (tests keep secrets in memory).
    pub fn start_with(
        version: impl Into<String>,
        data_dir: impl Into<PathBuf>,
        secrets: Arc<dyn secrets::SecretStore>,
    ) -> App {
        App::start_with_aws_files(version, data_dir, secrets, AwsFiles::User)
    }

    /// [`App::start_with`], reading AWS profiles from `aws_files` (tests give temporary files).
    pub fn start_with_aws_files(
        version: impl Into<String>,
        data_dir: impl Into<PathBuf>,
        secrets: Arc<dyn secrets::SecretStore>,
        aws_files: AwsFiles,
    ) -> App {
        let data_dir = data_dir.into();
        let engine_path = data_dir.join("embedded").join("local.db");
        let (sender, receiver) = watch::channel(EngineSlot::Starting);
        let location = Location::File(engine_path.clone());
        let marker = engine_path.with_file_name(DEMO_MARKER);
        tokio::spawn(async move {
            let slot = match open_with_demo(location, &marker, &sender).await {
                Ok(engine) => EngineSlot::Ready(engine),
                Err(reason) => {
                    tracing::error!(%reason, "the embedded engine could not start");
                    EngineSlot::Failed(reason)
                }
            };
            // The receiver lives in `App`; if the app is gone there is nobody left to tell.
            let _ = sender.send(slot);
        });
        App {
            inner: Arc::new(Inner {
                version: version.into(),
                data_dir,
                engine_path,
                engine: receiver,
                secrets,
                aws_files,
                profiles: tokio::sync::OnceCell::new(),
                sessions: tokio::sync::Mutex::new(std::collections::HashMap::new()),
                running: cancellation::Running::default(),
                share: tokio::sync::Mutex::new(None),
                files: files::FileGrants::default(),
                delete_tokens: deletion::DeleteTokens::default(),
                tails: streams::Tails::default(),
                bulk_undo: bulk::UndoShelf::default(),
                mfa: tokio::sync::Mutex::new(std::collections::HashMap::new()),
                sign_ins: sign_in::SignIns::default(),
            }),
        }
    }

    /// The folder where DynoTable keeps everything it writes.
    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    /// Waits until the embedded engine has started (or failed to) and returns it.
    pub async fn engine(&self) -> Result<Engine, CommandError> {
        let mut receiver = self.inner.engine.clone();
        let slot = receiver
            .wait_for(|slot| {
                !matches!(
                    slot,
                    EngineSlot::Starting | EngineSlot::WaitingForRelease | EngineSlot::LoadingDemo
                )
            })
            .await
            .map_err(|_| {
                CommandError::new(
                    ErrorCode::EngineUnavailable,
                    "The embedded engine stopped while starting.",
                )
            })?
            .clone();
        match slot {
            EngineSlot::Ready(engine) => Ok(engine),
            EngineSlot::Failed(reason) => Err(CommandError::new(
                ErrorCode::EngineUnavailable,
                format!("The embedded engine could not start: {reason}"),
            )),
            EngineSlot::Starting | EngineSlot::WaitingForRelease | EngineSlot::LoadingDemo => {
                unreachable!("wait_for returned a starting engine")
            }
        }
    }

    /// What the status bar shows: the version, the data folder and the embedded engine's state.
    pub async fn app_info(&self) -> Result<AppInfo, CommandError> {
        let slot = self.inner.engine.borrow().clone();
        let engine = match slot {
            EngineSlot::Starting => EngineInfo {
                state: EngineState::Starting,
                table_count: None,
                message: None,
            },
            EngineSlot::WaitingForRelease => EngineInfo {
                state: EngineState::Starting,
                table_count: None,
                message: Some(WAITING_MESSAGE.to_owned()),
            },
            EngineSlot::LoadingDemo => EngineInfo {
                state: EngineState::Starting,
                table_count: None,
                message: Some("Loading the demo tables…".to_owned()),
            },
            EngineSlot::Failed(reason) => EngineInfo {
                state: EngineState::Failed,
                table_count: None,
                message: Some(reason),
            },
            EngineSlot::Ready(engine) => EngineInfo {
                state: EngineState::Ready,
                table_count: Some(u32::try_from(engine.table_count()).unwrap_or(u32::MAX)),
                message: None,
            },
        };
        Ok(AppInfo {
            version: self.inner.version.clone(),
            data_dir: self.inner.data_dir.display().to_string(),
            engine_path: self.inner.engine_path.display().to_string(),
            engine,
        })
    }
}

impl App {
    /// Deletes the demo tables of the embedded engine and loads them again as on first launch;
    /// other tables are not touched. Returns how many tables and items were loaded.
    pub async fn reset_demo_data(&self) -> Result<dto::DemoReset, CommandError> {
        let engine = self.engine().await?;
        let loaded = demo::reset(&engine)
            .await
            .map_err(|err| CommandError::from_engine(&err))?;
        Ok(dto::DemoReset {
            tables: u32::try_from(loaded.tables).unwrap_or(u32::MAX),
            items: u32::try_from(loaded.items).unwrap_or(u32::MAX),
        })
    }
}

/// How long the app waits for another engine to let go of the database: a DynoTable window
/// closed a moment ago is still exiting, and opening it again at once must not fail.
const IN_USE_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

/// What the status bar says while the app waits for another engine to let go of the database.
pub const WAITING_MESSAGE: &str = "Waiting for the DynoTable window closed last to let go of the database…";

/// Opens the engine; a database held by another engine is tried again every 100 ms for up to
/// [`IN_USE_WAIT`] before the app says it is in use (and says it waits, meanwhile).
async fn open_waiting_for_the_last_window(
    location: Location,
    progress: &watch::Sender<EngineSlot>,
) -> Result<Engine, String> {
    let started = std::time::Instant::now();
    loop {
        match Engine::open_with(footprint::engine_options(location.clone())).await {
            Ok(engine) => return Ok(engine),
            Err(dynotable_engine::EngineError::InUse { .. }) if started.elapsed() < IN_USE_WAIT => {
                let _ = progress.send(EngineSlot::WaitingForRelease);
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(err) => return Err(err.to_string()),
        }
    }
}

/// Opens the engine and, on the first launch (no marker file), loads the demo tables.
async fn open_with_demo(
    location: Location,
    marker: &Path,
    progress: &watch::Sender<EngineSlot>,
) -> Result<Engine, String> {
    let saved = location.path().map(simulations::saved).unwrap_or_default();
    let engine = open_waiting_for_the_last_window(location, progress).await?;
    if !marker.exists() {
        let _ = progress.send(EngineSlot::LoadingDemo);
        let loaded = demo::load(&engine)
            .await
            .map_err(|err| format!("the demo tables could not be loaded: {err}"))?;
        tracing::info!(tables = loaded.tables, items = loaded.items, "demo tables loaded");
        std::fs::write(
            marker,
            b"The demo tables were loaded into local.db on first launch.\n",
        )
        .map_err(|err| format!("cannot write {}: {err}", marker.display()))?;
    }
    // The simulations the user left on, once the demo tables are in and before any request.
    engine.set_simulations(saved);
    Ok(engine)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn app_info_reports_the_engine_ready_on_a_fresh_data_folder() {
        let dir = tempfile::tempdir().unwrap();
        let app = App::start("1.2.3", dir.path());
        app.engine().await.unwrap();
        let info = app.app_info().await.unwrap();
        assert_eq!(info.version, "1.2.3");
        assert_eq!(info.data_dir, dir.path().display().to_string());
        assert_eq!(info.engine.state, EngineState::Ready);
        assert_eq!(info.engine.table_count, Some(demo::TABLES.len() as u32));
        assert!(dir.path().join("embedded").join("local.db").is_file());
        assert!(dir.path().join("embedded").join(DEMO_MARKER).is_file());
    }

    #[tokio::test]
    async fn the_embedded_engine_is_opened_with_the_apps_memory_bounds() {
        let dir = tempfile::tempdir().unwrap();
        let engine = App::start("1.2.3", dir.path()).engine().await.unwrap();
        let options = engine.options();
        assert_eq!(options.item_cache_bytes, footprint::ITEM_CACHE_BYTES);
        assert_eq!(options.reader_mmap_bytes, 0, "no memory map of the file");
        assert_eq!(options.reader_cache_bytes, footprint::READER_CACHE_BYTES);
        // Smaller than the engine's defaults, which dynotable-local keeps.
        assert!(options.item_cache_bytes < dynotable_engine::DEFAULT_ITEM_CACHE_BYTES);
        assert!(options.reader_cache_bytes < dynotable_engine::DEFAULT_READER_CACHE_BYTES);
    }

    #[tokio::test]
    async fn the_demo_tables_are_loaded_only_on_the_first_launch() {
        let dir = tempfile::tempdir().unwrap();
        let engine = App::start("1.2.3", dir.path()).engine().await.unwrap();
        engine
            .call("DeleteTable", br#"{"TableName":"Pets"}"#)
            .await
            .unwrap();
        engine.close().await;

        let again = App::start("1.2.3", dir.path());
        again.engine().await.unwrap();
        let info = again.app_info().await.unwrap();
        assert_eq!(info.engine.table_count, Some(demo::TABLES.len() as u32 - 1));
    }

    #[tokio::test]
    async fn resetting_the_demo_data_restores_the_demo_tables_and_leaves_others_alone() {
        let dir = tempfile::tempdir().unwrap();
        let app = App::start("1.2.3", dir.path());
        let engine = app.engine().await.unwrap();
        engine
            .call("DeleteItem", br#"{"TableName":"Telemetry","Key":{"vehicleId":{"S":"VEH#V-7741"},"recordedAt":{"S":"META"}}}"#)
            .await
            .unwrap();
        engine
            .call(
                "CreateTable",
                br#"{"TableName":"Mine","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"k","AttributeType":"S"}],"KeySchema":[{"AttributeName":"k","KeyType":"HASH"}]}"#,
            )
            .await
            .unwrap();
        let reset = app.reset_demo_data().await.unwrap();
        assert_eq!(reset.tables as usize, demo::TABLES.len());
        let meta = engine
            .call("GetItem", br#"{"TableName":"Telemetry","Key":{"vehicleId":{"S":"VEH#V-7741"},"recordedAt":{"S":"META"}}}"#)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&meta).contains("\"Item\""));
        assert_eq!(
            engine.table_count(),
            demo::TABLES.len() + 1,
            "the user's own table is kept"
        );
    }

    #[tokio::test]
    async fn an_engine_that_cannot_open_is_reported_failed_with_its_reason() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the engine's folder should be makes the open fail.
        std::fs::write(dir.path().join("embedded"), b"in the way").unwrap();
        let app = App::start("1.2.3", dir.path());
        let err = app.engine().await.unwrap_err();
        assert_eq!(err.code, ErrorCode::EngineUnavailable);
        let info = app.app_info().await.unwrap();
        assert_eq!(info.engine.state, EngineState::Failed);
        assert!(info.engine.message.unwrap().contains("embedded"));
    }
}
