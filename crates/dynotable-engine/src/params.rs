//! Request parameters many operations share: the `Return*` options, ConsumedCapacity reports,
//! expression placeholders, and the refusal of legacy parameters.

use std::collections::BTreeMap;

use dynotable_expr::Placeholders;
use dynotable_types::{Checked, Item};

use crate::ApiError;
use crate::api::{Capacity, ConsumedCapacity};
use crate::capacity::{ReadUnits, WriteUnits};
use crate::catalog::{IndexKind, TableSchema};
use crate::shape::Shape;

impl From<dynotable_expr::Error> for ApiError {
    fn from(err: dynotable_expr::Error) -> ApiError {
        ApiError::validation(err.message)
    }
}

/// `ReturnConsumedCapacity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum CapacityReport {
    #[default]
    None,
    Total,
    Indexes,
}

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

/// Units charged to one table or index, for a ConsumedCapacity report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Charge {
    Read(ReadUnits),
    Write(WriteUnits),
}

impl Charge {
    fn units(self) -> f64 {
        match self {
            Charge::Read(units) => units.as_f64(),
            Charge::Write(units) => units.as_f64(),
        }
    }

    fn capacity(self) -> Capacity {
        Capacity {
            capacity_units: self.units(),
            read_capacity_units: None,
            write_capacity_units: None,
        }
    }
}

/// The ConsumedCapacity a response carries: `table` for the base table (if it was touched) and
/// `indexes` as `(index position in the table's schema, units)`. `TOTAL` adds everything up;
/// `INDEXES` also itemises (rule B.2, "What ConsumedCapacity reports").
pub(crate) fn consumed_capacity(
    report: CapacityReport,
    table: &TableSchema,
    base: Option<Charge>,
    indexes: &[(usize, Charge)],
) -> Option<ConsumedCapacity> {
    if report == CapacityReport::None {
        return None;
    }
    let total = base.map_or(0.0, Charge::units) + indexes.iter().map(|(_, c)| c.units()).sum::<f64>();
    let mut consumed = ConsumedCapacity {
        table_name: table.name.clone(),
        capacity_units: total,
        ..Default::default()
    };
    if report == CapacityReport::Indexes {
        consumed.table = Some(base.map(Charge::capacity).unwrap_or_default());
        let mut global = BTreeMap::new();
        let mut local = BTreeMap::new();
        for (position, charge) in indexes {
            let index = &table.indexes[*position];
            let target = if index.kind == IndexKind::Global {
                &mut global
            } else {
                &mut local
            };
            target.insert(index.name.clone(), charge.capacity());
        }
        consumed.global_secondary_indexes = (!global.is_empty()).then_some(global);
        consumed.local_secondary_indexes = (!local.is_empty()).then_some(local);
    }
    Some(consumed)
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

/// Legacy (pre-expression) parameters. Mixing them with expressions gets the service's error;
/// alone they are not supported by this engine (docs/compatibility.md).
pub(crate) fn refuse_legacy(legacy: &[(&str, bool)], expressions: &[(&str, bool)]) -> Result<(), ApiError> {
    let legacy_used: Vec<&str> = legacy
        .iter()
        .filter(|(_, used)| *used)
        .map(|(name, _)| *name)
        .collect();
    if legacy_used.is_empty() {
        return Ok(());
    }
    let expressions_used: Vec<&str> = expressions
        .iter()
        .filter(|(_, used)| *used)
        .map(|(name, _)| *name)
        .collect();
    if !expressions_used.is_empty() {
        return Err(ApiError::validation(format!(
            "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {{{}}} Expression parameters: {{{}}}",
            legacy_used.join(", "),
            expressions_used.join(", ")
        )));
    }
    Err(ApiError::validation(format!(
        "DynoTable does not support the legacy parameter {}; use the expression parameters instead",
        legacy_used[0]
    )))
}

/// `ExpressionAttributeValues` given without any expression that could use them.
pub(crate) fn values_without_expression(
    has_values: bool,
    expressions: &[(&str, bool)],
) -> Result<(), ApiError> {
    if has_values && expressions.iter().all(|(_, used)| !used) {
        let names: Vec<&str> = expressions.iter().map(|(n, _)| *n).collect();
        return Err(ApiError::validation(format!(
            "ExpressionAttributeValues can only be specified when using expressions: {} is null",
            names.join(" and ")
        )));
    }
    Ok(())
}

/// `ExpressionAttributeNames` given without any expression that could use them.
pub(crate) fn names_without_expression(
    has_names: bool,
    expressions: &[(&str, bool)],
) -> Result<(), ApiError> {
    if has_names && expressions.iter().all(|(_, used)| !used) {
        let names: Vec<&str> = expressions.iter().map(|(n, _)| *n).collect();
        return Err(ApiError::validation(format!(
            "ExpressionAttributeNames can only be specified when using expressions: {} is null",
            names.join(" and ")
        )));
    }
    Ok(())
}

/// The ConditionExpression of a PutItem or DeleteItem request with its placeholders, checked as
/// the service checks them: legacy parameters refused, maps given without an expression refused,
/// the condition resolved, then no name or value left unused.
pub(crate) fn condition_only(
    condition_expression: Option<&str>,
    names: Option<&BTreeMap<String, String>>,
    values: Option<Checked<Item>>,
    expected: bool,
    conditional_operator: bool,
) -> Result<Option<dynotable_expr::Condition>, ApiError> {
    let expressions = [("ConditionExpression", condition_expression.is_some())];
    refuse_legacy(
        &[
            ("Expected", expected),
            ("ConditionalOperator", conditional_operator),
        ],
        &expressions,
    )?;
    values_without_expression(values.is_some(), &expressions)?;
    names_without_expression(names.is_some(), &expressions)?;
    let mut placeholders = placeholders(names, values)?;
    let condition = condition_expression
        .map(|text| placeholders.condition(dynotable_expr::ExpressionKind::Condition, text))
        .transpose()?;
    placeholders.check_unused()?;
    Ok(condition)
}
