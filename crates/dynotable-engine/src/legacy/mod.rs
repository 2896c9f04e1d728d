//! The legacy (pre-expression) parameters, translated onto the expression language.
//!
//! DynamoDB still serves the parameters it had before expressions: `AttributesToGet`,
//! `Expected` with `ConditionalOperator`, `KeyConditions`, `QueryFilter`, `ScanFilter` and
//! `AttributeUpdates`. The engine does not evaluate them itself. Each is checked with the
//! service's rules and messages, then translated into the *resolved* trees of `dynotable-expr`
//! that the expression parameters resolve to, so one evaluator runs both:
//!
//! | Legacy parameter | Becomes | As if written |
//! |---|---|---|
//! | `AttributesToGet: [a, b]` | [`Projection`] | `ProjectionExpression: "#a, #b"` |
//! | `Expected: {a: {Value: v}}` | [`Condition`] | `a = :v` |
//! | `Expected: {a: {Exists: false}}` | [`Condition`] | `attribute_not_exists(a)` |
//! | `Expected`/`QueryFilter`/`ScanFilter` `{a: {ComparisonOperator, AttributeValueList}}` | [`Condition`] | see [`condition`] |
//! | several entries, `ConditionalOperator: OR` | [`Condition`] | `c1 OR c2 OR ...` (AND by default) |
//! | `KeyConditions` | [`KeyCondition`] | a KeyConditionExpression, with the same schema checks |
//! | `AttributeUpdates` | [`Update`] | `SET` / `REMOVE` / `ADD` / `DELETE` actions, see [`update`] |
//!
//! Attribute names in legacy parameters are always top-level attribute names: a dot is part of
//! the name, never a path separator (as with a `#name` placeholder).
//!
//! Mixing legacy and expression parameters in one request is refused with the service's
//! message ([`refuse_mixing`]). The messages are the service's where recorded (AWS API
//! Reference, "Condition", "ExpectedAttributeValue" and "AttributeValueUpdate"; where the
//! wording is not recorded, the choice is listed in `docs/compatibility.md`).
//!
//! [`Condition`]: dynotable_expr::Condition
//! [`KeyCondition`]: dynotable_expr::KeyCondition
//! [`Update`]: dynotable_expr::Update

pub(crate) mod condition;
#[cfg(test)]
mod golden_tests;
pub(crate) mod update;

use std::collections::BTreeSet;

use dynotable_expr::{DocumentPath, Projection};

use crate::ApiError;
use crate::shape::Shape;

/// The prefix of the service's messages about invalid parameter values.
pub(crate) const INVALID: &str = "One or more parameter values were invalid: ";

/// Refuses a request that uses legacy and expression parameters together, with the service's
/// message listing both (`Non-expression parameters: {Expected} Expression parameters:
/// {ConditionExpression}`).
pub(crate) fn refuse_mixing(legacy: &[(&str, bool)], expressions: &[(&str, bool)]) -> Result<(), ApiError> {
    let used = |params: &[(&str, bool)]| -> Vec<String> {
        params
            .iter()
            .filter(|(_, used)| *used)
            .map(|(name, _)| (*name).to_owned())
            .collect()
    };
    let (legacy, expressions) = (used(legacy), used(expressions));
    if legacy.is_empty() || expressions.is_empty() {
        return Ok(());
    }
    Err(ApiError::validation(format!(
        "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {{{}}} Expression parameters: {{{}}}",
        legacy.join(", "),
        expressions.join(", ")
    )))
}

