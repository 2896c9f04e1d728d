//! The app's connections: the profiles the user keeps, the AWS profiles DynoTable discovers on
//! its own, and "test connection" for each.

use dynotable_aws::client::{ConnectionTest, Target};
use dynotable_aws::profiles::AwsProfile;

use crate::profiles::{Connection, Profile, ProfileInput, ProfileStore};
use crate::{App, CommandError, ErrorCode};

impl App {
    /// The profile database (`<data>/dynotable.sqlite`), opened on first use.
    async fn profile_store(&self) -> Result<&ProfileStore, CommandError> {
        let path = self.inner.data_dir.join("dynotable.sqlite");
        let secrets = self.inner.secrets.clone();
        self.inner
            .profiles
            .get_or_try_init(|| async move { ProfileStore::open(&path, secrets).await })
            .await
    }

    /// Every profile: the embedded engine's first, then the user's by name.
    pub async fn profiles(&self) -> Result<Vec<Profile>, CommandError> {
        self.profile_store().await?.list().await
    }

    pub async fn create_profile(&self, input: ProfileInput) -> Result<Profile, CommandError> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        self.profile_store().await?.create(input, now).await
    }

    pub async fn update_profile(&self, id: &str, input: ProfileInput) -> Result<Profile, CommandError> {
        self.profile_store().await?.update(id, input).await
    }

    pub async fn delete_profile(&self, id: &str) -> Result<(), CommandError> {
        self.profile_store().await?.delete(id).await
    }

    /// The named profiles of the user's AWS config files, ready to open without retyping.
    pub async fn aws_profiles(&self) -> Result<Vec<AwsProfile>, CommandError> {
        dynotable_aws::profiles::discover().await.map_err(|err| {
            CommandError::new(
                ErrorCode::AwsConfigUnreadable,
                format!("The AWS config files could not be read: {err}"),
            )
        })
    }

    /// Tries a profile: one ListTables, and what went wrong in plain words.
    pub async fn test_connection(&self, id: &str) -> Result<ConnectionTest, CommandError> {
        let store = self.profile_store().await?;
        let profile = store.get(id).await?;
        let missing_secret = || {
            CommandError::new(
                ErrorCode::KeychainUnavailable,
                "The profile's secret access key is not in the keychain; enter it again.",
            )
        };
        let client = match &profile.connection {
            // The embedded engine through the same SDK, its requests handled in-process.
            Connection::Embedded => dynotable_aws::in_process::embedded_client(self.engine().await?),
            Connection::AwsProfile { profile_name } => {
                dynotable_aws::client::client(Target::Profile { name: profile_name }, &profile.region).await
            }
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
                dynotable_aws::client::client(target, &profile.region).await
            }
            Connection::CustomEndpoint {
                endpoint_url,
                access_key_id,
            } => {
                let secret = store
                    .secret(id, "secret-access-key")?
                    .ok_or_else(missing_secret)?;
                let target = Target::Endpoint {
                    url: endpoint_url,
                    access_key_id,
                    secret_access_key: secret.expose(),
                };
                dynotable_aws::client::client(target, &profile.region).await
            }
        };
        let profile_name = match &profile.connection {
            Connection::AwsProfile { profile_name } => Some(profile_name.as_str()),
            _ => None,
        };
        Ok(dynotable_aws::client::test_connection(&client, profile_name).await)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::profiles::{ConnectionInput, SecretInput};
    use crate::secrets::MemoryStore;
    use crate::{App, ErrorCode};

    #[tokio::test]
    async fn profiles_persist_in_the_data_folder_and_their_secrets_in_the_store() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Arc::new(MemoryStore::default());
        let app = App::start_with("1", dir.path(), secrets.clone());
        let input = crate::profiles::ProfileInput {
            name: "local".into(),
            color: "#00aa55".into(),
            region: "local".into(),
            read_only: false,
            connection: ConnectionInput::CustomEndpoint {
                endpoint_url: "http://127.0.0.1:9".into(),
                access_key_id: "local".into(),
                secret_access_key: SecretInput::new("local-secret"),
            },
        };
        let created = app.create_profile(input).await.unwrap();
        assert!(dir.path().join("dynotable.sqlite").is_file());

        let again = App::start_with("1", dir.path(), secrets);
        let names: Vec<String> = again
            .profiles()
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, ["Embedded", "local"]);

        // Port 9 (discard) is closed on loopback: the test says the endpoint is unreachable.
        let result = again.test_connection(&created.id).await.unwrap();
        assert!(!result.ok);
        assert_eq!(
            result.problem,
            Some(dynotable_aws::client::ConnectionProblem::Unreachable),
            "{result:?}"
        );

        assert_eq!(
            again.test_connection("nope").await.unwrap_err().code,
            ErrorCode::ProfileNotFound
        );
        assert!(
            again
                .test_connection(crate::profiles::EMBEDDED_ID)
                .await
                .unwrap()
                .ok
        );
    }
}
