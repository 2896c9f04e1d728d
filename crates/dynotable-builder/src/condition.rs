//! Filters and conditions (FilterExpression, ConditionExpression) as a tree the UI edits.
//!
//! The tree has every form the service accepts (Rule B.6, docs/dynamodb-rules.md): comparisons with
//! `= <> < <= > >=`, `BETWEEN`, `IN`, the functions `attribute_exists`, `attribute_not_exists`,
//! `attribute_type`, `begins_with`, `contains` and `size`, and `AND`/`OR` groups of any number of
//! members and `NOT`. Groups are the grouping: writing the tree adds a pair of parentheses only
//! where precedence (NOT over AND over OR) needs it, so the text never trips the service's
//! redundant-parentheses rule.
//!
//! Text back to tree goes through `dynotable-expr`'s resolver — the engine's parser and checks —
//! and then maps the resolved condition node by node; nested ANDs and ORs become one group,
//! which is the same condition since both are associative.

use dynotable_expr::ast::Comparator as ExprComparator;
use dynotable_expr::condition::{Condition as Resolved, Operand as ResolvedOperand};
use dynotable_types::{AttributeType, AttributeValue};
use serde::{Deserialize, Serialize};

use crate::attributes::{ExpressionAttributes, hint};
use crate::error::BuildError;
use crate::path::AttributePath;

/// A comparator, serialised as its symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Comparator {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<>")]
    Ne,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
}

impl Comparator {
    pub const ALL: [Comparator; 6] = [
        Comparator::Eq,
        Comparator::Ne,
        Comparator::Lt,
        Comparator::Le,
        Comparator::Gt,
        Comparator::Ge,
    ];

    pub fn symbol(self) -> &'static str {
        self.to_expr().symbol()
    }

    pub fn to_expr(self) -> ExprComparator {
        match self {
            Comparator::Eq => ExprComparator::Eq,
            Comparator::Ne => ExprComparator::Ne,
            Comparator::Lt => ExprComparator::Lt,
            Comparator::Le => ExprComparator::Le,
            Comparator::Gt => ExprComparator::Gt,
            Comparator::Ge => ExprComparator::Ge,
        }
    }

    pub fn from_expr(op: ExprComparator) -> Comparator {
        match op {
            ExprComparator::Eq => Comparator::Eq,
            ExprComparator::Ne => Comparator::Ne,
            ExprComparator::Lt => Comparator::Lt,
            ExprComparator::Le => Comparator::Le,
            ExprComparator::Gt => Comparator::Gt,
            ExprComparator::Ge => Comparator::Ge,
        }
    }
}

/// The ten type descriptors `attribute_type` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[allow(clippy::upper_case_acronyms)]
pub enum TypeDescriptor {
    S,
    N,
    B,
    SS,
    NS,
    BS,
    M,
    L,
    NULL,
    BOOL,
}

impl TypeDescriptor {
    pub fn to_attribute_type(self) -> AttributeType {
        match self {
            TypeDescriptor::S => AttributeType::S,
            TypeDescriptor::N => AttributeType::N,
            TypeDescriptor::B => AttributeType::B,
            TypeDescriptor::SS => AttributeType::SS,
            TypeDescriptor::NS => AttributeType::NS,
            TypeDescriptor::BS => AttributeType::BS,
            TypeDescriptor::M => AttributeType::M,
            TypeDescriptor::L => AttributeType::L,
            TypeDescriptor::NULL => AttributeType::NULL,
            TypeDescriptor::BOOL => AttributeType::BOOL,
        }
    }

    pub fn from_attribute_type(t: AttributeType) -> TypeDescriptor {
        match t {
            AttributeType::S => TypeDescriptor::S,
            AttributeType::N => TypeDescriptor::N,
            AttributeType::B => TypeDescriptor::B,
            AttributeType::SS => TypeDescriptor::SS,
            AttributeType::NS => TypeDescriptor::NS,
            AttributeType::BS => TypeDescriptor::BS,
            AttributeType::M => TypeDescriptor::M,
            AttributeType::L => TypeDescriptor::L,
            AttributeType::NULL => TypeDescriptor::NULL,
            AttributeType::BOOL => TypeDescriptor::BOOL,
        }
    }
}

/// An operand: an attribute of the item, a typed value, or `size(...)` of an operand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Operand {
    Path {
        path: AttributePath,
    },
    Value {
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        value: AttributeValue,
    },
    Size {
        operand: Box<Operand>,
    },
}

impl Operand {
    pub fn path(path: AttributePath) -> Operand {
        Operand::Path { path }
    }

    pub fn value(value: AttributeValue) -> Operand {
        Operand::Value { value }
    }

    /// The path this operand reads, looking through `size`.
    fn subject(&self) -> Option<&AttributePath> {
        match self {
            Operand::Path { path } => Some(path),
            Operand::Value { .. } => None,
            Operand::Size { operand } => operand.subject(),
        }
    }

