//! UpdateItem: change one item with an UpdateExpression or the legacy AttributeUpdates
//! (creating it if it does not exist, unless the update only removes or deletes: then nothing
//! is written, `Update::creates_item`), optionally under a condition, returning what
//! ReturnValues asks for.

use dynotable_types::Item;

use crate::api::item::{UpdateItemInput, WriteItemOutput};
use crate::entry::StorageKey;
use crate::ops::item_write::{self, Change, MemberOrder, WriteOptions};
use crate::shape::Shape;
use crate::{ApiError, Engine};
use crate::{legacy, params};

pub async fn run(engine: &Engine, input: UpdateItemInput) -> Result<WriteItemOutput, ApiError> {
    let mut shape = Shape::new();
    let options = WriteOptions::check(
        &mut shape,
        MemberOrder::CapacityFirst,
        input.table_name.as_ref(),
        ("key", input.key.is_some()),
        input.return_values.as_ref(),
        input.return_consumed_capacity.as_ref(),
        input.return_item_collection_metrics.as_ref(),
        input.return_values_on_condition_check_failure.as_ref(),
    );
    legacy::condition::shape_expected(&mut shape, input.expected.as_ref());
    legacy::update::shape_updates(&mut shape, input.attribute_updates.as_ref());
    legacy::shape_conditional_operator(&mut shape, input.conditional_operator.as_ref());
    shape.finish()?;

    // Checks of the request alone, which today's service words inside the one-error envelope
    // (rule B.16).
    let (key_item, update, condition, legacy_update) = (|| {
        let expressions = [
            ("UpdateExpression", input.update_expression.is_some()),
            ("ConditionExpression", input.condition_expression.is_some()),
        ];
        params::ParameterUse {
            legacy: &[
                ("AttributeUpdates", input.attribute_updates.is_some()),
                ("Expected", input.expected.is_some()),
                ("ConditionalOperator", input.conditional_operator.is_some()),
            ],
            expressions: &expressions,
            value_expressions: &expressions,
            names: input.expression_attribute_names.is_some(),
            values: input.expression_attribute_values.is_some(),
            conditional_operator: input.conditional_operator.as_deref(),
            joined_entries: input.expected.as_ref().map(|e| e.len()),
        }
        .check()?;
        let key_item = input
            .key
            .map(|c| c.into_result())
            .transpose()?
            .unwrap_or_default();
        let mut placeholders = params::placeholders(
            input.expression_attribute_names.as_ref(),
            input.expression_attribute_values,
        )?;
        let mut update = input
            .update_expression
            .as_deref()
            .map(|text| placeholders.update(text))
            .transpose()?;
        let mut condition = input
            .condition_expression
            .as_deref()
            .map(|text| placeholders.condition(dynotable_expr::ExpressionKind::Condition, text))
            .transpose()?;
        placeholders.check_unused()?;
        // The legacy parameters, translated onto the same trees (see `crate::legacy`).
        let legacy_update = input.attribute_updates.is_some();
        if let Some(updates) = input.attribute_updates {
            update = Some(legacy::update::update(updates)?);
        }
        if let Some(expected) = input.expected {
            condition = legacy::condition::expected(expected, input.conditional_operator.as_deref())?;
        }
        Ok::<_, ApiError>((key_item, update, condition, legacy_update))
    })()
    .map_err(ApiError::enveloped)?;

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let key = StorageKey::of_key(&table, &key_item)?;
    params::check_update_against_table(&table, update.as_ref(), condition.as_ref())?;
    let written = item_write::execute(
        engine,
        &table,
        &key,
        condition.as_ref(),
        &options,
        Change::Update {
            update: update.as_ref(),
            key: &key_item,
        },
    )
    .await
    .map_err(|err| {
        if legacy_update {
            legacy::update::type_mismatch(err)
        } else {
            err
        }
    })?;

    // ReturnValues: UPDATED_* return the updated paths alone, as a ProjectionExpression of them
    // would (API_UpdateItem ReturnValues; DG's Movies example returns `info.rating` without the
    // rest of `info`).
    let updated_paths = update.as_ref().map(|u| u.paths()).unwrap_or_default();
    let pick = |item: Option<&Item>| -> Option<Item> {
        let picked = dynotable_expr::projection::project(item?, updated_paths.iter().copied());
        (!picked.is_empty()).then_some(picked)
    };
    let attributes = match input.return_values.as_deref() {
        Some("ALL_OLD") => written.old.as_ref().map(|o| o.item.clone()),
        Some("ALL_NEW") => written.new.clone(),
        Some("UPDATED_OLD") => pick(written.old.as_ref().map(|o| &o.item)),
        Some("UPDATED_NEW") => pick(written.new.as_ref()),
        _ => None,
    };

    Ok(options.output(&table, &key_item, &written, attributes))
}
