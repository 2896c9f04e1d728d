//! Legacy conditions — `Expected` (PutItem, UpdateItem, DeleteItem), `QueryFilter`,
//! `ScanFilter` and `KeyConditions` — checked and translated into the resolved conditions of
//! `dynotable-expr`.
//!
//! Each comparison operator takes a fixed number of values, of given types (AWS API Reference,
//! "Condition"; a wrong count is `One or more parameter values were invalid: Invalid number of
//! argument(s) for the EQ ComparisonOperator`):
//!
//! | Operator | Values | Types | Translation (`a` the attribute) |
//! |---|---|---|---|
//! | EQ, NE | 1 | any | `a = :v`, `a <> :v` (a missing `a` is not equal) |
//! | LE, LT, GE, GT | 1 | S, N, B | `a <= :v`, ... |
//! | NOT_NULL, NULL | 0 | — | `attribute_exists(a)`, `attribute_not_exists(a)` |
//! | CONTAINS | 1 | S, N, B, BOOL, NULL | `contains(a, :v)` (substring, set member, list element) |
//! | NOT_CONTAINS | 1 | S, N, B, BOOL, NULL | `attribute_exists(a) AND NOT contains(a, :v)` |
//! | BEGINS_WITH | 1 | S, B | `begins_with(a, :v)` |
//! | IN | 1 or more | S, N, B | `a IN (:v1, :v2, ...)` |
//! | BETWEEN | 2 | S, N, B | `a BETWEEN :lo AND :hi` |
//!
//! A value of a type the operator does not take is `ComparisonOperator LT is not valid for SS
//! AttributeValue type`, then the values of one condition must all have the same type
//! (`AttributeValues inside AttributeValueList must be of same type`), and BETWEEN's bounds must
//! be in order. EQ and NE take lists and maps too ("EQ is supported for all data types, including
//! lists and maps"). NOT_CONTAINS is false on a missing attribute, where `NOT contains(...)`
//! would be true (see `docs/compatibility.md`).
//!
//! `Expected` entries use either `Value`/`Exists` (`Value` alone is EQ; `Exists: false` alone is
//! NULL) or `ComparisonOperator`/`AttributeValueList` (AWS API Reference,
//! "ExpectedAttributeValue"); the combinations the service refuses are refused with its
//! messages. Several entries are joined with `ConditionalOperator` (AND unless it says OR).

use dynotable_expr::ast::Comparator;
use dynotable_expr::condition::Operand;
use dynotable_expr::evaluate::compare_values;
use dynotable_expr::{Condition, DocumentPath, KeyCondition, KeyOperator, KeyPart, KeySchema};
use dynotable_types::{AttributeType, AttributeValue};

use super::INVALID;
use crate::ApiError;
use crate::api::item::{Conditions, Expected, ExpectedAttributeValue};
use crate::shape::Shape;

/// A legacy comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    Eq,
    Ne,
    Le,
    Lt,
    Ge,
    Gt,
    NotNull,
    Null,
    Contains,
    NotContains,
    BeginsWith,
    In,
    Between,
}

/// The enumeration in the order the service lists it in its constraint messages.
const OPERATOR_NAMES: &[&str] = &[
    "IN",
    "NULL",
    "BETWEEN",
    "LT",
    "NOT_CONTAINS",
    "EQ",
    "GT",
    "NOT_NULL",
    "NE",
    "LE",
    "BEGINS_WITH",
    "GE",
    "CONTAINS",
];

const SCALARS: &[AttributeType] = &[AttributeType::S, AttributeType::N, AttributeType::B];

/// CONTAINS and NOT_CONTAINS take every scalar type: only SS, NS, BS, M and L are refused
/// (dynalite's test/query.js, run against the service, lists those five as invalid; DynamoDB
/// Local's CONTAINS takes the scalar types). A BOOL or NULL value is contained in a list that
/// holds an equal element.
const CONTAINS_TYPES: &[AttributeType] = &[
    AttributeType::S,
    AttributeType::N,
    AttributeType::B,
    AttributeType::BOOL,
    AttributeType::NULL,
];

