//! The value rules the types cannot carry by themselves.
//!
//! Most of rule B.7 (docs/dynamodb-rules.md) is enforced by construction: a [`crate::Number`] is
//! always in range with at most 38 digits, a [`crate::Set`] is never empty and never holds a
//! duplicate, and `NULL` has no `false`. What is left:
//!
//! - **Nesting** (rule B.1: "at most 32 levels"). The attribute itself is level 1, each `M` or `L`
//!   around a value adds one: an attribute wrapped 31 times (leaf at level 32) is accepted, 32
//!   times is refused (live-service capture, eu-west-2, recorded by a public conformance suite).
//!   The same limit applies to ExpressionAttributeValues.
//! - **Attribute names** of an item (rule B.8): at least 1 byte, under 64 KB.
//! - **Item size** (rule B.7): at most 400 KB including names; which message applies depends on
//!   the operation, so the engine picks it.

use crate::error::ValidationError;
use crate::naming::validate_attribute_name;
use crate::size::{MAX_ITEM_SIZE, item_size};
use crate::value::{AttributeValue, Item};

/// The deepest a value may nest, counting the attribute itself as level 1 (rule B.1).
pub const MAX_NESTING_LEVELS: usize = 32;

impl AttributeValue {
    /// Checks the rules the type cannot carry: today, the 32-level nesting limit.
    ///
    /// # Errors
    ///
    /// [`ValidationError::NestingTooDeep`].
    pub fn validate(&self) -> Result<(), ValidationError> {
        if fits_depth(self, MAX_NESTING_LEVELS) {
            Ok(())
        } else {
            Err(ValidationError::NestingTooDeep)
        }
    }

    /// How many levels this value spans: 1 for a scalar or a set, 1 + the deepest element for a
    /// document (an empty `M` or `L` is 1).
    pub fn nesting_levels(&self) -> usize {
        match self {
            AttributeValue::M(map) => {
                1 + map
                    .values()
                    .map(AttributeValue::nesting_levels)
                    .max()
                    .unwrap_or(0)
            }
            AttributeValue::L(list) => 1 + list.iter().map(AttributeValue::nesting_levels).max().unwrap_or(0),
            _ => 1,
        }
    }
}

/// Whether `value` spans at most `levels` levels; never descends further than that.
fn fits_depth(value: &AttributeValue, levels: usize) -> bool {
    if levels == 0 {
        return false;
    }
    match value {
        AttributeValue::M(map) => map.values().all(|v| fits_depth(v, levels - 1)),
        AttributeValue::L(list) => list.iter().all(|v| fits_depth(v, levels - 1)),
        _ => true,
    }
}

/// Checks every attribute of an item: its name (rule B.8) and its value's nesting (rule B.1).
/// Does not check key attributes (see [`crate::key`]) or the size (see [`check_item_size`]).
///
/// # Errors
///
/// The first failure in name order: [`ValidationError::EmptyAttributeName`],
/// [`ValidationError::AttributeNameTooLong`] or [`ValidationError::NestingTooDeep`].
pub fn validate_item(item: &Item) -> Result<(), ValidationError> {
    item.iter().try_for_each(|(name, value)| {
        validate_attribute_name(name)?;
        value.validate()
    })
}

/// Which write is checking an item's size: the service words the refusal differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeCheck {
    /// PutItem, BatchWriteItem, TransactWriteItems `Put`: `Item size has exceeded ...`.
    Write,
    /// UpdateItem and TransactWriteItems `Update`: `Item size to update has exceeded ...`.
    Update,
}

/// Checks the 400 KB item limit (rule B.7) and returns the item's size (rule B.1).
///
/// # Errors
///
/// [`ValidationError::ItemTooLarge`] or [`ValidationError::UpdatedItemTooLarge`].
pub fn check_item_size(item: &Item, check: SizeCheck) -> Result<usize, ValidationError> {
    check_size(item_size(item), check)
}

/// Checks `size` bytes against the 400 KB item limit (rule B.7) and returns it: an item's
/// size, or on a table with local secondary indexes the item's and its LSI entries' together.
///
/// # Errors
///
/// [`ValidationError::ItemTooLarge`] or [`ValidationError::UpdatedItemTooLarge`].
pub fn check_size(size: usize, check: SizeCheck) -> Result<usize, ValidationError> {
    if size <= MAX_ITEM_SIZE {
        return Ok(size);
    }
    Err(match check {
        SizeCheck::Write => ValidationError::ItemTooLarge,
        SizeCheck::Update => ValidationError::UpdatedItemTooLarge,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::AttributeMap;

    /// A leaf wrapped in `wraps` single-entry maps (leaf at level `wraps + 1`).
    fn deep_map(wraps: usize) -> AttributeValue {
        (0..wraps).fold(AttributeValue::from("leaf"), |inner, _| {
            AttributeValue::M([("n".to_owned(), inner)].into_iter().collect())
        })
    }

    fn deep_list(wraps: usize) -> AttributeValue {
        (0..wraps).fold(AttributeValue::NULL, |inner, _| AttributeValue::L(vec![inner]))
    }

    #[test]
    fn accepts_32_levels_and_refuses_33() {
        assert_eq!(deep_map(31).nesting_levels(), 32);
        assert_eq!(deep_map(31).validate(), Ok(()));
        assert_eq!(deep_map(32).validate(), Err(ValidationError::NestingTooDeep));
        assert_eq!(deep_list(31).validate(), Ok(()));
        assert_eq!(deep_list(32).validate(), Err(ValidationError::NestingTooDeep));
        // Empty documents are one level, like scalars; the limit is the deepest branch.
        assert_eq!(AttributeValue::L(vec![]).nesting_levels(), 1);
        let mixed = AttributeValue::L(vec![AttributeValue::NULL, deep_map(31)]);
        assert_eq!(mixed.nesting_levels(), 33);
        assert_eq!(mixed.validate(), Err(ValidationError::NestingTooDeep));
    }

    #[test]
    fn validates_names_and_values_of_an_item() {
        let mut item: Item = [("ok".to_owned(), deep_map(31))].into_iter().collect();
        assert_eq!(validate_item(&item), Ok(()));
        item.insert("deep".to_owned(), deep_list(40));
        assert_eq!(validate_item(&item), Err(ValidationError::NestingTooDeep));
        let unnamed: Item = [(String::new(), AttributeValue::NULL)].into_iter().collect();
        assert_eq!(validate_item(&unnamed), Err(ValidationError::EmptyAttributeName));
    }

    #[test]
    fn checks_the_400_kb_limit_with_the_operation_wording() {
        // Name "d" (1 byte) + a string filling the rest exactly.
        let mut item: Item = AttributeMap::new();
        item.insert("d".to_owned(), AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 1)));
        assert_eq!(check_item_size(&item, SizeCheck::Write), Ok(MAX_ITEM_SIZE));
        item.insert("e".to_owned(), AttributeValue::BOOL(true));
        assert_eq!(
            check_item_size(&item, SizeCheck::Write),
            Err(ValidationError::ItemTooLarge)
        );
        assert_eq!(
            check_item_size(&item, SizeCheck::Update).map_err(|e| e.message()),
            Err("Item size to update has exceeded the maximum allowed size".to_owned())
        );
    }
}
