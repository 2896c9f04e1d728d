//! The expression and query builder's commands (issue 8): everything the UI's builder asks of
//! the backend, over `dynotable-builder`.
//!
//! Design:
//! - **Offline work is pure.** Generating an expression, parsing typed text back into builder
//!   state, checking a request, the legal sort-key operators, generating a Query/Scan with its
//!   DynamoDB JSON body and exporting it as code need no connection: they are plain functions of
//!   their input, answered from `dynotable-builder`, which resolves every text with
//!   `dynotable-expr` — the engine's own parser, so the builder and the engine never disagree.
//!   What DynamoDB would refuse comes back as data ([`Diagnostic`]s with the service's message
//!   and the byte span it points at), not as a command error: the UI underlines it.
//! - **Running** a builder request goes the way every read goes ([`App::session`] →
//!   aws-sdk-dynamodb): the request is generated, checked against the key schema of the table or
//!   index it reads (nothing is sent when DynamoDB would refuse it), and its expression strings
//!   and placeholder maps are handed to the SDK's Query or Scan unchanged. One page comes back,
//!   as a [`QueryPage`], like the explorer's queries and scans.
//! - **Saved work** (one expression, or a whole request) is kept per connection and table in the
//!   app database (migration 0003), beside the saved queries of [`crate::history`].

use dynotable_builder::KeyAttribute as BuilderKey;
use dynotable_builder::codegen;
// The builder's model, as the shell's commands name it.
pub use dynotable_builder::codegen::CodeTarget;
pub use dynotable_builder::{
    Diagnostic, ExpressionState, GeneratedExpression, GeneratedRequest, KeySchemaState, KeyType,
    ReadOperation, ReadRequest, ReturnConsumedCapacity, SortKeyOperator, TypedRequest,
};
use serde::{Deserialize, Serialize};

use crate::dto::{Item, KeySchema, QueryPage, ScalarType};
use crate::history::HistoryRequest;
use crate::requests;
use crate::saved::Shelf;
use crate::{App, CommandError, ErrorCode};

/// What parsing typed text gave: the builder states of its expressions, or DynamoDB's objections.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "status", rename_all = "camelCase")]
pub enum ParseOutcome {
    /// Every expression is valid; its state, in the order given, for the visual form.
    Parsed { states: Vec<ExpressionState> },
    /// What DynamoDB would answer, each with the expression and span it points at.
    Invalid { diagnostics: Vec<Diagnostic> },
}

/// A Query or Scan as it would be sent: the parameters, the DynamoDB JSON body, and what
/// DynamoDB would say about its expressions (empty when it would accept them).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BuiltRequest {
    pub request: GeneratedRequest,
    /// The body of `DynamoDB_20120810.Query`/`.Scan`, pretty-printed.
    pub body: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// What can be saved from the builder: one expression, or a whole request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SavedBuilderContent {
    Expression { state: ExpressionState },
    Request { request: ReadRequest },
}

/// A saved expression or request of one table.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SavedExpression {
    pub id: String,
    pub table: String,
    pub name: String,
    pub content: SavedBuilderContent,
    /// Seconds since the Unix epoch.
    #[specta(type = specta_typescript::Number)]
    pub saved_at: f64,
}