    /// Writes the operand; a value's placeholder is named after `hint`.
    pub(crate) fn write(&self, attrs: &mut ExpressionAttributes, hint: &str) -> Result<String, BuildError> {
        Ok(match self {
            Operand::Path { path } => attrs.path(path)?,
            Operand::Value { value } => attrs.value(hint, value),
            Operand::Size { operand } => format!("size({})", operand.write(attrs, hint)?),
        })
    }

    pub(crate) fn from_resolved(operand: &ResolvedOperand) -> Operand {
        match operand {
            ResolvedOperand::Path(path) => Operand::path(AttributePath::from_document(path)),
            ResolvedOperand::Value(value) => Operand::value(value.clone()),
            ResolvedOperand::Size(inner) => Operand::Size {
                operand: Box::new(Operand::from_resolved(inner)),
            },
        }
    }
}

/// A filter or condition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ConditionState {
    /// `left <op> right`
    Compare {
        left: Operand,
        op: Comparator,
        right: Operand,
    },
    /// `operand BETWEEN low AND high` (both bounds included)
    Between {
        operand: Operand,
        low: Operand,
        high: Operand,
    },
    /// `operand IN (list...)`
    In { operand: Operand, list: Vec<Operand> },
    /// `attribute_exists(path)`
    AttributeExists { path: AttributePath },
    /// `attribute_not_exists(path)`
    AttributeNotExists { path: AttributePath },
    /// `attribute_type(operand, :type)`
    #[serde(rename_all = "camelCase")]
    AttributeType {
        operand: Operand,
        attribute_type: TypeDescriptor,
    },
    /// `begins_with(operand, prefix)`
    BeginsWith { operand: Operand, prefix: Operand },
    /// `contains(operand, element)`
    Contains { operand: Operand, element: Operand },
    /// `NOT condition`
    Not { condition: Box<ConditionState> },
    /// Every member holds.
    And { conditions: Vec<ConditionState> },
    /// At least one member holds.
    Or { conditions: Vec<ConditionState> },
}

/// Binding strength, loosest first: what a member needs around it in its parent.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Precedence {
    Or,
    And,
    Not,
    Atom,
}

impl ConditionState {
    pub fn compare(path: AttributePath, op: Comparator, value: AttributeValue) -> ConditionState {
        ConditionState::Compare {
            left: Operand::path(path),
            op,
            right: Operand::value(value),
        }
    }

    fn precedence(&self) -> Precedence {
        match self {
            ConditionState::Or { conditions } if conditions.len() > 1 => Precedence::Or,
            ConditionState::And { conditions } if conditions.len() > 1 => Precedence::And,
            ConditionState::Or { conditions } | ConditionState::And { conditions } => conditions
                .first()
                .map_or(Precedence::Atom, ConditionState::precedence),
            ConditionState::Not { .. } => Precedence::Not,
            _ => Precedence::Atom,
        }
    }

