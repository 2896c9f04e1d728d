//! The UpdateExpression grammar (Rule B.6, docs/dynamodb-rules.md; AWS Developer Guide,
//! "Update expressions"):
//!
//! ```text
//! update     ::= clause+
//! clause     ::= SET set-action ( , set-action )*
//!              | REMOVE path ( , path )*
//!              | ADD path :value ( , path :value )*
//!              | DELETE path :value ( , path :value )*
//! set-action ::= path = set-value
//! set-value  ::= ( sum ) | sum
//! sum        ::= operand | operand + operand | operand - operand
//! operand    ::= ( term ) | term
//! term       ::= path | :value | function ( operand ( , operand )* )
//! path       ::= ( name | #name ) ( . name | . #name | [ digits ] )*
//! ```
//!
//! Clause keywords are case-insensitive and cannot start a path; clauses follow each other
//! without commas (`SET a = :v REMOVE b`). Exactly two operands may be added or subtracted
//! (`SET a = b + c + d` is a syntax error), `+` cannot appear inside a function argument
//! (`if_not_exists(a, :x + :y)` fails at `+`), and paths take no parentheses. A clause given
//! twice parses, and is rejected afterwards with the service's own message.

use super::{Cursor, check_operator_count, check_text};
use crate::ast::{
    Action, Arithmetic, Call, Clause, ClauseKind, Operand, OperandKind, SetValue, SetValueKind, Update,
    ValueRef,
};
use crate::error::{ExpressionKind, Result};
use crate::lexer::TokenKind;

/// Identifiers that are keywords of the update grammar.
const KEYWORDS: &[&str] = &["SET", "REMOVE", "ADD", "DELETE"];

/// Parses an UpdateExpression.
pub fn parse_update(source: &str) -> Result<Update> {
    let kind = ExpressionKind::Update;
    check_text(kind, source)?;
    let mut cursor = Cursor::new(kind, source);
    let start = cursor.peek().span;
    let mut clauses = Vec::new();
    loop {
        clauses.push(clause(&mut cursor)?);
        if cursor.at(TokenKind::Eof) {
            break;
        }
        if !KEYWORDS.iter().any(|k| cursor.at_keyword(k)) {
            return Err(cursor.syntax_error());
        }
    }
    let update = Update {
        clauses,
        span: cursor.span_from(start),
    };
    check_operator_count(kind, operator_count(&update), update.span)?;
    Ok(update)
}

fn clause(cursor: &mut Cursor<'_>) -> Result<Clause> {
    let keyword = cursor.peek();
    let kind = match cursor.text(keyword).to_ascii_uppercase().as_str() {
        "SET" if keyword.kind == TokenKind::Identifier => ClauseKind::Set,
        "REMOVE" if keyword.kind == TokenKind::Identifier => ClauseKind::Remove,
        "ADD" if keyword.kind == TokenKind::Identifier => ClauseKind::Add,
        "DELETE" if keyword.kind == TokenKind::Identifier => ClauseKind::Delete,
        _ => return Err(cursor.syntax_error()),
    };
    cursor.advance();
    let mut actions = vec![action(cursor, kind)?];
    while cursor.at(TokenKind::Comma) {
        cursor.advance();
        actions.push(action(cursor, kind)?);
    }
    Ok(Clause {
        kind,
        keyword_span: keyword.span,
        actions,
        span: cursor.span_from(keyword.span),
    })
}

fn action(cursor: &mut Cursor<'_>, kind: ClauseKind) -> Result<Action> {
    let path = cursor.path(KEYWORDS)?;
    let start = path.span;
    Ok(match kind {
        ClauseKind::Set => {
            cursor.expect(TokenKind::Eq)?;
            let value = Box::new(set_value(cursor)?);
            Action::Set {
                path,
                value,
                span: cursor.span_from(start),
            }
        }
        ClauseKind::Remove => Action::Remove { path, span: start },
        ClauseKind::Add | ClauseKind::Delete => {
            let token = cursor.expect(TokenKind::ValuePlaceholder)?;
            let value = ValueRef {
                key: cursor.text(token).to_string(),
                span: token.span,
            };
            let span = cursor.span_from(start);
            if kind == ClauseKind::Add {
                Action::Add { path, value, span }
            } else {
                Action::Delete { path, value, span }
            }
        }
    })
}

fn arithmetic(cursor: &Cursor<'_>) -> Option<Arithmetic> {
    match cursor.peek().kind {
        TokenKind::Plus => Some(Arithmetic::Plus),
        TokenKind::Minus => Some(Arithmetic::Minus),
        _ => None,
    }
}

