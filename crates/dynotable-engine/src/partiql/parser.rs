//! Tokens to a [`Statement`]: recursive descent over the subset of PartiQL DynamoDB accepts
//! (DG `ql-reference.select.html`, `.insert.html`, `.update.html`, `.delete.html`,
//! `ql-functions.exists.html`, `ql-operators.html`).
//!
//! ```text
//! statement  := select | insert | update | delete | EXISTS '(' select ')'   [';']
//! select     := SELECT ('*' | path {',' path}) FROM target [WHERE expr]
//!               [ORDER BY path [ASC|DESC] {',' path [ASC|DESC]}]
//! insert     := INSERT INTO target VALUE tuple
//! update     := UPDATE target (SET path '=' expr {',' path '=' expr} | REMOVE path {',' path})+
//!               [WHERE expr] [returning]
//! delete     := DELETE FROM target [WHERE expr] [returning]
//! returning  := RETURNING (ALL | MODIFIED) (OLD | NEW) '*'
//! target     := name ['.' name]
//! expr       := and {OR and};  and := not {AND not};  not := NOT not | predicate
//! predicate  := sum [cmp sum | [NOT] BETWEEN sum AND sum | [NOT] IN list | IS [NOT] type]
//! sum        := unary {('+' | '-') unary};  unary := '-' number | primary
//! primary    := '(' expr ')' | literal | '?' | name '(' [expr {',' expr}] ')' | path
//! path       := name {'.' name | '[' (number | string) ']'}
//! literal    := string | number | TRUE | FALSE | NULL | MISSING
//!             | '[' [expr {',' expr}] ']' | '{' [expr ':' expr {',' ...}] '}' | '<<' ... '>>'
//! ```
//!
//! The first token that cannot continue the statement is the syntax error, reported with its
//! position; statements the service understands but refuses (aliases, `SELECT VALUE`, several
//! statements at once) get the service's own messages.

use dynotable_expr::Span;

use super::ast::{
    CompareOp, Delete, Expr, Insert, OrderKey, Path, Returning, Select, Statement, Target, Update,
    UpdateAction, Value,
};
use super::error::SyntaxError;
use super::lexer::{Token, TokenKind, tokenize};

mod expression;

/// Words that cannot be bare identifiers: quote them (`"value"`) to use them as names.
const RESERVED: [&str; 29] = [
    "SELECT",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "NOT",
    "IN",
    "BETWEEN",
    "IS",
    "MISSING",
    "NULL",
    "TRUE",
    "FALSE",
    "INSERT",
    "INTO",
    "VALUE",
    "VALUES",
    "UPDATE",
    "SET",
    "REMOVE",
    "DELETE",
    "RETURNING",
    "ORDER",
    "BY",
    "EXISTS",
    "AS",
    "LIMIT",
    "GROUP",
    "HAVING",
];

/// How deeply expressions may nest (parentheses, NOT, lists, tuples).
const MAX_DEPTH: usize = 100;
/// How many operators one AND, OR or `+`/`-` chain may hold.
const MAX_CHAIN: usize = 300;

/// Clauses of SQL that DynamoDB's PartiQL does not run.
const UNSUPPORTED_CLAUSES: [&str; 6] = ["GROUP", "HAVING", "LIMIT", "OFFSET", "JOIN", "UNION"];

/// A parsed statement and how many `?` parameters it has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Parsed {
    pub statement: Statement,
    pub parameters: usize,
}

pub(crate) fn parse(source: &str) -> Result<Parsed, SyntaxError> {
    let tokens = tokenize(source)?;
    let mut parser = Parser {
        source,
        tokens,
        at: 0,
        parameters: 0,
        depth: 0,
    };
    let statement = parser.statement()?;
    Ok(Parsed {
        statement,
        parameters: parser.parameters,
    })
}

struct Parser<'s> {
    source: &'s str,
    tokens: Vec<Token>,
    at: usize,
    parameters: usize,
    /// How deeply the expression being parsed is nested.
    depth: usize,
}

