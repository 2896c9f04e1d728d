//! Connection profiles: the connections a user keeps — the embedded engine, AWS named profiles,
//! access keys typed into DynoTable, and custom endpoints — each with a name, a colour, a region
//! and an optional read-only flag.
//!
//! Profiles are rows in the app's own SQLite database (`<data>/dynotable.sqlite`, never the
//! engine's file), through sqlx with embedded migrations. Secrets are not: a secret access key
//! or session token goes straight into the [`SecretStore`] under the profile's id, and nothing
//! that leaves this module (the [`Profile`] DTO, errors, logs) carries it.
//!
//! The embedded engine's profile always exists, first in the list, and cannot be deleted.

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use crate::secrets::{self, Secret, SecretStore};
use crate::{CommandError, ErrorCode};

/// The id of the built-in profile of the embedded engine.
pub const EMBEDDED_ID: &str = "embedded";

/// Regions a profile may name (the AWS partitions' DynamoDB regions, 2026-11).
pub const REGIONS: &[&str] = &[
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "af-south-1",
    "ap-east-1",
    "ap-east-2",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-7",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-south-1",
    "eu-south-2",
    "eu-north-1",
    "il-central-1",
    "me-south-1",
    "me-central-1",
    "mx-central-1",
    "sa-east-1",
    "us-gov-east-1",
    "us-gov-west-1",
    "cn-north-1",
    "cn-northwest-1",
];

/// How a profile reaches DynamoDB (what the UI shows; never a secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum Connection {
    /// The built-in engine.
    Embedded,
    /// A named profile from `~/.aws/config` / `~/.aws/credentials`, resolved by aws-config.
    AwsProfile { profile_name: String },
    /// An access key typed into DynoTable; its secret lives in the keychain.
    AccessKeys { access_key_id: String },
    /// Any DynamoDB-compatible endpoint (dynotable-local, DynamoDB Local, LocalStack, ...).
    /// Without a secret in the keychain, its requests are signed with placeholder keys (the
    /// access key id if one was given, [`PLACEHOLDER_KEY`] otherwise): what a local endpoint
    /// that checks no signature accepts.
    CustomEndpoint {
        endpoint_url: String,
        access_key_id: String,
        secret_in_keychain: bool,
    },
}

/// What a custom endpoint without a secret signs with: its access key id when none was given,
/// and its secret access key. A local endpoint that checks no signature accepts any; DynamoDB
/// Local keeps one database per access key id (without `-sharedDb`), so the id is fixed.
pub const PLACEHOLDER_KEY: &str = "dynotable";

/// A profile as the UI sees it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    pub name: String,
    /// `#rrggbb`.
    pub color: String,
    pub region: String,
    pub read_only: bool,
    pub connection: Connection,
}

/// How a new or changed profile connects, as the user typed it — secrets included, once.
#[derive(Debug, Clone, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum ConnectionInput {
    AwsProfile {
        profile_name: String,
    },
    AccessKeys {
        access_key_id: String,
        secret_access_key: SecretInput,
        session_token: Option<SecretInput>,
    },
    /// `secret_access_key` empty: no secret, nothing in the keychain (see [`Connection::CustomEndpoint`]).
    CustomEndpoint {
        endpoint_url: String,
        access_key_id: String,
        secret_access_key: SecretInput,
    },
}

/// A secret arriving from the UI: wrapped at once, never echoed back.
#[derive(Clone, Deserialize, specta::Type)]
#[serde(transparent)]
pub struct SecretInput(String);

impl std::fmt::Debug for SecretInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretInput([redacted])")
    }
}

impl SecretInput {
    pub fn new(value: impl Into<String>) -> SecretInput {
        SecretInput(value.into())
    }

    fn into_secret(self) -> Secret {
        Secret::new(self.0)
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A profile to create or the new state of one to change.
#[derive(Debug, Clone, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ProfileInput {
    pub name: String,
    pub color: String,
    pub region: String,
    pub read_only: bool,
    pub connection: ConnectionInput,
}

/// The profiles and their secrets.
#[derive(Clone)]
pub struct ProfileStore {
    pool: SqlitePool,
    secrets: Arc<dyn SecretStore>,
}

fn invalid(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::InvalidProfile, message)
}

fn storage(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::ProfileStorage,
        format!("The profile database failed: {err}"),
    )
}

/// What the app was doing with the keychain when it failed.
#[derive(Debug, Clone, Copy)]
enum KeychainUse {
    Save,
    Read,
    Remove,
}

