//! Golden scripts of the modeler (`tests/scripts/*`), one test per file. Refresh the expected
//! output with `UPDATE_GOLDENFILES=1 cargo test -p dynotable-modeler --test scripts`, then
//! review the diff.
//!
//! Commands (the model is the one loaded last; sample data is generated with `seed`, 7 unless
//! given):
//! - `model <name>`: loads `tests/models/<name>.json`.
//! - `set <json-pointer> '<json>'`: replaces a member of the model (`/-` at the end appends; a missing member is added).
//! - `validate`: `ok`, or the error's code, DynamoDB exception and message.
//! - `expand '<template>' [type=S|N|B] [<field>=<value>...]`: a template expanded with S values.
//! - `generate [seed=] [show=<n>]`: items per entity, the first `show` of each, and the
//!   largest collections of the table by item count.
//! - `collections [seed=] [top=<n>]`: each table and index: items, bytes, the largest collections.
//! - `growth table=<t> key='<json>' [seed=]`: one collection projected over time.
//! - `resolve [seed=] [pattern=<name>]`: each access pattern's resolution, as JSON.
//! - `take-suggestion pattern=<name> [seed=]`: applies the GSI suggested for the pattern.
//! - `partitions table=<t> rcu=<n> wcu=<n> [spread=uniform] [scale=<n>] [seed=]`: the map.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::PathBuf;

use dynotable_modeler::collections::{collections, growth};
use dynotable_modeler::generate::generate;
use dynotable_modeler::partitions::{Spread, TrafficModel, partition_map};
use dynotable_modeler::patterns::resolve;
use dynotable_modeler::suggest::apply;
use dynotable_modeler::template::Template;
use dynotable_modeler::validate::validate;
use dynotable_modeler::{Model, ModelError};
use dynotable_types::{AttributeValue, ScalarAttributeType};
use serde_json::Value;

#[derive(Default)]
struct Runner {
    model: Option<Value>,
}

fn error_line(e: &ModelError) -> String {
    let code = serde_json::to_value(e.code).unwrap_or_default();
    match &e.exception {
        Some(exception) => format!(
            "{} {exception}: {}\n",
            code.as_str().unwrap_or_default(),
            e.message
        ),
        None => format!("{}: {}\n", code.as_str().unwrap_or_default(), e.message),
    }
}

impl Runner {
    fn model(&self) -> Result<Model, Box<dyn Error>> {
        let value = self.model.clone().ok_or("no model loaded")?;
        Ok(serde_json::from_value(value)?)
    }
}

fn short(bytes: f64) -> String {
    format!("{bytes:.0}")
}

impl goldenscript::Runner for Runner {
    type Command = goldenscript::Command;

