//! DeleteItem: delete one item by its key, optionally under a condition.

use dynotable_expr::ExpressionKind;

use crate::api::item::{DeleteItemInput, WriteItemOutput};
use crate::entry::StorageKey;
use crate::ops::item_write::{self, Change, MemberOrder, WriteOptions};
use crate::shape::Shape;
use crate::{ApiError, Engine};
use crate::{legacy, params};

pub async fn run(engine: &Engine, input: DeleteItemInput) -> Result<WriteItemOutput, ApiError> {
    let mut shape = Shape::new();
    let options = WriteOptions::check(
        &mut shape,
        MemberOrder::ReturnValuesFirst,
        input.table_name.as_ref(),
        ("key", input.key.is_some()),
        input.return_values.as_ref(),
        input.return_consumed_capacity.as_ref(),
        input.return_item_collection_metrics.as_ref(),
        input.return_values_on_condition_check_failure.as_ref(),
    );
    legacy::condition::shape_expected(&mut shape, input.expected.as_ref());
    legacy::shape_conditional_operator(&mut shape, input.conditional_operator.as_ref());
    shape.finish()?;

    // Checks of the request alone, which today's service words inside the one-error envelope
    // (rule B.16).
    let (key_item, return_old, condition) = (|| {
        params::condition_parameters(
            input.condition_expression.as_deref(),
            input.expression_attribute_names.is_some(),
            input.expression_attribute_values.is_some(),
            input.expected.as_ref(),
            input.conditional_operator.as_deref(),
        )?;
        let key_item = input
            .key
            .map(|c| c.into_result())
            .transpose()?
            .unwrap_or_default();
        let return_old = options.old_or_none()?;
        let condition = params::condition_only(
            input.condition_expression.as_deref(),
            input.expression_attribute_names.as_ref(),
            input.expression_attribute_values,
            input.expected,
            input.conditional_operator.as_deref(),
        )?;
        Ok::<_, ApiError>((key_item, return_old, condition))
    })()
    .map_err(ApiError::enveloped)?;

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let key = StorageKey::of_key(&table, &key_item)?;
    // Rule B.6.1 (by inference for a ConditionExpression), once the key passed its checks.
    params::check_condition_key_paths(&table, ExpressionKind::Condition, condition.as_ref())?;
    let written =
        item_write::execute(engine, &table, &key, condition.as_ref(), &options, Change::Delete).await?;
    let attributes = if return_old {
        written.old.as_ref().map(|o| o.item.clone())
    } else {
        None
    };
    Ok(options.output(&table, &key_item, &written, attributes))
}