impl Parser<'_> {
    // ---- statements ------------------------------------------------------------------------

    fn statement(&mut self) -> Result<Statement, SyntaxError> {
        let first = self.peek().clone();
        let statement = if first.is_keyword("SELECT") {
            Statement::Select(self.select()?)
        } else if first.is_keyword("INSERT") {
            Statement::Insert(self.insert()?)
        } else if first.is_keyword("UPDATE") {
            Statement::Update(self.update()?)
        } else if first.is_keyword("DELETE") {
            Statement::Delete(self.delete()?)
        } else if first.is_keyword("EXISTS") {
            self.bump();
            self.expect_punct("(")?;
            if !self.peek().is_keyword("SELECT") {
                return Err(self.unexpected());
            }
            let select = self.select()?;
            self.expect_punct(")")?;
            Statement::Exists(select)
        } else {
            return Err(SyntaxError::unpositioned(
                "Expected data manipulation",
                first.span,
            ));
        };
        if self.peek().is_punct(";") {
            self.bump();
            if !matches!(self.peek().kind, TokenKind::Eof) {
                return Err(SyntaxError::refused(
                    "Only one operation is allowed in a statement.",
                    self.peek().span,
                ));
            }
        }
        let next = self.peek().clone();
        if let TokenKind::Word(word) = &next.kind
            && let Some(clause) = UNSUPPORTED_CLAUSES.iter().find(|c| word.eq_ignore_ascii_case(c))
        {
            return Err(SyntaxError::refused(
                format!("Unsupported clause: {clause}"),
                next.span,
            ));
        }
        if let TokenKind::Unknown(c) = next.kind {
            return Err(SyntaxError::new(format!("Unexpected character {c}"), next.span));
        }
        if !matches!(next.kind, TokenKind::Eof) {
            // Wording from another emulator's captures; unverified.
            return Err(SyntaxError::unpositioned(
                "Unexpected token after expression",
                next.span,
            ));
        }
        Ok(statement)
    }

    fn select(&mut self) -> Result<Select, SyntaxError> {
        self.expect_keyword("SELECT")?;
        if self.peek().is_keyword("VALUE") || self.peek().is_keyword("PIVOT") {
            return Err(SyntaxError::refused(
                "Select projection doesn't support value or pivot keywords",
                self.peek().span,
            ));
        }
        let projection = self.projection()?;
        self.expect_keyword("FROM")?;
        let from = self.target()?;
        if self.peek().is_punct(",") {
            return Err(SyntaxError::refused(
                "Only select from a single table or index is supported.",
                self.peek().span,
            ));
        }
        let filter = self.where_clause()?;
        let mut order_by = Vec::new();
        if self.peek().is_keyword("ORDER") {
            self.bump();
            self.expect_keyword("BY")?;
            loop {
                let path = self.path()?;
                let descending = if self.peek().is_keyword("DESC") {
                    self.bump();
                    true
                } else {
                    if self.peek().is_keyword("ASC") {
                        self.bump();
                    }
                    false
                };
                order_by.push(OrderKey { path, descending });
                if !self.eat_punct(",") {
                    break;
                }
            }
        }
        Ok(Select {
            projection,
            from,
            filter,
            order_by,
        })
    }

    /// `*`, or a list of paths. Functions are refused as the service refuses `COUNT(*)`.
    fn projection(&mut self) -> Result<Option<Vec<Path>>, SyntaxError> {
        if self.eat_punct("*") {
            if self.peek().is_punct(",") {
                return Err(star_and_others(self.peek().span));
            }
            return Ok(None);
        }
        let mut paths: Vec<Path> = Vec::new();
        loop {
            if self.peek().is_punct("*") {
                return Err(star_and_others(self.peek().span));
            }
            if matches!(self.peek().kind, TokenKind::Word(_)) && self.peek_at(1).is_punct("(") {
                // Captured from the service for COUNT(*): the name's position and length.
                return Err(SyntaxError::refused_at(
                    "Unexpected path component",
                    self.peek().span,
                ));
            }
            let path = self.path()?;
            if self.peek().is_keyword("AS") {
                return Err(SyntaxError::refused(
                    "Aliasing is not supported",
                    self.peek().span,
                ));
            }
            if paths.iter().any(|p| p.steps == path.steps) {
                return Err(SyntaxError::refused(
                    format!("Duplicate identifiers in select clause: {}", path.display()),
                    path.span,
                ));
            }
            paths.push(path);
            if !self.eat_punct(",") {
                return Ok(Some(paths));
            }
        }
    }

    fn insert(&mut self) -> Result<Insert, SyntaxError> {
        self.expect_keyword("INSERT")?;
        self.expect_keyword("INTO")?;
        let into = self.target()?;
        if self.peek().is_keyword("VALUES") || self.peek().is_punct("<<") {
            return Err(SyntaxError::refused(
                "Unsupported operation: Inserting multiple items in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead",
                self.peek().span,
            ));
        }
        self.expect_keyword("VALUE")?;
        let item = self.expr()?;
        match &item {
            Expr::Value(Value::Tuple(_), _) => {}
            Expr::Value(Value::Bag(_), span) => {
                return Err(SyntaxError::refused(
                    "Unsupported operation: Inserting multiple items in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead",
                    *span,
                ));
            }
            other => {
                return Err(SyntaxError::refused(
                    "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.",
                    other.span(),
                ));
            }
        }
        if self.peek().is_keyword("RETURNING") {
            return Err(SyntaxError::refused(
                super::error::RETURNING_IN_INSERT,
                self.peek().span,
            ));
        }
        Ok(Insert { into, item })
    }

    fn update(&mut self) -> Result<Update, SyntaxError> {
        self.expect_keyword("UPDATE")?;
        let target = self.target()?;
        let mut actions = Vec::new();
        loop {
            if self.peek().is_keyword("SET") {
                self.bump();
                loop {
                    let path = self.path()?;
                    self.expect_punct("=")?;
                    let value = self.expr()?;
                    actions.push(UpdateAction::Set(path, value));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
            } else if self.peek().is_keyword("REMOVE") {
                self.bump();
                loop {
                    actions.push(UpdateAction::Remove(self.path()?));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
            } else {
                break;
            }
        }
        if actions.is_empty() {
            return Err(self.unexpected());
        }
        let filter = self.where_clause()?;
        let returning = self.returning()?;
        Ok(Update {
            target,
            actions,
            filter,
            returning,
        })
    }

    fn delete(&mut self) -> Result<Delete, SyntaxError> {
        self.expect_keyword("DELETE")?;
        self.expect_keyword("FROM")?;
        let from = self.target()?;
        let filter = self.where_clause()?;
        let returning = self.returning()?;
        Ok(Delete {
            from,
            filter,
            returning,
        })
    }

    fn where_clause(&mut self) -> Result<Option<Expr>, SyntaxError> {
        if !self.peek().is_keyword("WHERE") {
            return Ok(None);
        }
        self.bump();
        self.expr().map(Some)
    }

    fn returning(&mut self) -> Result<Option<Returning>, SyntaxError> {
        if !self.peek().is_keyword("RETURNING") {
            return Ok(None);
        }
        let start = self.bump().span;
        let which = self.peek().clone();
        let age = self.peek_at(1).clone();
        let returning = match (&which.kind, &age.kind) {
            (TokenKind::Word(w), TokenKind::Word(a)) => {
                match (w.to_ascii_uppercase().as_str(), a.to_ascii_uppercase().as_str()) {
                    ("ALL", "OLD") => Returning::AllOld,
                    ("MODIFIED", "OLD") => Returning::ModifiedOld,
                    ("ALL", "NEW") => Returning::AllNew,
                    ("MODIFIED", "NEW") => Returning::ModifiedNew,
                    _ => return Err(self.unexpected()),
                }
            }
            _ => return Err(self.unexpected()),
        };
        self.bump();
        self.bump();
        if !self.eat_punct("*") {
            return Err(SyntaxError::refused(
                "Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause",
                start.to(self.peek().span),
            ));
        }
        if self.peek().is_punct(",") {
            return Err(SyntaxError::refused(
                "Invalid syntax with multiple returning elements in RETURNING clause",
                self.peek().span,
            ));
        }
        Ok(Some(returning))
    }

    /// `"table"` or `"table"."index"` (DG `ql-reference.select.html`: quote both to read an index).
    fn target(&mut self) -> Result<Target, SyntaxError> {
        let (table, start) = self.name()?;
        let mut span = start;
        let mut index = None;
        if self.eat_punct(".") {
            let (name, end) = self.name()?;
            index = Some(name);
            span = span.to(end);
            if self.peek().is_punct(".") {
                return Err(SyntaxError::refused(
                    "A path may contain at most 2 components in the FROM clause",
                    self.peek().span,
                ));
            }
        }
        if self.peek().is_keyword("AS") {
            return Err(SyntaxError::refused(
                "Aliasing is not supported",
                self.peek().span,
            ));
        }
        Ok(Target { table, index, span })
    }

    /// An identifier: a bare word that is not reserved, or a quoted name.
    fn name(&mut self) -> Result<(String, Span), SyntaxError> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::QuotedIdent(name) => {
                self.bump();
                if name.is_empty() {
                    return Err(SyntaxError::refused(
                        "Path component cannot be an empty string",
                        token.span,
                    ));
                }
                Ok((name, token.span))
            }
            TokenKind::Word(word) if !is_reserved(&word) => {
                self.bump();
                Ok((word, token.span))
            }
            _ => Err(self.unexpected()),
        }
    }

    // ---- tokens ----------------------------------------------------------------------------

    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.at + ahead).min(last)]
    }

    fn bump(&mut self) -> Token {
        let token = self.peek().clone();
        if !matches!(token.kind, TokenKind::Eof) {
            self.at += 1;
        }
        token
    }

    fn eat_punct(&mut self, punct: &str) -> bool {
        let found = self.peek().is_punct(punct);
        if found {
            self.bump();
        }
        found
    }

    fn expect_punct(&mut self, punct: &str) -> Result<Span, SyntaxError> {
        if self.peek().is_punct(punct) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected())
        }
    }

    fn expect_keyword(&mut self, keyword: &str) -> Result<Span, SyntaxError> {
        if self.peek().is_keyword(keyword) {
            Ok(self.bump().span)
        } else {
            Err(self.unexpected())
        }
    }

    fn unexpected(&self) -> SyntaxError {
        self.unexpected_at(self.peek())
    }

    fn unexpected_at(&self, token: &Token) -> SyntaxError {
        let detail = match &token.kind {
            TokenKind::Eof => "Unexpected end of statement".to_owned(),
            TokenKind::Word(word) if is_reserved(word) => {
                format!("Unexpected keyword {}", word.to_ascii_uppercase())
            }
            TokenKind::Unknown(c) => format!("Unexpected character {c}"),
            _ => format!("Unexpected token {}", token.text(self.source)),
        };
        SyntaxError::new(detail, token.span)
    }
}

fn is_reserved(word: &str) -> bool {
    RESERVED.iter().any(|r| word.eq_ignore_ascii_case(r))
}

fn compare_op(punct: &str) -> Option<CompareOp> {
    Some(match punct {
        "=" => CompareOp::Eq,
        "<>" | "!=" => CompareOp::Ne,
        "<" => CompareOp::Lt,
        "<=" => CompareOp::Le,
        ">" => CompareOp::Gt,
        ">=" => CompareOp::Ge,
        _ => return None,
    })
}

fn star_and_others(span: Span) -> SyntaxError {
    SyntaxError::refused(
        "Other attributes should not be present in the projection when '*' is used.",
        span,
    )
}

#[cfg(test)]
mod tests;
