//! The ProjectionExpression grammar (Rule B.6, docs/dynamodb-rules.md):
//!
//! ```text
//! projection ::= path ( , path )*
//! path       ::= ( name | #name ) ( . name | . #name | [ digits ] )*
//! ```
//!
//! There are no keywords and no parentheses. `a,` fails at the end of input
//! (`token: "<EOF>", near: ","`), `!!!` at the first `!` (`near: "!!"`).

use super::{Cursor, check_text};
use crate::ast::Projection;
use crate::error::{ExpressionKind, Result};
use crate::lexer::TokenKind;

/// Parses a ProjectionExpression.
pub fn parse_projection(source: &str) -> Result<Projection> {
    check_text(ExpressionKind::Projection, source)?;
    let mut cursor = Cursor::new(ExpressionKind::Projection, source);
    let start = cursor.peek().span;
    let mut paths = vec![cursor.path(&[])?];
    while cursor.at(TokenKind::Comma) {
        cursor.advance();
        paths.push(cursor.path(&[])?);
    }
    if !cursor.at(TokenKind::Eof) {
        return Err(cursor.syntax_error());
    }
    Ok(Projection {
        paths,
        span: cursor.span_from(start),
    })
}
