//! Syntax trees: what the parser builds, before any placeholder is looked up.
//!
//! Every node keeps the byte span of its source text, and every node that may be wrapped in
//! parentheses keeps how many pairs wrap it: DynamoDB rejects `((a = b))` as redundant
//! parentheses, so the count is part of the tree (Rule B.6, docs/dynamodb-rules.md).
//!
//! `Display` prints a tree back as canonical expression text (single spaces, upper-case
//! keywords, the same parentheses); parsing that text gives the same tree again, which the
//! property tests check. [`Dump`] prints a tree one node per line for the golden tests.

use std::fmt::{self, Write as _};

use crate::error::Span;

/// One element of a document path as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathElement {
    /// A bare attribute name: `status` (subject to the reserved-word check).
    Name { name: String, span: Span },
    /// A name placeholder: `#s`.
    Placeholder { key: String, span: Span },
    /// A list index: `[3]`.
    Index { index: u32, span: Span },
}

impl PathElement {
    pub fn span(&self) -> Span {
        match self {
            PathElement::Name { span, .. }
            | PathElement::Placeholder { span, .. }
            | PathElement::Index { span, .. } => *span,
        }
    }
}

/// A parenthesised prefix of a path, as in `(a.b).c`: the first `len` elements are wrapped in
/// `parens` pairs of parentheses. Only condition expressions allow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathGroup {
    pub len: usize,
    pub parens: u32,
    pub span: Span,
}

/// A document path: `a.b[2].#c`. The first element is never an index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    pub elements: Vec<PathElement>,
    pub groups: Vec<PathGroup>,
    pub span: Span,
}

/// A value placeholder as written: `:v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueRef {
    pub key: String,
    pub span: Span,
}

/// A function call `name(arg, ...)`. Any identifier followed by `(` parses as a call; whether
/// the function exists, and may be used where it stands, is checked after parsing (the service
/// reports `Invalid function name; function: f`, not a syntax error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    pub name_span: Span,
    pub args: Vec<Operand>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OperandKind {
    Path(Path),
    Value(ValueRef),
    Call(Call),
}

/// An operand: a path, a value placeholder or a function call, possibly in parentheses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    pub kind: OperandKind,
    pub parens: u32,
    /// The span including the parentheses.
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparator {
    pub fn symbol(self) -> &'static str {
        match self {
            Comparator::Eq => "=",
            Comparator::Ne => "<>",
            Comparator::Lt => "<",
            Comparator::Le => "<=",
            Comparator::Gt => ">",
            Comparator::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionKind {
    /// `a = b`, `a < b`, ...
    Compare {
        op: Comparator,
        op_span: Span,
        left: Box<Operand>,
        right: Box<Operand>,
    },
    /// `a BETWEEN b AND c`
    Between {
        value: Box<Operand>,
        low: Box<Operand>,
        high: Box<Operand>,
        op_span: Span,
    },
    /// `a IN (b, c)`
    In {
        value: Box<Operand>,
        list: Vec<Operand>,
        op_span: Span,
    },
    /// A function used as a whole condition: `attribute_exists(a)`.
    Call(Call),
    Not {
        operand: Box<Condition>,
        op_span: Span,
    },
    And {
        left: Box<Condition>,
        right: Box<Condition>,
        op_span: Span,
    },
    Or {
        left: Box<Condition>,
        right: Box<Condition>,
        op_span: Span,
    },
}

/// A condition (ConditionExpression, FilterExpression, KeyConditionExpression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub kind: ConditionKind,
    pub parens: u32,
    pub span: Span,
}

/// A ProjectionExpression: comma-separated paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projection {
    pub paths: Vec<Path>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClauseKind {
    Set,
    Remove,
    Add,
    Delete,
}

impl ClauseKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ClauseKind::Set => "SET",
            ClauseKind::Remove => "REMOVE",
            ClauseKind::Add => "ADD",
            ClauseKind::Delete => "DELETE",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    Plus,
    Minus,
}

