//! Key attributes: their types, their values and the rules the service applies to them.
//!
//! Rule B.9 (docs/dynamodb-rules.md): only S, N and B can be key attributes.
//! Rule B.7: a partition key value is 1–2,048 bytes, a sort key value 1–1,024 bytes; strings and
//! binaries in key attributes (of the table or of any index) may not be empty.
//! Rule B.10 gives the messages; which one applies depends on where the key value came from:
//!
//! | Where | Missing | Wrong type | Empty | Too long |
//! |---|---|---|---|---|
//! | an item being written ([`KeyAttribute::check_in_item`]) | `Missing the key …` | `Type mismatch for key …` | `… empty string value. Key: …` | hashkey / range keys |
//! | a `Key` parameter ([`KeyAttribute::check_in_key`]) | `The provided key element does not match the schema` | same | same as items | same as items |
//! | an index key in an item ([`KeyAttribute::check_index_key_in_item`]) | fine: the index is sparse | `Type mismatch for Index Key …` | `… IndexName: …, IndexKey: …` | as table keys (unverified) |
//!
//! Checks run in the order type, emptiness, size. The byte size of a key value is its UTF-8 or
//! raw length, and for a number its rule B.1 size (at most 21 bytes, so never over a limit).
//!
//! Values are held as [`KeyValue`] (owned) or [`KeyRef`] (borrowed from an item); both encode to
//! order-preserving bytes (see [`crate::key_encoding`]).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::ValidationError;
use crate::number::Number;
use crate::size::number_size;
use crate::value::{AttributeType, AttributeValue, Item};

/// Longest partition key value, in bytes (rule B.7).
pub const MAX_PARTITION_KEY_BYTES: usize = 2048;
/// Longest sort key value, in bytes (rule B.7).
pub const MAX_SORT_KEY_BYTES: usize = 1024;

/// The type of a key attribute, as `AttributeDefinitions[].AttributeType` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ScalarAttributeType {
    /// String
    S,
    /// Number
    N,
    /// Binary
    B,
}

impl ScalarAttributeType {
    /// The API's enum values, in the order its messages list them: `[B, N, S]`.
    pub const ENUM_VALUES: [&'static str; 3] = ["B", "N", "S"];

    /// The descriptor: `"S"`, `"N"` or `"B"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScalarAttributeType::S => "S",
            ScalarAttributeType::N => "N",
            ScalarAttributeType::B => "B",
        }
    }

    /// The type named by a descriptor (case-sensitive); `None` for anything else.
    pub fn from_descriptor(descriptor: &str) -> Option<ScalarAttributeType> {
        match descriptor {
            "S" => Some(ScalarAttributeType::S),
            "N" => Some(ScalarAttributeType::N),
            "B" => Some(ScalarAttributeType::B),
            _ => None,
        }
    }
}

impl fmt::Display for ScalarAttributeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<ScalarAttributeType> for AttributeType {
    fn from(ty: ScalarAttributeType) -> Self {
        match ty {
            ScalarAttributeType::S => AttributeType::S,
            ScalarAttributeType::N => AttributeType::N,
            ScalarAttributeType::B => AttributeType::B,
        }
    }
}

/// A key attribute's role, as `KeySchema[].KeyType` names it (`HASH` / `RANGE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KeyRole {
    /// The partition key (`HASH`): 1–2,048 bytes.
    #[serde(rename = "HASH")]
    Partition,
    /// The sort key (`RANGE`): 1–1,024 bytes.
    #[serde(rename = "RANGE")]
    Sort,
}

impl KeyRole {
    /// The longest value this role allows, in bytes (rule B.7).
    pub fn max_bytes(self) -> usize {
        match self {
            KeyRole::Partition => MAX_PARTITION_KEY_BYTES,
            KeyRole::Sort => MAX_SORT_KEY_BYTES,
        }
    }

    fn too_large(self) -> ValidationError {
        match self {
            KeyRole::Partition => ValidationError::PartitionKeyTooLarge,
            KeyRole::Sort => ValidationError::SortKeyTooLarge,
        }
    }
}

