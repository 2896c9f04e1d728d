//! Signing in to IAM Identity Center (SSO) from the app, as `aws sso login` does, with the
//! OAuth device authorization grant of SSO OIDC.
//!
//! The life of a sign-in: [`sso_login_settings`] reads the profile's `sso_session` section (or
//! the legacy `sso_start_url` / `sso_region` in the profile itself). [`start_sign_in`] registers
//! DynoTable as an OIDC client (RegisterClient) and starts a device authorization
//! (StartDeviceAuthorization); it hands the verification URL to a [`Browser`] — the system
//! browser in the desktop shell, a recorder in tests — and returns a [`PendingSignIn`] whose
//! user code the app shows. [`PendingSignIn::wait`] then polls CreateToken at the interval the
//! service asks for until the user has approved (or refused, or the code expired), and writes
//! the token where the AWS CLI caches it, so the CLI and DynoTable share one sign-in.
//!
//! From then on aws-config's own SSO providers read that cache: they trade the token for the
//! role's credentials (GetRoleCredentials) and, for `sso_session` profiles, refresh the token
//! with its refresh token when it nears its expiry, writing the new one back to the same file.
//!
//! The cache, as the SDKs read it: `~/.aws/sso/cache/<hex SHA-1 of the sso_session name, or of
//! the start URL for legacy profiles>.json` (aws-config's `sso/cache.rs`,
//! <https://docs.rs/crate/aws-config/1.8.16/source/src/sso/cache.rs>), holding `accessToken`,
//! `expiresAt`, `refreshToken`, `clientId`, `clientSecret`, `registrationExpiresAt`, `region`
//! and `startUrl` (the SDKs' cached SSO token, e.g.
//! <https://docs.aws.amazon.com/sdk-for-cpp/latest/api/aws-cpp-sdk-core/html/struct_aws_1_1_auth_1_1_s_s_o_bearer_token_provider_1_1_cached_sso_token.html>
//! and <https://docs.amazonaws.cn/aws-sdk-php/latest/class-Aws.Token.SsoToken.html>). The
//! profile keys are those of the IAM Identity Center credential provider
//! (<https://docs.aws.amazon.com/sdkref/latest/guide/feature-sso-credentials.md>):
//! `sso_session`, and in `[sso-session NAME]` `sso_start_url`, `sso_region` and
//! `sso_registration_scopes` (default `sso:account:access`).

use std::borrow::Cow;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use aws_config::BehaviorVersion;
use aws_runtime::env_config::file::EnvConfigFiles;
use aws_sdk_ssooidc::Client as OidcClient;
use aws_smithy_types::DateTime;
use aws_smithy_types::date_time::Format;
use aws_types::os_shim_internal::{Env, Fs};
use aws_types::region::Region;
use sha1::{Digest, Sha1};

use crate::files::AwsFiles;
use crate::profiles::DiscoverError;

/// Opens a URL for the user to see (the system browser in the app; a recorder in tests).
pub trait Browser: Send + Sync {
    fn open(&self, url: &str) -> Result<(), String>;
}

/// A token or a secret: its Debug output shows nothing of it.
#[derive(Clone, PartialEq, Eq)]
pub struct Hidden(String);

impl Hidden {
    pub fn new(value: impl Into<String>) -> Hidden {
        Hidden(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Hidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Where and how a profile signs in to IAM Identity Center.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsoLogin {
    /// The profile the user opened.
    pub profile: String,
    /// The `sso_session` it names; `None` for the legacy `sso_start_url` in the profile, whose
    /// token the SDKs cannot refresh.
    pub session: Option<String>,
    pub start_url: String,
    /// `sso_region`: where the IAM Identity Center instance lives.
    pub region: String,
    /// `sso_registration_scopes`, for `sso_session` profiles.
    pub scopes: Vec<String>,
}

impl SsoLogin {
    /// What the cache file is named after: the session's name, else the start URL.
    fn cache_identifier(&self) -> &str {
        self.session.as_deref().unwrap_or(&self.start_url)
    }
}

/// Why a sign-in did not finish.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SsoError {
    /// The profile signs in with no IAM Identity Center (or lacks its start URL or region).
    #[error(
        "The profile {0} does not sign in with IAM Identity Center (no sso_session or sso_start_url with sso_region)."
    )]
    NotSso(String),
    /// The user refused the request in the browser.
    #[error("The sign-in was refused in the browser.")]
    Denied,
    /// The code was not approved in time.
    #[error("The sign-in code expired before it was approved. Start again.")]
    Expired,
    /// IAM Identity Center could not be reached or answered something else.
    #[error("IAM Identity Center did not sign you in: {0}")]
    Failed(String),
    /// The token could not be written to the AWS CLI's cache.
    #[error("The sign-in worked, but its token could not be saved in {path}: {message}")]
    Cache { path: String, message: String },
}