    /// Writes the condition as expression text, adding its names and values to `attrs`.
    pub fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        Ok(match self {
            ConditionState::Compare { left, op, right } => {
                let (l, r) = pair(attrs, left, right, "")?;
                format!("{l} {} {r}", op.symbol())
            }
            ConditionState::Between { operand, low, high } => {
                let subject = operand.subject().cloned();
                let value = operand.write(attrs, &hint(None, "value"))?;
                let low = low.write(attrs, &hint(subject.as_ref(), "from"))?;
                let high = high.write(attrs, &hint(subject.as_ref(), "to"))?;
                format!("{value} BETWEEN {low} AND {high}")
            }
            ConditionState::In { operand, list } => {
                if list.is_empty() {
                    return Err(BuildError::new("IN needs at least one value to compare with"));
                }
                let subject = operand.subject().cloned();
                let value = operand.write(attrs, &hint(None, "value"))?;
                let mut items = Vec::with_capacity(list.len());
                for (i, item) in list.iter().enumerate() {
                    items.push(item.write(attrs, &hint(subject.as_ref(), &(i + 1).to_string()))?);
                }
                format!("{value} IN ({})", items.join(", "))
            }
            ConditionState::AttributeExists { path } => format!("attribute_exists({})", attrs.path(path)?),
            ConditionState::AttributeNotExists { path } => {
                format!("attribute_not_exists({})", attrs.path(path)?)
            }
            ConditionState::AttributeType {
                operand,
                attribute_type,
            } => {
                let subject = operand.subject().cloned();
                let written = operand.write(attrs, &hint(None, "value"))?;
                let descriptor = AttributeValue::S(attribute_type.to_attribute_type().as_str().to_string());
                let t = attrs.value(&hint(subject.as_ref(), "type"), &descriptor);
                format!("attribute_type({written}, {t})")
            }
            ConditionState::BeginsWith { operand, prefix } => {
                let (a, b) = pair(attrs, operand, prefix, "prefix")?;
                format!("begins_with({a}, {b})")
            }
            ConditionState::Contains { operand, element } => {
                let (a, b) = pair(attrs, operand, element, "element")?;
                format!("contains({a}, {b})")
            }
            ConditionState::Not { condition } => {
                format!("NOT {}", condition.write_at(attrs, Precedence::Atom)?)
            }
            ConditionState::And { conditions } => group(attrs, conditions, " AND ", Precedence::And)?,
            ConditionState::Or { conditions } => group(attrs, conditions, " OR ", Precedence::Or)?,
        })
    }

    /// Writes the condition as a member that must bind at least as tightly as `needed`.
    fn write_at(&self, attrs: &mut ExpressionAttributes, needed: Precedence) -> Result<String, BuildError> {
        let text = self.write(attrs)?;
        Ok(if self.precedence() < needed {
            format!("({text})")
        } else {
            text
        })
    }

    /// The builder's form of a condition resolved by `dynotable-expr`.
    pub fn from_resolved(condition: &Resolved) -> ConditionState {
        match condition {
            Resolved::Compare { op, left, right } => ConditionState::Compare {
                left: Operand::from_resolved(left),
                op: Comparator::from_expr(*op),
                right: Operand::from_resolved(right),
            },
            Resolved::Between { value, low, high } => ConditionState::Between {
                operand: Operand::from_resolved(value),
                low: Operand::from_resolved(low),
                high: Operand::from_resolved(high),
            },
            Resolved::In { value, list } => ConditionState::In {
                operand: Operand::from_resolved(value),
                list: list.iter().map(Operand::from_resolved).collect(),
            },
            Resolved::AttributeExists(path) => ConditionState::AttributeExists {
                path: AttributePath::from_document(path),
            },
            Resolved::AttributeNotExists(path) => ConditionState::AttributeNotExists {
                path: AttributePath::from_document(path),
            },
            Resolved::AttributeType { operand, expected } => ConditionState::AttributeType {
                operand: Operand::from_resolved(operand),
                attribute_type: TypeDescriptor::from_attribute_type(*expected),
            },
            Resolved::BeginsWith { operand, prefix } => ConditionState::BeginsWith {
                operand: Operand::from_resolved(operand),
                prefix: Operand::from_resolved(prefix),
            },
            Resolved::Contains { operand, element } => ConditionState::Contains {
                operand: Operand::from_resolved(operand),
                element: Operand::from_resolved(element),
            },
            Resolved::Not(inner) => ConditionState::Not {
                condition: Box::new(ConditionState::from_resolved(inner)),
            },
            Resolved::And(..) => ConditionState::And {
                conditions: flatten(condition, true),
            },
            Resolved::Or(..) => ConditionState::Or {
                conditions: flatten(condition, false),
            },
        }
    }

    /// The same condition with every group of one member replaced by that member and nested
    /// groups of the same kind merged: two states mean the same when their normal forms are
    /// equal (used by the round-trip tests).
    pub fn normalised(&self) -> ConditionState {
        match self {
            ConditionState::And { conditions } | ConditionState::Or { conditions } => {
                let is_and = matches!(self, ConditionState::And { .. });
                let mut members = Vec::new();
                for member in conditions.iter().map(ConditionState::normalised) {
                    match member {
                        ConditionState::And { conditions } if is_and => members.extend(conditions),
                        ConditionState::Or { conditions } if !is_and => members.extend(conditions),
                        other => members.push(other),
                    }
                }
                match (members.len(), is_and) {
                    (1, _) => members.remove(0),
                    (_, true) => ConditionState::And { conditions: members },
                    (_, false) => ConditionState::Or { conditions: members },
                }
            }
            ConditionState::Not { condition } => ConditionState::Not {
                condition: Box::new(condition.normalised()),
            },
            other => other.clone(),
        }
    }
}

/// Writes two operands; a value among them is named after the other one's path.
fn pair(
    attrs: &mut ExpressionAttributes,
    first: &Operand,
    second: &Operand,
    role: &str,
) -> Result<(String, String), BuildError> {
    let first_hint = hint(second.subject(), "");
    let second_hint = hint(first.subject(), role);
    let a = first.write(attrs, &first_hint)?;
    let b = second.write(attrs, &second_hint)?;
    Ok((a, b))
}

fn group(
    attrs: &mut ExpressionAttributes,
    members: &[ConditionState],
    joiner: &str,
    level: Precedence,
) -> Result<String, BuildError> {
    if members.is_empty() {
        let kind = if level == Precedence::And { "AND" } else { "OR" };
        return Err(BuildError::new(format!(
            "An {kind} group needs at least one condition"
        )));
    }
    let mut parts = Vec::with_capacity(members.len());
    for member in members {
        // A group of one stands for its member; otherwise members of the same level need no
        // parentheses (AND and OR are associative), looser ones do.
        let needed = if members.len() == 1 { Precedence::Or } else { level };
        parts.push(member.write_at(attrs, needed)?);
    }
    Ok(parts.join(joiner))
}

/// The members of a chain of ANDs (`and`) or ORs, in textual order.
fn flatten(condition: &Resolved, and: bool) -> Vec<ConditionState> {
    match (condition, and) {
        (Resolved::And(a, b), true) | (Resolved::Or(a, b), false) => {
            let mut members = flatten(a, and);
            members.extend(flatten(b, and));
            members
        }
        _ => vec![ConditionState::from_resolved(condition)],
    }
}
