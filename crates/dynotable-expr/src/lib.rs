//! DynamoDB's expression language: one parser and one set of rules, used by the engine to run
//! requests and by the desktop app's expression builder to validate as the user types.
//!
//! # The life of an expression
//!
//! Take a request with `ConditionExpression: "attribute_not_exists(#s) OR #s = :old"`,
//! `ExpressionAttributeNames: {"#s": "status"}` and `ExpressionAttributeValues: {":old": ...}`.
//!
//! 1. **Placeholders** ([`Placeholders::new`]): the request's two maps are checked on their
//!    own — not empty, keys like `#s` and `:old`, at most 255 bytes — and kept for every
//!    expression of the request ([`resolve`]).
//! 2. **Text** ([`parser`]): at most 4 KB and not empty.
//! 3. **Tokens** ([`lexer`]): `attribute_not_exists`, `(`, `#s`, `)`, `OR`, ... each with its
//!    byte span. Characters that start no token become tokens of their own, so every syntax
//!    error has a token to point at.
//! 4. **Syntax tree** ([`parser`], [`ast`]): recursive descent, one grammar per expression kind;
//!    the first token that cannot continue the expression is the syntax error, reported as the
//!    service does: `Invalid ConditionExpression: Syntax error; token: "<tok>", near: "<ctx>"`.
//!    The tree keeps spans and parenthesis counts, and prints back as text.
//! 5. **Resolution** ([`condition`], [`key_condition`], [`update`], [`projection`]): the checks
//!    the service makes before touching data, in the order it makes them — redundant
//!    parentheses, function names and placement ([`functions`]), reserved words ([`reserved`]),
//!    undefined placeholders, operand counts and types known from the request's values,
//!    overlapping update paths, the key-condition shape and key schema. `#s` becomes `status`,
//!    `:old` its value; the result is a resolved tree with no placeholders left.
//! 6. **Hygiene across the request** ([`Placeholders::check_unused`]): once every expression of
//!    the request is resolved, a name or value none of them used is an error.
//! 7. **Use**: a condition is evaluated against an item ([`evaluate`]); a key condition gives
//!    the partition key value and sort-key range to scan ([`key_condition::KeyCondition`]); an
//!    update is checked against the key attributes and applied to an item ([`apply`]); a
//!    projection picks parts of an item ([`projection`]). Once the table is known, every
//!    expression is checked against its keys ([`key_paths`]): no path below a key attribute,
//!    and no index key attribute given a value of another type by an update.
//!
//! Every failure is an [`Error`]: a `ValidationException` with the service's exact message
//! and, separately, the expression and byte span it points at. Rules are cited from
//! `docs/dynamodb-rules.md` (section B.5–B.7) where they are implemented; deliberate differences
//! from the service are listed in `docs/compatibility.md`.
//!
//! ```
//! use std::collections::BTreeMap;
//! use dynotable_expr::{ExpressionKind, Placeholders};
//! use dynotable_types::{AttributeValue, Item};
//!
//! let names = BTreeMap::from([("#s".to_string(), "status".to_string())]);
//! let values = BTreeMap::from([(":old".to_string(), AttributeValue::S("draft".into()))]);
//! let mut placeholders = Placeholders::new(Some(names), Some(values)).unwrap();
//! let condition = placeholders
//!     .condition(ExpressionKind::Condition, "attribute_not_exists(#s) OR #s = :old")
//!     .unwrap();
//! placeholders.check_unused().unwrap();
//!
//! let item = Item::from([("status".to_string(), AttributeValue::S("draft".into()))]);
//! assert!(condition.evaluate(Some(&item)));
//! assert!(condition.evaluate(None));
//! ```

pub mod apply;
pub mod ast;
pub mod condition;
pub mod display;
pub mod error;
pub mod evaluate;
pub mod functions;
pub mod key_condition;
pub mod key_paths;
pub mod lexer;
pub mod parser;
pub mod path;
pub mod projection;
pub mod reserved;
pub mod resolve;
pub mod update;

pub use condition::Condition;
pub use error::{Error, Exception, ExpressionKind, Result, Span};
pub use key_condition::{KeyCondition, KeyElement, KeyOperator, KeyPart, KeySchema, SortKeyRange};
pub use path::{DocumentPath, PathStep};
pub use projection::Projection;
pub use resolve::Placeholders;
pub use update::Update;

impl Placeholders {
    /// Resolves a ConditionExpression (`kind` = Condition) or FilterExpression (`kind` =
    /// Filter) against these placeholders.
    pub fn condition(&mut self, kind: ExpressionKind, source: &str) -> Result<Condition> {
        condition::resolve_condition(kind, source, self)
    }

    /// Resolves a KeyConditionExpression and checks it against the key schema.
    pub fn key_condition(&mut self, source: &str, schema: &KeySchema<'_>) -> Result<KeyCondition> {
        key_condition::resolve_key_condition(source, schema, self)
    }

    /// Checks what a KeyConditionExpression says without a key schema (see
    /// [`key_condition::check_key_condition_shape`]).
    pub fn key_condition_shape(&mut self, source: &str) -> Result<()> {
        key_condition::check_key_condition_shape(source, self)
    }

    /// Resolves an UpdateExpression.
    pub fn update(&mut self, source: &str) -> Result<Update> {
        update::resolve_update(source, self)
    }

    /// Resolves a ProjectionExpression.
    pub fn projection(&mut self, source: &str) -> Result<Projection> {
        projection::resolve_projection(source, self)
    }
}
