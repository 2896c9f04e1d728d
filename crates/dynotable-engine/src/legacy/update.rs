//! `AttributeUpdates` (legacy UpdateItem) checked and translated into the actions of a resolved
//! UpdateExpression, which the update evaluator applies (AWS API Reference,
//! "AttributeValueUpdate"):
//!
//! | Action | Value | Translation (`a` the attribute) |
//! |---|---|---|
//! | `PUT` (the default) | any | `SET a = :v` |
//! | `DELETE` | none | `REMOVE a` |
//! | `DELETE` | a set | `DELETE a :v` (a set left empty is removed) |
//! | `ADD` | a number or a set | `ADD a :v` (a missing attribute counts as 0 or the empty set) |
//! | `ADD` | a list | `SET a = list_append(if_not_exists(a, []), :v)` |
//!
//! On an item that does not exist, the update creates it as an UpdateExpression does. Checks,
//! in the service's order for each attribute: `PUT`/`ADD` without a value (`Only DELETE action
//! is allowed when no attribute value is specified`), `DELETE` with a value that is not a set
//! (`DELETE action with value is not supported for the type S`), `ADD` of another type (`ADD
//! action is not supported for the type S`). A key attribute cannot be updated (checked by
//! UpdateItem with the expression's check). A value of another type than the attribute's when
//! the update is applied is `Type mismatch for attribute to update` ([`type_mismatch`]).

use dynotable_expr::update::{SetValue, UpdateAction, UpdateOperand};
use dynotable_expr::{DocumentPath, Span, Update};
use dynotable_types::{AttributeType, AttributeValue};

use super::INVALID;
use crate::ApiError;
use crate::api::item::AttributeUpdates;
use crate::shape::Shape;

/// The update evaluator's message for operands of the wrong type, which the legacy API words
/// as [`TYPE_MISMATCH`].
const WRONG_TYPE: &str = "An operand in the update expression has an incorrect data type";
const TYPE_MISMATCH: &str = "Type mismatch for attribute to update";

/// The member constraints of `AttributeUpdates`: each Action one of the service's actions.
pub(crate) fn shape_updates(shape: &mut Shape, updates: Option<&AttributeUpdates>) {
    for (name, update) in updates.into_iter().flatten() {
        let member = format!("attributeUpdates.{name}.member.action");
        shape.one_of(&member, update.action.as_ref(), &["ADD", "DELETE", "PUT"]);
    }
}

/// `AttributeUpdates` as the update it means.
pub(crate) fn update(updates: AttributeUpdates) -> Result<Update, ApiError> {
    let mut actions = Vec::with_capacity(updates.len());
    for (name, update) in updates {
        let value = update.value.map(|c| c.into_result()).transpose()?;
        let path = DocumentPath::attribute(&name);
        let span = Span::default();
        let action = update.action.as_deref().unwrap_or("PUT");
        let refuse = |detail: String| Err(ApiError::validation(format!("{INVALID}{detail}")));
        let Some(value) = value else {
            if action != "DELETE" {
                return refuse("Only DELETE action is allowed when no attribute value is specified".into());
            }
            actions.push(UpdateAction::Remove { path, span });
            continue;
        };
        let t = value.attribute_type();
        let set = matches!(t, AttributeType::SS | AttributeType::NS | AttributeType::BS);
        actions.push(match action {
            "DELETE" if !set => {
                return refuse(format!(
                    "DELETE action with value is not supported for the type {}",
                    t.as_str()
                ));
            }
            "DELETE" => UpdateAction::Delete { path, value, span },
            "ADD" if t == AttributeType::L => {
                let existing = UpdateOperand::IfNotExists(
                    path.clone(),
                    Box::new(UpdateOperand::Value(AttributeValue::L(Vec::new()))),
                );
                UpdateAction::Set {
                    path,
                    value: SetValue::Operand(UpdateOperand::ListAppend(
                        Box::new(existing),
                        Box::new(UpdateOperand::Value(value)),
                    )),
                    span,
                }
            }
            "ADD" if set || t == AttributeType::N => UpdateAction::Add { path, value, span },
            "ADD" => {
                return refuse(format!("ADD action is not supported for the type {}", t.as_str()));
            }
            _ => UpdateAction::Set {
                path,
                value: SetValue::Operand(UpdateOperand::Value(value)),
                span,
            },
        });
    }
    Ok(Update { actions })
}