impl Arithmetic {
    pub fn symbol(self) -> &'static str {
        match self {
            Arithmetic::Plus => "+",
            Arithmetic::Minus => "-",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetValueKind {
    Operand(Operand),
    Arithmetic {
        op: Arithmetic,
        op_span: Span,
        left: Operand,
        right: Operand,
    },
}

/// The right-hand side of a SET action, possibly in one pair of parentheses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetValue {
    pub kind: SetValueKind,
    pub parens: u32,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `SET path = value`
    Set {
        path: Path,
        value: Box<SetValue>,
        span: Span,
    },
    /// `REMOVE path`
    Remove { path: Path, span: Span },
    /// `ADD path :value`
    Add { path: Path, value: ValueRef, span: Span },
    /// `DELETE path :value`
    Delete { path: Path, value: ValueRef, span: Span },
}

impl Action {
    pub fn path(&self) -> &Path {
        match self {
            Action::Set { path, .. }
            | Action::Remove { path, .. }
            | Action::Add { path, .. }
            | Action::Delete { path, .. } => path,
        }
    }

    pub fn span(&self) -> Span {
        match self {
            Action::Set { span, .. }
            | Action::Remove { span, .. }
            | Action::Add { span, .. }
            | Action::Delete { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    pub keyword_span: Span,
    pub actions: Vec<Action>,
    pub span: Span,
}

/// An UpdateExpression: clauses in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Update {
    pub clauses: Vec<Clause>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------------
// Printing back as expression text.

fn open(f: &mut fmt::Formatter<'_>, parens: u32) -> fmt::Result {
    for _ in 0..parens {
        f.write_char('(')?;
    }
    Ok(())
}

fn close(f: &mut fmt::Formatter<'_>, parens: u32) -> fmt::Result {
    for _ in 0..parens {
        f.write_char(')')?;
    }
    Ok(())
}

impl fmt::Display for PathElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Name { name, .. } => f.write_str(name),
            PathElement::Placeholder { key, .. } => f.write_str(key),
            PathElement::Index { index, .. } => write!(f, "[{index}]"),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        open(f, self.groups.iter().map(|g| g.parens).sum())?;
        for (i, element) in self.elements.iter().enumerate() {
            if i > 0 && !matches!(element, PathElement::Index { .. }) {
                f.write_char('.')?;
            }
            write!(f, "{element}")?;
            for group in self.groups.iter().filter(|g| g.len == i + 1) {
                close(f, group.parens)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        for (i, arg) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{arg}")?;
        }
        f.write_char(')')
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        open(f, self.parens)?;
        match &self.kind {
            OperandKind::Path(path) => write!(f, "{path}")?,
            OperandKind::Value(value) => f.write_str(&value.key)?,
            OperandKind::Call(call) => write!(f, "{call}")?,
        }
        close(f, self.parens)
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        open(f, self.parens)?;
        match &self.kind {
            ConditionKind::Compare { op, left, right, .. } => write!(f, "{left} {} {right}", op.symbol())?,
            ConditionKind::Between { value, low, high, .. } => write!(f, "{value} BETWEEN {low} AND {high}")?,
            ConditionKind::In { value, list, .. } => {
                write!(f, "{value} IN (")?;
                for (i, item) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_char(')')?
            }
            ConditionKind::Call(call) => write!(f, "{call}")?,
            ConditionKind::Not { operand, .. } => write!(f, "NOT {operand}")?,
            ConditionKind::And { left, right, .. } => write!(f, "{left} AND {right}")?,
            ConditionKind::Or { left, right, .. } => write!(f, "{left} OR {right}")?,
        }
        close(f, self.parens)
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, path) in self.paths.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{path}")?;
        }
        Ok(())
    }
}

impl fmt::Display for SetValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        open(f, self.parens)?;
        match &self.kind {
            SetValueKind::Operand(operand) => write!(f, "{operand}")?,
            SetValueKind::Arithmetic { op, left, right, .. } => write!(f, "{left} {} {right}", op.symbol())?,
        }
        close(f, self.parens)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Set { path, value, .. } => write!(f, "{path} = {value}"),
            Action::Remove { path, .. } => write!(f, "{path}"),
            Action::Add { path, value, .. } | Action::Delete { path, value, .. } => {
                write!(f, "{path} {}", value.key)
            }
        }
    }
}

