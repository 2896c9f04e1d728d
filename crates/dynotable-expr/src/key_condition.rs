//! KeyConditionExpression: a condition restricted to what a range scan over one item
//! collection can answer (Rule B.5, docs/dynamodb-rules.md).
//!
//! The expression goes through the condition grammar and all of its checks first (with the
//! `Invalid KeyConditionExpression:` prefix), then through the shape checks below, walking the
//! tree top-down and left to right, then through the checks against the key schema. Messages
//! are the service's; the shape and schema ones carry no prefix.
//!
//! Shape (each condition joined by AND is one key condition):
//! - `OR`, `NOT`, `IN`, `<>`, `attribute_exists`, `attribute_not_exists`, `attribute_type`,
//!   `contains` → `Invalid operator used in KeyConditionExpression: OR` (operators upper-case,
//!   functions as written);
//! - `size(...)` anywhere → `KeyConditionExpressions cannot contain nested operations`;
//! - BETWEEN or `begins_with` not starting with a path →
//!   `Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute
//!   as its first operand`;
//! - a second path in one condition →
//!   `Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition`;
//!   a nested path → `KeyConditionExpressions cannot have conditions on nested attributes`;
//!   no path → `Invalid condition in KeyConditionExpression: No key attribute specified`;
//! - a second condition on the same attribute →
//!   `KeyConditionExpressions must only contain one condition per key`;
//! - more than two conditions → `Conditions can be of length 1 or 2 only`.
//!
//! A comparison with the value first is turned around: `:lo <= sk` is `sk >= :lo`.
//!
//! Schema (partition key first, then sort key):
//! - a table with only a partition key and two conditions → `Query key condition not supported`;
//! - no condition on the partition key, or (with two conditions) none on the sort key →
//!   `Query condition missed key schema element: <name>` — which is also what a condition on a
//!   non-key attribute produces;
//! - a value whose type is not the key's → `One or more parameter values were invalid:
//!   Condition parameter type does not match schema type`;
//! - anything but `=` on the partition key → `Query key condition not supported`.
//!
//! `begins_with` on a number sort key fails earlier, in the generic checks:
//! `Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or
//! function: begins_with, operand type: N`. A BETWEEN with the lower bound above the upper one
//! fails there too (see [`crate::condition`]).
//!
//! Multi-attribute keys of a global secondary index (Rule B.18.5): every partition-key attribute
//! needs an equality, in key-schema order (the first without one is the one `missed`); sort-key
//! conditions go left to right — a condition on a sort attribute needs one on every sort attribute
//! before it (else `Query condition missed key schema element: <the skipped one>`), and all but the
//! last are equalities (else `Query key condition not supported`). Up to as many conditions as the
//! key has attributes (`Conditions can be of length 1 to <n> only` past that, when n > 2). A key of
//! one partition-key and at most one sort-key attribute is the case above, with the same messages.
//!
//! [`key_condition_from_parts`] applies the same schema checks to key conditions given as data
//! (the engine's translation of the legacy `KeyConditions` parameter), so both forms give the
//! same [`KeyCondition`] and the same messages.

use std::fmt;

use dynotable_types::{AttributeType, AttributeValue, KeyRef, KeyValue, ScalarAttributeType};

use crate::ast::{self, Comparator, ConditionKind};
use crate::condition::{Condition, Operand, resolve_condition};
use crate::error::{Error, ExpressionKind, Result, Span};
use crate::parser::parse_condition;
use crate::path::DocumentPath;
use crate::resolve::Placeholders;

/// One key attribute of a table or index: its name and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyElement<'a> {
    pub name: &'a str,
    pub scalar_type: ScalarAttributeType,
}

/// The key schema a KeyConditionExpression is checked against. `partition` and `sort` are the
/// first attribute of each part of the key; a multi-attribute GSI key (Rule B.18) lists its other
/// attributes, in key-schema order, in `more_partition` and `more_sort`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySchema<'a> {
    pub partition: KeyElement<'a>,
    pub sort: Option<KeyElement<'a>>,
    pub more_partition: &'a [KeyElement<'a>],
    pub more_sort: &'a [KeyElement<'a>],
}

