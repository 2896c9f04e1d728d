//! A request's JSON body to its input shape, and an output shape back to JSON: the one place a
//! body is deserialised (with the service's `SerializationException` for a body that is not
//! JSON or a member of the wrong JSON type) and a response serialised. `dispatch` runs every
//! operation through these; an operation that handles its own body (TransactWriteItems, for its
//! ClientRequestToken) calls them directly.

use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::{Deserialize as _, Serialize};

use crate::{ApiError, ErrorKind};

/// Deserialises the request, runs the operation, serialises its response.
pub(crate) async fn run<I, O, F>(body: &[u8], operation: impl FnOnce(I) -> F) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    O: Serialize,
    F: Future<Output = Result<O, ApiError>>,
{
    let output = operation(input_of(body)?).await?;
    serde_json::to_vec(&output).map_err(ApiError::internal)
}

/// The request a body holds; an empty body is an empty request, as the service treats it.
pub(crate) fn input_of<I: DeserializeOwned>(body: &[u8]) -> Result<I, ApiError> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body).map_err(|err| serialization_error(body, err))
}

/// Deserialises the request and runs an operation that writes its own response body.
pub(crate) async fn run_to_body<I, F>(
    body: &[u8],
    operation: impl FnOnce(I) -> F,
) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    F: Future<Output = Result<Vec<u8>, ApiError>>,
{
    operation(input_of(body)?).await
}

/// [`run`] for Query and Scan, whose pages may carry their items as stored
/// (`ReadPageOutput::into_json`).
pub(crate) async fn run_page<I, F>(body: &[u8], operation: impl FnOnce(I) -> F) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    F: Future<Output = Result<crate::api::item::ReadPageOutput, ApiError>>,
{
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let input: I = serde_json::from_slice(body).map_err(|err| serialization_error(body, err))?;
    let output = operation(input).await?;
    output.into_json().map_err(ApiError::internal)
}

/// A body that is not JSON, or a member of the wrong JSON type. Values that are well-formed JSON
/// but not valid DynamoDB (an `N` that is not a number) are validated later, by the operation.
///
/// A body that does not parse as JSON at all is answered as the service answers it: a
/// `SerializationException` with no message (`{"__type":
/// "com.amazon.coral.service#SerializationException"}`, as dynalite recorded it from the
/// service; the wire leaves an empty message out). JSON of the wrong shape keeps a message.
fn serialization_error(body: &[u8], err: serde_json::Error) -> ApiError {
    if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
        return ApiError::new(ErrorKind::SerializationException, "");
    }
    let message = match err.classify() {
        serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof
        | serde_json::error::Category::Io => "Start of structure or map found where not expected.".to_owned(),
        // A member of the wrong JSON type: the service's sentence (rule B.22).
        serde_json::error::Category::Data => super::wrong_type::sentence(&err),
    };
    ApiError::new(ErrorKind::SerializationException, message)
}

/// A request's boolean member, as the service reads it: a JSON boolean, or a string it converts
/// (`true`, `false`, `yes`, `no`, `1`, `0`, in any case); any other string is a
/// SerializationException (`Unexpected token received from parser`), and a number stays one
/// (its sentence, like a list's or an object's, is worded by `wrong_type`, rule B.22).
/// Sources: scylladb/scylladb#9432 (2021: the live service took `"yes"` for `Enabled` and refused
/// `"dog"` with that message) and dynalite's reading of the service, which lists the six words.
/// Attribute values (`BOOL`, `NULL`) are read by `dynotable_types` and stay strict.
pub(crate) fn boolean<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<bool>, D::Error> {
    struct Lenient;
    impl<'de> serde::de::Visitor<'de> for Lenient {
        type Value = Option<bool>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a boolean")
        }

        fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Self::Value, E> {
            Ok(Some(value))
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Self::Value, E> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok(Some(true)),
                "false" | "no" | "0" => Ok(Some(false)),
                _ => Err(E::custom("Unexpected token received from parser")),
            }
        }
    }
    deserializer.deserialize_any(Lenient)
}

