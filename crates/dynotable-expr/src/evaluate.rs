//! Evaluating a resolved condition against an item.
//!
//! Evaluation never fails: every error the service raises for a condition is raised while
//! resolving it. What remains is DynamoDB's semantics (AWS Developer Guide, "Condition and
//! filter expressions, operators, and functions"; Rule B.9, docs/dynamodb-rules.md; behaviour checked
//! against the live service by the ScyllaDB Alternator test suite):
//!
//! - A missing attribute (or a missing item) makes every comparator false except `<>`, which is
//!   true — even when both sides are missing (`a <> b` holds, `a = b` does not).
//! - `=` and `<>` compare any two values: different types are unequal; numbers compare
//!   numerically; sets compare as sets, whatever the order of their elements; lists and maps
//!   compare element by element.
//! - `<`, `<=`, `>`, `>=` and BETWEEN order S by UTF-8 bytes, B by unsigned bytes and N
//!   numerically; with different types, or any other type, they are false.
//! - `IN` is true when the value equals one of the listed values.
//! - `begins_with` works on S and B (with a prefix of the same type); `contains` is a substring
//!   test on S and B, and a membership test on sets (element of the set's type) and lists (any
//!   element equal to the operand).
//! - `size` is the UTF-8 length of an S, the length of a B, the element count of a set, L or M;
//!   an N, BOOL or NULL has no size and makes the comparison false.
//! - `attribute_type(a, :t)` is true when `a` exists with type `:t`.

use std::borrow::Cow;
use std::cmp::Ordering;

use dynotable_types::{AttributeValue, Item, Number};

use crate::ast::Comparator;
use crate::condition::{Condition, Operand};

impl Condition {
    /// Whether `item` satisfies the condition; `None` is an item that does not exist.
    pub fn evaluate(&self, item: Option<&Item>) -> bool {
        evaluate(self, item)
    }
}

/// Whether `item` satisfies `condition`; `None` is an item that does not exist.
pub fn evaluate(condition: &Condition, item: Option<&Item>) -> bool {
    match condition {
        Condition::Compare { op, left, right } => {
            let (left, right) = (operand(left, item), operand(right, item));
            match (left.as_deref(), right.as_deref()) {
                (Some(left), Some(right)) => match op {
                    Comparator::Eq => left == right,
                    Comparator::Ne => left != right,
                    Comparator::Lt => compare_values(left, right) == Some(Ordering::Less),
                    Comparator::Le => {
                        matches!(
                            compare_values(left, right),
                            Some(Ordering::Less | Ordering::Equal)
                        )
                    }
                    Comparator::Gt => compare_values(left, right) == Some(Ordering::Greater),
                    Comparator::Ge => {
                        matches!(
                            compare_values(left, right),
                            Some(Ordering::Greater | Ordering::Equal)
                        )
                    }
                },
                _ => *op == Comparator::Ne,
            }
        }
        Condition::Between { value, low, high } => {
            let (value, low, high) = (operand(value, item), operand(low, item), operand(high, item));
            match (value.as_deref(), low.as_deref(), high.as_deref()) {
                (Some(value), Some(low), Some(high)) => {
                    matches!(compare_values(low, value), Some(Ordering::Less | Ordering::Equal))
                        && matches!(
                            compare_values(value, high),
                            Some(Ordering::Less | Ordering::Equal)
                        )
                }
                _ => false,
            }
        }
        Condition::In { value, list } => match operand(value, item) {
            Some(value) => list
                .iter()
                .any(|candidate| operand(candidate, item).as_deref() == Some(&*value)),
            None => false,
        },
        Condition::AttributeExists(path) => item.and_then(|item| path.get(item)).is_some(),
        Condition::AttributeNotExists(path) => item.and_then(|item| path.get(item)).is_none(),
        Condition::AttributeType { operand: o, expected } => {
            operand(o, item).is_some_and(|value| value.attribute_type() == *expected)
        }
        Condition::BeginsWith { operand: o, prefix } => {
            match (operand(o, item).as_deref(), operand(prefix, item).as_deref()) {
                (Some(AttributeValue::S(s)), Some(AttributeValue::S(p))) => s.starts_with(p.as_str()),
                (Some(AttributeValue::B(b)), Some(AttributeValue::B(p))) => b.starts_with(p),
                _ => false,
            }
        }
        Condition::Contains { operand: o, element } => {
            match (operand(o, item).as_deref(), operand(element, item).as_deref()) {
                (Some(container), Some(element)) => contains(container, element),
                _ => false,
            }
        }
        Condition::Not(inner) => !evaluate(inner, item),
        Condition::And(left, right) => evaluate(left, item) && evaluate(right, item),
        Condition::Or(left, right) => evaluate(left, item) || evaluate(right, item),
    }
}

/// The value of an operand for `item`; `None` when it refers to nothing, or is the size of a
/// value that has none.
fn operand<'a>(operand: &'a Operand, item: Option<&'a Item>) -> Option<Cow<'a, AttributeValue>> {
    match operand {
        Operand::Path(path) => item.and_then(|item| path.get(item)).map(Cow::Borrowed),
        Operand::Value(value) => Some(Cow::Borrowed(value)),
        Operand::Size(inner) => {
            let value = self::operand(inner, item)?;
            size(&value).map(|n| Cow::Owned(AttributeValue::N(Number::from(n as u64))))
        }
    }
}

/// `size(value)`, or `None` for N, BOOL and NULL.
pub fn size(value: &AttributeValue) -> Option<usize> {
    Some(match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::B(b) => b.len(),
        AttributeValue::SS(set) => set.len(),
        AttributeValue::NS(set) => set.len(),
        AttributeValue::BS(set) => set.len(),
        AttributeValue::L(list) => list.len(),
        AttributeValue::M(map) => map.len(),
        AttributeValue::N(_) | AttributeValue::BOOL(_) | AttributeValue::NULL => return None,
    })
}

/// The order of two values of the same scalar type (Rule B.9): S by UTF-8 bytes, B by
/// unsigned bytes, N numerically. `None` for different types and for non-scalars.
pub fn compare_values(left: &AttributeValue, right: &AttributeValue) -> Option<Ordering> {
    match (left, right) {
        (AttributeValue::S(a), AttributeValue::S(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
        (AttributeValue::B(a), AttributeValue::B(b)) => Some(a.cmp(b)),
        (AttributeValue::N(a), AttributeValue::N(b)) => Some(a.cmp(b)),
        _ => None,
    }
}

/// `contains(container, element)`.
fn contains(container: &AttributeValue, element: &AttributeValue) -> bool {
    match (container, element) {
        (AttributeValue::S(s), AttributeValue::S(sub)) => s.contains(sub.as_str()),
        (AttributeValue::B(b), AttributeValue::B(sub)) => {
            sub.is_empty() || b.windows(sub.len()).any(|window| window == sub.as_slice())
        }
        (AttributeValue::SS(set), AttributeValue::S(s)) => set.contains(s),
        (AttributeValue::NS(set), AttributeValue::N(n)) => set.contains(n),
        (AttributeValue::BS(set), AttributeValue::B(b)) => set.contains(b),
        (AttributeValue::L(list), element) => list.contains(element),
        _ => false,
    }
}
