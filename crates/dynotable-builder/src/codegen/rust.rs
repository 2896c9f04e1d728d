//! Rust, aws-sdk-dynamodb: a `main` on tokio that loads the shared config (`aws-config`), builds
//! the Query or Scan with the fluent builder, and reads every item through the SDK's paginator
//! (`into_paginator().items()`), printing each with `{:?}`; any error ends `main` with it.
//!
//! Dependencies of the program: `aws-config`, `aws-sdk-dynamodb`, `tokio` (macros, rt-multi-thread).

use dynotable_types::AttributeValue;

use crate::request::{GeneratedRequest, ReadOperation};

/// A Rust string literal (Rust's own escapes).
fn literal(text: &str) -> String {
    format!("\"{}\"", text.escape_default())
}

fn bytes(b: &[u8]) -> String {
    let parts: Vec<String> = b.iter().map(|byte| format!("0x{byte:02x}")).collect();
    format!("Blob::new(vec![{}])", parts.join(", "))
}

fn value(v: &AttributeValue) -> String {
    let strings = |items: Vec<String>| {
        let parts: Vec<String> = items
            .iter()
            .map(|s| format!("{}.to_string()", literal(s)))
            .collect();
        format!("vec![{}]", parts.join(", "))
    };
    match v {
        AttributeValue::S(s) => format!("AttributeValue::S({}.to_string())", literal(s)),
        AttributeValue::N(n) => format!("AttributeValue::N({}.to_string())", literal(&n.to_string())),
        AttributeValue::B(b) => format!("AttributeValue::B({})", bytes(b)),
        AttributeValue::BOOL(b) => format!("AttributeValue::Bool({b})"),
        AttributeValue::NULL => "AttributeValue::Null(true)".into(),
        AttributeValue::M(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("({}.to_string(), {})", literal(k), value(v)))
                .collect();
            format!("AttributeValue::M(HashMap::from([{}]))", parts.join(", "))
        }
        AttributeValue::L(list) => {
            let parts: Vec<String> = list.iter().map(value).collect();
            format!("AttributeValue::L(vec![{}])", parts.join(", "))
        }
        AttributeValue::SS(set) => format!("AttributeValue::Ss({})", strings(set.iter().cloned().collect())),
        AttributeValue::NS(set) => {
            format!(
                "AttributeValue::Ns({})",
                strings(set.iter().map(|n| n.to_string()).collect())
            )
        }
        AttributeValue::BS(set) => {
            let parts: Vec<String> = set.iter().map(|b| bytes(b)).collect();
            format!("AttributeValue::Bs(vec![{}])", parts.join(", "))
        }
    }
}

fn uses_blob(v: &AttributeValue) -> bool {
    match v {
        AttributeValue::B(_) | AttributeValue::BS(_) => true,
        AttributeValue::M(map) => map.values().any(uses_blob),
        AttributeValue::L(list) => list.iter().any(uses_blob),
        _ => false,
    }
}

fn uses_map(v: &AttributeValue) -> bool {
    match v {
        AttributeValue::M(_) => true,
        AttributeValue::L(list) => list.iter().any(uses_map),
        _ => false,
    }
}

pub(crate) fn export(request: &GeneratedRequest) -> String {
    let values: Vec<&AttributeValue> = request
        .expression_attribute_values
        .iter()
        .flat_map(|v| v.values())
        .collect();
    let mut types = Vec::new();
    if !values.is_empty() {
        types.push("AttributeValue");
    }
    if request.return_consumed_capacity.is_some() {
        types.push("ReturnConsumedCapacity");
    }
    let mut out = String::new();
    if values.iter().any(|v| uses_map(v)) {
        out.push_str("use std::collections::HashMap;\n");
    }
    out.push_str("use std::error::Error;\n\n");
    let mut uses = vec![
        "aws_config::BehaviorVersion".to_string(),
        "aws_sdk_dynamodb::Client".to_string(),
    ];
    if values.iter().any(|v| uses_blob(v)) {
        uses.push("aws_sdk_dynamodb::primitives::Blob".to_string());
    }
    match types.as_slice() {
        [] => {}
        [one] => uses.push(format!("aws_sdk_dynamodb::types::{one}")),
        many => uses.push(format!("aws_sdk_dynamodb::types::{{{}}}", many.join(", "))),
    }
    uses.sort();
    for path in uses {
        out.push_str(&format!("use {path};\n"));
    }
    out.push('\n');
    // A boxed error, not `aws_sdk_dynamodb::Error`: that one is large enough for clippy's
    // `result_large_err`, and the program is compiled and linted as it is (tests/Cargo.toml).
    out.push_str("#[tokio::main]\nasync fn main() -> Result<(), Box<dyn Error>> {\n");
    out.push_str("    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;\n");
    out.push_str("    let client = Client::new(&config);\n");
    let method = match request.operation {
        ReadOperation::Query => "query",
        ReadOperation::Scan => "scan",
    };
    out.push_str(&format!("    let mut items = client\n        .{method}()\n"));
    let mut call = |text: String| out.push_str(&format!("        .{text}\n"));
    call(format!("table_name({})", literal(&request.table_name)));
    for (name, value) in [
        ("index_name", &request.index_name),
        ("key_condition_expression", &request.key_condition_expression),
        ("filter_expression", &request.filter_expression),
        ("projection_expression", &request.projection_expression),
    ] {
        if let Some(value) = value {
            call(format!("{name}({})", literal(value)));
        }
    }
    for (k, v) in request.expression_attribute_names.iter().flatten() {
        call(format!(
            "expression_attribute_names({}, {})",
            literal(k),
            literal(v)
        ));
    }
    for (k, v) in request.expression_attribute_values.iter().flatten() {
        call(format!(
            "expression_attribute_values({}, {})",
            literal(k),
            value(v)
        ));
    }
    if let Some(forward) = request.scan_index_forward {
        call(format!("scan_index_forward({forward})"));
    }
    if let Some(limit) = request.limit {
        call(format!("limit({limit})"));
    }
    if request.consistent_read == Some(true) {
        call("consistent_read(true)".into());
    }
    if let Some(capacity) = request.return_consumed_capacity {
        let variant = match capacity.as_str() {
            "INDEXES" => "Indexes",
            "TOTAL" => "Total",
            _ => "None",
        };
        call(format!(
            "return_consumed_capacity(ReturnConsumedCapacity::{variant})"
        ));
    }
    call("into_paginator()".into());
    call("items()".into());
    call("send();".into());
    out.push_str("    while let Some(item) = items.next().await {\n");
    out.push_str("        println!(\"{:?}\", item?);\n");
    out.push_str("    }\n    Ok(())\n}\n");
    out
}
