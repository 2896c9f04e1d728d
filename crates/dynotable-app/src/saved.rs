//! Things the user saves by name, per connection and table, in the app database: the collection
//! view's queries (`saved_queries`, migration 0002), the query builder's expressions and
//! requests (`saved_expressions`, migration 0003) and the PartiQL editor's statements
//! (`saved_statements`, migration 0006, per connection). The shelves have one shape — a name
//! unique per table, the content as JSON, when it was saved — so they share this code: saving
//! under a taken name replaces the content and keeps the row's first id.

use sqlx::Row;

use crate::{App, CommandError, ErrorCode};

/// Where a saved thing is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shelf {
    /// Collection-view queries (`QueryInput`).
    Queries,
    /// Builder expressions and requests (`SavedBuilderContent`).
    Expressions,
    /// PartiQL statements (`SavedStatementContent`).
    Statements,
}

impl Shelf {
    /// The table and its content column; static names, never user input.
    fn sql(self) -> (&'static str, &'static str) {
        match self {
            Shelf::Queries => ("saved_queries", "request"),
            Shelf::Expressions => ("saved_expressions", "content"),
            Shelf::Statements => ("saved_statements", "content"),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Shelf::Queries => "query",
            Shelf::Expressions => "expression",
            Shelf::Statements => "statement",
        }
    }

    pub(crate) fn storage_error(self, err: impl std::fmt::Display) -> CommandError {
        CommandError::new(
            ErrorCode::ProfileStorage,
            format!("The saved {}s could not be read or written: {err}", self.noun()),
        )
    }
}

/// One saved thing as stored; the caller parses `content`.
#[derive(Debug, Clone)]
pub(crate) struct SavedRow {
    pub id: String,
    pub table: String,
    pub name: String,
    pub content: String,
    pub saved_at: f64,
}

/// Seconds since the Unix epoch.
pub(crate) fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl App {
    /// Saves `content` (JSON) under `name` for `table` on `shelf`, replacing what had that name.
    pub(crate) async fn save_named(
        &self,
        shelf: Shelf,
        profile_id: &str,
        table: &str,
        name: &str,
        content: String,
    ) -> Result<SavedRow, CommandError> {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 100 {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!("A saved {} needs a name of 1 to 100 characters.", shelf.noun()),
            ));
        }
        let (sql_table, column) = shelf.sql();
        let pool = self.profile_store().await?.pool();
        let saved_at = now();
        let id: String = sqlx::query_scalar(&format!(
            "INSERT INTO {sql_table} (id, profile_id, table_name, name, {column}, saved_at) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (profile_id, table_name, name) DO UPDATE SET {column} = excluded.{column}, saved_at = excluded.saved_at \
             RETURNING id"
        ))
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(profile_id)
        .bind(table)
        .bind(name)
        .bind(&content)
        .bind(saved_at)
        .fetch_one(pool)
        .await
        .map_err(|err| shelf.storage_error(err))?;
        Ok(SavedRow {
            id,
            table: table.to_owned(),
            name: name.to_owned(),
            content,
            saved_at,
        })
    }

    /// What `shelf` holds for a connection (for one table, if given), by table and name.
    pub(crate) async fn list_named(
        &self,
        shelf: Shelf,
        profile_id: &str,
        table: Option<&str>,
    ) -> Result<Vec<SavedRow>, CommandError> {
        let (sql_table, column) = shelf.sql();
        let pool = self.profile_store().await?.pool();
        let rows = sqlx::query(&format!(
            "SELECT id, table_name, name, {column}, saved_at FROM {sql_table} \
             WHERE profile_id = ? AND (?2 IS NULL OR table_name = ?2) ORDER BY table_name, name"
        ))
        .bind(profile_id)
        .bind(table)
        .fetch_all(pool)
        .await
        .map_err(|err| shelf.storage_error(err))?;
        Ok(rows
            .iter()
            .map(|row| SavedRow {
                id: row.get(0),
                table: row.get(1),
                name: row.get(2),
                content: row.get(3),
                saved_at: row.get(4),
            })
            .collect())
    }

    pub(crate) async fn delete_named(&self, shelf: Shelf, id: &str) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        sqlx::query(&format!("DELETE FROM {} WHERE id = ?", shelf.sql().0))
            .bind(id)
            .execute(pool)
            .await
            .map_err(|err| shelf.storage_error(err))?;
        Ok(())
    }

    /// Forgets everything a deleted connection kept on `shelf`.
    pub(crate) async fn forget_named(&self, shelf: Shelf, profile_id: &str) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        sqlx::query(&format!("DELETE FROM {} WHERE profile_id = ?", shelf.sql().0))
            .bind(profile_id)
            .execute(pool)
            .await
            .map_err(|err| shelf.storage_error(err))?;
        Ok(())
    }
}
