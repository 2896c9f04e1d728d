//! The commands of staged bulk edits (`dynotable_app::bulk`).

use dynotable_app::bulk::{BulkEdit, BulkMode, BulkPlan, BulkProgress, BulkReport};
use dynotable_app::dto::Item;
use dynotable_app::{App, CommandError};

/// A staged bulk edit tried dry: each item's change and its write cost, index writes included.
#[tauri::command]
#[specta::specta]
pub async fn bulk_dry_run(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    items: Vec<Item>,
    edit: BulkEdit,
    mode: BulkMode,
) -> Result<BulkPlan, CommandError> {
    app.bulk_dry_run(&profile_id, &table, items, edit, mode).await
}

/// Commits a staged bulk edit under the cancel id `id`, reporting progress after each request.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn bulk_commit(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    id: String,
    items: Vec<Item>,
    edit: BulkEdit,
    mode: BulkMode,
    on_progress: tauri::ipc::Channel<BulkProgress>,
) -> Result<BulkReport, CommandError> {
    app.bulk_commit(&profile_id, &table, &id, items, edit, mode, &move |progress| {
        let _ = on_progress.send(progress);
    })
    .await
}

/// Puts back the old images of the last bulk commit on `table`.
#[tauri::command]
#[specta::specta]
pub async fn bulk_undo(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    id: String,
    on_progress: tauri::ipc::Channel<BulkProgress>,
) -> Result<BulkReport, CommandError> {
    app.bulk_undo(&profile_id, &table, &id, &move |progress| {
        let _ = on_progress.send(progress);
    })
    .await
}
