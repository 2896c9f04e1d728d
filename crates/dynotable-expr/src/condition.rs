//! Conditions after resolution: ConditionExpression, FilterExpression, and the generic half of
//! KeyConditionExpression.
//!
//! [`resolve_condition`] parses, then runs the service's checks in the service's order, each
//! over the whole expression in textual order (Rule B.6, docs/dynamodb-rules.md; the order is the
//! one dynalite reproduces from the live service):
//!
//! 1. redundant parentheses — `((a = :v))`, `((a)) = :v`, `((b.c)).d` →
//!    `The expression has redundant parentheses;`
//! 2. unknown function names, then functions where they may not stand (see [`crate::functions`]);
//! 3. bare reserved words (see [`crate::reserved`]);
//! 4. then, for each comparison, BETWEEN, IN or function condition in turn, the first of:
//!    a. an undefined `#name` or `:value` in it;
//!    b. a function with the wrong number of operands (innermost first), or an IN with more
//!    than 100 operands, the left one included;
//!    c. the same path on both sides of a comparator, `begins_with`, `contains` or
//!    `attribute_type` — `The first operand must be distinct from the remaining operands for
//!    this operator or function; operator: =, first operand: [a]`;
//!    d. operand types known before reading any item (innermost function first): a path where
//!    `attribute_exists`/`attribute_not_exists` need one; a `begins_with` operand that is not
//!    S or B; an `attribute_type` type that is not an S naming one of the ten types; a `size`
//!    of an N, BOOL or NULL; a value of a type other than S, N, B compared with `<`, `<=`,
//!    `>`, `>=` or BETWEEN; BETWEEN bounds of different types or in the wrong order.
//!
//! Type checks look only at values from the request (and at `size`, which is a number): an item
//! attribute of the wrong type makes the condition false when evaluated, never an error.

use std::fmt;

use dynotable_types::{AttributeType, AttributeValue};

use crate::ast::{self, Comparator, ConditionKind, Node, OperandKind};
use crate::error::{Error, ExpressionKind, Result, Span};
use crate::evaluate::compare_values;
use crate::functions::{
    Function, Position, not_allowed, requires_path, unknown_function, wrong_operand_count, wrong_operand_type,
};
use crate::parser::parse_condition;
use crate::path::DocumentPath;
use crate::reserved;
use crate::resolve::{Placeholders, resolve_path, resolve_value};

/// Rule B.6: `IN` takes at most 100 operands. The live service counts the left operand too:
/// `a IN (99 values)` is accepted, `a IN (100 values)` refused.
pub const MAX_IN_OPERANDS: usize = 100;

/// An operand of a resolved condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// An attribute of the item.
    Path(DocumentPath),
    /// A value from ExpressionAttributeValues.
    Value(AttributeValue),
    /// `size(operand)`: a number.
    Size(Box<Operand>),
}

/// A resolved condition, ready to be evaluated against items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    Compare {
        op: Comparator,
        left: Operand,
        right: Operand,
    },
    Between {
        value: Operand,
        low: Operand,
        high: Operand,
    },
    In {
        value: Operand,
        list: Vec<Operand>,
    },
    AttributeExists(DocumentPath),
    AttributeNotExists(DocumentPath),
    AttributeType {
        operand: Operand,
        expected: AttributeType,
    },
    BeginsWith {
        operand: Operand,
        prefix: Operand,
    },
    Contains {
        operand: Operand,
        element: Operand,
    },
    Not(Box<Condition>),
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
}

impl Condition {
    /// Rule B.4 (docs/dynamodb-rules.md): a Query's filter may read none of the key attributes
    /// of the table or index it queries. The first key attribute this condition reads, by its
    /// top-level name (`is_key` says which names are keys); `None` when it reads none.
    pub fn key_attribute_read(&self, is_key: impl Fn(&str) -> bool) -> Option<&str> {
        self.paths()
            .into_iter()
            .map(DocumentPath::top_level)
            .find(|name| is_key(name))
    }