impl<'a> KeySchema<'a> {
    /// A key of one partition-key attribute and at most one sort-key attribute.
    pub fn simple(partition: KeyElement<'a>, sort: Option<KeyElement<'a>>) -> KeySchema<'a> {
        KeySchema {
            partition,
            sort,
            more_partition: &[],
            more_sort: &[],
        }
    }

    /// The partition-key attributes, in key-schema order.
    pub fn partition_elements(&self) -> impl Iterator<Item = KeyElement<'a>> + '_ {
        std::iter::once(self.partition).chain(self.more_partition.iter().copied())
    }

    /// The sort-key attributes, in key-schema order.
    pub fn sort_elements(&self) -> impl Iterator<Item = KeyElement<'a>> + '_ {
        self.sort.into_iter().chain(self.more_sort.iter().copied())
    }

    /// How many conditions a key condition on this key may have: one per key attribute, and
    /// never fewer than two (the service's limit for single-attribute keys).
    fn max_conditions(&self) -> usize {
        (1 + self.more_partition.len() + self.sort_elements().count()).max(2)
    }
}

/// The message for more key conditions than the key allows.
fn too_many_conditions(schema: &KeySchema<'_>) -> String {
    match schema.max_conditions() {
        2 => "Conditions can be of length 1 or 2 only".to_string(),
        // Rule B.18.5: chosen wording (docs/compatibility.md).
        n => format!("Conditions can be of length 1 to {n} only"),
    }
}

/// The sort-key part of a key condition: which slice of the item collection to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SortKeyRange {
    Eq(KeyValue),
    Lt(KeyValue),
    Le(KeyValue),
    Gt(KeyValue),
    Ge(KeyValue),
    /// Both bounds included.
    Between(KeyValue, KeyValue),
    /// S or B sort keys only.
    BeginsWith(KeyValue),
}

/// A checked KeyConditionExpression: one item collection, optionally one sort-key range of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyCondition {
    pub partition_key: String,
    pub partition_value: KeyValue,
    /// A multi-attribute partition key's other attributes and their values, in key-schema order
    /// (Rule B.18.5; empty for a single-attribute key).
    pub more_partition: Vec<(String, KeyValue)>,
    /// The leading sort-key attributes held equal, in key-schema order, before the one `sort`
    /// names (Rule B.18.5; empty for a single-attribute sort key).
    pub sort_equal: Vec<(String, KeyValue)>,
    /// The last sort-key attribute the expression names, and its range, if it has a sort-key
    /// condition.
    pub sort: Option<(String, SortKeyRange)>,
}

fn key_ref(value: &KeyValue) -> KeyRef<'_> {
    match value {
        KeyValue::S(s) => KeyRef::S(s),
        KeyValue::N(n) => KeyRef::N(n),
        KeyValue::B(b) => KeyRef::B(b),
    }
}

fn to_attribute(value: &KeyValue) -> AttributeValue {
    match value {
        KeyValue::S(s) => AttributeValue::S(s.clone()),
        KeyValue::N(n) => AttributeValue::N(*n),
        KeyValue::B(b) => AttributeValue::B(b.clone()),
    }
}

/// The order of an attribute value and a key value of the same type (Rule B.9).
fn compare_key(value: &AttributeValue, key: &KeyValue) -> Option<std::cmp::Ordering> {
    match (value, key) {
        (AttributeValue::S(a), KeyValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::N(a), KeyValue::N(b)) => Some(a.cmp(b)),
        (AttributeValue::B(a), KeyValue::B(b)) => Some(a.as_slice().cmp(b.as_slice())),
        _ => None,
    }
}

impl SortKeyRange {
    /// Whether a sort-key value falls in the range (values of another type never do).
    pub fn contains(&self, value: &AttributeValue) -> bool {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let cmp = |bound: &KeyValue| compare_key(value, bound);
        match self {
            SortKeyRange::Eq(v) => cmp(v) == Some(Equal),
            SortKeyRange::Lt(v) => cmp(v) == Some(Less),
            SortKeyRange::Le(v) => matches!(cmp(v), Some(Less | Equal)),
            SortKeyRange::Gt(v) => cmp(v) == Some(Greater),
            SortKeyRange::Ge(v) => matches!(cmp(v), Some(Greater | Equal)),
            SortKeyRange::Between(low, high) => {
                matches!(cmp(low), Some(Greater | Equal)) && matches!(cmp(high), Some(Less | Equal))
            }
            SortKeyRange::BeginsWith(prefix) => match (value, key_ref(prefix)) {
                (AttributeValue::S(s), KeyRef::S(p)) => s.starts_with(p),
                (AttributeValue::B(b), KeyRef::B(p)) => b.starts_with(p),
                _ => false,
            },
        }
    }
}

