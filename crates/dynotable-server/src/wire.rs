//! The pieces of DynamoDB's JSON wire protocol (`awsJson1_0`) that live outside the request and
//! response bodies: the `X-Amz-Target` header, the error body, the headers every response carries,
//! and the request size limit. The bodies themselves are the engine's business.
//!
//! References: the DynamoDB API reference ("Making HTTP requests", low-level API), the Smithy
//! `awsJson1_0` protocol, and rules B.10 (`docs/dynamodb-rules.md`) for the error body.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::http::header::{CONNECTION, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use dynotable_engine::{ApiError, ErrorKind, PageBuffers};

/// The content type of every request and response body.
pub const CONTENT_TYPE_JSON: &str = "application/x-amz-json-1.0";

/// What `X-Amz-Target` starts with for DynamoDB's API version.
pub const TARGET_PREFIX: &str = "DynamoDB_20120810.";

/// What `X-Amz-Target` starts with for the DynamoDB Streams API, served on the same endpoint.
pub const STREAMS_TARGET_PREFIX: &str = "DynamoDBStreams_20120810.";

/// Which API a request's target belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    DynamoDb,
    Streams,
}

/// The largest request body accepted: DynamoDB refuses requests above 16 MB (BatchWriteItem's
/// "total request size exceeds 16 MB", rules B.7), counted in binary megabytes.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// The response header holding the CRC32 of the body, in decimal. boto3/botocore and the AWS CLI
/// check it (and retry on a mismatch); the Rust SDK ignores it.
pub const HEADER_CRC32: &str = "x-amz-crc32";

/// The response header holding the request's id.
pub const HEADER_REQUEST_ID: &str = "x-amzn-RequestId";

/// The `__type` of a refused `Host` (`host`): DynoTable's own refusal, in the service's shape,
/// with the exception SDKs already treat as "not allowed, do not retry".
pub const HOST_REFUSED_TYPE: &str = "com.amazon.coral.service#AccessDeniedException";

/// The `__type` of a request body that did not arrive within the body timeout. The service's
/// answer to a stalled body is not recorded; this names it in the service framework's way.
pub const BODY_TIMEOUT_TYPE: &str = "com.amazon.coral.service#RequestTimeoutException";

/// The body of the service's `404` for another method, another path or another content type.
pub const NOT_FOUND_BODY: &[u8] = b"<UnknownOperationException/>\n";

/// The API and operation an `X-Amz-Target` header names, or `None` when the header is missing,
/// belongs to neither DynamoDB nor DynamoDB Streams (another version), or names no operation.
///
/// `DynamoDB_20120810.PutItem` → `Some((Api::DynamoDb, "PutItem"))`,
/// `DynamoDBStreams_20120810.GetRecords` → `Some((Api::Streams, "GetRecords"))`. Operation names
/// are ASCII letters and digits; anything else cannot name an operation and is refused here rather
/// than by the engine.
pub fn operation_of_target(target: Option<&[u8]>) -> Option<(Api, &str)> {
    let target = std::str::from_utf8(target?).ok()?.trim();
    let (api, operation) = match target.strip_prefix(TARGET_PREFIX) {
        Some(operation) => (Api::DynamoDb, operation),
        None => (Api::Streams, target.strip_prefix(STREAMS_TARGET_PREFIX)?),
    };
    let valid = !operation.is_empty() && operation.bytes().all(|b| b.is_ascii_alphanumeric());
    valid.then_some((api, operation))
}

/// The `__type` of an engine error: `<namespace>#<Name>`, e.g.
/// `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`.
pub fn error_type(kind: ErrorKind) -> String {
    format!("{}#{}", kind.namespace(), kind.name())
}

