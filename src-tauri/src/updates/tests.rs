//! The updater against an update server on loopback (axum), with the updater configuration of
//! `tauri.conf.json` and a throwaway minisign key: the release is offered, downloaded, checked
//! and installed into a scratch executable; a file signed with another key, or for another
//! version, is refused and changes nothing. Tauri's mock runtime stands in for the window only.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tauri::test::{MockRuntime, mock_builder, mock_context, noop_assets};

use super::*;

/// The mock app's version (Tauri's mock context).
const CURRENT: &str = "0.1.0";
const NEWER: &str = "99.0.0";

struct Key {
    public: minisign::PublicKey,
    secret: minisign::SecretKey,
    /// The public key as `tauri.conf.json` holds it: the base64 of minisign's key file.
    config: String,
}

fn key() -> Key {
    let pair = minisign::KeyPair::generate_unencrypted_keypair().expect("a key pair");
    let config = B64.encode(pair.pk.to_box().expect("the public key's file").to_string());
    Key {
        public: pair.pk,
        secret: pair.sk,
        config,
    }
}

/// The `.sig` file as the manifest carries it, bound to `version` in the trusted comment as
/// `tauri signer sign --app-version` binds it.
fn sign(key: &Key, file: &[u8], version: &str) -> String {
    sign_with_comment(
        key,
        file,
        &format!("timestamp:1765000000\tfile:DynoTable.AppImage\tversion:{version}"),
    )
}

fn sign_with_comment(key: &Key, file: &[u8], trusted: &str) -> String {
    let signature =
        minisign::sign(Some(&key.public), &key.secret, file, Some(trusted), None).expect("a signature");
    B64.encode(signature.to_string())
}

/// A new "AppImage": an ELF header's magic and enough bytes to pass the installer's check.
fn release_file() -> Vec<u8> {
    let mut file = b"\x7fELF".to_vec();
    file.extend((0..8192u32).map(|i| (i % 251) as u8));
    file
}

/// An update server on loopback: `/latest.json` (the manifest `manifest` builds from the
/// server's address) and `/DynoTable.AppImage`. Counts the requests it answers.
struct Server {
    manifest_url: tauri::Url,
    requests: Arc<AtomicUsize>,
}

async fn serve(file: Vec<u8>, manifest: impl FnOnce(&str) -> Value) -> Server {
    serve_file(file, false, manifest).await
}

/// As [`serve`]; with `stall`, the file's first 4 KiB are sent and the rest never comes.
async fn serve_file(file: Vec<u8>, stall: bool, manifest: impl FnOnce(&str) -> Value) -> Server {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address: SocketAddr = listener.local_addr().unwrap();
    let base = format!("http://{address}");
    let manifest = manifest(&format!("{base}/DynoTable.AppImage")).to_string();
    let requests = Arc::new(AtomicUsize::new(0));
    let (on_manifest, on_file) = (requests.clone(), requests.clone());
    let router = Router::new()
        .route(
            "/latest.json",
            get(move || {
                on_manifest.fetch_add(1, Ordering::SeqCst);
                let manifest = manifest.clone();
                async move { ([("content-type", "application/json")], manifest) }
            }),
        )
        .route(
            "/DynoTable.AppImage",
            get(move || {
                on_file.fetch_add(1, Ordering::SeqCst);
                let file = file.clone();
                async move {
                    let length = file.len().to_string();
                    let body = if stall {
                        let first =
                            futures_util::stream::iter([Ok::<_, std::io::Error>(file[..4096].to_vec())]);
                        axum::body::Body::from_stream(first.chain(futures_util::stream::pending()))
                    } else {
                        axum::body::Body::from(file)
                    };
                    ([("content-length", length)], body)
                }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, router).await.expect("the update server") });
    Server {
        manifest_url: format!("{base}/latest.json").parse().unwrap(),
        requests,
    }
}

/// A manifest in the static format the release workflow publishes, for this machine's target.
fn manifest(version: &str, url: &str, signature: &str) -> Value {
    let target = format!(
        "{}-{}",
        if cfg!(target_os = "macos") {
            "darwin"
        } else if cfg!(windows) {
            "windows"
        } else {
            "linux"
        },
        std::env::consts::ARCH
    );
    json!({
        "version": version,
        "notes": "Collections of a million items open faster.",
        "pub_date": "2026-12-06T00:00:00Z",
        "platforms": { target: { "url": url, "signature": signature } }
    })
}

/// The app with the updater plugin configured as `tauri.conf.json` configures it.
fn app(source: Source) -> tauri::App<MockRuntime> {
    let conf: Value =
        serde_json::from_str(include_str!("../../../tauri.conf.json")).expect("tauri.conf.json is JSON");
    let mut context = mock_context(noop_assets());
    context
        .config_mut()
        .plugins
        .0
        .insert("updater".into(), conf["plugins"]["updater"].clone());
    mock_builder()
        .plugin(tauri_plugin_updater::Builder::new().build())
        .manage(Updates::new(source))
        .build(context)
        .expect("the mock app")
}

