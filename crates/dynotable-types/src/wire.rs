//! DynamoDB JSON: `{"S":"x"}`, `{"N":"12.5"}`, `{"B":"<base64>"}`, `{"BOOL":true}`,
//! `{"NULL":true}`, `{"M":{…}}`, `{"L":[…]}`, `{"SS":[…]}`, `{"NS":["…"]}`, `{"BS":["<base64>"]}`.
//!
//! DynamoDB API reference `API_AttributeValue.html`; rules B.7 and B.10 (docs/dynamodb-rules.md).
//!
//! # Two kinds of failure
//!
//! The service refuses a bad AttributeValue in one of two ways, and the server must tell them
//! apart:
//!
//! - **shape** — JSON that does not fit the model: `{"S": 5}`, `{"N": 12}`, `{"L": {}}`, a `B`
//!   that is not base64. The service answers `SerializationException`. Here these are ordinary
//!   serde errors.
//! - **value** — well-formed JSON that breaks a rule: no datatype key, two datatype keys, a
//!   number that does not convert or is out of range, `NULL: false`, an empty or duplicated set.
//!   The service answers `ValidationException` with a specific message (rule B.10). Here these are
//!   [`ValidationError`]s.
//!
//! [`Checked<T>`] reads an AttributeValue, an item (any `BTreeMap<String, _>`) or a list of them
//! and keeps going past value errors, so a shape error anywhere still wins (the service parses the
//! whole request before validating it). It holds the first value error, except that a number
//! conversion error anywhere beats every other value error: the service converts numbers while
//! parsing and checks the datatype keys afterwards (DYX: `{"N": "x", "S": "y"}` reports the
//! number). Request structs use it for every member that holds values:
//!
//! ```
//! use dynotable_types::{Checked, Item, ValidationError};
//!
//! #[derive(serde::Deserialize)]
//! struct PutItemInput {
//!     #[serde(rename = "Item")]
//!     item: Checked<Item>,
//! }
//!
//! let body = r#"{"Item": {"pk": {"S": "a"}, "n": {"N": "1e999"}}}"#;
//! let input: PutItemInput = serde_json::from_str(body).expect("well-formed JSON");
//! assert_eq!(input.item.into_result(), Err(ValidationError::NumberOverflow));
//! ```
//!
//! The plain `Deserialize` of [`AttributeValue`] (and so of [`crate::Item`]) is strict: a value
//! error becomes a serde error whose text is the service's message.
//!
//! Leniencies that follow the service: unknown keys inside an AttributeValue are ignored, a
//! datatype key whose value is JSON `null` counts as absent, and a `NULL` holding something
//! other than a boolean reads as `NULL: false` (DYX). Base64 is read with or without padding.
//! Serialisation writes canonical numbers, padded base64, and sets in DynamoDB order.
//!
//! The visitors' expecting texts (`an AttributeValue object`, `a map of attribute names to
//! values`, `a list`, `a number string`, `a base64 string`) are read by the engine to word the
//! service's sentence for a value of the wrong JSON type (rule B.22, `api::wrong_type`).

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::error::ValidationError;
use crate::number::Number;
use crate::set::Set;
use crate::value::{AttributeType, AttributeValue};

/// Standard alphabet, padding optional when reading.
const BASE64_READER: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// A value read from DynamoDB JSON that may break a value rule; see the module documentation.
///
/// Implements `Deserialize` for `Checked<AttributeValue>`, `Checked<BTreeMap<String, T>>` (so
/// `Checked<Item>`) and `Checked<Vec<T>>` (so `Checked<Vec<Item>>`), where `Checked<T>` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked<T>(pub Result<T, ValidationError>);

impl<T> Checked<T> {
    /// The value, or the value error that the service would report for it.
    pub fn into_result(self) -> Result<T, ValidationError> {
        self.0
    }
}

/// The error a request reports: the first number error, else the first other value error.
#[derive(Default)]
struct FirstError {
    number: Option<ValidationError>,
    other: Option<ValidationError>,
}

impl FirstError {
    fn add(&mut self, error: ValidationError) {
        let slot = if error.is_number_error() {
            &mut self.number
        } else {
            &mut self.other
        };
        slot.get_or_insert(error);
    }

    fn is_empty(&self) -> bool {
        self.number.is_none() && self.other.is_none()
    }

