//! One engine per database file.
//!
//! An engine keeps state beside its SQLite file — the catalog, the item cache, the items in
//! flight, stream sequence numbers — that another process writing the same file would silently
//! make stale: a second `dynotable-local` or the desktop app on the same file would read old
//! items from its cache and tables from its catalog. So an engine opening a file first takes an
//! exclusive lock on `<file>.lock` and holds it while it is open; a second engine, in another
//! process or the same one, is refused with [`EngineError::InUse`] before it touches the file.
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on Windows, through std's
//! `File::try_lock`): it goes with the process, so `kill -9` never leaves a database locked.
//! The lock file itself holds nothing and is left in place.

use std::ffi::OsString;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use crate::EngineError;

/// The held lock on a database file; released when dropped.
#[derive(Debug)]
pub(crate) struct DatabaseLock {
    _file: File,
}

/// `<database>.lock`.
pub(crate) fn lock_path(database: &Path) -> PathBuf {
    let mut name = OsString::from(database.as_os_str());
    name.push(".lock");
    PathBuf::from(name)
}

impl DatabaseLock {
    /// Locks `database` for this engine, or says who cannot have it.
    pub fn acquire(database: &Path) -> Result<DatabaseLock, EngineError> {
        let path = lock_path(database);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| EngineError::Lock {
                path: path.clone(),
                source,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(DatabaseLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(EngineError::InUse {
                path: database.to_path_buf(),
            }),
            Err(TryLockError::Error(source)) => Err(EngineError::Lock { path, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Engine, EngineError, Location};

    #[tokio::test]
    async fn a_second_engine_on_the_same_file_is_refused_until_the_first_closes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("local.db");
        let first = Engine::open(Location::File(path.clone())).await.unwrap();
        let refused = Engine::open(Location::File(path.clone())).await.unwrap_err();
        assert!(
            matches!(&refused, EngineError::InUse { path: p } if p == &path),
            "{refused:?}"
        );
        assert!(
            refused
                .to_string()
                .contains("already open in another DynoTable engine")
        );
        // Another file in the same folder is no one else's.
        let other = Engine::open(Location::File(dir.path().join("other.db"))).await;
        assert!(other.is_ok(), "{other:?}");
        drop(first);
        Engine::open(Location::File(path)).await.unwrap();
    }
}