impl fmt::Display for Update {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, clause) in self.clauses.iter().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            f.write_str(clause.kind.keyword())?;
            for (j, action) in clause.actions.iter().enumerate() {
                f.write_str(if j > 0 { ", " } else { " " })?;
                write!(f, "{action}")?;
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Tree dumps for golden tests: one node per line, children indented, spans optional.

/// Writes a tree one node per line. With `spans`, each line ends with the node's byte span.
pub trait Dump {
    fn dump_into(&self, out: &mut Dumper);

    fn dump(&self, spans: bool) -> String {
        let mut dumper = Dumper {
            out: String::new(),
            depth: 0,
            spans,
        };
        self.dump_into(&mut dumper);
        dumper.out
    }
}

pub struct Dumper {
    out: String,
    depth: usize,
    spans: bool,
}

impl Dumper {
    fn line(&mut self, text: impl fmt::Display, span: Span, parens: u32) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
        let _ = write!(self.out, "{text}");
        if parens > 0 {
            let _ = write!(self.out, " parens={parens}");
        }
        if self.spans {
            let _ = write!(self.out, " @{span}");
        }
        self.out.push('\n');
    }

    fn nested(&mut self, f: impl FnOnce(&mut Dumper)) {
        self.depth += 1;
        f(self);
        self.depth -= 1;
    }
}

impl Dump for Path {
    fn dump_into(&self, out: &mut Dumper) {
        let mut text = String::from("path");
        for element in &self.elements {
            let _ = match element {
                PathElement::Name { name, .. } => write!(text, " name:{name}"),
                PathElement::Placeholder { key, .. } => write!(text, " placeholder:{key}"),
                PathElement::Index { index, .. } => write!(text, " index:{index}"),
            };
        }
        for group in &self.groups {
            let _ = write!(text, " group:{}x{}", group.len, group.parens);
        }
        out.line(text, self.span, 0);
    }
}

impl Dump for Operand {
    fn dump_into(&self, out: &mut Dumper) {
        match &self.kind {
            OperandKind::Path(path) => {
                if self.parens > 0 {
                    out.line("group", self.span, self.parens);
                    out.nested(|out| path.dump_into(out));
                } else {
                    path.dump_into(out);
                }
            }
            OperandKind::Value(value) => out.line(format!("value {}", value.key), self.span, self.parens),
            OperandKind::Call(call) => {
                out.line(format!("call {}", call.name), self.span, self.parens);
                out.nested(|out| call.args.iter().for_each(|arg| arg.dump_into(out)));
            }
        }
    }
}

impl Dump for Condition {
    fn dump_into(&self, out: &mut Dumper) {
        let (label, children): (String, Vec<&dyn Dump>) = match &self.kind {
            ConditionKind::Compare { op, left, right, .. } => {
                (format!("compare {}", op.symbol()), vec![&**left, &**right])
            }
            ConditionKind::Between { value, low, high, .. } => {
                ("between".into(), vec![&**value, &**low, &**high])
            }
            ConditionKind::In { value, list, .. } => {
                let mut children: Vec<&dyn Dump> = vec![&**value];
                children.extend(list.iter().map(|o| o as &dyn Dump));
                ("in".into(), children)
            }
            ConditionKind::Call(call) => (
                format!("function {}", call.name),
                call.args.iter().map(|o| o as &dyn Dump).collect(),
            ),
            ConditionKind::Not { operand, .. } => ("not".into(), vec![operand.as_ref()]),
            ConditionKind::And { left, right, .. } => ("and".into(), vec![left.as_ref(), right.as_ref()]),
            ConditionKind::Or { left, right, .. } => ("or".into(), vec![left.as_ref(), right.as_ref()]),
        };
        out.line(label, self.span, self.parens);
        out.nested(|out| children.iter().for_each(|child| child.dump_into(out)));
    }
}

