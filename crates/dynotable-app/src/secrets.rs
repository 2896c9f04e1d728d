//! Secrets: AWS secret access keys and session tokens typed into DynoTable.
//!
//! A [`Secret`] cannot be printed, logged, serialised or sent to the UI: its `Debug` and
//! `Display` say `[redacted]` and it implements no serde trait. Secrets live in a
//! [`SecretStore`]: the OS keychain in the app ([`KeychainStore`]), an in-memory map in tests
//! ([`MemoryStore`]).
//!
//! [`KeychainStore`] goes through the keyring crate, built with one backend per system (the
//! target-specific dependencies of this crate's `Cargo.toml`) and named explicitly here, so a
//! missing backend fails the build instead of falling back to keyring's mock, which keeps nothing:
//! - macOS: the login Keychain (Keychain Services, keyring's `apple-native`);
//! - Windows: Credential Manager (keyring's `windows-native`);
//! - Linux: the Secret Service over D-Bus (GNOME Keyring, KWallet, KeePassXC; keyring's
//!   `sync-secret-service`, its session encrypted with `crypto-rust`). Not the kernel keyring,
//!   which forgets everything at logout or reboot.
//!
//! No other system is built for (keyring is a dependency on these three only). Profiles from
//! `~/.aws` keep their secrets in the AWS files and never reach this module.

use std::collections::HashMap;
use std::sync::Mutex;

/// A secret value. Read it with [`Secret::expose`] only where it is handed to the AWS SDK.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The secret itself. Every call site is a place a secret leaves DynoTable's keeping.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// What went wrong with the keychain, in the app's own terms. The backend's error text is logged
/// (never a secret) but not carried: the UI says what happened and what the user can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SecretStoreError {
    /// No keychain answered: none is running (a Linux session without a Secret Service, WSL, a
    /// remote session), or this system has none DynoTable can use.
    #[error("no system keychain is available")]
    Unavailable,
    /// The keychain is there but locked, or refused DynoTable access.
    #[error("the system keychain is locked or refused access")]
    Locked,
    /// The keychain answered, but not with something DynoTable can use.
    #[error("the system keychain failed")]
    Failed,
}

impl SecretStoreError {
    /// The app's error for a keyring error; logs the backend's reason (which holds no secret:
    /// the variants that carry secret bytes or credentials are logged by name only).
    fn of_keyring(err: keyring::Error) -> SecretStoreError {
        match &err {
            keyring::Error::PlatformFailure(reason) => {
                tracing::warn!(%reason, "the system keychain is not available");
                SecretStoreError::Unavailable
            }
            keyring::Error::NoStorageAccess(reason) => {
                tracing::warn!(%reason, "the system keychain refused access");
                SecretStoreError::Locked
            }
            keyring::Error::BadEncoding(_) => {
                tracing::warn!("the system keychain holds a secret that is not UTF-8");
                SecretStoreError::Failed
            }
            keyring::Error::Ambiguous(_) => {
                tracing::warn!("the system keychain holds several entries for one secret");
                SecretStoreError::Failed
            }
            keyring::Error::TooLong(..) | keyring::Error::Invalid(..) => {
                tracing::warn!(reason = %err, "the system keychain refused an entry");
                SecretStoreError::Failed
            }
            // `NoEntry` is an answer, handled by the callers; any later variant is a failure.
            _ => {
                tracing::warn!("the system keychain failed");
                SecretStoreError::Failed
            }
        }
    }
}

/// Where secrets are kept, by account name (one per profile and kind of secret).
pub trait SecretStore: Send + Sync + 'static {
    fn set(&self, account: &str, secret: &Secret) -> Result<(), SecretStoreError>;
    fn get(&self, account: &str) -> Result<Option<Secret>, SecretStoreError>;
    fn delete(&self, account: &str) -> Result<(), SecretStoreError>;
}

/// The account name of a profile's secret of one kind (`secret-access-key`, `session-token`).
pub fn account(profile_id: &str, kind: &str) -> String {
    format!("{profile_id}/{kind}")
}

/// Secrets in memory, for tests.
#[derive(Default)]
pub struct MemoryStore {
    secrets: Mutex<HashMap<String, Secret>>,
}

impl SecretStore for MemoryStore {
    fn set(&self, account: &str, secret: &Secret) -> Result<(), SecretStoreError> {
        self.secrets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(account.to_owned(), secret.clone());
        Ok(())
    }

    fn get(&self, account: &str) -> Result<Option<Secret>, SecretStoreError> {
        Ok(self
            .secrets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(account)
            .cloned())
    }

    fn delete(&self, account: &str) -> Result<(), SecretStoreError> {
        self.secrets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(account);
        Ok(())
    }
}

/// The keychain service name the app keeps its secrets under.
pub const SERVICE: &str = "io.dynotable.DynoTable";

