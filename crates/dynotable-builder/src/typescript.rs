//! TypeScript shapes (the `specta` feature) for the types of `dynotable-types` the model holds.
//!
//! `AttributeValue` travels as DynamoDB JSON but derives no `specta::Type`; fields of that type
//! are declared as [`AttributeValueJson`], an externally tagged enum whose serde form is exactly
//! DynamoDB JSON — `{ S: string } | { N: string } | { M: { [k: string]: ... } } | ...` — so the
//! UI gets a precise type without `dynotable-types` depending on specta.

use std::collections::BTreeMap;

/// One attribute value in DynamoDB JSON: numbers as strings, binary as base64.
#[derive(specta::Type, serde::Serialize, serde::Deserialize)]
#[allow(clippy::upper_case_acronyms, dead_code)]
pub enum AttributeValueJson {
    S(String),
    N(String),
    B(String),
    BOOL(bool),
    NULL(bool),
    M(BTreeMap<String, AttributeValueJson>),
    L(Vec<AttributeValueJson>),
    SS(Vec<String>),
    NS(Vec<String>),
    BS(Vec<String>),
}
