//! Open connections: one aws-sdk-dynamodb client per profile, built on first use and kept while
//! the app runs, so several connections are open at once and each command reuses its client.
//!
//! Every data command starts here: [`App::session`] finds the profile, builds (or reuses) its
//! client — the embedded engine's through the in-process HTTP client, the others through
//! aws-config — and [`Session::writable`] refuses a write on a read-only profile before anything
//! is sent.

use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use dynotable_aws::client::Target;

use crate::profiles::{Connection, PLACEHOLDER_KEY, Profile};
use crate::{App, CommandError, ErrorCode};

/// A profile with its open client.
#[derive(Debug)]
pub struct Session {
    pub profile: Profile,
    pub client: Client,
    /// Tables described on this connection, by name: their keys and indexes, so a Query or a
    /// write needs no DescribeTable of its own (kept fresh by `describe_table`, `create_table`
    /// and `delete_table`; fetched again when an index is asked for that it lacks).
    pub(crate) descriptions:
        std::sync::Mutex<std::collections::HashMap<String, crate::dto::TableDescription>>,
    /// The connection's DynamoDB Streams client, built the first time a stream is read.
    pub(crate) streams: tokio::sync::OnceCell<aws_sdk_dynamodbstreams::Client>,
    /// When the credentials the client signs with expire, when DynoTable bought them itself (a
    /// role assumed with an MFA code). The session is not used past it: the next command opens
    /// the profile again, which asks for a new code (`MFA_REQUIRED`).
    pub(crate) expires_at: Option<std::time::SystemTime>,
    /// The IAM Identity Center sign-in the client's credentials come from, when they do: the
    /// session is not used once its token is gone (signed out) or expired beyond refresh.
    pub(crate) sso: Option<dynotable_aws::sso::SsoLogin>,
}

/// An SDK client the app builds per connection: DynamoDB's, or DynamoDB Streams'.
pub(crate) trait SdkClient: Sized {
    /// The client of the embedded engine, its requests handled in-process.
    fn embedded(engine: dynotable_engine::Engine) -> Self;
    /// The client of an AWS or endpoint connection.
    fn remote(
        files: &dynotable_aws::files::AwsFiles,
        target: Target<'_>,
        region: &str,
    ) -> impl std::future::Future<Output = Self> + Send;
}

impl SdkClient for Client {
    fn embedded(engine: dynotable_engine::Engine) -> Client {
        dynotable_aws::in_process::embedded_client(engine)
    }
    async fn remote(files: &dynotable_aws::files::AwsFiles, target: Target<'_>, region: &str) -> Client {
        dynotable_aws::client::client(files, target, region).await
    }
}

impl SdkClient for aws_sdk_dynamodbstreams::Client {
    fn embedded(engine: dynotable_engine::Engine) -> Self {
        dynotable_aws::in_process::embedded_streams_client(engine)
    }
    async fn remote(files: &dynotable_aws::files::AwsFiles, target: Target<'_>, region: &str) -> Self {
        dynotable_aws::client::streams_client(files, target, region).await
    }
}

impl Session {
    /// The session, if its profile allows writes; `READ_ONLY` otherwise.
    pub fn writable(&self) -> Result<&Session, CommandError> {
        if self.profile.read_only {
            Err(CommandError::new(
                ErrorCode::ReadOnly,
                format!(
                    "The connection \u{201c}{}\u{201d} is read-only: nothing was written. Turn off read-only in its settings to change data.",
                    self.profile.name
                ),
            ))
        } else {
            Ok(self)
        }
    }

    /// Whether the session's credentials are still good at `now` (see
    /// [`dynotable_aws::mfa::AssumedCredentials::is_fresh`]).
    fn is_current(&self, now: std::time::SystemTime) -> bool {
        use dynotable_aws::sso::{CachedSignIn, cached_sign_in};
        let signed_in = self.sso.as_ref().is_none_or(|login| {
            matches!(
                cached_sign_in(login, now),
                CachedSignIn::Valid | CachedSignIn::Refreshable
            )
        });
        signed_in
            && self
                .expires_at
                .is_none_or(|at| at > now + dynotable_aws::mfa::EXPIRY_MARGIN)
    }