/// The OS keychain, under a service name ([`SERVICE`] in the app).
pub struct KeychainStore {
    service: String,
}

#[cfg(not(any(target_os = "macos", target_os = "windows", target_os = "linux")))]
compile_error!("DynoTable keeps secrets in the OS keychain, which it has on macOS, Windows and Linux only");

/// The keychain of this system, by name.
pub const KEYCHAIN_BACKEND: &str = if cfg!(target_os = "macos") {
    "macOS Keychain"
} else if cfg!(target_os = "windows") {
    "Windows Credential Manager"
} else {
    "Secret Service"
};

impl KeychainStore {
    pub fn new(service: impl Into<String>) -> KeychainStore {
        KeychainStore {
            service: service.into(),
        }
    }

    /// The entry of `account`, on this system's backend named explicitly (never keyring's
    /// default, which is its mock when a backend feature is missing).
    fn entry(&self, account: &str) -> Result<keyring::Entry, SecretStoreError> {
        let credential = backend()
            .build(None, &self.service, account)
            .map_err(SecretStoreError::of_keyring)?;
        Ok(keyring::Entry::new_with_credential(credential))
    }
}

#[cfg(target_os = "macos")]
fn backend() -> Box<keyring::CredentialBuilder> {
    keyring::macos::default_credential_builder()
}

#[cfg(target_os = "windows")]
fn backend() -> Box<keyring::CredentialBuilder> {
    keyring::windows::default_credential_builder()
}

#[cfg(target_os = "linux")]
fn backend() -> Box<keyring::CredentialBuilder> {
    keyring::secret_service::default_credential_builder()
}

impl SecretStore for KeychainStore {
    fn set(&self, account: &str, secret: &Secret) -> Result<(), SecretStoreError> {
        self.entry(account)?
            .set_password(secret.expose())
            .map_err(SecretStoreError::of_keyring)
    }

    fn get(&self, account: &str) -> Result<Option<Secret>, SecretStoreError> {
        match self.entry(account)?.get_password() {
            Ok(value) => Ok(Some(Secret::new(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(SecretStoreError::of_keyring(e)),
        }
    }

    fn delete(&self, account: &str) -> Result<(), SecretStoreError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(SecretStoreError::of_keyring(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_never_prints() {
        let secret = Secret::new("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        assert_eq!(format!("{secret}"), "[redacted]");
        assert_eq!(format!("{secret:?}"), "Secret([redacted])");
        assert_eq!(format!("{:?}", Some(&secret)), "Some(Secret([redacted]))");
    }

    #[test]
    fn keyring_failures_become_the_apps_own_errors_without_the_backends_text() {
        // What keyring's Secret Service backend answers on a Linux session without one (issue 19).
        let no_bus = keyring::Error::PlatformFailure(
            "DBus error: /usr/bin/dbus-launch terminated abnormally without any error message".into(),
        );
        let err = SecretStoreError::of_keyring(no_bus);
        assert_eq!(err, SecretStoreError::Unavailable);
        assert_eq!(err.to_string(), "no system keychain is available");
        let locked = keyring::Error::NoStorageAccess("Locked".into());
        assert_eq!(SecretStoreError::of_keyring(locked), SecretStoreError::Locked);
        // A stored value that is not UTF-8 is a failure, and its bytes go nowhere.
        let bad = keyring::Error::BadEncoding(b"\xffsecret-bytes".to_vec());
        let err = SecretStoreError::of_keyring(bad);
        assert_eq!(err, SecretStoreError::Failed);
        assert!(!format!("{err} {err:?}").contains("secret-bytes"));
    }

    #[test]
    fn this_system_has_a_keychain_backend() {
        // The three desktops DynoTable ships on each name theirs (never keyring's mock).
        #[cfg(target_os = "linux")]
        assert_eq!(KEYCHAIN_BACKEND, "Secret Service");
        #[cfg(target_os = "macos")]
        assert_eq!(KEYCHAIN_BACKEND, "macOS Keychain");
        #[cfg(target_os = "windows")]
        assert_eq!(KEYCHAIN_BACKEND, "Windows Credential Manager");
        // keyring's mock keeps a secret only in its entry; a keychain keeps it until deleted.
        let persistence = backend().persistence();
        assert!(
            matches!(
                persistence,
                keyring::credential::CredentialPersistence::UntilDelete
            ),
            "this system's keychain backend does not keep secrets until they are deleted"
        );
    }

    #[test]
    fn the_memory_store_keeps_and_forgets() {
        let store = MemoryStore::default();
        store.set("p1/secret-access-key", &Secret::new("s")).unwrap();
        assert_eq!(store.get("p1/secret-access-key").unwrap(), Some(Secret::new("s")));
        store.delete("p1/secret-access-key").unwrap();
        assert_eq!(store.get("p1/secret-access-key").unwrap(), None);
    }
}
