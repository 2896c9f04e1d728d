//! aws-sdk-dynamodb clients for a connection, and "test connection": one ListTables whose
//! failure is told in plain words with a stable code.

use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::Credentials;
use aws_sdk_dynamodb::error::SdkError;
use aws_types::region::Region;
use serde::Serialize;

use crate::files::AwsFiles;

/// Where and as whom a client connects. Secrets are borrowed only while the client is built.
#[derive(Clone, Copy)]
pub enum Target<'a> {
    /// A named profile of the AWS config files; aws-config resolves its credentials (SSO,
    /// assume-role, credential_process, ...) and honours its `endpoint_url`.
    Profile { name: &'a str },
    /// A named profile whose credentials DynoTable obtained itself (a role assumed with an MFA
    /// code, which aws-config cannot ask for): the profile's other settings, such as
    /// `endpoint_url`, still apply.
    ProfileWithCredentials {
        name: &'a str,
        access_key_id: &'a str,
        secret_access_key: &'a str,
        session_token: Option<&'a str>,
    },
    /// Access keys typed into DynoTable.
    Keys {
        access_key_id: &'a str,
        secret_access_key: &'a str,
        session_token: Option<&'a str>,
    },
    /// A DynamoDB-compatible endpoint with access keys.
    Endpoint {
        url: &'a str,
        access_key_id: &'a str,
        secret_access_key: &'a str,
    },
}

impl std::fmt::Debug for Target<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Profile { name } => write!(f, "Profile({name})"),
            Target::ProfileWithCredentials {
                name, access_key_id, ..
            } => write!(f, "Profile({name}, {access_key_id}, [redacted])"),
            Target::Keys { access_key_id, .. } => write!(f, "Keys({access_key_id}, [redacted])"),
            Target::Endpoint {
                url, access_key_id, ..
            } => write!(f, "Endpoint({url}, {access_key_id}, [redacted])"),
        }
    }
}

/// Builds a DynamoDB client for `target` in `region`, its named profiles read from `files`.
pub async fn client(files: &AwsFiles, target: Target<'_>, region: &str) -> Client {
    Client::new(&sdk_config(files, target, region).await)
}

/// Builds a DynamoDB Streams client for `target` in `region`: the same credentials, region and
/// endpoint as [`client`] (a custom endpoint serves both APIs, told apart by `X-Amz-Target`).
pub async fn streams_client(
    files: &AwsFiles,
    target: Target<'_>,
    region: &str,
) -> aws_sdk_dynamodbstreams::Client {
    aws_sdk_dynamodbstreams::Client::new(&sdk_config(files, target, region).await)
}

/// The shared SDK settings of `target` in `region`.
async fn sdk_config(files: &AwsFiles, target: Target<'_>, region: &str) -> aws_types::SdkConfig {
    let region_name = region;
    let region = Region::new(region.to_owned());
    let loader = files.apply(aws_config::defaults(BehaviorVersion::latest()).region(region));
    match target {
        Target::Profile { name } => {
            let loader = loader.profile_name(name);
            // aws-config assumes a profile's role itself but sends no DurationSeconds: a role
            // with `duration_seconds` (and no MFA, which the app asks for) goes through
            // aws-config's AssumeRoleProvider with every key of the profile (crate::roles).
            match crate::roles::role_settings(files, name).await {
                Ok(Some(role)) if role.duration_seconds.is_some() && role.mfa_serial.is_none() => {
                    let provider = crate::roles::assume_role_provider(files, &role, region_name).await;
                    loader.credentials_provider(provider).load().await
                }
                _ => loader.load().await,
            }
        }
        Target::ProfileWithCredentials {
            name,
            access_key_id,
            secret_access_key,
            session_token,
        } => {
            let credentials = static_credentials(access_key_id, secret_access_key, session_token);
            loader
                .profile_name(name)
                .credentials_provider(credentials)
                .load()
                .await
        }
        Target::Keys {
            access_key_id,
            secret_access_key,
            session_token,
        } => {
            let credentials = static_credentials(access_key_id, secret_access_key, session_token);
            loader.credentials_provider(credentials).load().await
        }
        Target::Endpoint {
            url,
            access_key_id,
            secret_access_key,
        } => {
            let credentials = static_credentials(access_key_id, secret_access_key, None);
            loader
                .credentials_provider(credentials)
                .endpoint_url(url)
                .load()
                .await
        }
    }
}

/// Credentials DynoTable holds itself (typed in, or bought with an MFA code); they never expire
/// on their own account: AWS tells when a session token has.
fn static_credentials(
    access_key_id: &str,
    secret_access_key: &str,
    session_token: Option<&str>,
) -> Credentials {
    Credentials::new(
        access_key_id,
        secret_access_key,
        session_token.map(str::to_owned),
        None,
        "dynotable",
    )
}