    /// Every document path the condition reads, in textual order.
    pub fn paths(&self) -> Vec<&DocumentPath> {
        fn operand<'a>(o: &'a Operand, out: &mut Vec<&'a DocumentPath>) {
            match o {
                Operand::Path(path) => out.push(path),
                Operand::Value(_) => {}
                Operand::Size(inner) => operand(inner, out),
            }
        }
        fn walk<'a>(c: &'a Condition, out: &mut Vec<&'a DocumentPath>) {
            match c {
                Condition::Compare { left, right, .. } => {
                    operand(left, out);
                    operand(right, out);
                }
                Condition::Between { value, low, high } => {
                    for o in [value, low, high] {
                        operand(o, out);
                    }
                }
                Condition::In { value, list } => {
                    operand(value, out);
                    list.iter().for_each(|o| operand(o, out));
                }
                Condition::AttributeExists(path) | Condition::AttributeNotExists(path) => out.push(path),
                Condition::AttributeType { operand: o, .. } => operand(o, out),
                Condition::BeginsWith {
                    operand: a,
                    prefix: b,
                }
                | Condition::Contains {
                    operand: a,
                    element: b,
                } => {
                    operand(a, out);
                    operand(b, out);
                }
                Condition::Not(inner) => walk(inner, out),
                Condition::And(a, b) | Condition::Or(a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }
}

/// Parses and resolves a ConditionExpression, FilterExpression or KeyConditionExpression
/// (`kind`), recording the placeholders it uses.
pub fn resolve_condition(
    kind: ExpressionKind,
    source: &str,
    placeholders: &mut Placeholders,
) -> Result<Condition> {
    let tree = parse_condition(kind, source)?;
    check_parentheses(kind, &tree)?;
    check_functions(kind, &tree)?;
    let mut paths = Vec::new();
    tree.walk(&mut |node| {
        if let Node::Path(path) = node {
            paths.push(path);
        }
    });
    reserved::check_paths(kind, paths)?;
    Resolver { kind, placeholders }.condition(&tree)
}

/// Step 1: no node may sit in two or more pairs of parentheses.
fn check_parentheses(kind: ExpressionKind, tree: &ast::Condition) -> Result<()> {
    let mut redundant = None;
    tree.walk(&mut |node| {
        let span = match node {
            Node::Condition(c) if c.parens > 1 => Some(c.span),
            Node::Operand(o) if o.parens > 1 => Some(o.span),
            Node::Path(p) => p.groups.iter().find(|g| g.parens > 1).map(|g| g.span),
            _ => None,
        };
        if redundant.is_none() {
            redundant = span;
        }
    });
    match redundant {
        Some(span) => Err(Error::invalid(
            kind,
            span,
            "The expression has redundant parentheses;",
        )),
        None => Ok(()),
    }
}

/// Step 2: every call names a known function, then every function stands where it may.
fn check_functions(kind: ExpressionKind, tree: &ast::Condition) -> Result<()> {
    // Calls in textual order, with where they stand.
    let mut calls: Vec<(&ast::Call, Position)> = Vec::new();
    tree.walk(&mut |node| match node {
        Node::Condition(ast::Condition {
            kind: ConditionKind::Call(call),
            ..
        }) => {
            calls.push((call, Position::Condition));
        }
        Node::Operand(ast::Operand {
            kind: OperandKind::Call(call),
            ..
        }) => {
            calls.push((call, Position::ConditionOperand));
        }
        _ => {}
    });
    for (call, _) in &calls {
        if Function::from_name(&call.name).is_none() {
            return Err(Error::invalid(kind, call.name_span, unknown_function(&call.name)));
        }
    }
    for (call, position) in &calls {
        if let Some(function) = Function::from_name(&call.name)
            && !function.allowed_at(*position)
        {
            return Err(Error::invalid(kind, call.name_span, not_allowed(function)));
        }
    }
    Ok(())
}

/// An operand with placeholders substituted, before its checks turn it into an [`Operand`].
enum Term {
    Path(DocumentPath, Span),
    Value(AttributeValue, Span),
    Call {
        function: Function,
        args: Vec<Term>,
        span: Span,
    },
}

impl Term {
    fn span(&self) -> Span {
        match self {
            Term::Path(_, span) | Term::Value(_, span) | Term::Call { span, .. } => *span,
        }
    }

    /// The type known before reading any item: a value's, or N for `size`.
    fn static_type(&self) -> Option<AttributeType> {
        match self {
            Term::Value(value, _) => Some(value.attribute_type()),
            Term::Call {
                function: Function::Size,
                ..
            } => Some(AttributeType::N),
            _ => None,
        }
    }

    fn calls_innermost_first<'a>(&'a self, out: &mut Vec<&'a Term>) {
        if let Term::Call { args, .. } = self {
            args.iter().for_each(|arg| arg.calls_innermost_first(out));
            out.push(self);
        }
    }

