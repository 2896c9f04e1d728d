//! DynoTable's AWS side.
//!
//! - [`profiles`]: the named profiles in the user's `~/.aws/config` and `~/.aws/credentials`
//!   (or `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE`), discovered with aws-config's own
//!   parser so DynoTable lists exactly what the AWS CLI and SDKs see — each with its region,
//!   endpoint and where its credentials come from, and never a secret.
//!
//! - [`client`]: an aws-sdk-dynamodb client for a connection (a named profile, access keys, or
//!   a custom endpoint), and "test connection" — one ListTables whose failure is told in plain
//!   words with a stable [`client::ConnectionProblem`] code.
//! - [`files`]: which config and credentials files all of the above read (the user's, or two
//!   given files in tests).
//! - [`roles`]: a profile's `role_arn` with the keys the AWS CLI reads beside it
//!   (`source_profile` or `credential_source`, `external_id`, `role_session_name`,
//!   `duration_seconds`, `mfa_serial`), and the credentials that call STS for it.
//! - [`mfa`]: assuming a profile's role with an MFA code the user types (STS AssumeRole).
//! - [`sso`]: signing in to IAM Identity Center from the app (device authorization, the
//!   system browser), the token cached where the AWS CLI caches it.
//! - [`in_process`]: the embedded engine behind the same SDK, its requests handed to the
//!   server's router inside the process — one code path for the engine and for AWS, no port.

pub mod client;
pub mod files;
pub mod in_process;
pub mod mfa;
pub mod profiles;
pub mod roles;
pub mod sso;
