//! A machine with no system keychain (a Linux session without a Secret Service, WSL, a remote
//! desktop): a profile from `~/.aws` opens, lists its tables, is tested, changed and deleted
//! without one call to the keychain; a secret typed into DynoTable is refused with a plain
//! sentence saying what the user can do, and no profile is left behind.
//!
//! The keychain here is [`NoKeychain`], which answers every call as keyring's backends do when
//! none is running ([`SecretStoreError::Unavailable`]) and counts the calls. The AWS files are
//! temporary files handed to the app; the endpoint is the app's own embedded engine shared on
//! loopback, named by the profile's `endpoint_url`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dynotable_app::profiles::{ConnectionInput, ProfileInput, SecretInput};
use dynotable_app::secrets::{Secret, SecretStore, SecretStoreError};
use dynotable_app::{App, ErrorCode};
use dynotable_aws::files::AwsFiles;

/// No keychain at all; every call is counted.
#[derive(Default)]
struct NoKeychain {
    calls: AtomicUsize,
}

impl SecretStore for NoKeychain {
    fn set(&self, _: &str, _: &Secret) -> Result<(), SecretStoreError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Err(SecretStoreError::Unavailable)
    }
    fn get(&self, _: &str) -> Result<Option<Secret>, SecretStoreError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Err(SecretStoreError::Unavailable)
    }
    fn delete(&self, _: &str) -> Result<(), SecretStoreError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Err(SecretStoreError::Unavailable)
    }
}

/// An app with no keychain whose AWS files name one profile, `static`: static keys in the
/// credentials file, and an `endpoint_url` that is the app's embedded engine shared on loopback.
async fn app_without_keychain() -> (App, Arc<NoKeychain>, tempfile::TempDir, tempfile::TempDir) {
    let aws = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let config = aws.path().join("config");
    let credentials = aws.path().join("credentials");
    let keychain = Arc::new(NoKeychain::default());
    let app = App::start_with_aws_files(
        "test",
        data.path(),
        keychain.clone(),
        AwsFiles::Given {
            config: config.clone(),
            credentials: credentials.clone(),
        },
    );
    let shared = app.share_engine(0).await.unwrap();
    std::fs::write(
        &config,
        format!(
            "[profile static]\nregion = eu-west-1\nendpoint_url = {url}\n",
            url = shared.url
        ),
    )
    .unwrap();
    std::fs::write(
        &credentials,
        "[static]\naws_access_key_id = AKIASTATICEXAMPLE1\naws_secret_access_key = static-secret-from-the-aws-files\n",
    )
    .unwrap();
    (app, keychain, aws, data)
}

fn aws_profile(name: &str) -> ProfileInput {
    ProfileInput {
        name: name.into(),
        color: "#ff9900".into(),
        region: "eu-west-1".into(),
        read_only: false,
        connection: ConnectionInput::AwsProfile {
            profile_name: name.into(),
        },
    }
}

#[tokio::test]
async fn an_aws_profile_opens_lists_its_tables_and_is_deleted_without_touching_the_keychain() {
    let (app, keychain, _aws, _data) = app_without_keychain().await;

    let found: Vec<String> = app
        .aws_profiles()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(found, ["static"]);

    // What the Open button of the AWS profiles list does: make a connection for it, list tables.
    let profile = app.create_profile(aws_profile("static")).await.unwrap();
    let tables = app.list_tables(&profile.id, None).await.unwrap();
    assert!(
        tables.names.contains(&"Telemetry".to_owned()),
        "the demo tables of the shared engine: {:?}",
        tables.names
    );
    let test = app.test_connection(&profile.id).await.unwrap();
    assert!(test.ok, "{test:?}");

    // Changing it (read-only now) and deleting it need no keychain either.
    let mut changed = aws_profile("static");
    changed.read_only = true;
    let changed = app.update_profile(&profile.id, changed).await.unwrap();
    assert!(changed.read_only);
    assert_eq!(
        app.list_tables(&profile.id, None).await.unwrap().names,
        tables.names
    );
    app.delete_profile(&profile.id).await.unwrap();

    assert_eq!(
        keychain.calls.load(Ordering::SeqCst),
        0,
        "an AWS profile's secret lives in the AWS files: the keychain is never asked"
    );
}

#[tokio::test]
async fn a_typed_secret_without_a_keychain_is_refused_in_a_plain_sentence_and_saves_nothing() {
    let (app, keychain, _aws, _data) = app_without_keychain().await;
    let refused = app
        .create_profile(ProfileInput {
            name: "typed keys".into(),
            color: "#112233".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AccessKeys {
                access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
                secret_access_key: SecretInput::new("typed-secret"),
                session_token: None,
            },
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::KeychainUnavailable, "{refused:?}");
    assert_eq!(
        refused.message,
        "No system keychain is available, so the connection's secret could not be saved: \
         DynoTable keeps secrets nowhere else. Start your desktop's keychain (on Linux a Secret \
         Service such as GNOME Keyring or KeePassXC) and try again, or put the keys in \
         ~/.aws/credentials and open that profile from the AWS profiles list instead: it needs no \
         keychain."
    );
    assert!(keychain.calls.load(Ordering::SeqCst) > 0);

    // No profile points at a secret that was never stored.
    let names: Vec<String> = app
        .profiles()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["Embedded"]);
}

