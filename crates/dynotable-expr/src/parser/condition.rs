//! The condition grammar, shared by ConditionExpression, FilterExpression and
//! KeyConditionExpression (Rule B.6, docs/dynamodb-rules.md; AWS Developer Guide,
//! "Condition and filter expressions, operators, and functions"):
//!
//! ```text
//! condition  ::= and ( OR and )*
//! and        ::= not ( AND not )*
//! not        ::= NOT not | predicate
//! predicate  ::= operand comparator operand
//!              | operand BETWEEN operand AND operand
//!              | operand IN ( operand ( , operand )* )
//!              | function                      -- attribute_exists(a), begins_with(a, :v), ...
//!              | ( condition )
//! operand    ::= path | :value | function | ( operand )
//! path       ::= ( name | #name | ( path ) ) ( . name | . #name | [ digits ] )*
//! comparator ::= = | <> | < | <= | > | >=
//! ```
//!
//! Precedence, high to low: comparators, IN, BETWEEN, functions, parentheses, NOT, AND, OR —
//! so `a OR b AND c` is `a OR (b AND c)` and `NOT a AND b` is `(NOT a) AND b`. Keywords are
//! case-insensitive; `AND`, `OR`, `NOT`, `BETWEEN` and `IN` cannot start a path.
//!
//! A `(` where a condition may start can open either a condition or an operand: `(a) = :v` and
//! `(a = :v)` are both valid. The parser reads what is inside and decides by what follows, so
//! it never backtracks. A function call may stand as a whole condition or as an operand; which
//! functions may stand where is checked after parsing, as the service does
//! (`The function is not allowed to be used this way in an expression; function: size`).

use super::{Cursor, check_operator_count, check_text};
use crate::ast::{
    Call, Comparator, Condition, ConditionKind, Operand, OperandKind, Path, PathElement, PathGroup,
};
use crate::error::{ExpressionKind, Result, Span};
use crate::lexer::TokenKind;

/// Identifiers that are keywords of the condition grammar.
const KEYWORDS: &[&str] = &["AND", "OR", "NOT", "BETWEEN", "IN"];

/// Parses a ConditionExpression, FilterExpression or KeyConditionExpression.
pub fn parse_condition(kind: ExpressionKind, source: &str) -> Result<Condition> {
    check_text(kind, source)?;
    let mut cursor = Cursor::new(kind, source);
    let node = or(&mut cursor)?;
    let condition = into_condition(&cursor, node)?;
    if !cursor.at(TokenKind::Eof) {
        return Err(cursor.syntax_error());
    }
    check_operator_count(kind, operator_count(&condition), condition.span)?;
    Ok(condition)
}

/// What a piece of the input turned out to be, before the context decides what it must be.
enum Node {
    Condition(Condition),
    Operand(Operand),
}

/// Where a condition is required: a condition stays, a function call becomes a condition, any
/// other operand is a syntax error at the token after it (`a AND b` fails at `AND`).
fn into_condition(cursor: &Cursor<'_>, node: Node) -> Result<Condition> {
    match node {
        Node::Condition(condition) => Ok(condition),
        Node::Operand(Operand {
            kind: OperandKind::Call(call),
            parens,
            span,
        }) => Ok(Condition {
            kind: ConditionKind::Call(call),
            parens,
            span,
        }),
        Node::Operand(_) => Err(cursor.syntax_error()),
    }
}

/// The two logical operators; AND binds tighter than OR.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Logical {
    And,
    Or,
}

/// `not ( ( AND | OR ) not )*`: both operators left-associative, AND before OR. Operands and
/// operators are kept on explicit stacks ([`Chain`]), so a long chain does not recurse; only
/// parentheses do, and the functions on that path keep their frames small.
fn or(cursor: &mut Cursor<'_>) -> Result<Node> {
    let mut chain = Chain::default();
    loop {
        let node = not(cursor)?;
        if !chain.push(cursor, node)? {
            return chain.finish(cursor);
        }
    }
}

/// Operands and pending operators of an AND/OR chain.
#[derive(Default)]
struct Chain {
    operands: Vec<Node>,
    operators: Vec<(Logical, Span)>,
}

impl Chain {
    /// Takes the next operand and the operator after it, if any; `false` at the chain's end.
    fn push(&mut self, cursor: &mut Cursor<'_>, node: Node) -> Result<bool> {
        // The right operand of AND or OR must be a condition: `a = b AND c` fails after `c`.
        let node = if self.operators.is_empty() {
            node
        } else {
            Node::Condition(into_condition(cursor, node)?)
        };
        let op = if cursor.at_keyword("AND") {
            Logical::And
        } else if cursor.at_keyword("OR") {
            Logical::Or
        } else {
            self.operands.push(node);
            return Ok(false);
        };
        // So must the left one: `a AND b` fails at `AND`.
        self.operands.push(Node::Condition(into_condition(cursor, node)?));
        while let Some(&(top, _)) = self.operators.last()
            && (top == Logical::And || op == Logical::Or)
        {
            self.reduce(cursor)?;
        }
        self.operators.push((op, cursor.advance().span));
        Ok(true)
    }