    fn into_operand(self) -> Operand {
        match self {
            Term::Path(path, _) => Operand::Path(path),
            Term::Value(value, _) => Operand::Value(value),
            Term::Call { mut args, .. } => {
                // Only `size` is left as an operand once the checks have passed.
                let arg = args
                    .pop()
                    .map_or(Operand::Value(AttributeValue::NULL), Term::into_operand);
                Operand::Size(Box::new(arg))
            }
        }
    }
}

/// The service's rendering of a value in BETWEEN messages: `{N:5}`, `{S:a}`.
fn bound(value: &AttributeValue) -> String {
    format!(
        "AttributeValue: {{{}:{}}}",
        value.attribute_type(),
        crate::display::scalar_text(value)
    )
}

/// The long type names of `operator:` messages (`ADD`, `<`).
pub(crate) fn operator_type_name(t: AttributeType) -> &'static str {
    match t {
        AttributeType::S => "STRING",
        AttributeType::N => "NUMBER",
        AttributeType::B => "BINARY",
        AttributeType::BOOL => "BOOLEAN",
        AttributeType::NULL => "NULL",
        AttributeType::M => "MAP",
        AttributeType::L => "LIST",
        AttributeType::SS => "STRING_SET",
        AttributeType::NS => "NUMBER_SET",
        AttributeType::BS => "BINARY_SET",
    }
}

struct Resolver<'p> {
    kind: ExpressionKind,
    placeholders: &'p mut Placeholders,
}

