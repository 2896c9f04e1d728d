//! The expression half of the grammar: conditions, operands, literals and document paths, with
//! the bounds that keep an 8 KB statement from nesting deep enough to exhaust the stack.

use dynotable_expr::PathStep;

use super::super::ast::{Expr, IsType, Path, Value};
use super::super::error::{INVALID_IN, SyntaxError};
use super::super::lexer::TokenKind;
use super::{MAX_CHAIN, MAX_DEPTH, Parser, compare_op, is_reserved};

impl Parser<'_> {
    pub(super) fn expr(&mut self) -> Result<Expr, SyntaxError> {
        self.enter()?;
        let mut left = self.and()?;
        let mut operators = 0;
        while self.peek().is_keyword("OR") {
            self.chain(&mut operators)?;
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, SyntaxError> {
        let mut left = self.not()?;
        let mut operators = 0;
        while self.peek().is_keyword("AND") {
            self.chain(&mut operators)?;
            let right = self.not()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, SyntaxError> {
        if self.peek().is_keyword("NOT") {
            self.enter()?;
            let start = self.bump().span;
            let operand = self.not()?;
            let span = start.to(operand.span());
            self.depth -= 1;
            return Ok(Expr::Not(Box::new(operand), span));
        }
        self.predicate()
    }

    /// One level deeper; statements nest at most [`MAX_DEPTH`] levels (unverified limit: the
    /// 8 KB statement would otherwise nest deep enough to exhaust the stack).
    fn enter(&mut self) -> Result<(), SyntaxError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(SyntaxError::new(
                "Expression nesting exceeds the maximum depth",
                self.peek().span,
            ));
        }
        Ok(())
    }

    /// Consumes one operator of an AND, OR or `+`/`-` chain; a chain holds at most
    /// [`MAX_CHAIN`] (rule B.6's 300 operators of an expression).
    fn chain(&mut self, operators: &mut usize) -> Result<(), SyntaxError> {
        *operators += 1;
        if *operators > MAX_CHAIN {
            return Err(SyntaxError::new(
                "Expression contains too many operators",
                self.peek().span,
            ));
        }
        self.bump();
        Ok(())
    }

    fn predicate(&mut self) -> Result<Expr, SyntaxError> {
        let left = self.sum()?;
        let start = left.span();
        if let TokenKind::Punct(p) = self.peek().kind
            && let Some(op) = compare_op(p)
        {
            self.bump();
            let right = self.sum()?;
            let span = start.to(right.span());
            return Ok(Expr::Compare(Box::new(left), op, Box::new(right), span));
        }
        let negated = self.peek().is_keyword("NOT")
            && (self.peek_at(1).is_keyword("BETWEEN") || self.peek_at(1).is_keyword("IN"));
        if negated {
            self.bump();
        }
        if self.peek().is_keyword("BETWEEN") {
            self.bump();
            let low = self.sum()?;
            self.expect_keyword("AND")?;
            let high = self.sum()?;
            let span = start.to(high.span());
            return Ok(Expr::Between {
                operand: Box::new(left),
                low: Box::new(low),
                high: Box::new(high),
                negated,
                span,
            });
        }
        if self.peek().is_keyword("IN") {
            self.bump();
            if !(self.peek().is_punct("(") || self.peek().is_punct("[")) {
                return Err(SyntaxError::refused(INVALID_IN, self.peek().span));
            }
            let close = if self.bump().is_punct("(") { ")" } else { "]" };
            let list = self.list_until(close)?;
            let end = self.tokens[self.at - 1].span;
            return Ok(Expr::In {
                operand: Box::new(left),
                list,
                negated,
                span: start.to(end),
            });
        }
        if self.peek().is_keyword("IS") {
            self.bump();
            let negated = if self.peek().is_keyword("NOT") {
                self.bump();
                true
            } else {
                false
            };
            let token = self.bump();
            let ty = match &token.kind {
                TokenKind::Word(word) => IsType::of_keyword(word).ok_or_else(|| {
                    SyntaxError::refused(
                        format!(
                            "Unsupported data type for IS operator: {}. Supported data types are [MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST]",
                            word.to_ascii_uppercase()
                        ),
                        token.span,
                    )
                })?,
                _ => return Err(self.unexpected_at(&token)),
            };
            return Ok(Expr::Is {
                operand: Box::new(left),
                ty,
                negated,
                span: start.to(token.span),
            });
        }
        Ok(left)
    }

    fn sum(&mut self) -> Result<Expr, SyntaxError> {
        let mut left = self.unary()?;
        let mut operators = 0;
        loop {
            let op = if self.peek().is_punct("+") {
                '+'
            } else if self.peek().is_punct("-") {
                '-'
            } else {
                return Ok(left);
            };
            self.chain(&mut operators)?;
            let right = self.unary()?;
            let span = left.span().to(right.span());
            left = Expr::Arithmetic(Box::new(left), op, Box::new(right), span);
        }
    }

    fn unary(&mut self) -> Result<Expr, SyntaxError> {
        if self.peek().is_punct("-")
            && let TokenKind::Number(digits) = &self.peek_at(1).kind
        {
            let digits = digits.clone();
            let start = self.bump().span;
            let end = self.bump().span;
            return Ok(Expr::Value(Value::Number(format!("-{digits}")), start.to(end)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, SyntaxError> {
        let token = self.peek().clone();
        let literal = |value: Value| Ok(Expr::Value(value, token.span));
        match &token.kind {
            TokenKind::Str(text) => {
                self.bump();
                literal(Value::Str(text.clone()))
            }
            TokenKind::Number(digits) => {
                self.bump();
                literal(Value::Number(digits.clone()))
            }
            TokenKind::Punct("?") => {
                self.bump();
                self.parameters += 1;
                literal(Value::Parameter(self.parameters - 1))
            }
            TokenKind::Punct("(") => {
                self.bump();
                let inner = self.expr()?;
                self.expect_punct(")")?;
                Ok(inner)
            }
            TokenKind::Punct("[") => {
                self.bump();
                let items = self.list_until("]")?;
                let span = token.span.to(self.tokens[self.at - 1].span);
                Ok(Expr::Value(Value::List(items), span))
            }
            TokenKind::Punct("<<") => {
                self.bump();
                let items = self.list_until(">>")?;
                let span = token.span.to(self.tokens[self.at - 1].span);
                Ok(Expr::Value(Value::Bag(items), span))
            }
            TokenKind::Punct("{") => self.tuple(),
            TokenKind::Word(word) => {
                let upper = word.to_ascii_uppercase();
                match upper.as_str() {
                    "TRUE" | "FALSE" => {
                        self.bump();
                        literal(Value::Bool(upper == "TRUE"))
                    }
                    "NULL" => {
                        self.bump();
                        literal(Value::Null)
                    }
                    "MISSING" => {
                        self.bump();
                        literal(Value::Missing)
                    }
                    _ if self.peek_at(1).is_punct("(") && !is_reserved(word) => {
                        let name = word.clone();
                        self.bump();
                        self.bump();
                        let args = self.list_until(")")?;
                        let span = token.span.to(self.tokens[self.at - 1].span);
                        Ok(Expr::Call { name, args, span })
                    }
                    _ => self.path().map(Expr::Path),
                }
            }
            TokenKind::QuotedIdent(_) => self.path().map(Expr::Path),
            _ => Err(self.unexpected()),
        }
    }

    /// `{ key : value, ... }`, after which the `}` is consumed.
    fn tuple(&mut self) -> Result<Expr, SyntaxError> {
        let start = self.expect_punct("{")?;
        let mut entries = Vec::new();
        if !self.eat_punct("}") {
            loop {
                let key = self.expr()?;
                self.expect_punct(":")?;
                let value = self.expr()?;
                entries.push((key, value));
                if self.eat_punct("}") {
                    break;
                }
                self.expect_punct(",")?;
            }
        }
        let span = start.to(self.tokens[self.at - 1].span);
        Ok(Expr::Value(Value::Tuple(entries), span))
    }

    /// Comma-separated expressions up to and including `close`.
    fn list_until(&mut self, close: &str) -> Result<Vec<Expr>, SyntaxError> {
        let mut items = Vec::new();
        if self.eat_punct(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr()?);
            if self.eat_punct(close) {
                return Ok(items);
            }
            self.expect_punct(",")?;
        }
    }

    /// A document path: a name, then `.name`, `[index]` or `['name']` steps.
    pub(super) fn path(&mut self) -> Result<Path, SyntaxError> {
        let (first, start) = self.name()?;
        let mut steps = vec![PathStep::Attribute(first)];
        let mut span = start;
        loop {
            if self.eat_punct(".") {
                let (name, end) = self.name()?;
                steps.push(PathStep::Attribute(name));
                span = span.to(end);
            } else if self.eat_punct("[") {
                let token = self.bump();
                match &token.kind {
                    TokenKind::Number(digits) => match digits.parse::<usize>() {
                        Ok(index) => steps.push(PathStep::Index(index)),
                        Err(_) => {
                            return Err(SyntaxError::refused(
                                format!("List index is not within the allowable range; index: [{digits}]"),
                                token.span,
                            ));
                        }
                    },
                    TokenKind::Str(name) => steps.push(PathStep::Attribute(name.clone())),
                    _ => return Err(self.unexpected_at(&token)),
                }
                let end = self.expect_punct("]")?;
                span = span.to(end);
            } else {
                return Ok(Path { steps, span });
            }
        }
    }
}
