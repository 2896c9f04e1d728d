//! Request parameters many operations share: the `Return*` options, ConsumedCapacity reports,
//! expression placeholders, and the condition of a PutItem or DeleteItem.

use std::collections::BTreeMap;

use dynotable_expr::key_paths::{IndexKeyAttribute, KeyNames};
use dynotable_expr::{Condition, DocumentPath, ExpressionKind, Placeholders, Projection, Update};
use dynotable_types::{AttributeValue, Checked, Item, ValidationError};

use crate::ApiError;
use crate::api::ConsumedCapacity;
use crate::api::item::Expected;
use crate::capacity::WriteUnits;
use crate::catalog::TableSchema;
use crate::legacy;
use crate::shape::Shape;

impl From<dynotable_expr::Error> for ApiError {
    fn from(err: dynotable_expr::Error) -> ApiError {
        ApiError::validation(err.message)
    }
}

pub(crate) use crate::capacity::{CapacityReport, Charge};

impl CapacityReport {
    pub fn check(shape: &mut Shape, value: Option<&String>) -> CapacityReport {
        shape.one_of("returnConsumedCapacity", value, &["INDEXES", "TOTAL", "NONE"]);
        match value.map(String::as_str) {
            Some("TOTAL") => CapacityReport::Total,
            Some("INDEXES") => CapacityReport::Indexes,
            _ => CapacityReport::None,
        }
    }
}

/// The ConsumedCapacity a response carries: `table` for the base table (if it was touched) and
/// `indexes` as `(index position in the table's schema, units)`; see
/// [`crate::capacity::consumed_capacity`]. `named` is the table as the request named it, its
/// name or its ARN: the report's TableName echoes it (rule B.2, API_ConsumedCapacity: "If you
/// had specified the Amazon Resource Name (ARN) of a table in the input, you'll see the table
/// ARN in the response").
pub(crate) fn consumed_capacity(
    report: CapacityReport,
    table: &TableSchema,
    named: &str,
    base: Option<Charge>,
    indexes: &[(usize, Charge)],
) -> Option<ConsumedCapacity> {
    // What the request is charged, for the token buckets when capacity is enforced (rule B.19).
    crate::throttling::record(table, base, indexes);
    let indexes: Vec<(&str, crate::catalog::IndexKind, Charge)> = indexes
        .iter()
        .map(|(position, charge)| {
            let index = &table.indexes[*position];
            (index.name.as_str(), index.kind, *charge)
        })
        .collect();
    crate::capacity::consumed_capacity(report, named, base, &indexes)
}

/// Write units per index, as `consumed_capacity` takes them; indexes not written are left out.
pub(crate) fn index_write_charges(units: &[WriteUnits]) -> Vec<(usize, Charge)> {
    units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.0 > 0)
        .map(|(i, u)| (i, Charge::Write(*u)))
        .collect()
}

/// The request's placeholder maps, checked: value errors inside ExpressionAttributeValues first.
pub(crate) fn placeholders(
    names: Option<&BTreeMap<String, String>>,
    values: Option<Checked<Item>>,
) -> Result<Placeholders, ApiError> {
    let values = values.map(Checked::into_result).transpose()?;
    Ok(Placeholders::new(names.cloned(), values)?)
}

/// `ExpressionAttributeValues` checked in the service's older layer, each value apart. Rule
/// B.16: Scan, TransactWriteItems (every action) and BatchWriteItem check values in that layer,
/// which wraps a bad value's sentence with the placeholder that holds it
/// (`ExpressionAttributeValues contains invalid value: <sentence> for key :v`). A number error
/// wins over the others, as everywhere (see `dynotable_types::wire`); otherwise the first
/// placeholder in name order.
pub(crate) fn older_layer_values(
    values: BTreeMap<String, Checked<AttributeValue>>,
) -> Result<Checked<Item>, ApiError> {
    let mut item = Item::new();
    let mut first: Option<(String, ValidationError)> = None;
    for (name, value) in values {
        match value.into_result() {
            Ok(value) => {
                item.insert(name, value);
            }
            Err(error) => {
                let replaces = match &first {
                    None => true,
                    Some((_, kept)) => error.is_number_error() && !kept.is_number_error(),
                };
                if replaces {
                    first = Some((name, error));
                }
            }
        }
    }
    match first {
        Some((name, error)) => Err(ApiError::validation(format!(
            "ExpressionAttributeValues contains invalid value: {} for key {name}",
            error.message()
        ))),
        None => Ok(Checked(Ok(item))),
    }
}

