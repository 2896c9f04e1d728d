//! A request's JSON body to its input shape, and an output shape back to JSON: the one place a
//! body is deserialised (with the service's `SerializationException` for a body that is not
//! JSON or a member of the wrong JSON type) and a response serialised. `dispatch` runs every
//! operation through these; an operation that handles its own body (TransactWriteItems, for its
//! ClientRequestToken) calls them directly.

use std::fmt;
use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

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
        serde_json::error::Category::Data => err.to_string(),
    };
    ApiError::new(ErrorKind::SerializationException, message)
}

/// A request's boolean member, as the service reads it: a JSON boolean, or a string it converts
/// (`true`, `false`, `yes`, `no`, `1`, `0`, in any case); any other string is a
/// SerializationException (`Unexpected token received from parser`), and a number stays one.
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