impl Operator {
    fn parse(name: &str) -> Option<Operator> {
        Some(match name {
            "EQ" => Operator::Eq,
            "NE" => Operator::Ne,
            "LE" => Operator::Le,
            "LT" => Operator::Lt,
            "GE" => Operator::Ge,
            "GT" => Operator::Gt,
            "NOT_NULL" => Operator::NotNull,
            "NULL" => Operator::Null,
            "CONTAINS" => Operator::Contains,
            "NOT_CONTAINS" => Operator::NotContains,
            "BEGINS_WITH" => Operator::BeginsWith,
            "IN" => Operator::In,
            "BETWEEN" => Operator::Between,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Operator::Eq => "EQ",
            Operator::Ne => "NE",
            Operator::Le => "LE",
            Operator::Lt => "LT",
            Operator::Ge => "GE",
            Operator::Gt => "GT",
            Operator::NotNull => "NOT_NULL",
            Operator::Null => "NULL",
            Operator::Contains => "CONTAINS",
            Operator::NotContains => "NOT_CONTAINS",
            Operator::BeginsWith => "BEGINS_WITH",
            Operator::In => "IN",
            Operator::Between => "BETWEEN",
        }
    }

    /// Whether the operator takes `count` values (API Reference, "Condition").
    fn takes(self, count: usize) -> bool {
        match self {
            Operator::NotNull | Operator::Null => count == 0,
            Operator::In => count >= 1,
            Operator::Between => count == 2,
            _ => count == 1,
        }
    }

    /// The value types the operator takes; `None` for any.
    fn types(self) -> Option<&'static [AttributeType]> {
        match self {
            Operator::Eq | Operator::Ne | Operator::NotNull | Operator::Null => None,
            Operator::BeginsWith => Some(&[AttributeType::S, AttributeType::B]),
            Operator::Contains | Operator::NotContains => Some(CONTAINS_TYPES),
            _ => Some(SCALARS),
        }
    }
}

/// One checked legacy comparison: attribute, operator, values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Comparison {
    attribute: String,
    operator: Operator,
    values: Vec<AttributeValue>,
}

impl Comparison {
    /// Checks the values against the operator, in the service's order: the count, each value's
    /// type against the operator, one type for all, BETWEEN's order. A value of a type the
    /// operator does not take is named even beside values of another type (dynalite's
    /// test/scan.js, run against the service: BETWEEN of `{S}` and `{SS}` is `ComparisonOperator
    /// BETWEEN is not valid for SS AttributeValue type`).
    fn new(attribute: &str, operator: Operator, values: Vec<AttributeValue>) -> Result<Comparison, ApiError> {
        if !operator.takes(values.len()) {
            return Err(ApiError::validation(format!(
                "{INVALID}Invalid number of argument(s) for the {} ComparisonOperator",
                operator.name()
            )));
        }
        if let Some(types) = operator.types()
            && let Some(value) = values.iter().find(|v| !types.contains(&v.attribute_type()))
        {
            return Err(ApiError::validation(format!(
                "{INVALID}ComparisonOperator {} is not valid for {} AttributeValue type",
                operator.name(),
                value.attribute_type().as_str()
            )));
        }
        if let Some(first) = values.first()
            && values
                .iter()
                .any(|v| v.attribute_type() != first.attribute_type())
        {
            return Err(ApiError::validation(format!(
                "{INVALID}AttributeValues inside AttributeValueList must be of same type"
            )));
        }
        // Only BETWEEN has bounds: an IN of two values in descending order is a plain list.
        if operator == Operator::Between
            && let [low, high] = values.as_slice()
            && compare_values(low, high) == Some(std::cmp::Ordering::Greater)
        {
            return Err(ApiError::validation(
                "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
            ));
        }
        Ok(Comparison {
            attribute: attribute.to_owned(),
            operator,
            values,
        })
    }

    /// The resolved condition the comparison means (see the module table).
    pub(crate) fn to_condition(&self) -> Condition {
        let path = DocumentPath::attribute(&self.attribute);
        let attribute = Operand::Path(path.clone());
        let mut values = self.values.iter().cloned().map(Operand::Value);
        let mut value = || values.next().unwrap_or(Operand::Value(AttributeValue::NULL));
        let compare = |op, right| Condition::Compare {
            op,
            left: attribute.clone(),
            right,
        };
        match self.operator {
            Operator::Eq => compare(Comparator::Eq, value()),
            Operator::Ne => compare(Comparator::Ne, value()),
            Operator::Le => compare(Comparator::Le, value()),
            Operator::Lt => compare(Comparator::Lt, value()),
            Operator::Ge => compare(Comparator::Ge, value()),
            Operator::Gt => compare(Comparator::Gt, value()),
            Operator::NotNull => Condition::AttributeExists(path),
            Operator::Null => Condition::AttributeNotExists(path),
            Operator::Contains => Condition::Contains {
                operand: attribute.clone(),
                element: value(),
            },
            Operator::NotContains => Condition::And(
                Box::new(Condition::AttributeExists(path)),
                Box::new(Condition::Not(Box::new(Condition::Contains {
                    operand: attribute.clone(),
                    element: value(),
                }))),
            ),
            Operator::BeginsWith => Condition::BeginsWith {
                operand: attribute.clone(),
                prefix: value(),
            },
            Operator::In => Condition::In {
                value: attribute.clone(),
                list: self.values.iter().cloned().map(Operand::Value).collect(),
            },
            Operator::Between => {
                let low = value();
                Condition::Between {
                    value: attribute.clone(),
                    low,
                    high: value(),
                }
            }
        }
    }
}