/// The error the UI shows when the keychain fails: what happened and what the user can do, in
/// plain words (never the backend's text, which [`secrets`] logs).
fn keychain(doing: KeychainUse, err: secrets::SecretStoreError) -> CommandError {
    use secrets::SecretStoreError::*;
    let what = match doing {
        KeychainUse::Save => "so the connection's secret could not be saved",
        KeychainUse::Read => "so the connection's secret could not be read and the connection cannot open",
        KeychainUse::Remove => "so the connection's secret could not be removed from it",
    };
    let message = match err {
        Unavailable => format!(
            "No system keychain is available, {what}: DynoTable keeps secrets nowhere else. Start \
             your desktop's keychain (on Linux a Secret Service such as GNOME Keyring or KeePassXC) \
             and try again, or put the keys in ~/.aws/credentials and open that profile from the AWS \
             profiles list instead: it needs no keychain."
        ),
        Locked => format!(
            "The system keychain is locked or refused DynoTable access, {what}. Unlock it (or allow \
             DynoTable when it asks) and try again."
        ),
        Failed => format!(
            "The system keychain failed, {what}. Try again; if it keeps failing, remove DynoTable's \
             entries (service io.dynotable.DynoTable) from the keychain and enter the secret again."
        ),
    };
    CommandError::new(ErrorCode::KeychainUnavailable, message)
}

/// Whether profiles of this connection keep secrets in the keychain.
fn has_secrets(connection: &Connection) -> bool {
    matches!(
        connection,
        Connection::AccessKeys { .. }
            | Connection::CustomEndpoint {
                secret_in_keychain: true,
                ..
            }
    )
}

impl ProfileStore {
    /// The app database's pool (profiles, query history, saved queries).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Opens (creating) the profile database at `path`.
    pub async fn open(path: &Path, secrets: Arc<dyn SecretStore>) -> Result<ProfileStore, CommandError> {
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(storage)?;
        }
        let options = SqliteConnectOptions::new().filename(path).create_if_missing(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(2)
            .connect_with(options)
            .await
            .map_err(storage)?;
        sqlx::migrate!("./migrations").run(&pool).await.map_err(storage)?;
        Ok(ProfileStore { pool, secrets })
    }