/// The IAM Identity Center sign-in of `profile` in `files`, when it has one.
pub async fn sso_login_settings(files: &AwsFiles, profile: &str) -> Result<Option<SsoLogin>, DiscoverError> {
    sso_login_settings_with(&Fs::real(), &files.env(), profile).await
}

/// [`sso_login_settings`] with the file system and environment given.
pub async fn sso_login_settings_with(
    fs: &Fs,
    env: &Env,
    profile: &str,
) -> Result<Option<SsoLogin>, DiscoverError> {
    let set =
        aws_config::profile::load(fs, env, &EnvConfigFiles::default(), None::<Cow<'static, str>>).await?;
    let Some(found) = set.get_profile(profile) else {
        return Ok(None);
    };
    if let Some(name) = found.get("sso_session") {
        let Some(section) = set.sso_session(name) else {
            return Ok(None);
        };
        let (Some(start_url), Some(region)) = (section.get("sso_start_url"), section.get("sso_region"))
        else {
            return Ok(None);
        };
        let scopes = section
            .get("sso_registration_scopes")
            .unwrap_or("sso:account:access")
            .split(',')
            .map(|scope| scope.trim().to_owned())
            .filter(|scope| !scope.is_empty())
            .collect();
        return Ok(Some(SsoLogin {
            profile: profile.to_owned(),
            session: Some(name.to_owned()),
            start_url: start_url.to_owned(),
            region: region.to_owned(),
            scopes,
        }));
    }
    Ok(match (found.get("sso_start_url"), found.get("sso_region")) {
        (Some(start_url), Some(region)) => Some(SsoLogin {
            profile: profile.to_owned(),
            session: None,
            start_url: start_url.to_owned(),
            region: region.to_owned(),
            scopes: Vec::new(),
        }),
        _ => None,
    })
}

/// A device authorization waiting for the user's approval in the browser.
#[derive(Debug)]
pub struct PendingSignIn {
    login: SsoLogin,
    client: OidcClient,
    client_id: String,
    client_secret: Hidden,
    registration_expires_at: SystemTime,
    device_code: Hidden,
    /// The code the user checks in the browser.
    pub user_code: String,
    /// Where the user approves the sign-in.
    pub verification_uri: String,
    /// The same, with the code filled in (what the browser is sent to).
    pub verification_uri_complete: Option<String>,
    /// When the code stops being accepted.
    pub expires_at: SystemTime,
    interval: Duration,
}

/// Registers DynoTable with IAM Identity Center, starts a device authorization for `login`,
/// and opens its verification page with `browser`. The OIDC calls go to `sso_region` (and to
/// the profile's `endpoint_url`, when it sets one), read from `files`.
pub async fn start_sign_in(
    files: &AwsFiles,
    login: &SsoLogin,
    browser: &dyn Browser,
) -> Result<PendingSignIn, SsoError> {
    let config = files
        .apply(aws_config::defaults(BehaviorVersion::latest()))
        .profile_name(&login.profile)
        .region(Region::new(login.region.clone()))
        .no_credentials()
        .load()
        .await;
    let client = OidcClient::new(&config);
    let registered = client
        .register_client()
        .client_name("dynotable")
        .client_type("public")
        .set_scopes((!login.scopes.is_empty()).then(|| login.scopes.clone()))
        .send()
        .await
        .map_err(|err| failed(&err))?;
    let (Some(client_id), Some(client_secret)) = (registered.client_id(), registered.client_secret()) else {
        return Err(SsoError::Failed("RegisterClient returned no client".to_owned()));
    };
    let started = client
        .start_device_authorization()
        .client_id(client_id)
        .client_secret(client_secret)
        .start_url(&login.start_url)
        .send()
        .await
        .map_err(|err| failed(&err))?;
    let (Some(device_code), Some(user_code), Some(verification_uri)) = (
        started.device_code(),
        started.user_code(),
        started.verification_uri(),
    ) else {
        return Err(SsoError::Failed(
            "StartDeviceAuthorization returned no device code".to_owned(),
        ));
    };
    let now = SystemTime::now();
    let pending = PendingSignIn {
        login: login.clone(),
        client: client.clone(),
        client_id: client_id.to_owned(),
        client_secret: Hidden::new(client_secret),
        registration_expires_at: std::time::UNIX_EPOCH
            + Duration::from_secs(registered.client_secret_expires_at().max(0).unsigned_abs()),
        device_code: Hidden::new(device_code),
        user_code: user_code.to_owned(),
        verification_uri: verification_uri.to_owned(),
        verification_uri_complete: started.verification_uri_complete().map(str::to_owned),
        expires_at: now + seconds(started.expires_in()),
        interval: seconds(started.interval()).max(Duration::from_secs(1)),
    };
    let page = pending
        .verification_uri_complete
        .as_deref()
        .unwrap_or(&pending.verification_uri);
    browser.open(page).map_err(|message| {
        SsoError::Failed(format!(
            "the browser could not be opened ({message}); open {page} yourself"
        ))
    })?;
    Ok(pending)
}

/// A signed-in session: when its token expires and where it is cached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub expires_at: SystemTime,
    pub cache_file: PathBuf,
}