/// The member constraints of `QueryFilter`, `ScanFilter` or `KeyConditions` (`field` as the
/// service spells it: `queryFilter`): each ComparisonOperator present and one of the operators.
pub(crate) fn shape_conditions(shape: &mut Shape, field: &str, conditions: Option<&Conditions>) {
    for (name, condition) in conditions.into_iter().flatten() {
        let member = format!("{field}.{name}.member.comparisonOperator");
        if shape.required(&member, condition.comparison_operator.as_ref()) {
            shape.one_of(&member, condition.comparison_operator.as_ref(), OPERATOR_NAMES);
        }
    }
}

/// The member constraints of `Expected`: each ComparisonOperator one of the operators.
pub(crate) fn shape_expected(shape: &mut Shape, expected: Option<&Expected>) {
    for (name, entry) in expected.into_iter().flatten() {
        let member = format!("expected.{name}.member.comparisonOperator");
        shape.one_of(&member, entry.comparison_operator.as_ref(), OPERATOR_NAMES);
    }
}

/// The comparisons of `QueryFilter`, `ScanFilter` or `KeyConditions`, checked.
fn comparisons(conditions: Conditions) -> Result<Vec<Comparison>, ApiError> {
    let mut out = Vec::with_capacity(conditions.len());
    for (name, condition) in conditions {
        let values = condition
            .attribute_value_list
            .map(|c| c.into_result())
            .transpose()?
            .unwrap_or_default();
        // The enumeration was checked with the request's shape.
        let operator = condition
            .comparison_operator
            .as_deref()
            .and_then(Operator::parse)
            .ok_or_else(|| ApiError::validation("ComparisonOperator is required"))?;
        out.push(Comparison::new(&name, operator, values)?);
    }
    Ok(out)
}

/// Conditions joined with `ConditionalOperator`: AND unless it is OR; `None` for none.
fn join(conditions: Vec<Condition>, conditional_operator: Option<&str>) -> Option<Condition> {
    let or = conditional_operator == Some("OR");
    conditions.into_iter().reduce(|left, right| {
        if or {
            Condition::Or(Box::new(left), Box::new(right))
        } else {
            Condition::And(Box::new(left), Box::new(right))
        }
    })
}

/// `QueryFilter` or `ScanFilter` as a filter condition.
pub(crate) fn filter(
    conditions: Conditions,
    conditional_operator: Option<&str>,
) -> Result<Option<Condition>, ApiError> {
    let conditions = comparisons(conditions)?
        .iter()
        .map(Comparison::to_condition)
        .collect();
    Ok(join(conditions, conditional_operator))
}

/// `Expected` as a write's condition.
pub(crate) fn expected(
    expected: Expected,
    conditional_operator: Option<&str>,
) -> Result<Option<Condition>, ApiError> {
    let mut conditions = Vec::with_capacity(expected.len());
    for (name, entry) in expected {
        conditions.push(expected_entry(&name, entry)?);
    }
    Ok(join(conditions, conditional_operator))
}

