//! What the PartiQL editor sends and gets back: one statement's page of items, a batch's
//! per-statement answers and a transaction's items, each with the ConsumedCapacity reported.

use serde::{Deserialize, Serialize};

use super::{AttributeValue, ConsumedCapacity, Item};

/// One statement as the editor runs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StatementInput {
    pub statement: String,
    /// One value per `?`, in order.
    pub parameters: Vec<AttributeValue>,
    /// The NextToken of the page before, to continue a SELECT.
    pub next_token: Option<String>,
    pub consistent_read: bool,
    /// Items evaluated at most on this page (ExecuteStatement's `Limit`).
    pub limit: Option<u32>,
}

/// One page of a statement's answer.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StatementPage {
    pub items: Vec<Item>,
    /// Where the next page starts; `None` at the end (and always for a write).
    pub next_token: Option<String>,
    pub consumed_capacity: Option<ConsumedCapacity>,
}

/// One statement of a batch or a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BatchStatementInput {
    pub statement: String,
    pub parameters: Vec<AttributeValue>,
}

/// The answer to one statement of a batch: its item (a SELECT's), or the error DynamoDB gave it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BatchStatementResult {
    pub item: Option<Item>,
    pub error: Option<StatementError>,
}

/// A statement's own failure inside a batch (`ConditionalCheckFailed`, `DuplicateItem`, ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StatementError {
    pub code: String,
    pub message: String,
}

/// The capacity one table took in a batch or transaction.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TableCapacity {
    pub table: String,
    pub capacity: ConsumedCapacity,
}

/// BatchExecuteStatement's answer: one result per statement, in order.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BatchOutcome {
    pub results: Vec<BatchStatementResult>,
    pub consumed_capacity: Vec<TableCapacity>,
}

/// ExecuteTransaction's answer: for reads, one item (or none) per statement; for writes, none.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TransactionOutcome {
    pub items: Vec<Option<Item>>,
    pub consumed_capacity: Vec<TableCapacity>,
}

/// How a saved statement runs: alone (page by page), in a batch, or in a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum RunMode {
    Statement,
    Batch,
    Transaction,
}

/// What a saved statement keeps: the text, the typed value of each `?`, and how it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SavedStatementContent {
    pub statement: String,
    pub parameters: Vec<AttributeValue>,
    pub mode: RunMode,
}

/// A statement saved by name on a connection.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SavedStatement {
    pub id: String,
    pub name: String,
    pub content: SavedStatementContent,
    /// Seconds since the Unix epoch.
    #[specta(type = specta_typescript::Number)]
    pub saved_at: f64,
}
