//! The checks of an expression against the table's keys that need no item: key attributes are
//! scalars, so no path may go below one, and an update may not give a secondary-index key
//! attribute a value of another type than its definition.
//!
//! Rule B.6.1 (docs/dynamodb-rules.md): a path that goes below a key attribute (a map lookup `.`
//! or a list index `[]` after it), anywhere in an expression, is refused before any item is read:
//! `Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed:
//! Key: a` for a key attribute of the table, `...: IndexKey: d` for a key attribute of one of its
//! secondary indexes (every attribute of a multi-attribute GSI key) that is not a table key
//! attribute. The table's key attributes are looked at first, in key-schema order, then the
//! indexes' (dynalite's `validateKeyPaths`; its tests, run against the service: getItem.js,
//! query.js, scan.js and updateItem.js). Which expressions are checked, and when, is the
//! operations' business (`dynotable-engine`'s `params::check_key_paths`).
//!
//! Rule B.6.2: an UpdateExpression that writes a secondary-index key attribute whole, with a
//! value whose type the expression itself shows (a value placeholder, `+`/`-` → N, `list_append`
//! → L, an ADD operand), is refused if that type is not the attribute's:
//! `One or more parameter values were invalid: Type mismatch for Index Key c Expected: S Actual:
//! N IndexName: index1` ([`Update::check_index_key_types`], dynalite's "should return
//! ValidationException if trying to update wrong type on index"). A type known only from the
//! item (`SET c = e`) is checked once the update is applied, in other words
//! ([`Update::check_index_key_values`]).

use dynotable_types::{AttributeType, Item, ScalarAttributeType};

use crate::error::{Error, ExpressionKind, Result, Span};
use crate::path::DocumentPath;
use crate::update::{SetValue, Update, UpdateAction, UpdateOperand};

/// The key attributes of a table and of its secondary indexes, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyNames<'a> {
    /// The table's key attributes, in key-schema order.
    pub table: Vec<&'a str>,
    /// The indexes' key attributes that are not table key attributes, each once, in the order
    /// of the indexes and of each index's key schema.
    pub index: Vec<&'a str>,
}

/// One key attribute of one secondary index, with its declared type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexKeyAttribute<'a> {
    pub index: &'a str,
    pub name: &'a str,
    pub ty: ScalarAttributeType,
}

