//! Golden tests: each file in `tests/scripts/` is a goldenscript run by [`Runner`], and each
//! exported program is a golden file under `tests/codegen/<case>/`.
//! Refresh both with `UPDATE_GOLDENFILES=1 cargo test -p dynotable-builder --test scripts`.
//!
//! Builder states and requests are written as the UI sends them (JSON, paths as arrays, values
//! in DynamoDB JSON). Commands:
//! - `schema pk:S,sk:N` / `schema none`: the key schema key conditions are checked against.
//! - `generate '<ExpressionState>'`: the expression text, its names and values, DynamoDB's
//!   verdict on them (`check: ok` or the ValidationException), and whether parsing the text
//!   back gives the same state (`round trip: same`).
//! - `parse <Parameter> "<text>" [names='<json>'] [values='<json>']`: the state the text turns
//!   into, or the ValidationException with its byte span.
//! - `check [<Parameter>="<text>" ...] [names=..] [values=..]`: every diagnostic of a request.
//! - `wide in|and|set|name|text <n>`: a large generated state, its size and DynamoDB's verdict
//!   (the limits of Rule B.7).
//! - `typed [<Parameter>="<text>" ...] [names=..] [values=..]`: a whole typed request turned
//!   into builder states, placeholders shared across its expressions.
//! - `operators S|N|B`: the sort-key operators offered for a key of that type.
//! - `request <case> '<ReadRequest>'`: the DynamoDB JSON body, the verdict, and the programs
//!   for every target, compared with (or, refreshing, written to) `tests/codegen/<case>/`.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

use dynotable_builder::codegen::{CodeTarget, export};
use dynotable_builder::{
    Diagnostic, ExpressionParameter, ExpressionState, ExpressionText, KeyAttribute, KeySchemaState, KeyType,
    ReadRequest, TypedRequest, check_request, generate_request, parse, sort_key_operators,
};
use dynotable_types::AttributeValue;

#[derive(Default)]
struct Runner {
    schema: Option<KeySchemaState>,
}

fn key_type(text: &str) -> Result<KeyType, Box<dyn Error>> {
    Ok(match text {
        "S" => KeyType::S,
        "N" => KeyType::N,
        "B" => KeyType::B,
        other => return Err(format!("key type {other} is not S, N or B").into()),
    })
}

fn schema(text: &str) -> Result<Option<KeySchemaState>, Box<dyn Error>> {
    if text == "none" {
        return Ok(None);
    }
    let mut keys = text.split(',').map(|part| {
        let (name, t) = part.split_once(':').ok_or("schema element is name:type")?;
        Ok::<_, Box<dyn Error>>(KeyAttribute {
            name: name.to_string(),
            key_type: key_type(t)?,
        })
    });
    Ok(Some(KeySchemaState {
        more_partition_keys: Vec::new(),
        more_sort_keys: Vec::new(),
        partition_key: keys.next().ok_or("schema is empty")??,
        sort_key: keys.next().transpose()?,
    }))
}

fn parameter(name: &str) -> Result<ExpressionParameter, Box<dyn Error>> {
    Ok(serde_json::from_value(serde_json::Value::String(
        name.to_string(),
    ))?)
}

fn show(diagnostic: &Diagnostic) -> String {
    let mut out = format!("{}: {}", diagnostic.exception, diagnostic.message);
    if let Some(span) = diagnostic.span {
        let _ = write!(out, " @{}..{}", span.start, span.end);
    }
    out
}

fn write_maps(
    out: &mut String,
    names: &Option<BTreeMap<String, String>>,
    values: &Option<BTreeMap<String, AttributeValue>>,
) -> Result<(), Box<dyn Error>> {
    for (key, name) in names.iter().flatten() {
        writeln!(out, "{key} = {name:?}")?;
    }
    for (key, value) in values.iter().flatten() {
        writeln!(out, "{key} = {}", serde_json::to_string(value)?)?;
    }
    Ok(())
}

fn write_diagnostics(out: &mut String, diagnostics: &[Diagnostic]) -> Result<(), Box<dyn Error>> {
    if diagnostics.is_empty() {
        writeln!(out, "check: ok")?;
    }
    for diagnostic in diagnostics {
        writeln!(out, "check: {}", show(diagnostic))?;
    }
    Ok(())
}

