//! The OS keychain for real, no mock: the store the app builds ([`App::start`]'s
//! [`KeychainStore`] under [`SERVICE`]) keeps a secret in this system's keychain and gives it
//! back — to a second store, and to a restarted app that opens the connection with it.
//!
//! This target is not run by a plain `cargo test` (`test = false` in Cargo.toml): it needs a
//! keychain that answers, and must not write to a developer's own. It runs by name,
//! `cargo test -p dynotable-app --test os_keychain`:
//! - on Linux through `make keychain-test` (scripts/keychain-test.sh), against GNOME Keyring's
//!   Secret Service on a private D-Bus session with a throwaway home;
//! - in the macOS (Keychain) and Windows (Credential Manager) jobs of .github/workflows/ci.yml.
//!
//! Where no keychain answers, every test here fails, saying so.

use std::sync::Arc;

use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::{
    self, KEYCHAIN_BACKEND, KeychainStore, MemoryStore, SERVICE, Secret, SecretStore,
};
use dynotable_app::{App, ErrorCode};

/// Fails the test loudly when the keychain does not answer.
fn answered<T>(result: Result<T, secrets::SecretStoreError>, doing: &str) -> T {
    result.unwrap_or_else(|err| {
        panic!(
            "the OS keychain ({}) did not answer while {doing}: {err}. This test needs a real \
             keychain: on Linux run it through `make keychain-test`, which starts a private \
             Secret Service.",
            KEYCHAIN_BACKEND
        )
    })
}

/// An account no real profile has (a profile id is a UUID).
fn test_account(kind: &str) -> String {
    secrets::account(&format!("os-keychain-test-{}", uuid::Uuid::new_v4()), kind)
}

#[test]
fn the_keychain_store_keeps_a_secret_and_gives_it_back_to_another_store() {
    let account = test_account("secret-access-key");
    let first = KeychainStore::new(SERVICE);
    let value = format!("wJalrXUtnFEMI/K7MDENG/{}", uuid::Uuid::new_v4());

    assert_eq!(
        answered(first.get(&account), "reading an account never written"),
        None
    );
    answered(first.set(&account, &Secret::new(&value)), "storing a secret");

    // Another store (another connection to the keychain) reads what the first stored.
    let second = KeychainStore::new(SERVICE);
    assert_eq!(
        answered(second.get(&account), "reading the secret back"),
        Some(Secret::new(&value)),
        "the keychain gave back another value"
    );

    // Storing again replaces the value; deleting forgets it, and deleting twice is no error.
    answered(
        first.set(&account, &Secret::new("replaced")),
        "replacing the secret",
    );
    assert_eq!(
        answered(second.get(&account), "reading the replaced secret"),
        Some(Secret::new("replaced"))
    );
    answered(second.delete(&account), "deleting the secret");
    assert_eq!(answered(first.get(&account), "reading the deleted secret"), None);
    answered(first.delete(&account), "deleting the secret again");
}

#[tokio::test]
async fn a_profile_saved_by_the_app_keeps_its_secret_in_the_os_keychain_across_a_restart() {
    // The endpoint: another app's embedded engine (secrets in memory) shared on loopback.
    let server_dir = tempfile::tempdir().unwrap();
    let server = App::start_with("test", server_dir.path(), Arc::new(MemoryStore::default()));
    let endpoint = server.share_engine(0).await.unwrap();

    let data = tempfile::tempdir().unwrap();
    let secret = format!("typed-into-dynotable-{}", uuid::Uuid::new_v4());
    let app = App::start("test", data.path());
    let profile = app
        .create_profile(ProfileInput {
            name: "keychain".into(),
            color: "#336699".into(),
            region: "local".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: endpoint.url.clone(),
                access_key_id: "local".into(),
                secret_access_key: SecretInput::new(&secret),
            },
        })
        .await
        .unwrap_or_else(|err| panic!("the app could not store the secret in the OS keychain: {err:?}"));
    let account = secrets::account(&profile.id, "secret-access-key");
    app.engine().await.unwrap();
    drop(app);

    // In the OS keychain, under the app's service name.
    assert_eq!(
        answered(
            KeychainStore::new(SERVICE).get(&account),
            "reading the app's secret"
        ),
        Some(Secret::new(&secret))
    );

    // A restarted app opens the connection with it.
    let again = App::start("test", data.path());
    let tables = again
        .list_tables(&profile.id, None)
        .await
        .unwrap_or_else(|err| panic!("the restarted app could not open the connection: {err:?}"));
    assert!(
        tables.names.contains(&"Telemetry".to_owned()),
        "{:?}",
        tables.names
    );

    // Deleting the profile takes its secret out of the keychain.
    again.delete_profile(&profile.id).await.unwrap();
    assert_eq!(
        answered(
            KeychainStore::new(SERVICE).get(&account),
            "reading the deleted secret"
        ),
        None
    );
    assert_eq!(
        again.list_tables(&profile.id, None).await.unwrap_err().code,
        ErrorCode::ProfileNotFound
    );
}
