//! Golden tests: each file in `tests/scripts/` is a goldenscript run by [`Runner`].
//! Refresh the expected output with `UPDATE_GOLDENFILES=1 cargo test -p dynotable-expr`.
//!
//! Values and items are written in DynamoDB JSON; output uses the crate's compact notation
//! (`{S:"x"}`, `{N:5}`, `{L:[...]}`). Errors print as `ValidationException: <message> @<span>`.
//!
//! Commands (`kind` is condition | filter | key | projection | update):
//! - `lex "<expr>"`: the tokens with their byte spans.
//! - `parse <kind> "<expr>" [spans=true] [quiet=true]`: the syntax tree, then `=>` the tree
//!   printed back (with `quiet=true`, just `parsed`).
//! - `names '<json>'`, `values '<json>'`: the request's ExpressionAttributeNames / Values for
//!   the commands that follow (`names none` to drop the map).
//! - `resolve <kind> "<expr>" [schema=pk:S,sk:N]`: resolves one expression with fresh
//!   placeholders from those maps and prints the result (the unused check is not run).
//! - `request [update=..] [condition=..] [key=.. schema=..] [filter=..] [projection=..]`:
//!   resolves a whole request in the service's order, then checks for unused placeholders.
//! - `item '<json>'` / `item none`: the item the next commands read.
//! - `eval "<expr>"`: resolves a ConditionExpression and evaluates it against the item.
//! - `update "<expr>" [keys=pk,sk] [index=index1:c:S,...] [commit=true]`: resolves, checks the
//!   key attributes (and, with `index=`, the index key types the expression shows) and applies
//!   the update to the item (missing item: created from its key attributes, taken from
//!   `key='<json>'`), then checks the index key types of what it wrote; prints the new item, and
//!   with `commit=true` keeps it as the item.
//! - `keypaths <kind> "<expr>" keys=a,b [index=c,d]`: resolves one expression and checks that
//!   none of its paths goes below a key attribute of the table (`keys`) or of an index (`index`);
//!   prints `ok` or the error.
//! - `project "<expr>"`: resolves a ProjectionExpression and applies it to the item.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write as _;

use dynotable_expr::ast::Dump;
use dynotable_expr::display::value_text;
use dynotable_expr::key_paths::{IndexKeyAttribute, KeyNames, check_key_paths};
use dynotable_expr::{ExpressionKind, KeyElement, KeySchema, Placeholders, lexer, parser};
use dynotable_types::{AttributeValue, Item, ScalarAttributeType};

#[derive(Default)]
struct Runner {
    names: Option<BTreeMap<String, String>>,
    values: Option<BTreeMap<String, AttributeValue>>,
    item: Option<Item>,
}

fn kind(name: &str) -> Result<ExpressionKind, Box<dyn Error>> {
    Ok(match name {
        "condition" => ExpressionKind::Condition,
        "filter" => ExpressionKind::Filter,
        "key" => ExpressionKind::KeyCondition,
        "projection" => ExpressionKind::Projection,
        "update" => ExpressionKind::Update,
        other => return Err(format!("unknown expression kind {other}").into()),
    })
}

/// The attributes of one part of a key (partition or sort), with their types.
type KeyPart = Vec<(String, ScalarAttributeType)>;

/// `pk:S,sk:N`; a multi-attribute GSI key (Rule B.18) joins the attributes of each part with
/// `+`: `h1:S+h2:N,r1:S+r2:B`.
fn schema(text: &str) -> Result<Vec<KeyPart>, Box<dyn Error>> {
    text.split(',')
        .map(|part| {
            part.split('+')
                .map(|attribute| {
                    let (name, ty) = attribute.split_once(':').ok_or("schema element is name:type")?;
                    let ty = ScalarAttributeType::from_descriptor(ty).ok_or("schema type is S, N or B")?;
                    Ok((name.to_string(), ty))
                })
                .collect()
        })
        .collect()
}

