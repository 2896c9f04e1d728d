//! `AttributeValue`: the ten DynamoDB data types, and `Item`.
//!
//! DynamoDB API reference `API_AttributeValue.html`; rules B.1, B.7, B.9 (docs/dynamodb-rules.md).
//!
//! Variant names are the wire's type descriptors (`S`, `N`, `B`, `BOOL`, `NULL`, `M`, `L`, `SS`,
//! `NS`, `BS`), so `AttributeValue::BOOL(true)` reads like `{"BOOL": true}`.
//!
//! What the types guarantee, so nobody re-checks it:
//! - an `N` is a valid [`Number`] (38 digits, in range, normalised) — rules B.7, B.9;
//! - an `SS`/`NS`/`BS` is a valid [`Set`] (non-empty, no duplicates) — rule B.7;
//! - `NULL` carries no flag: `{"NULL": false}` is refused when the value is read (rule B.10).
//!
//! What they do not guarantee, and [`AttributeValue::validate`] checks: the 32-level nesting
//! limit (rule B.1). Item-level limits (400 KB, key attributes) belong to the engine, helped by
//! [`crate::size`] and [`crate::key`].
//!
//! # Map order
//!
//! `M` and [`Item`] are `BTreeMap`s: names in UTF-8 byte order. DynamoDB returns map entries in
//! no documented order; a fixed order makes output, tests and hashing deterministic, and costs
//! nothing that matters at DynamoDB's sizes.

use std::collections::BTreeMap;
use std::fmt;

use crate::number::Number;
use crate::set::Set;

/// A map attribute's entries, and the shape of an item: attribute name → value.
pub type AttributeMap = BTreeMap<String, AttributeValue>;

/// An item: its top-level attributes by name (names in UTF-8 byte order; see the module docs).
pub type Item = AttributeMap;

/// One DynamoDB attribute value. Serialises to and from DynamoDB JSON (see [`crate::wire`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AttributeValue {
    /// String: any UTF-8 text, possibly empty outside keys.
    S(String),
    /// Number: an exact decimal.
    N(Number),
    /// Binary: raw bytes (base64 only on the wire).
    B(Vec<u8>),
    /// Boolean.
    BOOL(bool),
    /// Null (always `{"NULL": true}` on the wire).
    NULL,
    /// Map: a document of named values.
    M(AttributeMap),
    /// List: an ordered document of values of any types.
    L(Vec<AttributeValue>),
    /// String set.
    SS(Set<String>),
    /// Number set.
    NS(Set<Number>),
    /// Binary set.
    BS(Set<Vec<u8>>),
}

/// The ten type descriptors, as they appear on the wire and in messages (`actual: NULL`) and as
/// `attribute_type(path, :t)` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttributeType {
    /// String
    S,
    /// Number
    N,
    /// Binary
    B,
    /// Boolean
    BOOL,
    /// Null
    NULL,
    /// Map
    M,
    /// List
    L,
    /// String set
    SS,
    /// Number set
    NS,
    /// Binary set
    BS,
}

impl AttributeType {
    /// All ten, in the order the API reference lists them.
    pub const ALL: [AttributeType; 10] = [
        AttributeType::S,
        AttributeType::N,
        AttributeType::B,
        AttributeType::SS,
        AttributeType::NS,
        AttributeType::BS,
        AttributeType::M,
        AttributeType::L,
        AttributeType::NULL,
        AttributeType::BOOL,
    ];

    /// The descriptor: `"S"`, `"BOOL"`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeType::S => "S",
            AttributeType::N => "N",
            AttributeType::B => "B",
            AttributeType::BOOL => "BOOL",
            AttributeType::NULL => "NULL",
            AttributeType::M => "M",
            AttributeType::L => "L",
            AttributeType::SS => "SS",
            AttributeType::NS => "NS",
            AttributeType::BS => "BS",
        }
    }

    /// The type named by a descriptor (case-sensitive, as the service reads it).
    pub fn from_descriptor(descriptor: &str) -> Option<AttributeType> {
        AttributeType::ALL.into_iter().find(|t| t.as_str() == descriptor)
    }
}

impl fmt::Display for AttributeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl AttributeValue {
    /// This value's type descriptor.
    pub fn attribute_type(&self) -> AttributeType {
        match self {
            AttributeValue::S(_) => AttributeType::S,
            AttributeValue::N(_) => AttributeType::N,
            AttributeValue::B(_) => AttributeType::B,
            AttributeValue::BOOL(_) => AttributeType::BOOL,
            AttributeValue::NULL => AttributeType::NULL,
            AttributeValue::M(_) => AttributeType::M,
            AttributeValue::L(_) => AttributeType::L,
            AttributeValue::SS(_) => AttributeType::SS,
            AttributeValue::NS(_) => AttributeType::NS,
            AttributeValue::BS(_) => AttributeType::BS,
        }
    }