/// One `Expected` entry (API Reference, "ExpectedAttributeValue"), in the service's order of
/// checks.
fn expected_entry(name: &str, entry: ExpectedAttributeValue) -> Result<Condition, ApiError> {
    let value = entry.value.map(|c| c.into_result()).transpose()?;
    let list = entry.attribute_value_list.map(|c| c.into_result()).transpose()?;
    let refuse = |detail: String| Err(ApiError::validation(format!("{INVALID}{detail}")));
    if value.is_some() && list.is_some() {
        return refuse(format!(
            "Value and AttributeValueList cannot be used together for Attribute: {name}"
        ));
    }
    if let Some(operator_name) = entry.comparison_operator.as_deref() {
        if entry.exists.is_some() {
            return refuse(format!(
                "Exists and ComparisonOperator cannot be used together for Attribute: {name}"
            ));
        }
        let operator = Operator::parse(operator_name)
            .ok_or_else(|| ApiError::validation("ComparisonOperator is not valid"))?;
        if !matches!(operator, Operator::Null | Operator::NotNull) && value.is_none() && list.is_none() {
            return refuse(format!(
                "Value or AttributeValueList must be used with ComparisonOperator: {operator_name} for Attribute: {name}"
            ));
        }
        let values = match (value, list) {
            (Some(value), _) => vec![value],
            (None, list) => list.unwrap_or_default(),
        };
        return Ok(Comparison::new(name, operator, values)?.to_condition());
    }
    if list.is_some() {
        return refuse(format!(
            "AttributeValueList can only be used with a ComparisonOperator for Attribute: {name}"
        ));
    }
    match (entry.exists, value) {
        (None | Some(true), Some(value)) => {
            Ok(Comparison::new(name, Operator::Eq, vec![value])?.to_condition())
        }
        (Some(false), None) => Ok(Condition::AttributeNotExists(DocumentPath::attribute(name))),
        (None, None) => refuse(format!(
            "Value must be provided when Exists is null for Attribute: {name}"
        )),
        (Some(true), None) => refuse(format!(
            "Value must be provided when Exists is true for Attribute: {name}"
        )),
        (Some(false), Some(_)) => refuse(format!(
            "Value cannot be used when Exists is false for Attribute: {name}"
        )),
    }
}

/// `KeyConditions` checked on their own, as any legacy conditions are (values, argument counts,
/// types, BETWEEN's order): what a Query checks before it looks its table up (rule B.15).
pub(crate) struct KeyComparisons(Vec<Comparison>);

