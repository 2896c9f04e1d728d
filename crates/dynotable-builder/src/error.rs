//! The builder's two kinds of failure.
//!
//! - [`BuildError`]: a builder state that cannot be written as an expression at all (an empty
//!   AND group, an IN without operands, a path that starts with a list index). The UI prevents
//!   most of these; the message says what to fix.
//! - [`Diagnostic`]: what DynamoDB would answer — a `ValidationException` with the service's
//!   message, and the expression and byte span it points at. Every diagnostic comes from
//!   `dynotable-expr`, the crate the engine uses, so the builder and the engine never disagree.

use serde::Serialize;

use dynotable_expr::ExpressionKind;

/// A builder state that has no expression text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[error("{message}")]
pub struct BuildError {
    pub message: String,
}

impl BuildError {
    pub fn new(message: impl Into<String>) -> BuildError {
        BuildError {
            message: message.into(),
        }
    }
}

/// The request parameter an expression is sent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ExpressionParameter {
    KeyConditionExpression,
    FilterExpression,
    ConditionExpression,
    ProjectionExpression,
    UpdateExpression,
}

impl ExpressionParameter {
    pub fn kind(self) -> ExpressionKind {
        match self {
            ExpressionParameter::KeyConditionExpression => ExpressionKind::KeyCondition,
            ExpressionParameter::FilterExpression => ExpressionKind::Filter,
            ExpressionParameter::ConditionExpression => ExpressionKind::Condition,
            ExpressionParameter::ProjectionExpression => ExpressionKind::Projection,
            ExpressionParameter::UpdateExpression => ExpressionKind::Update,
        }
    }

    pub fn from_kind(kind: ExpressionKind) -> ExpressionParameter {
        match kind {
            ExpressionKind::KeyCondition => ExpressionParameter::KeyConditionExpression,
            ExpressionKind::Filter => ExpressionParameter::FilterExpression,
            ExpressionKind::Condition => ExpressionParameter::ConditionExpression,
            ExpressionKind::Projection => ExpressionParameter::ProjectionExpression,
            ExpressionKind::Update => ExpressionParameter::UpdateExpression,
        }
    }
}

/// A byte range in an expression's text, for underlining.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TextSpan {
    pub start: u32,
    pub end: u32,
}

/// What DynamoDB would answer to the request: exception, message, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
#[error("{exception}: {message}")]
pub struct Diagnostic {
    /// Always `ValidationException` (Rule B.10, docs/dynamodb-rules.md).
    pub exception: String,
    pub message: String,
    /// The expression the span points into; `None` for errors about the request as a whole
    /// (unused names or values, bad placeholder maps).
    pub expression: Option<ExpressionParameter>,
    pub span: Option<TextSpan>,
}

impl From<dynotable_expr::Error> for Diagnostic {
    fn from(error: dynotable_expr::Error) -> Diagnostic {
        Diagnostic {
            exception: error.exception.name().to_string(),
            message: error.message,
            expression: error.expression.map(ExpressionParameter::from_kind),
            span: error.span.map(|span| TextSpan {
                start: u32::try_from(span.start).unwrap_or(u32::MAX),
                end: u32::try_from(span.end).unwrap_or(u32::MAX),
            }),
        }
    }
}