fn codegen_dir(case: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/codegen")
        .join(case)
}

/// Compares `text` with the golden file, or writes it when refreshing.
fn golden_file(out: &mut String, case: &str, file: &str, text: &str) -> Result<(), Box<dyn Error>> {
    let path = codegen_dir(case).join(file);
    if std::env::var_os("UPDATE_GOLDENFILES").is_some() {
        std::fs::create_dir_all(codegen_dir(case))?;
        std::fs::write(&path, text)?;
    } else {
        let expected = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if expected != text {
            return Err(format!(
                "{} differs from the generated code (refresh with UPDATE_GOLDENFILES=1):\n{text}",
                path.display()
            )
            .into());
        }
    }
    writeln!(out, "{case}/{file}: {} lines", text.lines().count())?;
    Ok(())
}

/// Large states for the limits: `in n` (IN with n values), `and n` (n comparisons),
/// `set n` (n SET actions), `name n` (a name of n bytes), `text n` (a bare name of n bytes).
fn wide(shape: &str, n: usize) -> Result<ExpressionState, Box<dyn Error>> {
    use dynotable_builder::{
        AttributePath, Comparator, ConditionState, Operand, ProjectionState, SetValueState,
        UpdateActionState, UpdateOperandState, UpdateState,
    };
    let number = |i: usize| AttributeValue::N(i.to_string().parse().expect("a number"));
    let compare = |name: String, i: usize| {
        ConditionState::compare(AttributePath::attribute(name), Comparator::Eq, number(i))
    };
    Ok(match shape {
        "in" => ExpressionState::FilterExpression(ConditionState::In {
            operand: Operand::path(AttributePath::attribute("a")),
            list: (0..n).map(|i| Operand::value(number(i))).collect(),
        }),
        "and" => ExpressionState::FilterExpression(ConditionState::And {
            conditions: (0..n).map(|i| compare(format!("a{i}"), i)).collect(),
        }),
        "set" => ExpressionState::UpdateExpression(UpdateState {
            actions: (0..n)
                .map(|i| UpdateActionState::Set {
                    path: AttributePath::attribute(format!("a{i}")),
                    value: SetValueState::Operand {
                        operand: UpdateOperandState::Value { value: number(i) },
                    },
                })
                .collect(),
        }),
        "name" => ExpressionState::ProjectionExpression(ProjectionState {
            paths: vec![AttributePath::attribute(format!("-{}", "x".repeat(n - 1)))],
        }),
        "text" => ExpressionState::ProjectionExpression(ProjectionState {
            paths: vec![AttributePath::attribute("x".repeat(n))],
        }),
        other => return Err(format!("unknown shape {other}").into()),
    })
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
            "schema" => {
                self.schema = schema(args.next_pos().ok_or("schema missing")?)?;
                args.reject_next()?;
            }
            "operators" => {
                let t = key_type(args.next_pos().ok_or("key type missing")?)?;
                args.reject_next()?;
                writeln!(out, "{}", serde_json::to_string(&sort_key_operators(t))?)?;
            }
            "generate" => {
                let state: ExpressionState = serde_json::from_str(args.next_pos().ok_or("state missing")?)?;
                args.reject_next()?;
                let (texts, attributes, diagnostics) =
                    match generate_request(std::slice::from_ref(&state), self.schema.as_ref()) {
                        Ok(generated) => generated,
                        Err(error) => return Ok(format!("build error: {error}\n")),
                    };
                let text = &texts[0];
                writeln!(
                    out,
                    "{}: {}",
                    serde_json::to_value(text.parameter)?.as_str().unwrap_or(""),
                    text.text
                )?;
                write_maps(&mut out, &attributes.names(), &attributes.values())?;
                write_diagnostics(&mut out, &diagnostics)?;
                let parsed = parse(
                    text.parameter,
                    &text.text,
                    attributes.names(),
                    attributes.values(),
                    self.schema.as_ref(),
                );
                match parsed {
                    Ok(back) if back.normalised() == state.normalised() => writeln!(out, "round trip: same")?,
                    Ok(back) => writeln!(out, "round trip: differs: {}", serde_json::to_string(&back)?)?,
                    Err(diagnostic) => writeln!(out, "round trip: {}", show(&diagnostic))?,
                }
            }
            "parse" => {
                let parameter = parameter(args.next_pos().ok_or("parameter missing")?)?;
                let text = args.next_pos().ok_or("text missing")?;
                let names = args.take_key("names").map(serde_json::from_str).transpose()?;
                let values = args.take_key("values").map(serde_json::from_str).transpose()?;
                args.reject_next()?;
                match parse(parameter, text, names, values, self.schema.as_ref()) {
                    Ok(state) => writeln!(out, "{}", serde_json::to_string(&state)?)?,
                    Err(diagnostic) => writeln!(out, "{}", show(&diagnostic))?,
                }
            }
            "check" => {
                let names = args.take_key("names").map(serde_json::from_str).transpose()?;
                let values = args.take_key("values").map(serde_json::from_str).transpose()?;
                let mut expressions = Vec::new();
                while let Some((key, text)) = args.next_key() {
                    expressions.push(ExpressionText {
                        parameter: parameter(key)?,
                        text: text.to_string(),
                    });
                }
                args.reject_next()?;
                let diagnostics = check_request(&expressions, names, values, self.schema.as_ref());
                write_diagnostics(&mut out, &diagnostics)?;
            }
            "typed" => {
                let names = args.take_key("names").map(serde_json::from_str).transpose()?;
                let values = args.take_key("values").map(serde_json::from_str).transpose()?;
                let mut expressions = Vec::new();
                while let Some((key, text)) = args.next_key() {
                    expressions.push(ExpressionText {
                        parameter: parameter(key)?,
                        text: text.to_string(),
                    });
                }
                args.reject_next()?;
                let typed = TypedRequest {
                    expressions,
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                };
                match typed.parse(self.schema.as_ref()) {
                    Ok(states) => {
                        for state in states {
                            writeln!(out, "{}", serde_json::to_string(&state)?)?;
                        }
                    }
                    Err(diagnostics) => write_diagnostics(&mut out, &diagnostics)?,
                }
            }
            "request" => {
                let case = args.next_pos().ok_or("case name missing")?;
                let request: ReadRequest = serde_json::from_str(args.next_pos().ok_or("request missing")?)?;
                args.reject_next()?;
                let generated = match request.generate() {
                    Ok(generated) => generated,
                    Err(error) => return Ok(format!("build error: {error}\n")),
                };
                let body = serde_json::to_string_pretty(&generated.to_json())? + "\n";
                out.push_str(&body);
                write_diagnostics(
                    &mut out,
                    &request.check(self.schema.as_ref()).map_err(|e| e.message)?,
                )?;
                golden_file(&mut out, case, "request.json", &body)?;
                for target in CodeTarget::ALL {
                    let file = format!("{}.{}", target.name(), target.extension());
                    golden_file(&mut out, case, &file, &export(&generated, target))?;
                }
            }
            "wide" => {
                let shape = args.next_pos().ok_or("shape missing")?;
                let n: usize = args.next_pos().ok_or("count missing")?.parse()?;
                args.reject_next()?;
                let state = wide(shape, n)?;
                let (texts, attributes, diagnostics) =
                    generate_request(std::slice::from_ref(&state), None).map_err(|e| e.message)?;
                let longest_key = attributes
                    .expression_attribute_names
                    .keys()
                    .chain(attributes.expression_attribute_values.keys())
                    .map(String::len)
                    .max()
                    .unwrap_or(0);
                writeln!(
                    out,
                    "{} bytes, {} names, {} values, longest placeholder {longest_key} bytes",
                    texts[0].text.len(),
                    attributes.expression_attribute_names.len(),
                    attributes.expression_attribute_values.len()
                )?;
                write_diagnostics(&mut out, &diagnostics)?;
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
    placeholders,
    key_condition,
    condition,
    update,
    projection,
    text_mode,
    checks,
    requests
);
