//! The model's tables as infrastructure code: the CreateTable requests, a CloudFormation
//! template, an AWS CDK (TypeScript) stack and Terraform `aws_dynamodb_table` resources, plus
//! NoSQL Workbench's data-model JSON ([`workbench`], import too).
//!
//! Every renderer starts from the same [`crate::model::TableModel`] and says the same thing:
//! keys with their types, billing, GSIs with their projections and (provisioned) capacity,
//! LSIs. Output is deterministic: golden files under `tests/exports/` pin each format, and
//! `tests/blackbox/test_modeler_exports.py` checks the CloudFormation with `cfn-lint` and
//! parses the Terraform with `python-hcl2`.

pub mod cdk;
pub mod cloudformation;
pub mod create_table;
pub mod terraform;
pub mod workbench;

/// An identifier made of the letters and digits of `text`, each word capitalised
/// (`Customer-Orders` → `CustomerOrders`), never starting with a digit.
pub(crate) fn pascal(text: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(if upper { c.to_ascii_uppercase() } else { c });
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "Table");
    }
    out
}

/// `pascal` with a lower-case first letter (a TypeScript variable).
pub(crate) fn camel(text: &str) -> String {
    let pascal = pascal(text);
    let mut chars = pascal.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => pascal,
    }
}

/// A Terraform resource name: lower-case letters, digits and underscores.
pub(crate) fn snake(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            previous_lower = false;
        }
    }
    let out = out.trim_end_matches('_').to_owned();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("table_{out}")
    } else {
        out
    }
}
