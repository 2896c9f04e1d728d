//! The AWS named profiles the user already has, as DynoTable lists them in its sidebar.

use std::borrow::Cow;

use aws_config::profile::ProfileFileLoadError;
use aws_runtime::env_config::file::EnvConfigFiles;
use aws_types::os_shim_internal::{Env, Fs};
use serde::Serialize;

use crate::files::AwsFiles;

/// Where a profile's credentials come from (what the UI says; the values stay in the files).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum CredentialSource {
    /// `aws_access_key_id` / `aws_secret_access_key` (and maybe a session token) in the files.
    StaticKeys { with_session_token: bool },
    /// IAM Identity Center: `sso_session` (or the legacy `sso_start_url`) with an account and role.
    Sso {
        session: Option<String>,
        account_id: Option<String>,
        role_name: Option<String>,
    },
    /// `role_arn` assumed from `source_profile` or `credential_source`; MFA when `mfa_serial` is set.
    AssumeRole {
        role_arn: String,
        source_profile: Option<String>,
        mfa: bool,
    },
    /// `credential_process`: a command that prints credentials.
    Process,
    /// `web_identity_token_file` with `role_arn`.
    WebIdentity { role_arn: String },
    /// Nothing in the profile: credentials from the environment or instance metadata, or none.
    Other,
}

/// A named profile from the AWS config files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct AwsProfile {
    pub name: String,
    pub region: Option<String>,
    /// The profile's `endpoint_url` (or `services` → `dynamodb` endpoint is not resolved here).
    pub endpoint_url: Option<String>,
    pub credentials: CredentialSource,
}

#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("the AWS config files could not be read: {0}")]
    Load(#[from] ProfileFileLoadError),
    /// A key the AWS CLI would refuse too.
    #[error("the profile {profile} sets {key} = {value}, but it must be {expected}")]
    Invalid {
        profile: String,
        key: String,
        value: String,
        expected: String,
    },
}

/// The profiles of the AWS config and credentials files, by name. Missing files are not an
/// error: the list is empty.
pub async fn discover(files: &AwsFiles) -> Result<Vec<AwsProfile>, DiscoverError> {
    discover_with(&Fs::real(), &files.env()).await
}

/// [`discover`] with the file system and environment given (tests use temporary files).
pub async fn discover_with(fs: &Fs, env: &Env) -> Result<Vec<AwsProfile>, DiscoverError> {
    let set =
        aws_config::profile::load(fs, env, &EnvConfigFiles::default(), None::<Cow<'static, str>>).await?;
    let mut names: Vec<&str> = set.profiles().collect();
    names.sort_unstable();
    Ok(names
        .into_iter()
        .filter_map(|name| set.get_profile(name))
        .map(|profile| {
            let get = |key: &str| profile.get(key).map(str::to_owned);
            let credentials = if let Some(role_arn) = get("role_arn") {
                match get("web_identity_token_file") {
                    Some(_) => CredentialSource::WebIdentity { role_arn },
                    None => CredentialSource::AssumeRole {
                        role_arn,
                        source_profile: get("source_profile"),
                        mfa: get("mfa_serial").is_some(),
                    },
                }
            } else if get("sso_session").is_some() || get("sso_start_url").is_some() {
                CredentialSource::Sso {
                    session: get("sso_session"),
                    account_id: get("sso_account_id"),
                    role_name: get("sso_role_name"),
                }
            } else if get("credential_process").is_some() {
                CredentialSource::Process
            } else if get("aws_access_key_id").is_some() {
                CredentialSource::StaticKeys {
                    with_session_token: get("aws_session_token").is_some(),
                }
            } else {
                CredentialSource::Other
            };
            AwsProfile {
                name: profile.name().to_owned(),
                region: get("region"),
                endpoint_url: get("endpoint_url"),
                credentials,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"
[default]
region = eu-west-1

[profile prod]
sso_session = corp
sso_account_id = 111122223333
sso_role_name = ReadOnly
region = us-east-1

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-1

[profile admin]
role_arn = arn:aws:iam::111122223333:role/Admin
source_profile = default
mfa_serial = arn:aws:iam::111122223333:mfa/me

[profile tool]
credential_process = /usr/local/bin/get-creds

[profile local]
endpoint_url = http://127.0.0.1:8000
region = local
"#;

    const CREDENTIALS: &str = r#"
[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY

[local]
aws_access_key_id = local
aws_secret_access_key = local
aws_session_token = token
"#;

    #[tokio::test]
    async fn every_profile_is_listed_with_where_its_credentials_come_from_and_no_secret() {
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config");
        let credentials = dir.path().join("credentials");
        std::fs::write(&config, CONFIG).unwrap();
        std::fs::write(&credentials, CREDENTIALS).unwrap();
        let env = Env::from_slice(&[
            ("HOME", dir.path().to_str().unwrap()),
            ("AWS_CONFIG_FILE", config.to_str().unwrap()),
            ("AWS_SHARED_CREDENTIALS_FILE", credentials.to_str().unwrap()),
        ]);
        let profiles = discover_with(&Fs::real(), &env).await.unwrap();
        let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["admin", "default", "local", "prod", "tool"]);

        let by_name = |n: &str| profiles.iter().find(|p| p.name == n).unwrap();
        assert_eq!(
            by_name("default").credentials,
            CredentialSource::StaticKeys {
                with_session_token: false
            }
        );
        assert_eq!(by_name("default").region.as_deref(), Some("eu-west-1"));
        assert_eq!(
            by_name("prod").credentials,
            CredentialSource::Sso {
                session: Some("corp".into()),
                account_id: Some("111122223333".into()),
                role_name: Some("ReadOnly".into())
            }
        );
        assert_eq!(
            by_name("admin").credentials,
            CredentialSource::AssumeRole {
                role_arn: "arn:aws:iam::111122223333:role/Admin".into(),
                source_profile: Some("default".into()),
                mfa: true
            }
        );
        assert_eq!(by_name("tool").credentials, CredentialSource::Process);
        assert_eq!(
            by_name("local").endpoint_url.as_deref(),
            Some("http://127.0.0.1:8000")
        );
        assert_eq!(
            by_name("local").credentials,
            CredentialSource::StaticKeys {
                with_session_token: true
            }
        );

        let shown = serde_json::to_string(&profiles).unwrap();
        assert!(
            !shown.contains("EXAMPLEKEY") && !shown.contains("token\""),
            "{shown}"
        );
    }

    #[tokio::test]
    async fn no_config_files_means_no_profiles() {
        let dir = tempfile::tempdir().unwrap();
        let env = Env::from_slice(&[
            ("HOME", dir.path().to_str().unwrap()),
            ("AWS_CONFIG_FILE", dir.path().join("missing").to_str().unwrap()),
            (
                "AWS_SHARED_CREDENTIALS_FILE",
                dir.path().join("missing2").to_str().unwrap(),
            ),
        ]);
        assert!(discover_with(&Fs::real(), &env).await.unwrap().is_empty());
    }
}
