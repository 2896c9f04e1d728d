//! The eight functions of the expression language, and where each may stand.
//!
//! Names are case-sensitive (Rule B.6, docs/dynamodb-rules.md): `BEGINS_WITH(a, :v)` is
//! `Invalid function name; function: BEGINS_WITH`. Any identifier followed by `(` parses as a
//! call; the checks below run on the tree afterwards, in this order, each over the whole
//! expression in textual order:
//!
//! 1. the name must be one of the eight (`Invalid function name; function: f`);
//! 2. the function must be allowed where it stands
//!    (`The function is not allowed to be used this way in an expression; function: f`):
//!    - in conditions, the five boolean functions only as a whole condition
//!      (`attribute_exists(a) = :v` is refused), `size` only as an operand (`size(a)` alone is
//!      refused), `if_not_exists` and `list_append` nowhere;
//!    - in updates, only `if_not_exists` and `list_append`, as operands, and `list_append` not
//!      directly inside another `list_append` (live service: `list_append(list_append(:a, :b),
//!      :c)` is refused, `list_append(if_not_exists(a, :e), :v)` accepted).
//!
//! Operand counts and operand types are checked later, with the placeholders resolved.

/// A function known to the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Function {
    AttributeExists,
    AttributeNotExists,
    AttributeType,
    BeginsWith,
    Contains,
    Size,
    IfNotExists,
    ListAppend,
}

/// Where a call stands in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Position {
    /// As a whole condition: `attribute_exists(a) AND ...`.
    Condition,
    /// As an operand of a comparison, BETWEEN, IN, or of another function (`parent`).
    ConditionOperand,
    /// As an operand in an UpdateExpression, inside `parent` if an argument.
    UpdateOperand { parent: Option<Function> },
}

impl Function {
    pub const ALL: [Function; 8] = [
        Function::AttributeExists,
        Function::AttributeNotExists,
        Function::AttributeType,
        Function::BeginsWith,
        Function::Contains,
        Function::Size,
        Function::IfNotExists,
        Function::ListAppend,
    ];

    /// The function named `name`, compared case-sensitively.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Function::AttributeExists => "attribute_exists",
            Function::AttributeNotExists => "attribute_not_exists",
            Function::AttributeType => "attribute_type",
            Function::BeginsWith => "begins_with",
            Function::Contains => "contains",
            Function::Size => "size",
            Function::IfNotExists => "if_not_exists",
            Function::ListAppend => "list_append",
        }
    }

    /// How many operands the function takes.
    pub fn arity(self) -> usize {
        match self {
            Function::AttributeExists | Function::AttributeNotExists | Function::Size => 1,
            _ => 2,
        }
    }

    /// Whether the function may stand at `position`.
    pub(crate) fn allowed_at(self, position: Position) -> bool {
        match position {
            Position::Condition => matches!(
                self,
                Function::AttributeExists
                    | Function::AttributeNotExists
                    | Function::AttributeType
                    | Function::BeginsWith
                    | Function::Contains
            ),
            Position::ConditionOperand => self == Function::Size,
            Position::UpdateOperand { parent } => match self {
                Function::IfNotExists => true,
                Function::ListAppend => parent != Some(Function::ListAppend),
                _ => false,
            },
        }
    }
}

pub(crate) fn unknown_function(name: &str) -> String {
    format!("Invalid function name; function: {name}")
}

pub(crate) fn not_allowed(function: Function) -> String {
    format!(
        "The function is not allowed to be used this way in an expression; function: {}",
        function.name()
    )
}

pub(crate) fn wrong_operand_count(name: &str, count: usize) -> String {
    format!(
        "Incorrect number of operands for operator or function; operator or function: {name}, number of operands: {count}"
    )
}

pub(crate) fn requires_path(function: Function) -> String {
    format!(
        "Operator or function requires a document path; operator or function: {}",
        function.name()
    )
}

/// `operand type` is a type descriptor (`N`, `BOOL`) for functions and for `+`/`-`.
pub(crate) fn wrong_operand_type(name: &str, operand_type: &str) -> String {
    format!(
        "Incorrect operand type for operator or function; operator or function: {name}, operand type: {operand_type}"
    )
}
