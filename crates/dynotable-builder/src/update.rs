//! UpdateExpression as a list of actions, and ProjectionExpression as a list of paths.
//!
//! An update is SET (a value, `a + b`, `a - b`, `if_not_exists(path, value)`,
//! `list_append(a, b)`), REMOVE, ADD and DELETE actions on document paths with map keys and
//! list indexes. Written out, the actions are grouped into one clause per kind in the order
//! SET, REMOVE, ADD, DELETE (the service allows each clause once, Rule B.6), keeping the order of
//! the actions inside a clause. Paths of one update may not overlap; that, and every other rule,
//! is checked by `dynotable-expr` when the written text is resolved ([`crate::check`]).

use dynotable_expr::update::{SetValue as ResolvedSet, Update, UpdateAction, UpdateOperand};
use dynotable_types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::attributes::{ExpressionAttributes, hint};
use crate::error::BuildError;
use crate::path::AttributePath;

/// An operand of a SET action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UpdateOperandState {
    Path {
        path: AttributePath,
    },
    Value {
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        value: AttributeValue,
    },
    /// `if_not_exists(path, fallback)`
    IfNotExists {
        path: AttributePath,
        fallback: Box<UpdateOperandState>,
    },
    /// `list_append(first, second)`
    ListAppend {
        first: Box<UpdateOperandState>,
        second: Box<UpdateOperandState>,
    },
}

/// The right-hand side of a SET action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SetValueState {
    Operand {
        operand: UpdateOperandState,
    },
    /// `left + right`
    Plus {
        left: UpdateOperandState,
        right: UpdateOperandState,
    },
    /// `left - right`
    Minus {
        left: UpdateOperandState,
        right: UpdateOperandState,
    },
}

/// One action of an update.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "action", rename_all = "camelCase")]
pub enum UpdateActionState {
    Set {
        path: AttributePath,
        value: SetValueState,
    },
    Remove {
        path: AttributePath,
    },
    /// Adds a number to a number, or elements to a set.
    Add {
        path: AttributePath,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        value: AttributeValue,
    },
    /// Removes elements from a set.
    Delete {
        path: AttributePath,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        value: AttributeValue,
    },
}

impl UpdateActionState {
    fn clause(&self) -> usize {
        match self {
            UpdateActionState::Set { .. } => 0,
            UpdateActionState::Remove { .. } => 1,
            UpdateActionState::Add { .. } => 2,
            UpdateActionState::Delete { .. } => 3,
        }
    }
}

/// An update: its actions.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct UpdateState {
    pub actions: Vec<UpdateActionState>,
}

const CLAUSES: [&str; 4] = ["SET", "REMOVE", "ADD", "DELETE"];

impl UpdateOperandState {
    fn write(&self, attrs: &mut ExpressionAttributes, hint: &str) -> Result<String, BuildError> {
        Ok(match self {
            UpdateOperandState::Path { path } => attrs.path(path)?,
            UpdateOperandState::Value { value } => attrs.value(hint, value),
            UpdateOperandState::IfNotExists { path, fallback } => {
                let p = attrs.path(path)?;
                format!("if_not_exists({p}, {})", fallback.write(attrs, hint)?)
            }
            UpdateOperandState::ListAppend { first, second } => {
                let a = first.write(attrs, hint)?;
                format!("list_append({a}, {})", second.write(attrs, hint)?)
            }
        })
    }

    fn from_resolved(operand: &UpdateOperand) -> UpdateOperandState {
        match operand {
            UpdateOperand::Path(path) => UpdateOperandState::Path {
                path: AttributePath::from_document(path),
            },
            UpdateOperand::Value(value) => UpdateOperandState::Value { value: value.clone() },
            UpdateOperand::IfNotExists(path, fallback) => UpdateOperandState::IfNotExists {
                path: AttributePath::from_document(path),
                fallback: Box::new(UpdateOperandState::from_resolved(fallback)),
            },
            UpdateOperand::ListAppend(a, b) => UpdateOperandState::ListAppend {
                first: Box::new(UpdateOperandState::from_resolved(a)),
                second: Box::new(UpdateOperandState::from_resolved(b)),
            },
        }
    }
}

