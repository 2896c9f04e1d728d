//! A secret typed into DynoTable goes to the keychain (here the in-memory SecretStore) and
//! nowhere else: not into the app database file (its bytes, WAL included), not into any log line
//! at any level, not into anything a command returns — including errors from a connection that
//! uses it.

use std::io::Write;
use std::sync::{Arc, Mutex};

use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::{MemoryStore, SecretStore};
use dynotable_app::{App, Expectation};

const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/zz-very-private-SECRET-9f3c";
const TOKEN: &str = "FwoGZXIvYXdzEOnly-the-keychain-may-hold-this-TOKEN-41aa";

/// Every log line, at every level, kept for inspection.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn all_files_under(dir: &std::path::Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            bytes.extend(all_files_under(&path));
        } else {
            bytes.extend(std::fs::read(&path).unwrap());
        }
    }
    bytes
}

#[tokio::test]
async fn a_typed_secret_is_only_in_the_keychain() {
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter("trace")
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let dir = tempfile::tempdir().unwrap();
    let secrets = Arc::new(MemoryStore::default());
    let app = App::start_with("test", dir.path(), secrets.clone());
    let mut results: Vec<String> = Vec::new();

    // An access-key profile (session token too), and an endpoint profile on a closed port.
    let keys = app
        .create_profile(ProfileInput {
            name: "prod keys".into(),
            color: "#112233".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AccessKeys {
                access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
                secret_access_key: SecretInput::new(SECRET),
                session_token: Some(SecretInput::new(TOKEN)),
            },
        })
        .await
        .unwrap();
    let endpoint = app
        .create_profile(ProfileInput {
            name: "closed".into(),
            color: "#112233".into(),
            region: "local".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: "http://127.0.0.1:9".into(),
                access_key_id: "local".into(),
                secret_access_key: SecretInput::new(SECRET),
            },
        })
        .await
        .unwrap();
    results.push(serde_json::to_string(&keys).unwrap());
    results.push(serde_json::to_string(&app.profiles().await.unwrap()).unwrap());
    // Use them: the calls fail (no network here), and their errors are results too.
    results.push(serde_json::to_string(&app.test_connection(&endpoint.id).await.unwrap()).unwrap());
    for id in [&endpoint.id, &keys.id] {
        let item = serde_json::from_str(r#"{"pk":{"S":"x"}}"#).unwrap();
        match app.put_item(id, "T", item, Expectation::Anything).await {
            Ok(outcome) => results.push(serde_json::to_string(&outcome).unwrap()),
            Err(err) => results.push(serde_json::to_string(&err).unwrap()),
        }
        match app.list_tables(id, None).await {
            Ok(list) => results.push(serde_json::to_string(&list).unwrap()),
            Err(err) => results.push(serde_json::to_string(&err).unwrap()),
        }
    }
    // The secrets are where they belong.
    let kept = secrets
        .get(&dynotable_app::secrets::account(&keys.id, "secret-access-key"))
        .unwrap()
        .unwrap();
    assert_eq!(kept.expose(), SECRET);
    assert!(
        !format!("{kept:?}").contains(SECRET),
        "a Secret never prints its value"
    );

    let on_disk = all_files_under(dir.path());
    let logged = logs.0.lock().unwrap().clone();
    assert!(!logged.is_empty(), "the log capture works");
    for secret in [SECRET, TOKEN] {
        for (place, bytes) in [("the data folder's files", &on_disk), ("the logs", &logged)] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "the secret is in {place}"
            );
        }
        for result in &results {
            assert!(
                !result.contains(secret),
                "a command result carries the secret: {result}"
            );
        }
    }
}