/// The key elements of each part of a parsed schema: partition, then sort.
fn elements(parts: &[KeyPart]) -> Vec<Vec<KeyElement<'_>>> {
    parts
        .iter()
        .map(|part| {
            part.iter()
                .map(|(name, scalar_type)| KeyElement {
                    name,
                    scalar_type: *scalar_type,
                })
                .collect()
        })
        .collect()
}

/// One index key attribute of a script: its index, its name and its type.
type IndexKey = (String, String, ScalarAttributeType);

/// `index1:c:S,index2:d:N`: index key attributes with their index and type.
fn index_keys(text: &str) -> Result<Vec<IndexKey>, Box<dyn Error>> {
    text.split(',')
        .map(|entry| {
            let mut parts = entry.split(':');
            let (Some(index), Some(name), Some(ty), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err("index key is index:name:type".into());
            };
            let ty = ScalarAttributeType::from_descriptor(ty).ok_or("index key type is S, N or B")?;
            Ok((index.to_string(), name.to_string(), ty))
        })
        .collect()
}

fn key_schema<'a>(parts: &'a [Vec<KeyElement<'a>>]) -> Result<KeySchema<'a>, Box<dyn Error>> {
    let partition = parts.first().filter(|p| !p.is_empty()).ok_or("schema is empty")?;
    let sort = parts.get(1).map(Vec::as_slice).unwrap_or_default();
    Ok(KeySchema {
        partition: partition[0],
        sort: sort.first().copied(),
        more_partition: &partition[1..],
        more_sort: sort.get(1..).unwrap_or_default(),
    })
}

fn show_error(error: &dynotable_expr::Error) -> String {
    let mut out = format!("{}: {}", error.exception.name(), error.message);
    if let Some(span) = error.span {
        let _ = write!(out, " @{span}");
    }
    out.push('\n');
    out
}

fn show_item(item: &Item) -> String {
    if item.is_empty() {
        return "(empty item)\n".to_string();
    }
    item.iter()
        .map(|(name, value)| format!("{name}: {}\n", value_text(value)))
        .collect()
}

impl Runner {
    fn placeholders(&self) -> Result<Placeholders, dynotable_expr::Error> {
        Placeholders::new(self.names.clone(), self.values.clone())
    }

    /// Resolves one expression and prints it.
    fn resolve(
        placeholders: &mut Placeholders,
        kind: ExpressionKind,
        source: &str,
        schema: Option<&KeySchema<'_>>,
    ) -> Result<String, dynotable_expr::Error> {
        Ok(match kind {
            ExpressionKind::Update => placeholders
                .update(source)?
                .actions
                .iter()
                .map(|action| format!("{action}"))
                .collect::<Vec<_>>()
                .join("\n"),
            ExpressionKind::Projection => placeholders.projection(source)?.to_string(),
            ExpressionKind::KeyCondition => {
                let schema = schema.ok_or_else(|| dynotable_expr::Error::request("test: schema= missing"))?;
                let key = placeholders.key_condition(source, schema)?;
                let mut out = format!(
                    "partition {} = {}",
                    key.partition_key,
                    value_text(&key_value(&key.partition_value))
                );
                for (name, value) in &key.more_partition {
                    let _ = write!(out, "\npartition {name} = {}", value_text(&key_value(value)));
                }
                for (name, value) in &key.sort_equal {
                    let _ = write!(out, "\nsort {name} = {}", value_text(&key_value(value)));
                }
                if let Some((name, range)) = &key.sort {
                    let _ = write!(out, "\nsort {name} {range}");
                }
                out
            }
            kind => placeholders.condition(kind, source)?.to_string(),
        })
    }
}

fn key_value(value: &dynotable_types::KeyValue) -> AttributeValue {
    match value {
        dynotable_types::KeyValue::S(s) => AttributeValue::S(s.clone()),
        dynotable_types::KeyValue::N(n) => AttributeValue::N(*n),
        dynotable_types::KeyValue::B(b) => AttributeValue::B(b.clone()),
    }
}

impl goldenscript::Runner for Runner {
    type Command = goldenscript::Command;

    fn run(
        &mut self,
        command: &goldenscript::Command,
        _context: &goldenscript::Context,
    ) -> Result<String, Box<dyn Error>> {
        let mut out = String::new();
        let mut args = command.consume_args();
        match command.name.as_str() {
            "lex" => {
                let source = args.next_pos().ok_or("expression missing")?;
                args.reject_next()?;
                for token in lexer::tokenize(source) {
                    writeln!(
                        out,
                        "{} {:?} @{}",
                        token.kind.name(),
                        token.text(source),
                        token.span
                    )?;
                }
            }
            "parse" => {
                let kind = kind(args.next_pos().ok_or("kind missing")?)?;
                let source = args.next_pos().ok_or("expression missing")?;
                let spans = args.take_key("spans").is_some_and(|v| v == "true");
                let quiet = args.take_key("quiet").is_some_and(|v| v == "true");
                args.reject_next()?;
                let mut tree_text = String::new();
                let out_tree = &mut tree_text;
                let printed = match kind {
                    ExpressionKind::Projection => parser::parse_projection(source).map(|tree| {
                        out_tree.push_str(&tree.dump(spans));
                        tree.to_string()
                    }),
                    ExpressionKind::Update => parser::parse_update(source).map(|tree| {
                        out_tree.push_str(&tree.dump(spans));
                        tree.to_string()
                    }),
                    kind => parser::parse_condition(kind, source).map(|tree| {
                        out_tree.push_str(&tree.dump(spans));
                        tree.to_string()
                    }),
                };
                match printed {
                    Ok(_) if quiet => writeln!(out, "parsed")?,
                    Ok(printed) => {
                        out.push_str(&tree_text);
                        writeln!(out, "=> {printed}")?
                    }
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "names" => {
                let json = args.next_pos().ok_or("names missing")?;
                args.reject_next()?;
                self.names = if json == "none" {
                    None
                } else {
                    Some(serde_json::from_str(json)?)
                };
            }
            "values" => {
                let json = args.next_pos().ok_or("values missing")?;
                args.reject_next()?;
                self.values = if json == "none" {
                    None
                } else {
                    Some(serde_json::from_str(json)?)
                };
            }
            "item" => {
                let json = args.next_pos().ok_or("item missing")?;
                args.reject_next()?;
                self.item = if json == "none" {
                    None
                } else {
                    Some(serde_json::from_str(json)?)
                };
            }
            "resolve" => {
                let kind = kind(args.next_pos().ok_or("kind missing")?)?;
                let source = args.next_pos().ok_or("expression missing")?;
                let parts = args.take_key("schema").map(schema).transpose()?;
                args.reject_next()?;
                let elements = parts.as_deref().map(elements);
                let schema = elements.as_deref().map(key_schema).transpose()?;
                let result = self.placeholders().and_then(|mut placeholders| {
                    Runner::resolve(&mut placeholders, kind, source, schema.as_ref())
                });
                match result {
                    Ok(text) => writeln!(out, "{text}")?,
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "request" => {
                let parts = args.take_key("schema").map(schema).transpose()?;
                let elements = parts.as_deref().map(elements);
                let schema = elements.as_deref().map(key_schema).transpose()?;
                // The service's order: Update, Condition, KeyCondition, Filter, Projection.
                let order = [
                    ("update", "update"),
                    ("condition", "condition"),
                    ("key", "key"),
                    ("filter", "filter"),
                    ("projection", "projection"),
                ];
                let mut expressions = Vec::new();
                for (key, kind_name) in order {
                    if let Some(source) = args.take_key(key) {
                        expressions.push((kind(kind_name)?, source));
                    }
                }
                args.reject_next()?;
                let result = (|| {
                    let mut placeholders = self.placeholders()?;
                    let mut lines = Vec::new();
                    for (kind, source) in &expressions {
                        lines.push(format!(
                            "{kind}: {}",
                            Runner::resolve(&mut placeholders, *kind, source, schema.as_ref())?
                                .replace('\n', "; ")
                        ));
                    }
                    placeholders.check_unused()?;
                    Ok::<_, dynotable_expr::Error>(lines)
                })();
                match result {
                    Ok(lines) => lines.iter().try_for_each(|line| writeln!(out, "{line}"))?,
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "eval" => {
                let source = args.next_pos().ok_or("expression missing")?;
                args.reject_next()?;
                let result = self
                    .placeholders()
                    .and_then(|mut placeholders| placeholders.condition(ExpressionKind::Condition, source));
                match result {
                    Ok(condition) => writeln!(out, "{}", condition.evaluate(self.item.as_ref()))?,
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "update" => {
                let source = args.next_pos().ok_or("expression missing")?;
                let keys: Vec<String> = args
                    .take_key("keys")
                    .map(|k| k.split(',').map(str::to_string).collect())
                    .unwrap_or_default();
                let key: Item = match args.take_key("key") {
                    Some(json) => serde_json::from_str(json)?,
                    None => Item::new(),
                };
                let index = args
                    .take_key("index")
                    .map(index_keys)
                    .transpose()?
                    .unwrap_or_default();
                let commit = args.take_key("commit").is_some_and(|v| v == "true");
                args.reject_next()?;
                let index: Vec<IndexKeyAttribute<'_>> = index
                    .iter()
                    .map(|(index, name, ty)| IndexKeyAttribute { index, name, ty: *ty })
                    .collect();
                let result = self.placeholders().and_then(|mut placeholders| {
                    let update = placeholders.update(source)?;
                    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                    update.check_key_attributes(&keys)?;
                    update.check_index_key_types(&index)?;
                    let updated = update.apply(self.item.as_ref(), &key)?;
                    update.check_index_key_values(&updated, &index)?;
                    Ok(updated)
                });
                match result {
                    Ok(item) => {
                        out.push_str(&show_item(&item));
                        if commit {
                            self.item = Some(item);
                        }
                    }
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "keypaths" => {
                let kind = kind(args.next_pos().ok_or("kind missing")?)?;
                let source = args.next_pos().ok_or("expression missing")?;
                let split = |v: &str| v.split(',').map(str::to_string).collect::<Vec<_>>();
                let table = args.take_key("keys").map(split).unwrap_or_default();
                let index = args.take_key("index").map(split).unwrap_or_default();
                args.reject_next()?;
                let keys = KeyNames {
                    table: table.iter().map(String::as_str).collect(),
                    index: index.iter().map(String::as_str).collect(),
                };
                let result = self.placeholders().and_then(|mut placeholders| {
                    let paths: Vec<dynotable_expr::DocumentPath> = match kind {
                        ExpressionKind::Update => placeholders
                            .update(source)?
                            .all_paths()
                            .into_iter()
                            .cloned()
                            .collect(),
                        ExpressionKind::Projection => placeholders.projection(source)?.paths,
                        kind => placeholders
                            .condition(kind, source)?
                            .paths()
                            .into_iter()
                            .cloned()
                            .collect(),
                    };
                    check_key_paths(kind, &paths, &keys)
                });
                match result {
                    Ok(()) => writeln!(out, "ok")?,
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            "project" => {
                let source = args.next_pos().ok_or("expression missing")?;
                args.reject_next()?;
                let item = self.item.clone().unwrap_or_default();
                match self
                    .placeholders()
                    .and_then(|mut placeholders| placeholders.projection(source))
                {
                    Ok(projection) => out.push_str(&show_item(&projection.apply(&item))),
                    Err(error) => out.push_str(&show_error(&error)),
                }
            }
            name => return Err(format!("unknown command {name}").into()),
        }
        Ok(out)
    }
}

macro_rules! scripts {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scripts/", stringify!($name));
                goldenscript::run(&mut Runner::default(), path).expect("goldenscript failed");
            }
        )*
    };
}

scripts!(
    lex,
    parse_condition,
    parse_update,
    parse_projection,
    placeholders,
    resolve_condition,
    key_condition,
    resolve_update,
    resolve_projection,
    evaluate,
    apply_update,
    project,
    key_paths,
);