    /// Whether the session talks to the embedded engine (whose statistics are free to read).
    pub fn is_embedded(&self) -> bool {
        matches!(self.profile.connection, Connection::Embedded)
    }
}

impl App {
    /// For a profile whose role asks for MFA: the fresh temporary credentials a code bought, or
    /// `MFA_REQUIRED` naming the device. `None` for profiles without MFA.
    async fn mfa_credentials(
        &self,
        id: &str,
        profile_name: &str,
    ) -> Result<Option<dynotable_aws::mfa::AssumedCredentials>, CommandError> {
        let challenge = dynotable_aws::mfa::mfa_challenge(&self.inner.aws_files, profile_name)
            .await
            .map_err(|err| {
                CommandError::new(
                    ErrorCode::AwsConfigUnreadable,
                    format!("The AWS config files could not be read: {err}"),
                )
            })?;
        let Some(challenge) = challenge else {
            return Ok(None);
        };
        let mut bought = self.inner.mfa.lock().await;
        match bought.get(id) {
            Some(assumed) if assumed.is_fresh(std::time::SystemTime::now()) => Ok(Some(assumed.clone())),
            Some(_) => {
                // The role's session has run out, as the AWS CLI's does: ask for a new code.
                bought.remove(id);
                Err(CommandError::new(
                    ErrorCode::MfaRequired,
                    format!(
                        "The session of {} has expired: enter a new code from your device {}.",
                        challenge.role.role_arn, challenge.mfa_serial
                    ),
                ))
            }
            None => Err(CommandError::new(
                ErrorCode::MfaRequired,
                format!(
                    "The profile {profile_name} assumes {} with MFA: enter the code your device {} shows.",
                    challenge.role.role_arn, challenge.mfa_serial
                ),
            )),
        }
    }

    /// Assumes the MFA-protected role of profile `id` with `code`; the connection then works until
    /// the temporary credentials expire (`MFA_REQUIRED` again).
    pub async fn provide_mfa_code(&self, id: &str, code: &str) -> Result<(), CommandError> {
        let profile = self.profile_store().await?.get(id).await?;
        let Connection::AwsProfile { profile_name } = &profile.connection else {
            return Err(CommandError::new(
                ErrorCode::Validation,
                "Only AWS profiles that assume a role ask for an MFA code.",
            ));
        };
        let challenge = dynotable_aws::mfa::mfa_challenge(&self.inner.aws_files, profile_name)
            .await
            .map_err(|err| CommandError::new(ErrorCode::AwsConfigUnreadable, err.to_string()))?
            .ok_or_else(|| {
                CommandError::new(
                    ErrorCode::Validation,
                    format!("The profile {profile_name} has no mfa_serial: it needs no code."),
                )
            })?;
        let source =
            dynotable_aws::mfa::source_config(&self.inner.aws_files, &challenge, &profile.region).await;
        let assumed = dynotable_aws::mfa::assume_role_with_mfa(&source, &challenge, code)
            .await
            .map_err(|err| {
                let code = match err {
                    dynotable_aws::mfa::MfaError::MalformedCode => ErrorCode::Validation,
                    dynotable_aws::mfa::MfaError::Refused { .. } => ErrorCode::AccessDenied,
                    dynotable_aws::mfa::MfaError::Failed(_) => ErrorCode::Network,
                };
                CommandError::new(code, err.to_string())
            })?;
        self.inner.mfa.lock().await.insert(id.to_owned(), assumed);
        self.forget_session(id).await;
        Ok(())
    }

