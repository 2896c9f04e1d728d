//! Where the AWS config and credentials files are read from.
//!
//! In the app they are the user's own, found the way the AWS CLI and SDKs find them
//! (`AWS_CONFIG_FILE`, `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/config` and
//! `~/.aws/credentials`). Tests hand two temporary files instead, so nothing reads or writes
//! the real home directory and no test has to change the process's environment. Every place
//! that reads profiles — discovery, the MFA challenge, the source profile of an assumed role,
//! a profile's client — takes an [`AwsFiles`], so they all read the same two files.

use std::path::{Path, PathBuf};

use aws_config::ConfigLoader;
use aws_runtime::env_config::file::{EnvConfigFileKind, EnvConfigFiles};
use aws_types::os_shim_internal::Env;

/// The AWS config and credentials files profiles are read from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum AwsFiles {
    /// The user's files, where aws-config looks for them.
    #[default]
    User,
    /// These two files (tests).
    Given { config: PathBuf, credentials: PathBuf },
}

impl AwsFiles {
    /// The two files given, when they are.
    pub fn paths(&self) -> Option<(&Path, &Path)> {
        match self {
            AwsFiles::User => None,
            AwsFiles::Given { config, credentials } => Some((config, credentials)),
        }
    }

    /// The environment aws-config's profile parser reads the file locations from.
    pub(crate) fn env(&self) -> Env {
        match self {
            AwsFiles::User => Env::real(),
            AwsFiles::Given { config, credentials } => Env::from_slice(&[
                ("AWS_CONFIG_FILE", &config.to_string_lossy()),
                ("AWS_SHARED_CREDENTIALS_FILE", &credentials.to_string_lossy()),
            ]),
        }
    }

    /// `loader`, reading profiles from these files.
    pub(crate) fn apply(&self, loader: ConfigLoader) -> ConfigLoader {
        match self.paths() {
            None => loader,
            Some((config, credentials)) => loader.profile_files(
                EnvConfigFiles::builder()
                    .with_file(EnvConfigFileKind::Config, config)
                    .with_file(EnvConfigFileKind::Credentials, credentials)
                    .build(),
            ),
        }
    }
}