/// An error body: `{"__type": ..., "message": ...}`, without `message` when it is empty (the
/// service sends `UnknownOperationException` bare), with the text under `Message` for a
/// `SerializationException` (the service's framework names it so: rule B.22.1), and with `Item` when a
/// `ConditionalCheckFailedException` carries the current item (`ReturnValuesOnConditionCheckFailure
/// = ALL_OLD`): the service returns it there, and the SDKs expose it as the exception's `Item`.
pub fn error_body(
    error_type: &str,
    message: &str,
    item: Option<&dynotable_types::Item>,
    cancellation_reasons: Option<&[dynotable_engine::CancellationReason]>,
) -> Vec<u8> {
    let mut body = serde_json::Map::new();
    body.insert("__type".into(), error_type.into());
    if !message.is_empty() {
        let key = if error_type == self::error_type(ErrorKind::SerializationException) {
            "Message"
        } else {
            "message"
        };
        body.insert(key.into(), message.into());
    }
    if let Some(item) = item {
        match serde_json::to_value(item) {
            Ok(item) => {
                body.insert("Item".into(), item);
            }
            // Cannot happen for a well-formed item; the error itself is still worth sending.
            Err(err) => tracing::error!(%err, "the item of a failed condition could not be serialised"),
        }
    }
    // TransactionCanceledException: one reason per action, in request order (rule B.10).
    if let Some(reasons) = cancellation_reasons
        && let Ok(reasons) = serde_json::to_value(reasons)
    {
        body.insert("CancellationReasons".into(), reasons);
    }
    serde_json::to_vec(&body)
        .unwrap_or_else(|_| br#"{"__type":"com.amazon.coral.service#InternalFailure"}"#.to_vec())
}

/// The body of an engine error, as [`error_body`] renders it; a throttled request's body also
/// carries its `ThrottlingReasons` (rules B.10 and B.19, docs/dynamodb-rules.md).
pub fn api_error_body(err: &ApiError) -> Vec<u8> {
    let body = error_body(
        &error_type(err.kind),
        &err.message,
        err.item.as_ref(),
        err.cancellation_reasons.as_deref(),
    );
    match &err.throttling_reasons {
        None => body,
        Some(reasons) => with_throttling_reasons(body, reasons),
    }
}

/// `body` (an error body) with `ThrottlingReasons` added.
fn with_throttling_reasons(body: Vec<u8>, reasons: &[dynotable_engine::ThrottlingReason]) -> Vec<u8> {
    let Ok(serde_json::Value::Object(mut object)) = serde_json::from_slice(&body) else {
        return body;
    };
    match serde_json::to_value(reasons) {
        Ok(reasons) => {
            object.insert("ThrottlingReasons".into(), reasons);
            serde_json::to_vec(&object).unwrap_or(body)
        }
        Err(_) => body,
    }
}

/// The HTTP status of an engine error: 400 for everything the client caused, 500 for
/// `InternalServerError`.
pub fn api_error_status(err: &ApiError) -> StatusCode {
    StatusCode::from_u16(err.kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// CRC32 (IEEE) of a body, as `x-amz-crc32` carries it.
pub fn crc32(body: &[u8]) -> u32 {
    crc32fast::hash(body)
}

/// A response as DynamoDB sends it: the status, the JSON body, its content type, its CRC32 and the
/// request id.
pub fn json_response(status: StatusCode, body: Vec<u8>, request_id: &str) -> Response {
    let crc = crc32(&body);
    response_of(status, Body::from(body), crc, request_id)
}

/// [`json_response`] for a body the engine wrote: a large body's buffer goes back to the
/// engine's [`PageBuffers`] when hyper has written it and drops it, for the next large page
/// (`dynotable_engine::page_buffers`: fresh megabytes for every 1 MB Scan page were a quarter
/// of a full Scan's CPU).
pub fn engine_response(
    status: StatusCode,
    body: Vec<u8>,
    request_id: &str,
    buffers: &Arc<PageBuffers>,
) -> Response {
    let crc = crc32(&body);
    let body = if PageBuffers::keeps(body.capacity()) {
        Body::from(Bytes::from_owner(LentBuffer {
            buffer: body,
            buffers: Arc::clone(buffers),
        }))
    } else {
        Body::from(body)
    };
    response_of(status, body, crc, request_id)
}

/// A response body's buffer, given back to the engine's pool when the body is dropped.
struct LentBuffer {
    buffer: Vec<u8>,
    buffers: Arc<PageBuffers>,
}

impl AsRef<[u8]> for LentBuffer {
    fn as_ref(&self) -> &[u8] {
        &self.buffer
    }
}

impl Drop for LentBuffer {
    fn drop(&mut self) {
        self.buffers.give_back(std::mem::take(&mut self.buffer));
    }
}

fn response_of(status: StatusCode, body: Body, crc: u32, request_id: &str) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE_JSON));
    headers.insert(HEADER_CRC32, HeaderValue::from(crc));
    if let Ok(id) = HeaderValue::from_str(request_id) {
        headers.insert(HEADER_REQUEST_ID, id);
    }
    response
}

/// The response to an engine error.
pub fn api_error_response(err: &ApiError, request_id: &str) -> Response {
    json_response(api_error_status(err), api_error_body(err), request_id)
}

/// The response to a request body above [`MAX_REQUEST_BYTES`]: `413` with an empty body, as the
/// service answers it. The connection is closed afterwards, since the rest of the body may
/// still be in flight.
pub fn request_too_large_response() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::PAYLOAD_TOO_LARGE;
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The `404` the service answers to a method other than `POST` and `GET`, to another path, or
/// to a body in another content type: `<UnknownOperationException/>`, not JSON.
pub fn not_found_response(request_id: &str) -> Response {
    let mut response = response_of(
        StatusCode::NOT_FOUND,
        Body::from(NOT_FOUND_BODY),
        crc32(NOT_FOUND_BODY),
        request_id,
    );
    response.headers_mut().remove(CONTENT_TYPE);
    response
}

