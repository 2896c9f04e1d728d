//! Parser: tokens → syntax tree, one grammar per expression kind.
//!
//! All grammars are parsed by recursive descent without backtracking. A syntax error is
//! reported at the first token that cannot continue a valid prefix of the expression, in the
//! service's words: `Invalid <Kind>: Syntax error; token: "<tok>", near: "<context>"`
//! (see [`crate::lexer::syntax_error_detail`] for how "near" is formed).
//!
//! Before parsing, two checks on the raw text (Rule B.6/B.7, docs/dynamodb-rules.md):
//! - longer than 4 KB (4,096 bytes of the text as sent, placeholders not substituted) →
//!   `Expression size has exceeded the maximum allowed size; expression size: <n>`;
//! - empty or only whitespace → `The expression can not be empty;`.
//!
//! After parsing, one check on the tree: at most 300 operators and functions
//! (`The expression contains too many operators; operator count: <n>`). The service documents
//! the limit for UpdateExpression and applies it to filters too (a FilterExpression with 301
//! comparisons and ANDs fails with that message), so it is applied to every grammar that has
//! operators.
//!
//! What is *not* a syntax error: unknown function names, functions used in the wrong place,
//! reserved words, redundant parentheses, placeholders that are not defined. Those are checked
//! on the tree afterwards (see [`crate::resolve`]), in the order the service reports them.

mod condition;
mod projection;
mod update;

use crate::ast::{Path, PathElement, PathGroup};
use crate::error::{Error, ExpressionKind, Result, Span};
use crate::lexer::{Token, TokenKind, syntax_error_detail, tokenize};

pub use condition::parse_condition;
pub use projection::parse_projection;
pub use update::parse_update;

/// Rule B.7 (docs/dynamodb-rules.md): an expression string is at most 4 KB.
pub const MAX_EXPRESSION_BYTES: usize = 4096;

/// Rule B.6/B.7: at most 300 operators or functions in an expression.
pub const MAX_OPERATORS: usize = 300;

/// How deeply parentheses, calls and NOTs may nest before the parser gives up with a syntax
/// error. The service has no documented limit; this one only guards the stack, and is far
/// beyond anything a 4 KB expression needs without tripping the redundant-parentheses rule.
pub(crate) const MAX_NESTING: usize = 256;

/// Checks the raw text before parsing: size limit, then emptiness.
/// The operand a `:value` placeholder token stands for (conditions and updates alike); consumes it.
pub(crate) fn value_operand(cursor: &mut Cursor<'_>, token: Token) -> crate::ast::Operand {
    cursor.advance();
    let key = cursor.text(token).to_string();
    crate::ast::Operand {
        kind: crate::ast::OperandKind::Value(crate::ast::ValueRef {
            key,
            span: token.span,
        }),
        parens: 0,
        span: token.span,
    }
}

pub(crate) fn check_text(kind: ExpressionKind, source: &str) -> Result<()> {
    if source.len() > MAX_EXPRESSION_BYTES {
        return Err(Error::invalid(
            kind,
            Span::new(0, source.len()),
            format!(
                "Expression size has exceeded the maximum allowed size; expression size: {}",
                source.len()
            ),
        ));
    }
    if source.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
        return Err(Error::invalid(
            kind,
            Span::new(0, source.len()),
            "The expression can not be empty;",
        ));
    }
    Ok(())
}

/// Rule B.6/B.7: the operator limit, checked on a parsed tree.
pub(crate) fn check_operator_count(kind: ExpressionKind, count: usize, span: Span) -> Result<()> {
    if count > MAX_OPERATORS {
        return Err(Error::invalid(
            kind,
            span,
            format!("The expression contains too many operators; operator count: {count}"),
        ));
    }
    Ok(())
}

