//! What the import and export tests share: the app on a temporary folder with its embedded engine
//! started, and the handles the system file dialog gives for a file chosen to be read or written
//! (the web view names a file only by such a handle).

use std::sync::Arc;

use dynotable_app::App;
use dynotable_app::files::FilePurpose;
use dynotable_app::secrets::MemoryStore;

/// The app on a temporary folder (kept alive by the returned `TempDir`), its engine started.
pub async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    (dir, app)
}

/// The handle the file dialog gives for `path` chosen to be written.
pub fn save(app: &App, path: &std::path::Path) -> String {
    app.grant_file(path.to_owned(), FilePurpose::Save).handle
}

/// The handle the file dialog gives for `path` chosen to be read.
pub fn open(app: &App, path: &std::path::Path) -> String {
    app.grant_file(path.to_owned(), FilePurpose::Open).handle
}
