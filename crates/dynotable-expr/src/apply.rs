//! Applying a resolved update to an item (AWS Developer Guide, "Update expressions"; behaviour
//! checked against the live service by the ScyllaDB Alternator tests and by dynalite).
//!
//! An update reads the item as it was and writes the new one:
//!
//! 1. Every SET value is computed from the item *before* the update — `SET x = :v, y = x` copies
//!    the old `x` (or fails if there was none), and `REMOVE a SET b = a` moves `a` to `b`.
//!    - A path that refers to nothing: `The provided expression refers to an attribute that does
//!      not exist in the item`.
//!    - `+`/`-` on anything but numbers, `list_append` on anything but lists: `An operand in the
//!      update expression has an incorrect data type`.
//!    - `+`/`-` (and ADD, below) whose exact result needs more than 38 significant digits or
//!      lies above the number range: `Number overflow. Attempting to store a number with
//!      magnitude larger than supported range`; below it, `Number underflow. ...` (rule B.10,
//!      "arithmetic results").
//! 2. SET, ADD and DELETE act in the order written. The container a path ends in must exist and
//!    have the right shape (a map for `.name`, a list for `[i]`), else `The document path
//!    provided in the update expression is invalid for update`.
//!    - SET writes; on a list index at or beyond the end it appends, and several appends to one
//!      list go in index order (`SET a[84] = :x, a[37] = :y` appends `:y` then `:x`).
//!    - ADD adds a number to a number (a missing attribute counts as 0) or a set to a set of the
//!      same type (a missing attribute counts as empty); any other pair is an incorrect data type.
//!    - DELETE takes a set's elements out of a set of the same type; a missing attribute is left
//!      alone, and a set left empty is removed.
//! 3. REMOVE acts last, on the positions as they were: `REMOVE a[1], a[2]` removes the second
//!    and third elements, and `SET a[3] = :v REMOVE a[1]` replaces what was the fourth. Removing
//!    a missing attribute, map key or list element does nothing; removing below a path that
//!    does not exist is an invalid document path — except on an item that does not exist, where
//!    REMOVE does nothing at all (live-service behaviour).
//!
//! Overlapping paths are refused before this point, so no two actions touch the same place.

use std::collections::BTreeMap;

use dynotable_types::{AttributeMap, AttributeValue, Item, Number, ValidationError};

use crate::error::{Error, ExpressionKind, Result, Span};
use crate::path::{DocumentPath, PathStep};
use crate::update::{SetValue, Update, UpdateAction, UpdateOperand};

const MISSING_ATTRIBUTE: &str =
    "The provided expression refers to an attribute that does not exist in the item";
const WRONG_TYPE: &str = "An operand in the update expression has an incorrect data type";
const INVALID_PATH: &str = "The document path provided in the update expression is invalid for update";

fn runtime_error(span: Span, message: &str) -> Error {
    Error::unprefixed(ExpressionKind::Update, span, message)
}

/// The error of `+`, `-` or ADD whose exact result is not a DynamoDB number (rule B.10,
/// "arithmetic results"). The service reports a result of more than 38 significant digits as an
/// overflow, as it does one above the range (`1E50 + 1`: the ScyllaDB Alternator tests' note on
/// `test_update_expression_plus_imprecise`; `9.99…9E+125 + 1E+125`: ExtendDB/extenddb#94, both
/// from the live service). A result below the range keeps the underflow sentence (inferred: no
/// capture of it is known).
fn arithmetic_error(span: Span, error: &ValidationError) -> Error {
    let error = match error {
        ValidationError::TooManyDigits => &ValidationError::NumberOverflow,
        other => other,
    };
    runtime_error(span, &error.to_string())
}