impl PendingSignIn {
    /// Polls CreateToken until the user approves (then caches the token as the AWS CLI does),
    /// refuses, or lets the code expire. Dropping the future cancels the sign-in.
    pub async fn wait(self) -> Result<SignedIn, SsoError> {
        let mut interval = self.interval;
        loop {
            if SystemTime::now() >= self.expires_at {
                return Err(SsoError::Expired);
            }
            tokio::time::sleep(interval).await;
            let answer = self
                .client
                .create_token()
                .client_id(&self.client_id)
                .client_secret(self.client_secret.expose())
                .grant_type("urn:ietf:params:oauth:grant-type:device_code")
                .device_code(self.device_code.expose())
                .send()
                .await;
            match answer {
                Ok(token) => {
                    let access_token = token
                        .access_token()
                        .ok_or_else(|| SsoError::Failed("CreateToken returned no token".to_owned()))?;
                    let expires_at = SystemTime::now() + seconds(token.expires_in());
                    let cache_file = self.write_cache(access_token, token.refresh_token(), expires_at)?;
                    return Ok(SignedIn {
                        expires_at,
                        cache_file,
                    });
                }
                Err(err) => match err.as_service_error() {
                    Some(e) if e.is_authorization_pending_exception() => {}
                    // RFC 8628 section 3.5: slow down by five seconds.
                    Some(e) if e.is_slow_down_exception() => interval += Duration::from_secs(5),
                    Some(e) if e.is_access_denied_exception() => return Err(SsoError::Denied),
                    Some(e) if e.is_expired_token_exception() => return Err(SsoError::Expired),
                    _ => return Err(failed(&err)),
                },
            }
        }
    }

