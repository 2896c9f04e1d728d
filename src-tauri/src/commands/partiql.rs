//! The PartiQL editor's commands (`dynotable_app::partiql`): a statement page by page, a batch,
//! a transaction, the reserved words the editor quotes, and the statements saved by name.

use dynotable_app::dto::partiql::{
    BatchOutcome, BatchStatementInput, SavedStatement, SavedStatementContent, StatementInput, StatementPage,
    TransactionOutcome,
};
use dynotable_app::{App, CommandError};

/// One page of a PartiQL statement (ExecuteStatement); a read-only connection refuses writes.
#[tauri::command]
#[specta::specta]
pub async fn execute_statement(
    app: tauri::State<'_, App>,
    profile_id: String,
    input: StatementInput,
) -> Result<StatementPage, CommandError> {
    app.execute_statement(&profile_id, input).await
}

/// Several PartiQL statements, each answered on its own (BatchExecuteStatement).
#[tauri::command]
#[specta::specta]
pub async fn execute_batch(
    app: tauri::State<'_, App>,
    profile_id: String,
    statements: Vec<BatchStatementInput>,
    consistent_read: bool,
) -> Result<BatchOutcome, CommandError> {
    app.execute_batch(&profile_id, statements, consistent_read).await
}

/// Several PartiQL statements, all or nothing (ExecuteTransaction).
#[tauri::command]
#[specta::specta]
pub async fn execute_transaction(
    app: tauri::State<'_, App>,
    profile_id: String,
    statements: Vec<BatchStatementInput>,
) -> Result<TransactionOutcome, CommandError> {
    app.execute_transaction(&profile_id, statements).await
}

/// DynamoDB's reserved words, which the PartiQL editor quotes for the user.
#[tauri::command]
#[specta::specta]
pub async fn reserved_words(app: tauri::State<'_, App>) -> Result<Vec<String>, CommandError> {
    Ok(app.reserved_words())
}

/// Saves a PartiQL statement (its text, parameters and run mode) under a name on a connection.
#[tauri::command]
#[specta::specta]
pub async fn save_statement(
    app: tauri::State<'_, App>,
    profile_id: String,
    name: String,
    content: SavedStatementContent,
) -> Result<SavedStatement, CommandError> {
    app.save_statement(&profile_id, &name, content).await
}

/// The PartiQL statements saved on a connection.
#[tauri::command]
#[specta::specta]
pub async fn saved_statements(
    app: tauri::State<'_, App>,
    profile_id: String,
) -> Result<Vec<SavedStatement>, CommandError> {
    app.saved_statements(&profile_id).await
}

#[tauri::command]
#[specta::specta]
pub async fn delete_saved_statement(app: tauri::State<'_, App>, id: String) -> Result<(), CommandError> {
    app.delete_saved_statement(&id).await
}