impl Update {
    /// Applies the update to `old` (`None`: the item does not exist yet, and the update creates
    /// it from `key`, its key attributes) and returns the new item.
    pub fn apply(&self, old: Option<&Item>, key: &Item) -> Result<Item> {
        let base: &Item = old.unwrap_or(key);

        // 1. SET values, from the item as it was.
        let mut set_values = Vec::new();
        for action in &self.actions {
            if let UpdateAction::Set { value, span, .. } = action {
                set_values.push(set_value(value, base, *span)?);
            }
        }

        // 2. SET, ADD and DELETE in order; appends and removals wait.
        let mut item = base.clone();
        let mut set_values = set_values.into_iter();
        let mut appends: BTreeMap<Vec<PathStep>, Vec<(usize, AttributeValue)>> = BTreeMap::new();
        let mut removals: Vec<(&DocumentPath, Span)> = Vec::new();
        for action in &self.actions {
            let span = action.span();
            match action {
                UpdateAction::Set { path, .. } => {
                    let value = set_values
                        .next()
                        .ok_or_else(|| runtime_error(span, INVALID_PATH))?;
                    write(&mut item, path, value, span, &mut appends)?;
                }
                UpdateAction::Add { path, value, .. } => {
                    let added = match (slot(&mut item, path, span)?, value) {
                        (None, value) => value.clone(),
                        (Some(AttributeValue::N(a)), AttributeValue::N(b)) => {
                            AttributeValue::N(a.checked_add(b).map_err(|e| arithmetic_error(span, &e))?)
                        }
                        (Some(AttributeValue::SS(a)), AttributeValue::SS(b)) => {
                            AttributeValue::SS(a.union(b))
                        }
                        (Some(AttributeValue::NS(a)), AttributeValue::NS(b)) => {
                            AttributeValue::NS(a.union(b))
                        }
                        (Some(AttributeValue::BS(a)), AttributeValue::BS(b)) => {
                            AttributeValue::BS(a.union(b))
                        }
                        _ => return Err(runtime_error(span, WRONG_TYPE)),
                    };
                    write(&mut item, path, added, span, &mut appends)?;
                }
                UpdateAction::Delete { path, value, .. } => {
                    let remaining = match (slot(&mut item, path, span)?, value) {
                        (None, _) => continue,
                        (Some(AttributeValue::SS(a)), AttributeValue::SS(b)) => {
                            a.difference(b).map(AttributeValue::SS)
                        }
                        (Some(AttributeValue::NS(a)), AttributeValue::NS(b)) => {
                            a.difference(b).map(AttributeValue::NS)
                        }
                        (Some(AttributeValue::BS(a)), AttributeValue::BS(b)) => {
                            a.difference(b).map(AttributeValue::BS)
                        }
                        _ => return Err(runtime_error(span, WRONG_TYPE)),
                    };
                    match remaining {
                        Some(set) => write(&mut item, path, set, span, &mut appends)?,
                        None => removals.push((path, span)),
                    }
                }
                UpdateAction::Remove { path, .. } => {
                    if old.is_some() {
                        removals.push((path, span));
                    }
                }
            }
        }

        // Appends to each list, in index order.
        for (parent, mut elements) in appends {
            elements.sort_by_key(|(index, _)| *index);
            if let Some(Container::List(list)) = container(&mut item, &parent) {
                list.extend(elements.into_iter().map(|(_, value)| value));
            }
        }

        // 3. Removals, last position first so earlier positions keep their meaning.
        removals.sort_by(|a, b| b.0.steps().cmp(a.0.steps()));
        for (path, span) in removals {
            let (parent, last) = split(path);
            match (container(&mut item, parent), last) {
                (Some(Container::Map(map)), PathStep::Attribute(name)) => {
                    map.remove(name);
                }
                (Some(Container::List(list)), PathStep::Index(index)) => {
                    if *index < list.len() {
                        list.remove(*index);
                    }
                }
                _ => return Err(runtime_error(span, INVALID_PATH)),
            }
        }
        Ok(item)
    }
}

/// A map or list that a path step can go into.
enum Container<'a> {
    Map(&'a mut AttributeMap),
    List(&'a mut Vec<AttributeValue>),
}

/// The container at `steps` (the item itself for no steps), if every step exists and ends in a
/// map or list.
fn container<'a>(item: &'a mut Item, steps: &[PathStep]) -> Option<Container<'a>> {
    let mut current = Container::Map(item);
    for step in steps {
        let value = match (current, step) {
            (Container::Map(map), PathStep::Attribute(name)) => map.get_mut(name)?,
            (Container::List(list), PathStep::Index(index)) => list.get_mut(*index)?,
            _ => return None,
        };
        current = match value {
            AttributeValue::M(map) => Container::Map(map),
            AttributeValue::L(list) => Container::List(list),
            _ => return None,
        };
    }
    Some(current)
}