    /// The open session of profile `id`, built on first use.
    pub async fn session(&self, id: &str) -> Result<Arc<Session>, CommandError> {
        {
            let mut sessions = self.inner.sessions.lock().await;
            match sessions.get(id) {
                Some(session) if session.is_current(std::time::SystemTime::now()) => {
                    return Ok(session.clone());
                }
                // Its credentials have expired, or its SSO token is gone: open the profile again
                // (which asks for a code, or to sign in).
                Some(_) => {
                    sessions.remove(id);
                }
                None => {}
            }
        }
        let store = self.profile_store().await?;
        let profile = store.get(id).await?;
        let client = self.client_for(&profile, &profile.region).await?;
        let (expires_at, sso) = match &profile.connection {
            Connection::AwsProfile { profile_name } => (
                self.inner.mfa.lock().await.get(id).map(|a| a.expires_at),
                dynotable_aws::sso::sso_login_settings(&self.inner.aws_files, profile_name)
                    .await
                    .ok()
                    .flatten(),
            ),
            _ => (None, None),
        };
        let session = Arc::new(Session {
            profile,
            client,
            descriptions: std::sync::Mutex::new(std::collections::HashMap::new()),
            streams: tokio::sync::OnceCell::new(),
            expires_at,
            sso,
        });
        self.inner
            .sessions
            .lock()
            .await
            .insert(id.to_owned(), session.clone());
        Ok(session)
    }

    /// Closes the session of profile `id` (after its profile changed or was deleted).
    pub(crate) async fn forget_session(&self, id: &str) {
        self.inner.sessions.lock().await.remove(id);
    }

    /// The DynamoDB Streams client of `session`, built on first use.
    pub(crate) async fn streams_client(
        &self,
        session: &Session,
    ) -> Result<aws_sdk_dynamodbstreams::Client, CommandError> {
        session
            .streams
            .get_or_try_init(|| self.client_for(&session.profile, &session.profile.region))
            .await
            .cloned()
    }

    /// A client for `profile` in `region` (the profile's own region for its session).
    pub(crate) async fn client_for<C: SdkClient>(
        &self,
        profile: &Profile,
        region: &str,
    ) -> Result<C, CommandError> {
        let store = self.profile_store().await?;
        let missing_secret = || {
            CommandError::new(
                ErrorCode::KeychainUnavailable,
                "The profile's secret access key is not in the keychain; enter it again.",
            )
        };
        let id = profile.id.as_str();
        let files = &self.inner.aws_files;
        if let Connection::AwsProfile { profile_name } = &profile.connection {
            self.require_aws_profile(profile_name).await?;
        }
        Ok(match &profile.connection {
            // The embedded engine through the same SDK, its requests handled in-process.
            Connection::Embedded => C::embedded(self.engine().await?),
            Connection::AwsProfile { profile_name } => match self.mfa_credentials(id, profile_name).await? {
                // A role behind MFA: the temporary credentials the code bought, with the
                // profile's other settings (its endpoint_url).
                Some(assumed) => {
                    let target = Target::ProfileWithCredentials {
                        name: profile_name,
                        access_key_id: &assumed.access_key_id,
                        secret_access_key: &assumed.secret_access_key,
                        session_token: Some(&assumed.session_token),
                    };
                    C::remote(files, target, region).await
                }
                None => {
                    // IAM Identity Center with no usable token: ask the user to sign in.
                    self.require_sso_token(profile_name).await?;
                    C::remote(files, Target::Profile { name: profile_name }, region).await
                }
            },
            Connection::AccessKeys { access_key_id } => {
                let secret = store
                    .secret(id, "secret-access-key")?
                    .ok_or_else(missing_secret)?;
                let token = store.secret(id, "session-token")?;
                let target = Target::Keys {
                    access_key_id,
                    secret_access_key: secret.expose(),
                    session_token: token.as_ref().map(|t| t.expose()),
                };
                C::remote(files, target, region).await
            }
            Connection::CustomEndpoint {
                endpoint_url,
                access_key_id,
                secret_in_keychain: true,
            } => {
                let secret = store
                    .secret(id, "secret-access-key")?
                    .ok_or_else(missing_secret)?;
                let target = Target::Endpoint {
                    url: endpoint_url,
                    access_key_id,
                    secret_access_key: secret.expose(),
                };
                C::remote(files, target, region).await
            }
            // A local endpoint that checks no signature: placeholder keys, no keychain.
            Connection::CustomEndpoint {
                endpoint_url,
                access_key_id,
                secret_in_keychain: false,
            } => {
                let target = Target::Endpoint {
                    url: endpoint_url,
                    access_key_id: if access_key_id.is_empty() {
                        PLACEHOLDER_KEY
                    } else {
                        access_key_id
                    },
                    secret_access_key: PLACEHOLDER_KEY,
                };
                C::remote(files, target, region).await
            }
        })
    }
}