impl KeyCondition {
    /// Whether an item (with its key attributes) satisfies the key condition.
    pub fn matches(&self, item: &dynotable_types::Item) -> bool {
        let equal = |name: &str, value: &KeyValue| {
            item.get(name).and_then(|v| compare_key(v, value)) == Some(std::cmp::Ordering::Equal)
        };
        if !equal(&self.partition_key, &self.partition_value) {
            return false;
        }
        let held = self.more_partition.iter().chain(&self.sort_equal);
        if !held.into_iter().all(|(name, value)| equal(name, value)) {
            return false;
        }
        match &self.sort {
            None => true,
            Some((name, range)) => item.get(name).is_some_and(|value| range.contains(value)),
        }
    }
}

impl fmt::Display for SortKeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |v: &KeyValue| crate::display::value_text(&to_attribute(v));
        match self {
            SortKeyRange::Eq(v) => write!(f, "= {}", text(v)),
            SortKeyRange::Lt(v) => write!(f, "< {}", text(v)),
            SortKeyRange::Le(v) => write!(f, "<= {}", text(v)),
            SortKeyRange::Gt(v) => write!(f, "> {}", text(v)),
            SortKeyRange::Ge(v) => write!(f, ">= {}", text(v)),
            SortKeyRange::Between(low, high) => write!(f, "BETWEEN {} AND {}", text(low), text(high)),
            SortKeyRange::BeginsWith(v) => write!(f, "begins_with {}", text(v)),
        }
    }
}

/// One key condition as written, before the schema is applied.
struct Part {
    name: String,
    op: KeyOperator,
    values: Vec<AttributeValue>,
    span: Span,
}

/// The operator of one key condition: a comparison, BETWEEN or `begins_with`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOperator {
    Compare(Comparator),
    Between,
    BeginsWith,
}

/// One key condition given as data rather than text (the legacy `KeyConditions` parameter):
/// the attribute, the operator with the attribute first, and the values in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyPart {
    pub name: String,
    pub op: KeyOperator,
    pub values: Vec<AttributeValue>,
}

/// Checks key conditions given as data against `schema`, with the same schema checks and
/// messages as a KeyConditionExpression (partition key first, then sort key; see the module
/// documentation). The caller has checked each condition's operator and values.
pub fn key_condition_from_parts(parts: Vec<KeyPart>, schema: &KeySchema<'_>) -> Result<KeyCondition> {
    let span = Span::default();
    if parts.is_empty() || parts.len() > schema.max_conditions() {
        return Err(Error::unprefixed(
            ExpressionKind::KeyCondition,
            span,
            too_many_conditions(schema),
        ));
    }
    let parts = parts
        .into_iter()
        .map(|p| Part {
            name: p.name,
            op: p.op,
            values: p.values,
            span,
        })
        .collect();
    apply_schema(parts, schema, span)
}

/// Parses, resolves and checks a KeyConditionExpression against `schema`.
pub fn resolve_key_condition(
    source: &str,
    schema: &KeySchema<'_>,
    placeholders: &mut Placeholders,
) -> Result<KeyCondition> {
    let kind = ExpressionKind::KeyCondition;
    let resolved = resolve_condition(kind, source, placeholders)?;
    // The generic resolution parsed the same text successfully; the tree gives the spans.
    let tree = parse_condition(kind, source)?;
    let mut parts = Vec::new();
    shape(&tree, &resolved, &mut parts)?;
    if parts.len() > schema.max_conditions() {
        return Err(Error::unprefixed(kind, tree.span, too_many_conditions(schema)));
    }
    apply_schema(parts, schema, tree.span)
}

/// The checks of a KeyConditionExpression that need no key schema: syntax, placeholders, the
/// operators and one plain condition per key attribute. The service makes them before it looks
/// the table up (rule B.15, step 2); [`resolve_key_condition`] makes them again, then checks the
/// schema.
pub fn check_key_condition_shape(source: &str, placeholders: &mut Placeholders) -> Result<()> {
    let kind = ExpressionKind::KeyCondition;
    let resolved = resolve_condition(kind, source, placeholders)?;
    let tree = parse_condition(kind, source)?;
    let mut parts = Vec::new();
    shape(&tree, &resolved, &mut parts)
}

