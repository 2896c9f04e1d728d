//! PutItem: create or replace one item, optionally under a condition.

use dynotable_expr::ExpressionKind;
use dynotable_types::{SizeCheck, check_item_size};

use crate::api::item::{PutItemInput, WriteItemOutput};
use crate::entry::StorageKey;
use crate::ops::item_write::{self, Change, MemberOrder, PreparedItem, WriteOptions};
use crate::shape::Shape;
use crate::{ApiError, Engine};
use crate::{legacy, params};

pub async fn run(engine: &Engine, input: PutItemInput) -> Result<WriteItemOutput, ApiError> {
    // Shape: member constraints in one envelope.
    let mut shape = Shape::new();
    let options = WriteOptions::check(
        &mut shape,
        MemberOrder::ReturnValuesFirst,
        input.table_name.as_ref(),
        ("item", input.item.is_some()),
        input.return_values.as_ref(),
        input.return_consumed_capacity.as_ref(),
        input.return_item_collection_metrics.as_ref(),
        input.return_values_on_condition_check_failure.as_ref(),
    );
    legacy::condition::shape_expected(&mut shape, input.expected.as_ref());
    legacy::shape_conditional_operator(&mut shape, input.conditional_operator.as_ref());
    shape.finish()?;

    // Values, then the request's semantics: checks of the request alone, which today's
    // service words inside the one-error envelope (rule B.16).
    let (item, return_old) = (|| {
        params::condition_parameters(
            input.condition_expression.as_deref(),
            input.expression_attribute_names.is_some(),
            input.expression_attribute_values.is_some(),
            input.expected.as_ref(),
            input.conditional_operator.as_deref(),
        )?;
        let item = input
            .item
            .map(|c| c.into_result())
            .transpose()?
            .unwrap_or_default();
        let return_old = options.old_or_none()?;
        Ok::<_, ApiError>((item, return_old))
    })()
    .map_err(ApiError::enveloped)?;
    // Rule B.1: an item over 400 KB is refused before the table is looked up, after its values
    // and ReturnValues and before the condition (dynalite's test/putItem.js meets the limit
    // against a table that does not exist; its validations keep this order). The sentence stays
    // bare (rule B.16). The part of the limit the item's LSI entries take needs the table
    // (`PreparedItem::new`).
    check_item_size(&item, SizeCheck::Write)?;
    let condition = params::condition_only(
        input.condition_expression.as_deref(),
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values,
        input.expected,
        input.conditional_operator.as_deref(),
    )
    .map_err(ApiError::enveloped)?;

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let key = StorageKey::of_item(&table, &item)?;
    let prepared = PreparedItem::new(&table, item, SizeCheck::Write)?;
    // Rule B.6.1 (by inference for a ConditionExpression), once the item passed its key checks.
    params::check_condition_key_paths(&table, ExpressionKind::Condition, condition.as_ref())?;
    let key_item = crate::entry::key_of(&table.key, &prepared.item);

    let written = item_write::execute(
        engine,
        &table,
        &key,
        condition.as_ref(),
        &options,
        Change::Put(prepared),
    )
    .await?;
    let attributes = if return_old {
        written.old.as_ref().map(|o| o.item.clone())
    } else {
        None
    };
    Ok(options.output(&table, &key_item, &written, attributes))
}