/// A key value borrowed from an attribute value: what the engine encodes without cloning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyRef<'a> {
    /// A string key value.
    S(&'a str),
    /// A number key value.
    N(&'a Number),
    /// A binary key value.
    B(&'a [u8]),
}

/// An owned key value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum KeyValue {
    /// A string key value.
    S(String),
    /// A number key value.
    N(Number),
    /// A binary key value.
    B(Vec<u8>),
}

impl<'a> KeyRef<'a> {
    /// The key value inside `value`, if it is an S, N or B.
    pub fn from_value(value: &'a AttributeValue) -> Option<KeyRef<'a>> {
        match value {
            AttributeValue::S(s) => Some(KeyRef::S(s)),
            AttributeValue::N(n) => Some(KeyRef::N(n)),
            AttributeValue::B(b) => Some(KeyRef::B(b)),
            _ => None,
        }
    }

    /// The value's type.
    pub fn scalar_type(&self) -> ScalarAttributeType {
        match self {
            KeyRef::S(_) => ScalarAttributeType::S,
            KeyRef::N(_) => ScalarAttributeType::N,
            KeyRef::B(_) => ScalarAttributeType::B,
        }
    }

    /// The value's size as the key limits count it (rule B.7; numbers by rule B.1).
    pub fn byte_size(&self) -> usize {
        match self {
            KeyRef::S(s) => s.len(),
            KeyRef::N(n) => number_size(n),
            KeyRef::B(b) => b.len(),
        }
    }

    /// Whether this is an empty string or binary, which no key may hold.
    pub fn is_empty(&self) -> bool {
        match self {
            KeyRef::S(s) => s.is_empty(),
            KeyRef::N(_) => false,
            KeyRef::B(b) => b.is_empty(),
        }
    }

    /// An owned copy.
    pub fn to_key_value(&self) -> KeyValue {
        match *self {
            KeyRef::S(s) => KeyValue::S(s.to_owned()),
            KeyRef::N(n) => KeyValue::N(*n),
            KeyRef::B(b) => KeyValue::B(b.to_vec()),
        }
    }
}

impl KeyValue {
    /// A borrowed view.
    pub fn as_key_ref(&self) -> KeyRef<'_> {
        match self {
            KeyValue::S(s) => KeyRef::S(s),
            KeyValue::N(n) => KeyRef::N(n),
            KeyValue::B(b) => KeyRef::B(b),
        }
    }

    /// The value's type.
    pub fn scalar_type(&self) -> ScalarAttributeType {
        self.as_key_ref().scalar_type()
    }
}

impl From<KeyValue> for AttributeValue {
    fn from(key: KeyValue) -> Self {
        match key {
            KeyValue::S(s) => AttributeValue::S(s),
            KeyValue::N(n) => AttributeValue::N(n),
            KeyValue::B(b) => AttributeValue::B(b),
        }
    }
}

impl TryFrom<AttributeValue> for KeyValue {
    type Error = AttributeValue;

    /// The key value, or the value handed back if it is not an S, N or B.
    fn try_from(value: AttributeValue) -> Result<Self, Self::Error> {
        match value {
            AttributeValue::S(s) => Ok(KeyValue::S(s)),
            AttributeValue::N(n) => Ok(KeyValue::N(n)),
            AttributeValue::B(b) => Ok(KeyValue::B(b)),
            other => Err(other),
        }
    }
}

impl AttributeValue {
    /// The key value inside this value, if it is an S, N or B.
    pub fn as_key_ref(&self) -> Option<KeyRef<'_>> {
        KeyRef::from_value(self)
    }
}

/// One element of a key schema (a table's or an index's), with the type its AttributeDefinition
/// declares. Checks key values against the rules in the module documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyAttribute<'a> {
    /// The attribute's name.
    pub name: &'a str,
    /// Its declared type.
    pub ty: ScalarAttributeType,
    /// Partition or sort key.
    pub role: KeyRole,
}

impl<'a> KeyAttribute<'a> {
    /// A key schema element.
    pub fn new(name: &'a str, ty: ScalarAttributeType, role: KeyRole) -> Self {
        KeyAttribute { name, ty, role }
    }