/// A request's Long member (`ReadCapacityUnits`, `WriteCapacityUnits`): an integer like any
/// other, but the service names `Long`, not `Integer`, when it holds another JSON kind (rule
/// B.22); the expecting text `a Long` tells `wrong_type` so. JSON null is absent.
pub(crate) fn long<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    struct Long;
    impl<'de> serde::de::Visitor<'de> for Long {
        type Value = Option<i64>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a Long")
        }

        fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Self::Value, E> {
            Ok(Some(value))
        }

        fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Self::Value, E> {
            i64::try_from(value)
                .map(Some)
                .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(value), &self))
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    deserializer.deserialize_any(Long)
}

/// The value class of a map member, as the service names it when the map is given a JSON list
/// (`Unrecognized collection type java.util.Map<java.lang.String, <class>>`, rule B.22).
pub(crate) trait MapValue: Sized {
    const CLASS: &'static str;

    /// Reads one value of the map; a structure is read as a JSON object only (`api::objects`).
    fn read<'de, A: serde::de::MapAccess<'de>>(access: &mut A) -> Result<Self, A::Error>
    where
        Self: serde::Deserialize<'de>,
    {
        access.next_value()
    }
}

/// `MapValue::read` for a map whose values are structures.
macro_rules! structure_values {
    () => {
        fn read<'de, A: serde::de::MapAccess<'de>>(access: &mut A) -> Result<Self, A::Error>
        where
            Self: serde::Deserialize<'de>,
        {
            access.next_value_seed(super::objects::Object::<Self>::new())
        }
    };
}

impl MapValue for String {
    const CLASS: &'static str = "java.lang.String";
}

impl MapValue for dynotable_types::Checked<dynotable_types::AttributeValue> {
    const CLASS: &'static str = "com.amazonaws.dynamodb.v20120810.AttributeValue";
}

impl MapValue for super::item::ExpectedAttributeValue {
    const CLASS: &'static str = "com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue";
    structure_values!();
}

impl MapValue for super::item::Condition {
    const CLASS: &'static str = "com.amazonaws.dynamodb.v20120810.Condition";
    structure_values!();
}

impl MapValue for super::item::AttributeValueUpdate {
    const CLASS: &'static str = "com.amazonaws.dynamodb.v20120810.AttributeValueUpdate";
    structure_values!();
}

impl MapValue for super::item::KeysAndAttributes {
    const CLASS: &'static str = "com.amazonaws.dynamodb.v20120810.KeysAndAttributes";
    structure_values!();
}

impl MapValue for Vec<super::item::WriteRequest> {
    const CLASS: &'static str = "java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>";

    fn read<'de, A: serde::de::MapAccess<'de>>(access: &mut A) -> Result<Self, A::Error>
    where
        Self: serde::Deserialize<'de>,
    {
        access.next_value_seed(super::objects::List::parameterized())
    }
}

/// A request's map member (other than an item or key, which `dynotable_types::Checked` reads):
/// a JSON object, or null for absent. Its expecting text, `a map of <class>`, lets `wrong_type`
/// give the service's sentence for a list or a scalar in its place (rule B.22).
pub(crate) fn map<'de, D, V>(deserializer: D) -> Result<Option<BTreeMap<String, V>>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: serde::Deserialize<'de> + MapValue,
{
    struct Entries<V>(PhantomData<V>);
    impl<'de, V: serde::Deserialize<'de> + MapValue> serde::de::Visitor<'de> for Entries<V> {
        type Value = Option<BTreeMap<String, V>>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a map of {}", V::CLASS)
        }

        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
            let mut entries = BTreeMap::new();
            while let Some(name) = access.next_key::<String>()? {
                let value = V::read(&mut access)?;
                entries.insert(name, value);
            }
            Ok(Some(entries))
        }
    }
    deserializer.deserialize_any(Entries(PhantomData))
}

/// The `Value` member of a legacy `Expected` entry or `AttributeUpdates` entry: an
/// AttributeValue that is a structure's member rather than a list element or a map value, so
/// the service answers a scalar there with `Unexpected field type` (rule B.22). JSON null is
/// absent.
pub(crate) fn field_value<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<dynotable_types::Checked<dynotable_types::AttributeValue>>, D::Error> {
    use serde::de::Error as _;
    let value = serde_json::Value::deserialize(deserializer)?;
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Bool(_) | serde_json::Value::Number(_) | serde_json::Value::String(_) => {
            Err(D::Error::custom("Unexpected field type"))
        }
        value => serde::Deserialize::deserialize(value)
            .map(Some)
            .map_err(D::Error::custom),
    }
}
