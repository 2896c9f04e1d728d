//! Signing in to IAM Identity Center from the app, end to end through its commands: an SSO
//! profile with no token says so before sending anything (`SSO_SIGN_IN_REQUIRED`), a sign-in
//! opens the verification page in the (injected) browser and returns the user's code, waiting
//! ends when the user approves, and the profile then opens with the role's credentials. A
//! sign-in can be cancelled while it waits.
//!
//! IAM Identity Center and DynamoDB are a stand-in on loopback
//! (`dynotable_stand_ins::identity_center::serve`). The token cache lives under `HOME`, which
//! aws-config reads from the process's environment, so each test's body runs in a child
//! process whose home is a temporary directory: nothing touches the real `~/.aws`.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use dynotable_app::profiles::{ConnectionInput, ProfileInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_aws::files::AwsFiles;
use dynotable_aws::sso::Browser;
use dynotable_stand_ins::identity_center::{self, Approval};
use dynotable_stand_ins::in_child_with_env;

#[derive(Default)]
struct RecordingBrowser(Mutex<Vec<String>>);

impl Browser for RecordingBrowser {
    fn open(&self, url: &str) -> Result<(), String> {
        self.0.lock().unwrap().push(url.to_owned());
        Ok(())
    }
}

/// The parent's side: a temporary home for the child that runs the test's body.
fn run_in_temporary_home(test: &str) -> bool {
    let home = tempfile::tempdir().unwrap().keep();
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    let (config, credentials) = (home.join(".aws/config"), home.join(".aws/credentials"));
    let vars: [(&str, &OsStr); 4] = [
        ("HOME", home.as_os_str()),
        ("USERPROFILE", home.as_os_str()),
        ("AWS_CONFIG_FILE", config.as_os_str()),
        ("AWS_SHARED_CREDENTIALS_FILE", credentials.as_os_str()),
    ];
    let child = in_child_with_env(test, &vars);
    if !child {
        std::fs::remove_dir_all(&home).ok();
    }
    child
}

/// The child's side: an app whose AWS files (in the temporary home) hold the SSO profile `dev`
/// pointing at the stand-in, and the DynoTable connection that opens it.
async fn app_with_sso_profile(url: &str) -> (App, String, tempfile::TempDir) {
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let (config, credentials) = (home.join(".aws/config"), home.join(".aws/credentials"));
    std::fs::write(
        &config,
        format!(
            "[profile dev]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Reader\n\
             region = eu-west-1\nendpoint_url = {url}\n\n\
             [sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1\n"
        ),
    )
    .unwrap();
    std::fs::write(&credentials, "").unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = App::start_with_aws_files(
        "test",
        data.path(),
        Arc::new(MemoryStore::default()),
        AwsFiles::Given { config, credentials },
    );
    let profile = app
        .create_profile(ProfileInput {
            name: "dev".into(),
            color: "#3366cc".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AwsProfile {
                profile_name: "dev".into(),
            },
        })
        .await
        .unwrap();
    (app, profile.id, data)
}

#[tokio::test]
async fn an_sso_profile_without_a_token_asks_to_sign_in_and_opens_once_signed_in() {
    if !run_in_temporary_home("an_sso_profile_without_a_token_asks_to_sign_in_and_opens_once_signed_in") {
        return;
    }
    let (url, seen) = identity_center::serve(28_800, Approval::Approve).await;
    let (app, id, _data) = app_with_sso_profile(&url).await;

    let asked = app.list_tables(&id, None).await.unwrap_err();
    assert_eq!(asked.code, ErrorCode::SsoSignInRequired, "{asked:?}");
    assert!(
        asked.message.contains("https://corp.awsapps.com/start"),
        "{}",
        asked.message
    );
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing is sent before the sign-in"
    );

    let browser = RecordingBrowser::default();
    let prompt = app.start_sso_sign_in(&id, &browser).await.unwrap();
    assert_eq!(prompt.user_code, "ABCD-EFGH");
    assert_eq!(prompt.verification_uri, "https://device.sso.example/");
    assert_eq!(
        *browser.0.lock().unwrap(),
        ["https://device.sso.example/?user_code=ABCD-EFGH"]
    );
    app.finish_sso_sign_in(&id).await.unwrap();

    let tables = app.list_tables(&id, None).await.unwrap();
    assert_eq!(tables.names, ["signed-by-ASIAWITH-access-1"]);

    // Signing out with the AWS CLI (`aws sso logout` deletes the cached token): the open
    // connection asks to sign in again rather than going on with the role's credentials.
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    for entry in std::fs::read_dir(home.join(".aws/sso/cache")).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    let asked = app.list_tables(&id, None).await.unwrap_err();
    assert_eq!(asked.code, ErrorCode::SsoSignInRequired, "{asked:?}");
}

#[tokio::test]
async fn a_sign_in_can_be_cancelled_while_it_waits() {
    if !run_in_temporary_home("a_sign_in_can_be_cancelled_while_it_waits") {
        return;
    }
    let (url, seen) = identity_center::serve(28_800, Approval::Never).await;
    let (app, id, _data) = app_with_sso_profile(&url).await;
    app.start_sso_sign_in(&id, &RecordingBrowser::default())
        .await
        .unwrap();
    let waiting = {
        let app = app.clone();
        let id = id.clone();
        tokio::spawn(async move { app.finish_sso_sign_in(&id).await })
    };
    // Cancelled while it waits: once it has asked for the token (and been told to wait).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !seen.lock().unwrap().iter().any(|(path, _)| path == "/token") {
        assert!(
            std::time::Instant::now() < deadline,
            "the sign-in never asked for its token"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    app.cancel_sso_sign_in(&id).await;
    let cancelled = waiting.await.unwrap().unwrap_err();
    assert_eq!(cancelled.code, ErrorCode::Cancelled, "{cancelled:?}");
    assert_eq!(
        app.list_tables(&id, None).await.unwrap_err().code,
        ErrorCode::SsoSignInRequired
    );
}