/// `ExpressionAttributeValues` given without any expression that could use them: the service
/// names the expressions that are missing (`... ConditionExpression is null`, `... UpdateExpression
/// and ConditionExpression are null`; rule B.6, as dynalite recorded it).
pub(crate) fn values_without_expression(
    has_values: bool,
    expressions: &[(&str, bool)],
) -> Result<(), ApiError> {
    if has_values && expressions.iter().all(|(_, used)| !used) {
        let names: Vec<&str> = expressions.iter().map(|(n, _)| *n).collect();
        let verb = if names.len() > 1 { "are" } else { "is" };
        return Err(ApiError::validation(format!(
            "ExpressionAttributeValues can only be specified when using expressions: {} {verb} null",
            names.join(" and ")
        )));
    }
    Ok(())
}

/// `ExpressionAttributeNames` given without any expression that could use them. This sentence
/// names no expression (rule B.6, as dynalite recorded it from the service).
pub(crate) fn names_without_expression(
    has_names: bool,
    expressions: &[(&str, bool)],
) -> Result<(), ApiError> {
    if has_names && expressions.iter().all(|(_, used)| !used) {
        return Err(ApiError::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    Ok(())
}

/// Which parameters a request gives, checked before any of their values is decoded (a key or
/// item with an empty value, a bad filter value), in the service's order (rules B.6 and B.15;
/// dynalite's tests, run against the service, give each sentence beside values that are all
/// invalid): legacy and expression parameters mixed; then ExpressionAttributeNames without an
/// expression; then ExpressionAttributeValues without an expression that takes values; then a
/// ConditionalOperator with nothing to join.
pub(crate) struct ParameterUse<'a> {
    /// The legacy parameters, in the order the mixing sentence lists them, and whether each is
    /// given.
    pub legacy: &'a [(&'a str, bool)],
    /// The expressions, likewise.
    pub expressions: &'a [(&'a str, bool)],
    /// The expressions that take values, in the order the values sentence names them (none for
    /// a read that takes only a projection).
    pub value_expressions: &'a [(&'a str, bool)],
    pub names: bool,
    pub values: bool,
    /// ConditionalOperator, and the number of entries of the map it joins (`None`: no map).
    pub conditional_operator: Option<&'a str>,
    pub joined_entries: Option<usize>,
}

impl ParameterUse<'_> {
    pub fn check(&self) -> Result<(), ApiError> {
        legacy::refuse_mixing(self.legacy, self.expressions)?;
        names_without_expression(self.names, self.expressions)?;
        if !self.value_expressions.is_empty() {
            values_without_expression(self.values, self.value_expressions)?;
        }
        legacy::check_conditional_operator(self.conditional_operator, self.joined_entries)
    }
}

/// The parameters of a PutItem or DeleteItem condition, checked before the item or key is
/// decoded ([`ParameterUse`]).
pub(crate) fn condition_parameters(
    condition_expression: Option<&str>,
    names: bool,
    values: bool,
    expected: Option<&Expected>,
    conditional_operator: Option<&str>,
) -> Result<(), ApiError> {
    let expressions = [("ConditionExpression", condition_expression.is_some())];
    ParameterUse {
        legacy: &[
            ("Expected", expected.is_some()),
            ("ConditionalOperator", conditional_operator.is_some()),
        ],
        expressions: &expressions,
        value_expressions: &expressions,
        names,
        values,
        conditional_operator,
        joined_entries: expected.map(|e| e.len()),
    }
    .check()
}

/// The condition of a PutItem or DeleteItem request, checked as the service checks it once
/// [`condition_parameters`] passed: the ConditionExpression resolved (or `Expected` translated,
/// see [`crate::legacy`]), then no name or value left unused.
pub(crate) fn condition_only(
    condition_expression: Option<&str>,
    names: Option<&BTreeMap<String, String>>,
    values: Option<Checked<Item>>,
    expected: Option<Expected>,
    conditional_operator: Option<&str>,
) -> Result<Option<dynotable_expr::Condition>, ApiError> {
    let mut placeholders = placeholders(names, values)?;
    let condition = condition_expression
        .map(|text| placeholders.condition(dynotable_expr::ExpressionKind::Condition, text))
        .transpose()?;
    placeholders.check_unused()?;
    match expected {
        Some(expected) => legacy::condition::expected(expected, conditional_operator),
        None => Ok(condition),
    }
}

