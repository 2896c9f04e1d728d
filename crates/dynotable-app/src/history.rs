//! Query history and saved queries, per connection, in the app database
//! (`<data>/dynotable.sqlite`, migration 0002). Every read the user ran whose first page succeeds
//! is recorded — a Query of one collection ([`App::query`]; not the Collections view's own box
//! reads, [`App::collection_page`]), or a Query or Scan of the query builder — and the newest
//! [`HISTORY_LIMIT`] per connection are kept; a collection query can be saved under a name per
//! table and run again later (the builder keeps its own saved requests, see [`crate::builder`]).

use dynotable_builder::{GeneratedRequest, ReadRequest};
use dynotable_types::AttributeValue;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::builder::SavedBuilderContent;
use crate::dto::QueryInput;
use crate::requests;
use crate::saved::{Shelf, now};
use crate::{App, CommandError, ErrorCode};

/// Entries of history kept per connection.
pub const HISTORY_LIMIT: i64 = 200;

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryEntry {
    pub id: u32,
    pub table: String,
    pub request: HistoryRequest,
    /// Seconds since the Unix epoch.
    #[specta(type = specta_typescript::Number)]
    pub ran_at: f64,
    pub item_count: u32,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
}

/// What ran, in the form it can be run again in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum HistoryRequest {
    /// A query of one collection, from the collection view.
    Collection { request: QueryInput },
    /// A Query or Scan of the query builder, with its one-line summary (expressions with the
    /// names and values written in).
    Builder { request: ReadRequest, summary: String },
}

impl HistoryRequest {
    fn table(&self) -> &str {
        match self {
            HistoryRequest::Collection { request } => &request.table,
            HistoryRequest::Builder { request, .. } => &request.table_name,
        }
    }

    /// A builder request as recorded: `generated` is what was sent.
    pub(crate) fn builder(request: &ReadRequest, generated: &GeneratedRequest) -> HistoryRequest {
        HistoryRequest::Builder {
            request: request.clone(),
            summary: summary_of(generated),
        }
    }
}

/// One line for a builder request: `Query on ByDepot · depotCode = "BER-1" · filter … · descending`.
fn summary_of(generated: &GeneratedRequest) -> String {
    let written = |expression: &str| written_out(expression, generated);
    let mut parts = vec![match &generated.index_name {
        Some(index) => format!("{:?} on {index}", generated.operation),
        None => format!("{:?}", generated.operation),
    }];
    if let Some(key) = &generated.key_condition_expression {
        parts.push(written(key));
    }
    if let Some(filter) = &generated.filter_expression {
        parts.push(format!("filter {}", written(filter)));
    }
    if let Some(projection) = &generated.projection_expression {
        parts.push(format!("projection {}", written(projection)));
    }
    if generated.scan_index_forward == Some(false) {
        parts.push("descending".to_owned());
    }
    if let Some(limit) = generated.limit {
        parts.push(format!("Limit {limit}"));
    }
    if generated.consistent_read == Some(true) {
        parts.push("strongly consistent".to_owned());
    }
    parts.join(" · ")
}

