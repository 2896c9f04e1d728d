//! Several statements at once: BatchExecuteStatement (each statement succeeds or fails on its
//! own, up to 25) and ExecuteTransaction (all or nothing, up to 100). A read-only connection
//! refuses the whole request if any statement writes.

use aws_sdk_dynamodb::types::{
    BatchStatementRequest, ConsumedCapacity as SdkCapacity, ParameterizedStatement, ReturnConsumedCapacity,
};

use super::parameters;
use crate::dto::attribute::item_from_sdk;
use crate::dto::partiql::{
    BatchOutcome, BatchStatementInput, BatchStatementResult, StatementError, TableCapacity,
    TransactionOutcome,
};
use crate::reads::consumed_capacity;
use crate::{App, CommandError, ErrorCode};

impl App {
    /// BatchExecuteStatement: one result (an item or an error) per statement, in order.
    pub async fn execute_batch(
        &self,
        profile_id: &str,
        statements: Vec<BatchStatementInput>,
        consistent_read: bool,
    ) -> Result<BatchOutcome, CommandError> {
        let session = self
            .statement_session(profile_id, statements.iter().map(|s| s.statement.as_str()))
            .await?;
        let requests = statements
            .iter()
            .map(|s| {
                BatchStatementRequest::builder()
                    .statement(&s.statement)
                    .set_parameters(parameters(&s.parameters)?)
                    .consistent_read(consistent_read)
                    .build()
                    .map_err(internal)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let output = session
            .client
            .batch_execute_statement()
            .set_statements(Some(requests))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        let results = output
            .responses()
            .iter()
            .map(|response| BatchStatementResult {
                item: response.item().map(item_from_sdk),
                error: response.error().map(|error| StatementError {
                    code: error
                        .code()
                        .map_or_else(|| "UnknownError".to_owned(), |c| c.as_str().to_owned()),
                    message: error.message().unwrap_or_default().to_owned(),
                }),
            })
            .collect();
        Ok(BatchOutcome {
            results,
            consumed_capacity: by_table(output.consumed_capacity()),
        })
    }

    /// ExecuteTransaction: every statement or none.
    pub async fn execute_transaction(
        &self,
        profile_id: &str,
        statements: Vec<BatchStatementInput>,
    ) -> Result<TransactionOutcome, CommandError> {
        let session = self
            .statement_session(profile_id, statements.iter().map(|s| s.statement.as_str()))
            .await?;
        let requests = statements
            .iter()
            .map(|s| {
                ParameterizedStatement::builder()
                    .statement(&s.statement)
                    .set_parameters(parameters(&s.parameters)?)
                    .build()
                    .map_err(internal)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let output = session
            .client
            .execute_transaction()
            .set_transact_statements(Some(requests))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(TransactionOutcome {
            items: output
                .responses()
                .iter()
                .map(|response| response.item().map(item_from_sdk))
                .collect(),
            consumed_capacity: by_table(output.consumed_capacity()),
        })
    }
}

fn by_table(capacities: &[SdkCapacity]) -> Vec<TableCapacity> {
    capacities
        .iter()
        .map(|c| TableCapacity {
            table: c.table_name().unwrap_or_default().to_owned(),
            capacity: consumed_capacity(c),
        })
        .collect()
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::Internal,
        format!("The request could not be built: {err}"),
    )
}
