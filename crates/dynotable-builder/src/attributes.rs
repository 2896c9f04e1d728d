//! Automatic placeholders: the `ExpressionAttributeNames` and `ExpressionAttributeValues` of
//! one request, filled while its expressions are written.
//!
//! Names (Rule B.6, docs/dynamodb-rules.md): a name is written bare only when the expression lexer
//! reads it back as one identifier that is not a reserved word — it starts with an ASCII
//! letter, continues with ASCII letters, digits and `_`, and is none of the 573 reserved words
//! (case-insensitive, [`dynotable_expr::reserved::is_reserved`]). Every other name — `status`,
//! `1st`, `order-date`, `a.b`, `first name`, `_id`, `größe` — gets a `#placeholder`. One name
//! gets one placeholder however often the request uses it.
//!
//! Values: every value gets its own `:placeholder`, carrying its DynamoDB type.
//!
//! Placeholder keys are readable and deterministic: the attribute name (for values, the name of
//! the attribute they are compared with or written to, plus a role such as `_from`) with every
//! run of characters outside `[A-Za-z0-9_]` turned into one `_`; `attr` or `value` when nothing
//! is left. A key already taken gets `_2`, `_3`, ... The base is cut to 200 bytes, so keys stay
//! well under the 255-byte limit (Rule B.7).

use std::collections::BTreeMap;

use dynotable_types::AttributeValue;
use serde::Serialize;

use crate::error::BuildError;
use crate::path::{AttributePath, PathStep};

/// Longest base of a generated placeholder key, in bytes: the sigil and a `_<n>` suffix fit in
/// the 255 bytes allowed (Rule B.7, docs/dynamodb-rules.md).
const MAX_BASE_BYTES: usize = 200;

/// The two maps of a request, as generated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "PascalCase")]
pub struct ExpressionAttributes {
    /// `#placeholder` → attribute name.
    pub expression_attribute_names: BTreeMap<String, String>,
    /// `:placeholder` → typed value (DynamoDB JSON).
    #[cfg_attr(feature = "specta", specta(type = BTreeMap<String, crate::typescript::AttributeValueJson>))]
    pub expression_attribute_values: BTreeMap<String, AttributeValue>,
    /// attribute name → its placeholder, so each name gets one.
    #[serde(skip)]
    placeholder_of: BTreeMap<String, String>,
}

/// Whether `name` can stand bare in an expression (see the module docs).
pub fn is_bare_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    matches!(bytes.first(), Some(b) if b.is_ascii_alphabetic())
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        && !dynotable_expr::reserved::is_reserved(name)
}

/// `order-date` → `order_date`; nothing usable → `fallback`.
fn key_base(text: &str, fallback: &str) -> String {
    let mut base = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            base.push(c);
        } else if !base.ends_with('_') {
            base.push('_');
        }
    }
    let trimmed = base.trim_matches('_');
    let mut base = if trimmed.is_empty() {
        fallback.to_string()
    } else {
        trimmed.to_string()
    };
    base.truncate(MAX_BASE_BYTES);
    base
}

fn first_free(sigil: char, base: &str, taken: impl Fn(&str) -> bool) -> String {
    let first = format!("{sigil}{base}");
    if !taken(&first) {
        return first;
    }
    (2..)
        .map(|n| format!("{sigil}{base}_{n}"))
        .find(|key| !taken(key))
        .unwrap_or(first)
}

impl ExpressionAttributes {
    pub fn new() -> ExpressionAttributes {
        ExpressionAttributes::default()
    }

    /// How an attribute name is written: bare, or through its `#placeholder`.
    pub fn name(&mut self, name: &str) -> String {
        if is_bare_name(name) {
            return name.to_string();
        }
        if let Some(key) = self.placeholder_of.get(name) {
            return key.clone();
        }
        let key = first_free('#', &key_base(name, "attr"), |key| {
            self.expression_attribute_names.contains_key(key)
        });
        self.expression_attribute_names
            .insert(key.clone(), name.to_string());
        self.placeholder_of.insert(name.to_string(), key.clone());
        key
    }

    /// A new `:placeholder` for `value`, named after `hint`.
    pub fn value(&mut self, hint: &str, value: &AttributeValue) -> String {
        let key = first_free(':', &key_base(hint, "value"), |key| {
            self.expression_attribute_values.contains_key(key)
        });
        self.expression_attribute_values
            .insert(key.clone(), value.clone());
        key
    }

    /// A document path as expression text: `#status`, `address.#zip_code`, `tags[0]`.
    pub fn path(&mut self, path: &AttributePath) -> Result<String, BuildError> {
        path.check()?;
        let mut text = String::new();
        for step in &path.0 {
            match step {
                PathStep::Key(name) => {
                    if !text.is_empty() {
                        text.push('.');
                    }
                    let written = self.name(name);
                    text.push_str(&written);
                }
                PathStep::Index(index) => text.push_str(&format!("[{index}]")),
            }
        }
        Ok(text)
    }

    /// The names map as a request sends it: absent when empty (an empty map is refused, Rule
    /// B.6: `ExpressionAttributeNames must not be empty`).
    pub fn names(&self) -> Option<BTreeMap<String, String>> {
        (!self.expression_attribute_names.is_empty()).then(|| self.expression_attribute_names.clone())
    }

    /// The values map as a request sends it: absent when empty.
    pub fn values(&self) -> Option<BTreeMap<String, AttributeValue>> {
        (!self.expression_attribute_values.is_empty()).then(|| self.expression_attribute_values.clone())
    }
}

/// The placeholder hint for a value that goes with `path`, with an optional role suffix.
pub(crate) fn hint(path: Option<&AttributePath>, role: &str) -> String {
    let base = path.and_then(AttributePath::last_key).unwrap_or("value");
    if role.is_empty() {
        base.to_string()
    } else {
        format!("{base}_{role}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_names_are_identifiers_that_are_not_reserved() {
        for bare in ["vehicleId", "recordedAt", "a_1", "plate"] {
            assert!(is_bare_name(bare), "{bare}");
        }
        for placeholder in [
            "status", "Name", "DATA", "1st", "a.b", "a-b", "a b", "_id", "größe", "",
        ] {
            assert!(!is_bare_name(placeholder), "{placeholder}");
        }
    }

    #[test]
    fn one_placeholder_per_name_and_numbered_collisions() {
        let mut attrs = ExpressionAttributes::new();
        assert_eq!(attrs.name("a-b"), "#a_b");
        assert_eq!(attrs.name("a.b"), "#a_b_2");
        assert_eq!(attrs.name("a-b"), "#a_b");
        let v = AttributeValue::BOOL(true);
        assert_eq!(attrs.value("a-b", &v), ":a_b");
        assert_eq!(attrs.value("a-b", &v), ":a_b_2");
        assert_eq!(attrs.value("", &v), ":value");
        assert_eq!(attrs.name("日付"), "#attr");
    }
}
