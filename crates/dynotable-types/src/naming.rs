//! Naming rules for tables, indexes and attributes.
//!
//! Rule B.8 (docs/dynamodb-rules.md; DG-2023 `ServiceQuotas.md` §Naming rules):
//! - all names are UTF-8 and case-sensitive;
//! - table and index names: 3–255 characters from `A-Z a-z 0-9 _ - .` (API pattern
//!   `[a-zA-Z0-9_.-]+`); refused in the request-member envelope, pattern before length:
//!   `1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint:
//!   Member must have length greater than or equal to 3`;
//! - attribute names: at least 1 byte and under 64 KB, except the names of secondary-index key
//!   attributes and of INCLUDE-projected attributes, which are limited to 255 bytes.
//!
//! Operations that take a table name now also accept a table ARN in the same member; telling the
//! two apart is the caller's business — these functions check names only.

use crate::error::{ConstraintViolation, ValidationError};

/// The API pattern for table and index names.
pub const TABLE_NAME_PATTERN: &str = "[a-zA-Z0-9_.-]+";
/// Shortest table or index name.
pub const MIN_TABLE_NAME_LENGTH: usize = 3;
/// Longest table or index name.
pub const MAX_TABLE_NAME_LENGTH: usize = 255;
/// Longest attribute name, in UTF-8 bytes ("under 64 KB").
pub const MAX_ATTRIBUTE_NAME_BYTES: usize = 64 * 1024 - 1;
/// Longest name of a secondary-index key attribute or an INCLUDE-projected attribute, in bytes.
pub const MAX_INDEX_ATTRIBUTE_NAME_BYTES: usize = 255;

/// The constraints a table or index name breaks, in the service's order (pattern, then length).
/// `field` is the member path the message names, e.g. `tableName` or
/// `globalSecondaryIndexes.1.member.indexName`. Empty when the name is valid.
pub fn table_name_violations(field: &str, name: &str) -> Vec<ConstraintViolation> {
    let mut violations = Vec::new();
    let legal = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.is_empty() || !name.chars().all(legal) {
        violations.push(ConstraintViolation::pattern(field, name, TABLE_NAME_PATTERN));
    }
    let length = name.chars().count();
    if length < MIN_TABLE_NAME_LENGTH {
        violations.push(ConstraintViolation::min_length(
            field,
            name,
            MIN_TABLE_NAME_LENGTH,
        ));
    } else if length > MAX_TABLE_NAME_LENGTH {
        violations.push(ConstraintViolation::max_length(
            field,
            name,
            MAX_TABLE_NAME_LENGTH,
        ));
    }
    violations
}

/// Checks a table name (rule B.8).
///
/// # Errors
///
/// [`ValidationError::Constraints`] holding [`table_name_violations`].
pub fn validate_table_name(field: &str, name: &str) -> Result<(), ValidationError> {
    into_result(table_name_violations(field, name))
}

/// Checks an index name: the same rules as a table name (rule B.8).
///
/// # Errors
///
/// [`ValidationError::Constraints`] holding [`table_name_violations`].
pub fn validate_index_name(field: &str, name: &str) -> Result<(), ValidationError> {
    into_result(table_name_violations(field, name))
}

/// The constraints broken by the name of an attribute in a key schema, an index key or an
/// INCLUDE projection: 1–255 bytes (rule B.8), in the request-member envelope.
pub fn index_attribute_name_violations(field: &str, name: &str) -> Vec<ConstraintViolation> {
    if name.is_empty() {
        vec![ConstraintViolation::min_length(field, name, 1)]
    } else if name.len() > MAX_INDEX_ATTRIBUTE_NAME_BYTES {
        vec![ConstraintViolation::max_length(
            field,
            name,
            MAX_INDEX_ATTRIBUTE_NAME_BYTES,
        )]
    } else {
        Vec::new()
    }
}

/// Checks the name of an attribute in an item: 1 byte up to just under 64 KB (rule B.8).
///
/// # Errors
///
/// [`ValidationError::EmptyAttributeName`] or [`ValidationError::AttributeNameTooLong`] (both
/// wordings unverified against the live service).
pub fn validate_attribute_name(name: &str) -> Result<(), ValidationError> {
    if name.is_empty() {
        Err(ValidationError::EmptyAttributeName)
    } else if name.len() > MAX_ATTRIBUTE_NAME_BYTES {
        Err(ValidationError::AttributeNameTooLong)
    } else {
        Ok(())
    }
}

fn into_result(violations: Vec<ConstraintViolation>) -> Result<(), ValidationError> {
    if violations.is_empty() {
        Ok(())
    } else {
        Err(ValidationError::Constraints(violations))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_from_the_rules_file() {
        assert_eq!(
            validate_table_name("tableName", "ab").map_err(|e| e.message()),
            Err(
                "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: \
                 Member must have length greater than or equal to 3"
                    .to_owned()
            )
        );
        let long = "a".repeat(256);
        assert_eq!(
            validate_table_name("tableName", &long).map_err(|e| e.message()),
            Err(format!(
                "1 validation error detected: Value '{long}' at 'tableName' failed to satisfy constraint: \
                 Member must have length less than or equal to 255"
            ))
        );
        assert_eq!(
            validate_table_name("tableName", "my table").map_err(|e| e.message()),
            Err(
                "1 validation error detected: Value 'my table' at 'tableName' failed to satisfy constraint: \
                 Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
                    .to_owned()
            )
        );
    }

    #[test]
    fn reports_pattern_before_length() {
        assert_eq!(
            validate_table_name("tableName", "a;").map_err(|e| e.message()),
            Err("2 validation errors detected: \
                 Value 'a;' at 'tableName' failed to satisfy constraint: \
                 Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; \
                 Value 'a;' at 'tableName' failed to satisfy constraint: \
                 Member must have length greater than or equal to 3"
                .to_owned())
        );
        assert_eq!(table_name_violations("tableName", "").len(), 2);
    }

    #[test]
    fn accepts_every_legal_character_at_the_bounds() {
        for name in [
            "abc",
            "A.b-c_9",
            "Telemetry",
            "ByDepot",
            "___",
            "...",
            &"x".repeat(255),
        ] {
            assert_eq!(validate_table_name("tableName", name), Ok(()), "{name}");
            assert_eq!(validate_index_name("indexName", name), Ok(()), "{name}");
        }
        for bad in ["abé", "a/b", "a:b", "tab\tle", "ab#"] {
            assert!(validate_index_name("indexName", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn attribute_name_lengths() {
        assert_eq!(validate_attribute_name("a"), Ok(()));
        assert_eq!(
            validate_attribute_name(""),
            Err(ValidationError::EmptyAttributeName)
        );
        assert_eq!(validate_attribute_name(&"a".repeat(65_535)), Ok(()));
        assert_eq!(
            validate_attribute_name(&"a".repeat(65_536)),
            Err(ValidationError::AttributeNameTooLong)
        );
        assert!(index_attribute_name_violations("f", &"é".repeat(127)).is_empty()); // 254 bytes
        assert_eq!(
            index_attribute_name_violations("keySchema.1.member.attributeName", &"é".repeat(128))[0]
                .constraint,
            "Member must have length less than or equal to 255"
        );
        assert_eq!(
            index_attribute_name_violations("f", "")[0].constraint,
            "Member must have length greater than or equal to 1"
        );
    }
}
