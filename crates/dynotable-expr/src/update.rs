//! UpdateExpression after resolution, and the checks that get it there.
//!
//! [`resolve_update`] parses, then runs the service's checks in the service's order, each over
//! the whole expression in textual order (Rule B.6, docs/dynamodb-rules.md; order as dynalite
//! reproduces it from the live service):
//!
//! 1. bare reserved words (`SET status = :s` →
//!    `Attribute name is a reserved keyword; reserved keyword: status`);
//! 2. unknown function names, then functions where they may not stand (see
//!    [`crate::functions`]);
//! 3. a clause given twice → `The "SET" section can only be used once in an update expression;`
//! 4. undefined `#names`, then undefined `:values`;
//! 5. two target paths that overlap (`a` and `a.b`, or `a` twice), then two that conflict
//!    (`a.b` and `a[1]`) — `Two document paths overlap with each other; must remove or rewrite
//!    one of these paths; path one: [a], path two: [a, b]`;
//! 6. ADD takes a number or a set, DELETE a set —
//!    `Incorrect operand type for operator or function; operator: ADD, operand type: STRING,
//!    typeSet: ALLOWED_FOR_ADD_OPERAND`;
//! 7. functions and `+`/`-`, innermost first: the number of operands; `if_not_exists` needs a
//!    path first (`Operator or function requires a document path; operator or function:
//!    if_not_exists`); `list_append` takes lists and `+`/`-` numbers, as far as the request's
//!    values show (`...; operator or function: +, operand type: S`).
//!
//! The key attributes cannot be updated (checked by [`Update::check_key_attributes`], once the
//! caller knows the key schema), and type errors that depend on the item surface when the
//! update is applied (see [`crate::apply`]).

use std::fmt;

use dynotable_types::{AttributeType, AttributeValue};

use crate::ast::{self, Arithmetic, Node, OperandKind, SetValueKind};
use crate::condition::operator_type_name;
use crate::error::{Error, ExpressionKind, Result, Span};
use crate::functions::{
    Function, Position, not_allowed, requires_path, unknown_function, wrong_operand_count, wrong_operand_type,
};
use crate::parser::parse_update;
use crate::path::{DocumentPath, clash_message, first_clash};
use crate::reserved;
use crate::resolve::{Placeholders, resolve_path, resolve_value};

/// An operand on the right-hand side of a SET action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateOperand {
    Path(DocumentPath),
    Value(AttributeValue),
    /// `if_not_exists(path, operand)`: the attribute at `path` if it exists, else `operand`.
    IfNotExists(DocumentPath, Box<UpdateOperand>),
    /// `list_append(a, b)`: the elements of list `a`, then those of list `b`.
    ListAppend(Box<UpdateOperand>, Box<UpdateOperand>),
}

/// The right-hand side of a SET action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetValue {
    Operand(UpdateOperand),
    Plus(UpdateOperand, UpdateOperand),
    Minus(UpdateOperand, UpdateOperand),
}

/// One action of an update, with the span of its text for errors met while applying it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateAction {
    Set {
        path: DocumentPath,
        value: SetValue,
        span: Span,
    },
    Remove {
        path: DocumentPath,
        span: Span,
    },
    /// `value` is an N or a set.
    Add {
        path: DocumentPath,
        value: AttributeValue,
        span: Span,
    },
    /// `value` is a set.
    Delete {
        path: DocumentPath,
        value: AttributeValue,
        span: Span,
    },
}

impl UpdateAction {
    /// The path the action writes.
    pub fn path(&self) -> &DocumentPath {
        match self {
            UpdateAction::Set { path, .. }
            | UpdateAction::Remove { path, .. }
            | UpdateAction::Add { path, .. }
            | UpdateAction::Delete { path, .. } => path,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            UpdateAction::Set { span, .. }
            | UpdateAction::Remove { span, .. }
            | UpdateAction::Add { span, .. }
            | UpdateAction::Delete { span, .. } => *span,
        }
    }
}

/// A resolved UpdateExpression: its actions in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub actions: Vec<UpdateAction>,
}

impl Update {
    /// The paths the update writes, in the order written (for `ReturnValues=UPDATED_*`).
    pub fn paths(&self) -> Vec<&DocumentPath> {
        self.actions.iter().map(UpdateAction::path).collect()
    }