/// Why a connection test failed, as a stable code the UI switches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ConnectionProblem {
    /// No credentials could be found or resolved for the connection.
    NoCredentials,
    /// The access key is unknown or the signature does not match its secret.
    BadCredentials,
    /// Temporary credentials (a session token, an SSO session) have expired.
    ExpiredCredentials,
    /// The credentials are valid but may not call ListTables.
    AccessDenied,
    /// The endpoint could not be reached (DNS, refused connection, timeout, TLS).
    Unreachable,
    /// Something answered, but not as DynamoDB does.
    NotDynamoDb,
    /// DynamoDB answered with another error.
    Other,
}

/// The outcome of a connection test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionTest {
    pub ok: bool,
    pub problem: Option<ConnectionProblem>,
    /// A sentence for people: what happened and what to do.
    pub message: String,
    /// Tables seen (at most one is asked for), when it worked.
    pub sample_table: Option<String>,
}

/// Runs one ListTables and says what happened. `profile_name` is used in advice
/// (`aws sso login --profile <name>`).
pub async fn test_connection(client: &Client, profile_name: Option<&str>) -> ConnectionTest {
    match client.list_tables().limit(1).send().await {
        Ok(output) => ConnectionTest {
            ok: true,
            problem: None,
            message: "Connected: ListTables answered.".to_owned(),
            sample_table: output.table_names().first().cloned(),
        },
        Err(err) => {
            let (problem, message) = explain(&err, profile_name);
            ConnectionTest {
                ok: false,
                problem: Some(problem),
                message,
                sample_table: None,
            }
        }
    }
}

/// What a failed SDK call's causes say, outermost first, joined by ": " — without the SDK's own
/// words for the kind of failure ("dispatch failure", "other", ...), which tell a person nothing,
/// and without a cause that only repeats the one before it. For a profile missing from the AWS
/// files this names the profile; for a refused connection, the address.
pub fn causes(err: &dyn std::error::Error) -> String {
    const KIND_WORDS: &[&str] = &["other", "dispatch failure", "io", "timeout", "user", "unknown"];
    let mut said: Vec<String> = Vec::new();
    let mut next = err.source();
    while let Some(cause) = next {
        let text = cause.to_string();
        let text = text.trim();
        if !text.is_empty()
            && !KIND_WORDS.contains(&text.to_lowercase().as_str())
            && !said.iter().any(|s| s.contains(text))
        {
            said.push(text.to_owned());
        }
        next = cause.source();
    }
    said.join(": ")
}

fn explain<E, R>(err: &SdkError<E, R>, profile_name: Option<&str>) -> (ConnectionProblem, String)
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    let detail = causes(err);
    let sso_advice = profile_name
        .map(|p| format!(" Renew it with: aws sso login --profile {p}"))
        .unwrap_or_default();
    match err {
        SdkError::DispatchFailure(failure) => {
            let text = format!("{failure:?} {detail}").to_lowercase();
            if text.contains("credential") || text.contains("token") {
                if text.contains("expired") || text.contains("sso") {
                    (
                        ConnectionProblem::ExpiredCredentials,
                        format!("The sign-in session has expired.{sso_advice}"),
                    )
                } else {
                    (
                        ConnectionProblem::NoCredentials,
                        format!("No credentials could be loaded for this connection: {detail}"),
                    )
                }
            } else {
                (
                    ConnectionProblem::Unreachable,
                    format!("The endpoint could not be reached: {detail}"),
                )
            }
        }
        SdkError::TimeoutError(_) => (
            ConnectionProblem::Unreachable,
            "The endpoint did not answer in time.".to_owned(),
        ),
        SdkError::ResponseError(_) => (
            ConnectionProblem::NotDynamoDb,
            format!("Something answered, but not like DynamoDB: {detail}. Check the endpoint URL."),
        ),
        SdkError::ServiceError(service) => {
            let code = service.err().code().unwrap_or_default().to_owned();
            let text = service.err().message().unwrap_or_default().to_owned();
            match code.as_str() {
                "UnrecognizedClientException"
                | "InvalidSignatureException"
                | "IncompleteSignatureException" => (
                    ConnectionProblem::BadCredentials,
                    format!(
                        "The credentials were refused ({code}): check the access key id and secret. {text}"
                    ),
                ),
                "ExpiredTokenException" | "ExpiredToken" => (
                    ConnectionProblem::ExpiredCredentials,
                    format!("The credentials have expired ({code}).{sso_advice}"),
                ),
                "AccessDeniedException" => (
                    ConnectionProblem::AccessDenied,
                    format!("These credentials may not call dynamodb:ListTables: {text}"),
                ),
                "" => (
                    ConnectionProblem::NotDynamoDb,
                    format!("The endpoint answered with an error DynamoDB does not send: {detail}"),
                ),
                _ => (
                    ConnectionProblem::Other,
                    format!("DynamoDB answered {code}: {text}"),
                ),
            }
        }
        _ => (
            ConnectionProblem::Other,
            format!("The request could not be made: {detail}"),
        ),
    }
}
