//! The integration tests of `dynotable-aws`, one binary: profile resolution from `~/.aws`,
//! assumed roles, MFA, IAM Identity Center and the connection test, against stand-ins of the AWS
//! services on loopback. One binary links the AWS SDK once and runs every area's tests side by
//! side.

mod mfa;
mod profile_resolution;
mod roles;
mod sso;
mod test_connection;
