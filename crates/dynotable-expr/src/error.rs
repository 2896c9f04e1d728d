//! The one error type of this crate: the DynamoDB exception it maps to, the message the service
//! would return, and where in which expression it happened.
//!
//! Messages are complete: an error inside an expression already carries the service's prefix
//! (`Invalid UpdateExpression: ...`), and request-level errors (unused placeholders, key-attribute
//! updates, runtime update failures) carry none, exactly as DynamoDB words them
//! (Rule B.6 / B.10, docs/dynamodb-rules.md). The span is kept apart from the message so the desktop
//! app can underline the offending text without parsing the message.

use std::fmt;

/// A byte range `start..end` in the source text of one expression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn len(&self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// The request parameter an expression was given in. It decides the grammar, and the prefix of
/// every error raised inside the expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpressionKind {
    Condition,
    Filter,
    KeyCondition,
    Projection,
    Update,
}

impl ExpressionKind {
    /// The request parameter's name, as the service spells it in messages.
    pub fn parameter(self) -> &'static str {
        match self {
            ExpressionKind::Condition => "ConditionExpression",
            ExpressionKind::Filter => "FilterExpression",
            ExpressionKind::KeyCondition => "KeyConditionExpression",
            ExpressionKind::Projection => "ProjectionExpression",
            ExpressionKind::Update => "UpdateExpression",
        }
    }
}

impl fmt::Display for ExpressionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.parameter())
    }
}

/// The DynamoDB exception an error is returned as. Every failure of an expression — bad syntax,
/// bad placeholders, a type error while applying an update — is a `ValidationException`
/// (Rule B.10); a false condition is not an error of this crate but a `false` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exception {
    ValidationException,
}

impl Exception {
    pub fn name(self) -> &'static str {
        match self {
            Exception::ValidationException => "ValidationException",
        }
    }
}

/// An expression error: exception, full service message, and (when it points into an
/// expression) which expression and which bytes of it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Error {
    pub exception: Exception,
    pub message: String,
    /// The expression the span points into; `None` for errors about the request as a whole.
    pub expression: Option<ExpressionKind>,
    pub span: Option<Span>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error inside an expression: the message gets the service's `Invalid <Kind>: ` prefix.
    pub fn invalid(kind: ExpressionKind, span: Span, detail: impl fmt::Display) -> Error {
        Error {
            exception: Exception::ValidationException,
            message: format!("Invalid {}: {detail}", kind.parameter()),
            expression: Some(kind),
            span: Some(span),
        }
    }

    /// An error the service reports without the `Invalid <Kind>: ` prefix, but that still
    /// points at a place in an expression (key-condition structure, key-attribute updates).
    pub fn unprefixed(kind: ExpressionKind, span: Span, message: impl Into<String>) -> Error {
        Error {
            exception: Exception::ValidationException,
            message: message.into(),
            expression: Some(kind),
            span: Some(span),
        }
    }

    /// An error about the request as a whole (placeholder maps, runtime update failures).
    pub fn request(message: impl Into<String>) -> Error {
        Error {
            exception: Exception::ValidationException,
            message: message.into(),
            expression: None,
            span: None,
        }
    }
}
