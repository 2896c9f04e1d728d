//! GetItem: read one item by its key, optionally projected. Every read here is strongly
//! consistent; an eventually consistent read is charged half (rule B.2) all the same.

use crate::api::item::{GetItemInput, GetItemOutput};
use crate::capacity::{self, ReadKind};
use crate::items::{self, StorageKey};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// A GetItem whose item the caller reads (PartiQL).
pub async fn run(engine: &Engine, input: GetItemInput) -> Result<GetItemOutput, ApiError> {
    get_item(engine, input, false).await
}

/// A GetItem answered on the wire: without a projection the item is returned as stored,
/// not decoded and encoded again (see `read_page`, "Stored items").
pub async fn respond(engine: &Engine, input: GetItemInput) -> Result<GetItemOutput, ApiError> {
    get_item(engine, input, true).await
}

async fn get_item(
    engine: &Engine,
    input: GetItemInput,
    keep_stored: bool,
) -> Result<GetItemOutput, ApiError> {
    let mut shape = Shape::new();
    shape.name("tableName", input.table_name.as_ref());
    shape.required("key", input.key.as_ref());
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.finish()?;

    let key_item = input
        .key
        .map(|c| c.into_result())
        .transpose()?
        .unwrap_or_default();
    let expressions = [("ProjectionExpression", input.projection_expression.is_some())];
    params::refuse_legacy(
        &[("AttributesToGet", input.attributes_to_get.is_some())],
        &expressions,
    )?;
    params::names_without_expression(input.expression_attribute_names.is_some(), &expressions)?;
    let mut placeholders = params::placeholders(input.expression_attribute_names.as_ref(), None)?;
    let projection = input
        .projection_expression
        .as_deref()
        .map(|text| placeholders.projection(text))
        .transpose()?;
    placeholders.check_unused()?;

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let key = StorageKey::of_key(&table, &key_item)?;
    let kind = ReadKind::of_consistent_read(input.consistent_read.unwrap_or(false));
    let stored = engine.read_item(&mut None, &table, &key).await?;
    let units = capacity::item_read(stored.as_ref().map(|s| s.size), kind);
    if keep_stored && projection.is_none() {
        return Ok(GetItemOutput {
            stored_item: stored.map(|s| s.raw()).transpose()?,
            consumed_capacity: params::consumed_capacity(report, &table, Some(Charge::Read(units)), &[]),
            ..Default::default()
        });
    }
    let item = stored
        .map(|s| items::decode_entry(s.body.as_bytes(), s.size as i64))
        .transpose()?
        .map(|s| match &projection {
            Some(projection) => projection.apply(&s.item),
            None => s.item,
        });
    Ok(GetItemOutput {
        item,
        consumed_capacity: params::consumed_capacity(report, &table, Some(Charge::Read(units)), &[]),
        ..Default::default()
    })
}