    /// The string, if this is an `S`.
    pub fn as_s(&self) -> Option<&str> {
        match self {
            AttributeValue::S(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is an `N`.
    pub fn as_n(&self) -> Option<&Number> {
        match self {
            AttributeValue::N(n) => Some(n),
            _ => None,
        }
    }

    /// The bytes, if this is a `B`.
    pub fn as_b(&self) -> Option<&[u8]> {
        match self {
            AttributeValue::B(b) => Some(b),
            _ => None,
        }
    }

    /// The boolean, if this is a `BOOL`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            AttributeValue::BOOL(b) => Some(*b),
            _ => None,
        }
    }

    /// Whether this is `NULL`.
    pub fn is_null(&self) -> bool {
        matches!(self, AttributeValue::NULL)
    }

    /// The entries, if this is an `M`.
    pub fn as_m(&self) -> Option<&AttributeMap> {
        match self {
            AttributeValue::M(m) => Some(m),
            _ => None,
        }
    }

    /// The elements, if this is an `L`.
    pub fn as_l(&self) -> Option<&[AttributeValue]> {
        match self {
            AttributeValue::L(l) => Some(l),
            _ => None,
        }
    }

    /// Whether this is one of the three set types.
    pub fn is_set(&self) -> bool {
        matches!(
            self,
            AttributeValue::SS(_) | AttributeValue::NS(_) | AttributeValue::BS(_)
        )
    }

    /// Whether this is a document (`M` or `L`).
    pub fn is_document(&self) -> bool {
        matches!(self, AttributeValue::M(_) | AttributeValue::L(_))
    }
}

impl From<String> for AttributeValue {
    fn from(value: String) -> Self {
        AttributeValue::S(value)
    }
}

impl From<&str> for AttributeValue {
    fn from(value: &str) -> Self {
        AttributeValue::S(value.to_owned())
    }
}

impl From<Number> for AttributeValue {
    fn from(value: Number) -> Self {
        AttributeValue::N(value)
    }
}

impl From<bool> for AttributeValue {
    fn from(value: bool) -> Self {
        AttributeValue::BOOL(value)
    }
}

impl From<Vec<u8>> for AttributeValue {
    fn from(value: Vec<u8>) -> Self {
        AttributeValue::B(value)
    }
}

impl From<AttributeMap> for AttributeValue {
    fn from(value: AttributeMap) -> Self {
        AttributeValue::M(value)
    }
}

impl From<Vec<AttributeValue>> for AttributeValue {
    fn from(value: Vec<AttributeValue>) -> Self {
        AttributeValue::L(value)
    }
}

impl From<Set<String>> for AttributeValue {
    fn from(value: Set<String>) -> Self {
        AttributeValue::SS(value)
    }
}

impl From<Set<Number>> for AttributeValue {
    fn from(value: Set<Number>) -> Self {
        AttributeValue::NS(value)
    }
}

impl From<Set<Vec<u8>>> for AttributeValue {
    fn from(value: Set<Vec<u8>>) -> Self {
        AttributeValue::BS(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_type_by_its_descriptor() {
        let values = [
            AttributeValue::from("x"),
            AttributeValue::from(Number::from(1)),
            AttributeValue::from(vec![1u8]),
            AttributeValue::from(true),
            AttributeValue::NULL,
            AttributeValue::from(AttributeMap::new()),
            AttributeValue::from(Vec::<AttributeValue>::new()),
            AttributeValue::from(Set::single("x".to_owned())),
            AttributeValue::from(Set::single(Number::ZERO)),
            AttributeValue::from(Set::single(vec![0u8])),
        ];
        let names: Vec<&str> = values.iter().map(|v| v.attribute_type().as_str()).collect();
        assert_eq!(names, ["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"]);
        for t in AttributeType::ALL {
            assert_eq!(AttributeType::from_descriptor(t.as_str()), Some(t));
        }
        assert_eq!(AttributeType::from_descriptor("bool"), None);
    }

    #[test]
    fn accessors_match_only_their_type() {
        let s = AttributeValue::from("x");
        assert_eq!(s.as_s(), Some("x"));
        assert_eq!(s.as_n(), None);
        assert_eq!(
            AttributeValue::from(Number::from(3)).as_n(),
            Some(&Number::from(3))
        );
        assert_eq!(AttributeValue::from(vec![7u8]).as_b(), Some(&[7u8][..]));
        assert_eq!(AttributeValue::from(false).as_bool(), Some(false));
        assert!(AttributeValue::NULL.is_null() && !s.is_null());
        assert!(AttributeValue::from(Set::single(Number::ZERO)).is_set() && !s.is_set());
        assert!(
            AttributeValue::L(vec![]).is_document() && AttributeValue::M(AttributeMap::new()).is_document()
        );
        assert_eq!(AttributeValue::L(vec![s.clone()]).as_l(), Some(&[s][..]));
        assert!(
            AttributeValue::M(AttributeMap::new())
                .as_m()
                .is_some_and(BTreeMap::is_empty)
        );
    }

    #[test]
    fn stays_small() {
        // Items are trees of these: keep the node at four words.
        assert_eq!(std::mem::size_of::<AttributeValue>(), 32);
    }
}
