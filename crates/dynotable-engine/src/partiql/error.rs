//! How PartiQL statements fail: syntax errors with the span they point at, and the service's
//! messages for statements that parse but are not allowed.
//!
//! The texts below are the ones DynamoDB's PartiQL front end uses (the message table shipped in
//! DynamoDB Local's `ddb.partiql.shared.exceptions.ValidationExceptionMessages`, which the
//! service shares; wordings marked "unverified" are ours). A syntax error is wrapped the way the
//! service wraps it — `Statement wasn't well formed, can't be processed: <detail>` — and, like
//! the service's positional messages (`Unexpected path component at 1:8:5`), names the line,
//! column and length of the offending text.

use dynotable_expr::Span;

use crate::ApiError;

/// The envelope of every syntax error.
pub(crate) const MALFORMED: &str = "Statement wasn't well formed, can't be processed";

pub(crate) const INCOMPLETE_KEY: &str =
    "Where clause does not contain a mandatory equality on all key attributes";
pub(crate) const PARAMETER_COUNT: &str = "Number of parameters in request and statement don't match.";
pub(crate) const NOT_ON_INDEX: &str = "This operation is not supported on an index";
pub(crate) const MISSING_NOT_WITH_IS: &str = "MISSING must be compared using IS operator";
pub(crate) const NOT_BOOLEAN_WHERE: &str =
    "WHERE clause must contain an expression that resolves to a boolean";
pub(crate) const EMPTY_BAG: &str = "Empty bags are not supported";
pub(crate) const BAG_TYPES: &str =
    "Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags";
pub(crate) const INVALID_IN: &str = "IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member";
pub(crate) const EXISTS_OUTSIDE_TRANSACTION: &str =
    "EXISTS can only be used in ExecuteTransaction write requests.";
pub(crate) const IS_IN_UPDATE: &str = "IS operator is not supported in update expressions";
pub(crate) const DUPLICATE_ITEM: &str = "Duplicate primary key exists in table";
pub(crate) const CONSISTENT_READ_ON_GSI: &str =
    "Strongly consistent read is not supported on Global Secondary Indexes";
pub(crate) const INVALID_NEXT_TOKEN: &str = "Invalid NextToken";
pub(crate) const NEXT_TOKEN_MISMATCH: &str = "NextToken does not match request";
pub(crate) const INVALID_TABLE_NAME: &str =
    "Table name should be within the length [3, 255] and only contain 'a-z', 'A-Z', '0-9', '-', '_', '.'.";
pub(crate) const ORDER_BY_WITHOUT_WHERE: &str =
    "Must have WHERE clause in the statement when using ORDER BY clause.";
pub(crate) const ORDER_BY_WITHOUT_HASH_KEY: &str =
    "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.";
pub(crate) const ORDER_BY_NEEDS_HASH_KEY: &str =
    "Must have hash key in ORDER BY clause when more than one hash key condition specified in WHERE clause.";
pub(crate) const RETURNING_IN_INSERT: &str = "RETURNING is not supported in INSERT";
pub(crate) const RETURNING_IN_TRANSACTION: &str = "RETURNING clause is not supported in ExecuteTransaction.";
pub(crate) const BATCH_SELECT_NEEDS_KEY: &str =
    "Select statements within BatchExecuteStatement must specify the primary key in the where clause.";
pub(crate) const TRANSACTION_SELECT_NEEDS_KEY: &str =
    "Select statements within ExecuteTransaction must specify the primary key in the where clause.";
pub(crate) const TRANSACTION_READ_ON_INDEX: &str = "Reads on indices are not supported within transactions.";
pub(crate) const EXISTS_NEEDS_KEY: &str =
    "EXISTS() must contain a single item read with additional condition";
pub(crate) const TRANSACTION_WRITE_ON_INDEX: &str = "Operations on indices are not supported in transactions";
/// Unverified wording (dynoxide's).
pub(crate) const BATCH_MIXES_READS_AND_WRITES: &str =
    "Read and write requests together in the same batch is not supported.";
/// Unverified wording (dynoxide's).
pub(crate) const TRANSACTION_MIXES_READS_AND_WRITES: &str =
    "ExecuteTransaction API does not support both read and write operations in the same request.";

/// `Multiple conditions on same key <name>. Only single item Update/Insert/Delete are supported`.
pub(crate) fn multiple_key_conditions(name: &str) -> String {
    format!("Multiple conditions on same key {name}. Only single item Update/Insert/Delete are supported")
}

/// `Key attribute should be present in the item: Key <name>` (INSERT).
pub(crate) fn key_absent(name: &str) -> String {
    format!("Key attribute should be present in the item: Key {name}")
}

/// `Key attribute's data type should match its data type in table's schema: Key <name>`.
pub(crate) fn key_type_mismatch(name: &str) -> String {
    format!("Key attribute's data type should match its data type in table's schema: Key {name}")
}

/// Why a statement could not be parsed, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub detail: String,
    pub span: Span,
    /// Inside the `Statement wasn't well formed` envelope (a syntax error), or bare (a
    /// statement the service understands but refuses, such as an alias).
    pub wrapped: bool,
    /// Followed by ` at <line>:<column>:<length>`.
    pub positioned: bool,
}

impl SyntaxError {
    /// A syntax error at `span`.
    pub fn new(detail: impl Into<String>, span: Span) -> SyntaxError {
        SyntaxError {
            detail: detail.into(),
            span,
            wrapped: true,
            positioned: true,
        }
    }

    /// A syntax error the service reports without a position.
    pub fn unpositioned(detail: impl Into<String>, span: Span) -> SyntaxError {
        SyntaxError {
            positioned: false,
            ..SyntaxError::new(detail, span)
        }
    }

    /// A statement refused with a message of its own (no envelope, no position).
    pub fn refused(message: impl Into<String>, span: Span) -> SyntaxError {
        SyntaxError {
            wrapped: false,
            positioned: false,
            ..SyntaxError::new(message, span)
        }
    }

    /// A refusal that names the position, as `Unexpected path component at 1:8:5`.
    pub fn refused_at(message: impl Into<String>, span: Span) -> SyntaxError {
        SyntaxError {
            wrapped: false,
            ..SyntaxError::new(message, span)
        }
    }

    /// The message, as the service words it for `source`.
    pub fn message(&self, source: &str) -> String {
        let mut text = self.detail.clone();
        if self.positioned {
            let (line, column, length) = position(source, self.span);
            text = format!("{text} at {line}:{column}:{length}");
        }
        if self.wrapped {
            text = format!("{MALFORMED}: {text}");
        }
        text
    }

    pub fn into_api(self, source: &str) -> ApiError {
        ApiError::validation(self.message(source))
    }
}

/// The 1-based line and column of a span's start, and its length, in characters.
pub(crate) fn position(source: &str, span: Span) -> (usize, usize, usize) {
    let before = source.get(..span.start).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    let length = source.get(span.start..span.end).map_or(0, |s| s.chars().count());
    (line, column, length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let source = "SELECT *\nFROM \"é\" WHERE";
        assert_eq!(position(source, Span::new(9, 13)), (2, 1, 4));
        assert_eq!(position(source, Span::new(14, 18)), (2, 6, 3));
        let err = SyntaxError::new("Unexpected keyword WHERE", Span::new(19, 24));
        assert_eq!(
            err.message(source),
            "Statement wasn't well formed, can't be processed: Unexpected keyword WHERE at 2:10:5"
        );
    }
}
