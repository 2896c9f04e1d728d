//! Golden tests of the translation: each file in `src/legacy/golden/` is a goldenscript that
//! gives legacy parameters in DynamoDB JSON and prints the resolved tree they become (in the
//! expression language's printed form), or the error. Refresh with `UPDATE_GOLDENFILES=1
//! cargo test -p dynotable-engine --lib legacy`, then review the diff.
//!
//! Commands:
//! - `expected '<Expected>' [op=AND|OR]`: the write condition.
//! - `filter '<QueryFilter or ScanFilter>' [op=AND|OR]`: the filter.
//! - `key '<KeyConditions>' schema="pk:S[,sk:N]"`: the key condition.
//! - `updates '<AttributeUpdates>'`: the update's actions.
//! - `attributes '<AttributesToGet>'`: the projection.
//! - `item '<item>'` / `item none`: the item the next `eval` reads.
//! - `eval expected|filter '<json>' [op=..]`: translates, then evaluates against the item.
//! - `apply '<AttributeUpdates>'`: translates, then applies to the item (a missing item is
//!   created from `key='<item>'`) and keeps the result as the item.

use std::error::Error;

use dynotable_expr::{KeyElement, KeySchema};
use dynotable_types::{Item, ScalarAttributeType};

use crate::ApiError;

#[derive(Default)]
struct Runner {
    item: Option<Item>,
}

fn shown<T>(result: Result<T, ApiError>, show: impl FnOnce(T) -> String) -> String {
    match result {
        Ok(value) => format!("{}\n", show(value)),
        Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
    }
}

fn item_text(item: &Item) -> String {
    serde_json::to_string(item).unwrap_or_default()
}

fn element((name, scalar_type): &(String, ScalarAttributeType)) -> KeyElement<'_> {
    KeyElement {
        name,
        scalar_type: *scalar_type,
    }
}

/// `pk:S,sk:N`
fn schema(text: &str) -> Result<Vec<(String, ScalarAttributeType)>, Box<dyn Error>> {
    text.split(',')
        .map(|part| {
            let (name, ty) = part.split_once(':').ok_or("schema element is name:type")?;
            let ty = ScalarAttributeType::from_descriptor(ty).ok_or("schema type is S, N or B")?;
            Ok((name.to_owned(), ty))
        })
        .collect()
}

impl goldenscript::Runner for Runner {
    type Command = goldenscript::Command;

    fn run(
        &mut self,
        command: &goldenscript::Command,
        _: &goldenscript::Context,
    ) -> Result<String, Box<dyn Error>> {
        let mut args = command.consume_args();
        let name = command.name.as_str();
        let what = if matches!(name, "eval") {
            args.next_pos().ok_or("eval needs expected or filter")?.to_owned()
        } else {
            name.to_owned()
        };
        let json = args.next_pos().ok_or("the command needs JSON")?.to_owned();
        let op = args.take_key("op").map(str::to_owned);
        let op = op.as_deref();
        let schema_text = args.take_key("schema").map(str::to_owned);
        let key = args.take_key("key").map(str::to_owned);
        args.reject_next()?;
        if name == "item" {
            self.item = (json != "none")
                .then(|| serde_json::from_str(&json))
                .transpose()?;
            return Ok(String::new());
        }
        let condition = |what: &str| match what {
            "expected" => Ok(super::condition::expected(serde_json::from_str(&json)?, op)),
            "filter" => Ok(super::condition::filter(serde_json::from_str(&json)?, op)),
            other => Err(Box::<dyn Error>::from(format!("unknown condition kind {other}"))),
        };
        Ok(match name {
            "expected" | "filter" => shown(condition(name)?, |c| match c {
                Some(c) => c.to_string(),
                None => "(no condition)".into(),
            }),
            "eval" => {
                let item = self.item.as_ref();
                shown(condition(&what)?, |c| match c {
                    Some(c) => c.evaluate(item).to_string(),
                    None => "(no condition)".into(),
                })
            }
            "key" => {
                let elements = schema(schema_text.as_deref().ok_or("key needs schema=")?)?;
                let schema = KeySchema::simple(
                    elements.first().map(element).ok_or("schema is empty")?,
                    elements.get(1).map(element),
                );
                shown(
                    super::condition::key_condition(serde_json::from_str(&json)?, &schema),
                    |k| {
                        let partition =
                            dynotable_expr::display::value_text(&k.partition_value.clone().into());
                        match &k.sort {
                            Some((name, range)) => {
                                format!("{} = {partition} AND {name} {range}", k.partition_key)
                            }
                            None => format!("{} = {partition}", k.partition_key),
                        }
                    },
                )
            }
            "updates" => shown(super::update::update(serde_json::from_str(&json)?), |u| {
                let actions: Vec<String> = u.actions.iter().map(ToString::to_string).collect();
                actions.join(", ")
            }),
            "attributes" => {
                let names: Vec<String> = serde_json::from_str(&json)?;
                shown(super::attributes_to_get(&names), |p| p.to_string())
            }
            "apply" => {
                let key: Item = key
                    .as_deref()
                    .map(serde_json::from_str)
                    .transpose()?
                    .unwrap_or_default();
                let applied = super::update::update(serde_json::from_str(&json)?).and_then(|u| {
                    u.apply(self.item.as_ref(), &key)
                        .map_err(ApiError::from)
                        .map_err(super::update::type_mismatch)
                });
                match applied {
                    Ok(item) => {
                        let text = format!("{}\n", item_text(&item));
                        self.item = Some(item);
                        text
                    }
                    Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
                }
            }
            other => return Err(format!("unknown command {other}").into()),
        })
    }
}

fn run_script(path: &std::path::Path) {
    goldenscript::run(&mut Runner::default(), path).expect("goldenscript failed")
}

test_each_file::test_each_path! { in "crates/dynotable-engine/src/legacy/golden" => run_script }
