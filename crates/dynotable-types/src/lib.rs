//! DynamoDB's data model, shared by the engine, the expression language and the server.
//!
//! Each module implements rules from `docs/dynamodb-rules.md` and cites them:
//!
//! | Module | What | Rules |
//! |---|---|---|
//! | [`value`] | [`AttributeValue`] (the ten types), [`Item`] | B.7, B.9 |
//! | [`number`] | [`Number`], the exact 38-digit decimal, its parsing, order and arithmetic | B.7, B.9 |
//! | [`set`] | [`Set`]: the elements of SS / NS / BS, non-empty and duplicate-free | B.7 |
//! | [`wire`] | DynamoDB JSON, and [`Checked`] to tell shape errors from value errors | B.10 |
//! | [`validation`] | nesting depth, item names, the 400 KB limit | B.1, B.7, B.8 |
//! | [`size`] | item and value sizes as DynamoDB counts them | B.1 |
//! | [`key`] | key types and values, key value rules | B.7, B.9, B.10 |
//! | [`key_encoding`] | order-preserving, self-delimiting byte encoding of keys | B.9 |
//! | [`naming`] | table, index and attribute names | B.8 |
//! | [`error`] | [`ValidationError`], worded as the service words it | B.10 |
//!
//! Invalid values are unrepresentable where that is cheap: a [`Number`] is always in range, a
//! [`Set`] is never empty nor duplicated, `NULL` has no `false`. What cannot be carried by the
//! types (nesting depth, names, sizes, key rules) has a function that returns the service's
//! message.

pub mod error;
pub mod key;
pub mod key_encoding;
pub mod naming;
pub mod number;
pub mod set;
pub mod size;
pub mod validation;
pub mod value;
pub mod wire;

pub use error::{ConstraintViolation, SetKind, ValidationError};
pub use key::{KeyAttribute, KeyRef, KeyRole, KeyValue, ScalarAttributeType};
pub use key_encoding::{
    decode_key_tuple, decode_primary_key, encode_key_tuple, encode_prefix_into, encode_primary_key,
    prefix_successor,
};
pub use naming::{validate_attribute_name, validate_index_name, validate_table_name};
pub use number::Number;
pub use set::{BinarySet, NumberSet, Set, SetElement, StringSet};
pub use size::{MAX_ITEM_SIZE, item_size, number_size, value_size};
pub use validation::{SizeCheck, check_item_size, check_size, validate_item};
pub use value::{AttributeMap, AttributeType, AttributeValue, Item};
pub use wire::Checked;
