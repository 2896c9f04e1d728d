//! The syntax tree of a PartiQL statement, as the parser leaves it: names and literals as
//! written, `?` parameters by position, every node with its span.

use dynotable_expr::{PathStep, Span};

/// One statement (DG `ql-reference.statements.html`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    Select(Select),
    Insert(Insert),
    Update(Update),
    Delete(Delete),
    /// `EXISTS(SELECT ...)`: a condition check, only inside ExecuteTransaction.
    Exists(Select),
}

impl Statement {
    /// Whether the statement only reads. EXISTS counts as a write: it is TransactWriteItems'
    /// ConditionCheck (DG `ql-reference.multiplestatements.transactions.html`).
    pub fn is_read(&self) -> bool {
        matches!(self, Statement::Select(_))
    }

    pub fn target(&self) -> &Target {
        match self {
            Statement::Select(s) | Statement::Exists(s) => &s.from,
            Statement::Insert(i) => &i.into,
            Statement::Update(u) => &u.target,
            Statement::Delete(d) => &d.from,
        }
    }

    pub fn returning(&self) -> Option<Returning> {
        match self {
            Statement::Update(u) => u.returning,
            Statement::Delete(d) => d.returning,
            _ => None,
        }
    }
}

/// `"table"` or `"table"."index"`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Target {
    pub table: String,
    pub index: Option<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Select {
    /// `None` for `*`.
    pub projection: Option<Vec<Path>>,
    pub from: Target,
    pub filter: Option<Expr>,
    pub order_by: Vec<OrderKey>,
}

/// One `ORDER BY` key.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OrderKey {
    pub path: Path,
    pub descending: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Insert {
    pub into: Target,
    /// The item: a tuple literal (`{'pk': 'a', ...}`).
    pub item: Expr,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Update {
    pub target: Target,
    pub actions: Vec<UpdateAction>,
    pub filter: Option<Expr>,
    pub returning: Option<Returning>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum UpdateAction {
    Set(Path, Expr),
    Remove(Path),
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Delete {
    pub from: Target,
    pub filter: Option<Expr>,
    pub returning: Option<Returning>,
}

/// `RETURNING (ALL | MODIFIED) (OLD | NEW) *` (DG `ql-reference.update.html`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Returning {
    AllOld,
    ModifiedOld,
    AllNew,
    ModifiedNew,
}

impl Returning {
    /// UpdateItem's and DeleteItem's `ReturnValues` for this clause.
    pub fn return_values(self) -> &'static str {
        match self {
            Returning::AllOld => "ALL_OLD",
            Returning::ModifiedOld => "UPDATED_OLD",
            Returning::AllNew => "ALL_NEW",
            Returning::ModifiedNew => "UPDATED_NEW",
        }
    }

    pub fn keywords(self) -> &'static str {
        match self {
            Returning::AllOld => "ALL OLD",
            Returning::ModifiedOld => "MODIFIED OLD",
            Returning::AllNew => "ALL NEW",
            Returning::ModifiedNew => "MODIFIED NEW",
        }
    }
}

/// A document path: `a`, `"a b".c[2]`, `a['c']`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    pub steps: Vec<PathStep>,
    pub span: Span,
}

impl Path {
    /// The one attribute name, if the path is nothing more.
    pub fn as_attribute(&self) -> Option<&str> {
        match self.steps.as_slice() {
            [PathStep::Attribute(name)] => Some(name),
            _ => None,
        }
    }

    /// The path as text, for messages: `a.b[2]`.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for step in &self.steps {
            match step {
                PathStep::Attribute(name) if out.is_empty() => out.push_str(name),
                PathStep::Attribute(name) => {
                    out.push('.');
                    out.push_str(name);
                }
                PathStep::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompareOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CompareOp {
    /// The operator in DynamoDB's expression syntax.
    pub fn symbol(self) -> &'static str {
        match self {
            CompareOp::Eq => "=",
            CompareOp::Ne => "<>",
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Gt => ">",
            CompareOp::Ge => ">=",
        }
    }

    /// The operator with its operands swapped: `1 < a` is `a > 1`.
    pub fn flipped(self) -> CompareOp {
        match self {
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
            other => other,
        }
    }
}

/// The types `IS` tests for (the service lists `[MISSING, NULL, BOOLEAN, BLOB, STRING, NUMERIC,
/// STRUCT, TUPLE, LIST]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IsType {
    Missing,
    Null,
    Boolean,
    Blob,
    String,
    Numeric,
    Struct,
    List,
}

