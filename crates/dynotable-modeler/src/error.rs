//! The crate's one error type.

use thiserror::Error;

/// Why a model cannot be used as given. `code` is stable (the app maps it to its own error
/// codes); `message` is a plain sentence; `exception` is DynamoDB's exception name when the
/// rule broken is the service's (CreateTable's validation).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ModelError {
    pub code: ErrorCode,
    pub message: String,
    pub exception: Option<String>,
    /// The part of the model the problem concerns, when it is known, so an editor can show the
    /// message beside that part.
    pub at: Option<ProblemAt>,
}

/// Where in a model a problem lies: a table, an entity or an access pattern by name, and the
/// member of it when one is to blame.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProblemAt {
    pub part: ModelPart,
    /// The table's, entity's or pattern's name.
    pub name: String,
    /// The member to blame: `table` (an entity's table), `key:<attribute>` (a key it fills),
    /// `field:<name>` (a field and its generator), `entity`, `given:<field>`, `range`,
    /// `orderBy` or `rate` (a pattern's); `None` for the part as a whole.
    pub member: Option<String>,
}

/// The three kinds of part a model has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum ModelPart {
    Table,
    Entity,
    Pattern,
}

/// What kind of problem a [`ModelError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The model refers to something it does not define, or defines it twice.
    InvalidModel,
    /// A table of the model is one CreateTable would refuse.
    InvalidTable,
    /// A key template does not parse, or cannot be filled.
    InvalidTemplate,
    /// A sample-data generator cannot produce a value.
    InvalidGenerator,
    /// An access pattern names what its entity does not have.
    InvalidPattern,
    /// An imported file is not in the format it claims.
    InvalidImport,
}

impl ModelError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ModelError {
        ModelError {
            code,
            message: message.into(),
            exception: None,
            at: None,
        }
    }

    /// The error, placed on `part` `name` (and its `member`, if given).
    pub fn at(mut self, part: ModelPart, name: &str, member: Option<String>) -> ModelError {
        self.at = Some(ProblemAt {
            part,
            name: name.to_owned(),
            member,
        });
        self
    }

    pub fn model(message: impl Into<String>) -> ModelError {
        ModelError::new(ErrorCode::InvalidModel, message)
    }

    pub fn template(message: impl Into<String>) -> ModelError {
        ModelError::new(ErrorCode::InvalidTemplate, message)
    }

    pub fn generator(message: impl Into<String>) -> ModelError {
        ModelError::new(ErrorCode::InvalidGenerator, message)
    }

    pub fn pattern(message: impl Into<String>) -> ModelError {
        ModelError::new(ErrorCode::InvalidPattern, message)
    }

    pub fn import(message: impl Into<String>) -> ModelError {
        ModelError::new(ErrorCode::InvalidImport, message)
    }

    /// CreateTable's refusal of table `table`, with the service's exception and message.
    pub fn create_table(table: &str, error: dynotable_engine::ApiError) -> ModelError {
        ModelError {
            code: ErrorCode::InvalidTable,
            message: format!("table {table}: {}", error.message),
            exception: Some(error.kind.name().to_owned()),
            at: Some(ProblemAt {
                part: ModelPart::Table,
                name: table.to_owned(),
                member: None,
            }),
        }
    }
}
