//! `Set<T>`: the elements of an SS, NS or BS attribute.
//!
//! Rule B.7 (docs/dynamodb-rules.md): sets may not be empty and hold no duplicates; numbers compare
//! numerically, so `["1", "1.0"]` is a duplicate. A `Set` can only be built through
//! [`Set::new`], which enforces both rules with the service's messages (rule B.10), so every
//! `Set` in the program is valid and set-typed attributes never need re-validating.
//!
//! Elements are kept sorted in DynamoDB's order (rule B.9: strings by UTF-8 bytes, binaries by
//! unsigned bytes, numbers numerically). The service returns set elements in no documented
//! order; DynoTable always returns them in this one, which also makes set equality (used by
//! `=` in condition expressions) order-independent.

use std::fmt;

use base64::Engine as _;

use crate::error::{SetKind, ValidationError};
use crate::number::Number;
use crate::size::number_size;

/// A non-empty, duplicate-free, sorted set of strings, numbers or binaries.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Set<T>(Vec<T>);

/// The elements of an SS attribute.
pub type StringSet = Set<String>;
/// The elements of an NS attribute.
pub type NumberSet = Set<Number>;
/// The elements of a BS attribute.
pub type BinarySet = Set<Vec<u8>>;

/// The three element types a set can hold: `String`, [`Number`] and `Vec<u8>`.
pub trait SetElement: Ord + Clone + sealed::Sealed {
    /// Which set this element makes (for the empty-set message).
    const KIND: SetKind;

    /// The element as the duplicate message lists it (binary as base64).
    fn render(&self) -> String;

    /// The element's size by rule B.1.
    fn size(&self) -> usize;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for String {}
    impl Sealed for crate::number::Number {}
    impl Sealed for Vec<u8> {}
}

impl SetElement for String {
    const KIND: SetKind = SetKind::String;

    fn render(&self) -> String {
        self.clone()
    }

    fn size(&self) -> usize {
        self.len()
    }
}

impl SetElement for Number {
    const KIND: SetKind = SetKind::Number;

    fn render(&self) -> String {
        self.to_string()
    }

    fn size(&self) -> usize {
        number_size(self)
    }
}

impl SetElement for Vec<u8> {
    const KIND: SetKind = SetKind::Binary;

    fn render(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(self)
    }

    fn size(&self) -> usize {
        self.len()
    }
}

impl<T: SetElement> Set<T> {
    /// Builds a set from elements in any order.
    ///
    /// # Errors
    ///
    /// [`ValidationError::EmptySet`] for no elements; [`ValidationError::DuplicateSetElements`]
    /// if two elements are equal. The duplicate message lists the elements in sorted order and
    /// numbers in canonical form (the service echoes the request's spelling and order).
    pub fn new(elements: Vec<T>) -> Result<Self, ValidationError> {
        let mut elements = elements;
        if elements.is_empty() {
            return Err(ValidationError::EmptySet(T::KIND));
        }
        elements.sort_unstable();
        if elements.windows(2).any(|pair| pair[0] == pair[1]) {
            let rendered: Vec<String> = elements.iter().map(SetElement::render).collect();
            return Err(ValidationError::DuplicateSetElements {
                kind: T::KIND,
                elements: format!("[{}]", rendered.join(", ")),
            });
        }
        Ok(Set(elements))
    }

    /// A set of one element.
    pub fn single(element: T) -> Self {
        Set(vec![element])
    }

    /// The number of elements (at least 1).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Always `false`: a set has at least one element. Present for API symmetry with `Vec`.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The elements in DynamoDB order.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }

    /// The elements in DynamoDB order.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The elements in DynamoDB order.
    pub fn into_vec(self) -> Vec<T> {
        self.0
    }

    /// Whether `element` is in the set (`contains(ss, :v)` in expressions).
    pub fn contains(&self, element: &T) -> bool {
        self.0.binary_search(element).is_ok()
    }

    /// The union, as `ADD set :s` computes it.
    #[must_use]
    pub fn union(&self, other: &Set<T>) -> Set<T> {
        let (mut a, mut b) = (self.0.iter().peekable(), other.0.iter().peekable());
        let mut merged = Vec::with_capacity(self.len() + other.len());
        while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
            match x.cmp(y) {
                std::cmp::Ordering::Less => merged.extend(a.next().cloned()),
                std::cmp::Ordering::Greater => merged.extend(b.next().cloned()),
                std::cmp::Ordering::Equal => {
                    merged.extend(a.next().cloned());
                    b.next();
                }
            }
        }
        merged.extend(a.cloned());
        merged.extend(b.cloned());
        Set(merged)
    }

    /// The elements of `self` not in `other`, as `DELETE set :s` computes it; `None` when nothing
    /// is left (the service then removes the attribute, as a set cannot be empty).
    pub fn difference(&self, other: &Set<T>) -> Option<Set<T>> {
        let rest: Vec<T> = self
            .0
            .iter()
            .filter(|element| !other.contains(element))
            .cloned()
            .collect();
        (!rest.is_empty()).then_some(Set(rest))
    }
}