impl IsType {
    pub fn of_keyword(word: &str) -> Option<IsType> {
        Some(match word.to_ascii_uppercase().as_str() {
            "MISSING" => IsType::Missing,
            "NULL" => IsType::Null,
            "BOOLEAN" => IsType::Boolean,
            "BLOB" => IsType::Blob,
            "STRING" => IsType::String,
            "NUMERIC" => IsType::Numeric,
            "STRUCT" | "TUPLE" => IsType::Struct,
            "LIST" => IsType::List,
            _ => return None,
        })
    }

    /// The DynamoDB type descriptor `attribute_type` checks for (`None` for MISSING).
    pub fn descriptor(self) -> Option<&'static str> {
        Some(match self {
            IsType::Missing => return None,
            IsType::Null => "NULL",
            IsType::Boolean => "BOOL",
            IsType::Blob => "B",
            IsType::String => "S",
            IsType::Numeric => "N",
            IsType::Struct => "M",
            IsType::List => "L",
        })
    }
}

/// An expression: a condition, an operand, or a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    Path(Path),
    Value(Value, Span),
    Compare(Box<Expr>, CompareOp, Box<Expr>, Span),
    Between {
        operand: Box<Expr>,
        low: Box<Expr>,
        high: Box<Expr>,
        negated: bool,
        span: Span,
    },
    In {
        operand: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
        span: Span,
    },
    Is {
        operand: Box<Expr>,
        ty: IsType,
        negated: bool,
        span: Span,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>, Span),
    Call {
        /// As written.
        name: String,
        args: Vec<Expr>,
        span: Span,
    },
    /// `a + b`, `a - b`.
    Arithmetic(Box<Expr>, char, Box<Expr>, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Path(p) => p.span,
            Expr::Value(_, span)
            | Expr::Compare(.., span)
            | Expr::Between { span, .. }
            | Expr::In { span, .. }
            | Expr::Is { span, .. }
            | Expr::Not(_, span)
            | Expr::Call { span, .. }
            | Expr::Arithmetic(.., span) => *span,
            Expr::And(..) | Expr::Or(..) => {
                let parts = match self {
                    Expr::And(..) => self.conjuncts(),
                    _ => self.disjuncts(),
                };
                let first = parts.first().map_or_else(Span::default, |e| e.span());
                parts.last().map_or(first, |e| first.to(e.span()))
            }
        }
    }

    /// The conjuncts of a chain of ANDs: `a AND (b AND c)` is `[a, b, c]`. Iterative, so a
    /// long chain costs no stack.
    pub fn conjuncts(&self) -> Vec<&Expr> {
        self.flatten(|e| match e {
            Expr::And(a, b) => Some((a, b)),
            _ => None,
        })
    }

    /// The disjuncts of a chain of ORs.
    pub fn disjuncts(&self) -> Vec<&Expr> {
        self.flatten(|e| match e {
            Expr::Or(a, b) => Some((a, b)),
            _ => None,
        })
    }

    fn flatten<'e>(&'e self, split: impl Fn(&'e Expr) -> Option<(&'e Expr, &'e Expr)>) -> Vec<&'e Expr> {
        let mut out = Vec::new();
        let mut pending = vec![self];
        while let Some(expr) = pending.pop() {
            match split(expr) {
                Some((a, b)) => {
                    pending.push(b);
                    pending.push(a);
                }
                None => out.push(expr),
            }
        }
        out
    }
}

/// A literal value, before `?` parameters are bound.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Str(String),
    /// As written, sign included.
    Number(String),
    Bool(bool),
    Null,
    Missing,
    /// The n-th `?` of the statement (0-based).
    Parameter(usize),
    List(Vec<Expr>),
    /// A tuple: `{'name': value, ...}`; keys as written (each an expression, checked when bound).
    Tuple(Vec<(Expr, Expr)>),
    /// A bag: `<<value, ...>>`, which DynamoDB reads as a set.
    Bag(Vec<Expr>),
}