/// Rule B.6.1: no path of `paths` (read or written by one expression, or by several) may go below
/// a key attribute. `kind` is the expression the paths come from, for the error's location.
pub fn check_key_paths<'p, 'a>(
    kind: ExpressionKind,
    paths: impl IntoIterator<Item = &'p DocumentPath>,
    keys: &KeyNames<'a>,
) -> Result<()> {
    let nested: Vec<&str> = paths
        .into_iter()
        .filter(|path| path.is_nested())
        .map(DocumentPath::top_level)
        .collect();
    let found =
        |names: &[&'a str]| -> Option<&'a str> { names.iter().copied().find(|name| nested.contains(name)) };
    let (role, name) = match (found(&keys.table), found(&keys.index)) {
        (Some(name), _) => ("Key", name),
        (None, Some(name)) => ("IndexKey", name),
        (None, None) => return Ok(()),
    };
    // A resolved path keeps no span: the error names the expression, not a place in it.
    Err(Error {
        span: None,
        ..Error::unprefixed(
            kind,
            Span::default(),
            format!(
                "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: {role}: {name}"
            ),
        )
    })
}

/// The type an action gives the attribute it writes, when the expression alone shows it.
fn written_type(action: &UpdateAction) -> Option<AttributeType> {
    match action {
        UpdateAction::Set { value, .. } => match value {
            SetValue::Plus(..) | SetValue::Minus(..) => Some(AttributeType::N),
            SetValue::Operand(UpdateOperand::Value(value)) => Some(value.attribute_type()),
            SetValue::Operand(UpdateOperand::ListAppend(..)) => Some(AttributeType::L),
            // A path's type is the item's; so is `if_not_exists`'s when its path exists.
            SetValue::Operand(UpdateOperand::Path(_) | UpdateOperand::IfNotExists(..)) => None,
        },
        UpdateAction::Add { value, .. } => Some(value.attribute_type()),
        // DELETE takes elements out of a set and writes no value of its own; a key attribute
        // there meets the operand-type error when the update is applied, as before (dynalite's
        // code also compares DELETE's operand, but no recorded test shows the service doing so).
        UpdateAction::Delete { .. } | UpdateAction::Remove { .. } => None,
    }
}

fn scalar(ty: ScalarAttributeType) -> AttributeType {
    match ty {
        ScalarAttributeType::S => AttributeType::S,
        ScalarAttributeType::N => AttributeType::N,
        ScalarAttributeType::B => AttributeType::B,
    }
}

impl Update {
    /// Every path the update reads or writes: each action's target, then the paths its value
    /// reads (inside `if_not_exists` and `list_append` too), in textual order.
    pub fn all_paths(&self) -> Vec<&DocumentPath> {
        fn operand<'a>(o: &'a UpdateOperand, out: &mut Vec<&'a DocumentPath>) {
            match o {
                UpdateOperand::Path(path) => out.push(path),
                UpdateOperand::Value(_) => {}
                UpdateOperand::IfNotExists(path, fallback) => {
                    out.push(path);
                    operand(fallback, out);
                }
                UpdateOperand::ListAppend(a, b) => {
                    operand(a, out);
                    operand(b, out);
                }
            }
        }
        let mut out = Vec::new();
        for action in &self.actions {
            out.push(action.path());
            if let UpdateAction::Set { value, .. } = action {
                match value {
                    SetValue::Operand(o) => operand(o, &mut out),
                    SetValue::Plus(a, b) | SetValue::Minus(a, b) => {
                        operand(a, &mut out);
                        operand(b, &mut out);
                    }
                }
            }
        }
        out
    }

    /// Rule B.6.2: an action that writes an index key attribute whole with a value of another
    /// type than the attribute's, as far as the expression shows it. The index key attributes are
    /// looked at in the order given (the table's indexes, each in key-schema order).
    pub fn check_index_key_types(&self, index_keys: &[IndexKeyAttribute<'_>]) -> Result<()> {
        for key in index_keys {
            let Some(action) = self
                .actions
                .iter()
                .find(|a| !a.path().is_nested() && a.path().top_level() == key.name)
            else {
                continue;
            };
            match written_type(action) {
                Some(actual) if actual != scalar(key.ty) => {
                    return Err(Error::unprefixed(
                        ExpressionKind::Update,
                        action.span(),
                        format!(
                            "One or more parameter values were invalid: Type mismatch for Index Key {} Expected: {} Actual: {} IndexName: {}",
                            key.name,
                            key.ty.as_str(),
                            actual.as_str(),
                            key.index
                        ),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Rule B.6.2, once applied: a SET that gave an index key attribute, whole, a value of another
    /// type than the attribute's (known only from the item, as `SET c = e`) is `The update
    /// expression attempted to update the secondary index key to unsupported type` (dynalite's
    /// "should return ValidationException if trying to update existing index", run against the
    /// service; DynamoDB Local's error list has the sentence as UPDATING_INDEX_KEY_TYPE_MISMATCH).
    /// `updated` is the item the update produced.
    pub fn check_index_key_values(&self, updated: &Item, index_keys: &[IndexKeyAttribute<'_>]) -> Result<()> {
        for action in &self.actions {
            let UpdateAction::Set { path, span, .. } = action else {
                continue;
            };
            if path.is_nested() {
                continue;
            }
            let name = path.top_level();
            let wrong = index_keys.iter().any(|key| {
                key.name == name
                    && updated
                        .get(name)
                        .is_some_and(|value| value.attribute_type() != scalar(key.ty))
            });
            if wrong {
                return Err(Error::unprefixed(
                    ExpressionKind::Update,
                    *span,
                    "The update expression attempted to update the secondary index key to unsupported type",
                ));
            }
        }
        Ok(())
    }
}