/// A text answer (the health check): its CRC32 and request id, no content type (the service
/// sends none).
pub fn text_response(status: StatusCode, body: Vec<u8>, request_id: &str) -> Response {
    let crc = crc32(&body);
    let mut response = response_of(status, Body::from(body), crc, request_id);
    response.headers_mut().remove(CONTENT_TYPE);
    response
}

/// The answer to a body that did not arrive within `timeout`: `408`, and the connection closed.
pub fn body_timeout_response(timeout: std::time::Duration, request_id: &str) -> Response {
    let message = format!(
        "The request body was not received within {} seconds",
        timeout.as_secs_f64()
    );
    let mut response = json_response(
        StatusCode::REQUEST_TIMEOUT,
        error_body(BODY_TIMEOUT_TYPE, &message, None, None),
        request_id,
    );
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Why a gzip body could not be used.
#[derive(Debug, PartialEq, Eq)]
pub enum Gunzip {
    /// Decompressed, it is larger than [`MAX_REQUEST_BYTES`] (the limit counts what the
    /// engine reads, so a small bomb cannot blow up in memory).
    TooLarge,
    /// Not gzip, or cut short.
    Corrupt,
}

/// Decompresses a `Content-Encoding: gzip` body (several members in a row, as gzip allows), up
/// to [`MAX_REQUEST_BYTES`].
pub fn gunzip(body: &[u8]) -> Result<Vec<u8>, Gunzip> {
    use std::io::Read;
    let mut decoded = Vec::with_capacity(body.len().saturating_mul(4).min(MAX_REQUEST_BYTES));
    flate2::read::MultiGzDecoder::new(body)
        .take(MAX_REQUEST_BYTES as u64 + 1)
        .read_to_end(&mut decoded)
        .map_err(|_| Gunzip::Corrupt)?;
    if decoded.len() > MAX_REQUEST_BYTES {
        return Err(Gunzip::TooLarge);
    }
    Ok(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynotable_engine::ApiError;

    #[test]
    fn target_names_the_operation() {
        assert_eq!(
            operation_of_target(Some(b"DynamoDB_20120810.PutItem")),
            Some((Api::DynamoDb, "PutItem"))
        );
        assert_eq!(
            operation_of_target(Some(b" DynamoDB_20120810.Query ")),
            Some((Api::DynamoDb, "Query"))
        );
        // Unknown operations are passed on: the engine refuses them with the service's error.
        assert_eq!(
            operation_of_target(Some(b"DynamoDB_20120810.Frobnicate")),
            Some((Api::DynamoDb, "Frobnicate"))
        );
        // DynamoDB Streams is served on the same endpoint.
        assert_eq!(
            operation_of_target(Some(b"DynamoDBStreams_20120810.GetRecords")),
            Some((Api::Streams, "GetRecords"))
        );
    }

    #[test]
    fn target_that_names_no_operation_is_refused() {
        for target in [
            &b""[..],
            b"PutItem",
            b"DynamoDB_20120810.",
            b"DynamoDB_20120810",
            b"DynamoDB_20111205.PutItem",
            b"DynamoDBStreams_20111205.GetRecords",
            b"dynamodb_20120810.PutItem",
            b"DynamoDB_20120810.Put Item",
            b"DynamoDB_20120810.PutItem.Extra",
            b"DynamoDB_20120810.\xff",
        ] {
            assert_eq!(
                operation_of_target(Some(target)),
                None,
                "{:?}",
                String::from_utf8_lossy(target)
            );
        }
        assert_eq!(operation_of_target(None), None);
    }

    #[test]
    fn error_type_joins_namespace_and_name() {
        assert_eq!(
            error_type(ErrorKind::ResourceNotFoundException),
            "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"
        );
        assert_eq!(
            error_type(ErrorKind::ValidationException),
            "com.amazon.coral.validate#ValidationException"
        );
    }

    #[test]
    fn error_body_has_type_and_message() {
        let err = ApiError::new(ErrorKind::ResourceInUseException, "Table already exists: Pets");
        let body: serde_json::Value = serde_json::from_slice(&api_error_body(&err)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "__type": "com.amazonaws.dynamodb.v20120810#ResourceInUseException",
                "message": "Table already exists: Pets"
            })
        );
        assert_eq!(api_error_status(&err), StatusCode::BAD_REQUEST);
    }

    #[test]
    fn a_serialization_exception_names_its_text_message_with_a_capital() {
        // Rule B.22.1: the service's framework answers `{"__type": ..., "Message": ...}` there.
        let err = ApiError::new(
            ErrorKind::SerializationException,
            "NUMBER_VALUE cannot be converted to String",
        );
        let body: serde_json::Value = serde_json::from_slice(&api_error_body(&err)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "__type": "com.amazon.coral.service#SerializationException",
                "Message": "NUMBER_VALUE cannot be converted to String"
            })
        );
        // A body that is not JSON: the exception alone, as before.
        let err = ApiError::new(ErrorKind::SerializationException, "");
        assert_eq!(
            api_error_body(&err),
            br#"{"__type":"com.amazon.coral.service#SerializationException"}"#
        );
    }

    #[test]
    fn empty_message_is_omitted() {
        let err = ApiError::new(ErrorKind::UnknownOperationException, "");
        assert_eq!(
            api_error_body(&err),
            br#"{"__type":"com.amazon.coral.service#UnknownOperationException"}"#
        );
    }

    #[test]
    fn failed_condition_carries_the_item() {
        let item: dynotable_types::Item =
            serde_json::from_str(r#"{"pk":{"S":"a"},"n":{"N":"1.50"}}"#).unwrap();
        let err = ApiError::conditional_check_failed(Some(item));
        let body: serde_json::Value = serde_json::from_slice(&api_error_body(&err)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                "message": "The conditional request failed",
                "Item": {"pk": {"S": "a"}, "n": {"N": "1.5"}}
            })
        );
    }

    #[test]
    fn internal_error_is_500() {
        let err = ApiError::new(ErrorKind::InternalServerError, "Internal server error");
        assert_eq!(api_error_status(&err), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn crc32_is_ieee() {
        // The check value of CRC-32/ISO-HDLC, and the CRC of `{}` as DynamoDB sends it.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b"{}"), 2_745_614_147);
    }

    #[test]
    fn json_response_carries_the_headers() {
        let response = json_response(StatusCode::OK, b"{}".to_vec(), "req-1");
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers[CONTENT_TYPE], CONTENT_TYPE_JSON);
        assert_eq!(headers[HEADER_CRC32], "2745614147");
        assert_eq!(headers[HEADER_REQUEST_ID], "req-1");
    }

    /// A large body's buffer goes back to the engine's pool when hyper drops the body, after
    /// the body went out whole with its CRC; a small body's is simply freed.
    #[tokio::test]
    async fn a_large_body_returns_its_buffer_to_the_pool() {
        use http_body_util::BodyExt;
        let buffers = Arc::new(PageBuffers::new());
        let mut body = buffers.take(0);
        body.extend((0..1_500_000u32).map(|i| (i % 251) as u8));
        let (at, expected) = (body.as_ptr(), body.clone());
        let response = engine_response(StatusCode::OK, body, "req-3", &buffers);
        assert_eq!(
            response.headers()[HEADER_CRC32],
            crc32(&expected).to_string().as_str()
        );
        assert_eq!(buffers.kept(), 0, "lent while the response holds it");
        let sent = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(sent, expected);
        drop(sent);
        assert_eq!(buffers.kept(), 1, "given back once the body is dropped");
        let again = buffers.take(0);
        assert_eq!(again.as_ptr(), at);
        drop(again);

        let small = engine_response(StatusCode::OK, b"{}".to_vec(), "req-4", &buffers);
        assert_eq!(small.headers()[HEADER_CRC32], "2745614147");
        drop(small);
        assert_eq!(buffers.kept(), 0);
    }

    #[test]
    fn too_large_is_413_and_closes() {
        let response = request_too_large_response();
        assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(response.headers()[CONNECTION], "close");
    }

    #[test]
    fn the_404_is_the_services_xml_body() {
        let response = not_found_response("req-5");
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        // The CRC the service sends with it.
        assert_eq!(response.headers()[HEADER_CRC32], "3552371480");
        assert!(!response.headers().contains_key(CONTENT_TYPE));
    }

    #[test]
    fn gzip_bodies_decompress_within_the_limit() {
        use std::io::Write;
        let gzip = |bytes: &[u8]| {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(bytes).unwrap();
            encoder.finish().unwrap()
        };
        assert_eq!(gunzip(&gzip(br#"{"Limit":1}"#)).unwrap(), br#"{"Limit":1}"#);
        // Two members in a row are one body.
        let mut two = gzip(b"{\"Li");
        two.extend(gzip(b"mit\":1}"));
        assert_eq!(gunzip(&two).unwrap(), br#"{"Limit":1}"#);
        assert_eq!(gunzip(b"{}"), Err(Gunzip::Corrupt));
        let bomb = gzip(&vec![b' '; MAX_REQUEST_BYTES + 1]);
        assert!(bomb.len() < 100_000);
        assert_eq!(gunzip(&bomb), Err(Gunzip::TooLarge));
    }
}
