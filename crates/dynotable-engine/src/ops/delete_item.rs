//! DeleteItem: delete one item by its key, optionally under a condition.

use crate::api::item::{DeleteItemInput, WriteItemOutput};
use crate::items::StorageKey;
use crate::ops::item_write::{self, Change};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

pub async fn run(engine: &Engine, input: DeleteItemInput) -> Result<WriteItemOutput, ApiError> {
    let mut shape = Shape::new();
    shape.name("tableName", input.table_name.as_ref());
    shape.required("key", input.key.as_ref());
    shape.one_of(
        "returnValues",
        input.return_values.as_ref(),
        &["NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"],
    );
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.one_of(
        "returnItemCollectionMetrics",
        input.return_item_collection_metrics.as_ref(),
        &["SIZE", "NONE"],
    );
    shape.one_of(
        "returnValuesOnConditionCheckFailure",
        input.return_values_on_condition_check_failure.as_ref(),
        &["ALL_OLD", "NONE"],
    );
    shape.finish()?;

    let key_item = input
        .key
        .map(|c| c.into_result())
        .transpose()?
        .unwrap_or_default();
    let expressions = [("ConditionExpression", input.condition_expression.is_some())];
    params::refuse_legacy(
        &[
            ("Expected", input.expected.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &expressions,
    )?;
    params::values_without_expression(input.expression_attribute_values.is_some(), &expressions)?;
    params::names_without_expression(input.expression_attribute_names.is_some(), &expressions)?;
    let return_old = match input.return_values.as_deref() {
        None | Some("NONE") => false,
        Some("ALL_OLD") => true,
        Some(_) => return Err(ApiError::validation("ReturnValues can only be ALL_OLD or NONE")),
    };
    let mut placeholders = params::placeholders(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values,
    )?;
    let condition = input
        .condition_expression
        .as_deref()
        .map(|text| placeholders.condition(dynotable_expr::ExpressionKind::Condition, text))
        .transpose()?;
    placeholders.check_unused()?;

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let key = StorageKey::of_key(&table, &key_item)?;
    let return_old_on_failure = input.return_values_on_condition_check_failure.as_deref() == Some("ALL_OLD");
    let written = item_write::execute(
        engine,
        &table,
        &key,
        condition.as_ref(),
        return_old_on_failure,
        Change::Delete,
    )
    .await?;

    let asked_metrics = input.return_item_collection_metrics.as_deref() == Some("SIZE");
    Ok(WriteItemOutput {
        consumed_capacity: params::consumed_capacity(
            report,
            &table,
            Some(Charge::Write(written.units)),
            &params::index_write_charges(&written.effects.index_units),
        ),
        item_collection_metrics: item_write::collection_metrics(
            asked_metrics,
            &table,
            &key_item,
            &written.effects,
        ),
        attributes: if return_old {
            written.old.map(|o| o.item)
        } else {
            None
        },
    })
}
