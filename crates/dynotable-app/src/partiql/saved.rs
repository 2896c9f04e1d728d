//! The PartiQL editor's saved statements: a name, the text, the typed value of each `?` and the
//! run mode, kept per connection in the app database (`saved_statements`, migration 0006) on the
//! same shelf code as the saved queries and expressions ([`crate::saved`]). A statement may name
//! several tables, so it belongs to the connection, not to a table.

use crate::dto::partiql::{SavedStatement, SavedStatementContent};
use crate::saved::Shelf;
use crate::{App, CommandError, ErrorCode};

/// The shelves' table column for what belongs to a whole connection.
const CONNECTION: &str = "";

impl App {
    /// Saves a statement under `name`, replacing what had that name on the connection.
    pub async fn save_statement(
        &self,
        profile_id: &str,
        name: &str,
        content: SavedStatementContent,
    ) -> Result<SavedStatement, CommandError> {
        if content.statement.trim().is_empty() {
            return Err(CommandError::new(
                ErrorCode::Validation,
                "There is no statement to save: type one first.",
            ));
        }
        let json = serde_json::to_string(&content).map_err(|err| Shelf::Statements.storage_error(err))?;
        let row = self
            .save_named(Shelf::Statements, profile_id, CONNECTION, name, json)
            .await?;
        Ok(SavedStatement {
            id: row.id,
            name: row.name,
            content,
            saved_at: row.saved_at,
        })
    }

    /// The statements saved on a connection, by name.
    pub async fn saved_statements(&self, profile_id: &str) -> Result<Vec<SavedStatement>, CommandError> {
        self.list_named(Shelf::Statements, profile_id, Some(CONNECTION))
            .await?
            .into_iter()
            .map(|row| {
                Ok(SavedStatement {
                    content: serde_json::from_str(&row.content)
                        .map_err(|err| Shelf::Statements.storage_error(err))?,
                    id: row.id,
                    name: row.name,
                    saved_at: row.saved_at,
                })
            })
            .collect()
    }

    pub async fn delete_saved_statement(&self, id: &str) -> Result<(), CommandError> {
        self.delete_named(Shelf::Statements, id).await
    }

    /// Forgets a deleted connection's saved statements.
    pub(crate) async fn forget_saved_statements(&self, profile_id: &str) -> Result<(), CommandError> {
        self.forget_named(Shelf::Statements, profile_id).await
    }
}