impl<T: fmt::Debug> fmt::Debug for Set<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.0).finish()
    }
}

impl<'a, T> IntoIterator for &'a Set<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: SetElement> TryFrom<Vec<T>> for Set<T> {
    type Error = ValidationError;

    fn try_from(elements: Vec<T>) -> Result<Self, Self::Error> {
        Set::new(elements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    fn numbers(items: &[&str]) -> Vec<Number> {
        items.iter().map(|s| Number::parse(s).expect("number")).collect()
    }

    #[test]
    fn refuses_empty_sets_with_the_kind_named() {
        assert_eq!(
            StringSet::new(vec![]),
            Err(ValidationError::EmptySet(SetKind::String))
        );
        assert_eq!(
            NumberSet::new(vec![]).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: An number set  may not be empty".to_owned())
        );
        assert_eq!(
            BinarySet::new(vec![]),
            Err(ValidationError::EmptySet(SetKind::Binary))
        );
        assert_eq!(
            BinarySet::new(vec![]).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: Binary sets should not be empty".to_owned())
        );
    }

    #[test]
    fn refuses_duplicates_numbers_compared_numerically() {
        assert_eq!(
            StringSet::new(strings(&["a", "a"])).map_err(|e| e.message()),
            Err(
                "One or more parameter values were invalid: Input collection [a, a] contains duplicates."
                    .to_owned()
            )
        );
        // Rule B.10: a number set names no element; a binary set says `of type BS`.
        assert_eq!(
            NumberSet::new(numbers(&["1", "1.0"])).map_err(|e| e.message()),
            Err(
                "One or more parameter values were invalid: Input collection contains duplicates.".to_owned()
            )
        );
        assert_eq!(
            BinarySet::new(vec![vec![1], vec![2], vec![1]]).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: Input collection [AQ==, AQ==, Ag==]of type BS contains duplicates.".to_owned())
        );
        // Near misses are not duplicates.
        assert!(NumberSet::new(numbers(&["1", "1.0000000000000000000000000000000000001"])).is_ok());
        assert!(StringSet::new(strings(&["a", "A", "a\0"])).is_ok());
    }

    #[test]
    fn keeps_dynamodb_order() {
        let set = StringSet::new(strings(&["z", "¿", "a", "A"])).expect("valid");
        assert_eq!(set.as_slice(), strings(&["A", "a", "z", "¿"]).as_slice());
        let set = NumberSet::new(numbers(&["10", "-1", "9", "1E-5"])).expect("valid");
        assert_eq!(set.as_slice(), numbers(&["-1", "0.00001", "9", "10"]).as_slice());
        let set = BinarySet::new(vec![vec![0xff], vec![0x00, 0x01], vec![0x7f]]).expect("valid");
        assert_eq!(set.into_vec(), vec![vec![0x00, 0x01], vec![0x7f], vec![0xff]]);
        // Equality does not depend on the order elements arrived in.
        assert_eq!(
            StringSet::new(strings(&["b", "a"])),
            StringSet::new(strings(&["a", "b"]))
        );
    }

    #[test]
    fn computes_union_difference_and_membership() {
        let a = NumberSet::new(numbers(&["1", "2", "3"])).expect("valid");
        let b = NumberSet::new(numbers(&["3.0", "4"])).expect("valid");
        assert_eq!(a.union(&b).as_slice(), numbers(&["1", "2", "3", "4"]).as_slice());
        assert_eq!(a.difference(&b).map(Set::into_vec), Some(numbers(&["1", "2"])));
        assert_eq!(b.difference(&a.union(&b)), None);
        assert!(a.contains(&Number::from(2)) && !a.contains(&Number::from(5)));
        assert_eq!(Set::single(Number::from(7)).len(), 1);
        assert!(!a.is_empty());
        assert_eq!((&a).into_iter().count(), 3);
        assert_eq!(format!("{:?}", StringSet::single("x".to_owned())), "{\"x\"}");
    }
}
