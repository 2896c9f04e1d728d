//! Where DynoTable keeps its files.
//!
//! Release builds use the platform's application-data folder for the app's identifier (the shell
//! passes it in). Development builds use a sibling folder with a `.dev` suffix, so working on
//! DynoTable never touches the data of the DynoTable you use. `DYNOTABLE_DATA_DIR` overrides
//! both: the end-to-end tests and anyone who wants a portable setup point it anywhere.

use std::path::{Path, PathBuf};

/// The environment variable that overrides the data folder.
pub const OVERRIDE_VAR: &str = "DYNOTABLE_DATA_DIR";

/// Which kind of build is asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildKind {
    Release,
    Development,
}

impl BuildKind {
    /// The kind of the build this code was compiled into.
    pub const fn current() -> BuildKind {
        if cfg!(debug_assertions) {
            BuildKind::Development
        } else {
            BuildKind::Release
        }
    }
}

/// Chooses the data folder from the platform's app-data folder, the build kind and the
/// override (the value of [`OVERRIDE_VAR`], if set and not empty).
pub fn resolve(platform_dir: &Path, kind: BuildKind, override_dir: Option<&str>) -> PathBuf {
    if let Some(dir) = override_dir.filter(|d| !d.trim().is_empty()) {
        return PathBuf::from(dir);
    }
    match kind {
        BuildKind::Release => platform_dir.to_path_buf(),
        BuildKind::Development => {
            let mut name = platform_dir
                .file_name()
                .map(|n| n.to_os_string())
                .unwrap_or_default();
            name.push(".dev");
            platform_dir.with_file_name(name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLATFORM: &str = "/home/u/.local/share/io.dynotable.DynoTable";

    #[test]
    fn release_builds_use_the_platform_folder() {
        assert_eq!(
            resolve(Path::new(PLATFORM), BuildKind::Release, None),
            PathBuf::from(PLATFORM)
        );
    }

    #[test]
    fn development_builds_use_a_separate_folder() {
        assert_eq!(
            resolve(Path::new(PLATFORM), BuildKind::Development, None),
            PathBuf::from("/home/u/.local/share/io.dynotable.DynoTable.dev")
        );
    }

    #[test]
    fn the_override_wins_unless_blank() {
        assert_eq!(
            resolve(Path::new(PLATFORM), BuildKind::Release, Some("/tmp/x")),
            PathBuf::from("/tmp/x")
        );
        assert_eq!(
            resolve(Path::new(PLATFORM), BuildKind::Release, Some("  ")),
            PathBuf::from(PLATFORM)
        );
    }
}