    /// Replaces the top two operands by the top operator applied to them.
    fn reduce(&mut self, cursor: &Cursor<'_>) -> Result<()> {
        let (Some((op, op_span)), Some(right), Some(left)) =
            (self.operators.pop(), self.operands.pop(), self.operands.pop())
        else {
            return Err(cursor.syntax_error());
        };
        let (left, right) = (into_condition(cursor, left)?, into_condition(cursor, right)?);
        let span = left.span.to(right.span);
        let (left, right) = (Box::new(left), Box::new(right));
        let kind = match op {
            Logical::And => ConditionKind::And { left, right, op_span },
            Logical::Or => ConditionKind::Or { left, right, op_span },
        };
        self.operands.push(Node::Condition(Condition {
            kind,
            parens: 0,
            span,
        }));
        Ok(())
    }

    fn finish(mut self, cursor: &Cursor<'_>) -> Result<Node> {
        while !self.operators.is_empty() {
            self.reduce(cursor)?;
        }
        self.operands.pop().ok_or_else(|| cursor.syntax_error())
    }
}

/// `NOT* predicate`; the NOTs are counted first so a long chain does not recurse.
fn not(cursor: &mut Cursor<'_>) -> Result<Node> {
    let nots = nots(cursor);
    let node = predicate(cursor)?;
    apply_nots(cursor, nots, node)
}

fn nots(cursor: &mut Cursor<'_>) -> Vec<Span> {
    let mut nots = Vec::new();
    while cursor.at_keyword("NOT") {
        nots.push(cursor.advance().span);
    }
    nots
}

fn apply_nots(cursor: &Cursor<'_>, nots: Vec<Span>, node: Node) -> Result<Node> {
    if nots.is_empty() {
        return Ok(node);
    }
    let mut condition = into_condition(cursor, node)?;
    for op_span in nots.into_iter().rev() {
        let span = op_span.to(condition.span);
        condition = Condition {
            kind: ConditionKind::Not {
                operand: Box::new(condition),
                op_span,
            },
            parens: 0,
            span,
        };
    }
    Ok(Node::Condition(condition))
}

fn comparator(kind: TokenKind) -> Option<Comparator> {
    Some(match kind {
        TokenKind::Eq => Comparator::Eq,
        TokenKind::Ne => Comparator::Ne,
        TokenKind::Lt => Comparator::Lt,
        TokenKind::Le => Comparator::Le,
        TokenKind::Gt => Comparator::Gt,
        TokenKind::Ge => Comparator::Ge,
        _ => return None,
    })
}

/// A primary followed, optionally, by a comparator, BETWEEN or IN.
fn predicate(cursor: &mut Cursor<'_>) -> Result<Node> {
    let first = primary(cursor)?;
    comparison(cursor, first)
}

/// What may follow a primary: a comparator, BETWEEN or IN, and their operands. Kept apart from
/// [`predicate`] so that the frames of the recursion through parentheses stay small.
fn comparison(cursor: &mut Cursor<'_>, first: Node) -> Result<Node> {
    let next = cursor.peek();
    let is_between = cursor.at_keyword("BETWEEN");
    let is_in = cursor.at_keyword("IN");
    let op = comparator(next.kind);
    if op.is_none() && !is_between && !is_in {
        return Ok(first);
    }
    // A condition in parentheses cannot be compared: `(a = b) = c` fails at the second `=`.
    let Node::Operand(left) = first else {
        return Err(cursor.syntax_error());
    };
    let start = left.span;
    let op_span = cursor.advance().span;
    let kind = if let Some(op) = op {
        let right = operand(cursor)?;
        ConditionKind::Compare {
            op,
            op_span,
            left: Box::new(left),
            right: Box::new(right),
        }
    } else if is_between {
        let low = operand(cursor)?;
        if !cursor.at_keyword("AND") {
            return Err(cursor.syntax_error());
        }
        cursor.advance();
        let high = operand(cursor)?;
        ConditionKind::Between {
            value: Box::new(left),
            low: Box::new(low),
            high: Box::new(high),
            op_span,
        }
    } else {
        cursor.expect(TokenKind::LeftParen)?;
        let mut list = vec![operand(cursor)?];
        while cursor.at(TokenKind::Comma) {
            cursor.advance();
            list.push(operand(cursor)?);
        }
        cursor.expect(TokenKind::RightParen)?;
        ConditionKind::In {
            value: Box::new(left),
            list,
            op_span,
        }
    };
    let span = cursor.span_from(start);
    Ok(Node::Condition(Condition {
        kind,
        parens: 0,
        span,
    }))
}