/// A path's parent steps and last step.
fn split(path: &DocumentPath) -> (&[PathStep], &PathStep) {
    match path.steps().split_last() {
        Some((last, parent)) => (parent, last),
        // A DocumentPath always has a step; an empty one would name the item itself.
        None => (&[], &PathStep::Index(usize::MAX)),
    }
}

/// The current value at `path` (`None` if there is none yet), checking that its container
/// exists and has the right shape.
fn slot(item: &mut Item, path: &DocumentPath, span: Span) -> Result<Option<AttributeValue>> {
    let (parent, last) = split(path);
    match (container(item, parent), last) {
        (Some(Container::Map(map)), PathStep::Attribute(name)) => Ok(map.get(name).cloned()),
        (Some(Container::List(list)), PathStep::Index(index)) => Ok(list.get(*index).cloned()),
        _ => Err(runtime_error(span, INVALID_PATH)),
    }
}

/// Writes `value` at `path`; a list index at or beyond the end becomes a pending append.
fn write(
    item: &mut Item,
    path: &DocumentPath,
    value: AttributeValue,
    span: Span,
    appends: &mut BTreeMap<Vec<PathStep>, Vec<(usize, AttributeValue)>>,
) -> Result<()> {
    let (parent, last) = split(path);
    match (container(item, parent), last) {
        (Some(Container::Map(map)), PathStep::Attribute(name)) => {
            map.insert(name.clone(), value);
        }
        (Some(Container::List(list)), PathStep::Index(index)) => match list.get_mut(*index) {
            Some(slot) => *slot = value,
            None => appends.entry(parent.to_vec()).or_default().push((*index, value)),
        },
        _ => return Err(runtime_error(span, INVALID_PATH)),
    }
    Ok(())
}

/// Computes a SET value from the item as it was.
fn set_value(value: &SetValue, item: &Item, span: Span) -> Result<AttributeValue> {
    let number = |operand: &UpdateOperand| -> Result<Number> {
        match self::operand(operand, item, span)? {
            AttributeValue::N(n) => Ok(n),
            _ => Err(runtime_error(span, WRONG_TYPE)),
        }
    };
    let arithmetic = |result: std::result::Result<Number, ValidationError>| {
        result
            .map(AttributeValue::N)
            .map_err(|e| arithmetic_error(span, &e))
    };
    match value {
        SetValue::Operand(o) => operand(o, item, span),
        SetValue::Plus(a, b) => {
            let a = number(a)?;
            arithmetic(a.checked_add(&number(b)?))
        }
        SetValue::Minus(a, b) => {
            let a = number(a)?;
            arithmetic(a.checked_sub(&number(b)?))
        }
    }
}

fn operand(operand: &UpdateOperand, item: &Item, span: Span) -> Result<AttributeValue> {
    match operand {
        UpdateOperand::Path(path) => path
            .get(item)
            .cloned()
            .ok_or_else(|| runtime_error(span, MISSING_ATTRIBUTE)),
        UpdateOperand::Value(value) => Ok(value.clone()),
        UpdateOperand::IfNotExists(path, fallback) => match path.get(item) {
            Some(value) => Ok(value.clone()),
            None => self::operand(fallback, item, span),
        },
        UpdateOperand::ListAppend(a, b) => {
            let a = self::operand(a, item, span)?;
            let AttributeValue::L(mut list) = a else {
                return Err(runtime_error(span, WRONG_TYPE));
            };
            let AttributeValue::L(tail) = self::operand(b, item, span)? else {
                return Err(runtime_error(span, WRONG_TYPE));
            };
            list.extend(tail);
            Ok(AttributeValue::L(list))
        }
    }
}
