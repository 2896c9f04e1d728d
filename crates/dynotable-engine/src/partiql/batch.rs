//! BatchExecuteStatement (DG `ql-reference.multiplestatements.batching.html`, API reference
//! `API_BatchExecuteStatement.html`): up to 25 statements, all reads or all writes.
//!
//! Reads name one item each by its full primary key (the service runs them as a BatchGetItem,
//! so each is a GetItem, rounded per item — rule B.2); writes are single-item INSERT, UPDATE or
//! DELETE statements. Each statement succeeds or fails on its own: a failure is that
//! statement's `Error {Code, Message}` in `Responses`, not the request's. What fails the whole
//! request: a bad request shape, reads mixed with writes, and two statements on one item.

use std::collections::BTreeSet;

use dynotable_types::ConstraintViolation;

use super::ast::Statement;
use super::plan::{self, Purpose, Read, ReadPlan, Reads, WritePlan};
use super::render::Binder;
use super::{error, select, write};
use crate::api::partiql::{
    BatchExecuteStatementInput, BatchExecuteStatementOutput, BatchStatementError, BatchStatementResponse,
};
use crate::entry::StorageKey;
use crate::params::CapacityReport;
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind};

/// API reference: `Statements` holds 1–25 members.
const MAX_STATEMENTS: usize = 25;

enum Prepared {
    Failed(BatchStatementResponse),
    Read(ReadPlan, Option<bool>),
    Write(WritePlan, Option<String>),
}

pub(crate) async fn batch_execute_statement(
    engine: &Engine,
    input: BatchExecuteStatementInput,
) -> Result<BatchExecuteStatementOutput, ApiError> {
    let mut shape = Shape::new();
    CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    if shape.required("statements", input.statements.as_ref())
        && let Some(statements) = &input.statements
    {
        list_length(&mut shape, "statements", statements.len(), MAX_STATEMENTS);
        for (i, request) in statements.iter().enumerate() {
            let field = format!("statements.{}.member.statement", i + 1);
            super::check_statement(&mut shape, &field, request.statement.as_ref());
            super::check_parameters(
                &mut shape,
                &format!("statements.{}.member.parameters", i + 1),
                request.parameters.as_ref(),
            );
            shape.one_of(
                &format!("statements.{}.member.returnValuesOnConditionCheckFailure", i + 1),
                request.return_values_on_condition_check_failure.as_ref(),
                &["ALL_OLD", "NONE"],
            );
        }
    }
    shape.finish()?;
    let report = input.return_consumed_capacity;

    // Parse every statement; one that does not parse fails on its own.
    let mut parsed = Vec::new();
    for request in input.statements.unwrap_or_default() {
        let source = request.statement.unwrap_or_default();
        let parameters = super::parameters(request.parameters)?;
        let statement = super::parse(&source, &parameters);
        parsed.push((
            source,
            parameters,
            statement,
            request.consistent_read,
            request.return_values_on_condition_check_failure,
        ));
    }
    let kinds: Vec<bool> = parsed
        .iter()
        .filter_map(|(.., statement, _, _)| statement.as_ref().ok().map(|p| p.statement.is_read()))
        .collect();
    if kinds.contains(&true) && kinds.contains(&false) {
        return Err(ApiError::validation(error::BATCH_MIXES_READS_AND_WRITES));
    }

    // Plan every statement, then refuse two statements on one item before running any.
    let mut prepared = Vec::with_capacity(parsed.len());
    for (source, parameters, statement, consistent, on_failure) in &parsed {
        let binder = Binder { source, parameters };
        let statement = match statement {
            Ok(parsed) => &parsed.statement,
            Err(err) => {
                prepared.push(Prepared::Failed(failure(err.clone(), None)));
                continue;
            }
        };
        let table = Some(statement.target().table.clone());
        let planned = match statement {
            Statement::Select(select) => plan::plan_select(engine, select, &binder, Purpose::Batch)
                .map(|p| Prepared::Read(p, *consistent)),
            Statement::Exists(_) => Err(ApiError::validation(error::EXISTS_OUTSIDE_TRANSACTION)),
            write => plan::plan_write(engine, write, &binder).map(|p| Prepared::Write(p, on_failure.clone())),
        };
        prepared.push(planned.unwrap_or_else(|err| Prepared::Failed(failure(err, table))));
    }
    let mut seen = BTreeSet::new();
    for statement in &prepared {
        let (table, key) = match statement {
            Prepared::Read(plan, _) => match &plan.reads {
                Reads::Partitions(reads) => match reads.as_slice() {
                    [Read::Get(key)] => (&plan.table, key),
                    _ => continue,
                },
                Reads::Scan => continue,
            },
            Prepared::Write(plan, _) => (&plan.table, &plan.key),
            Prepared::Failed(_) => continue,
        };
        if let Ok(key) = StorageKey::of_key(table, key)
            && !seen.insert((table.name.clone(), key))
        {
            return Err(ApiError::validation(
                "Provided list of item keys contains duplicates",
            ));
        }
    }

    let mut responses = Vec::with_capacity(prepared.len());
    let mut consumed = Vec::new();
    for statement in prepared {
        let response = match statement {
            Prepared::Failed(response) => response,
            Prepared::Read(plan, consistent) => {
                let table = Some(plan.table.name.clone());
                let options = select::ReadOptions {
                    limit: None,
                    consistent: consistent.unwrap_or(false),
                    report: report.clone(),
                    resume: None,
                };
                match select::read(engine, &plan, options).await {
                    Ok(page) => {
                        super::add_table_capacity(&mut consumed, page.consumed);
                        BatchStatementResponse {
                            table_name: table,
                            item: page.items.into_iter().next(),
                            ..Default::default()
                        }
                    }
                    Err(err) => failure(err, table),
                }
            }
            Prepared::Write(plan, on_failure) => {
                let table = Some(plan.table.name.clone());
                match write::write(engine, plan, report.clone(), on_failure).await {
                    Ok(written) => {
                        super::add_table_capacity(&mut consumed, written.consumed);
                        BatchStatementResponse {
                            table_name: table,
                            item: written.item,
                            ..Default::default()
                        }
                    }
                    Err(err) => failure(err, table),
                }
            }
        };
        responses.push(response);
    }
    // Nothing succeeded, nothing reported (dynoxide's capture of the service).
    Ok(BatchExecuteStatementOutput {
        responses,
        consumed_capacity: (!consumed.is_empty()).then_some(consumed),
    })
}

