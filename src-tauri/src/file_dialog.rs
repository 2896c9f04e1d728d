//! The system's file dialog, behind one typed command of our own: the web view gets a path the
//! user chose, and no file-system or dialog permission of its own (see the main window's
//! capability). The dialog is tauri-plugin-dialog's; its answer comes back on a channel, so the
//! command never blocks the window's thread.

use dynotable_app::{CommandError, ErrorCode};
use serde::Deserialize;
use tauri_plugin_dialog::DialogExt;

/// What the file is for.
#[derive(Debug, Clone, Copy, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum FilePurpose {
    /// An existing file to read (an import).
    Open,
    /// Where to write a new file (an export), asking before replacing one.
    Save,
}

/// Asks the user for a file, offering `*.{extension}` files first and suggesting `file_name`
/// when saving. `None` when the user cancels.
pub async fn choose_file(
    window: &tauri::Window,
    purpose: FilePurpose,
    file_name: &str,
    extension: &str,
) -> Result<Option<String>, CommandError> {
    let (answer, answered) = tokio::sync::oneshot::channel();
    let dialog = window
        .dialog()
        .file()
        .set_parent(window)
        .add_filter(format!("{} files", extension.to_uppercase()), &[extension]);
    match purpose {
        FilePurpose::Open => dialog.pick_file(move |path| {
            let _ = answer.send(path);
        }),
        FilePurpose::Save => dialog.set_file_name(file_name).save_file(move |path| {
            let _ = answer.send(path);
        }),
    }
    let chosen = answered
        .await
        .map_err(|_| CommandError::new(ErrorCode::Internal, "The file dialog closed without an answer."))?;
    chosen
        .map(|path| {
            path.into_path().map(|p| p.display().to_string()).map_err(|err| {
                CommandError::new(ErrorCode::Validation, format!("That file cannot be used: {err}"))
            })
        })
        .transpose()
}