fn shape_error(span: Span, message: impl Into<String>) -> Error {
    Error::unprefixed(ExpressionKind::KeyCondition, span, message)
}

fn invalid_operator(span: Span, operator: &str) -> Error {
    shape_error(
        span,
        format!("Invalid operator used in KeyConditionExpression: {operator}"),
    )
}

/// Walks the syntax tree and its resolution together (they have the same shape).
fn shape(tree: &ast::Condition, resolved: &Condition, parts: &mut Vec<Part>) -> Result<()> {
    match (&tree.kind, resolved) {
        (ConditionKind::Or { op_span, .. }, _) => Err(invalid_operator(*op_span, "OR")),
        (ConditionKind::Not { op_span, .. }, _) => Err(invalid_operator(*op_span, "NOT")),
        (ConditionKind::In { op_span, .. }, _) => Err(invalid_operator(*op_span, "IN")),
        (
            ConditionKind::Compare {
                op: Comparator::Ne,
                op_span,
                ..
            },
            _,
        ) => Err(invalid_operator(*op_span, "<>")),
        (ConditionKind::And { left, right, .. }, Condition::And(resolved_left, resolved_right)) => {
            shape(left, resolved_left, parts)?;
            shape(right, resolved_right, parts)
        }
        (ConditionKind::Call(call), _)
            if matches!(
                resolved,
                Condition::AttributeExists(_)
                    | Condition::AttributeNotExists(_)
                    | Condition::AttributeType { .. }
                    | Condition::Contains { .. }
            ) =>
        {
            Err(invalid_operator(call.name_span, &call.name))
        }
        (_, Condition::Compare { op, left, right }) => {
            let part = part(tree, KeyOperator::Compare(*op), &[left, right], parts)?;
            parts.push(part);
            Ok(())
        }
        (_, Condition::Between { value, low, high }) => {
            first_operand_is_path(tree, value, "BETWEEN")?;
            let part = part(tree, KeyOperator::Between, &[value, low, high], parts)?;
            parts.push(part);
            Ok(())
        }
        (_, Condition::BeginsWith { operand, prefix }) => {
            first_operand_is_path(tree, operand, "begins_with")?;
            let part = part(tree, KeyOperator::BeginsWith, &[operand, prefix], parts)?;
            parts.push(part);
            Ok(())
        }
        _ => Err(shape_error(
            tree.span,
            "Invalid condition in KeyConditionExpression: No key attribute specified",
        )),
    }
}

fn first_operand_is_path(tree: &ast::Condition, operand: &Operand, operator: &str) -> Result<()> {
    if !matches!(operand, Operand::Path(_)) {
        return Err(shape_error(
            tree.span,
            format!(
                "Invalid condition in KeyConditionExpression: {operator} operator must have the key attribute as its first operand"
            ),
        ));
    }
    Ok(())
}

/// One condition: exactly one top-level path among its operands, the rest values.
fn part(tree: &ast::Condition, op: KeyOperator, operands: &[&Operand], parts: &[Part]) -> Result<Part> {
    let mut name: Option<(&DocumentPath, usize)> = None;
    let mut values = Vec::new();
    for (position, operand) in operands.iter().enumerate() {
        match operand {
            Operand::Path(path) => {
                if name.is_some() {
                    return Err(shape_error(
                        tree.span,
                        "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition",
                    ));
                }
                if path.is_nested() {
                    return Err(shape_error(
                        tree.span,
                        "KeyConditionExpressions cannot have conditions on nested attributes",
                    ));
                }
                name = Some((path, position));
            }
            Operand::Size(_) => {
                return Err(shape_error(
                    tree.span,
                    "KeyConditionExpressions cannot contain nested operations",
                ));
            }
            Operand::Value(value) => values.push(value.clone()),
        }
    }
    let Some((path, position)) = name else {
        return Err(shape_error(
            tree.span,
            "Invalid condition in KeyConditionExpression: No key attribute specified",
        ));
    };
    let name = path.top_level().to_string();
    if parts.iter().any(|p| p.name == name) {
        return Err(shape_error(
            tree.span,
            "KeyConditionExpressions must only contain one condition per key",
        ));
    }
    // `:v < sk` reads as `sk > :v`.
    let op = match op {
        KeyOperator::Compare(c) if position == 1 => KeyOperator::Compare(match c {
            Comparator::Lt => Comparator::Gt,
            Comparator::Le => Comparator::Ge,
            Comparator::Gt => Comparator::Lt,
            Comparator::Ge => Comparator::Le,
            other => other,
        }),
        other => other,
    };
    Ok(Part {
        name,
        op,
        values,
        span: tree.span,
    })
}