/// Rule B.6.1 (docs/dynamodb-rules.md): the names of `table`'s key attributes, then those of its
/// secondary indexes (every attribute of a multi-attribute GSI key) that are not table key
/// attributes, each once, in the order of `table.indexes` and of each index's key schema.
pub(crate) fn key_names(table: &TableSchema) -> KeyNames<'_> {
    let table_keys: Vec<&str> = table.key.attributes().map(|a| a.name.as_str()).collect();
    let mut index = Vec::new();
    for attribute in table.indexes.iter().flat_map(|i| i.key.attributes()) {
        let name = attribute.name.as_str();
        if !table_keys.contains(&name) && !index.contains(&name) {
            index.push(name);
        }
    }
    KeyNames {
        table: table_keys,
        index,
    }
}

/// Rule B.6.1: no path of an expression (`kind`) may go below a key attribute of `table` or of
/// one of its indexes: `Key attributes must be scalars; ...: Key: a` / `...: IndexKey: d`. Each
/// operation calls it where the service makes the check, once the table is known.
pub(crate) fn check_key_paths<'p>(
    table: &TableSchema,
    kind: ExpressionKind,
    paths: impl IntoIterator<Item = &'p DocumentPath>,
) -> Result<(), ApiError> {
    Ok(dynotable_expr::key_paths::check_key_paths(
        kind,
        paths,
        &key_names(table),
    )?)
}

/// [`check_key_paths`] for a ProjectionExpression, if any (AttributesToGet names only top-level
/// attributes, so its translation never fails it).
pub(crate) fn check_projection_key_paths(
    table: &TableSchema,
    projection: Option<&Projection>,
) -> Result<(), ApiError> {
    match projection {
        Some(projection) => check_key_paths(table, ExpressionKind::Projection, &projection.paths),
        None => Ok(()),
    }
}

/// [`check_key_paths`] for a ConditionExpression or FilterExpression (`kind`), if any.
pub(crate) fn check_condition_key_paths(
    table: &TableSchema,
    kind: ExpressionKind,
    condition: Option<&Condition>,
) -> Result<(), ApiError> {
    match condition {
        Some(condition) => check_key_paths(table, kind, condition.paths()),
        None => Ok(()),
    }
}

/// The key attributes of `table`'s secondary indexes with their types, in the order of
/// `table.indexes` and of each index's key schema; the table's own key attributes are left out
/// (an update may not write them at all, rule B.10).
pub(crate) fn index_key_attributes(table: &TableSchema) -> Vec<IndexKeyAttribute<'_>> {
    table
        .indexes
        .iter()
        .flat_map(|index| {
            index.key.attributes().map(move |attribute| IndexKeyAttribute {
                index: index.name.as_str(),
                name: attribute.name.as_str(),
                ty: attribute.ty,
            })
        })
        .filter(|attribute| !table.key.contains(attribute.name))
        .collect()
}

/// The checks of an UpdateItem (or a TransactWriteItems Update) against its table, before the
/// item is read, in the service's order (dynalite's `validateUpdates`, whose cases its tests
/// recorded from the service): no key attribute updated (rule B.10); no index key attribute
/// given a value of another type, as far as the expression shows it (rule B.6.2); no path below
/// a key attribute in the update (rule B.6.1), then in the condition (rule B.6.1, by inference).
pub(crate) fn check_update_against_table(
    table: &TableSchema,
    update: Option<&Update>,
    condition: Option<&Condition>,
) -> Result<(), ApiError> {
    if let Some(update) = update {
        let key_names: Vec<&str> = table.key.attributes().map(|a| a.name.as_str()).collect();
        update.check_key_attributes(&key_names)?;
        update.check_index_key_types(&index_key_attributes(table))?;
        check_key_paths(table, ExpressionKind::Update, update.all_paths())?;
    }
    check_condition_key_paths(table, ExpressionKind::Condition, condition)
}

/// Rule B.6.2, once the update is applied: a SET that gave an index key attribute a value of
/// another type (known only from the item) has its own sentence. `updated` is the new item.
pub(crate) fn check_updated_index_keys(
    table: &TableSchema,
    update: &Update,
    updated: &Item,
) -> Result<(), ApiError> {
    Ok(update.check_index_key_values(updated, &index_key_attributes(table))?)
}