impl UpdateState {
    /// Writes `SET ... REMOVE ... ADD ... DELETE ...`, adding names and values to `attrs`.
    pub fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        if self.actions.is_empty() {
            return Err(BuildError::new("An update needs at least one action"));
        }
        let mut clauses = Vec::new();
        for (index, keyword) in CLAUSES.iter().enumerate() {
            let mut written = Vec::new();
            for action in self.actions.iter().filter(|a| a.clause() == index) {
                written.push(action.write(attrs)?);
            }
            if !written.is_empty() {
                clauses.push(format!("{keyword} {}", written.join(", ")));
            }
        }
        Ok(clauses.join(" "))
    }

    pub fn from_resolved(update: &Update) -> UpdateState {
        UpdateState {
            actions: update
                .actions
                .iter()
                .map(|action| match action {
                    UpdateAction::Set { path, value, .. } => UpdateActionState::Set {
                        path: AttributePath::from_document(path),
                        value: match value {
                            ResolvedSet::Operand(o) => SetValueState::Operand {
                                operand: UpdateOperandState::from_resolved(o),
                            },
                            ResolvedSet::Plus(a, b) => SetValueState::Plus {
                                left: UpdateOperandState::from_resolved(a),
                                right: UpdateOperandState::from_resolved(b),
                            },
                            ResolvedSet::Minus(a, b) => SetValueState::Minus {
                                left: UpdateOperandState::from_resolved(a),
                                right: UpdateOperandState::from_resolved(b),
                            },
                        },
                    },
                    UpdateAction::Remove { path, .. } => UpdateActionState::Remove {
                        path: AttributePath::from_document(path),
                    },
                    UpdateAction::Add { path, value, .. } => UpdateActionState::Add {
                        path: AttributePath::from_document(path),
                        value: value.clone(),
                    },
                    UpdateAction::Delete { path, value, .. } => UpdateActionState::Delete {
                        path: AttributePath::from_document(path),
                        value: value.clone(),
                    },
                })
                .collect(),
        }
    }

    /// The actions in the order they are written (clause by clause): two updates mean the same
    /// when their normal forms are equal (paths of one update never overlap, so the order
    /// across clauses does not change the result).
    pub fn normalised(&self) -> UpdateState {
        let mut actions = self.actions.clone();
        actions.sort_by_key(UpdateActionState::clause);
        UpdateState { actions }
    }
}

impl UpdateActionState {
    fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        Ok(match self {
            UpdateActionState::Set { path, value } => {
                let target = attrs.path(path)?;
                let h = hint(Some(path), "");
                let value = match value {
                    SetValueState::Operand { operand } => operand.write(attrs, &h)?,
                    SetValueState::Plus { left, right } => {
                        let l = left.write(attrs, &h)?;
                        format!("{l} + {}", right.write(attrs, &h)?)
                    }
                    SetValueState::Minus { left, right } => {
                        let l = left.write(attrs, &h)?;
                        format!("{l} - {}", right.write(attrs, &h)?)
                    }
                };
                format!("{target} = {value}")
            }
            UpdateActionState::Remove { path } => attrs.path(path)?,
            UpdateActionState::Add { path, value } | UpdateActionState::Delete { path, value } => {
                let target = attrs.path(path)?;
                format!("{target} {}", attrs.value(&hint(Some(path), ""), value))
            }
        })
    }
}

/// A projection: the attributes, or parts of attributes, to return.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProjectionState {
    pub paths: Vec<AttributePath>,
}

impl ProjectionState {
    pub fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        if self.paths.is_empty() {
            return Err(BuildError::new("A projection needs at least one attribute"));
        }
        let mut written = Vec::with_capacity(self.paths.len());
        for path in &self.paths {
            written.push(attrs.path(path)?);
        }
        Ok(written.join(", "))
    }

    pub fn from_resolved(projection: &dynotable_expr::Projection) -> ProjectionState {
        ProjectionState {
            paths: projection
                .paths
                .iter()
                .map(AttributePath::from_document)
                .collect(),
        }
    }
}
