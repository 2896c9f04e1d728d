//! The crate's one error type: a value, key or name that DynamoDB would refuse.
//!
//! Every variant renders (through `Display` and [`ValidationError::message`]) as the text the
//! service puts in the `message` of its `ValidationException` (rules B.10, docs/dynamodb-rules.md).
//! The engine wraps the error into that exception unchanged; nothing here knows about HTTP.
//!
//! Where the rules file quotes a message, the wording below is that quotation, typos included
//! (`limit of2048 bytes`, `An string set  may not be empty`). Messages the rules file does not
//! quote are marked "unverified" on their variant.
//!
//! Request-shape problems (a `{"S": 5}`, base64 that does not decode) are *not* this type: they
//! are serde errors, which the server answers with `SerializationException` (see [`crate::wire`]).

use std::fmt;

use crate::key::ScalarAttributeType;
use crate::value::AttributeType;

/// A value, key or name that DynamoDB rejects with a `ValidationException`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    // ---- Numbers (rules B.7, B.9, B.10) -------------------------------------------------------
    /// `{"N": ""}`. Live-service wording (no value is appended for an empty string).
    #[error("The parameter cannot be converted to a numeric value")]
    EmptyNumber,
    /// A number string that is not a decimal numeral, e.g. `NaN`, `0x10`, `" 5"`.
    /// Live-service wording; DynamoDB Local says `A value provided cannot be converted into a number`.
    #[error("The parameter cannot be converted to a numeric value: {0}")]
    InvalidNumber(String),
    /// More than 38 significant digits after leading and trailing zeros are dropped.
    #[error("Attempting to store more than 38 significant digits in a Number")]
    TooManyDigits,
    /// A magnitude above 9.9999999999999999999999999999999999999E+125.
    #[error("Number overflow. Attempting to store a number with magnitude larger than supported range")]
    NumberOverflow,
    /// A non-zero magnitude below 1E-130.
    #[error("Number underflow. Attempting to store a number with magnitude smaller than supported range")]
    NumberUnderflow,

    // ---- Attribute values (rules B.7, B.10) ---------------------------------------------------
    /// An AttributeValue object with none of the ten datatype keys (`{}` or only unknown keys).
    #[error("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes")]
    EmptyAttributeValue,
    /// An AttributeValue object with two or more datatype keys.
    #[error(
        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
    )]
    MultipleDatatypes,
    /// `{"NULL": false}` (old wording; some regions now accept it, see docs/compatibility.md).
    #[error(
        "One or more parameter values were invalid: Null attribute value types must have the value of true"
    )]
    NullNotTrue,
    /// An SS, NS or BS with no element: `An string set  may not be empty` (the double space is
    /// the service's), `Binary sets should not be empty` for a BS (rule B.10).
    #[error("One or more parameter values were invalid: {}", empty_set_sentence(*.0))]
    EmptySet(SetKind),
    /// A set with two equal elements; numbers compare numerically, so `["1", "1.0"]` qualifies.
    /// The service's sentence starts like the other parameter-value errors (2026 live captures,
    /// docs/dynamodb-rules.md B.16) and differs by kind (rule B.10): an SS lists its elements,
    /// a BS lists them with `of type BS` after the bracket, an NS names none.
    #[error("One or more parameter values were invalid: {}", duplicate_set_sentence(*kind, elements))]
    DuplicateSetElements {
        /// The set's kind.
        kind: SetKind,
        /// The elements, rendered `[e1, e2, ...]` in DynamoDB order (see [`crate::Set::new`]).
        elements: String,
    },
    /// A document nested deeper than 32 levels (the attribute itself is level 1).
    #[error(
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
    )]
    NestingTooDeep,
    /// An item over 400 KB (PutItem and the other whole-item writes).
    #[error("Item size has exceeded the maximum allowed size")]
    ItemTooLarge,
    /// An item that an UpdateItem would grow over 400 KB.
    #[error("Item size to update has exceeded the maximum allowed size")]
    UpdatedItemTooLarge,
    /// A top-level attribute name of zero bytes. Unverified wording.
    #[error("One or more parameter values were invalid: An attribute name may not be empty")]
    EmptyAttributeName,
    /// A top-level attribute name of 64 KB or more. Unverified wording.
    #[error(
        "One or more parameter values were invalid: Attribute name exceeds the maximum size of 65535 bytes"
    )]
    AttributeNameTooLong,

    // ---- Keys (rules B.7, B.10) ---------------------------------------------------------------
    /// An item being written lacks a key attribute of the table.
    #[error("One or more parameter values were invalid: Missing the key {name} in the item")]
    MissingKey {
        /// The key attribute's name.
        name: String,
    },
    /// An item being written has a table key attribute of the wrong type.
    #[error(
        "One or more parameter values were invalid: Type mismatch for key {name} expected: {expected} actual: {actual}"
    )]
    KeyTypeMismatch {
        /// The key attribute's name.
        name: String,
        /// The type declared in the table's AttributeDefinitions.
        expected: ScalarAttributeType,
        /// The type found in the item.
        actual: AttributeType,
    },
    /// An item being written has a secondary-index key attribute of the wrong type.
    #[error(
        "One or more parameter values were invalid: Type mismatch for Index Key {name} Expected: {expected} Actual: {actual} IndexName: {index}"
    )]
    IndexKeyTypeMismatch {
        /// The index's name.
        index: String,
        /// The index key attribute's name.
        name: String,
        /// The type declared in the table's AttributeDefinitions.
        expected: ScalarAttributeType,
        /// The type found in the item.
        actual: AttributeType,
    },
    /// A `Key` parameter (GetItem, DeleteItem, UpdateItem, ...) whose attributes are not exactly the
    /// key schema, or whose key attribute has the wrong type.
    #[error("The provided key element does not match the schema")]
    KeyElementMismatch,
    /// A table key attribute holding an empty string or binary.
    #[error(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty {} value. Key: {name}",
        empty_kind(*.ty)
    )]
    EmptyKey {
        /// The key attribute's name.
        name: String,
        /// S or B (a number is never empty).
        ty: ScalarAttributeType,
    },
    /// A secondary-index key attribute holding an empty string or binary.
    #[error(
        "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty {} value. IndexName: {index}, IndexKey: {name}",
        empty_kind(*.ty)
    )]
    EmptyIndexKey {
        /// The index's name.
        index: String,
        /// The index key attribute's name.
        name: String,
        /// S or B.
        ty: ScalarAttributeType,
    },
    /// A partition key value over 2,048 bytes. The missing space is the service's.
    #[error(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
    )]
    PartitionKeyTooLarge,
    /// A sort key value over 1,024 bytes.
    #[error(
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"
    )]
    SortKeyTooLarge,

    // ---- Request members (rules B.8, B.10) ----------------------------------------------------
    /// Member constraints that failed, rendered in the service's envelope:
    /// `1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: ...`.
    /// The server may merge the violations of several members into one envelope.
    #[error("{}", render_envelope(.0))]
    Constraints(Vec<ConstraintViolation>),
}