/// An error met applying a legacy update, in the legacy API's words.
pub(crate) fn type_mismatch(mut err: ApiError) -> ApiError {
    if err.message == WRONG_TYPE {
        err.message = TYPE_MISMATCH.to_owned();
    }
    err
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use dynotable_types::{Checked, Item};

    use super::*;
    use crate::api::item::AttributeValueUpdate;

    fn updates(entries: &[(&str, Option<&str>, Option<AttributeValue>)]) -> AttributeUpdates {
        entries
            .iter()
            .map(|(name, action, value)| {
                (
                    (*name).to_owned(),
                    AttributeValueUpdate {
                        value: value.clone().map(|v| Checked(Ok(v))),
                        action: action.map(str::to_owned),
                    },
                )
            })
            .collect::<BTreeMap<_, _>>()
    }

    #[test]
    fn actions_apply_as_the_legacy_api_says() {
        let n = |t: &str| AttributeValue::N(t.parse().unwrap());
        let update = update(updates(&[
            ("count", Some("ADD"), Some(n("2"))),
            ("gone", Some("DELETE"), None),
            ("list", Some("ADD"), Some(AttributeValue::L(vec![n("3")]))),
            ("name", None, Some(AttributeValue::S("x".into()))),
        ]))
        .unwrap();
        let old = Item::from([
            ("count".to_owned(), n("1")),
            ("gone".to_owned(), n("9")),
            ("list".to_owned(), AttributeValue::L(vec![n("1")])),
        ]);
        let new = update.apply(Some(&old), &Item::new()).unwrap();
        assert_eq!(new["count"], n("3"));
        assert!(!new.contains_key("gone"));
        assert_eq!(new["list"], AttributeValue::L(vec![n("1"), n("3")]));
        assert_eq!(new["name"], AttributeValue::S("x".into()));
    }

    /// One evaluator: each action translates to the actions its UpdateExpression resolves to
    /// (compared as printed: the expression's actions carry spans of its text).
    #[test]
    fn each_action_is_the_action_of_its_expression() {
        let n = |t: &str| AttributeValue::N(t.parse().unwrap());
        let set = AttributeValue::NS(dynotable_types::Set::new(vec!["1".parse().unwrap()]).unwrap());
        let list = AttributeValue::L(vec![n("1")]);
        for (action, value, text) in [
            (Some("PUT"), Some(n("1")), "SET a = :v"),
            (None, Some(n("1")), "SET a = :v"),
            (Some("DELETE"), None, "REMOVE a"),
            (Some("DELETE"), Some(set.clone()), "DELETE a :v"),
            (Some("ADD"), Some(n("1")), "ADD a :v"),
            (Some("ADD"), Some(set.clone()), "ADD a :v"),
            (
                Some("ADD"),
                Some(list.clone()),
                "SET a = list_append(if_not_exists(a, :empty), :v)",
            ),
        ] {
            let mut values = BTreeMap::from([(":empty".to_owned(), AttributeValue::L(Vec::new()))]);
            if let Some(value) = &value {
                values.insert(":v".to_owned(), value.clone());
            }
            let mut placeholders = dynotable_expr::Placeholders::new(None, Some(values)).unwrap();
            let expression = placeholders.update(text).unwrap();
            let legacy = update(updates(&[("a", action, value)])).unwrap();
            let printed = |u: &Update| u.actions.iter().map(ToString::to_string).collect::<Vec<_>>();
            assert_eq!(printed(&legacy), printed(&expression), "{text}");
        }
    }

    #[test]
    fn values_are_checked_against_the_action() {
        fn message(entries: &[(&str, Option<&str>, Option<AttributeValue>)]) -> String {
            update(updates(entries)).unwrap_err().message
        }
        assert_eq!(
            message(&[("a", Some("PUT"), None)]),
            "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified"
        );
        assert_eq!(
            message(&[("a", Some("DELETE"), Some(AttributeValue::S("x".into())))]),
            "One or more parameter values were invalid: DELETE action with value is not supported for the type S"
        );
        assert_eq!(
            message(&[("a", Some("ADD"), Some(AttributeValue::BOOL(true)))]),
            "One or more parameter values were invalid: ADD action is not supported for the type BOOL"
        );
    }
}
