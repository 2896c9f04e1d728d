//! Running a planned INSERT, UPDATE or DELETE through the engine's PutItem, UpdateItem and
//! DeleteItem — or, inside ExecuteTransaction, as one action of TransactWriteItems — so that
//! conditions, capacity, index upkeep and collection statistics follow the same rules as the
//! operations themselves.

use dynotable_types::{Checked, Item};
use serde_json::{Map, Value as Json, json};

use super::error;
use super::plan::{WriteKind, WritePlan};
use crate::api::ConsumedCapacity;
use crate::api::item::{DeleteItemInput, PutItemInput, UpdateItemInput};
use crate::ops::{delete_item, put_item, update_item};
use crate::{ApiError, Engine, ErrorKind};

/// What a write returns: the item a RETURNING clause asked for, and the capacity consumed.
pub(crate) struct Written {
    pub item: Option<Item>,
    pub consumed: Option<ConsumedCapacity>,
}

/// Runs one write. `report` is ReturnConsumedCapacity; `on_failure` is
/// ReturnValuesOnConditionCheckFailure.
pub(crate) async fn write(
    engine: &Engine,
    plan: WritePlan,
    report: Option<String>,
    on_failure: Option<String>,
) -> Result<Written, ApiError> {
    let table_name = Some(plan.table.name.clone());
    let names = plan.placeholders.names();
    let values = plan.placeholders.values().map(|v| Checked(Ok(v)));
    let return_values = plan.returning.map(|r| r.return_values().to_owned());
    let output = match plan.kind {
        WriteKind::Insert => put_item::run(
            engine,
            PutItemInput {
                table_name,
                item: plan.item.map(|i| Checked(Ok(i))),
                condition_expression: plan.condition,
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_consumed_capacity: report,
                ..Default::default()
            },
        )
        .await
        .map_err(|err| match err.kind {
            // DG `ql-reference.insert.html`: an existing item is DuplicateItemException.
            ErrorKind::ConditionalCheckFailedException => duplicate_item(),
            _ => err,
        })?,
        WriteKind::Update => {
            update_item::run(
                engine,
                UpdateItemInput {
                    table_name,
                    key: Some(Checked(Ok(plan.key))),
                    update_expression: plan.update,
                    condition_expression: plan.condition,
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_values,
                    return_consumed_capacity: report,
                    return_values_on_condition_check_failure: on_failure,
                    ..Default::default()
                },
            )
            .await?
        }
        WriteKind::Delete => {
            delete_item::run(
                engine,
                DeleteItemInput {
                    table_name,
                    key: Some(Checked(Ok(plan.key))),
                    condition_expression: plan.condition,
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_values,
                    return_consumed_capacity: report,
                    return_values_on_condition_check_failure: on_failure,
                    ..Default::default()
                },
            )
            .await?
        }
        WriteKind::Check => return Err(ApiError::validation(error::EXISTS_OUTSIDE_TRANSACTION)),
    };
    Ok(Written {
        item: output.attributes,
        consumed: output.consumed_capacity,
    })
}

/// The error an INSERT gets when its item exists (DG `ql-reference.insert.html`).
///
/// DynamoDB names it `DuplicateItemException`. The engine's `ErrorKind` has no such variant yet,
/// so until it does this is a `ConditionalCheckFailedException` carrying the service's message
/// (docs/compatibility.md); batches and transactions report the proper `DuplicateItem` code.
pub(crate) fn duplicate_item() -> ApiError {
    ApiError::new(ErrorKind::DuplicateItemException, error::DUPLICATE_ITEM)
}

/// Whether `err` is [`duplicate_item`]'s error.
pub(crate) fn is_duplicate_item(err: &ApiError) -> bool {
    err.kind == ErrorKind::DuplicateItemException
}

/// The write as one TransactWriteItems action (`Put`, `Update`, `Delete` or `ConditionCheck`).
pub(crate) fn transact_action(plan: &WritePlan, on_failure: Option<&str>) -> Json {
    let mut action = Map::new();
    action.insert("TableName".into(), json!(plan.table.name));
    match plan.kind {
        WriteKind::Insert => {
            action.insert("Item".into(), json!(plan.item));
        }
        _ => {
            action.insert("Key".into(), json!(plan.key));
        }
    }
    if let Some(update) = &plan.update {
        action.insert("UpdateExpression".into(), json!(update));
    }
    if let Some(condition) = &plan.condition {
        action.insert("ConditionExpression".into(), json!(condition));
    }
    if let Some(names) = plan.placeholders.names() {
        action.insert("ExpressionAttributeNames".into(), json!(names));
    }
    if let Some(values) = plan.placeholders.values() {
        action.insert("ExpressionAttributeValues".into(), json!(values));
    }
    if let Some(on_failure) = on_failure {
        action.insert("ReturnValuesOnConditionCheckFailure".into(), json!(on_failure));
    }
    let kind = match plan.kind {
        WriteKind::Insert => "Put",
        WriteKind::Update => "Update",
        WriteKind::Delete => "Delete",
        WriteKind::Check => "ConditionCheck",
    };
    json!({ kind: action })
}