/// A scratch "installed app" the install replaces, and its original bytes.
fn installed() -> (tempfile::TempDir, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("DynoTable.AppImage");
    let old = b"\x7fELF the installed version".to_vec();
    std::fs::write(&path, &old).unwrap();
    (dir, path, old)
}

fn source(server: &Server, key: &Key, executable: &std::path::Path) -> Source {
    Source {
        endpoint: Some(server.manifest_url.clone()),
        pubkey: Some(key.config.clone()),
        executable: Some(executable.to_path_buf()),
    }
}

#[tokio::test]
async fn a_newer_signed_release_is_offered_then_downloaded_checked_and_installed() {
    let key = key();
    let file = release_file();
    let signature = sign(&key, &file, NEWER);
    let server = serve(file.clone(), |url| manifest(NEWER, url, &signature)).await;
    let (_dir, executable, _) = installed();
    let app = app(source(&server, &key, &executable));

    let offer = check(app.handle()).await.expect("the check").expect("an update");
    assert_eq!(offer.version, NEWER);
    assert_eq!(offer.current_version, CURRENT);
    assert_eq!(
        offer.notes.as_deref(),
        Some("Collections of a million items open faster.")
    );
    assert_eq!(offer.date.as_deref(), Some("2026-12-06T00:00:00Z"));

    let mut reports = Vec::new();
    install(app.handle(), NEWER, |progress| reports.push(progress))
        .await
        .expect("the install");
    assert_eq!(
        std::fs::read(&executable).unwrap(),
        file,
        "the executable is the release's file"
    );
    let last_download = reports
        .iter()
        .rev()
        .find_map(|report| match report {
            UpdateProgress::Downloading { bytes, total } => Some((*bytes, *total)),
            UpdateProgress::Installing => None,
        })
        .expect("download progress");
    assert_eq!(last_download, (file.len() as f64, Some(file.len() as f64)));
    assert_eq!(reports.last(), Some(&UpdateProgress::Installing));

    // The offer is spent: a second install has nothing to install.
    let again = install(app.handle(), NEWER, |_| {})
        .await
        .expect_err("nothing left to install");
    assert_eq!(again.code, ErrorCode::UpdateUnavailable);
}

/// Offers [`NEWER`], its file signed with `signature`, to an app holding `key`: the offer is
/// shown, and installing it is refused with the installed app untouched.
async fn assert_refused(key: &Key, file: Vec<u8>, signature: String, why: &str) {
    let server = serve(file, |url| manifest(NEWER, url, &signature)).await;
    let (_dir, executable, old) = installed();
    let app = app(source(&server, key, &executable));

    check(app.handle()).await.expect("the check").expect("an offer");
    let err = install(app.handle(), NEWER, |_| {}).await.expect_err(why);
    assert_eq!(err.code, ErrorCode::UpdateRejected, "{why}");
    assert!(err.message.contains("not installed"), "{}", err.message);
    assert_eq!(
        std::fs::read(&executable).unwrap(),
        old,
        "{why}: the installed app is untouched"
    );
}

#[tokio::test]
async fn a_release_signed_with_another_key_is_refused_and_nothing_changes() {
    let (ours, theirs) = (key(), key());
    let file = release_file();
    let signature = sign(&theirs, &file, NEWER);
    assert_refused(&ours, file, signature, "a foreign signature").await;
}

#[tokio::test]
async fn an_older_release_signed_for_its_own_version_cannot_be_offered_as_newer() {
    let key = key();
    let file = release_file();
    // A genuine signature, for 0.0.9: a manifest that calls that file 99.0.0 is a downgrade.
    let signature = sign(&key, &file, "0.0.9");
    assert_refused(&key, file, signature, "a signature for another version").await;
}

#[tokio::test]
async fn a_signature_that_names_no_version_is_refused() {
    // Signatures made before the Tauri CLI bound them to a version cannot vouch for the version
    // offered, so `requireSignedVersion` in tauri.conf.json refuses them.
    let key = key();
    let file = release_file();
    let signature = sign_with_comment(&key, &file, "timestamp:1765000000\tfile:DynoTable.AppImage");
    assert_refused(&key, file, signature, "no signed version").await;
}

#[tokio::test]
async fn the_running_version_or_an_older_one_is_no_update() {
    let key = key();
    let file = release_file();
    for version in [CURRENT, "0.0.9"] {
        let signature = sign(&key, &file, version);
        let server = serve(file.clone(), |url| manifest(version, url, &signature)).await;
        let (_dir, executable, _) = installed();
        let app = app(source(&server, &key, &executable));
        assert_eq!(check(app.handle()).await.expect("the check"), None, "{version}");
        assert_eq!(server.requests.load(Ordering::SeqCst), 1, "the manifest only");
    }
}

