//! The system's dialogs, behind typed commands of our own (tauri-plugin-dialog's; each answer
//! comes back on a channel, so no command blocks the window's thread):
//! - the file dialog: the web view gets a handle to the file the user chose
//!   (`dynotable_app::files`), never a path, and no file-system or dialog permission of its own
//!   (see the main window's capability);
//! - the confirmation of a table's deletion: a native message dialog the web view cannot answer
//!   for the user; only a yes issues the token `delete_table` takes (`dynotable_app::deletion`).

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
            path.into_path()
                .map(|p| app.grant_file(p, purpose))
                .map_err(|err| {
                    CommandError::new(ErrorCode::Validation, format!("That file cannot be used: {err}"))
                })
        })
        .transpose()
}

/// Asks the user with a native message dialog whether to delete `table`, and issues the token
/// `delete_table` takes only when they say yes. `None` when they decline.
pub async fn confirm_delete_table(
    app: &App,
    window: &tauri::Window,
    profile_id: &str,
    table: &str,
) -> Result<Option<dynotable_app::deletion::DeleteToken>, CommandError> {
    use tauri_plugin_dialog::{MessageDialogButtons, MessageDialogKind};
    let (answer, answered) = tokio::sync::oneshot::channel();
    window
        .dialog()
        .message(format!(
            "Delete the table \u{201c}{table}\u{201d} and every item in it? This cannot be undone."
        ))
        .title("Delete table")
        .kind(MessageDialogKind::Warning)
        .buttons(MessageDialogButtons::OkCancelCustom(
            format!("Delete {table}"),
            "Cancel".to_owned(),
        ))
        .parent(window)
        .show(move |confirmed| {
            let _ = answer.send(confirmed);
        });
    let confirmed = answered
        .await
        .map_err(|_| CommandError::new(ErrorCode::Internal, "The dialog closed without an answer."))?;
    if !confirmed {
        return Ok(None);
    }
    app.issue_delete_token(profile_id, table).await.map(Some)
}
