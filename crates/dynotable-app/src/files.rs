//! Files the user chose in the system's file dialog, as handles the web view can only name.
//!
//! The web view never sends a path. When the user picks a file, the shell hands the path to
//! [`FileGrants::grant`] and the UI receives a [`ChosenFile`]: an opaque handle, the file's name
//! to show, and whether saving there replaces a file. Import and export take the handle, and
//! [`FileGrants::path`] gives the path back only for the purpose it was granted for: a file chosen
//! to be read cannot be written, a file chosen to be written cannot be read, and a handle the
//! dialog never issued names nothing. So a compromised web view reaches only the files the user
//! picked, for what they were picked for.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use crate::{CommandError, ErrorCode};

/// What a chosen file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum FilePurpose {
    /// An existing file to read (an import).
    Open,
    /// Where to write a file (an export).
    Save,
}

/// A file the user chose, as the UI sees it: no path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ChosenFile {
    /// What the UI passes back to name this file.
    pub handle: String,
    /// The file's name (its last path component), to show.
    pub name: String,
    /// Saving here replaces an existing file (the UI asks first).
    pub replaces: bool,
}

/// The files chosen in this run of the app, by handle.
#[derive(Debug, Default)]
pub struct FileGrants {
    next: AtomicU64,
    /// Keyed from the OS's randomness once per run: handles hashed with it cannot be guessed.
    salt: RandomState,
    granted: Mutex<HashMap<String, (PathBuf, FilePurpose)>>,
}

impl FileGrants {
    /// Records that the user chose `path` for `purpose` and returns its handle.
    pub fn grant(&self, path: PathBuf, purpose: FilePurpose) -> ChosenFile {
        let number = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        // The counter makes handles unique; the random part makes them unguessable, so a handle
        // cannot be made up from the count of dialogs shown.
        let handle = format!("file-{number}-{:016x}", self.salt.hash_one(number));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let replaces = purpose == FilePurpose::Save && path.exists();
        self.granted
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(handle.clone(), (path, purpose));
        ChosenFile {
            handle,
            name,
            replaces,
        }
    }

    /// The path behind `handle`, if it was granted for `purpose`.
    pub fn path(&self, handle: &str, purpose: FilePurpose) -> Result<PathBuf, CommandError> {
        let granted = self.granted.lock().unwrap_or_else(|p| p.into_inner());
        match granted.get(handle) {
            Some((path, granted_for)) if *granted_for == purpose => Ok(path.clone()),
            Some(_) => Err(CommandError::new(
                ErrorCode::FileNotChosen,
                match purpose {
                    FilePurpose::Open => {
                        "That file was chosen to be written, not read. Choose the file to import."
                    }
                    FilePurpose::Save => {
                        "That file was chosen to be read, not written. Choose where to export."
                    }
                },
            )),
            None => Err(CommandError::new(
                ErrorCode::FileNotChosen,
                "No file was chosen for this. Choose one with the file dialog.",
            )),
        }
    }
}

/// The name of the file `path` is written as before it is renamed into place: beside it (the
/// same file system, so the rename is atomic), hidden, and marked as partial.
pub fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.dynotable-partial"))
}

/// Where a CSV export keeps its items until its header can be written: beside `path`, hidden,
/// removed when the export ends however it ends.
pub fn spool_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.dynotable-spool"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_gives_its_path_back_only_for_its_purpose() {
        let grants = FileGrants::default();
        let open = grants.grant(PathBuf::from("/tmp/in.jsonl"), FilePurpose::Open);
        let save = grants.grant(PathBuf::from("/tmp/out.jsonl"), FilePurpose::Save);
        assert_eq!(open.name, "in.jsonl");
        assert_ne!(open.handle, save.handle);
        assert_eq!(
            grants.path(&open.handle, FilePurpose::Open).unwrap(),
            PathBuf::from("/tmp/in.jsonl")
        );
        assert_eq!(
            grants.path(&save.handle, FilePurpose::Save).unwrap(),
            PathBuf::from("/tmp/out.jsonl")
        );
        assert_eq!(
            grants.path(&open.handle, FilePurpose::Save).unwrap_err().code,
            ErrorCode::FileNotChosen
        );
        assert_eq!(
            grants.path(&save.handle, FilePurpose::Open).unwrap_err().code,
            ErrorCode::FileNotChosen
        );
    }

    #[test]
    fn a_path_or_a_made_up_handle_names_nothing() {
        let grants = FileGrants::default();
        grants.grant(PathBuf::from("/tmp/in.jsonl"), FilePurpose::Open);
        for attempt in ["/tmp/in.jsonl", "/etc/passwd", "file-1", ""] {
            let err = grants.path(attempt, FilePurpose::Open).unwrap_err();
            assert_eq!(err.code, ErrorCode::FileNotChosen, "{attempt}");
        }
    }

    #[test]
    fn saving_over_an_existing_file_is_reported_as_a_replacement() {
        let dir = tempfile::tempdir().unwrap();
        let existing = dir.path().join("Telemetry.csv");
        std::fs::write(&existing, "old").unwrap();
        let grants = FileGrants::default();
        assert!(grants.grant(existing.clone(), FilePurpose::Save).replaces);
        assert!(
            !grants
                .grant(dir.path().join("new.csv"), FilePurpose::Save)
                .replaces
        );
        // Reading an existing file replaces nothing.
        assert!(!grants.grant(existing, FilePurpose::Open).replaces);
    }

    #[test]
    fn the_partial_file_sits_beside_the_target() {
        let partial = partial_path(Path::new("/home/me/Telemetry.csv"));
        assert_eq!(
            partial,
            PathBuf::from("/home/me/.Telemetry.csv.dynotable-partial")
        );
    }
}
