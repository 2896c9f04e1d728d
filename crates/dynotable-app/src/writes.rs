//! Write commands: put (create or replace) and delete one item, each written with a condition so
//! a concurrent change is detected instead of overwritten, and the validation the item editor
//! runs before anything is sent.
//!
//! - Create: `attribute_not_exists(<partition key>)` — fails if an item with that key exists.
//! - Replace and delete of an item the user saw: every attribute the user saw must still hold the
//!   value they saw (`#a = :a AND attribute_not_exists(#gone)`…), so an edit made elsewhere in the
//!   meantime surfaces as `CONDITION_FAILED` with DynamoDB's exception name.
//!
//! Every write first checks the profile is not read-only ([`crate::sessions::Session::writable`]).

use std::collections::HashMap;

use aws_sdk_dynamodb::types::{AttributeValue as Sdk, ReturnConsumedCapacity};
use dynotable_types::{ScalarAttributeType, SizeCheck};
use serde::Serialize;

use crate::dto::attribute::{item_to_engine, item_to_sdk};
use crate::dto::{ConsumedCapacity, Item, KeySchema, ScalarType};
use crate::reads::consumed_capacity;
use crate::{App, CommandError, ErrorCode};

/// Rule B.6 / service quotas: an expression may be at most 4 KB; past it the optimistic
/// condition keeps only the key's existence and the attributes the edit changes.
const EXPRESSION_LIMIT: usize = 4096;

/// What happened to the item before the write.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Expectation {
    /// The item must not exist yet (a new item).
    Absent,
    /// The item must still be exactly `original` in every attribute the user saw.
    Unchanged { original: Item },
    /// Write whatever is there.
    Anything,
}

/// The outcome of a write.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct WriteOutcome {
    pub consumed_capacity: Option<ConsumedCapacity>,
}

/// The outcome of an update: the item as it is now, and what the write cost.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UpdateOutcome {
    pub item: Option<Item>,
    pub consumed_capacity: Option<ConsumedCapacity>,
}

/// What the item editor shows before saving: the item's size against 400 KB and every problem.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ItemCheck {
    /// The item's size by DynamoDB's rules (rule B.1), when the values are valid.
    pub size_bytes: Option<u32>,
    /// The limit the size is measured against (400 KB).
    pub limit_bytes: u32,
    pub problems: Vec<ItemProblem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ItemProblem {
    /// The attribute it concerns, or "" for the whole item.
    pub path: String,
    pub message: String,
}

/// The item-size limit (rule B.1: 400 KB, names and values counted).
pub const ITEM_SIZE_LIMIT: u32 = 400 * 1024;

/// Checks an item by the engine's rules: each value (numbers, sets, empty keys), the key
/// attributes of `keys` (present, of the declared type), and the size.
pub fn check_item(item: &Item, keys: &KeySchema) -> ItemCheck {
    let mut problems = Vec::new();
    for (name, value) in item {
        if let Err(message) = value.to_engine() {
            problems.push(ItemProblem {
                path: name.clone(),
                message,
            });
        }
    }
    for key in std::iter::once(&keys.partition_key).chain(keys.sort_key.as_ref()) {
        let expected = match key.ty {
            ScalarType::S => ScalarAttributeType::S,
            ScalarType::N => ScalarAttributeType::N,
            ScalarType::B => ScalarAttributeType::B,
        };
        let problem = match item.get(&key.name).map(|v| v.to_engine()) {
            None => Some(format!("The key attribute {} is missing.", key.name)),
            Some(Err(_)) => None, // already reported above
            Some(Ok(value)) => match value.as_key_ref() {
                Some(k) if k.scalar_type() == expected && k.is_empty() => {
                    Some(format!("The key attribute {} cannot be empty.", key.name))
                }
                Some(k) if k.scalar_type() == expected => None,
                _ => Some(format!(
                    "The key attribute {} must be of type {}.",
                    key.name,
                    expected.as_str()
                )),
            },
        };
        if let Some(message) = problem {
            problems.push(ItemProblem {
                path: key.name.clone(),
                message,
            });
        }
    }
    let size_bytes = match item_to_engine(item) {
        Ok(engine_item) => match dynotable_types::check_item_size(&engine_item, SizeCheck::Write) {
            Ok(size) => u32::try_from(size).ok(),
            Err(err) => {
                problems.push(ItemProblem {
                    path: String::new(),
                    message: err.message(),
                });
                u32::try_from(dynotable_types::item_size(&engine_item)).ok()
            }
        },
        Err(_) => None,
    };
    ItemCheck {
        size_bytes,
        limit_bytes: ITEM_SIZE_LIMIT,
        problems,
    }
}

