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
}

/// What a command returns when it fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub code: ErrorCode,
    pub message: String,
}

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> CommandError {
        CommandError {
            code,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_as_a_stable_code_and_a_message() {
        let err = CommandError::new(
            ErrorCode::EngineUnavailable,
            "The embedded engine could not start.",
        );
        assert_eq!(
            serde_json::to_value(&err).unwrap(),
            serde_json::json!({ "code": "ENGINE_UNAVAILABLE", "message": "The embedded engine could not start." })
        );
    }
}
