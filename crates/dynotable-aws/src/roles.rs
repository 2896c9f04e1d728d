//! A profile's role, assumed as the AWS CLI assumes it.
//!
//! The life of a request on such a profile: [`role_settings`] reads the profile's keys —
//! `role_arn`, where the credentials that call STS come from (`source_profile`, or
//! `credential_source` naming the environment, the EC2 instance or the ECS container), and the
//! optional `mfa_serial`, `external_id`, `role_session_name` and `duration_seconds`. Then
//! [`source_config`] loads the SDK settings whose credentials sign AssumeRole, and either
//! [`crate::mfa`] calls AssumeRole with a code the user typed (when `mfa_serial` is set), or
//! [`assume_role_provider`] hands the whole step to aws-config's `AssumeRoleProvider`, which
//! caches the temporary credentials and assumes the role again before they expire.
//!
//! aws-config's own profile chain already honours `credential_source`, `external_id` and
//! `role_session_name`, but not `duration_seconds` (aws-config 1.13's
//! `profile/credentials/exec.rs` sends no `DurationSeconds`), so [`crate::client`] uses
//! [`assume_role_provider`] for profiles that set it.
//!
//! The keys and their values are the shared config file's, as the SDKs and Tools reference
//! guide lists them ("Assume role credential provider settings",
//! <https://docs.aws.amazon.com/sdkref/latest/guide/feature-assume-role-credentials>):
//! `credential_source` is `Environment`, `Ec2InstanceMetadata` or `EcsContainer`, and
//! `duration_seconds` runs from 900 seconds up to the role's maximum session duration.

use std::borrow::Cow;
use std::time::Duration;

use aws_config::BehaviorVersion;
use aws_credential_types::provider::SharedCredentialsProvider;
use aws_runtime::env_config::file::EnvConfigFiles;
use aws_types::SdkConfig;
use aws_types::os_shim_internal::{Env, Fs};
use aws_types::region::Region;

use crate::files::AwsFiles;
use crate::profiles::DiscoverError;

/// Where the credentials that call STS AssumeRole come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoleSource {
    /// `source_profile`: another profile of the files (itself maybe a role).
    Profile(String),
    /// `credential_source = Environment`: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`.
    Environment,
    /// `credential_source = Ec2InstanceMetadata`: the instance profile's role.
    Ec2InstanceMetadata,
    /// `credential_source = EcsContainer`: the container's task role.
    EcsContainer,
}

/// A profile's `role_arn` and everything the AWS CLI reads with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleSettings {
    /// The profile the user opened.
    pub profile: String,
    pub role_arn: String,
    pub source: RoleSource,
    /// `mfa_serial`: the device whose code AssumeRole needs.
    pub mfa_serial: Option<String>,
    /// `external_id`: the id the role's trust policy may ask for (third-party access).
    pub external_id: Option<String>,
    /// `role_session_name`: the name of the session in CloudTrail.
    pub session_name: Option<String>,
    /// `duration_seconds`: how long the role's credentials last.
    pub duration_seconds: Option<i32>,
}

impl RoleSettings {
    /// The session name sent to STS: the profile's, else `dynotable`.
    pub fn session_name_or_default(&self) -> &str {
        self.session_name.as_deref().unwrap_or("dynotable")
    }
}

/// The role settings of `profile` in `files`; `None` when it assumes no role (or assumes one
/// with a web identity token, which aws-config handles on its own).
pub async fn role_settings(files: &AwsFiles, profile: &str) -> Result<Option<RoleSettings>, DiscoverError> {
    role_settings_with(&Fs::real(), &files.env(), profile).await
}