    /// Whether the update, applied to an item that does not exist, creates it. SET and ADD
    /// write a value, so they do; REMOVE and DELETE have nothing to act on in a missing item,
    /// and an update made only of them creates nothing (API_UpdateItem, AttributeUpdates:
    /// "DELETE - Nothing happens; there is no attribute to delete"; the same holds on the
    /// service for a REMOVE-only UpdateExpression: no item, no stream record).
    pub fn creates_item(&self) -> bool {
        self.actions
            .iter()
            .any(|action| matches!(action, UpdateAction::Set { .. } | UpdateAction::Add { .. }))
    }

    /// Rule B.10 (docs/dynamodb-rules.md): an update may not write a key attribute, whether it sets,
    /// removes, adds to or deletes from it, or a path inside it —
    /// `One or more parameter values were invalid: Cannot update attribute pk. This attribute is
    /// part of the key`. Reading a key attribute (`SET copy = pk`) is fine.
    pub fn check_key_attributes(&self, key_attributes: &[&str]) -> Result<()> {
        for action in &self.actions {
            let name = action.path().top_level();
            if key_attributes.contains(&name) {
                return Err(Error::unprefixed(
                    ExpressionKind::Update,
                    action.span(),
                    format!(
                        "One or more parameter values were invalid: Cannot update attribute {name}. This attribute is part of the key"
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Parses and resolves an UpdateExpression, recording the placeholders it uses.
pub fn resolve_update(source: &str, placeholders: &mut Placeholders) -> Result<Update> {
    let kind = ExpressionKind::Update;
    let tree = parse_update(source)?;
    let error = |span: Span, detail: String| Error::invalid(kind, span, detail);

    // 1. Reserved words.
    let mut paths = Vec::new();
    tree.walk(&mut |node| {
        if let Node::Path(path) = node {
            paths.push(path);
        }
    });
    reserved::check_paths(kind, paths.iter().copied())?;

    // 2. Function names, then where functions stand.
    let mut calls: Vec<(&ast::Call, Option<Function>)> = Vec::new();
    for action in tree.clauses.iter().flat_map(|c| &c.actions) {
        if let ast::Action::Set { value, .. } = action {
            let operands: Vec<&ast::Operand> = match &value.kind {
                SetValueKind::Operand(o) => vec![o],
                SetValueKind::Arithmetic { left, right, .. } => vec![left, right],
            };
            operands
                .into_iter()
                .for_each(|o| collect_calls(o, None, &mut calls));
        }
    }
    for (call, _) in &calls {
        if Function::from_name(&call.name).is_none() {
            return Err(error(call.name_span, unknown_function(&call.name)));
        }
    }
    for (call, parent) in &calls {
        if let Some(function) = Function::from_name(&call.name)
            && !function.allowed_at(Position::UpdateOperand { parent: *parent })
        {
            return Err(error(call.name_span, not_allowed(function)));
        }
    }

    // 3. Each clause at most once.
    for (i, clause) in tree.clauses.iter().enumerate() {
        if tree.clauses[..i].iter().any(|c| c.kind == clause.kind) {
            return Err(error(
                clause.keyword_span,
                format!(
                    "The \"{}\" section can only be used once in an update expression;",
                    clause.kind.keyword()
                ),
            ));
        }
    }

    // 4. Names, then values.
    for path in &paths {
        resolve_path(kind, path, placeholders)?;
    }
    let mut values = Vec::new();
    tree.walk(&mut |node| {
        if let Node::Value(value) = node {
            values.push(value);
        }
    });
    for value in &values {
        resolve_value(kind, value, placeholders)?;
    }

    // Everything is defined now: build the actions.
    let mut resolver = Resolver { placeholders };
    let mut actions = Vec::new();
    for action in tree.clauses.iter().flat_map(|c| &c.actions) {
        actions.push(resolver.action(action)?);
    }

    // 5. Overlapping, then conflicting target paths.
    let targets: Vec<(DocumentPath, Span)> = actions
        .iter()
        .map(|(a, _)| (a.path().clone(), a.span()))
        .collect();
    if let Some((clash, i, j)) = first_clash(&targets) {
        return Err(error(
            targets[j].1,
            clash_message(clash, &targets[i].0, &targets[j].0),
        ));
    }

    // 6. ADD and DELETE operands.
    for (action, _) in &actions {
        let (operator, value, allowed): (&str, &AttributeValue, &[AttributeType]) = match action {
            UpdateAction::Add { value, .. } => (
                "ADD",
                value,
                &[
                    AttributeType::N,
                    AttributeType::SS,
                    AttributeType::NS,
                    AttributeType::BS,
                ],
            ),
            UpdateAction::Delete { value, .. } => (
                "DELETE",
                value,
                &[AttributeType::SS, AttributeType::NS, AttributeType::BS],
            ),
            _ => continue,
        };
        let t = value.attribute_type();
        if !allowed.contains(&t) {
            return Err(error(
                action.span(),
                format!(
                    "Incorrect operand type for operator or function; operator: {operator}, operand type: {}, typeSet: ALLOWED_FOR_{operator}_OPERAND",
                    operator_type_name(t)
                ),
            ));
        }
    }

    // 7. Functions and arithmetic, innermost first.
    for (_, terms) in &actions {
        if let Some(terms) = terms {
            check_terms(terms)?;
        }
    }

    Ok(Update {
        actions: actions.into_iter().map(|(a, _)| a).collect(),
    })
}

/// Calls in textual order with the function they are an argument of.
fn collect_calls<'a>(
    operand: &'a ast::Operand,
    parent: Option<Function>,
    out: &mut Vec<(&'a ast::Call, Option<Function>)>,
) {
    if let OperandKind::Call(call) = &operand.kind {
        out.push((call, parent));
        let function = Function::from_name(&call.name);
        call.args.iter().for_each(|arg| collect_calls(arg, function, out));
    }
}

/// A SET operand with placeholders substituted, before its checks.
#[derive(Clone)]
enum Term {
    Path(DocumentPath),
    Value(AttributeValue, Span),
    Call {
        name: String,
        function: Function,
        args: Vec<Term>,
        span: Span,
    },
}

impl Term {
    fn into_operand(self) -> UpdateOperand {
        match self {
            Term::Path(path) => UpdateOperand::Path(path),
            Term::Value(value, _) => UpdateOperand::Value(value),
            Term::Call { function, args, .. } => {
                let mut args = args.into_iter().map(Term::into_operand);
                let first = args.next().unwrap_or(UpdateOperand::Value(AttributeValue::NULL));
                let second = args.next().unwrap_or(UpdateOperand::Value(AttributeValue::NULL));
                match (function, first) {
                    (Function::IfNotExists, UpdateOperand::Path(path)) => {
                        UpdateOperand::IfNotExists(path, Box::new(second))
                    }
                    (_, first) => UpdateOperand::ListAppend(Box::new(first), Box::new(second)),
                }
            }
        }
    }
}

/// The operator-level view of a SET value for step 7: `+`/`-` is checked like a function.
struct Terms {
    arithmetic: Option<(Arithmetic, Span)>,
    operands: Vec<Term>,
}

fn check_terms(terms: &Terms) -> Result<()> {
    let kind = ExpressionKind::Update;
    fn calls_innermost_first<'a>(term: &'a Term, out: &mut Vec<&'a Term>) {
        if let Term::Call { args, .. } = term {
            args.iter().for_each(|arg| calls_innermost_first(arg, out));
            out.push(term);
        }
    }
    let mut calls = Vec::new();
    terms
        .operands
        .iter()
        .for_each(|t| calls_innermost_first(t, &mut calls));
    for call in calls {
        let Term::Call {
            name,
            function,
            args,
            span,
        } = call
        else {
            continue;
        };
        if args.len() != function.arity() {
            return Err(Error::invalid(kind, *span, wrong_operand_count(name, args.len())));
        }
        match function {
            Function::IfNotExists if !matches!(args.first(), Some(Term::Path(_))) => {
                return Err(Error::invalid(kind, *span, requires_path(*function)));
            }
            Function::ListAppend => check_values(args, AttributeType::L, name)?,
            _ => {}
        }
    }
    if let Some((op, _)) = terms.arithmetic {
        check_values(&terms.operands, AttributeType::N, op.symbol())?;
    }
    Ok(())
}

/// The request's values among `terms` must be of type `expected`.
fn check_values(terms: &[Term], expected: AttributeType, operator: &str) -> Result<()> {
    for term in terms {
        if let Term::Value(value, span) = term
            && value.attribute_type() != expected
        {
            return Err(Error::invalid(
                ExpressionKind::Update,
                *span,
                wrong_operand_type(operator, value.attribute_type().as_str()),
            ));
        }
    }
    Ok(())
}

struct Resolver<'p> {
    placeholders: &'p mut Placeholders,
}

impl Resolver<'_> {
    /// An action, with its SET operands as terms for step 7.
    fn action(&mut self, action: &ast::Action) -> Result<(UpdateAction, Option<Terms>)> {
        let kind = ExpressionKind::Update;
        let path = resolve_path(kind, action.path(), self.placeholders)?;
        Ok(match action {
            ast::Action::Set { value, span, .. } => {
                let (arithmetic, operands) = match &value.kind {
                    SetValueKind::Operand(o) => (None, vec![self.term(o)?]),
                    SetValueKind::Arithmetic {
                        op,
                        op_span,
                        left,
                        right,
                    } => (Some((*op, *op_span)), vec![self.term(left)?, self.term(right)?]),
                };
                let terms = Terms {
                    arithmetic,
                    operands: operands.clone(),
                };
                let mut operands = operands.into_iter().map(Term::into_operand);
                let first = operands
                    .next()
                    .unwrap_or(UpdateOperand::Value(AttributeValue::NULL));
                let value = match (arithmetic, operands.next()) {
                    (Some((Arithmetic::Plus, _)), Some(second)) => SetValue::Plus(first, second),
                    (Some((Arithmetic::Minus, _)), Some(second)) => SetValue::Minus(first, second),
                    _ => SetValue::Operand(first),
                };
                (
                    UpdateAction::Set {
                        path,
                        value,
                        span: *span,
                    },
                    Some(terms),
                )
            }
            ast::Action::Remove { span, .. } => (UpdateAction::Remove { path, span: *span }, None),
            ast::Action::Add { value, span, .. } => {
                let value = resolve_value(kind, value, self.placeholders)?;
                (
                    UpdateAction::Add {
                        path,
                        value,
                        span: *span,
                    },
                    None,
                )
            }
            ast::Action::Delete { value, span, .. } => {
                let value = resolve_value(kind, value, self.placeholders)?;
                (
                    UpdateAction::Delete {
                        path,
                        value,
                        span: *span,
                    },
                    None,
                )
            }
        })
    }

    fn term(&mut self, operand: &ast::Operand) -> Result<Term> {
        let kind = ExpressionKind::Update;
        Ok(match &operand.kind {
            OperandKind::Path(path) => Term::Path(resolve_path(kind, path, self.placeholders)?),
            OperandKind::Value(value) => {
                Term::Value(resolve_value(kind, value, self.placeholders)?, operand.span)
            }
            OperandKind::Call(call) => {
                let function = Function::from_name(&call.name)
                    .ok_or_else(|| Error::invalid(kind, call.name_span, unknown_function(&call.name)))?;
                let args = call
                    .args
                    .iter()
                    .map(|arg| self.term(arg))
                    .collect::<Result<Vec<_>>>()?;
                Term::Call {
                    name: call.name.clone(),
                    function,
                    args,
                    span: operand.span,
                }
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Printing a resolved update (for the golden tests and the desktop app's previews).

impl fmt::Display for UpdateOperand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateOperand::Path(path) => write!(f, "{path}"),
            UpdateOperand::Value(value) => f.write_str(&crate::display::value_text(value)),
            UpdateOperand::IfNotExists(path, operand) => write!(f, "if_not_exists({path}, {operand})"),
            UpdateOperand::ListAppend(a, b) => write!(f, "list_append({a}, {b})"),
        }
    }
}

impl fmt::Display for SetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetValue::Operand(o) => write!(f, "{o}"),
            SetValue::Plus(a, b) => write!(f, "{a} + {b}"),
            SetValue::Minus(a, b) => write!(f, "{a} - {b}"),
        }
    }
}

impl fmt::Display for UpdateAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateAction::Set { path, value, .. } => write!(f, "SET {path} = {value}"),
            UpdateAction::Remove { path, .. } => write!(f, "REMOVE {path}"),
            UpdateAction::Add { path, value, .. } => {
                write!(f, "ADD {path} {}", crate::display::value_text(value))
            }
            UpdateAction::Delete { path, value, .. } => {
                write!(f, "DELETE {path} {}", crate::display::value_text(value))
            }
        }
    }
}
