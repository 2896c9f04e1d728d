//! ExecuteTransaction (DG `ql-reference.multiplestatements.transactions.html`, API reference
//! `API_ExecuteTransaction.html`): up to 100 statements, all reads or all writes, all or nothing.
//!
//! Reads become one TransactGetItems (each SELECT names one item by its full primary key, on a
//! table, not an index); writes become one TransactWriteItems — INSERT a Put, UPDATE an Update,
//! DELETE a Delete, `EXISTS(SELECT ...)` a ConditionCheck — with the request's
//! ClientRequestToken, so the engine's transaction machinery (one storage transaction, capacity
//! ×2, cancellation reasons in statement order, idempotency for 10 minutes) applies unchanged.
//! An INSERT whose item exists is cancelled with the reason `DuplicateItem`.

use dynotable_types::Checked;
use serde_json::json;

use super::ast::Statement;
use super::batch::list_length;
use super::plan::{self, Purpose, Read, Reads, WriteKind};
use super::render::Binder;
use super::{error, select, write};
use crate::api::ConsumedCapacity;
use crate::api::partiql::{ExecuteTransactionInput, ExecuteTransactionOutput};
use crate::api::transact::{ItemResponse, TransactGet, TransactGetItem, TransactGetItemsInput};
use crate::ops::{transact_get_items, transact_write_items};
use crate::params::CapacityReport;
use crate::shape::Shape;
use crate::{ApiError, CancellationReason, Engine, ErrorKind};

/// API reference: `TransactStatements` holds 1–100 members.
const MAX_STATEMENTS: usize = 100;