impl ValidationError {
    /// The service's message for this error, as it appears in the exception's `message`.
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// Whether this is a number-conversion failure. DynamoDB converts numbers while it reads the
    /// request, so these win over every other value error in the same request (see [`crate::wire`]).
    pub fn is_number_error(&self) -> bool {
        matches!(
            self,
            Self::EmptyNumber
                | Self::InvalidNumber(_)
                | Self::TooManyDigits
                | Self::NumberOverflow
                | Self::NumberUnderflow
        )
    }
}

fn empty_kind(ty: ScalarAttributeType) -> &'static str {
    match ty {
        ScalarAttributeType::B => "binary",
        ScalarAttributeType::S | ScalarAttributeType::N => "string",
    }
}

/// Which kind of set an [`ValidationError::EmptySet`] is about; renders as the service's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SetKind {
    /// SS
    String,
    /// NS
    Number,
    /// BS
    Binary,
}

/// The sentence of [`ValidationError::EmptySet`] after `One or more parameter values were
/// invalid: ` (rule B.10).
fn empty_set_sentence(kind: SetKind) -> String {
    match kind {
        SetKind::Binary => "Binary sets should not be empty".to_owned(),
        other => format!("An {other} set  may not be empty"),
    }
}

/// The sentence of [`ValidationError::DuplicateSetElements`] after `One or more parameter values
/// were invalid: ` (rule B.10).
fn duplicate_set_sentence(kind: SetKind, elements: &str) -> String {
    match kind {
        SetKind::String => format!("Input collection {elements} contains duplicates."),
        SetKind::Binary => format!("Input collection {elements}of type BS contains duplicates."),
        SetKind::Number => "Input collection contains duplicates.".to_owned(),
    }
}

impl fmt::Display for SetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::String => "string",
            Self::Number => "number",
            Self::Binary => "binary",
        })
    }
}

/// One failed member constraint, in the service's words (rules B.8, B.10):
/// `Value '<value>' at '<field>' failed to satisfy constraint: <constraint>`.
///
/// `field` is the member's path as the service spells it (`tableName`,
/// `globalSecondaryIndexes.1.member.indexName`, ...); the caller knows it, this crate does not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConstraintViolation {
    /// The member's path, e.g. `tableName`.
    pub field: String,
    /// The offending value as sent; `None` renders as `Value null`.
    pub value: Option<String>,
    /// The constraint, e.g. `Member must have length greater than or equal to 3`.
    pub constraint: String,
}

