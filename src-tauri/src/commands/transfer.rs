//! The commands of import and export (`dynotable_app::transfer`). Files are named by the handles
//! `choose_file` gave: the web view never sends a path.

use dynotable_app::dto::cost::ImportEstimate;
use dynotable_app::transfer::{
    CsvColumnChoice, ExportEstimate, ExportSource, FileFormat, ImportPreview, TransferProgress,
    TransferSummary,
};
use dynotable_app::{App, CommandError};

/// What exporting a table or a query result will read and cost, before it starts.
#[tauri::command]
#[specta::specta]
pub async fn estimate_export(
    app: tauri::State<'_, App>,
    profile_id: String,
    source: ExportSource,
) -> Result<ExportEstimate, CommandError> {
    app.estimate_export(&profile_id, source).await
}

/// Exports a table or a query result to the file chosen as `file` (a handle from
/// `choose_file`), reporting progress; with a `capacity_budget` (read units) it stops once it
/// has consumed that much.
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn export_items(
    app: tauri::State<'_, App>,
    profile_id: String,
    id: String,
    source: ExportSource,
    format: FileFormat,
    file: String,
    capacity_budget: Option<f64>,
    on_progress: tauri::ipc::Channel<TransferProgress>,
) -> Result<TransferSummary, CommandError> {
    app.export(
        &profile_id,
        &id,
        source,
        format,
        &file,
        capacity_budget,
        |progress| {
            let _ = on_progress.send(progress);
        },
    )
    .await
}

/// Imports the items of the file chosen as `file` into `table` with BatchWriteItem, reporting
/// progress; a CSV file's columns read with the types `columns` chooses (from its preview).
#[tauri::command]
#[specta::specta]
#[allow(clippy::too_many_arguments)]
pub async fn import_items(
    app: tauri::State<'_, App>,
    profile_id: String,
    id: String,
    table: String,
    format: FileFormat,
    file: String,
    columns: Option<Vec<CsvColumnChoice>>,
    on_progress: tauri::ipc::Channel<TransferProgress>,
) -> Result<TransferSummary, CommandError> {
    app.import(&profile_id, &id, &table, format, &file, columns, |progress| {
        let _ = on_progress.send(progress);
    })
    .await
}

/// What importing a file into a table will cost, every item sized, before it runs.
#[tauri::command]
#[specta::specta]
pub async fn estimate_import_file(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    format: FileFormat,
    file: String,
    columns: Option<Vec<CsvColumnChoice>>,
) -> Result<ImportEstimate, CommandError> {
    app.estimate_import_file(&profile_id, &table, format, &file, columns)
        .await
}

/// The CSV file chosen as `file` (a handle from `choose_file`) as an import into `table` would
/// read it: its first rows and each column's type, for the user to check and change.
#[tauri::command]
#[specta::specta]
pub async fn preview_import_file(
    app: tauri::State<'_, App>,
    profile_id: String,
    table: String,
    file: String,
) -> Result<ImportPreview, CommandError> {
    app.preview_import_file(&profile_id, &table, &file).await
}