/// `expression` with each `#name` replaced by the attribute name and each `:value` by the value
/// (strings quoted, numbers bare, anything else as DynamoDB JSON).
fn written_out(expression: &str, generated: &GeneratedRequest) -> String {
    let mut out = String::with_capacity(expression.len());
    let mut rest = expression;
    while let Some(at) = rest.find(['#', ':']) {
        out.push_str(&rest[..at]);
        let end = rest[at + 1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(rest.len(), |e| at + 1 + e);
        let placeholder = &rest[at..end];
        let replacement = if placeholder.starts_with('#') {
            generated
                .expression_attribute_names
                .as_ref()
                .and_then(|names| names.get(placeholder))
                .cloned()
        } else {
            generated
                .expression_attribute_values
                .as_ref()
                .and_then(|values| values.get(placeholder))
                .map(value_text)
        };
        out.push_str(replacement.as_deref().unwrap_or(placeholder));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn value_text(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => format!("{s:?}"),
        AttributeValue::N(n) => n.to_string(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn storage(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::ProfileStorage,
        format!("The query history could not be read or written: {err}"),
    )
}

fn request_of(json: &str) -> Result<QueryInput, CommandError> {
    serde_json::from_str(json).map_err(storage)
}

/// A history row's request. Rows written before builder runs were recorded hold a bare
/// collection query.
fn history_request_of(json: &str) -> Result<HistoryRequest, CommandError> {
    serde_json::from_str::<HistoryRequest>(json)
        .or_else(|_| request_of(json).map(|request| HistoryRequest::Collection { request }))
}

impl App {
    /// Records a read that ran (its first page).
    pub(crate) async fn record_query(
        &self,
        profile_id: &str,
        input: &HistoryRequest,
        item_count: u32,
        capacity_units: f64,
    ) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        let request = serde_json::to_string(input).map_err(storage)?;
        let mut tx = pool.begin().await.map_err(storage)?;
        sqlx::query(
            "INSERT INTO query_history (profile_id, table_name, request, ran_at, item_count, capacity) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(profile_id)
        .bind(input.table())
        .bind(request)
        .bind(now())
        .bind(i64::from(item_count))
        .bind(capacity_units)
        .execute(&mut *tx)
        .await
        .map_err(storage)?;
        sqlx::query(
            "DELETE FROM query_history WHERE profile_id = ?1 AND id NOT IN \
             (SELECT id FROM query_history WHERE profile_id = ?1 ORDER BY ran_at DESC, id DESC LIMIT ?2)",
        )
        .bind(profile_id)
        .bind(HISTORY_LIMIT)
        .execute(&mut *tx)
        .await
        .map_err(storage)?;
        tx.commit().await.map_err(storage)
    }

    /// The queries run on a connection (on one table, if given), newest first.
    pub async fn query_history(
        &self,
        profile_id: &str,
        table: Option<&str>,
    ) -> Result<Vec<HistoryEntry>, CommandError> {
        let pool = self.profile_store().await?.pool();
        let rows = sqlx::query(
            "SELECT id, table_name, request, ran_at, item_count, capacity FROM query_history \
             WHERE profile_id = ? AND (?2 IS NULL OR table_name = ?2) ORDER BY ran_at DESC, id DESC",
        )
        .bind(profile_id)
        .bind(table)
        .fetch_all(pool)
        .await
        .map_err(storage)?;
        rows.iter()
            .map(|row| {
                Ok(HistoryEntry {
                    id: u32::try_from(row.get::<i64, _>(0)).unwrap_or(0),
                    table: row.get(1),
                    request: history_request_of(row.get::<&str, _>(2))?,
                    ran_at: row.get(3),
                    item_count: u32::try_from(row.get::<i64, _>(4)).unwrap_or(0),
                    capacity_units: row.get(5),
                })
            })
            .collect()
    }

    /// Moves the queries an older version saved (the collection view's shape, `saved_queries`)
    /// among the saved requests of their table, in the query bar's shape, under the same name
    /// (" (saved query)" added where a saved request has it): the app keeps one list of saved
    /// requests. A query whose table cannot be described now (gone, or its connection offline)
    /// stays, and moves at a later listing.
    pub(crate) async fn adopt_saved_queries(
        &self,
        profile_id: &str,
        table: Option<&str>,
    ) -> Result<(), CommandError> {
        let old = self.list_named(Shelf::Queries, profile_id, table).await?;
        if old.is_empty() {
            return Ok(());
        }
        let taken: std::collections::HashSet<(String, String)> = self
            .list_named(Shelf::Expressions, profile_id, table)
            .await?
            .into_iter()
            .map(|row| (row.table, row.name))
            .collect();
        for row in old {
            let input = request_of(&row.content)?;
            let Ok(keys) = self
                .key_schema_of(profile_id, &input.table, input.index.as_deref())
                .await
            else {
                continue;
            };
            let Ok(request) = requests::query_request(&input, &keys) else {
                continue;
            };
            let name = if taken.contains(&(row.table.clone(), row.name.clone())) {
                format!("{} (saved query)", row.name)
            } else {
                row.name.clone()
            };
            let content =
                serde_json::to_string(&SavedBuilderContent::Request { request }).map_err(storage)?;
            self.save_named(Shelf::Expressions, profile_id, &row.table, &name, content)
                .await?;
            self.delete_named(Shelf::Queries, &row.id).await?;
        }
        Ok(())
    }

    /// Saves a query the way an older version did, for the tests of its adoption.
    #[cfg(test)]
    pub(crate) async fn save_query_as_before(
        &self,
        profile_id: &str,
        name: &str,
        request: QueryInput,
    ) -> Result<(), CommandError> {
        let content = serde_json::to_string(&request).map_err(storage)?;
        self.save_named(Shelf::Queries, profile_id, &request.table, name, content)
            .await?;
        Ok(())
    }

    /// Forgets a deleted connection's history and saved queries.
    pub(crate) async fn forget_queries(&self, profile_id: &str) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        sqlx::query("DELETE FROM query_history WHERE profile_id = ?")
            .bind(profile_id)
            .execute(pool)
            .await
            .map_err(storage)?;
        self.forget_named(Shelf::Queries, profile_id).await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::builder::SavedBuilderContent;
    use crate::profiles::EMBEDDED_ID;
    use crate::secrets::MemoryStore;

    fn query(table: &str, vehicle: &str) -> QueryInput {
        QueryInput {
            more_partition_values: Vec::new(),
            sort_equal_values: Vec::new(),
            table: table.into(),
            index: None,
            partition_value: crate::dto::AttributeValue::S(vehicle.into()),
            sort_condition: None,
            scan_index_forward: false,
            limit: Some(5),
            consistent_read: false,
            projection: None,
            filter: None,
            filter_names: None,
            filter_values: None,
            exclusive_start_key: None,
        }
    }

    /// The queries an older version saved join the saved requests of their table, in the bar's
    /// shape, once, and keep their names (a name a request has gets " (saved query)").
    #[tokio::test]
    async fn queries_saved_by_an_older_version_become_saved_requests_of_their_table() {
        let dir = tempfile::tempdir().unwrap();
        let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
        app.save_query_as_before(EMBEDDED_ID, "Hot vehicle", query("Telemetry", "VEH#V-7741"))
            .await
            .unwrap();
        app.save_query_as_before(EMBEDDED_ID, "Window", query("Telemetry", "VEH#V-1007"))
            .await
            .unwrap();
        let mut window = app
            .saved_expressions(EMBEDDED_ID, Some("Telemetry"))
            .await
            .unwrap();
        let mut names: Vec<&str> = window.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["Hot vehicle", "Window"]);
        // A saved request named as one of the old queries: that query moves with a suffix.
        app.save_query_as_before(EMBEDDED_ID, "Window", query("Telemetry", "VEH#V-1007"))
            .await
            .unwrap();
        window = app
            .saved_expressions(EMBEDDED_ID, Some("Telemetry"))
            .await
            .unwrap();
        names = window.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["Hot vehicle", "Window", "Window (saved query)"]);
        let hot = window.iter().find(|s| s.name == "Hot vehicle").unwrap();
        let SavedBuilderContent::Request { request } = &hot.content else {
            panic!("a request: {:?}", hot.content);
        };
        let generated = request.generate().unwrap();
        assert_eq!(
            generated.key_condition_expression.as_deref(),
            Some("vehicleId = :vehicleId")
        );
        assert_eq!(generated.limit, Some(5));
        // Moved, not copied: the old shelf is empty, and listing again adds nothing.
        assert!(
            app.list_named(Shelf::Queries, EMBEDDED_ID, None)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            app.saved_expressions(EMBEDDED_ID, Some("Telemetry"))
                .await
                .unwrap()
                .len(),
            3
        );
    }
}
