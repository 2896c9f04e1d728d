//! AWS CLI: one `aws dynamodb query|scan` command for a POSIX shell.
//!
//! The CLI pages by itself (it follows `LastEvaluatedKey` until the end and prints one merged
//! `Items` list), so the request's `Limit` becomes `--page-size` — the CLI's name for the
//! per-request limit — and no `--max-items` is given. Every argument is single-quoted for the
//! shell; maps are passed as compact DynamoDB JSON.
//!
//! Binary values are base64 in DynamoDB JSON, which AWS CLI v2 decodes (its default
//! `cli_binary_format` is `base64`) while v1 sends the base64 text itself as the bytes — a
//! silently different value. A command with binary values therefore names
//! `--cli-binary-format base64`: v2 runs it as meant, v1 refuses the unknown option instead of
//! comparing against the wrong bytes. Without binary values the command is the same for both.

use dynotable_types::AttributeValue;
use serde_json::json;

use crate::request::{GeneratedRequest, ReadOperation};

/// `'text'` for a POSIX shell: a single quote inside becomes `'\''`.
pub(super) fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn has_binary(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::B(_) | AttributeValue::BS(_) => true,
        AttributeValue::M(map) => map.values().any(has_binary),
        AttributeValue::L(list) => list.iter().any(has_binary),
        _ => false,
    }
}

pub(crate) fn export(request: &GeneratedRequest) -> String {
    let operation = match request.operation {
        ReadOperation::Query => "query",
        ReadOperation::Scan => "scan",
    };
    let mut args: Vec<String> = vec![format!("--table-name {}", shell_quoted(&request.table_name))];
    if let Some(index) = &request.index_name {
        args.push(format!("--index-name {}", shell_quoted(index)));
    }
    let mut text = |flag: &str, value: &Option<String>| {
        if let Some(value) = value {
            args.push(format!("{flag} {}", shell_quoted(value)));
        }
    };
    text("--key-condition-expression", &request.key_condition_expression);
    text("--filter-expression", &request.filter_expression);
    text("--projection-expression", &request.projection_expression);
    if let Some(names) = &request.expression_attribute_names {
        args.push(format!(
            "--expression-attribute-names {}",
            shell_quoted(&json!(names).to_string())
        ));
    }
    if let Some(values) = &request.expression_attribute_values {
        args.push(format!(
            "--expression-attribute-values {}",
            shell_quoted(&json!(values).to_string())
        ));
    }
    if request.scan_index_forward == Some(false) {
        args.push("--no-scan-index-forward".into());
    }
    if let Some(limit) = request.limit {
        args.push(format!("--page-size {limit}"));
    }
    if request.consistent_read == Some(true) {
        args.push("--consistent-read".into());
    }
    if let Some(capacity) = request.return_consumed_capacity {
        args.push(format!("--return-consumed-capacity {}", capacity.as_str()));
    }
    let binary = request
        .expression_attribute_values
        .iter()
        .flat_map(|values| values.values())
        .any(has_binary);
    if binary {
        args.push("--cli-binary-format base64".into());
    }
    args.push("--output json".into());
    let mut out = String::from("#!/bin/sh\n");
    out.push_str(
        "# Reads every page: the AWS CLI follows LastEvaluatedKey and prints all items as one list.\n",
    );
    if binary {
        out.push_str("# AWS CLI v2: binary values are given in base64 (CLI v1 cannot pass them inline).\n");
    }
    out.push_str(&format!("aws dynamodb {operation}"));
    for arg in args {
        out.push_str(" \\\n    ");
        out.push_str(&arg);
    }
    out.push('\n');
    out
}
