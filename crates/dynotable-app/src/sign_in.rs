//! Signing in to IAM Identity Center (SSO) from the app, instead of `aws sso login` in a
//! terminal.
//!
//! The life of a sign-in: opening a profile that signs in with IAM Identity Center first looks
//! at the AWS CLI's token cache (see `dynotable_aws::sso`). With no token, or an expired one
//! that cannot be refreshed, the command fails before anything is sent, with
//! `SSO_SIGN_IN_REQUIRED`. The UI then calls [`App::start_sso_sign_in`]: DynoTable registers
//! with IAM Identity Center, starts a device authorization, opens the verification page in the
//! system browser (the shell's [`Browser`]) and returns the code the user checks there. The wait
//! for the user's approval runs in a task; [`App::finish_sso_sign_in`] waits for it and
//! [`App::cancel_sso_sign_in`] stops it. Once approved, the token is in the AWS CLI's cache, and
//! the profile opens as any SSO profile does: aws-config reads the token, refreshes it, and
//! trades it for the role's credentials.

use std::collections::HashMap;
use std::time::UNIX_EPOCH;

use dynotable_aws::sso::{Browser, SignedIn, SsoError};
use serde::Serialize;
use tokio::task::{AbortHandle, JoinHandle};

use crate::profiles::Connection;
use crate::{App, CommandError, ErrorCode};

/// What the user needs to approve a sign-in: the code to check and where.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SsoSignInPrompt {
    /// The code the verification page shows, for the user to compare.
    pub user_code: String,
    /// The verification page (already opened in the browser).
    pub verification_uri: String,
    /// When the code stops being accepted, in milliseconds since 1970.
    #[specta(type = specta_typescript::Number)]
    pub expires_at_ms: f64,
}

/// Sign-ins waiting for the user's approval, by profile id.
#[derive(Default)]
pub(crate) struct SignIns(tokio::sync::Mutex<HashMap<String, Waiting>>);

struct Waiting {
    /// The wait itself; taken by the one `finish_sso_sign_in` that awaits it.
    task: Option<JoinHandle<Result<SignedIn, SsoError>>>,
    abort: AbortHandle,
}

impl App {
    /// The IAM Identity Center sign-in of an AWS profile, or why it has none.
    async fn sso_login(&self, id: &str) -> Result<dynotable_aws::sso::SsoLogin, CommandError> {
        let profile = self.profile_store().await?.get(id).await?;
        let not_sso = || {
            CommandError::new(
                ErrorCode::Validation,
                format!(
                    "The connection \u{201c}{}\u{201d} does not sign in with IAM Identity Center.",
                    profile.name
                ),
            )
        };
        let Connection::AwsProfile { profile_name } = &profile.connection else {
            return Err(not_sso());
        };
        dynotable_aws::sso::sso_login_settings(&self.inner.aws_files, profile_name)
            .await
            .map_err(|err| {
                CommandError::new(
                    ErrorCode::AwsConfigUnreadable,
                    format!("The AWS config files could not be read: {err}"),
                )
            })?
            .ok_or_else(not_sso)
    }

    /// For an AWS profile that signs in with IAM Identity Center: `SSO_SIGN_IN_REQUIRED` when
    /// the AWS CLI's cache holds no token it can use or refresh. Nothing is sent.
    pub(crate) async fn require_sso_token(&self, profile_name: &str) -> Result<(), CommandError> {
        let login = dynotable_aws::sso::sso_login_settings(&self.inner.aws_files, profile_name)
            .await
            .map_err(|err| {
                CommandError::new(
                    ErrorCode::AwsConfigUnreadable,
                    format!("The AWS config files could not be read: {err}"),
                )
            })?;
        let Some(login) = login else {
            return Ok(());
        };
        use dynotable_aws::sso::CachedSignIn;
        match dynotable_aws::sso::cached_sign_in(&login, std::time::SystemTime::now()) {
            CachedSignIn::Valid | CachedSignIn::Refreshable => Ok(()),
            state => Err(CommandError::new(
                ErrorCode::SsoSignInRequired,
                format!(
                    "{} Sign in to IAM Identity Center ({}) to open the profile {profile_name}.",
                    if state == CachedSignIn::Expired {
                        "The sign-in session has expired."
                    } else {
                        "You are not signed in."
                    },
                    login.start_url
                ),
            )),
        }
    }

    /// Starts signing in the profile `id` to IAM Identity Center: opens the verification page
    /// with `browser` and returns the code the user checks there. A sign-in already waiting for
    /// this profile is cancelled.
    pub async fn start_sso_sign_in(
        &self,
        id: &str,
        browser: &dyn Browser,
    ) -> Result<SsoSignInPrompt, CommandError> {
        let login = self.sso_login(id).await?;
        let pending = dynotable_aws::sso::start_sign_in(&self.inner.aws_files, &login, browser)
            .await
            .map_err(sign_in_error)?;
        let prompt = SsoSignInPrompt {
            user_code: pending.user_code.clone(),
            verification_uri: pending.verification_uri.clone(),
            expires_at_ms: pending
                .expires_at
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as f64)
                .unwrap_or(0.0),
        };
        let task = tokio::spawn(pending.wait());
        let waiting = Waiting {
            abort: task.abort_handle(),
            task: Some(task),
        };
        if let Some(before) = self.inner.sign_ins.0.lock().await.insert(id.to_owned(), waiting) {
            before.abort.abort();
        }
        Ok(prompt)
    }

    /// Waits until the user has approved the sign-in of profile `id` in the browser (then the
    /// profile opens with the new token), refused it, let it expire, or cancelled it.
    pub async fn finish_sso_sign_in(&self, id: &str) -> Result<(), CommandError> {
        let task = self
            .inner
            .sign_ins
            .0
            .lock()
            .await
            .get_mut(id)
            .and_then(|waiting| waiting.task.take())
            .ok_or_else(|| {
                CommandError::new(
                    ErrorCode::Validation,
                    "No sign-in is waiting for this connection.",
                )
            })?;
        let outcome = task.await;
        self.inner.sign_ins.0.lock().await.remove(id);
        match outcome {
            Ok(Ok(_)) => {
                self.forget_session(id).await;
                Ok(())
            }
            Ok(Err(err)) => Err(sign_in_error(err)),
            Err(_) => Err(CommandError::new(
                ErrorCode::Cancelled,
                "The sign-in was cancelled.",
            )),
        }
    }

    /// Stops waiting for the sign-in of profile `id` (its `finish_sso_sign_in` says cancelled).
    pub async fn cancel_sso_sign_in(&self, id: &str) {
        if let Some(waiting) = self.inner.sign_ins.0.lock().await.get(id) {
            waiting.abort.abort();
        }
    }
}

/// A sign-in's failure as the UI shows it.
fn sign_in_error(err: SsoError) -> CommandError {
    let code = match err {
        SsoError::NotSso(_) => ErrorCode::Validation,
        SsoError::Denied => ErrorCode::AccessDenied,
        SsoError::Expired => ErrorCode::SsoSignInRequired,
        SsoError::Failed(_) => ErrorCode::Network,
        SsoError::Cache { .. } => ErrorCode::Internal,
    };
    CommandError::new(code, err.to_string())
}
