//! From PartiQL to DynamoDB's own expression language: values are bound (literals and `?`
//! parameters become [`AttributeValue`]s) and conditions, update values and paths are written out
//! as expression text with `#n` name and `:v` value placeholders.
//!
//! This is how a statement reaches the engine's operations: a WHERE clause becomes a
//! ConditionExpression (or a filter evaluated with the same evaluator), a SET becomes an
//! UpdateExpression. So comparison, type and function rules are the expression language's own
//! (rule B.6), applied once. Every compound part is written inside exactly one pair of
//! parentheses, which the expression language never counts as redundant.

use std::collections::{BTreeMap, HashMap};

use dynotable_expr::PathStep;
use dynotable_types::{AttributeType, AttributeValue, Number, Set};

use super::ast::{Expr, Path, Value};
use super::error::{self, SyntaxError};
use crate::ApiError;

/// Turns literal expressions into attribute values, reading `?` from the request's Parameters.
pub(crate) struct Binder<'a> {
    pub source: &'a str,
    pub parameters: &'a [AttributeValue],
}

impl Binder<'_> {
    /// The value of a literal expression.
    pub fn value(&self, expr: &Expr) -> Result<AttributeValue, ApiError> {
        let Expr::Value(value, span) = expr else {
            return Err(SyntaxError::new("Expected a literal value", expr.span()).into_api(self.source));
        };
        Ok(match value {
            Value::Str(text) => AttributeValue::S(text.clone()),
            Value::Number(text) => AttributeValue::N(Number::parse(text)?),
            Value::Bool(b) => AttributeValue::BOOL(*b),
            Value::Null => AttributeValue::NULL,
            Value::Missing => return Err(ApiError::validation(error::MISSING_NOT_WITH_IS)),
            Value::Parameter(index) => self
                .parameters
                .get(*index)
                .cloned()
                .ok_or_else(|| ApiError::validation(error::PARAMETER_COUNT))?,
            Value::List(items) => {
                AttributeValue::L(items.iter().map(|i| self.value(i)).collect::<Result<_, _>>()?)
            }
            Value::Tuple(entries) => {
                let mut map = BTreeMap::new();
                for (key, value) in entries {
                    let key = match self.value(key)? {
                        AttributeValue::S(name) => name,
                        other => {
                            return Err(ApiError::validation(format!(
                                "Tuple keys must be of type String. Actual type: {}",
                                other.attribute_type().as_str()
                            )));
                        }
                    };
                    if map.contains_key(&key) {
                        return Err(ApiError::validation(format!(
                            "Duplicate keys in tuple. Key: {key}"
                        )));
                    }
                    let value = self.value(value)?;
                    map.insert(key, value);
                }
                AttributeValue::M(map)
            }
            Value::Bag(items) => {
                let values = items
                    .iter()
                    .map(|i| self.value(i))
                    .collect::<Result<Vec<_>, _>>()?;
                bag(values).map_err(|message| {
                    if message == error::EMPTY_BAG {
                        SyntaxError::refused(message, *span).into_api(self.source)
                    } else {
                        ApiError::validation(message)
                    }
                })?
            }
        })
    }
}

/// A bag of values as the set DynamoDB stores: all strings, all numbers or all binaries.
fn bag(values: Vec<AttributeValue>) -> Result<AttributeValue, String> {
    let Some(first) = values.first() else {
        return Err(error::EMPTY_BAG.to_owned());
    };
    let ty = first.attribute_type();
    if values.iter().any(|v| v.attribute_type() != ty) {
        return Err(error::BAG_TYPES.to_owned());
    }
    let set = match ty {
        AttributeType::S => Set::new(
            values
                .into_iter()
                .filter_map(|v| v.as_s().map(str::to_owned))
                .collect(),
        )
        .map(AttributeValue::SS),
        AttributeType::N => {
            Set::new(values.into_iter().filter_map(|v| v.as_n().cloned()).collect()).map(AttributeValue::NS)
        }
        AttributeType::B => Set::new(
            values
                .into_iter()
                .filter_map(|v| v.as_b().map(<[u8]>::to_vec))
                .collect(),
        )
        .map(AttributeValue::BS),
        _ => return Err(error::BAG_TYPES.to_owned()),
    };
    set.map_err(|e| e.message())
}

/// Writes expressions as DynamoDB expression text, collecting the placeholders they use.
pub(crate) struct Renderer<'a> {
    binder: &'a Binder<'a>,
    names: BTreeMap<String, String>,
    placeholder_of: HashMap<String, String>,
    values: BTreeMap<String, AttributeValue>,
}

/// The placeholders an expression (or several) written by one [`Renderer`] use.
#[derive(Debug, Default, Clone)]
pub(crate) struct Placeholders {
    pub names: BTreeMap<String, String>,
    pub values: BTreeMap<String, AttributeValue>,
}

