//! Document paths as the builder holds them: a list of steps, each a map key (a string) or a
//! list index (a number). On the wire to the UI a path is a JSON array such as
//! `["address", "lines", 0]` — the attribute names are the real ones, never placeholders;
//! placeholders are chosen only when the path is written out as expression text
//! ([`crate::attributes::ExpressionAttributes::path`]).

use std::fmt;

use dynotable_expr::{DocumentPath, PathStep as ExprStep};
use serde::{Deserialize, Serialize};

use crate::error::BuildError;

/// One step of a path: a map key (or, first, a top-level attribute name) or a list index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(untagged)]
pub enum PathStep {
    Index(u32),
    Key(String),
}

/// A document path: `["order", "items", 2, "sku"]` is `order.items[2].sku`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(transparent)]
pub struct AttributePath(pub Vec<PathStep>);

impl AttributePath {
    /// A one-step path naming a top-level attribute.
    pub fn attribute(name: impl Into<String>) -> AttributePath {
        AttributePath(vec![PathStep::Key(name.into())])
    }

    /// The path with one more map key.
    pub fn key(mut self, name: impl Into<String>) -> AttributePath {
        self.0.push(PathStep::Key(name.into()));
        self
    }

    /// The path with one more list index.
    pub fn index(mut self, index: u32) -> AttributePath {
        self.0.push(PathStep::Index(index));
        self
    }

    /// The last map key of the path: what generated value placeholders are named after.
    pub fn last_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|step| match step {
            PathStep::Key(name) => Some(name.as_str()),
            PathStep::Index(_) => None,
        })
    }

    /// The top-level attribute the path starts at.
    pub fn top_level(&self) -> Option<&str> {
        match self.0.first() {
            Some(PathStep::Key(name)) => Some(name),
            _ => None,
        }
    }

    /// A path must start with an attribute name; attribute names are never empty (Rule B.6,
    /// docs/dynamodb-rules.md: `Empty attribute name`).
    pub fn check(&self) -> Result<(), BuildError> {
        match self.0.first() {
            None => {
                return Err(BuildError::new(
                    "A document path needs at least one attribute name",
                ));
            }
            Some(PathStep::Index(_)) => {
                return Err(BuildError::new(format!(
                    "A document path starts with an attribute name, not a list index: {self}"
                )));
            }
            Some(PathStep::Key(_)) => {}
        }
        if self
            .0
            .iter()
            .any(|step| matches!(step, PathStep::Key(k) if k.is_empty()))
        {
            return Err(BuildError::new(format!(
                "Empty attribute name in document path {self}"
            )));
        }
        Ok(())
    }

    /// The builder's form of a path resolved by the expression crate.
    pub fn from_document(path: &DocumentPath) -> AttributePath {
        AttributePath(
            path.steps()
                .iter()
                .map(|step| match step {
                    ExprStep::Attribute(name) => PathStep::Key(name.clone()),
                    // Indexes come from a u32 in the parser.
                    ExprStep::Index(index) => PathStep::Index(u32::try_from(*index).unwrap_or(u32::MAX)),
                })
                .collect(),
        )
    }
}

/// Human-readable form for messages: `order.items[2].sku` (names as they are, unescaped).
impl fmt::Display for AttributePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                PathStep::Key(name) if i == 0 => f.write_str(name)?,
                PathStep::Key(name) => write!(f, ".{name}")?,
                PathStep::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}
