//! Item and value sizes, exactly as DynamoDB counts them for the 400 KB limit and for capacity.
//!
//! Rule B.1 (docs/dynamodb-rules.md; AWS `CapacityUnitCalculations.html`). All sizes are bytes, and
//! 1 KB = 1,024 bytes. An item's size is, over its top-level attributes, the UTF-8 length of the
//! name plus the size of the value:
//!
//! | Type | Size |
//! |---|---|
//! | S | UTF-8 bytes |
//! | N | see [`number_size`] (empirical) |
//! | B | raw bytes (not the base64 text) |
//! | BOOL, NULL | 1 |
//! | L | 3 + Σ (1 + element size) |
//! | M | 3 + Σ (1 + UTF-8 bytes of the key + value size) |
//! | SS, NS, BS | Σ element sizes, no overhead (not specified by AWS; DYX and the zaccharles calculator) |
//!
//! Worked example from the AWS guide: `shirt-color`=`R`, `shirt-size`=`M` is 11 + 1 + 10 + 1 = 23.

use crate::number::Number;
use crate::set::SetElement;
use crate::value::{AttributeValue, Item};

/// The largest item DynamoDB stores: 400 KB, attribute names included (rule B.7).
pub const MAX_ITEM_SIZE: usize = 400 * 1024;

/// Rule B.1: the fixed overhead of an `L` or `M` (an empty one is 3 bytes).
const DOCUMENT_OVERHEAD: usize = 3;
/// Rule B.1: each element of an `L` or entry of an `M` adds one byte.
const PER_ELEMENT_OVERHEAD: usize = 1;

/// The size of a number (rule B.1, **empirical**: AWS says only "approximately 1 byte per two
/// significant digits, plus 1 byte").
///
/// DynamoDB stores a number like a base-100 float: one byte of exponent and one byte per pair of
/// decimal digits, the pairs aligned on the decimal point, leading and trailing all-zero pairs
/// dropped; a negative number takes one more byte, up to a maximum of 21 bytes; zero takes 1.
/// This is DYX's measured formula — ceil(integer digits / 2) + ceil(fraction digits / 2) + 1, +1
/// if negative — read with the digit counts taken pair-aligned, which is how the zaccharles
/// calculator counts and how it caps at 21. Scientific notation does not change the size.
///
/// Examples from the rules file: `1`→2, `12`→2, `123`→3, `1.5`→3, `100.5`→4, `0.15`→2, `-42`→3,
/// `1E125`→2, `0`→1.
pub fn number_size(number: &Number) -> usize {
    let Some(top) = number.scientific_exponent() else {
        return 1;
    };
    // Decimal positions of the highest and lowest non-zero digits (10^p), then their pairs.
    let low = number.exponent();
    let pairs = (top.div_euclid(2) - low.div_euclid(2) + 1) as usize;
    let sign = usize::from(number.is_negative());
    (1 + pairs + sign).min(21)
}

/// The size of an attribute value (rule B.1), not counting the attribute's own name.
pub fn value_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.len(),
        AttributeValue::BOOL(_) | AttributeValue::NULL => 1,
        AttributeValue::L(list) => {
            DOCUMENT_OVERHEAD
                + list
                    .iter()
                    .map(|v| PER_ELEMENT_OVERHEAD + value_size(v))
                    .sum::<usize>()
        }
        AttributeValue::M(map) => {
            DOCUMENT_OVERHEAD
                + map
                    .iter()
                    .map(|(k, v)| PER_ELEMENT_OVERHEAD + k.len() + value_size(v))
                    .sum::<usize>()
        }
        AttributeValue::SS(set) => set.iter().map(SetElement::size).sum(),
        AttributeValue::NS(set) => set.iter().map(SetElement::size).sum(),
        AttributeValue::BS(set) => set.iter().map(SetElement::size).sum(),
    }
}

/// The size of one top-level attribute: its name's UTF-8 bytes plus its value (rule B.1).
pub fn attribute_size(name: &str, value: &AttributeValue) -> usize {
    name.len() + value_size(value)
}

/// The size of an item (rule B.1): the sum of its attribute sizes.
pub fn item_size(item: &Item) -> usize {
    item.iter().map(|(name, value)| attribute_size(name, value)).sum()
}