/// A cursor over the tokens of one expression.
pub(crate) struct Cursor<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    kind: ExpressionKind,
    depth: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(kind: ExpressionKind, source: &'a str) -> Self {
        Cursor {
            source,
            tokens: tokenize(source),
            pos: 0,
            kind,
            depth: 0,
        }
    }

    pub(crate) fn peek(&self) -> Token {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, offset: usize) -> Token {
        let last = self.tokens.len().saturating_sub(1);
        let index = (self.pos + offset).min(last);
        self.tokens.get(index).copied().unwrap_or(Token {
            kind: TokenKind::Eof,
            span: Span::new(self.source.len(), self.source.len()),
        })
    }

    pub(crate) fn at(&self, kind: TokenKind) -> bool {
        self.peek().kind == kind
    }

    /// Is the next token the identifier `word`, compared case-insensitively?
    pub(crate) fn at_keyword(&self, word: &str) -> bool {
        let token = self.peek();
        token.kind == TokenKind::Identifier && token.text(self.source).eq_ignore_ascii_case(word)
    }

    pub(crate) fn text(&self, token: Token) -> &'a str {
        token.text(self.source)
    }

    pub(crate) fn advance(&mut self) -> Token {
        let token = self.peek();
        if token.kind != TokenKind::Eof {
            self.pos += 1;
        }
        token
    }

    /// Consumes a token of `kind`, or fails with a syntax error at the current token.
    pub(crate) fn expect(&mut self, kind: TokenKind) -> Result<Token> {
        if self.at(kind) {
            Ok(self.advance())
        } else {
            Err(self.syntax_error())
        }
    }

    /// A syntax error at the current token.
    pub(crate) fn syntax_error(&self) -> Error {
        let index = self.pos.min(self.tokens.len().saturating_sub(1));
        let span = self.peek().span;
        Error::invalid(
            self.kind,
            span,
            syntax_error_detail(self.source, &self.tokens, index),
        )
    }

    /// Enters one level of nesting (a parenthesis, a call, a NOT).
    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.syntax_error());
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The span from `start` to the end of the last consumed token.
    pub(crate) fn span_from(&self, start: Span) -> Span {
        let end = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(start.end, |t| t.span.end);
        Span::new(start.start, end.max(start.end))
    }

    /// Parses the first element of a path: a bare name that is not one of `keywords`, or a
    /// `#placeholder`.
    pub(crate) fn path_head(&mut self, keywords: &[&str]) -> Result<PathElement> {
        let token = self.peek();
        match token.kind {
            TokenKind::Identifier if !keywords.iter().any(|k| self.at_keyword(k)) => {
                self.advance();
                Ok(PathElement::Name {
                    name: self.text(token).to_string(),
                    span: token.span,
                })
            }
            TokenKind::NamePlaceholder => {
                self.advance();
                Ok(PathElement::Placeholder {
                    key: self.text(token).to_string(),
                    span: token.span,
                })
            }
            _ => Err(self.syntax_error()),
        }
    }

    /// Parses `.name`, `.#name` and `[index]` suffixes onto `elements`.
    pub(crate) fn path_tail(&mut self, elements: &mut Vec<PathElement>, keywords: &[&str]) -> Result<()> {
        loop {
            match self.peek().kind {
                TokenKind::Dot => {
                    self.advance();
                    elements.push(self.path_head(keywords)?);
                }
                TokenKind::LeftBracket => {
                    let open = self.advance();
                    let number = self.peek();
                    if number.kind != TokenKind::Number {
                        return Err(self.syntax_error());
                    }
                    let Ok(index) = self.text(number).parse::<u32>() else {
                        return Err(self.syntax_error());
                    };
                    self.advance();
                    let close = self.expect(TokenKind::RightBracket)?;
                    elements.push(PathElement::Index {
                        index,
                        span: open.span.to(close.span),
                    });
                }
                _ => return Ok(()),
            }
        }
    }

    /// Parses a whole path without parenthesised groups.
    pub(crate) fn path(&mut self, keywords: &[&str]) -> Result<Path> {
        let start = self.peek().span;
        let mut elements = vec![self.path_head(keywords)?];
        self.path_tail(&mut elements, keywords)?;
        Ok(Path {
            elements,
            groups: Vec::<PathGroup>::new(),
            span: self.span_from(start),
        })
    }
}