pub(crate) async fn execute_transaction(
    engine: &Engine,
    input: ExecuteTransactionInput,
) -> Result<ExecuteTransactionOutput, ApiError> {
    let mut shape = Shape::new();
    CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    if let Some(token) = &input.client_request_token {
        shape.length("clientRequestToken", token, 1, 36);
    }
    if shape.required("transactStatements", input.transact_statements.as_ref())
        && let Some(statements) = &input.transact_statements
    {
        list_length(&mut shape, "transactStatements", statements.len(), MAX_STATEMENTS);
        for (i, request) in statements.iter().enumerate() {
            let member = format!("transactStatements.{}.member", i + 1);
            super::check_statement(
                &mut shape,
                &format!("{member}.statement"),
                request.statement.as_ref(),
            );
            super::check_parameters(
                &mut shape,
                &format!("{member}.parameters"),
                request.parameters.as_ref(),
            );
            shape.one_of(
                &format!("{member}.returnValuesOnConditionCheckFailure"),
                request.return_values_on_condition_check_failure.as_ref(),
                &["ALL_OLD", "NONE"],
            );
        }
    }
    shape.finish()?;

    let mut parsed = Vec::new();
    for (i, request) in input
        .transact_statements
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        let source = request.statement.unwrap_or_default();
        let parameters = super::parameters(request.parameters)?;
        let statement = super::parse(&source, &parameters)?.statement;
        if statement.returning().is_some() {
            return Err(failed_at(
                i,
                ApiError::validation(error::RETURNING_IN_TRANSACTION),
            ));
        }
        parsed.push((
            source,
            parameters,
            statement,
            request.return_values_on_condition_check_failure,
        ));
    }
    let reads = parsed.iter().filter(|(_, _, s, _)| s.is_read()).count();
    if reads > 0 && reads < parsed.len() {
        return Err(ApiError::validation(error::TRANSACTION_MIXES_READS_AND_WRITES));
    }
    let report = input.return_consumed_capacity;

    if reads > 0 {
        let mut plans = Vec::with_capacity(parsed.len());
        let mut gets = Vec::with_capacity(parsed.len());
        for (i, (source, parameters, statement, _)) in parsed.iter().enumerate() {
            let Statement::Select(select) = statement else {
                unreachable!("every statement is a read")
            };
            let binder = Binder { source, parameters };
            let plan = plan::plan_select(engine, select, &binder, Purpose::Transaction)
                .map_err(|e| failed_at(i, e))?;
            let Reads::Partitions(reads) = &plan.reads else {
                unreachable!("a transaction's read names one item")
            };
            let [Read::Get(key)] = reads.as_slice() else {
                unreachable!("a transaction's read names one item")
            };
            gets.push(TransactGetItem {
                get: Some(TransactGet {
                    table_name: Some(plan.table.name.clone()),
                    key: Some(Checked(Ok(key.clone()))),
                    ..Default::default()
                }),
            });
            plans.push(plan);
        }
        let output = transact_get_items::run(
            engine,
            TransactGetItemsInput {
                transact_items: Some(gets),
                return_consumed_capacity: report,
            },
        )
        .await?;
        let mut responses = Vec::with_capacity(plans.len());
        for (plan, response) in plans.iter().zip(output.responses) {
            let matcher = select::Matcher::new(plan)?;
            responses.push(ItemResponse {
                item: response.item.and_then(|item| matcher.apply(item)),
            });
        }
        return Ok(ExecuteTransactionOutput {
            responses: Some(responses),
            consumed_capacity: output.consumed_capacity,
        });
    }

    let mut actions = Vec::with_capacity(parsed.len());
    let mut inserts = Vec::with_capacity(parsed.len());
    for (i, (source, parameters, statement, on_failure)) in parsed.iter().enumerate() {
        let binder = Binder { source, parameters };
        let plan = plan::plan_write(engine, statement, &binder).map_err(|err| {
            // A key the item lacks or mistypes cancels the transaction at that statement, as
            // DynamoDB Local reports it; other translation errors fail the request.
            if err.message.starts_with("Key attribute") {
                let mut reasons = vec![no_reason(); parsed.len()];
                reasons[i] = CancellationReason {
                    code: "ValidationError".into(),
                    message: Some(err.message),
                    item: None,
                };
                ApiError::transaction_canceled(reasons)
            } else {
                failed_at(i, err)
            }
        })?;
        inserts.push(plan.kind == WriteKind::Insert);
        actions.push(write::transact_action(&plan, on_failure.as_deref()));
    }
    let mut body = json!({ "TransactItems": actions });
    if let Some(token) = &input.client_request_token {
        body["ClientRequestToken"] = json!(token);
    }
    if let Some(report) = &report {
        body["ReturnConsumedCapacity"] = json!(report);
    }
    let body = serde_json::to_vec(&body).map_err(ApiError::internal)?;
    let response = transact_write_items::call(engine, &body)
        .await
        .map_err(|err| duplicate_items(err, &inserts))?;
    let response: serde_json::Value = serde_json::from_slice(&response).map_err(ApiError::internal)?;
    let consumed_capacity = response
        .get("ConsumedCapacity")
        .map(|c| serde_json::from_value::<Vec<ConsumedCapacity>>(c.clone()))
        .transpose()
        .map_err(ApiError::internal)?;
    Ok(ExecuteTransactionOutput {
        responses: Some(parsed.iter().map(|_| ItemResponse::default()).collect()),
        consumed_capacity,
    })
}

/// `Validation failed in TransactStatements[i]: ...`, for a statement the transaction cannot
/// run; a missing table stays ResourceNotFoundException.
fn failed_at(index: usize, err: ApiError) -> ApiError {
    if err.kind != ErrorKind::ValidationException {
        return err;
    }
    ApiError::validation(format!(
        "Validation failed in TransactStatements[{index}]: {}",
        err.message
    ))
}

fn no_reason() -> CancellationReason {
    CancellationReason {
        code: "None".into(),
        message: None,
        item: None,
    }
}

/// An INSERT's failed `attribute_not_exists` is the reason `DuplicateItem`.
fn duplicate_items(err: ApiError, inserts: &[bool]) -> ApiError {
    let Some(mut reasons) = err.cancellation_reasons.clone() else {
        return err;
    };
    let mut changed = false;
    for (reason, insert) in reasons.iter_mut().zip(inserts) {
        if *insert && reason.code == "ConditionalCheckFailed" {
            *reason = CancellationReason {
                code: "DuplicateItem".into(),
                message: Some(error::DUPLICATE_ITEM.into()),
                item: None,
            };
            changed = true;
        }
    }
    if changed {
        ApiError::transaction_canceled(reasons)
    } else {
        err
    }
}