/// A statement's failure, with the `BatchStatementError` code for its exception.
fn failure(err: ApiError, table_name: Option<String>) -> BatchStatementResponse {
    let code = if write::is_duplicate_item(&err) {
        "DuplicateItem"
    } else {
        match err.kind {
            ErrorKind::ConditionalCheckFailedException => "ConditionalCheckFailed",
            ErrorKind::ValidationException | ErrorKind::SerializationException => "ValidationError",
            ErrorKind::ResourceNotFoundException => "ResourceNotFound",
            ErrorKind::ItemCollectionSizeLimitExceededException => "ItemCollectionSizeLimitExceeded",
            ErrorKind::TransactionConflictException => "TransactionConflict",
            _ => "InternalServerError",
        }
    };
    BatchStatementResponse {
        error: Some(BatchStatementError {
            code: code.to_owned(),
            message: Some(err.message),
            item: err.item,
        }),
        table_name,
        item: None,
    }
}

/// A list member of 1–`max` elements, rendered as the service renders long lists.
pub(crate) fn list_length(shape: &mut Shape, field: &str, len: usize, max: usize) {
    if len == 0 || len > max {
        let rendered = if len == 0 {
            "[]".to_owned()
        } else {
            format!("[{len} items]")
        };
        let constraint = if len == 0 {
            "Member must have length greater than or equal to 1".to_owned()
        } else {
            format!("Member must have length less than or equal to {max}")
        };
        shape.push(ConstraintViolation {
            field: field.to_owned(),
            value: Some(rendered),
            constraint,
        });
    }
}
