//! Placeholders: a request's `ExpressionAttributeNames` and `ExpressionAttributeValues`, shared
//! by all its expressions, and the hygiene rules around them (Rule B.6, docs/dynamodb-rules.md).
//!
//! One [`Placeholders`] is made per request. Each expression of the request is resolved through
//! it — which records every placeholder the expression uses — and once all are resolved,
//! [`Placeholders::check_unused`] rejects entries no expression used. The service checks a
//! request in this order, and the engine should call in the same order:
//!
//! 1. the maps themselves ([`Placeholders::new`]): not empty, keys well-formed and at most
//!    255 bytes, names not empty;
//! 2. the expressions, each failing on its first error: UpdateExpression, ConditionExpression,
//!    KeyConditionExpression, FilterExpression, ProjectionExpression;
//! 3. unused names, then unused values.
//!
//! Messages (Rule B.6; live-service captures):
//! - `ExpressionAttributeNames must not be empty` (and `...Values...`);
//! - `ExpressionAttributeNames contains invalid key: Syntax error; key: "<key>"`;
//! - `ExpressionAttributeNames contains invalid key: The expression attribute map contains a key
//!   that is too long; size of key: <n>`;
//! - `ExpressionAttributeNames contains invalid value: Empty attribute name for key <key>`;
//! - `Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}` (keys
//!   listed in sorted order here; the service's order is unspecified).

use std::collections::{BTreeMap, BTreeSet};

use dynotable_types::AttributeValue;

use crate::ast;
use crate::error::{Error, ExpressionKind, Result};
use crate::path::{DocumentPath, PathStep};

/// Rule B.6: a placeholder key is at most 255 bytes, its leading `#` or `:` included.
pub const MAX_PLACEHOLDER_KEY_BYTES: usize = 255;

/// The names and values of one request, and which of them its expressions used.
#[derive(Clone, Debug, Default)]
pub struct Placeholders {
    names: Option<BTreeMap<String, String>>,
    values: Option<BTreeMap<String, AttributeValue>>,
    used_names: BTreeSet<String>,
    used_values: BTreeSet<String>,
}

/// Which map a key belongs to, for messages.
#[derive(Clone, Copy)]
enum Map {
    Names,
    Values,
}

impl Map {
    fn parameter(self) -> &'static str {
        match self {
            Map::Names => "ExpressionAttributeNames",
            Map::Values => "ExpressionAttributeValues",
        }
    }

    fn sigil(self) -> u8 {
        match self {
            Map::Names => b'#',
            Map::Values => b':',
        }
    }
}

fn check_keys<'a>(map: Map, keys: impl Iterator<Item = &'a String>, count: usize) -> Result<()> {
    let parameter = map.parameter();
    if count == 0 {
        return Err(Error::request(format!("{parameter} must not be empty")));
    }
    for key in keys {
        if key.len() > MAX_PLACEHOLDER_KEY_BYTES {
            return Err(Error::request(format!(
                "{parameter} contains invalid key: The expression attribute map contains a key that is too long; size of key: {}",
                key.len()
            )));
        }
        let bytes = key.as_bytes();
        let well_formed = bytes.len() > 1
            && bytes[0] == map.sigil()
            && bytes[1..].iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
        if !well_formed {
            return Err(Error::request(format!(
                "{parameter} contains invalid key: Syntax error; key: \"{key}\""
            )));
        }
    }
    Ok(())
}

impl Placeholders {
    /// Placeholders for a request without `ExpressionAttributeNames` and
    /// `ExpressionAttributeValues`.
    pub fn none() -> Placeholders {
        Placeholders::default()
    }