/// A custom endpoint with no keys typed: what DynamoDB Local, LocalStack and dynotable-local
/// without --auth need. It opens, lists its tables, is tested, changed and deleted without one
/// call to the keychain (its requests are signed with placeholder keys).
#[tokio::test]
async fn a_local_endpoint_without_keys_opens_and_is_deleted_without_touching_the_keychain() {
    let (app, keychain, _aws, _data) = app_without_keychain().await;
    let url = app.share_engine(0).await.unwrap().url;
    let local = |read_only| ProfileInput {
        name: "local".into(),
        color: "#00aa55".into(),
        region: "local".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: url.clone(),
            access_key_id: String::new(),
            secret_access_key: SecretInput::new(""),
        },
    };
    let profile = app.create_profile(local(false)).await.unwrap();
    assert_eq!(
        profile.connection,
        dynotable_app::profiles::Connection::CustomEndpoint {
            endpoint_url: url.clone(),
            access_key_id: String::new(),
            secret_in_keychain: false,
        }
    );
    let tables = app.list_tables(&profile.id, None).await.unwrap();
    assert!(
        tables.names.contains(&"Telemetry".to_owned()),
        "{:?}",
        tables.names
    );
    assert!(app.test_connection(&profile.id).await.unwrap().ok);
    let changed = app.update_profile(&profile.id, local(true)).await.unwrap();
    assert!(changed.read_only);
    assert_eq!(
        app.list_tables(&profile.id, None).await.unwrap().names,
        tables.names
    );
    app.delete_profile(&profile.id).await.unwrap();
    assert_eq!(
        keychain.calls.load(Ordering::SeqCst),
        0,
        "no secret, so no keychain"
    );

    // A secret without its access key id is refused before anything is stored.
    let mut lone_secret = local(false);
    lone_secret.connection = ConnectionInput::CustomEndpoint {
        endpoint_url: url.clone(),
        access_key_id: " ".into(),
        secret_access_key: SecretInput::new("s"),
    };
    let refused = app.create_profile(lone_secret).await.unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidProfile, "{refused:?}");
    assert_eq!(keychain.calls.load(Ordering::SeqCst), 0);

    // Nothing listens on port 9 of loopback: NETWORK, whose message is the cause alone (the UI
    // puts the code's title, "The endpoint could not be reached", before it), never the SDK's
    // kind word "other".
    let mut closed = local(false);
    closed.name = "closed".into();
    closed.connection = ConnectionInput::CustomEndpoint {
        endpoint_url: "http://127.0.0.1:9".into(),
        access_key_id: String::new(),
        secret_access_key: SecretInput::new(""),
    };
    let closed = app.create_profile(closed).await.unwrap();
    let unreachable = app.list_tables(&closed.id, None).await.unwrap_err();
    assert_eq!(unreachable.code, ErrorCode::Network, "{unreachable:?}");
    assert!(
        !unreachable
            .message
            .to_lowercase()
            .contains("could not be reached"),
        "{unreachable:?}"
    );
    assert!(!unreachable.message.contains("other"), "{unreachable:?}");
    assert!(
        unreachable.message.to_lowercase().contains("connect"),
        "{unreachable:?}"
    );
}

/// A connection naming an AWS profile the files do not have says so, by name, and not that an
/// endpoint could not be reached.
#[tokio::test]
async fn a_profile_missing_from_the_aws_files_is_named_in_the_error() {
    let (app, _keychain, aws, _data) = app_without_keychain().await;
    let profile = app.create_profile(aws_profile("doesnotexist")).await.unwrap();
    let error = app.list_tables(&profile.id, None).await.unwrap_err();
    assert_eq!(error.code, ErrorCode::NoCredentials, "{error:?}");
    assert!(
        error
            .message
            .starts_with("There is no profile named doesnotexist in the AWS config or credentials file"),
        "{error:?}"
    );
    // The Test button says the same; the connection is not left half made.
    let tested = app.test_connection(&profile.id).await.unwrap_err();
    assert_eq!(tested, error);
    // Once the profile is in the files, the same connection opens.
    let mut config = std::fs::read_to_string(aws.path().join("config")).unwrap();
    config = config.replace("[profile static]", "[profile doesnotexist]");
    std::fs::write(aws.path().join("config"), config).unwrap();
    let credentials = std::fs::read_to_string(aws.path().join("credentials")).unwrap();
    std::fs::write(
        aws.path().join("credentials"),
        credentials.replace("[static]", "[doesnotexist]"),
    )
    .unwrap();
    assert!(app.test_connection(&profile.id).await.unwrap().ok);
}