impl App {
    /// PutItem of `item` into `table`, with the condition `expect` asks for.
    pub async fn put_item(
        &self,
        profile_id: &str,
        table: &str,
        item: Item,
        expect: Expectation,
    ) -> Result<WriteOutcome, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        let check = check_item(&item, &keys);
        if let Some(problem) = check.problems.first() {
            let at = if problem.path.is_empty() {
                String::new()
            } else {
                format!(" ({})", problem.path)
            };
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!("{}{at}", problem.message),
            ));
        }
        let condition = Condition::of(&expect, &keys, Some(&item))?;
        let output = session
            .client
            .put_item()
            .table_name(table)
            .set_item(Some(item_to_sdk(&item).map_err(validation)?))
            .set_condition_expression(condition.expression)
            .set_expression_attribute_names(condition.names)
            .set_expression_attribute_values(condition.values)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(WriteOutcome {
            consumed_capacity: output.consumed_capacity().map(consumed_capacity),
        })
    }

    /// UpdateItem of the item with `key`: `update` is an UpdateExpression with its `names` and
    /// `values` (the builder writes them), applied under the condition `expect` asks for. The
    /// placeholders of the condition (`#k`, `#aN`, `:aN`) may not be used by the update. Returns
    /// the item as it is after the update.
    #[allow(clippy::too_many_arguments)]
    pub async fn update_item(
        &self,
        profile_id: &str,
        table: &str,
        key: Item,
        update: &str,
        names: std::collections::BTreeMap<String, String>,
        values: Item,
        expect: Expectation,
    ) -> Result<UpdateOutcome, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        let condition = Condition::of(&expect, &keys, None)?;
        let mut all_names: HashMap<String, String> = condition.names.unwrap_or_default();
        for (placeholder, name) in names {
            if all_names.insert(placeholder.clone(), name).is_some() {
                return Err(validation(format!(
                    "The update may not define {placeholder}: the condition that protects the item uses it."
                )));
            }
        }
        let mut all_values: HashMap<String, Sdk> = condition.values.unwrap_or_default();
        for (placeholder, value) in item_to_sdk(&values).map_err(validation)? {
            if all_values.insert(placeholder.clone(), value).is_some() {
                return Err(validation(format!(
                    "The update may not define {placeholder}: the condition that protects the item uses it."
                )));
            }
        }
        let output = session
            .client
            .update_item()
            .table_name(table)
            .set_key(Some(item_to_sdk(&key).map_err(validation)?))
            .update_expression(update)
            .set_condition_expression(condition.expression)
            .set_expression_attribute_names((!all_names.is_empty()).then_some(all_names))
            .set_expression_attribute_values((!all_values.is_empty()).then_some(all_values))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(UpdateOutcome {
            item: output.attributes().map(crate::dto::attribute::item_from_sdk),
            consumed_capacity: output.consumed_capacity().map(consumed_capacity),
        })
    }

    /// DeleteItem of the item with `key`, with the condition `expect` asks for.
    pub async fn delete_item(
        &self,
        profile_id: &str,
        table: &str,
        key: Item,
        expect: Expectation,
    ) -> Result<WriteOutcome, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        let condition = Condition::of(&expect, &keys, None)?;
        let output = session
            .client
            .delete_item()
            .table_name(table)
            .set_key(Some(item_to_sdk(&key).map_err(validation)?))
            .set_condition_expression(condition.expression)
            .set_expression_attribute_names(condition.names)
            .set_expression_attribute_values(condition.values)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(WriteOutcome {
            consumed_capacity: output.consumed_capacity().map(consumed_capacity),
        })
    }

    /// The editor's check of `item` for `table`'s key schema.
    pub async fn check_item(
        &self,
        profile_id: &str,
        table: &str,
        item: Item,
    ) -> Result<ItemCheck, CommandError> {
        let keys = self.key_schema_of(profile_id, table, None).await?;
        Ok(check_item(&item, &keys))
    }
}

fn validation(message: String) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

/// A ConditionExpression with its names and values.
#[derive(Debug, Default, PartialEq)]
struct Condition {
    expression: Option<String>,
    names: Option<HashMap<String, String>>,
    values: Option<HashMap<String, Sdk>>,
}

impl Condition {
    /// The condition for `expect`; `new_item` (for puts) narrows a too-long optimistic condition
    /// to the attributes the write changes.
    fn of(
        expect: &Expectation,
        keys: &KeySchema,
        new_item: Option<&Item>,
    ) -> Result<Condition, CommandError> {
        match expect {
            Expectation::Anything => Ok(Condition::default()),
            Expectation::Absent => Ok(Condition {
                expression: Some("attribute_not_exists(#k)".to_owned()),
                names: Some(HashMap::from([(
                    "#k".to_owned(),
                    keys.partition_key.name.clone(),
                )])),
                values: None,
            }),
            Expectation::Unchanged { original } => {
                let full = Condition::unchanged(original, keys, |_| true)?;
                if full
                    .expression
                    .as_ref()
                    .is_some_and(|e| e.len() <= EXPRESSION_LIMIT)
                {
                    return Ok(full);
                }
                // Too long for one expression: check the attributes the edit touches.
                Condition::unchanged(original, keys, |name| {
                    new_item.is_none_or(|item| item.get(name) != original.get(name))
                })
            }
        }
    }