fn type_mismatch(span: Span) -> Error {
    shape_error(
        span,
        "One or more parameter values were invalid: Condition parameter type does not match schema type",
    )
}

/// The values of a part as keys of the schema's type.
fn key_values(part: &Part, scalar_type: ScalarAttributeType) -> Result<Vec<KeyValue>> {
    part.values
        .iter()
        .map(|value| {
            if value.attribute_type() != AttributeType::from(scalar_type) {
                return Err(type_mismatch(part.span));
            }
            KeyRef::from_value(value)
                .map(|r| r.to_key_value())
                .ok_or_else(|| type_mismatch(part.span))
        })
        .collect()
}

fn apply_schema(parts: Vec<Part>, schema: &KeySchema<'_>, span: Span) -> Result<KeyCondition> {
    let count = parts.len();
    let not_supported = |span| shape_error(span, "Query key condition not supported");
    let missed = |name: &str| shape_error(span, format!("Query condition missed key schema element: {name}"));
    let find = |name: &str| parts.iter().find(|p| p.name == name);
    let partition_count = 1 + schema.more_partition.len();

    // The partition key: an equality on every attribute, in key-schema order (Rule B.18.5).
    if schema.sort.is_none() && count > partition_count {
        return Err(not_supported(span));
    }
    let mut partition = Vec::with_capacity(partition_count);
    for element in schema.partition_elements() {
        let Some(part) = find(element.name) else {
            return Err(missed(element.name));
        };
        let mut values = key_values(part, element.scalar_type)?;
        if part.op != KeyOperator::Compare(Comparator::Eq) {
            return Err(not_supported(part.span));
        }
        let value = values.pop().ok_or_else(|| not_supported(part.span))?;
        partition.push((element.name.to_string(), value));
    }

    // The sort key: left to right, no attribute skipped (Rule B.18.5); every condition left
    // over after the partition key must be on the next sort attribute.
    let mut remaining = count.saturating_sub(partition_count);
    let mut given: Vec<(KeyElement<'_>, &Part)> = Vec::new();
    for element in schema.sort_elements() {
        if remaining == 0 {
            break;
        }
        let Some(part) = find(element.name) else {
            return Err(missed(element.name));
        };
        given.push((element, part));
        remaining -= 1;
    }
    if remaining > 0 {
        return Err(not_supported(span));
    }
    let mut sort_equal = Vec::new();
    let mut sort = None;
    let last = given.len().saturating_sub(1);
    for (position, (element, part)) in given.into_iter().enumerate() {
        let mut values = key_values(part, element.scalar_type)?.into_iter();
        let mut next = || values.next().ok_or_else(|| not_supported(part.span));
        // All but the last sort condition are equalities (Rule B.18.5).
        if position < last {
            if part.op != KeyOperator::Compare(Comparator::Eq) {
                return Err(not_supported(part.span));
            }
            sort_equal.push((element.name.to_string(), next()?));
            continue;
        }
        let range = match part.op {
            KeyOperator::Compare(Comparator::Eq) => SortKeyRange::Eq(next()?),
            KeyOperator::Compare(Comparator::Lt) => SortKeyRange::Lt(next()?),
            KeyOperator::Compare(Comparator::Le) => SortKeyRange::Le(next()?),
            KeyOperator::Compare(Comparator::Gt) => SortKeyRange::Gt(next()?),
            KeyOperator::Compare(Comparator::Ge) => SortKeyRange::Ge(next()?),
            KeyOperator::Compare(Comparator::Ne) => return Err(not_supported(part.span)),
            KeyOperator::Between => {
                let low = next()?;
                SortKeyRange::Between(low, next()?)
            }
            KeyOperator::BeginsWith => SortKeyRange::BeginsWith(next()?),
        };
        sort = Some((element.name.to_string(), range));
    }
    let mut partition = partition.into_iter();
    let (partition_key, partition_value) = partition.next().ok_or_else(|| missed(schema.partition.name))?;
    Ok(KeyCondition {
        partition_key,
        partition_value,
        more_partition: partition.collect(),
        sort_equal,
        sort,
    })
}
