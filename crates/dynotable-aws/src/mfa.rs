//! Assuming a profile's role when it asks for MFA (`mfa_serial` in the profile): aws-config reads
//! such profiles but cannot ask anyone for the code, so DynoTable does this one step itself —
//! the user types the code, STS AssumeRole is called with the source's credentials (the source
//! profile's, or those `credential_source` names), the device's serial and the code — and the
//! profile's `external_id`, `role_session_name` and `duration_seconds` — and the temporary
//! credentials it returns sign DynamoDB calls until they expire. Then the app asks for a code
//! again (see `dynotable-app`'s sessions).

use std::time::SystemTime;

use aws_types::SdkConfig;
use aws_types::os_shim_internal::{Env, Fs};

use crate::files::AwsFiles;
use crate::profiles::DiscoverError;
use crate::roles::{RoleSettings, role_settings_with};

/// A role that needs an MFA code before it can be assumed: its settings (see [`crate::roles`])
/// and the device whose code AssumeRole needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MfaChallenge {
    pub role: RoleSettings,
    /// The MFA device (`arn:aws:iam::…:mfa/…` or a hardware serial).
    pub mfa_serial: String,
}

/// Temporary credentials from STS. Debug output never shows the secret or the token.
#[derive(Clone)]
pub struct AssumedCredentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: String,
    pub expires_at: SystemTime,
}

impl std::fmt::Debug for AssumedCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AssumedCredentials")
            .field("access_key_id", &self.access_key_id)
            .field("expires_at", &self.expires_at)
            .finish_non_exhaustive()
    }
}

/// How long before their expiry temporary credentials count as expired: a request signed just
/// before the end may reach AWS just after it.
pub const EXPIRY_MARGIN: std::time::Duration = std::time::Duration::from_secs(5);

impl AssumedCredentials {
    /// Whether the credentials are still good at `now`, [`EXPIRY_MARGIN`] before they expire.
    pub fn is_fresh(&self, now: SystemTime) -> bool {
        self.expires_at > now + EXPIRY_MARGIN
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MfaError {
    /// The code is not what an authenticator shows (six digits).
    #[error("An MFA code is the 6 digits your authenticator shows.")]
    MalformedCode,
    /// STS refused the code or the role.
    #[error("AWS refused to assume {role_arn}: {message}")]
    Refused { role_arn: String, message: String },
    /// STS could not be reached or answered something else.
    #[error("The role could not be assumed: {0}")]
    Failed(String),
}

/// The MFA challenge of `profile` in `files`, when its role asks for one.
pub async fn mfa_challenge(files: &AwsFiles, profile: &str) -> Result<Option<MfaChallenge>, DiscoverError> {
    mfa_challenge_with(&Fs::real(), &files.env(), profile).await
}

/// [`mfa_challenge`] with the file system and environment given.
pub async fn mfa_challenge_with(
    fs: &Fs,
    env: &Env,
    profile: &str,
) -> Result<Option<MfaChallenge>, DiscoverError> {
    Ok(role_settings_with(fs, env, profile).await?.and_then(|role| {
        let mfa_serial = role.mfa_serial.clone()?;
        Some(MfaChallenge { role, mfa_serial })
    }))
}

/// The configuration whose credentials call STS for the challenge's role (its source profile,
/// or its `credential_source`).
pub async fn source_config(files: &AwsFiles, challenge: &MfaChallenge, region: &str) -> SdkConfig {
    crate::roles::source_config(files, &challenge.role, region).await
}

/// Calls STS AssumeRole with the MFA `code`, signed with `source`'s credentials.
pub async fn assume_role_with_mfa(
    source: &SdkConfig,
    challenge: &MfaChallenge,
    code: &str,
) -> Result<AssumedCredentials, MfaError> {
    let code = code.trim();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(MfaError::MalformedCode);
    }
    let output = aws_sdk_sts::Client::new(source)
        .assume_role()
        .role_arn(&challenge.role.role_arn)
        .role_session_name(challenge.role.session_name_or_default())
        .set_external_id(challenge.role.external_id.clone())
        .serial_number(&challenge.mfa_serial)
        .token_code(code)
        .set_duration_seconds(challenge.role.duration_seconds)
        .send()
        .await
        .map_err(|err| {
            use aws_sdk_sts::error::ProvideErrorMetadata;
            match err.as_service_error() {
                Some(service) => MfaError::Refused {
                    role_arn: challenge.role.role_arn.clone(),
                    message: service.message().unwrap_or("no reason given").to_owned(),
                },
                None => MfaError::Failed(
                    std::error::Error::source(&err)
                        .map(|s| s.to_string())
                        .unwrap_or_else(|| err.to_string()),
                ),
            }
        })?;
    let credentials = output
        .credentials()
        .ok_or_else(|| MfaError::Failed("STS returned no credentials".to_owned()))?;
    let expires_at = SystemTime::try_from(*credentials.expiration())
        .map_err(|err| MfaError::Failed(format!("STS returned an unreadable expiry: {err}")))?;
    Ok(AssumedCredentials {
        access_key_id: credentials.access_key_id().to_owned(),
        secret_access_key: credentials.secret_access_key().to_owned(),
        session_token: credentials.session_token().to_owned(),
        expires_at,
    })
}
