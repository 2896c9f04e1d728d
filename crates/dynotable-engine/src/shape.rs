//! Request-shape validation: the member constraints DynamoDB checks before anything else, and
//! reports together in one envelope (`2 validation errors detected: Value 'ab' at 'tableName'
//! failed to satisfy constraint: ...; ...`). Rules B.8 and B.10 (docs/dynamodb-rules.md): shape and
//! enumeration errors fire before semantic checks, and before the table is looked up, so a
//! request with both is a ValidationException, never ResourceNotFoundException; the list holds
//! at most [`MAX_LISTED`] violations (rule B.15).

use dynotable_types::ConstraintViolation;

use crate::ApiError;

/// The pattern of table and index names (rules B.8).
pub const NAME_PATTERN: &str = "[a-zA-Z0-9_.-]+";

/// The most violations one envelope lists (rule B.15): the service stops checking members once
/// it has ten, and counts only those.
pub const MAX_LISTED: usize = 10;

/// Collects failed member constraints, in the order the service lists them.
#[derive(Debug, Default)]
pub struct Shape {
    violations: Vec<ConstraintViolation>,
}

impl Shape {
    pub fn new() -> Shape {
        Shape::default()
    }

    /// `Member must not be null` when `value` is missing.
    pub fn required<T>(&mut self, field: &str, value: Option<&T>) -> bool {
        if value.is_none() {
            self.violations.push(ConstraintViolation::not_null(field));
        }
        value.is_some()
    }

    /// A table or index name: 3–255 characters of `[a-zA-Z0-9_.-]` (rules B.8).
    pub fn name(&mut self, field: &str, name: Option<&String>) {
        if let Some(name) = name {
            self.table_name_present(field, name);
        } else {
            self.violations.push(ConstraintViolation::not_null(field));
        }
    }

    /// The TableName of an operation that takes a table's name or its ARN (API Reference, e.g.
    /// API_GetItem: "You can also provide the Amazon Resource Name (ARN) of the table in this
    /// parameter"): an ARN is checked for the name it ends in.
    ///
    /// The member's own constraint is a length of at least 1 (it may hold an ARN): an empty
    /// name fails that one alone, and the name rules apply to a name that is there (rule B.15).
    pub fn table(&mut self, field: &str, name: Option<&String>) {
        match name {
            Some(name) if name.is_empty() => self
                .violations
                .push(ConstraintViolation::min_length(field, name, 1)),
            Some(name) => self.table_name_present(field, table_name_of(name)),
            None => self.violations.push(ConstraintViolation::not_null(field)),
        }
    }

    fn table_name_present(&mut self, field: &str, name: &str) {
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
            || name.is_empty()
        {
            self.violations
                .push(ConstraintViolation::pattern(field, name, NAME_PATTERN));
        }
        let len = name.chars().count();
        if len < 3 {
            self.violations
                .push(ConstraintViolation::min_length(field, name, 3));
        }
        if len > 255 {
            self.violations
                .push(ConstraintViolation::max_length(field, name, 255));
        }
    }

    /// A string of `min..=max` characters.
    pub fn length(&mut self, field: &str, value: &str, min: usize, max: usize) {
        let len = value.chars().count();
        if len < min {
            self.violations
                .push(ConstraintViolation::min_length(field, value, min));
        }
        if len > max {
            self.violations
                .push(ConstraintViolation::max_length(field, value, max));
        }
    }

    /// A list of `min..=max` members. The value is rendered the way the service renders lists.
    pub fn list_length(&mut self, field: &str, rendered: &str, len: usize, min: usize, max: usize) {
        if len < min {
            self.violations
                .push(ConstraintViolation::min_length(field, rendered, min));
        }
        if len > max {
            self.violations
                .push(ConstraintViolation::max_length(field, rendered, max));
        }
    }

    /// One of the enumeration's values.
    pub fn one_of(&mut self, field: &str, value: Option<&String>, allowed: &[&str]) {
        if let Some(value) = value
            && !allowed.contains(&value.as_str())
        {
            self.violations
                .push(ConstraintViolation::enum_value_set(field, value, allowed));
        }
    }

    /// A number of at least `min`.
    pub fn at_least(&mut self, field: &str, value: Option<i64>, min: i64) {
        if let Some(value) = value
            && value < min
        {
            self.violations.push(ConstraintViolation {
                field: field.to_owned(),
                value: Some(value.to_string()),
                constraint: format!("Member must have value greater than or equal to {min}"),
            });
        }
    }

    /// A number of at most `max`.
    pub fn at_most(&mut self, field: &str, value: Option<i64>, max: i64) {
        if let Some(value) = value
            && value > max
        {
            self.violations.push(ConstraintViolation {
                field: field.to_owned(),
                value: Some(value.to_string()),
                constraint: format!("Member must have value less than or equal to {max}"),
            });
        }
    }

    /// Adds a violation built by the caller.
    pub fn push(&mut self, violation: ConstraintViolation) {
        self.violations.push(violation);
    }

    /// The envelope, if any constraint failed: the first [`MAX_LISTED`] violations.
    pub fn finish(mut self) -> Result<(), ApiError> {
        if self.violations.is_empty() {
            Ok(())
        } else {
            self.violations.truncate(MAX_LISTED);
            Err(ApiError::constraints(self.violations))
        }
    }
}

/// The table name a data-plane request names: a plain name, or a table ARN
/// (`arn:aws:dynamodb:<region>:<account>:table/<name>`), which operations now accept too.
pub fn table_name_of(name: &str) -> &str {
    if name.starts_with("arn:")
        && let Some((_, table)) = name.split_once(":table/")
    {
        return table.split('/').next().unwrap_or(table);
    }
    name
}