    /// A private store in memory, for tests.
    pub async fn in_memory(secrets: Arc<dyn SecretStore>) -> Result<ProfileStore, CommandError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:").map_err(storage)?;
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .map_err(storage)?;
        sqlx::migrate!("./migrations").run(&pool).await.map_err(storage)?;
        Ok(ProfileStore { pool, secrets })
    }

    /// The embedded engine's profile, then the stored ones by name.
    pub async fn list(&self) -> Result<Vec<Profile>, CommandError> {
        let rows = sqlx::query("SELECT * FROM profiles ORDER BY name COLLATE NOCASE")
            .fetch_all(&self.pool)
            .await
            .map_err(storage)?;
        let mut profiles = vec![embedded_profile()];
        for row in rows {
            profiles.push(profile_of(&row)?);
        }
        Ok(profiles)
    }

    pub async fn get(&self, id: &str) -> Result<Profile, CommandError> {
        if id == EMBEDDED_ID {
            return Ok(embedded_profile());
        }
        let row = sqlx::query("SELECT * FROM profiles WHERE id = ?")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(storage)?;
        match row {
            Some(row) => profile_of(&row),
            None => Err(CommandError::new(
                ErrorCode::ProfileNotFound,
                format!("There is no connection profile with id {id}."),
            )),
        }
    }

    /// Creates a profile; its secrets go to the keychain.
    pub async fn create(&self, input: ProfileInput, now: f64) -> Result<Profile, CommandError> {
        let id = uuid::Uuid::new_v4().to_string();
        self.write(&id, input, now, None).await
    }

    /// Replaces a profile's settings (and its secrets, which must be typed again).
    pub async fn update(&self, id: &str, input: ProfileInput) -> Result<Profile, CommandError> {
        if id == EMBEDDED_ID {
            return Err(invalid("The embedded engine's profile cannot be changed."));
        }
        let before = self.get(id).await?;
        self.write(id, input, 0.0, Some(&before.connection)).await
    }

    async fn write(
        &self,
        id: &str,
        input: ProfileInput,
        now: f64,
        replacing: Option<&Connection>,
    ) -> Result<Profile, CommandError> {
        let replace = replacing.is_some();
        let ProfileInput {
            name,
            color,
            region,
            read_only,
            connection,
        } = input;
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 64 {
            return Err(invalid("A profile needs a name of 1 to 64 characters."));
        }
        if !is_color(&color) {
            return Err(invalid(format!(
                "The colour {color:?} is not of the form #rrggbb."
            )));
        }
        let custom = matches!(connection, ConnectionInput::CustomEndpoint { .. });
        if !custom && !REGIONS.contains(&region.as_str()) {
            return Err(invalid(format!(
                "{region:?} is not an AWS region DynamoDB runs in."
            )));
        }
        if custom && region.trim().is_empty() {
            return Err(invalid(
                "A custom endpoint still needs a region name to sign requests with.",
            ));
        }
        let (kind, aws_profile, access_key_id, endpoint_url, secrets) = match connection {
            ConnectionInput::AwsProfile { profile_name } => {
                if profile_name.trim().is_empty() {
                    return Err(invalid("Name the AWS profile to use."));
                }
                ("aws-profile", Some(profile_name), None, None, vec![])
            }
            ConnectionInput::AccessKeys {
                access_key_id,
                secret_access_key,
                session_token,
            } => {
                check_access_key_id(&access_key_id)?;
                let mut secrets = vec![("secret-access-key", secret_access_key.into_secret())];
                if let Some(token) = session_token {
                    secrets.push(("session-token", token.into_secret()));
                }
                ("access-keys", None, Some(access_key_id), None, secrets)
            }
            ConnectionInput::CustomEndpoint {
                endpoint_url,
                access_key_id,
                secret_access_key,
            } => {
                check_endpoint(&endpoint_url)?;
                let access_key_id = access_key_id.trim().to_owned();
                let secrets = if secret_access_key.is_empty() {
                    vec![]
                } else {
                    if access_key_id.is_empty() {
                        return Err(invalid(
                            "A secret access key needs its access key id. (Leave both empty for a local endpoint that checks no signature.)",
                        ));
                    }
                    vec![("secret-access-key", secret_access_key.into_secret())]
                };
                (
                    "custom-endpoint",
                    None,
                    Some(access_key_id),
                    Some(endpoint_url),
                    secrets,
                )
            }
        };
        let secret_in_keychain = !secrets.is_empty();
        if let Some(secret) = secrets.iter().find(|(_, s)| s.expose().is_empty()) {
            return Err(invalid(format!(
                "The {} must not be empty.",
                secret.0.replace('-', " ")
            )));
        }

        let taken: Option<String> = sqlx::query_scalar("SELECT id FROM profiles WHERE name = ? AND id <> ?")
            .bind(&name)
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(storage)?;
        if taken.is_some() || name.eq_ignore_ascii_case("Embedded") {
            return Err(CommandError::new(
                ErrorCode::ProfileNameTaken,
                format!("A profile named {name:?} already exists."),
            ));
        }

        // Secrets first: a profile row never points at a secret that was not stored. The keychain
        // is used only by profiles that keep a secret in it: creating, changing or deleting an
        // AWS profile from ~/.aws never touches it.
        if replacing.is_some_and(has_secrets) {
            for kind in ["secret-access-key", "session-token"] {
                self.secrets
                    .delete(&secrets::account(id, kind))
                    .map_err(|err| keychain(KeychainUse::Remove, err))?;
            }
        }
        for (stored, (kind, secret)) in secrets.iter().enumerate() {
            if let Err(err) = self.secrets.set(&secrets::account(id, kind), secret) {
                // Take back what this call stored, so no secret outlives a failed save.
                for (kind, _) in &secrets[..stored] {
                    let _ = self.secrets.delete(&secrets::account(id, kind));
                }
                return Err(keychain(KeychainUse::Save, err));
            }
        }
        let sql = if replace {
            "UPDATE profiles SET name = ?2, color = ?3, region = ?4, read_only = ?5, kind = ?6, aws_profile = ?7,
             access_key_id = ?8, endpoint_url = ?9, secret_in_keychain = ?11 WHERE id = ?1"
        } else {
            "INSERT INTO profiles (id, name, color, region, read_only, kind, aws_profile, access_key_id, endpoint_url, created_at,
             secret_in_keychain)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"
        };
        sqlx::query(sql)
            .bind(id)
            .bind(&name)
            .bind(&color)
            .bind(&region)
            .bind(read_only)
            .bind(kind)
            .bind(aws_profile)
            .bind(access_key_id)
            .bind(endpoint_url)
            .bind(now)
            .bind(secret_in_keychain)
            .execute(&self.pool)
            .await
            .map_err(storage)?;
        self.get(id).await
    }

    /// Deletes a profile and its secrets.
    pub async fn delete(&self, id: &str) -> Result<(), CommandError> {
        if id == EMBEDDED_ID {
            return Err(invalid("The embedded engine's profile cannot be deleted."));
        }
        let profile = self.get(id).await?;
        if has_secrets(&profile.connection) {
            for kind in ["secret-access-key", "session-token"] {
                self.secrets
                    .delete(&secrets::account(id, kind))
                    .map_err(|err| keychain(KeychainUse::Remove, err))?;
            }
        }
        sqlx::query("DELETE FROM profiles WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(storage)?;
        Ok(())
    }

    /// A profile's secret of one kind (`secret-access-key`, `session-token`), for the AWS client.
    pub fn secret(&self, id: &str, kind: &str) -> Result<Option<Secret>, CommandError> {
        self.secrets
            .get(&secrets::account(id, kind))
            .map_err(|err| keychain(KeychainUse::Read, err))
    }
}

