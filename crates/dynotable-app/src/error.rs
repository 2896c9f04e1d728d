//! The one error every command returns: a stable code the UI switches on, and a sentence for
//! people. The UI never parses the message.

use serde::Serialize;

/// Stable, typed error codes. Add variants; never rename or reuse one — the UI and saved logs
/// depend on the spelling, which is the SCREAMING_SNAKE_CASE of the variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The embedded engine failed to start or stopped.
    EngineUnavailable,
    /// A connection profile's settings are not valid; the message says which.
    InvalidProfile,
    /// No profile has the given id.
    ProfileNotFound,
    /// Another profile already has that name.
    ProfileNameTaken,
    /// The profile database could not be read or written.
    ProfileStorage,
    /// The OS keychain refused to store or give back a secret.
    KeychainUnavailable,
    /// The user's AWS config or credentials file could not be parsed.
    AwsConfigUnreadable,
    /// DynamoDB refused the request as invalid (ValidationException and its kin); the message
    /// is the service's.
    Validation,
    /// A condition expression did not hold (ConditionalCheckFailedException, a cancelled
    /// transaction's condition).
    ConditionFailed,
    /// The table, index or item does not exist.
    NotFound,
    /// The credentials or the sign-in session have expired.
    AuthExpired,
    /// The credentials are valid but may not do this.
    AccessDenied,
    /// No credentials could be found for the connection (its AWS profile names no keys, or
    /// names a profile the AWS files do not have); the message says what was looked for.
    NoCredentials,
    /// DynamoDB throttled the request (throughput, request or limit exceeded).
    Throttled,
    /// The endpoint could not be reached.
    Network,
    /// The connection is read-only and the command would write.
    ReadOnly,
    /// The user cancelled the operation.
    Cancelled,
    /// Something that should not happen; the message says what.
    Internal,
    /// The loopback port asked for is taken or not allowed.
    PortUnavailable,
    /// The profile's role asks for an MFA code: call `provide_mfa_code`, then try again.
    MfaRequired,
    /// A file was named that the user did not choose in the file dialog for this purpose.
    FileNotChosen,
    /// A destructive change was sent without the user's confirmation (or with a stale one).
    NotConfirmed,
    /// The table has no stream to read: it can be turned on in the table's Settings.
    StreamOff,
    /// The profile signs in with IAM Identity Center and has no usable token: call
    /// `start_sso_sign_in`, then `finish_sso_sign_in`, then try again.
    SsoSignInRequired,
    /// The command works on the embedded engine only (its simulations, for example), and the
    /// connection is another: AWS or another endpoint.
    EmbeddedOnly,
    /// No update can be checked for or installed: this build has no update key, the release has
    /// no build for this system, or no update was found first.
    UpdateUnavailable,
    /// The downloaded update's signature does not match the app's release key and the version
    /// offered; nothing was installed.
    UpdateRejected,
}

/// What a command returns when it fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[error("{message}")]
#[serde(rename_all = "camelCase")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
    /// The DynamoDB exception behind the error (`ConditionalCheckFailedException`, ...), when
    /// there is one.
    pub exception: Option<String>,
}

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> CommandError {
        CommandError {
            code,
            message: message.into(),
            exception: None,
        }
    }

    /// The error of a failed SDK call: the service's exception mapped to a stable code, with its
    /// message; transport failures in plain words.
    pub fn from_sdk<E, R>(err: &aws_sdk_dynamodb::error::SdkError<E, R>) -> CommandError
    where
        E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
        R: std::fmt::Debug,
    {
        use aws_sdk_dynamodb::error::SdkError;
        let detail = match dynotable_aws::client::causes(err) {
            causes if causes.is_empty() => err.to_string(),
            causes => causes,
        };
        match err {
            SdkError::ServiceError(service) => {
                let exception = service.err().code().unwrap_or("UnknownError").to_owned();
                let message = service.err().message().unwrap_or_default().to_owned();
                let code = code_of_exception(&exception);
                let message = if message.is_empty() {
                    format!("DynamoDB answered {exception}.")
                } else {
                    message
                };
                CommandError {
                    code,
                    message,
                    exception: Some(exception),
                }
            }
            // The UI puts the code's title before the message ("The endpoint could not be
            // reached: …"), so a transport failure's message is its causes alone, not the title
            // again.
            SdkError::DispatchFailure(failure) => {
                let text = format!("{failure:?} {detail}").to_lowercase();
                let code = if text.contains("expired") {
                    ErrorCode::AuthExpired
                } else if text.contains("credential") {
                    ErrorCode::NoCredentials
                } else {
                    ErrorCode::Network
                };
                CommandError::new(code, sentence(&detail))
            }
            SdkError::TimeoutError(_) => {
                CommandError::new(ErrorCode::Network, "The endpoint did not answer in time.")
            }
            _ => CommandError::new(ErrorCode::Internal, format!("The request failed: {detail}")),
        }
    }
}

/// `text` as a sentence: its first letter capitalised, a full stop at the end.
fn sentence(text: &str) -> String {
    let mut chars = text.trim().chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return "No cause was given.".to_owned(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

impl CommandError {
    /// The error of an engine call made directly (not through the SDK).
    pub fn from_engine(err: &dynotable_engine::ApiError) -> CommandError {
        let exception = err.kind.name();
        CommandError {
            code: code_of_exception(exception),
            message: err.message.clone(),
            exception: Some(exception.to_owned()),
        }
    }
}

/// The stable code for a DynamoDB exception name (API reference, "Common Errors" and each
/// operation's errors).
fn code_of_exception(exception: &str) -> ErrorCode {
    match exception {
        "ConditionalCheckFailedException" | "TransactionCanceledException" => ErrorCode::ConditionFailed,
        "ResourceNotFoundException" => ErrorCode::NotFound,
        "ExpiredTokenException" | "ExpiredToken" => ErrorCode::AuthExpired,
        "AccessDeniedException" | "UnrecognizedClientException" | "InvalidSignatureException" => {
            ErrorCode::AccessDenied
        }
        "ProvisionedThroughputExceededException"
        | "ThrottlingException"
        | "RequestLimitExceeded"
        | "LimitExceededException"
        // Another transaction holds the item, or this token's transaction is still running:
        // like throttling, worth retrying shortly.
        | "TransactionConflictException"
        | "TransactionInProgressException" => ErrorCode::Throttled,
        "ValidationException"
        | "SerializationException"
        | "ItemCollectionSizeLimitExceededException"
        | "ResourceInUseException"
        | "DuplicateItemException" => ErrorCode::Validation,
        _ => ErrorCode::Internal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transaction_conflicts_are_worth_retrying_shortly() {
        for exception in ["TransactionConflictException", "TransactionInProgressException"] {
            assert_eq!(code_of_exception(exception), ErrorCode::Throttled, "{exception}");
        }
        assert_eq!(
            code_of_exception("TransactionCanceledException"),
            ErrorCode::ConditionFailed
        );
    }

    #[test]
    fn serialises_as_a_stable_code_and_a_message() {
        let err = CommandError::new(
            ErrorCode::EngineUnavailable,
            "The embedded engine could not start.",
        );
        assert_eq!(
            serde_json::to_value(&err).unwrap(),
            serde_json::json!({ "code": "ENGINE_UNAVAILABLE", "message": "The embedded engine could not start.", "exception": null })
        );
    }
}