/// Refuses a `ConditionalOperator` that has nothing to join, as the service does: without an
/// `Expected`, `QueryFilter` or `ScanFilter` (or with an empty one) it answers "ConditionalOperator
/// cannot be used without Filter or Expected"; with a single entry, "ConditionalOperator can only
/// be used when Filter or Expected has two or more elements". `entries` is the size of the map
/// the operator would join (`None` when the request has none). Checked after the mixing of legacy
/// and expression parameters and the placeholder maps given without an expression
/// (`params::ParameterUse`: dynalite's query.js and scan.js, run against the service, answer the
/// names sentence beside a ConditionalOperator with one filter entry); tests run against the
/// service record both messages bare.
pub(crate) fn check_conditional_operator(
    operator: Option<&str>,
    entries: Option<usize>,
) -> Result<(), ApiError> {
    if operator.is_none() {
        return Ok(());
    }
    match entries.unwrap_or(0) {
        0 => Err(ApiError::validation(
            "ConditionalOperator cannot be used without Filter or Expected",
        )),
        1 => Err(ApiError::validation(
            "ConditionalOperator can only be used when Filter or Expected has two or more elements",
        )),
        _ => Ok(()),
    }
}

/// The member constraints of `AttributesToGet` (one to 255 names).
pub(crate) fn shape_attributes_to_get(shape: &mut Shape, field: &str, names: Option<&Vec<String>>) {
    // API Reference: 1 to 255 names. The list is echoed as Java prints it: `[a, b]`.
    if let Some(names) = names {
        let rendered = format!("[{}]", names.join(", "));
        shape.list_length(field, &rendered, names.len(), 1, MAX_ATTRIBUTES_TO_GET);
    }
}

/// The most names `AttributesToGet` takes (API Reference, GetItem/Query/Scan/BatchGetItem).
const MAX_ATTRIBUTES_TO_GET: usize = 255;

/// The member constraint of `ConditionalOperator`.
pub(crate) fn shape_conditional_operator(shape: &mut Shape, value: Option<&String>) {
    // Rule B.15: the service lists OR first.
    shape.one_of("conditionalOperator", value, &["OR", "AND"]);
}

/// `AttributesToGet` as the projection it means: each name a top-level attribute. A name given
/// twice is refused (`Duplicate value in attribute name: a`).
pub(crate) fn attributes_to_get(names: &[String]) -> Result<Projection, ApiError> {
    let mut seen = BTreeSet::new();
    for name in names {
        if !seen.insert(name.as_str()) {
            return Err(ApiError::validation(format!(
                "{INVALID}Duplicate value in attribute name: {name}"
            )));
        }
    }
    Ok(Projection {
        paths: names.iter().map(DocumentPath::attribute).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixing_names_both_kinds_of_parameter() {
        let err = refuse_mixing(
            &[("AttributesToGet", true), ("QueryFilter", false)],
            &[("FilterExpression", true), ("ProjectionExpression", true)],
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {AttributesToGet} Expression parameters: {FilterExpression, ProjectionExpression}"
        );
        assert!(refuse_mixing(&[("Expected", true)], &[("ConditionExpression", false)]).is_ok());
    }

    #[test]
    fn conditional_operator_needs_two_entries() {
        let message = |entries| {
            check_conditional_operator(Some("OR"), entries)
                .unwrap_err()
                .message
        };
        assert_eq!(
            message(None),
            "ConditionalOperator cannot be used without Filter or Expected"
        );
        assert_eq!(
            message(Some(0)),
            "ConditionalOperator cannot be used without Filter or Expected"
        );
        assert_eq!(
            message(Some(1)),
            "ConditionalOperator can only be used when Filter or Expected has two or more elements"
        );
        assert!(check_conditional_operator(Some("AND"), Some(2)).is_ok());
        assert!(check_conditional_operator(None, Some(1)).is_ok());
    }

    #[test]
    fn attributes_to_get_is_a_projection_of_top_level_names() {
        let projection = attributes_to_get(&["a.b".into(), "c".into()]).unwrap();
        assert_eq!(projection.paths[0], DocumentPath::attribute("a.b"));
        assert_eq!(projection.paths.len(), 2);
        let err = attributes_to_get(&["a".into(), "a".into()]).unwrap_err();
        assert_eq!(
            err.message,
            "One or more parameter values were invalid: Duplicate value in attribute name: a"
        );
    }
}