fn embedded_profile() -> Profile {
    Profile {
        id: EMBEDDED_ID.to_owned(),
        name: "Embedded".to_owned(),
        color: "#4f7cff".to_owned(),
        region: "local".to_owned(),
        read_only: false,
        connection: Connection::Embedded,
    }
}

fn profile_of(row: &sqlx::sqlite::SqliteRow) -> Result<Profile, CommandError> {
    let text = |column: &str| -> Result<String, CommandError> {
        row.try_get::<Option<String>, _>(column)
            .map_err(storage)
            .map(Option::unwrap_or_default)
    };
    let connection = match text("kind")?.as_str() {
        "aws-profile" => Connection::AwsProfile {
            profile_name: text("aws_profile")?,
        },
        "access-keys" => Connection::AccessKeys {
            access_key_id: text("access_key_id")?,
        },
        "custom-endpoint" => Connection::CustomEndpoint {
            endpoint_url: text("endpoint_url")?,
            access_key_id: text("access_key_id")?,
            secret_in_keychain: row.try_get("secret_in_keychain").map_err(storage)?,
        },
        other => return Err(storage(format!("a profile has an unknown kind {other:?}"))),
    };
    Ok(Profile {
        id: text("id")?,
        name: text("name")?,
        color: text("color")?,
        region: text("region")?,
        read_only: row.try_get("read_only").map_err(storage)?,
        connection,
    })
}

fn is_color(color: &str) -> bool {
    color.len() == 7 && color.starts_with('#') && color[1..].chars().all(|c| c.is_ascii_hexdigit())
}

/// AWS access key ids are 16–128 characters of letters and digits (IAM `AccessKey` API).
fn check_access_key_id(id: &str) -> Result<(), CommandError> {
    if (16..=128).contains(&id.len()) && id.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(())
    } else {
        Err(invalid(
            "An AWS access key id is 16 to 128 letters and digits, like AKIAIOSFODNN7EXAMPLE.",
        ))
    }
}