    /// Checks and takes the request's maps (`None` when the parameter is absent).
    pub fn new(
        names: Option<BTreeMap<String, String>>,
        values: Option<BTreeMap<String, AttributeValue>>,
    ) -> Result<Placeholders> {
        if let Some(names) = &names {
            check_keys(Map::Names, names.keys(), names.len())?;
            if let Some((key, _)) = names.iter().find(|(_, name)| name.is_empty()) {
                return Err(Error::request(format!(
                    "ExpressionAttributeNames contains invalid value: Empty attribute name for key {key}"
                )));
            }
        }
        if let Some(values) = &values {
            check_keys(Map::Values, values.keys(), values.len())?;
        }
        Ok(Placeholders {
            names,
            values,
            used_names: BTreeSet::new(),
            used_values: BTreeSet::new(),
        })
    }

    /// The attribute name behind `#key`, recording the use; `None` if undefined.
    pub(crate) fn name(&mut self, key: &str) -> Option<String> {
        let name = self.names.as_ref()?.get(key)?.clone();
        self.used_names.insert(key.to_string());
        Some(name)
    }

    /// The value behind `:key`, recording the use; `None` if undefined.
    pub(crate) fn value(&mut self, key: &str) -> Option<AttributeValue> {
        let value = self.values.as_ref()?.get(key)?.clone();
        self.used_values.insert(key.to_string());
        Some(value)
    }

    /// Names no expression resolved so far used, in sorted order.
    pub fn unused_names(&self) -> Vec<&str> {
        self.names
            .iter()
            .flat_map(|names| names.keys())
            .filter(|key| !self.used_names.contains(*key))
            .map(String::as_str)
            .collect()
    }

    /// Values no expression resolved so far used, in sorted order.
    pub fn unused_values(&self) -> Vec<&str> {
        self.values
            .iter()
            .flat_map(|values| values.keys())
            .filter(|key| !self.used_values.contains(*key))
            .map(String::as_str)
            .collect()
    }

    /// Rule B.6: after all of a request's expressions are resolved, every name and every value
    /// must have been used by one of them. Names are checked first.
    pub fn check_unused(&self) -> Result<()> {
        let names = self.unused_names();
        if !names.is_empty() {
            return Err(Error::request(format!(
                "Value provided in ExpressionAttributeNames unused in expressions: keys: {{{}}}",
                names.join(", ")
            )));
        }
        let values = self.unused_values();
        if !values.is_empty() {
            return Err(Error::request(format!(
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {{{}}}",
                values.join(", ")
            )));
        }
        Ok(())
    }
}

/// Substitutes the name placeholders of a path. An undefined one is
/// `An expression attribute name used in the document path is not defined; attribute name: #x`.
pub(crate) fn resolve_path(
    kind: ExpressionKind,
    path: &ast::Path,
    placeholders: &mut Placeholders,
) -> Result<DocumentPath> {
    let mut steps = Vec::with_capacity(path.elements.len());
    for element in &path.elements {
        steps.push(match element {
            ast::PathElement::Name { name, .. } => PathStep::Attribute(name.clone()),
            ast::PathElement::Index { index, .. } => PathStep::Index(*index as usize),
            ast::PathElement::Placeholder { key, span } => match placeholders.name(key) {
                Some(name) => PathStep::Attribute(name),
                None => {
                    return Err(Error::invalid(
                        kind,
                        *span,
                        format!(
                            "An expression attribute name used in the document path is not defined; attribute name: {key}"
                        ),
                    ));
                }
            },
        });
    }
    // The parser only builds paths that start with a name.
    DocumentPath::new(steps).ok_or_else(|| Error::invalid(kind, path.span, "Syntax error; path"))
}

/// Substitutes a value placeholder. An undefined one is
/// `An expression attribute value used in expression is not defined; attribute value: :v`.
pub(crate) fn resolve_value(
    kind: ExpressionKind,
    value: &ast::ValueRef,
    placeholders: &mut Placeholders,
) -> Result<AttributeValue> {
    placeholders.value(&value.key).ok_or_else(|| {
        Error::invalid(
            kind,
            value.span,
            format!(
                "An expression attribute value used in expression is not defined; attribute value: {}",
                value.key
            ),
        )
    })
}