    /// Writes the token to `~/.aws/sso/cache/<sha1>.json`, as the AWS CLI does.
    fn write_cache(
        &self,
        access_token: &str,
        refresh_token: Option<&str>,
        expires_at: SystemTime,
    ) -> Result<PathBuf, SsoError> {
        let path = cache_file(&self.login)?;
        let mut token = serde_json::Map::new();
        let mut put = |key: &str, value: String| {
            token.insert(key.to_owned(), serde_json::Value::String(value));
        };
        put("startUrl", self.login.start_url.clone());
        put("region", self.login.region.clone());
        put("accessToken", access_token.to_owned());
        put("expiresAt", timestamp(expires_at));
        // Only an sso_session's token is refreshed by the SDKs; a legacy profile's is not.
        if self.login.session.is_some() {
            put("clientId", self.client_id.clone());
            put("clientSecret", self.client_secret.expose().to_owned());
            put("registrationExpiresAt", timestamp(self.registration_expires_at));
            if let Some(refresh_token) = refresh_token {
                put("refreshToken", refresh_token.to_owned());
            }
        }
        let cache_error = |err: std::io::Error| SsoError::Cache {
            path: path.display().to_string(),
            message: err.to_string(),
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(cache_error)?;
        }
        let text = serde_json::Value::Object(token).to_string();
        write_private(&path, text.as_bytes()).map_err(cache_error)?;
        Ok(path)
    }
}

/// The file the AWS CLI caches `login`'s token in, under the user's home (`HOME`, or
/// `USERPROFILE` on Windows, as aws-config finds it).
pub fn cache_file(login: &SsoLogin) -> Result<PathBuf, SsoError> {
    let home =
        aws_runtime::fs_util::home_dir(&Env::real(), aws_runtime::fs_util::Os::real()).ok_or_else(|| {
            SsoError::Cache {
                path: "~/.aws/sso/cache".to_owned(),
                message: "no home directory".to_owned(),
            }
        })?;
    let name = hex::encode(Sha1::digest(login.cache_identifier().as_bytes()));
    Ok(PathBuf::from(home)
        .join(".aws")
        .join("sso")
        .join("cache")
        .join(format!("{name}.json")))
}

/// Writes `bytes` to `path`, readable by its owner only where the system says so.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = path.with_extension("json.tmp");
    std::fs::write(&temporary, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(0o600))?;
    }
    std::fs::rename(&temporary, path)
}

fn timestamp(at: SystemTime) -> String {
    DateTime::from(at)
        .fmt(Format::DateTime)
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_owned())
}

fn seconds(value: i32) -> Duration {
    Duration::from_secs(value.max(0).unsigned_abs().into())
}

fn failed<E, R>(err: &aws_smithy_runtime_api::client::result::SdkError<E, R>) -> SsoError
where
    E: aws_sdk_ssooidc::error::ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    SsoError::Failed(match err.as_service_error() {
        Some(service) => format!(
            "{}: {}",
            service.code().unwrap_or("error"),
            service.message().unwrap_or("no reason given")
        ),
        None => std::error::Error::source(err)
            .map(|s| s.to_string())
            .unwrap_or_else(|| err.to_string()),
    })
}

/// What the AWS CLI's cache holds for a sign-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachedSignIn {
    /// No token: nobody has signed in (here or with `aws sso login`).
    Missing,
    /// A token that has not expired.
    Valid,
    /// An expired token the SDK can refresh (a refresh token and a client registration that has
    /// not expired).
    Refreshable,
    /// An expired token that cannot be refreshed: the user signs in again.
    Expired,
}

/// The state of `login`'s cached token at `now`.
pub fn cached_sign_in(login: &SsoLogin, now: SystemTime) -> CachedSignIn {
    let Ok(path) = cache_file(login) else {
        return CachedSignIn::Missing;
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        return CachedSignIn::Missing;
    };
    let Ok(token) = serde_json::from_str::<serde_json::Value>(&text) else {
        return CachedSignIn::Missing;
    };
    let instant = |key: &str| {
        token[key]
            .as_str()
            .and_then(|text| DateTime::from_str(text, Format::DateTime).ok())
            .and_then(|at| SystemTime::try_from(at).ok())
    };
    if token["accessToken"].as_str().is_none() {
        return CachedSignIn::Missing;
    }
    if instant("expiresAt").is_some_and(|at| at > now) {
        return CachedSignIn::Valid;
    }
    let refreshable = token["refreshToken"].is_string()
        && token["clientId"].is_string()
        && token["clientSecret"].is_string()
        && instant("registrationExpiresAt").is_some_and(|at| at > now);
    if refreshable && login.session.is_some() {
        CachedSignIn::Refreshable
    } else {
        CachedSignIn::Expired
    }
}