impl AttributeValue {
    /// This value's size by rule B.1; see [`value_size`].
    pub fn size(&self) -> usize {
        value_size(self)
    }
}

impl Number {
    /// This number's size by rule B.1 (empirical); see [`number_size`].
    pub fn size(&self) -> usize {
        number_size(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::set::Set;
    use crate::value::AttributeMap;

    fn n(text: &str) -> Number {
        Number::parse(text).expect("number")
    }

    #[test]
    fn number_sizes_from_the_rules_file() {
        for (text, size) in [
            ("1", 2),
            ("12", 2),
            ("123", 3),
            ("1.5", 3),
            ("100.5", 4),
            ("0.15", 2),
            ("-42", 3),
            ("1E125", 2),
            ("0", 1),
        ] {
            assert_eq!(number_size(&n(text)), size, "{text}");
        }
    }

    #[test]
    fn number_size_ignores_spelling_and_counts_aligned_pairs() {
        assert_eq!(number_size(&n("1.25E2")), number_size(&n("125")));
        assert_eq!(number_size(&n("-0")), 1);
        // Pairs are aligned on the decimal point: 0.015 is .01|50 (two pairs), 0.0015 is .00|15.
        assert_eq!(number_size(&n("0.015")), 3);
        assert_eq!(number_size(&n("0.0015")), 2);
        // Interior zero pairs count; outer ones do not.
        assert_eq!(number_size(&n("1000001")), 5);
        assert_eq!(number_size(&n("1000000")), 2);
        // 38 digits spanning 20 pairs, and the 21-byte cap for the negative.
        let wide = format!("1{}.1", "2".repeat(36));
        assert_eq!(number_size(&n(&wide)), 21);
        assert_eq!(number_size(&n(&format!("-{wide}"))), 21);
        assert_eq!(number_size(&n(&"9".repeat(38))), 20);
        assert_eq!(number_size(&n(&format!("-{}", "9".repeat(38)))), 21);
        assert_eq!(n("-1E-130").size(), 3);
    }

    #[test]
    fn shirt_example_is_23_bytes() {
        let item: Item = [("shirt-color", "R"), ("shirt-size", "M")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), AttributeValue::from(v)))
            .collect();
        assert_eq!(item_size(&item), 23);
    }

    #[test]
    fn scalar_sizes() {
        assert_eq!(AttributeValue::from("héllo").size(), 6);
        assert_eq!(AttributeValue::from("").size(), 0);
        assert_eq!(AttributeValue::B(vec![0; 10]).size(), 10);
        assert_eq!(AttributeValue::BOOL(true).size(), 1);
        assert_eq!(AttributeValue::NULL.size(), 1);
    }

    #[test]
    fn documents_cost_three_bytes_plus_one_per_element() {
        assert_eq!(AttributeValue::L(vec![]).size(), 3);
        assert_eq!(AttributeValue::M(AttributeMap::new()).size(), 3);
        let list = AttributeValue::L(vec![AttributeValue::from("ab"), AttributeValue::NULL]);
        assert_eq!(list.size(), 3 + (1 + 2) + (1 + 1));
        let map: AttributeMap = [
            ("key".to_owned(), AttributeValue::from("value")),
            ("n".to_owned(), list.clone()),
        ]
        .into_iter()
        .collect();
        let map = AttributeValue::M(map);
        assert_eq!(map.size(), 3 + (1 + 3 + 5) + (1 + 1 + 8));
        let item: Item = [("doc".to_owned(), map)].into_iter().collect();
        assert_eq!(item_size(&item), 3 + 22);
        assert_eq!(attribute_size("doc", &list), 3 + 8);
    }

    #[test]
    fn sets_are_the_sum_of_their_elements() {
        let ss = Set::new(vec!["ab".to_owned(), "cde".to_owned()]).expect("valid");
        assert_eq!(AttributeValue::SS(ss).size(), 5);
        let ns = Set::new(vec![n("1"), n("-42"), n("100.5")]).expect("valid");
        assert_eq!(AttributeValue::NS(ns).size(), 2 + 3 + 4);
        let bs = Set::new(vec![vec![1, 2], vec![3]]).expect("valid");
        assert_eq!(AttributeValue::BS(bs).size(), 3);
    }
}
