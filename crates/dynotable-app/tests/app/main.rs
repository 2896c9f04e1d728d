//! The integration tests of `dynotable-app`, one binary: each module is one area of the command
//! layer, driven as the desktop shell drives it (an `App` on a temporary folder, the embedded
//! engine, dynalite or a loopback endpoint for AWS). One binary links the app, the engine and
//! the AWS SDK once, and runs every area's tests side by side.
//!
//! `os_keychain.rs` stays a binary of its own: `scripts/keychain-test.sh` runs it against a real
//! Secret Service on a private D-Bus session.

mod aws_kept_rows;
mod aws_statistics;
mod builder;
mod bulk;
mod chosen_files;
mod commands;
mod costs;
mod engine_start;
mod history;
mod infer;
mod mfa;
mod modeler;
mod multi_attribute_keys;
mod no_keychain;
mod partiql;
mod read_requests;
mod scans;
mod secrets;
mod sharing;
mod simulations;
mod sso_sign_in;
mod streams;
mod support;
mod table_life;
mod tables;
mod transfer;
mod transfer_aws;
mod transfer_csv;
mod transfer_streaming;