/// [`role_settings`] with the file system and environment given.
pub async fn role_settings_with(
    fs: &Fs,
    env: &Env,
    profile: &str,
) -> Result<Option<RoleSettings>, DiscoverError> {
    let set =
        aws_config::profile::load(fs, env, &EnvConfigFiles::default(), None::<Cow<'static, str>>).await?;
    let Some(found) = set.get_profile(profile) else {
        return Ok(None);
    };
    let get = |key: &str| found.get(key).map(str::to_owned);
    let invalid = |key: &str, value: &str, expected: &str| DiscoverError::Invalid {
        profile: profile.to_owned(),
        key: key.to_owned(),
        value: value.to_owned(),
        expected: expected.to_owned(),
    };
    let Some(role_arn) = get("role_arn") else {
        return Ok(None);
    };
    if get("web_identity_token_file").is_some() {
        return Ok(None);
    }
    let source = match (get("source_profile"), get("credential_source")) {
        (Some(name), None) => RoleSource::Profile(name),
        (None, Some(named)) => match named.as_str() {
            "Environment" => RoleSource::Environment,
            "Ec2InstanceMetadata" => RoleSource::Ec2InstanceMetadata,
            "EcsContainer" => RoleSource::EcsContainer,
            _ => {
                return Err(invalid(
                    "credential_source",
                    &named,
                    "Environment, Ec2InstanceMetadata or EcsContainer",
                ));
            }
        },
        (Some(_), Some(_)) => {
            return Err(invalid(
                "credential_source",
                &get("credential_source").unwrap_or_default(),
                "either source_profile or credential_source, not both",
            ));
        }
        (None, None) => {
            return Err(invalid(
                "role_arn",
                &role_arn,
                "a source_profile or a credential_source with it",
            ));
        }
    };
    let duration_seconds = match get("duration_seconds") {
        None => None,
        Some(text) => Some(
            text.trim()
                .parse::<i32>()
                .ok()
                .filter(|seconds| *seconds >= 900)
                .ok_or_else(|| invalid("duration_seconds", &text, "a number of seconds, 900 or more"))?,
        ),
    };
    Ok(Some(RoleSettings {
        profile: profile.to_owned(),
        role_arn,
        source,
        mfa_serial: get("mfa_serial"),
        external_id: get("external_id"),
        session_name: get("role_session_name"),
        duration_seconds,
    }))
}

/// The SDK settings whose credentials call STS for `role`, in `region`: the source profile as
/// aws-config loads it, or the role's own profile (its endpoint) with the credentials
/// `credential_source` names.
pub async fn source_config(files: &AwsFiles, role: &RoleSettings, region: &str) -> SdkConfig {
    let loader =
        files.apply(aws_config::defaults(BehaviorVersion::latest()).region(Region::new(region.to_owned())));
    match &role.source {
        RoleSource::Profile(name) => loader.profile_name(name).load().await,
        RoleSource::Environment => {
            loader
                .profile_name(&role.profile)
                .credentials_provider(
                    aws_config::environment::credentials::EnvironmentVariableCredentialsProvider::new(),
                )
                .load()
                .await
        }
        RoleSource::Ec2InstanceMetadata => {
            loader
                .profile_name(&role.profile)
                .credentials_provider(
                    aws_config::imds::credentials::ImdsCredentialsProvider::builder().build(),
                )
                .load()
                .await
        }
        RoleSource::EcsContainer => {
            loader
                .profile_name(&role.profile)
                .credentials_provider(aws_config::ecs::EcsCredentialsProvider::builder().build())
                .load()
                .await
        }
    }
}

/// aws-config's AssumeRoleProvider for `role` (no MFA), with its external id, session name and
/// duration; it caches the credentials and assumes the role again before they expire.
pub async fn assume_role_provider(
    files: &AwsFiles,
    role: &RoleSettings,
    region: &str,
) -> SharedCredentialsProvider {
    let source = source_config(files, role, region).await;
    let mut builder = aws_config::sts::AssumeRoleProvider::builder(&role.role_arn)
        .session_name(role.session_name_or_default())
        .configure(&source);
    if let Some(id) = &role.external_id {
        builder = builder.external_id(id);
    }
    if let Some(seconds) = role.duration_seconds {
        builder = builder.session_length(Duration::from_secs(seconds.unsigned_abs().into()));
    }
    SharedCredentialsProvider::new(builder.build().await)
}