impl ConstraintViolation {
    /// `Member must have length greater than or equal to {min}`.
    pub fn min_length(field: &str, value: &str, min: usize) -> Self {
        Self::new(
            field,
            Some(value),
            format!("Member must have length greater than or equal to {min}"),
        )
    }

    /// `Member must have length less than or equal to {max}`.
    pub fn max_length(field: &str, value: &str, max: usize) -> Self {
        Self::new(
            field,
            Some(value),
            format!("Member must have length less than or equal to {max}"),
        )
    }

    /// `Member must satisfy regular expression pattern: {pattern}`.
    pub fn pattern(field: &str, value: &str, pattern: &str) -> Self {
        Self::new(
            field,
            Some(value),
            format!("Member must satisfy regular expression pattern: {pattern}"),
        )
    }

    /// `Member must satisfy enum value set: [A, B]`, e.g. for a ScalarAttributeType of `X`.
    pub fn enum_value_set(field: &str, value: &str, allowed: &[&str]) -> Self {
        Self::new(
            field,
            Some(value),
            format!("Member must satisfy enum value set: [{}]", allowed.join(", ")),
        )
    }

    /// `Value null at '{field}' failed to satisfy constraint: Member must not be null`.
    pub fn not_null(field: &str) -> Self {
        Self::new(field, None, "Member must not be null".to_owned())
    }

    fn new(field: &str, value: Option<&str>, constraint: String) -> Self {
        Self {
            field: field.to_owned(),
            value: value.map(str::to_owned),
            constraint,
        }
    }
}

impl fmt::Display for ConstraintViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(value) => write!(
                f,
                "Value '{value}' at '{}' failed to satisfy constraint: ",
                self.field
            )?,
            None => write!(f, "Value null at '{}' failed to satisfy constraint: ", self.field)?,
        }
        f.write_str(&self.constraint)
    }
}

/// `1 validation error detected: a` / `2 validation errors detected: a; b` (rules B.8, B.10).
fn render_envelope(violations: &[ConstraintViolation]) -> String {
    let count = violations.len();
    let noun = if count == 1 { "error" } else { "errors" };
    let details: Vec<String> = violations.iter().map(ToString::to_string).collect();
    format!("{count} validation {noun} detected: {}", details.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_counts_and_joins_violations() {
        let one = ValidationError::Constraints(vec![ConstraintViolation::min_length("tableName", "ab", 3)]);
        assert_eq!(
            one.message(),
            "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: \
             Member must have length greater than or equal to 3"
        );
        let two = ValidationError::Constraints(vec![
            ConstraintViolation::pattern("tableName", "a!", "[a-zA-Z0-9_.-]+"),
            ConstraintViolation::not_null("keySchema"),
        ]);
        assert_eq!(
            two.message(),
            "2 validation errors detected: Value 'a!' at 'tableName' failed to satisfy constraint: \
             Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; \
             Value null at 'keySchema' failed to satisfy constraint: Member must not be null"
        );
    }

    #[test]
    fn key_messages_follow_the_service() {
        let empty = ValidationError::EmptyKey {
            name: "pk".into(),
            ty: ScalarAttributeType::B,
        };
        assert_eq!(
            empty.message(),
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
             contain an empty binary value. Key: pk"
        );
        let mismatch = ValidationError::KeyTypeMismatch {
            name: "pk".into(),
            expected: ScalarAttributeType::S,
            actual: AttributeType::N,
        };
        assert_eq!(
            mismatch.message(),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"
        );
        assert_eq!(
            ValidationError::EmptySet(SetKind::String).message(),
            "One or more parameter values were invalid: An string set  may not be empty"
        );
        assert_eq!(
            ValidationError::PartitionKeyTooLarge.message(),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"
        );
        let enum_error = ConstraintViolation::enum_value_set("attributeType", "X", &["B", "N", "S"]);
        assert_eq!(
            enum_error.to_string(),
            "Value 'X' at 'attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"
        );
    }

    #[test]
    fn only_number_errors_are_number_errors() {
        assert!(ValidationError::InvalidNumber("x".into()).is_number_error());
        assert!(ValidationError::NumberUnderflow.is_number_error());
        assert!(!ValidationError::MultipleDatatypes.is_number_error());
        assert!(!ValidationError::EmptySet(SetKind::Number).is_number_error());
    }
}
