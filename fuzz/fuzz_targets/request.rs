//! The request decoder: `dynotable-local`'s application (the router: target header, content
//! type, body, then the engine's JSON → operation input, shape and semantic validation, and the
//! operation itself) on the shared in-memory engine (tables `Music` and `Counters`).
//!
//! The input is the `X-Amz-Target` header's value, a newline, and the JSON body
//! (`DynamoDB_20120810.PutItem\n{"TableName":"Music",...}`); without a newline it is all body,
//! sent as a Query. The answer must be a success with a JSON body, or a 4xx whose body is a
//! DynamoDB exception (`{"__type": "...#Name", ...}`) or the service's bare 404/413 — never a
//! 5xx, never a panic.

#![no_main]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use libfuzzer_sys::fuzz_target;
use tower::ServiceExt;

fuzz_target!(|data: &[u8]| {
    let (target, body) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (b"DynamoDB_20120810.Query".as_slice(), data),
    };
    let mut request = Request::post("/").header("content-type", "application/x-amz-json-1.0");
    if let Ok(target) = axum::http::HeaderValue::from_bytes(target) {
        request = request.header("x-amz-target", target);
    }
    let request = request.body(Body::from(body.to_vec())).expect("a request");
    let (status, answer) = dynotable_fuzz::with_router(async |router| {
        let response = router.oneshot(request).await.expect("infallible");
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body in memory");
        (status, bytes)
    });
    let shown = || String::from_utf8_lossy(&answer).into_owned();
    assert!(!status.is_server_error(), "{status}: {}", shown());
    match status {
        StatusCode::OK => {
            serde_json::from_slice::<serde_json::Value>(&answer)
                .unwrap_or_else(|err| panic!("200 with a body that is not JSON ({err}): {}", shown()));
        }
        StatusCode::NOT_FOUND | StatusCode::PAYLOAD_TOO_LARGE => {}
        StatusCode::BAD_REQUEST => {
            let error: serde_json::Value = serde_json::from_slice(&answer)
                .unwrap_or_else(|err| panic!("400 with a body that is not JSON ({err}): {}", shown()));
            let kind = error["__type"].as_str().unwrap_or_default();
            assert!(
                kind.contains('#')
                    && !kind.ends_with("#InternalServerError")
                    && !kind.ends_with("#InternalFailure"),
                "400 with an error type {kind:?}: {}",
                shown()
            );
        }
        other => panic!("an unexpected status {other}: {}", shown()),
    }
});