/// Where a condition may start: `(` opens a condition or an operand; anything else is an
/// operand.
fn primary(cursor: &mut Cursor<'_>) -> Result<Node> {
    if !cursor.at(TokenKind::LeftParen) {
        return operand(cursor).map(Node::Operand);
    }
    let open = open_group(cursor)?;
    let inner = or(cursor);
    close_group(cursor, open, inner)
}

fn open_group(cursor: &mut Cursor<'_>) -> Result<Span> {
    let open = cursor.peek().span;
    cursor.enter()?;
    cursor.advance();
    Ok(open)
}

/// After what a `(` opened: the `)`, then, for an operand, any path suffix.
fn close_group(cursor: &mut Cursor<'_>, open: Span, inner: Result<Node>) -> Result<Node> {
    cursor.leave();
    let inner = inner?;
    cursor.expect(TokenKind::RightParen)?;
    let span = cursor.span_from(open);
    match inner {
        Node::Condition(mut condition) => {
            condition.parens += 1;
            condition.span = span;
            Ok(Node::Condition(condition))
        }
        Node::Operand(mut operand) => {
            operand.parens += 1;
            operand.span = span;
            path_suffix(cursor, operand).map(Node::Operand)
        }
    }
}

/// An operand, where only an operand may stand.
fn operand(cursor: &mut Cursor<'_>) -> Result<Operand> {
    let token = cursor.peek();
    match token.kind {
        TokenKind::LeftParen => {
            cursor.enter()?;
            cursor.advance();
            let inner = operand(cursor);
            cursor.leave();
            let mut inner = inner?;
            cursor.expect(TokenKind::RightParen)?;
            inner.parens += 1;
            inner.span = cursor.span_from(token.span);
            path_suffix(cursor, inner)
        }
        TokenKind::ValuePlaceholder => Ok(super::value_operand(cursor, token)),
        TokenKind::Identifier
            if cursor.peek_at(1).kind == TokenKind::LeftParen
                && !KEYWORDS.iter().any(|k| cursor.at_keyword(k)) =>
        {
            let call = call(cursor)?;
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

/// `name ( operand ( , operand )* )`
fn call(cursor: &mut Cursor<'_>) -> Result<Call> {
    let name_token = cursor.advance();
    cursor.enter()?;
    let args = call_args(cursor);
    cursor.leave();
    let args = args?;
    Ok(Call {
        name: cursor.text(name_token).to_string(),
        name_span: name_token.span,
        args,
        span: cursor.span_from(name_token.span),
    })
}

fn call_args(cursor: &mut Cursor<'_>) -> Result<Vec<Operand>> {
    cursor.expect(TokenKind::LeftParen)?;
    let mut args = vec![operand(cursor)?];
    while cursor.at(TokenKind::Comma) {
        cursor.advance();
        args.push(operand(cursor)?);
    }
    cursor.expect(TokenKind::RightParen)?;
    Ok(args)
}

/// After a parenthesised operand: `(a.b).c[1]` continues the path; the parentheses become a
/// group of the longer path. Anything but a path cannot continue (`(size(a)).b` fails at `.`).
fn path_suffix(cursor: &mut Cursor<'_>, operand: Operand) -> Result<Operand> {
    if !matches!(cursor.peek().kind, TokenKind::Dot | TokenKind::LeftBracket) {
        return Ok(operand);
    }
    let OperandKind::Path(mut path) = operand.kind else {
        return Err(cursor.syntax_error());
    };
    path.groups.push(PathGroup {
        len: path.elements.len(),
        parens: operand.parens,
        span: operand.span,
    });
    let mut elements: Vec<PathElement> = std::mem::take(&mut path.elements);
    cursor.path_tail(&mut elements, KEYWORDS)?;
    let span = cursor.span_from(operand.span);
    Ok(Operand {
        kind: OperandKind::Path(Path {
            elements,
            groups: path.groups,
            span,
        }),
        parens: 0,
        span,
    })
}

/// Operators and functions in a condition: each comparator, BETWEEN, IN, AND, OR, NOT and
/// function call counts one.
pub(crate) fn operator_count(condition: &Condition) -> usize {
    match &condition.kind {
        ConditionKind::Compare { left, right, .. } => 1 + operand_operators(left) + operand_operators(right),
        ConditionKind::Between { value, low, high, .. } => {
            1 + operand_operators(value) + operand_operators(low) + operand_operators(high)
        }
        ConditionKind::In { value, list, .. } => {
            1 + operand_operators(value) + list.iter().map(operand_operators).sum::<usize>()
        }
        ConditionKind::Call(call) => 1 + call.args.iter().map(operand_operators).sum::<usize>(),
        ConditionKind::Not { operand, .. } => 1 + operator_count(operand),
        ConditionKind::And { left, right, .. } | ConditionKind::Or { left, right, .. } => {
            1 + operator_count(left) + operator_count(right)
        }
    }
}

fn operand_operators(operand: &Operand) -> usize {
    match &operand.kind {
        OperandKind::Call(call) => 1 + call.args.iter().map(operand_operators).sum::<usize>(),
        _ => 0,
    }
}
