//! Secrets: AWS secret access keys and session tokens typed into DynoTable.
//!
//! A [`Secret`] cannot be printed, logged, serialised or sent to the UI: its `Debug` and
//! `Display` say `[redacted]` and it implements no serde trait. Secrets live in a
//! [`SecretStore`]: the OS keychain in the app ([`KeychainStore`], through the keyring crate:
//! Secret Service or the kernel keyring on Linux, Keychain on macOS, Credential Manager on
//! Windows), an in-memory map in tests ([`MemoryStore`]).

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

/// What a keychain failure is, in plain words (never containing the secret).
#[derive(Debug, thiserror::Error)]
#[error("the keychain failed: {0}")]
pub struct SecretStoreError(String);

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

/// The OS keychain, under the service name `io.dynotable.DynoTable`.
pub struct KeychainStore {
    service: String,
}

impl KeychainStore {
    pub fn new(service: impl Into<String>) -> KeychainStore {
        KeychainStore {
            service: service.into(),
        }
    }

    fn entry(&self, account: &str) -> Result<keyring::Entry, SecretStoreError> {
        keyring::Entry::new(&self.service, account).map_err(|e| SecretStoreError(e.to_string()))
    }
}

impl SecretStore for KeychainStore {
    fn set(&self, account: &str, secret: &Secret) -> Result<(), SecretStoreError> {
        self.entry(account)?
            .set_password(secret.expose())
            .map_err(|e| SecretStoreError(e.to_string()))
    }

    fn get(&self, account: &str) -> Result<Option<Secret>, SecretStoreError> {
        match self.entry(account)?.get_password() {
            Ok(value) => Ok(Some(Secret::new(value))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(SecretStoreError(e.to_string())),
        }
    }

    fn delete(&self, account: &str) -> Result<(), SecretStoreError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(SecretStoreError(e.to_string())),
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
    fn the_memory_store_keeps_and_forgets() {
        let store = MemoryStore::default();
        store.set("p1/secret-access-key", &Secret::new("s")).unwrap();
        assert_eq!(store.get("p1/secret-access-key").unwrap(), Some(Secret::new("s")));
        store.delete("p1/secret-access-key").unwrap();
        assert_eq!(store.get("p1/secret-access-key").unwrap(), None);
    }
}