fn check_endpoint(url: &str) -> Result<(), CommandError> {
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.host().is_some() => Ok(()),
        _ => Err(invalid(format!("{url:?} is not an http:// or https:// address."))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    fn keys_input(name: &str) -> ProfileInput {
        ProfileInput {
            name: name.to_owned(),
            color: "#ff8800".to_owned(),
            region: "eu-west-1".to_owned(),
            read_only: true,
            connection: ConnectionInput::AccessKeys {
                access_key_id: "AKIAIOSFODNN7EXAMPLE".to_owned(),
                secret_access_key: SecretInput::new("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                session_token: None,
            },
        }
    }

    async fn store() -> (ProfileStore, Arc<MemoryStore>) {
        let secrets = Arc::new(MemoryStore::default());
        (ProfileStore::in_memory(secrets.clone()).await.unwrap(), secrets)
    }

    #[tokio::test]
    async fn the_embedded_profile_comes_first_and_cannot_be_removed() {
        let (store, _) = store().await;
        let list = store.list().await.unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].connection, Connection::Embedded);
        assert_eq!(
            store.delete(EMBEDDED_ID).await.unwrap_err().code,
            ErrorCode::InvalidProfile
        );
    }

    #[tokio::test]
    async fn access_keys_go_to_the_keychain_and_never_into_the_profile() {
        let (store, secrets) = store().await;
        let profile = store.create(keys_input("prod (read-only)"), 1.0).await.unwrap();
        assert_eq!(
            profile.connection,
            Connection::AccessKeys {
                access_key_id: "AKIAIOSFODNN7EXAMPLE".into()
            }
        );
        assert!(profile.read_only);
        let kept = secrets
            .get(&secrets::account(&profile.id, "secret-access-key"))
            .unwrap()
            .unwrap();
        assert_eq!(kept.expose(), "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        // Nothing the UI receives carries the secret.
        let shown = serde_json::to_string(&store.list().await.unwrap()).unwrap();
        assert!(!shown.contains("EXAMPLEKEY"), "{shown}");
        let stored: Vec<String> = sqlx::query_scalar(
            "SELECT name || color || region || kind || coalesce(access_key_id, '') FROM profiles",
        )
        .fetch_all(&store.pool)
        .await
        .unwrap();
        assert!(stored.iter().all(|row| !row.contains("EXAMPLEKEY")));

        store.delete(&profile.id).await.unwrap();
        assert_eq!(
            secrets
                .get(&secrets::account(&profile.id, "secret-access-key"))
                .unwrap(),
            None
        );
        assert_eq!(
            store.get(&profile.id).await.unwrap_err().code,
            ErrorCode::ProfileNotFound
        );
    }

    #[tokio::test]
    async fn bad_profiles_are_refused_with_a_reason() {
        let (store, _) = store().await;
        let mut bad_region = keys_input("a");
        bad_region.region = "moon-1".into();
        assert_eq!(
            store.create(bad_region, 0.0).await.unwrap_err().code,
            ErrorCode::InvalidProfile
        );
        let mut bad_color = keys_input("b");
        bad_color.color = "orange".into();
        assert_eq!(
            store.create(bad_color, 0.0).await.unwrap_err().code,
            ErrorCode::InvalidProfile
        );
        let mut bad_url = keys_input("c");
        bad_url.region = "local".into();
        bad_url.connection = ConnectionInput::CustomEndpoint {
            endpoint_url: "localhost:8000".into(),
            access_key_id: "local".into(),
            secret_access_key: SecretInput::new("local"),
        };
        let err = store.create(bad_url, 0.0).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidProfile);
        assert!(err.message.contains("http://"), "{}", err.message);

        store.create(keys_input("dup"), 0.0).await.unwrap();
        assert_eq!(
            store.create(keys_input("dup"), 0.0).await.unwrap_err().code,
            ErrorCode::ProfileNameTaken
        );
    }

    #[tokio::test]
    async fn custom_endpoints_take_any_region_name_and_survive_updates() {
        let (store, _) = store().await;
        let mut input = keys_input("local");
        input.region = "local".into();
        input.connection = ConnectionInput::CustomEndpoint {
            endpoint_url: "http://127.0.0.1:8000".into(),
            access_key_id: "local".into(),
            secret_access_key: SecretInput::new("local"),
        };
        let created = store.create(input.clone(), 0.0).await.unwrap();
        input.name = "dynotable-local".into();
        input.read_only = false;
        let updated = store.update(&created.id, input).await.unwrap();
        assert_eq!(updated.name, "dynotable-local");
        assert!(!updated.read_only);
        assert_eq!(store.list().await.unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_profile_that_stops_using_typed_keys_leaves_no_secret_in_the_keychain() {
        let (store, secrets) = store().await;
        let mut input = keys_input("switching");
        input.connection = ConnectionInput::AccessKeys {
            access_key_id: "AKIAIOSFODNN7EXAMPLE".to_owned(),
            secret_access_key: SecretInput::new("typed-secret"),
            session_token: Some(SecretInput::new("typed-token")),
        };
        let profile = store.create(input.clone(), 0.0).await.unwrap();
        let kept = |kind: &str| secrets.get(&secrets::account(&profile.id, kind)).unwrap();
        assert_eq!(kept("session-token"), Some(Secret::new("typed-token")));

        // Keys again without a token: the old token goes.
        input.connection = ConnectionInput::AccessKeys {
            access_key_id: "AKIAIOSFODNN7EXAMPLE".to_owned(),
            secret_access_key: SecretInput::new("second-secret"),
            session_token: None,
        };
        store.update(&profile.id, input.clone()).await.unwrap();
        assert_eq!(kept("secret-access-key"), Some(Secret::new("second-secret")));
        assert_eq!(kept("session-token"), None);

        // Now a profile from ~/.aws: the typed secret goes too.
        input.connection = ConnectionInput::AwsProfile {
            profile_name: "default".to_owned(),
        };
        store.update(&profile.id, input).await.unwrap();
        assert_eq!(kept("secret-access-key"), None);
    }

    #[test]
    fn secret_inputs_do_not_print() {
        assert_eq!(format!("{:?}", SecretInput::new("x")), "SecretInput([redacted])");
    }
}