#[tokio::test]
async fn a_build_without_an_update_key_says_so_and_asks_nothing() {
    let key = key();
    let server = serve(release_file(), |url| manifest(NEWER, url, "unused")).await;
    let (_dir, executable, _) = installed();
    let source = Source {
        pubkey: None,
        ..source(&server, &key, &executable)
    };
    let app = app(source);

    let err = check(app.handle()).await.expect_err("no key in tauri.conf.json");
    assert_eq!(err.code, ErrorCode::UpdateUnavailable);
    assert!(err.message.contains("no update key"), "{}", err.message);
    assert_eq!(server.requests.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_update_server_that_does_not_answer_is_a_network_error_in_plain_words() {
    let key = key();
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (_dir, executable, _) = installed();
    let app = app(Source {
        endpoint: Some(format!("http://127.0.0.1:{port}/latest.json").parse().unwrap()),
        pubkey: Some(key.config.clone()),
        executable: Some(executable),
    });
    let err = check(app.handle()).await.expect_err("nothing listens");
    assert_eq!(err.code, ErrorCode::Network);
    assert!(
        err.message
            .starts_with("DynoTable could not reach its update server"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn a_download_can_be_cancelled_and_nothing_is_installed() {
    let key = key();
    let file = release_file();
    let signature = sign(&key, &file, NEWER);
    let server = serve_file(file, true, |url| manifest(NEWER, url, &signature)).await;
    let (_dir, executable, old) = installed();
    let app = app(source(&server, &key, &executable));
    check(app.handle()).await.expect("the check").expect("an update");

    let (started, mut first_bytes) = tokio::sync::mpsc::unbounded_channel();
    let handle = app.handle().clone();
    let running = tokio::spawn(async move {
        install(&handle, NEWER, move |progress| {
            let _ = started.send(progress);
        })
        .await
    });
    // The download has reported progress (when the UI offers Cancel); the rest never comes.
    let progress = tokio::time::timeout(Duration::from_secs(30), first_bytes.recv())
        .await
        .expect("progress within 30 s")
        .expect("download progress");
    assert!(
        matches!(progress, UpdateProgress::Downloading { bytes, .. } if bytes > 0.0),
        "{progress:?}"
    );
    // A second install meanwhile is refused.
    let second = install(app.handle(), NEWER, |_| {})
        .await
        .expect_err("one install at a time");
    assert_eq!(second.code, ErrorCode::UpdateUnavailable);
    cancel(app.handle());
    let err = tokio::time::timeout(Duration::from_secs(30), running)
        .await
        .expect("the cancel ends the install")
        .unwrap()
        .expect_err("cancelled");
    assert_eq!(err.code, ErrorCode::Cancelled);
    assert_eq!(std::fs::read(&executable).unwrap(), old);
}

#[tokio::test]
async fn only_the_version_the_user_was_shown_is_installed() {
    let key = key();
    let file = release_file();
    let signature = sign(&key, &file, NEWER);
    let server = serve(file, |url| manifest(NEWER, url, &signature)).await;
    let (_dir, executable, old) = installed();
    let app = app(source(&server, &key, &executable));

    // Nothing was checked yet: nothing to install.
    let err = install(app.handle(), NEWER, |_| {})
        .await
        .expect_err("no offer yet");
    assert_eq!(err.code, ErrorCode::UpdateUnavailable);
    check(app.handle()).await.expect("the check").expect("an update");
    let err = install(app.handle(), "98.0.0", |_| {})
        .await
        .expect_err("another version than the offer");
    assert_eq!(err.code, ErrorCode::UpdateUnavailable);
    assert!(err.message.contains("98.0.0"), "{}", err.message);
    assert_eq!(std::fs::read(&executable).unwrap(), old);
    assert_eq!(
        server.requests.load(Ordering::SeqCst),
        1,
        "the manifest only, no download"
    );
}

#[tokio::test]
async fn a_build_key_that_cannot_be_read_is_said_before_asking_anything() {
    let server = serve(release_file(), |url| manifest(NEWER, url, "unused")).await;
    let (_dir, executable, _) = installed();
    let app = app(Source {
        endpoint: Some(server.manifest_url.clone()),
        pubkey: Some(B64.encode("not a minisign key")),
        executable: Some(executable),
    });
    let err = check(app.handle()).await.expect_err("an unreadable key");
    assert_eq!(err.code, ErrorCode::UpdateUnavailable);
    assert!(
        err.message.contains("update key cannot be read"),
        "{}",
        err.message
    );
    assert_eq!(server.requests.load(Ordering::SeqCst), 0);
}

#[test]
fn release_builds_ignore_the_test_variables() {
    let variables = |name: &str| match name {
        ENDPOINT_VAR => Some("http://127.0.0.1:9/latest.json".to_owned()),
        PUBKEY_VAR => Some("a test key".to_owned()),
        _ => None,
    };
    let release = Source::from_variables(false, variables);
    assert!(release.endpoint.is_none() && release.pubkey.is_none());
    let debug = Source::from_variables(true, variables);
    assert_eq!(
        debug.endpoint.map(|url| url.to_string()).as_deref(),
        Some("http://127.0.0.1:9/latest.json")
    );
    assert_eq!(debug.pubkey.as_deref(), Some("a test key"));
}
