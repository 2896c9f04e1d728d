//! The app's connections: the profiles the user keeps, the AWS profiles DynoTable discovers on
//! its own, and "test connection" for each.

use dynotable_aws::client::ConnectionTest;
use dynotable_aws::profiles::AwsProfile;

use crate::profiles::{Connection, Profile, ProfileInput, ProfileStore};
use crate::{App, CommandError, ErrorCode};

impl App {
    /// The profile database (`<data>/dynotable.sqlite`), opened on first use.
    pub(crate) async fn profile_store(&self) -> Result<&ProfileStore, CommandError> {
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
        let updated = self.profile_store().await?.update(id, input).await?;
        self.forget_session(id).await;
        Ok(updated)
    }

    pub async fn delete_profile(&self, id: &str) -> Result<(), CommandError> {
        self.profile_store().await?.delete(id).await?;
        self.forget_session(id).await;
        self.forget_queries(id).await?;
        self.forget_saved_expressions(id).await?;
        self.forget_saved_statements(id).await?;
        Ok(())
    }

    /// The named profiles of the user's AWS config files, ready to open without retyping.
    pub async fn aws_profiles(&self) -> Result<Vec<AwsProfile>, CommandError> {
        dynotable_aws::profiles::discover(&self.inner.aws_files)
            .await
            .map_err(|err| {
                CommandError::new(
                    ErrorCode::AwsConfigUnreadable,
                    format!("The AWS config files could not be read: {err}"),
                )
            })
    }

    /// Checks that the AWS files have the profile a connection names. Without this check the
    /// SDK's credential chain goes on past a missing profile to the environment and the instance
    /// metadata service, and fails in words about those. (`default` is left to the chain: the
    /// environment's keys stand in for it.)
    pub(crate) async fn require_aws_profile(&self, name: &str) -> Result<(), CommandError> {
        if name == "default" || self.aws_profiles().await?.iter().any(|p| p.name == name) {
            return Ok(());
        }
        Err(CommandError::new(
            ErrorCode::NoCredentials,
            format!(
                "There is no profile named {name} in the AWS config or credentials file \
                 (~/.aws/config, ~/.aws/credentials). Add it there (for example with \
                 `aws configure --profile {name}`), or edit this connection to name one that exists."
            ),
        ))
    }

    /// Tries a profile: one ListTables, and what went wrong in plain words.
    pub async fn test_connection(&self, id: &str) -> Result<ConnectionTest, CommandError> {
        let session = self.session(id).await?;
        let profile_name = match &session.profile.connection {
            Connection::AwsProfile { profile_name } => Some(profile_name.as_str()),
            _ => None,
        };
        Ok(dynotable_aws::client::test_connection(&session.client, profile_name).await)
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

        // A restart: the first app is gone, and with it its engine, which holds the database
        // file from the moment it has started.
        app.engine().await.unwrap();
        drop(app);
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