    fn into_result<T>(self, value: T) -> Result<T, ValidationError> {
        match self.number.or(self.other) {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }
}

// ---- Serialisation --------------------------------------------------------------------------

impl Serialize for AttributeValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        let key = self.attribute_type().as_str();
        match self {
            AttributeValue::S(s) => map.serialize_entry(key, s)?,
            AttributeValue::N(n) => map.serialize_entry(key, n)?,
            AttributeValue::B(b) => map.serialize_entry(key, &Base64Text(b))?,
            AttributeValue::BOOL(b) => map.serialize_entry(key, b)?,
            AttributeValue::NULL => map.serialize_entry(key, &true)?,
            AttributeValue::M(m) => map.serialize_entry(key, m)?,
            AttributeValue::L(l) => map.serialize_entry(key, l)?,
            AttributeValue::SS(set) => map.serialize_entry(key, set.as_slice())?,
            AttributeValue::NS(set) => map.serialize_entry(key, set.as_slice())?,
            AttributeValue::BS(set) => map.serialize_entry(key, &Base64List(set))?,
        }
        map.end()
    }
}

/// A number is a JSON string holding its canonical text (rule B.9).
impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Reads a number string; a value error becomes a serde error with the service's message.
impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        NumberText::deserialize(deserializer)?
            .0
            .map_err(de::Error::custom)
    }
}

struct Base64Text<'a>(&'a [u8]);

impl Serialize for Base64Text<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&base64::display::Base64Display::new(self.0, &STANDARD))
    }
}

struct Base64List<'a>(&'a Set<Vec<u8>>);

impl Serialize for Base64List<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for bytes in self.0 {
            seq.serialize_element(&Base64Text(bytes))?;
        }
        seq.end()
    }
}

// ---- Deserialisation: AttributeValue --------------------------------------------------------

/// Strict: any value error becomes a serde error whose text is the service's message.
impl<'de> Deserialize<'de> for AttributeValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Checked::<AttributeValue>::deserialize(deserializer)?
            .0
            .map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Checked<AttributeValue> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // `any`, not `map`: a JSON null where a value belongs is a value error, not a shape one.
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Checked<AttributeValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an AttributeValue object")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Checked(Err(ValidationError::EmptyAttributeValue)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut present: u16 = 0;
        let mut value = None;
        let mut errors = FirstError::default();
        while let Some(TypeKey(key)) = map.next_key()? {
            let Some(ty) = key else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let Some(decoded) = read_datatype(ty, &mut map)? else {
                continue; // `"S": null` and the like: as if absent
            };
            present |= 1 << (ty as u16);
            match decoded {
                Ok(decoded) => value = Some(decoded),
                Err(error) => errors.add(error),
            }
        }
        let outcome = match (errors.number, present.count_ones()) {
            (Some(number_error), _) => Err(number_error),
            (None, 0) => Err(ValidationError::EmptyAttributeValue),
            (None, 1) => match errors.other {
                Some(error) => Err(error),
                None => value.ok_or(ValidationError::EmptyAttributeValue),
            },
            (None, _) => Err(ValidationError::MultipleDatatypes),
        };
        Ok(Checked(outcome))
    }
}

/// Reads the JSON value of one datatype key. `Ok(None)` when it is JSON null.
fn read_datatype<'de, A: MapAccess<'de>>(
    ty: AttributeType,
    map: &mut A,
) -> Result<Option<Result<AttributeValue, ValidationError>>, A::Error> {
    Ok(match ty {
        AttributeType::S => map
            .next_value::<Option<String>>()?
            .map(|s| Ok(AttributeValue::S(s))),
        AttributeType::N => map
            .next_value::<Option<NumberText>>()?
            .map(|n| n.0.map(AttributeValue::N)),
        AttributeType::B => map
            .next_value::<Option<Base64Bytes>>()?
            .map(|b| Ok(AttributeValue::B(b.0))),
        AttributeType::BOOL => map
            .next_value::<Option<bool>>()?
            .map(|b| Ok(AttributeValue::BOOL(b))),
        AttributeType::NULL => map.next_value::<Option<NullFlag>>()?.map(|flag| {
            if flag.0 {
                Ok(AttributeValue::NULL)
            } else {
                Err(ValidationError::NullNotTrue)
            }
        }),
        AttributeType::M => map
            .next_value::<Option<Checked<BTreeMap<String, AttributeValue>>>>()?
            .map(|m| m.0.map(AttributeValue::M)),
        AttributeType::L => map
            .next_value::<Option<Checked<Vec<AttributeValue>>>>()?
            .map(|l| l.0.map(AttributeValue::L)),
        AttributeType::SS => map
            .next_value::<Option<Vec<String>>>()?
            .map(|v| Set::new(v).map(AttributeValue::SS)),
        AttributeType::NS => map.next_value::<Option<Vec<NumberText>>>()?.map(|texts| {
            let numbers: Result<Vec<Number>, ValidationError> = texts.into_iter().map(|n| n.0).collect();
            numbers.and_then(Set::new).map(AttributeValue::NS)
        }),
        AttributeType::BS => map
            .next_value::<Option<Vec<Base64Bytes>>>()?
            .map(|v| Set::new(v.into_iter().map(|b| b.0).collect()).map(AttributeValue::BS)),
    })
}

