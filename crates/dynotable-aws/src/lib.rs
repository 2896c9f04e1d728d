//! DynoTable's AWS side.
//!
//! - [`profiles`]: the named profiles in the user's `~/.aws/config` and `~/.aws/credentials`
//!   (or `AWS_CONFIG_FILE` / `AWS_SHARED_CREDENTIALS_FILE`), discovered with aws-config's own
//!   parser so DynoTable lists exactly what the AWS CLI and SDKs see — each with its region,
//!   endpoint and where its credentials come from, and never a secret.
//!
//! Clients per connection (aws-sdk-dynamodb), "test connection" and the embedded engine's
//! in-process endpoint are the next steps of the connections issue.

pub mod profiles;
