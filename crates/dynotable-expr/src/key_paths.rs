//! The checks of an expression against the table's keys that need no item: key attributes are
//! scalars, so no path may go below one.
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
}