impl Placeholders {
    /// `ExpressionAttributeNames`, absent when empty (an empty map is an error).
    pub fn names(&self) -> Option<BTreeMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// `ExpressionAttributeValues`, absent when empty.
    pub fn values(&self) -> Option<BTreeMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }

    /// The expression language's placeholders, to resolve an expression written with these.
    pub fn resolver(&self) -> Result<dynotable_expr::Placeholders, ApiError> {
        Ok(dynotable_expr::Placeholders::new(self.names(), self.values())?)
    }
}

impl<'a> Renderer<'a> {
    pub fn new(binder: &'a Binder<'a>) -> Renderer<'a> {
        Renderer {
            binder,
            names: BTreeMap::new(),
            placeholder_of: HashMap::new(),
            values: BTreeMap::new(),
        }
    }

    pub fn finish(self) -> Placeholders {
        Placeholders {
            names: self.names,
            values: self.values,
        }
    }

    /// `#n0`, the same placeholder for the same name.
    pub fn name(&mut self, name: &str) -> String {
        if let Some(placeholder) = self.placeholder_of.get(name) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), name.to_owned());
        self.placeholder_of.insert(name.to_owned(), placeholder.clone());
        placeholder
    }

    /// `:v0`, a new placeholder for every value.
    pub fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// `#n0.#n1[2]`.
    pub fn path(&mut self, path: &Path) -> String {
        let mut out = String::new();
        for step in &path.steps {
            match step {
                PathStep::Attribute(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    let placeholder = self.name(name);
                    out.push_str(&placeholder);
                }
                PathStep::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    /// A WHERE clause as a condition.
    pub fn condition(&mut self, expr: &Expr) -> Result<String, ApiError> {
        Ok(match expr {
            Expr::Compare(left, op, right, _) => {
                let left = self.operand(left)?;
                let right = self.operand(right)?;
                format!("{left} {} {right}", op.symbol())
            }
            Expr::Between {
                operand,
                low,
                high,
                negated,
                ..
            } => {
                let text = format!(
                    "{} BETWEEN {} AND {}",
                    self.operand(operand)?,
                    self.operand(low)?,
                    self.operand(high)?
                );
                negate(text, *negated)
            }
            Expr::In {
                operand,
                list,
                negated,
                ..
            } => {
                let Expr::Path(path) = operand.as_ref() else {
                    return Err(ApiError::validation(error::INVALID_IN));
                };
                if list.is_empty() {
                    return Err(ApiError::validation(error::INVALID_IN));
                }
                let path = self.path(path);
                let mut members = Vec::with_capacity(list.len());
                for member in list {
                    let value = self.binder.value(member)?;
                    members.push(self.value(value));
                }
                negate(format!("{path} IN ({})", members.join(", ")), *negated)
            }
            Expr::Is {
                operand, ty, negated, ..
            } => {
                let Expr::Path(path) = operand.as_ref() else {
                    return Err(ApiError::validation(
                        "The left hand side argument to IS must be a Variable Reference, Literal, or Path",
                    ));
                };
                let path = self.path(path);
                match ty.descriptor() {
                    None if *negated => format!("attribute_exists({path})"),
                    None => format!("attribute_not_exists({path})"),
                    Some(descriptor) => {
                        let t = self.value(AttributeValue::S(descriptor.to_owned()));
                        negate(format!("attribute_type({path}, {t})"), *negated)
                    }
                }
            }
            // AND binds tighter than OR, and comparisons and functions tighter than both. Chains
            // are written out flat, so their length costs no stack.
            Expr::And(..) => self.conjuncts(&expr.conjuncts())?,
            Expr::Or(..) => {
                let mut parts = Vec::new();
                for disjunct in expr.disjuncts() {
                    parts.push(self.condition(disjunct)?);
                }
                parts.join(" OR ")
            }
            Expr::Not(inner, _) => {
                let inner = self.grouped(inner, matches!(**inner, Expr::And(..) | Expr::Or(..)))?;
                format!("NOT {inner}")
            }
            Expr::Call { name, args, .. } => {
                let function = name.to_ascii_lowercase();
                if !matches!(
                    function.as_str(),
                    "begins_with" | "contains" | "attribute_type" | "size"
                ) {
                    return Err(ApiError::validation(format!("Unrecognized function: {name}")));
                }
                self.call(&function, args)?
            }
            Expr::Arithmetic(_, op, _, _) => return Err(unsupported_condition_operator(*op)),
            Expr::Path(_) | Expr::Value(..) => return Err(ApiError::validation(error::NOT_BOOLEAN_WHERE)),
        })
    }

    /// Conditions joined by AND (an OR among them in parentheses).
    pub fn conjuncts(&mut self, conjuncts: &[&Expr]) -> Result<String, ApiError> {
        let mut parts = Vec::with_capacity(conjuncts.len());
        for conjunct in conjuncts {
            parts.push(self.grouped(conjunct, matches!(conjunct, Expr::Or(..)))?);
        }
        Ok(parts.join(" AND "))
    }

    /// A condition, in parentheses when `group`.
    fn grouped(&mut self, expr: &Expr, group: bool) -> Result<String, ApiError> {
        let text = self.condition(expr)?;
        Ok(if group { format!("({text})") } else { text })
    }

    /// One side of a comparison: a path, a value or `size(path)`.
    fn operand(&mut self, expr: &Expr) -> Result<String, ApiError> {
        match expr {
            Expr::Path(path) => Ok(self.path(path)),
            Expr::Value(..) => {
                let value = self.binder.value(expr)?;
                Ok(self.value(value))
            }
            Expr::Call { name, args, .. } if name.eq_ignore_ascii_case("size") => self.call("size", args),
            Expr::Call { name, .. } => Err(ApiError::validation(format!("Unrecognized function: {name}"))),
            Expr::Arithmetic(_, op, _, _) => Err(unsupported_condition_operator(*op)),
            other => Err(SyntaxError::new("Expected an operand", other.span()).into_api(self.binder.source)),
        }
    }

    fn call(&mut self, function: &str, args: &[Expr]) -> Result<String, ApiError> {
        let mut operands = Vec::with_capacity(args.len());
        for arg in args {
            operands.push(self.operand(arg)?);
        }
        Ok(format!("{function}({})", operands.join(", ")))
    }

    /// The right-hand side of `SET path = ...`: a value, a path, `a + b`, `a - b` or
    /// `list_append(a, b)` (DG `ql-reference.update.html`).
    pub fn update_value(&mut self, expr: &Expr) -> Result<String, ApiError> {
        match expr {
            Expr::Path(path) => Ok(self.path(path)),
            Expr::Value(..) => {
                let value = self.binder.value(expr)?;
                Ok(self.value(value))
            }
            Expr::Arithmetic(..) => {
                // `a + b - c` is a left-deep chain: walk it without recursing along it.
                let mut terms = Vec::new();
                let mut left = expr;
                while let Expr::Arithmetic(a, op, b, _) = left {
                    terms.push((*op, b.as_ref()));
                    left = a;
                }
                let mut text = self.update_value(left)?;
                for (op, term) in terms.into_iter().rev() {
                    text = format!("{text} {op} {}", self.update_value(term)?);
                }
                Ok(text)
            }
            Expr::Call { name, args, .. } if name.eq_ignore_ascii_case("list_append") => {
                let mut operands = Vec::with_capacity(args.len());
                for arg in args {
                    operands.push(self.update_value(arg)?);
                }
                Ok(format!("list_append({})", operands.join(", ")))
            }
            Expr::Call { name, .. } => Err(ApiError::validation(format!("Unrecognized function: {name}"))),
            Expr::Is { .. } => Err(ApiError::validation(error::IS_IN_UPDATE)),
            other => Err(SyntaxError::new("Expected a value", other.span()).into_api(self.binder.source)),
        }
    }
}

fn negate(text: String, negated: bool) -> String {
    if negated { format!("NOT ({text})") } else { text }
}

fn unsupported_condition_operator(op: char) -> ApiError {
    ApiError::validation(format!(
        "Unsupported operator in Condition Expression. Operator: {op}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partiql::ast::Statement;
    use crate::partiql::parser::parse;

    fn render(source: &str, parameters: &[AttributeValue]) -> (String, Placeholders) {
        let parsed = parse(source).unwrap();
        let Statement::Select(select) = parsed.statement else {
            panic!("a select")
        };
        let binder = Binder { source, parameters };
        let mut renderer = Renderer::new(&binder);
        let text = renderer.condition(select.filter.as_ref().unwrap()).unwrap();
        (text, renderer.finish())
    }

    #[test]
    fn conditions_become_expression_text() {
        let (text, placeholders) = render(
            "SELECT * FROM t WHERE a.b[1] = ? AND (c IS MISSING OR NOT d IN [1, 2]) AND e IS NOT STRING AND begins_with(f, 'x') AND size(a) > 3",
            &[AttributeValue::S("p".into())],
        );
        assert_eq!(
            text,
            "#n0.#n1[1] = :v0 AND (attribute_not_exists(#n2) OR NOT #n3 IN (:v1, :v2)) AND NOT (attribute_type(#n4, :v3)) AND begins_with(#n5, :v4) AND size(#n0) > :v5"
        );
        assert_eq!(placeholders.names.len(), 6);
        assert_eq!(placeholders.values[":v3"], AttributeValue::S("S".into()));
    }

    #[test]
    fn bags_become_sets() {
        let binder = Binder {
            source: "",
            parameters: &[],
        };
        let parsed = parse("INSERT INTO t VALUE {'s': <<'a', 'b'>>, 'n': <<1, 2>>}").unwrap();
        let Statement::Insert(insert) = parsed.statement else {
            panic!("an insert")
        };
        let AttributeValue::M(item) = binder.value(&insert.item).unwrap() else {
            panic!("a map")
        };
        assert!(matches!(item["s"], AttributeValue::SS(_)));
        assert!(matches!(item["n"], AttributeValue::NS(_)));
        let mixed = parse("INSERT INTO t VALUE {'s': <<'a', 1>>}").unwrap();
        let Statement::Insert(insert) = mixed.statement else {
            panic!("an insert")
        };
        assert_eq!(binder.value(&insert.item).unwrap_err().message, error::BAG_TYPES);
    }
}