impl Dump for Projection {
    fn dump_into(&self, out: &mut Dumper) {
        out.line("projection", self.span, 0);
        out.nested(|out| self.paths.iter().for_each(|path| path.dump_into(out)));
    }
}

impl Dump for SetValue {
    fn dump_into(&self, out: &mut Dumper) {
        match &self.kind {
            SetValueKind::Operand(operand) if self.parens == 0 => operand.dump_into(out),
            SetValueKind::Operand(operand) => {
                out.line("group", self.span, self.parens);
                out.nested(|out| operand.dump_into(out));
            }
            SetValueKind::Arithmetic { op, left, right, .. } => {
                out.line(op.symbol(), self.span, self.parens);
                out.nested(|out| {
                    left.dump_into(out);
                    right.dump_into(out);
                });
            }
        }
    }
}

impl Dump for Update {
    fn dump_into(&self, out: &mut Dumper) {
        for clause in &self.clauses {
            out.line(clause.kind.keyword(), clause.span, 0);
            out.nested(|out| {
                for action in &clause.actions {
                    match action {
                        Action::Set { path, value, span } => {
                            out.line("set", *span, 0);
                            out.nested(|out| {
                                path.dump_into(out);
                                value.dump_into(out);
                            });
                        }
                        Action::Remove { path, span } => {
                            out.line("remove", *span, 0);
                            out.nested(|out| path.dump_into(out));
                        }
                        Action::Add { path, value, span } | Action::Delete { path, value, span } => {
                            let label = if matches!(action, Action::Add { .. }) {
                                "add"
                            } else {
                                "delete"
                            };
                            out.line(label, *span, 0);
                            out.nested(|out| {
                                path.dump_into(out);
                                out.line(format!("value {}", value.key), value.span, 0);
                            });
                        }
                    }
                }
            });
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Walking a tree in textual order.

/// A node met while walking a tree, in textual (pre-)order.
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    Condition(&'a Condition),
    Operand(&'a Operand),
    Path(&'a Path),
    Value(&'a ValueRef),
}

impl Operand {
    /// Visits this operand, then what it contains, in textual order.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(Node<'a>)) {
        visit(Node::Operand(self));
        match &self.kind {
            OperandKind::Path(path) => visit(Node::Path(path)),
            OperandKind::Value(value) => visit(Node::Value(value)),
            OperandKind::Call(call) => call.args.iter().for_each(|arg| arg.walk(visit)),
        }
    }
}

impl Condition {
    /// Visits this condition, then what it contains, in textual order.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(Node<'a>)) {
        visit(Node::Condition(self));
        match &self.kind {
            ConditionKind::Compare { left, right, .. } => {
                left.walk(visit);
                right.walk(visit);
            }
            ConditionKind::Between { value, low, high, .. } => {
                value.walk(visit);
                low.walk(visit);
                high.walk(visit);
            }
            ConditionKind::In { value, list, .. } => {
                value.walk(visit);
                list.iter().for_each(|o| o.walk(visit));
            }
            ConditionKind::Call(call) => call.args.iter().for_each(|arg| arg.walk(visit)),
            ConditionKind::Not { operand, .. } => operand.walk(visit),
            ConditionKind::And { left, right, .. } | ConditionKind::Or { left, right, .. } => {
                left.walk(visit);
                right.walk(visit);
            }
        }
    }
}

impl Update {
    /// Visits every action's target path, then its operands, in textual order.
    pub fn walk<'a>(&'a self, visit: &mut dyn FnMut(Node<'a>)) {
        for action in self.clauses.iter().flat_map(|c| &c.actions) {
            visit(Node::Path(action.path()));
            match action {
                Action::Set { value, .. } => match &value.kind {
                    SetValueKind::Operand(operand) => operand.walk(visit),
                    SetValueKind::Arithmetic { left, right, .. } => {
                        left.walk(visit);
                        right.walk(visit);
                    }
                },
                Action::Remove { .. } => {}
                Action::Add { value, .. } | Action::Delete { value, .. } => visit(Node::Value(value)),
            }
        }
    }
}
