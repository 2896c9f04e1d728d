//! The system's file dialog, behind one typed command of our own: the web view gets a handle to
//! the file the user chose (`dynotable_app::files`), never a path, and no file-system or dialog
//! permission of its own (see the main window's capability). The dialog is
//! tauri-plugin-dialog's; its answer comes back on a channel, so the command never blocks the
//! window's thread.

use dynotable_app::files::{ChosenFile, FilePurpose};
use dynotable_app::{App, CommandError, ErrorCode};
use tauri_plugin_dialog::DialogExt;

/// Asks the user for a file, offering `*.{extension}` files first and suggesting `file_name`
/// when saving. `None` when the user cancels. The path stays in Rust, granted for `purpose`.
pub async fn choose_file(
    app: &App,
    window: &tauri::Window,
    purpose: FilePurpose,
    file_name: &str,
    extension: &str,
) -> Result<Option<ChosenFile>, CommandError> {
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
            path.into_path().map(|p| app.grant_file(p, purpose)).map_err(|err| {
                CommandError::new(ErrorCode::Validation, format!("That file cannot be used: {err}"))
            })
        })
        .transpose()
}