/// A key of an AttributeValue object: one of the ten descriptors, or `None` for anything else.
struct TypeKey(Option<AttributeType>);

impl<'de> Deserialize<'de> for TypeKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = TypeKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an AttributeValue datatype key")
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<TypeKey, E> {
                Ok(TypeKey(AttributeType::from_descriptor(key)))
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// A number string, converted without copying; conversion failures are value errors.
struct NumberText(Result<Number, ValidationError>);

impl<'de> Deserialize<'de> for NumberText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl Visitor<'_> for TextVisitor {
            type Value = NumberText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number string")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<NumberText, E> {
                Ok(NumberText(Number::parse(text)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// A base64 string, decoded; bad base64 is a shape error (SerializationException).
struct Base64Bytes(Vec<u8>);

impl<'de> Deserialize<'de> for Base64Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl Visitor<'_> for TextVisitor {
            type Value = Base64Bytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a base64 string")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Base64Bytes, E> {
                BASE64_READER
                    .decode(text)
                    .map(Base64Bytes)
                    .map_err(|error| E::custom(format_args!("Base64 decoding failed: {error}")))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

/// The value of a `NULL` key: `true`, `false`, or anything else, read as `false` (DYX).
struct NullFlag(bool);

impl<'de> Deserialize<'de> for NullFlag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FlagVisitor;
        impl<'de> Visitor<'de> for FlagVisitor {
            type Value = NullFlag;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a boolean")
            }
            fn visit_bool<E: de::Error>(self, flag: bool) -> Result<NullFlag, E> {
                Ok(NullFlag(flag))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<NullFlag, E> {
                Ok(NullFlag(false))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<NullFlag, E> {
                Ok(NullFlag(false))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<NullFlag, E> {
                Ok(NullFlag(false))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<NullFlag, E> {
                Ok(NullFlag(false))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NullFlag, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(NullFlag(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NullFlag, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(NullFlag(false))
            }
        }
        deserializer.deserialize_any(FlagVisitor)
    }
}

// ---- Deserialisation: containers ------------------------------------------------------------

impl<'de, T> Deserialize<'de> for Checked<BTreeMap<String, T>>
where
    Checked<T>: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<T>(PhantomData<T>);
        impl<'de, T> Visitor<'de> for MapVisitor<T>
        where
            Checked<T>: Deserialize<'de>,
        {
            type Value = Checked<BTreeMap<String, T>>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of attribute names to values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = BTreeMap::new();
                let mut errors = FirstError::default();
                while let Some((name, Checked(value))) = map.next_entry::<String, Checked<T>>()? {
                    match value {
                        Ok(value) if errors.is_empty() => {
                            entries.insert(name, value);
                        }
                        Ok(_) => {}
                        Err(error) => errors.add(error),
                    }
                }
                Ok(Checked(errors.into_result(entries)))
            }
        }
        deserializer.deserialize_map(MapVisitor::<T>(PhantomData))
    }
}

impl<'de, T> Deserialize<'de> for Checked<Vec<T>>
where
    Checked<T>: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SeqVisitor<T>(PhantomData<T>);
        impl<'de, T> Visitor<'de> for SeqVisitor<T>
        where
            Checked<T>: Deserialize<'de>,
        {
            type Value = Checked<Vec<T>>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                let mut errors = FirstError::default();
                while let Some(Checked(element)) = seq.next_element::<Checked<T>>()? {
                    match element {
                        Ok(element) if errors.is_empty() => elements.push(element),
                        Ok(_) => {}
                        Err(error) => errors.add(error),
                    }
                }
                Ok(Checked(errors.into_result(elements)))
            }
        }
        deserializer.deserialize_seq(SeqVisitor::<T>(PhantomData))
    }
}

/// A list read element by element elsewhere (a request reader with its own element rules): the
/// elements, or the error the service reports for them, chosen as for a list read here.
impl<T> FromIterator<Checked<T>> for Checked<Vec<T>> {
    fn from_iter<I: IntoIterator<Item = Checked<T>>>(elements: I) -> Self {
        let mut values = Vec::new();
        let mut errors = FirstError::default();
        for Checked(element) in elements {
            match element {
                Ok(element) if errors.is_empty() => values.push(element),
                Ok(_) => {}
                Err(error) => errors.add(error),
            }
        }
        Checked(errors.into_result(values))
    }
}

#[cfg(test)]
mod tests;
