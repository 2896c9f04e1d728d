//! The PartiQL editor's commands: ExecuteStatement page by page, BatchExecuteStatement and
//! ExecuteTransaction, on any connection (the embedded engine answers PartiQL itself).
//!
//! The life of a statement:
//! 1. The UI sends the text, one typed value per `?`, and for a next page the NextToken it got.
//! 2. [`App::session`] gives the connection's client; on a read-only connection every statement
//!    that is not a SELECT is refused here ([`access`]) with `READ_ONLY` — nothing is sent.
//! 3. The request goes through aws-sdk-dynamodb with `ReturnConsumedCapacity: INDEXES`, so the
//!    editor shows what each page cost.
//! 4. DynamoDB's answer comes back as items and a NextToken; a refusal becomes a
//!    [`CommandError`] carrying the exception and the service's message, whose `line:column:length`
//!    position the editor marks in the text.
//!
//! Batches and transactions ([`batch`]) take several statements at once: a batch answers each one
//! on its own (results or errors in order), a transaction all or nothing.

pub mod access;
mod batch;
mod saved;

use aws_sdk_dynamodb::types::{AttributeValue as Sdk, ReturnConsumedCapacity};

use crate::dto::AttributeValue;
use crate::dto::attribute::item_from_sdk;
use crate::dto::partiql::{StatementInput, StatementPage};
use crate::reads::consumed_capacity;
use crate::sessions::Session;
use crate::{App, CommandError, ErrorCode};

impl App {
    /// One page of one statement (ExecuteStatement).
    pub async fn execute_statement(
        &self,
        profile_id: &str,
        input: StatementInput,
    ) -> Result<StatementPage, CommandError> {
        let session = self
            .statement_session(profile_id, [input.statement.as_str()])
            .await?;
        let output = session
            .client
            .execute_statement()
            .statement(&input.statement)
            .set_parameters(parameters(&input.parameters)?)
            .set_next_token(input.next_token.clone())
            .consistent_read(input.consistent_read)
            .set_limit(input.limit.map(|l| l.min(i32::MAX as u32) as i32))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(StatementPage {
            items: output.items().iter().map(item_from_sdk).collect(),
            next_token: output.next_token().map(str::to_owned),
            consumed_capacity: output.consumed_capacity().map(consumed_capacity),
        })
    }

    /// DynamoDB's reserved words, for the editor to quote attribute names with
    /// (rule B.6, docs/dynamodb-rules.md).
    pub fn reserved_words(&self) -> Vec<String> {
        dynotable_expr::reserved::words()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }
}

impl App {
    /// The session to send `statements` on: `READ_ONLY` when one is not a SELECT and the
    /// connection is read-only; a write forgets the rows statistics scans kept
    /// ([`App::writing`]: of every table, as a statement's table is not parsed here).
    async fn statement_session<'a>(
        &self,
        profile_id: &str,
        statements: impl IntoIterator<Item = &'a str>,
    ) -> Result<std::sync::Arc<Session>, CommandError> {
        if statements.into_iter().all(access::is_read) {
            self.session(profile_id).await
        } else {
            self.writing(profile_id, None).await
        }
    }
}

/// The parameters as the SDK sends them; `None` for none (the service refuses an empty list).
fn parameters(values: &[AttributeValue]) -> Result<Option<Vec<Sdk>>, CommandError> {
    if values.is_empty() {
        return Ok(None);
    }
    values
        .iter()
        .map(AttributeValue::to_sdk)
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
        .map_err(|message| CommandError::new(ErrorCode::Validation, message))
}
