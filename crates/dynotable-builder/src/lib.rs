//! DynamoDB's expressions and Query/Scan requests as plain data the UI edits, written out with
//! placeholders chosen automatically, parsed back from typed text, checked offline, and
//! exported as code that pages through every result.
//!
//! # Design
//!
//! - **State is plain data** ([`condition`], [`key_condition`], [`update`], [`request`]): serde
//!   types holding real attribute names, document paths (`["a", "b", 0]`) and typed
//!   `AttributeValue`s in DynamoDB JSON — never placeholders. With the `specta` feature the same
//!   types derive `specta::Type`, so the app can expose them as typed Tauri commands.
//! - **Writing** a state ([`expression::generate`], [`request::ReadRequest::generate`]) picks the
//!   placeholders ([`attributes`]): `#name` for every name DynamoDB cannot take bare (reserved
//!   words, a leading digit, any character outside `[A-Za-z0-9_]`), a typed `:value` for every
//!   value, named after the attribute, collisions numbered.
//! - **Reading** text back ([`expression::parse`]) and **checking** a request
//!   ([`expression::check_request`]) both run `dynotable-expr`, the parser and rule set the engine
//!   uses: one grammar, one set of DynamoDB messages and spans, no rule kept twice.
//! - **Exporting** ([`codegen`]) turns a [`request::GeneratedRequest`] into a program per SDK,
//!   one module per language.
//!
//! Headless: no Tauri, no AWS SDK (`scripts/check-headless.sh`).

pub mod attributes;
pub mod codegen;
pub mod condition;
pub mod error;
pub mod expression;
pub mod key_condition;
pub mod path;
pub mod request;
#[cfg(feature = "specta")]
pub mod typescript;
pub mod update;

pub use attributes::{ExpressionAttributes, is_bare_name};
pub use condition::{Comparator, ConditionState, Operand, TypeDescriptor};
pub use error::{BuildError, Diagnostic, ExpressionParameter, TextSpan};
pub use expression::{
    ExpressionState, ExpressionText, GeneratedExpression, TypedRequest, check_request, generate,
    generate_request, parse,
};
pub use key_condition::{
    KeyAttribute, KeyConditionState, KeyEquality, KeySchemaState, KeyType, SortKeyCondition, SortKeyOperator,
    sort_key_operators,
};
pub use path::{AttributePath, PathStep};
pub use request::{Direction, GeneratedRequest, ReadOperation, ReadRequest, ReturnConsumedCapacity};
pub use update::{ProjectionState, SetValueState, UpdateActionState, UpdateOperandState, UpdateState};