    fn unchanged(
        original: &Item,
        keys: &KeySchema,
        include: impl Fn(&str) -> bool,
    ) -> Result<Condition, CommandError> {
        let mut names = HashMap::from([("#k".to_owned(), keys.partition_key.name.clone())]);
        let mut values = HashMap::new();
        let mut terms = vec!["attribute_exists(#k)".to_owned()];
        let is_key = |name: &str| {
            name == keys.partition_key.name || keys.sort_key.as_ref().is_some_and(|k| k.name == name)
        };
        for (i, (name, value)) in original.iter().enumerate() {
            if is_key(name) || !include(name) {
                continue;
            }
            names.insert(format!("#a{i}"), name.clone());
            values.insert(format!(":a{i}"), value.to_sdk().map_err(validation)?);
            terms.push(format!("#a{i} = :a{i}"));
        }
        Ok(Condition {
            expression: Some(terms.join(" AND ")),
            names: Some(names),
            values: (!values.is_empty()).then_some(values),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dto::{AttributeValue, KeyAttribute};

    fn keys() -> KeySchema {
        KeySchema {
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
            partition_key: KeyAttribute {
                name: "vehicleId".into(),
                ty: ScalarType::S,
            },
            sort_key: Some(KeyAttribute {
                name: "recordedAt".into(),
                ty: ScalarType::S,
            }),
        }
    }

    fn item(json: &str) -> Item {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_valid_item_reports_its_size_and_no_problem() {
        let check = check_item(
            &item(r#"{"vehicleId":{"S":"VEH#1"},"recordedAt":{"S":"TS#1"},"speed":{"N":"42"}}"#),
            &keys(),
        );
        assert_eq!(check.problems, []);
        // 9+5 + 10+4 + 5+ (2 digits → 1 + 1 byte) = 35 (rule B.1)
        assert_eq!(check.size_bytes, Some(9 + 5 + 10 + 4 + 5 + 2));
    }

    #[test]
    fn missing_or_mistyped_keys_and_bad_values_are_each_reported_at_their_attribute() {
        let check = check_item(&item(r#"{"vehicleId":{"N":"1"},"speed":{"N":"fast"}}"#), &keys());
        let paths: Vec<&str> = check.problems.iter().map(|p| p.path.as_str()).collect();
        assert_eq!(
            paths,
            ["speed", "vehicleId", "recordedAt"],
            "{:?}",
            check.problems
        );
        assert!(check.problems[1].message.contains("type S"));
        assert!(check.problems[2].message.contains("missing"));
        assert_eq!(check.size_bytes, None);
    }

    #[test]
    fn an_item_over_400_kb_is_refused_with_the_service_message() {
        let big = "x".repeat(ITEM_SIZE_LIMIT as usize);
        let mut oversized = item(r#"{"vehicleId":{"S":"V"},"recordedAt":{"S":"T"}}"#);
        oversized.insert("blob".into(), AttributeValue::S(big));
        let check = check_item(&oversized, &keys());
        assert_eq!(check.problems.len(), 1);
        assert!(
            check.problems[0].message.contains("maximum allowed size"),
            "{:?}",
            check.problems
        );
        assert!(check.size_bytes.unwrap() > ITEM_SIZE_LIMIT);
    }

    #[test]
    fn an_unchanged_expectation_checks_every_seen_attribute_but_the_keys() {
        let original =
            item(r#"{"vehicleId":{"S":"V"},"recordedAt":{"S":"T"},"speed":{"N":"1"},"tags":{"SS":["a"]}}"#);
        let condition = Condition::of(
            &Expectation::Unchanged {
                original: original.clone(),
            },
            &keys(),
            None,
        )
        .unwrap();
        assert_eq!(
            condition.expression.as_deref(),
            Some("attribute_exists(#k) AND #a1 = :a1 AND #a2 = :a2")
        );
        assert_eq!(condition.names.unwrap()["#a2"], "tags");
    }

    #[test]
    fn a_too_long_condition_narrows_to_the_changed_attributes() {
        let mut original = item(r#"{"vehicleId":{"S":"V"},"recordedAt":{"S":"T"}}"#);
        for i in 0..400 {
            original.insert(format!("attribute{i:03}"), AttributeValue::N(i.to_string()));
        }
        let mut edited = original.clone();
        edited.insert("attribute007".into(), AttributeValue::N("700".into()));
        let condition = Condition::of(&Expectation::Unchanged { original }, &keys(), Some(&edited)).unwrap();
        let expression = condition.expression.unwrap();
        assert!(expression.len() <= EXPRESSION_LIMIT);
        assert_eq!(condition.names.unwrap().len(), 2, "{expression}");
    }
}