    /// Checks this table key attribute in an item being written (PutItem, BatchWriteItem put,
    /// TransactWriteItems put) and returns its value.
    ///
    /// # Errors
    ///
    /// [`ValidationError::MissingKey`], [`ValidationError::KeyTypeMismatch`],
    /// [`ValidationError::EmptyKey`], then [`ValidationError::PartitionKeyTooLarge`] /
    /// [`ValidationError::SortKeyTooLarge`].
    pub fn check_in_item<'v>(&self, item: &'v Item) -> Result<KeyRef<'v>, ValidationError> {
        let value = item.get(self.name).ok_or_else(|| ValidationError::MissingKey {
            name: self.name.to_owned(),
        })?;
        let key = self
            .typed(value)
            .ok_or_else(|| ValidationError::KeyTypeMismatch {
                name: self.name.to_owned(),
                expected: self.ty,
                actual: value.attribute_type(),
            })?;
        self.check_contents(key)
    }

    /// Checks this table key attribute in a `Key` parameter (GetItem, DeleteItem, UpdateItem,
    /// BatchGetItem, the transactions' Key members) and returns its value. The caller checks
    /// that the `Key` has no attribute beyond the key schema (same error).
    ///
    /// # Errors
    ///
    /// [`ValidationError::KeyElementMismatch`] when missing or of the wrong type, then as
    /// [`KeyAttribute::check_in_item`].
    pub fn check_in_key<'v>(&self, key: &'v Item) -> Result<KeyRef<'v>, ValidationError> {
        let key = key
            .get(self.name)
            .and_then(|value| self.typed(value))
            .ok_or(ValidationError::KeyElementMismatch)?;
        self.check_contents(key)
    }

    /// Checks this secondary-index key attribute in an item being written. An item without the
    /// attribute is simply not in the index (`Ok(None)`).
    ///
    /// # Errors
    ///
    /// [`ValidationError::IndexKeyTypeMismatch`], [`ValidationError::EmptyIndexKey`], then the
    /// key size errors (their use for index keys is unverified).
    pub fn check_index_key_in_item<'v>(
        &self,
        index: &str,
        item: &'v Item,
    ) -> Result<Option<KeyRef<'v>>, ValidationError> {
        let Some(value) = item.get(self.name) else {
            return Ok(None);
        };
        let key = self
            .typed(value)
            .ok_or_else(|| ValidationError::IndexKeyTypeMismatch {
                index: index.to_owned(),
                name: self.name.to_owned(),
                expected: self.ty,
                actual: value.attribute_type(),
            })?;
        if key.is_empty() {
            return Err(ValidationError::EmptyIndexKey {
                index: index.to_owned(),
                name: self.name.to_owned(),
                ty: self.ty,
            });
        }
        self.check_size(key).map(Some)
    }

    fn typed<'v>(&self, value: &'v AttributeValue) -> Option<KeyRef<'v>> {
        KeyRef::from_value(value).filter(|key| key.scalar_type() == self.ty)
    }

    fn check_contents<'v>(&self, key: KeyRef<'v>) -> Result<KeyRef<'v>, ValidationError> {
        if key.is_empty() {
            return Err(ValidationError::EmptyKey {
                name: self.name.to_owned(),
                ty: self.ty,
            });
        }
        self.check_size(key)
    }

    fn check_size<'v>(&self, key: KeyRef<'v>) -> Result<KeyRef<'v>, ValidationError> {
        if key.byte_size() > self.role.max_bytes() {
            Err(self.role.too_large())
        } else {
            Ok(key)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(entries: &[(&str, AttributeValue)]) -> Item {
        entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    const PK: KeyAttribute<'static> = KeyAttribute {
        name: "pk",
        ty: ScalarAttributeType::S,
        role: KeyRole::Partition,
    };
    const SK: KeyAttribute<'static> = KeyAttribute {
        name: "sk",
        ty: ScalarAttributeType::B,
        role: KeyRole::Sort,
    };

    #[test]
    fn items_need_their_key_attributes_with_the_right_type() {
        let good = item(&[("pk", "a".into()), ("sk", vec![1u8].into())]);
        assert_eq!(PK.check_in_item(&good), Ok(KeyRef::S("a")));
        assert_eq!(SK.check_in_item(&good), Ok(KeyRef::B(&[1])));

        let missing = item(&[("sk", vec![1u8].into())]);
        assert_eq!(
            PK.check_in_item(&missing).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: Missing the key pk in the item".to_owned())
        );
        let wrong = item(&[("pk", Number::from(1).into())]);
        assert_eq!(
            PK.check_in_item(&wrong).map_err(|e| e.message()),
            Err(
                "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"
                    .to_owned()
            )
        );
        let null = item(&[("pk", AttributeValue::NULL)]);
        assert!(matches!(
            PK.check_in_item(&null),
            Err(ValidationError::KeyTypeMismatch {
                actual: AttributeType::NULL,
                ..
            })
        ));
    }

    #[test]
    fn key_values_may_not_be_empty() {
        let empty_s = item(&[("pk", "".into())]);
        assert_eq!(
            PK.check_in_item(&empty_s).map_err(|e| e.message()),
            Err(
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
                 contain an empty string value. Key: pk"
                    .to_owned()
            )
        );
        let empty_b = item(&[("sk", Vec::<u8>::new().into())]);
        assert_eq!(
            SK.check_in_key(&empty_b),
            Err(ValidationError::EmptyKey {
                name: "sk".into(),
                ty: ScalarAttributeType::B
            })
        );
    }

    #[test]
    fn key_values_have_size_limits() {
        assert!(
            PK.check_in_item(&item(&[("pk", "x".repeat(2048).into())]))
                .is_ok()
        );
        assert_eq!(
            PK.check_in_item(&item(&[("pk", "x".repeat(2049).into())])),
            Err(ValidationError::PartitionKeyTooLarge)
        );
        // Bytes, not characters: 683 × 3 bytes = 2,049.
        assert_eq!(
            PK.check_in_item(&item(&[("pk", "€".repeat(683).into())])),
            Err(ValidationError::PartitionKeyTooLarge)
        );
        assert!(SK.check_in_item(&item(&[("sk", vec![0u8; 1024].into())])).is_ok());
        assert_eq!(
            SK.check_in_item(&item(&[("sk", vec![0u8; 1025].into())])).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the \
                 size limit of 1024 bytes"
                .to_owned())
        );
    }

    #[test]
    fn key_parameters_report_schema_mismatch() {
        assert_eq!(
            PK.check_in_key(&item(&[])),
            Err(ValidationError::KeyElementMismatch)
        );
        assert_eq!(
            PK.check_in_key(&item(&[("pk", true.into())]))
                .map_err(|e| e.message()),
            Err("The provided key element does not match the schema".to_owned())
        );
        assert_eq!(PK.check_in_key(&item(&[("pk", "k".into())])), Ok(KeyRef::S("k")));
    }

    #[test]
    fn index_keys_are_optional_but_checked_when_present() {
        let gk = KeyAttribute::new("gk", ScalarAttributeType::S, KeyRole::Partition);
        assert_eq!(gk.check_index_key_in_item("ByDepot", &item(&[])), Ok(None));
        assert_eq!(
            gk.check_index_key_in_item("ByDepot", &item(&[("gk", "d1".into())])),
            Ok(Some(KeyRef::S("d1")))
        );
        assert_eq!(
            gk.check_index_key_in_item("ByDepot", &item(&[("gk", Number::from(1).into())])).map_err(|e| e.message()),
            Err("One or more parameter values were invalid: Type mismatch for Index Key gk Expected: S Actual: N \
                 IndexName: ByDepot"
                .to_owned())
        );
        assert_eq!(
            gk.check_index_key_in_item("ByDepot", &item(&[("gk", "".into())])).map_err(|e| e.message()),
            Err("One or more parameter values are not valid. A value specified for a secondary index key is not \
                 supported. The AttributeValue for a key attribute cannot contain an empty string value. \
                 IndexName: ByDepot, IndexKey: gk"
                .to_owned())
        );
    }

    #[test]
    fn converts_between_views() {
        let value = AttributeValue::N(Number::from(5));
        let key = value.as_key_ref().expect("scalar");
        assert_eq!(key.scalar_type(), ScalarAttributeType::N);
        assert_eq!(key.byte_size(), 2);
        let owned = key.to_key_value();
        assert_eq!(owned.as_key_ref(), key);
        assert_eq!(owned.scalar_type(), ScalarAttributeType::N);
        assert_eq!(AttributeValue::from(owned.clone()), value);
        assert_eq!(KeyValue::try_from(value), Ok(owned));
        assert_eq!(
            KeyValue::try_from(AttributeValue::NULL),
            Err(AttributeValue::NULL)
        );
        assert_eq!(AttributeValue::BOOL(true).as_key_ref(), None);
        assert_eq!(
            ScalarAttributeType::from_descriptor("B"),
            Some(ScalarAttributeType::B)
        );
        assert_eq!(ScalarAttributeType::from_descriptor("b"), None);
        assert_eq!(AttributeType::from(ScalarAttributeType::S), AttributeType::S);
        assert_eq!(ScalarAttributeType::ENUM_VALUES.join(", "), "B, N, S");
    }
}