impl Resolver<'_> {
    fn error(&self, span: Span, detail: impl fmt::Display) -> Error {
        Error::invalid(self.kind, span, detail)
    }

    /// Step 4, one atomic condition at a time, in textual order.
    fn condition(&mut self, tree: &ast::Condition) -> Result<Condition> {
        Ok(match &tree.kind {
            ConditionKind::Not { operand, .. } => Condition::Not(Box::new(self.condition(operand)?)),
            ConditionKind::And { left, right, .. } => {
                let left = self.condition(left)?;
                Condition::And(Box::new(left), Box::new(self.condition(right)?))
            }
            ConditionKind::Or { left, right, .. } => {
                let left = self.condition(left)?;
                Condition::Or(Box::new(left), Box::new(self.condition(right)?))
            }
            ConditionKind::Compare { op, left, right, .. } => {
                let terms = self.terms([&**left, &**right])?;
                self.check_operand_counts(&terms)?;
                self.check_distinct(op.symbol(), &terms, tree.span)?;
                self.check_function_types(&terms)?;
                if matches!(
                    op,
                    Comparator::Lt | Comparator::Le | Comparator::Gt | Comparator::Ge
                ) {
                    self.check_ordered(op.symbol(), &terms)?;
                }
                let [left, right] = into_array(terms);
                Condition::Compare {
                    op: *op,
                    left: left.into_operand(),
                    right: right.into_operand(),
                }
            }
            ConditionKind::Between { value, low, high, .. } => {
                let terms = self.terms([&**value, &**low, &**high])?;
                self.check_operand_counts(&terms)?;
                self.check_function_types(&terms)?;
                self.check_ordered("BETWEEN", &terms)?;
                if let (Term::Value(low, _), Term::Value(high, _)) = (&terms[1], &terms[2]) {
                    self.check_bounds(low, high, tree.span)?;
                }
                let [value, low, high] = into_array(terms);
                Condition::Between {
                    value: value.into_operand(),
                    low: low.into_operand(),
                    high: high.into_operand(),
                }
            }
            ConditionKind::In { value, list, .. } => {
                let terms = self.terms(std::iter::once(&**value).chain(list))?;
                if terms.len() > MAX_IN_OPERANDS {
                    return Err(self.error(
                        tree.span,
                        format!(
                            "Too many operands for the operator or function; operator or function: IN, number of operands: {}",
                            terms.len()
                        ),
                    ));
                }
                self.check_operand_counts(&terms)?;
                self.check_function_types(&terms)?;
                let mut operands = terms.into_iter().map(Term::into_operand);
                let value = operands.next().unwrap_or(Operand::Value(AttributeValue::NULL));
                Condition::In {
                    value,
                    list: operands.collect(),
                }
            }
            ConditionKind::Call(call) => {
                let term = self.call(call)?;
                let terms = vec![term];
                self.check_operand_counts(&terms)?;
                if let Term::Call { function, args, .. } = &terms[0]
                    && args.len() == 2
                {
                    self.check_distinct(function.name(), args, tree.span)?;
                }
                self.check_function_types(&terms)?;
                let [term] = into_array(terms);
                boolean_function(term)
            }
        })
    }

    /// 4a: substitutes placeholders in the operands, failing on the first undefined one.
    fn terms<'a>(&mut self, operands: impl IntoIterator<Item = &'a ast::Operand>) -> Result<Vec<Term>> {
        operands.into_iter().map(|operand| self.term(operand)).collect()
    }

    fn term(&mut self, operand: &ast::Operand) -> Result<Term> {
        Ok(match &operand.kind {
            OperandKind::Path(path) => {
                Term::Path(resolve_path(self.kind, path, self.placeholders)?, operand.span)
            }
            OperandKind::Value(value) => {
                Term::Value(resolve_value(self.kind, value, self.placeholders)?, operand.span)
            }
            OperandKind::Call(call) => {
                let mut term = self.call(call)?;
                if let Term::Call { span, .. } = &mut term {
                    *span = operand.span;
                }
                term
            }
        })
    }

    fn call(&mut self, call: &ast::Call) -> Result<Term> {
        // Function names were checked in step 2.
        let function = Function::from_name(&call.name)
            .ok_or_else(|| self.error(call.name_span, unknown_function(&call.name)))?;
        let args = self.terms(&call.args)?;
        Ok(Term::Call {
            function,
            args,
            span: call.span,
        })
    }

    /// 4b: every function has exactly its number of operands.
    fn check_operand_counts(&self, terms: &[Term]) -> Result<()> {
        let mut calls = Vec::new();
        terms.iter().for_each(|t| t.calls_innermost_first(&mut calls));
        for call in calls {
            if let Term::Call { function, args, span } = call
                && args.len() != function.arity()
            {
                return Err(self.error(*span, wrong_operand_count(function.name(), args.len())));
            }
        }
        Ok(())
    }

    /// 4c: `a = a`, `contains(a, #a)` with `#a = a`: the two sides may not be the same path.
    fn check_distinct(&self, operator: &str, terms: &[Term], span: Span) -> Result<()> {
        if let [Term::Path(first, _), Term::Path(second, _)] = terms
            && first == second
        {
            return Err(self.error(
                span,
                format!(
                    "The first operand must be distinct from the remaining operands for this operator or function; operator: {operator}, first operand: {}",
                    first.service_form()
                ),
            ));
        }
        Ok(())
    }

    /// 4d for functions, innermost first.
    fn check_function_types(&self, terms: &[Term]) -> Result<()> {
        let mut calls = Vec::new();
        terms.iter().for_each(|t| t.calls_innermost_first(&mut calls));
        for call in calls {
            let Term::Call { function, args, span } = call else {
                continue;
            };
            match function {
                Function::AttributeExists | Function::AttributeNotExists => {
                    if !matches!(args.first(), Some(Term::Path(..))) {
                        return Err(self.error(*span, requires_path(*function)));
                    }
                }
                Function::BeginsWith => {
                    for arg in args {
                        if let Some(t) = arg.static_type()
                            && !matches!(t, AttributeType::S | AttributeType::B)
                        {
                            return Err(
                                self.error(arg.span(), wrong_operand_type(function.name(), t.as_str()))
                            );
                        }
                    }
                }
                Function::AttributeType => {
                    let Some(type_arg) = args.get(1) else { continue };
                    match (type_arg.static_type(), type_arg) {
                        (Some(AttributeType::S), Term::Value(AttributeValue::S(name), span)) => {
                            if AttributeType::from_descriptor(name).is_none() {
                                return Err(self.error(
                                    *span,
                                    format!(
                                        "Invalid attribute type name found; type: {name}, valid types: {{B,NULL,SS,BOOL,L,BS,N,NS,S,M}}"
                                    ),
                                ));
                            }
                        }
                        (Some(t), _) => {
                            return Err(
                                self.error(type_arg.span(), wrong_operand_type(function.name(), t.as_str()))
                            );
                        }
                        (None, _) => {
                            return Err(self.error(
                                type_arg.span(),
                                wrong_operand_type(function.name(), "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"),
                            ));
                        }
                    }
                }
                Function::Size => {
                    if let Some(arg) = args.first()
                        && let Some(t) = arg.static_type()
                        && matches!(t, AttributeType::N | AttributeType::BOOL | AttributeType::NULL)
                    {
                        return Err(self.error(arg.span(), wrong_operand_type(function.name(), t.as_str())));
                    }
                }
                Function::Contains | Function::IfNotExists | Function::ListAppend => {}
            }
        }
        Ok(())
    }

    /// 4d for `<`, `<=`, `>`, `>=` and BETWEEN: a value from the request must be S, N or B
    /// (live service: `a < :list` is a ValidationException, not a false condition). The
    /// message is not captured; it follows the service's `operator:` form.
    fn check_ordered(&self, operator: &str, terms: &[Term]) -> Result<()> {
        for term in terms {
            if let Term::Value(value, span) = term {
                let t = value.attribute_type();
                if !matches!(t, AttributeType::S | AttributeType::N | AttributeType::B) {
                    return Err(self.error(
                        *span,
                        format!(
                            "Incorrect operand type for operator or function; operator: {operator}, operand type: {}",
                            operator_type_name(t)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// 4d for BETWEEN with both bounds from the request.
    fn check_bounds(&self, low: &AttributeValue, high: &AttributeValue, span: Span) -> Result<()> {
        if low.attribute_type() != high.attribute_type() {
            return Err(self.error(
                span,
                format!(
                    "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: {}, upper bound operand: {}",
                    bound(low),
                    bound(high)
                ),
            ));
        }
        if compare_values(low, high) == Some(std::cmp::Ordering::Greater) {
            return Err(self.error(
                span,
                format!(
                    "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: {}, upper bound operand: {}",
                    bound(low),
                    bound(high)
                ),
            ));
        }
        Ok(())
    }
}

/// A checked boolean function call as a condition. The checks guarantee a call with the right
/// operands; the fallbacks below only keep the function total.
fn boolean_function(term: Term) -> Condition {
    let Term::Call { function, args, .. } = term else {
        return Condition::Compare {
            op: Comparator::Eq,
            left: term.into_operand(),
            right: Operand::Value(AttributeValue::NULL),
        };
    };
    let mut args = args.into_iter();
    let first = args.next();
    let second = args.next();
    let path = |t: Option<Term>| match t {
        Some(Term::Path(path, _)) => path,
        _ => DocumentPath::attribute(""),
    };
    let operand = |t: Option<Term>| t.map_or(Operand::Value(AttributeValue::NULL), Term::into_operand);
    match function {
        Function::AttributeExists => Condition::AttributeExists(path(first)),
        Function::AttributeNotExists => Condition::AttributeNotExists(path(first)),
        Function::AttributeType => {
            let expected = match &second {
                Some(Term::Value(AttributeValue::S(name), _)) => AttributeType::from_descriptor(name),
                _ => None,
            };
            Condition::AttributeType {
                operand: operand(first),
                expected: expected.unwrap_or(AttributeType::NULL),
            }
        }
        Function::BeginsWith => Condition::BeginsWith {
            operand: operand(first),
            prefix: operand(second),
        },
        _ => Condition::Contains {
            operand: operand(first),
            element: operand(second),
        },
    }
}

/// The terms of a comparison or BETWEEN, which always has `N` of them (the filler value is never
/// used; it keeps the function total).
fn into_array<const N: usize>(terms: Vec<Term>) -> [Term; N] {
    let mut iter = terms.into_iter();
    std::array::from_fn(|_| {
        iter.next()
            .unwrap_or(Term::Value(AttributeValue::NULL, Span::default()))
    })
}

// ---------------------------------------------------------------------------------------------
// Printing a resolved condition: every AND, OR and NOT in parentheses, so the grouping the
// precedence rules gave is visible.

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Path(path) => write!(f, "{path}"),
            Operand::Value(value) => f.write_str(&crate::display::value_text(value)),
            Operand::Size(inner) => write!(f, "size({inner})"),
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Compare { op, left, right } => write!(f, "{left} {} {right}", op.symbol()),
            Condition::Between { value, low, high } => write!(f, "{value} BETWEEN {low} AND {high}"),
            Condition::In { value, list } => {
                write!(f, "{value} IN (")?;
                for (i, o) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{o}")?;
                }
                f.write_str(")")
            }
            Condition::AttributeExists(path) => write!(f, "attribute_exists({path})"),
            Condition::AttributeNotExists(path) => write!(f, "attribute_not_exists({path})"),
            Condition::AttributeType { operand, expected } => {
                write!(f, "attribute_type({operand}, {expected})")
            }
            Condition::BeginsWith { operand, prefix } => write!(f, "begins_with({operand}, {prefix})"),
            Condition::Contains { operand, element } => write!(f, "contains({operand}, {element})"),
            Condition::Not(inner) => write!(f, "(NOT {inner})"),
            Condition::And(a, b) => write!(f, "({a} AND {b})"),
            Condition::Or(a, b) => write!(f, "({a} OR {b})"),
        }
    }
}