    fn run(
        &mut self,
        command: &goldenscript::Command,
        _: &goldenscript::Context,
    ) -> Result<String, Box<dyn Error>> {
        let mut args = command.consume_args();
        let seed: u64 = args.take_key("seed").unwrap_or("7").parse()?;
        let mut out = String::new();
        match command.name.as_str() {
            "model" => {
                let name = args.next_pos().ok_or("model needs a name")?.to_owned();
                let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("tests/models")
                    .join(format!("{name}.json"));
                self.model = Some(serde_json::from_str(&std::fs::read_to_string(path)?)?);
            }
            "set" => {
                let pointer = args.next_pos().ok_or("set needs a pointer")?.to_owned();
                let value: Value = serde_json::from_str(args.next_pos().ok_or("set needs a value")?)?;
                let model = self.model.as_mut().ok_or("no model loaded")?;
                if let Some(parent) = pointer.strip_suffix("/-") {
                    model
                        .pointer_mut(parent)
                        .and_then(Value::as_array_mut)
                        .ok_or("no such array")?
                        .push(value);
                } else if let Some(slot) = model.pointer_mut(&pointer) {
                    *slot = value;
                } else {
                    // A member the model left out (defaulted): added to its object.
                    let (parent, name) = pointer.rsplit_once('/').ok_or("no such member")?;
                    model
                        .pointer_mut(parent)
                        .and_then(Value::as_object_mut)
                        .ok_or("no such member")?
                        .insert(name.to_owned(), value);
                }
            }
            "validate" => {
                out = match self
                    .model()
                    .map_err(|e| e.to_string())
                    .and_then(|m| validate(&m).map_err(|e| error_line(&e)))
                {
                    Ok(()) => "ok\n".into(),
                    Err(line) => line,
                };
            }
            "expand" => {
                let text = args.next_pos().ok_or("expand needs a template")?.to_owned();
                let ty = match args.take_key("type").unwrap_or("S") {
                    "N" => ScalarAttributeType::N,
                    "B" => ScalarAttributeType::B,
                    _ => ScalarAttributeType::S,
                };
                let mut values: BTreeMap<String, AttributeValue> = BTreeMap::new();
                while let Some((key, value)) = args.next_key() {
                    values.insert(key.to_owned(), AttributeValue::S(value.to_owned()));
                }
                out = match Template::parse(&text).and_then(|t| t.expand(ty, &values).map(|v| (t, v))) {
                    Ok((t, v)) => format!(
                        "{} fields={:?} prefix={:?}\n",
                        serde_json::to_string(&v)?,
                        t.fields().collect::<Vec<_>>(),
                        t.prefix()
                    ),
                    Err(e) => error_line(&e),
                };
                return Ok(out);
            }
            "generate" => {
                let show: usize = args.take_key("show").unwrap_or("2").parse()?;
                let model = self.model()?;
                let sample = match generate(&model, seed) {
                    Ok(sample) => sample,
                    Err(e) => return Ok(error_line(&e)),
                };
                for made in &sample.entities {
                    out.push_str(&format!("{}: {} items\n", made.entity, made.items.len()));
                    for item in made.items.iter().take(show) {
                        out.push_str(&format!("  {}\n", serde_json::to_string(item)?));
                    }
                }
            }
            "collections" => {
                let top: usize = args.take_key("top").unwrap_or("3").parse()?;
                let model = self.model()?;
                let sample = generate(&model, seed)?;
                match collections(&model, &sample) {
                    Ok(all) => {
                        for target in all {
                            out.push_str(&format!(
                                "{}{} ({:?}): {} items, {} bytes, {} collections\n",
                                target.target.table,
                                target.target.index.map(|i| format!(".{i}")).unwrap_or_default(),
                                target.kind,
                                target.items,
                                target.bytes,
                                target.collections.len()
                            ));
                            for c in target.collections.iter().take(top) {
                                out.push_str(&format!(
                                    "  {} {} items {} bytes {:?}\n",
                                    serde_json::to_string(&c.key)?,
                                    c.items,
                                    c.bytes,
                                    c.entities
                                ));
                            }
                        }
                    }
                    Err(e) => out = error_line(&e),
                }
            }
            "growth" => {
                let table = args.take_key("table").ok_or("growth needs table=")?.to_owned();
                let key: AttributeValue =
                    serde_json::from_str(args.take_key("key").ok_or("growth needs key=")?)?;
                let model = self.model()?;
                let sample = generate(&model, seed)?;
                out = match growth(&model, &sample, &table, &key) {
                    Ok(g) => {
                        let mut text = format!(
                            "now {} bytes, +{} bytes/day, steady {}, limit {:?}, days to limit {:?}\n",
                            g.bytes_now,
                            short(g.bytes_per_day),
                            g.steady_bytes.map(short).unwrap_or_else(|| "none".into()),
                            g.limit_bytes,
                            g.days_to_limit
                        );
                        for (day, bytes) in g.points {
                            text.push_str(&format!("  day {day}: {} bytes\n", short(bytes)));
                        }
                        text
                    }
                    Err(e) => error_line(&e),
                };
            }
            "resolve" => {
                let only = args.take_key("pattern").map(str::to_owned);
                let model = self.model()?;
                let sample = generate(&model, seed)?;
                for pattern in model
                    .patterns
                    .iter()
                    .filter(|p| only.as_ref().is_none_or(|o| *o == p.name))
                {
                    match resolve(&model, &sample, pattern) {
                        Ok(r) => {
                            // The request body is text; shown as the JSON it is.
                            let mut shown = serde_json::to_value(&r)?;
                            shown["request"] = serde_json::from_str(&r.request)?;
                            out.push_str(&format!("{}\n", serde_json::to_string_pretty(&shown)?))
                        }
                        Err(e) => out.push_str(&error_line(&e)),
                    }
                }
            }
            "take-suggestion" => {
                let name = args
                    .take_key("pattern")
                    .ok_or("take-suggestion needs pattern=")?
                    .to_owned();
                let model = self.model()?;
                let sample = generate(&model, seed)?;
                let pattern = model
                    .patterns
                    .iter()
                    .find(|p| p.name == name)
                    .ok_or("no such pattern")?;
                let resolution = resolve(&model, &sample, pattern)?;
                let suggestion = resolution.suggestion.ok_or("the pattern has no suggestion")?;
                match apply(&model, &suggestion) {
                    Ok(next) => {
                        out = format!("added {} to {}\n", suggestion.index.name, suggestion.table);
                        self.model = Some(serde_json::to_value(next)?);
                    }
                    Err(e) => out = error_line(&e),
                }
            }
            "partitions" => {
                let table = args
                    .take_key("table")
                    .ok_or("partitions needs table=")?
                    .to_owned();
                let traffic = TrafficModel {
                    read_units_per_second: args.take_key("rcu").unwrap_or("0").parse()?,
                    write_units_per_second: args.take_key("wcu").unwrap_or("0").parse()?,
                    spread: if args.take_key("spread") == Some("uniform") {
                        Spread::Uniform
                    } else {
                        Spread::ByItems
                    },
                    scale: args.take_key("scale").unwrap_or("1").parse()?,
                };
                let model = self.model()?;
                let sample = generate(&model, seed)?;
                out = match partition_map(&model, &sample, &table, &traffic) {
                    Ok(map) => {
                        let mut text = format!(
                            "estimated {} (size {}, throughput {}), {} splits, {} partitions, hot keys {}\n",
                            map.estimated,
                            map.by_size,
                            map.by_throughput,
                            map.splits,
                            map.partitions.len(),
                            serde_json::to_string(&map.hot_keys)?
                        );
                        for p in &map.partitions {
                            text.push_str(&format!(
                                "  {}..{} {} collections {} bytes {:.1} RCU {:.1} WCU load {:.2}{}\n",
                                p.start,
                                p.end,
                                p.collections.len(),
                                short(p.bytes),
                                p.read_units,
                                p.write_units,
                                p.load,
                                if p.hot { " HOT" } else { "" }
                            ));
                        }
                        for note in map.notes {
                            text.push_str(&format!("note: {note}\n"));
                        }
                        text
                    }
                    Err(e) => error_line(&e),
                };
            }
            other => return Err(format!("unknown command {other}").into()),
        }
        args.reject_next()?;
        Ok(out)
    }
}

fn run_script(path: &std::path::Path) {
    goldenscript::run(&mut Runner::default(), path).expect("goldenscript failed")
}

test_each_file::test_each_path! { in "crates/dynotable-modeler/tests/scripts" => run_script }