fn validation(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

fn storage(err: impl std::fmt::Display) -> CommandError {
    Shelf::Expressions.storage_error(err)
}

/// The first of DynamoDB's objections as the command error the service would have returned.
fn refused(diagnostics: &[Diagnostic]) -> Option<CommandError> {
    diagnostics.first().map(|first| CommandError {
        code: ErrorCode::Validation,
        message: first.message.clone(),
        exception: Some(first.exception.clone()),
    })
}

/// A table's or index's key schema as the builder checks key conditions against it.
pub fn key_schema_state(keys: &KeySchema) -> KeySchemaState {
    fn key(name: &str, ty: ScalarType) -> BuilderKey {
        BuilderKey {
            name: name.to_owned(),
            key_type: match ty {
                ScalarType::S => KeyType::S,
                ScalarType::N => KeyType::N,
                ScalarType::B => KeyType::B,
            },
        }
    }
    KeySchemaState {
        partition_key: key(&keys.partition_key.name, keys.partition_key.ty),
        sort_key: keys.sort_key.as_ref().map(|k| key(&k.name, k.ty)),
        more_partition_keys: keys
            .more_partition_keys
            .iter()
            .map(|k| key(&k.name, k.ty))
            .collect(),
        more_sort_keys: keys.more_sort_keys.iter().map(|k| key(&k.name, k.ty)).collect(),
    }
}

impl App {
    /// One expression written out with placeholders chosen automatically.
    pub fn generate_expression(&self, state: &ExpressionState) -> Result<GeneratedExpression, CommandError> {
        dynotable_builder::generate(state).map_err(|err| validation(err.message))
    }

    /// Typed expressions with their names and values, as builder states, or DynamoDB's objections
    /// at the position they occur. A key condition needs `key_schema`.
    pub fn parse_expressions(
        &self,
        request: &TypedRequest,
        key_schema: Option<&KeySchemaState>,
    ) -> ParseOutcome {
        match request.parse(key_schema) {
            Ok(states) => ParseOutcome::Parsed { states },
            Err(diagnostics) => ParseOutcome::Invalid { diagnostics },
        }
    }

    /// Everything DynamoDB would object to in a request's expressions and maps (limits,
    /// undefined and unused placeholders, overlapping update paths, the key schema).
    pub fn check_expressions(
        &self,
        request: &TypedRequest,
        key_schema: Option<&KeySchemaState>,
    ) -> Vec<Diagnostic> {
        request.check(key_schema)
    }

    /// What DynamoDB allows on a sort key of this type (rule B.5, docs/dynamodb-rules.md).
    pub fn sort_key_operators(&self, key_type: KeyType) -> Vec<SortKeyOperator> {
        dynotable_builder::sort_key_operators(key_type)
    }

    /// A Query or Scan as it would be sent, its JSON body, and DynamoDB's verdict on it.
    pub fn build_read_request(
        &self,
        request: &ReadRequest,
        key_schema: Option<&KeySchemaState>,
    ) -> Result<BuiltRequest, CommandError> {
        let generated = request.generate().map_err(|err| validation(err.message))?;
        let diagnostics = request.check(key_schema).map_err(|err| validation(err.message))?;
        let body =
            serde_json::to_string_pretty(&generated.to_json()).map_err(|err| validation(err.to_string()))?;
        Ok(BuiltRequest {
            request: generated,
            body,
            diagnostics,
        })
    }

    /// The program for `target` that runs `request` and prints every item of every page.
    pub fn export_code(&self, request: &ReadRequest, target: CodeTarget) -> Result<String, CommandError> {
        let generated = request.generate().map_err(|err| validation(err.message))?;
        Ok(codegen::export(&generated, target))
    }

    /// The key schema of `table`, or of its index `index`.
    pub async fn read_key_schema(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<KeySchemaState, CommandError> {
        let keys = self.key_schema_of(profile_id, table, index).await?;
        Ok(key_schema_state(&keys))
    }

    /// Runs one page of a builder request the user ran, as [`App::read_request_page`] does; its
    /// first page goes into the query history.
    pub async fn run_read_request(
        &self,
        profile_id: &str,
        request: &ReadRequest,
        exclusive_start_key: Option<Item>,
    ) -> Result<QueryPage, CommandError> {
        let first = exclusive_start_key.is_none();
        let (page, generated) = self.read_page(profile_id, request, exclusive_start_key).await?;
        if first {
            let units = page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
            let ran = HistoryRequest::builder(request, &generated);
            // History is a convenience: a failure to record it must not fail the read.
            if let Err(err) = self.record_query(profile_id, &ran, page.count, units).await {
                tracing::warn!(%err, "the builder's read could not be added to the history");
            }
        }
        Ok(page)
    }

    /// Runs one page of a builder request on a connection, for the app's own reading: the items
    /// a filter dropped, read back without the filter. Nothing goes into the query history (the
    /// user ran the filtered request, which is there). The request is checked first against the
    /// key schema of what it reads; when DynamoDB would refuse it nothing is sent and its
    /// ValidationException comes back. Otherwise the generated expressions and maps go to the
    /// SDK's Query or Scan exactly as the code export sends them.
    pub async fn read_request_page(
        &self,
        profile_id: &str,
        request: &ReadRequest,
        exclusive_start_key: Option<Item>,
    ) -> Result<QueryPage, CommandError> {
        Ok(self.read_page(profile_id, request, exclusive_start_key).await?.0)
    }

    async fn read_page(
        &self,
        profile_id: &str,
        request: &ReadRequest,
        exclusive_start_key: Option<Item>,
    ) -> Result<(QueryPage, GeneratedRequest), CommandError> {
        let generated = request.generate().map_err(|err| validation(err.message))?;
        let session = self.session(profile_id).await?;
        let key_schema = match request.operation {
            ReadOperation::Query => Some(
                self.read_key_schema(profile_id, &request.table_name, generated.index_name.as_deref())
                    .await?,
            ),
            ReadOperation::Scan => None,
        };
        let diagnostics = request
            .check(key_schema.as_ref())
            .map_err(|err| validation(err.message))?;
        if let Some(error) = refused(&diagnostics) {
            return Err(error);
        }
        let page = requests::send(&session.client, &generated, exclusive_start_key.as_ref(), None).await?;
        Ok((page, generated))
    }

    /// Saves an expression or a request under `name` for `table` (replacing what had that name).
    pub async fn save_expression(
        &self,
        profile_id: &str,
        table: &str,
        name: &str,
        content: SavedBuilderContent,
    ) -> Result<SavedExpression, CommandError> {
        if table.is_empty() {
            return Err(validation("A saved expression belongs to a table; choose one."));
        }
        if let SavedBuilderContent::Request { request } = &content
            && request.table_name != table
        {
            return Err(validation(format!(
                "The request reads {}, not {table}; save it with its own table.",
                request.table_name
            )));
        }
        let row = self
            .save_named(
                Shelf::Expressions,
                profile_id,
                table,
                name,
                serde_json::to_string(&content).map_err(storage)?,
            )
            .await?;
        Ok(SavedExpression {
            id: row.id,
            table: row.table,
            name: row.name,
            content,
            saved_at: row.saved_at,
        })
    }

    /// The saved expressions and requests of a connection (of one table, if given), by name.
    pub async fn saved_expressions(
        &self,
        profile_id: &str,
        table: Option<&str>,
    ) -> Result<Vec<SavedExpression>, CommandError> {
        self.adopt_saved_queries(profile_id, table).await?;
        self.list_named(Shelf::Expressions, profile_id, table)
            .await?
            .into_iter()
            .map(|row| {
                Ok(SavedExpression {
                    content: serde_json::from_str(&row.content).map_err(storage)?,
                    id: row.id,
                    table: row.table,
                    name: row.name,
                    saved_at: row.saved_at,
                })
            })
            .collect()
    }

    pub async fn delete_saved_expression(&self, id: &str) -> Result<(), CommandError> {
        self.delete_named(Shelf::Expressions, id).await
    }

    /// Forgets a deleted connection's saved expressions.
    pub(crate) async fn forget_saved_expressions(&self, profile_id: &str) -> Result<(), CommandError> {
        self.forget_named(Shelf::Expressions, profile_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::KeyAttribute;

    #[test]
    fn the_app_key_schema_becomes_the_builder_key_schema() {
        let keys = KeySchema {
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
            partition_key: KeyAttribute {
                name: "vehicleId".into(),
                ty: ScalarType::S,
            },
            sort_key: Some(KeyAttribute {
                name: "odometer".into(),
                ty: ScalarType::N,
            }),
        };
        let state = key_schema_state(&keys);
        assert_eq!(state.partition_key.name, "vehicleId");
        assert_eq!(state.partition_key.key_type, KeyType::S);
        assert_eq!(state.sort_key.unwrap().key_type, KeyType::N);
    }
}
