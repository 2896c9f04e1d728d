//! In-app sign-in to IAM Identity Center against a stand-in on loopback
//! (`dynotable_stand_ins::identity_center::serve`) that plays SSO OIDC (RegisterClient,
//! StartDeviceAuthorization, CreateToken), the access portal (GetRoleCredentials) and
//! DynamoDB — every profile's `endpoint_url` points at it.
//!
//! The token cache lives under `HOME`, which aws-config reads from the process's environment,
//! so each test's body runs in a child process whose `HOME` and AWS files are a temporary
//! directory (`in_child_with_env`): nothing reads or writes the real `~/.aws`.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use dynotable_aws::client::{Target, client};
use dynotable_aws::files::AwsFiles;
use dynotable_aws::sso::{
    Browser, CachedSignIn, SsoError, cache_file, cached_sign_in, sso_login_settings, start_sign_in,
};
use dynotable_stand_ins::identity_center::{self, Approval};
use dynotable_stand_ins::in_child_with_env;

/// The browser of the tests: it remembers the pages it was asked to open.
#[derive(Default)]
struct RecordingBrowser(Mutex<Vec<String>>);

impl Browser for RecordingBrowser {
    fn open(&self, url: &str) -> Result<(), String> {
        self.0.lock().unwrap().push(url.to_owned());
        Ok(())
    }
}

/// The parent's side: a temporary home whose `.aws` holds the files, handed to the child.
fn run_in_temporary_home(test: &str) -> bool {
    let home = tempfile::tempdir().unwrap().keep();
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    let config = home.join(".aws/config");
    let credentials = home.join(".aws/credentials");
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

/// The child's side: the AWS files of the temporary home, written for the stand-in at `url`.
fn files_for(url: &str) -> (AwsFiles, PathBuf) {
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let config = home.join(".aws/config");
    std::fs::write(
        &config,
        format!(
            "[profile dev]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Reader\n\
             region = eu-west-1\nendpoint_url = {url}\n\n\
             [sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1\n\
             sso_registration_scopes = sso:account:access\n"
        ),
    )
    .unwrap();
    std::fs::write(home.join(".aws/credentials"), "").unwrap();
    let files = AwsFiles::Given {
        config,
        credentials: home.join(".aws/credentials"),
    };
    (files, home)
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test]
async fn signing_in_opens_the_browser_caches_the_token_as_the_cli_does_and_it_is_refreshed() {
    if !run_in_temporary_home(
        "signing_in_opens_the_browser_caches_the_token_as_the_cli_does_and_it_is_refreshed",
    ) {
        return;
    }
    // The first token expires within the SDK's refresh window (five minutes), so its first use
    // refreshes it.
    let (url, seen) = identity_center::serve(60, Approval::Approve).await;
    let (files, home) = files_for(&url);
    let login = sso_login_settings(&files, "dev").await.unwrap().unwrap();
    assert_eq!(login.session.as_deref(), Some("corp"));
    assert_eq!(login.scopes, ["sso:account:access"]);

    let browser = RecordingBrowser::default();
    let pending = start_sign_in(&files, &login, &browser).await.unwrap();
    assert_eq!(pending.user_code, "ABCD-EFGH");
    assert_eq!(pending.verification_uri, "https://device.sso.example/");
    assert_eq!(
        *browser.0.lock().unwrap(),
        ["https://device.sso.example/?user_code=ABCD-EFGH"]
    );
    let shown = format!("{pending:?}");
    assert!(
        !shown.contains("device-code-1") && !shown.contains("client-secret-1"),
        "{shown}"
    );

    assert_eq!(
        cached_sign_in(&login, std::time::SystemTime::now()),
        CachedSignIn::Missing
    );
    let signed_in = pending.wait().await.unwrap();
    assert_eq!(
        cached_sign_in(&login, std::time::SystemTime::now()),
        CachedSignIn::Valid
    );
    // Past its expiry, the token can still be refreshed: its registration lasts until 2099.
    let later = signed_in.expires_at + std::time::Duration::from_secs(1);
    assert_eq!(cached_sign_in(&login, later), CachedSignIn::Refreshable);
    // Where the AWS CLI caches an sso_session's token: the SHA-1 of the session's name
    // (`printf corp | sha1sum`).
    let expected = home.join(".aws/sso/cache/ee0bfd2552fbd840c02cc48b6e823320543c450f.json");
    assert_eq!(signed_in.cache_file, expected);
    assert_eq!(cache_file(&login).unwrap(), expected);
    let cached = read_json(&expected);
    assert_eq!(cached["accessToken"], "access-1");
    assert_eq!(cached["refreshToken"], "refresh-1");
    assert_eq!(cached["clientId"], "client-1");
    assert_eq!(cached["clientSecret"], "client-secret-1");
    assert_eq!(cached["registrationExpiresAt"], "2099-01-01T00:00:00Z");
    assert_eq!(cached["region"], "eu-west-1");
    assert_eq!(cached["startUrl"], "https://corp.awsapps.com/start");
    assert!(cached["expiresAt"].as_str().unwrap().ends_with('Z'), "{cached}");
    let polls: Vec<String> = seen.lock().unwrap().iter().map(|(p, _)| p.clone()).collect();
    assert_eq!(
        polls,
        ["/client/register", "/device_authorization", "/token", "/token"],
        "registered, started, polled while pending, then granted"
    );
    let device_grant = seen.lock().unwrap()[2].1.clone();
    assert!(
        device_grant.contains("device-code-1") && device_grant.contains("device_code"),
        "{device_grant}"
    );

    // aws-config's own SSO provider reads that cache: the token is refreshed with its refresh
    // token (and written back), then traded for the role's credentials, which sign DynamoDB.
    let dynamodb = client(&files, Target::Profile { name: "dev" }, "eu-west-1").await;
    let tables = dynamodb.list_tables().send().await.unwrap();
    assert_eq!(tables.table_names(), ["signed-by-ASIAWITH-access-2"]);
    let refresh = seen
        .lock()
        .unwrap()
        .iter()
        .find(|(path, body)| path == "/token" && body.contains("refresh_token"))
        .cloned()
        .expect("the token was refreshed");
    assert!(
        refresh.1.contains("refresh-1") && refresh.1.contains("client-1"),
        "{}",
        refresh.1
    );
    assert_eq!(read_json(&expected)["accessToken"], "access-2");
}

#[tokio::test]
async fn a_sign_in_refused_in_the_browser_says_so_and_caches_nothing() {
    if !run_in_temporary_home("a_sign_in_refused_in_the_browser_says_so_and_caches_nothing") {
        return;
    }
    let (url, _) = identity_center::serve(3600, Approval::Deny).await;
    let (files, _) = files_for(&url);
    let login = sso_login_settings(&files, "dev").await.unwrap().unwrap();
    let pending = start_sign_in(&files, &login, &RecordingBrowser::default())
        .await
        .unwrap();
    assert_eq!(pending.wait().await.unwrap_err(), SsoError::Denied);
    assert!(!cache_file(&login).unwrap().exists());
}