/// `( sum ) | sum`. A `(` here opens either the whole value or just its first operand; which
/// one shows after the matching `)`: `(a) + b` continues with `+`, `(a + b)` cannot.
fn set_value(cursor: &mut Cursor<'_>) -> Result<SetValue> {
    let open = cursor.peek();
    if open.kind != TokenKind::LeftParen {
        return sum(cursor);
    }
    cursor.enter()?;
    cursor.advance();
    let inner = sum(cursor);
    cursor.leave();
    let inner = inner?;
    cursor.expect(TokenKind::RightParen)?;
    let span = cursor.span_from(open.span);
    match inner.kind {
        // `(a)` alone or `(a) + b`: the parentheses belong to the operand.
        SetValueKind::Operand(mut operand) if operand.parens == 0 => {
            operand.parens = 1;
            operand.span = span;
            match arithmetic(cursor) {
                Some(op) => {
                    let op_span = cursor.advance().span;
                    let right = update_operand(cursor)?;
                    Ok(SetValue {
                        kind: SetValueKind::Arithmetic {
                            op,
                            op_span,
                            left: operand,
                            right,
                        },
                        parens: 0,
                        span: cursor.span_from(open.span),
                    })
                }
                None => Ok(SetValue {
                    kind: SetValueKind::Operand(operand),
                    parens: 0,
                    span,
                }),
            }
        }
        kind => Ok(SetValue {
            kind,
            parens: 1,
            span,
        }),
    }
}

/// `operand ( ( + | - ) operand )?`
fn sum(cursor: &mut Cursor<'_>) -> Result<SetValue> {
    let left = update_operand(cursor)?;
    let start = left.span;
    let kind = match arithmetic(cursor) {
        Some(op) => {
            let op_span = cursor.advance().span;
            let right = update_operand(cursor)?;
            SetValueKind::Arithmetic {
                op,
                op_span,
                left,
                right,
            }
        }
        None => SetValueKind::Operand(left),
    };
    Ok(SetValue {
        kind,
        parens: 0,
        span: cursor.span_from(start),
    })
}

/// `( term ) | term`: at most one pair of parentheses around an operand.
fn update_operand(cursor: &mut Cursor<'_>) -> Result<Operand> {
    let open = cursor.peek();
    if open.kind != TokenKind::LeftParen {
        return term(cursor);
    }
    cursor.advance();
    let mut inner = term(cursor)?;
    cursor.expect(TokenKind::RightParen)?;
    inner.parens = 1;
    inner.span = cursor.span_from(open.span);
    Ok(inner)
}

fn term(cursor: &mut Cursor<'_>) -> Result<Operand> {
    let token = cursor.peek();
    match token.kind {
        TokenKind::ValuePlaceholder => Ok(super::value_operand(cursor, token)),
        TokenKind::Identifier
            if cursor.peek_at(1).kind == TokenKind::LeftParen
                && !KEYWORDS.iter().any(|k| cursor.at_keyword(k)) =>
        {
            cursor.advance();
            cursor.enter()?;
            let args = call_args(cursor);
            cursor.leave();
            let call = Call {
                name: cursor.text(token).to_string(),
                name_span: token.span,
                args: args?,
                span: cursor.span_from(token.span),
            };
            let span = call.span;
            Ok(Operand {
                kind: OperandKind::Call(call),
                parens: 0,
                span,
            })
        }
        _ => {
            let path = cursor.path(KEYWORDS)?;
            let span = path.span;
            Ok(Operand {
                kind: OperandKind::Path(path),
                parens: 0,
                span,
            })
        }
    }
}

fn call_args(cursor: &mut Cursor<'_>) -> Result<Vec<Operand>> {
    cursor.expect(TokenKind::LeftParen)?;
    let mut args = vec![update_operand(cursor)?];
    while cursor.at(TokenKind::Comma) {
        cursor.advance();
        args.push(update_operand(cursor)?);
    }
    cursor.expect(TokenKind::RightParen)?;
    Ok(args)
}

/// Operators and functions in an update: each `+`, `-` and function call counts one.
pub(crate) fn operator_count(update: &Update) -> usize {
    fn operand(o: &Operand) -> usize {
        match &o.kind {
            OperandKind::Call(call) => 1 + call.args.iter().map(operand).sum::<usize>(),
            _ => 0,
        }
    }
    update
        .clauses
        .iter()
        .flat_map(|clause| &clause.actions)
        .map(|action| match action {
            Action::Set { value, .. } => match &value.kind {
                SetValueKind::Operand(o) => operand(o),
                SetValueKind::Arithmetic { left, right, .. } => 1 + operand(left) + operand(right),
            },
            _ => 0,
        })
        .sum()
}