impl KeyComparisons {
    /// Whether `KeyConditions` was an empty map: wrong for every key schema, so a Query says so
    /// even when its table does not exist (see `ops::query`).
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The checks of `KeyConditions` that need no table; [`key_condition_of`] makes the rest.
pub(crate) fn key_comparisons(conditions: Conditions) -> Result<KeyComparisons, ApiError> {
    Ok(KeyComparisons(comparisons(conditions)?))
}

/// `KeyConditions` as a key condition, checked against the key schema as a
/// KeyConditionExpression is: [`key_comparisons`], then [`key_condition_of`].
pub(crate) fn key_condition(
    conditions: Conditions,
    schema: &KeySchema<'_>,
) -> Result<KeyCondition, ApiError> {
    key_condition_of(key_comparisons(conditions)?, schema)
}

/// Checked `KeyConditions` against the key schema. The partition key takes EQ only and the sort
/// key EQ, LE, LT, GE, GT, BEGINS_WITH or BETWEEN (API Reference, "Condition"). NULL, NOT_NULL,
/// NE, CONTAINS, NOT_CONTAINS and IN on a key attribute are `Attempted conditional constraint is
/// not an indexable operation` (rule B.5: dynalite's tests against the service and DynamoDB
/// Local's error list agree); on another attribute, `Query key condition not supported`.
pub(crate) fn key_condition_of(
    comparisons: KeyComparisons,
    schema: &KeySchema<'_>,
) -> Result<KeyCondition, ApiError> {
    let mut parts = Vec::new();
    for comparison in comparisons.0 {
        let op = match comparison.operator {
            Operator::Eq => KeyOperator::Compare(Comparator::Eq),
            Operator::Le => KeyOperator::Compare(Comparator::Le),
            Operator::Lt => KeyOperator::Compare(Comparator::Lt),
            Operator::Ge => KeyOperator::Compare(Comparator::Ge),
            Operator::Gt => KeyOperator::Compare(Comparator::Gt),
            Operator::BeginsWith => KeyOperator::BeginsWith,
            Operator::Between => KeyOperator::Between,
            _ if is_key_attribute(schema, &comparison.attribute) => {
                return Err(ApiError::validation(
                    "Attempted conditional constraint is not an indexable operation",
                ));
            }
            _ => return Err(ApiError::validation("Query key condition not supported")),
        };
        parts.push(KeyPart {
            name: comparison.attribute,
            op,
            values: comparison.values,
        });
    }
    Ok(dynotable_expr::key_condition::key_condition_from_parts(
        parts, schema,
    )?)
}

/// Whether `name` is one of the key attributes of `schema`.
fn is_key_attribute(schema: &KeySchema<'_>, name: &str) -> bool {
    std::iter::once(&schema.partition)
        .chain(schema.sort.as_ref())
        .chain(schema.more_partition)
        .chain(schema.more_sort)
        .any(|element| element.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> AttributeValue {
        AttributeValue::N(text.parse().unwrap())
    }

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    #[test]
    fn argument_counts_follow_the_operator() {
        for (operator, good, bad) in [
            (Operator::Eq, 1, 2),
            (Operator::Null, 0, 1),
            (Operator::NotNull, 0, 1),
            (Operator::In, 3, 0),
            (Operator::Between, 2, 1),
            (Operator::BeginsWith, 1, 0),
        ] {
            let values = |count| (0..count).map(|i| s(&i.to_string())).collect();
            assert!(
                Comparison::new("a", operator, values(good)).is_ok(),
                "{operator:?}"
            );
            let err = Comparison::new("a", operator, values(bad)).unwrap_err();
            assert_eq!(
                err.message,
                format!(
                    "One or more parameter values were invalid: Invalid number of argument(s) for the {} ComparisonOperator",
                    operator.name()
                )
            );
        }
    }

    #[test]
    fn types_and_bounds_are_checked() {
        let err = Comparison::new("a", Operator::Between, vec![n("1"), s("x")]).unwrap_err();
        assert!(
            err.message
                .ends_with("AttributeValues inside AttributeValueList must be of same type")
        );
        let err = Comparison::new(
            "a",
            Operator::Between,
            vec![
                s("a"),
                AttributeValue::SS(dynotable_types::Set::single("a".into())),
            ],
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "One or more parameter values were invalid: ComparisonOperator BETWEEN is not valid for SS AttributeValue type"
        );
        let err = Comparison::new("a", Operator::BeginsWith, vec![n("1")]).unwrap_err();
        assert!(
            err.message
                .ends_with("ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type")
        );
        let err = Comparison::new("a", Operator::Between, vec![n("5"), n("1")]).unwrap_err();
        assert_eq!(
            err.message,
            "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"
        );
        let list = AttributeValue::L(vec![n("1")]);
        assert!(Comparison::new("a", Operator::Eq, vec![list]).is_ok());
    }

    /// One evaluator: each operator translates to exactly the tree its ConditionExpression
    /// resolves to.
    #[test]
    fn each_operator_is_the_tree_of_its_expression() {
        let values = std::collections::BTreeMap::from([(":v".to_owned(), n("5")), (":w".to_owned(), n("7"))]);
        for (operator, count, text) in [
            (Operator::Eq, 1, "a = :v"),
            (Operator::Ne, 1, "a <> :v"),
            (Operator::Le, 1, "a <= :v"),
            (Operator::Lt, 1, "a < :v"),
            (Operator::Ge, 1, "a >= :v"),
            (Operator::Gt, 1, "a > :v"),
            (Operator::NotNull, 0, "attribute_exists(a)"),
            (Operator::Null, 0, "attribute_not_exists(a)"),
            (Operator::Contains, 1, "contains(a, :v)"),
            (
                Operator::NotContains,
                1,
                "attribute_exists(a) AND NOT contains(a, :v)",
            ),
            (Operator::In, 2, "a IN (:v, :w)"),
            (Operator::Between, 2, "a BETWEEN :v AND :w"),
        ] {
            let mut placeholders = dynotable_expr::Placeholders::new(None, Some(values.clone())).unwrap();
            let expression = placeholders
                .condition(dynotable_expr::ExpressionKind::Condition, text)
                .unwrap();
            let legacy = Comparison::new("a", operator, values.values().take(count).cloned().collect())
                .unwrap()
                .to_condition();
            assert_eq!(legacy, expression, "{text}");
        }
        let mut placeholders =
            dynotable_expr::Placeholders::new(None, Some([(":v".to_owned(), s("ab"))].into())).unwrap();
        let expression = placeholders
            .condition(dynotable_expr::ExpressionKind::Condition, "begins_with(a, :v)")
            .unwrap();
        let legacy = Comparison::new("a", Operator::BeginsWith, vec![s("ab")])
            .unwrap()
            .to_condition();
        assert_eq!(legacy, expression);
    }

    #[test]
    fn not_contains_needs_the_attribute() {
        let condition = Comparison::new("a", Operator::NotContains, vec![s("x")])
            .unwrap()
            .to_condition();
        assert!(!condition.evaluate(Some(&dynotable_types::Item::new())));
        let item = dynotable_types::Item::from([("a".to_owned(), s("abc"))]);
        assert!(condition.evaluate(Some(&item)));
    }
}
