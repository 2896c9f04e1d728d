//! `dynotable-local`: DynoTable's engine behind DynamoDB's JSON wire protocol, so that any AWS SDK,
//! the AWS CLI or a test suite can use it as a local DynamoDB endpoint.
//!
//! # The life of a request
//!
//! 1. **Listening.** [`cli::main`] opens the engine (a SQLite file, or in memory), binds a TCP
//!    listener (127.0.0.1:8000 unless told otherwise; port 0 picks a free port), installs the
//!    SIGINT/SIGTERM handlers, and only then prints its one line to stdout,
//!    `dynotable-local listening on http://HOST:PORT`, so whoever waits for that line can connect.
//!    [`serve`] hands the listener to axum/hyper: HTTP/1.1 with keep-alive, one task per
//!    connection, `TCP_NODELAY` on. With `--spin-us N` ([`serve_spinning`], module `busy_poll`)
//!    a connection that has just answered keeps polling its socket for up to N µs before its
//!    worker sleeps, so that a client taking turns with the server costs no wake-up.
//!
//! 2. **Routing.** [`router`] answers `GET /` with a short health text. Everything a client sends
//!    goes to `POST /`, exactly as the SDKs do: the operation is in the header
//!    `X-Amz-Target: DynamoDB_20120810.<Operation>`, the request in the JSON body
//!    (`Content-Type: application/x-amz-json-1.0`). Other paths answer 404 and other methods 405,
//!    both in DynamoDB's error format.
//!
//! 3. **Authentication (none).** SDKs sign each request with SigV4 (`Authorization`,
//!    `X-Amz-Date`, ...). Like DynamoDB Local, the server accepts any signature, or none, without
//!    checking it: it listens on loopback by default and has one shared database, not one per
//!    access key.
//!
//! 4. **Reading the body.** At most [`wire::MAX_REQUEST_BYTES`] (16 MB, the service's request
//!    limit). A larger request, whether declared by `Content-Length` or found while reading, gets
//!    `413` with a `RequestEntityTooLargeException` body and the connection is closed.
//!
//! 5. **The target.** [`wire::operation_of_target`] takes the operation out of `X-Amz-Target`.
//!    A missing header, another service's prefix (`DynamoDBStreams_20120810.`), or a malformed
//!    name answers `UnknownOperationException`, as the service does.
//!
//! 6. **The engine.** `Engine::call_in(region, operation, body)` deserialises the body
//!    (malformed JSON is its `SerializationException`), validates, runs the operation and
//!    serialises the response; `region` is the one the `Authorization` header's SigV4
//!    credential scope names (`local` without one), which the answer's ARNs report.
//!    The call is polled first on the connection's task (a call answered from memory costs no
//!    hand-off) and moved into a task of its own at its first wait, so a client that hangs up
//!    does not cancel a write half-way; a bug that panics becomes a 500 `InternalServerError`
//!    for that request alone.
//!
//! 7. **The response.** [`wire::json_response`]: status 200 and the engine's JSON, or the error
//!    as `{"__type":"<namespace>#<Name>","message":"..."}` with the error's status (400; 500 only
//!    for `InternalServerError`) plus `Item` on a `ConditionalCheckFailedException` that asked
//!    for it. Every response carries `Content-Type: application/x-amz-json-1.0`,
//!    `x-amz-crc32` (the CRC32 of the body, which botocore verifies) and a fresh
//!    `x-amzn-RequestId`.
//!
//! 8. **Shutdown.** On SIGINT or SIGTERM the listener stops accepting, idle keep-alive
//!    connections are closed, requests in flight finish (for at most [`cli::SHUTDOWN_GRACE`]),
//!    and the engine is closed, which checkpoints SQLite's write-ahead log. A write is
//!    acknowledged only after its `COMMIT` returned (WAL, `synchronous = NORMAL` by default), so
//!    even `kill -9` loses nothing that a client was told succeeded; `--durability power-loss`
//!    (`synchronous = FULL`) also survives a power cut, at an fsync per commit.
//!
//! Errors of the server itself (cannot bind, cannot open the database) are [`ServerError`];
//! errors a client sees are the engine's `ApiError`, rendered in [`wire`].

mod busy_poll;
pub mod cli;
mod error;
mod request_id;
pub mod wire;

use std::future::Future;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, EXPECT};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use dynotable_engine::{ApiError, Engine, ErrorKind};
use http_body_util::BodyExt;

pub use error::ServerError;
use request_id::new_request_id;

/// The HTTP application: health on `GET /`, the DynamoDB API on `POST /`.
pub fn router(engine: Engine) -> Router {
    Router::new()
        .route("/", get(health).post(api).fallback(method_not_allowed))
        .fallback(not_found)
        .with_state(engine)
}

/// Serves `router(engine)` on `listener` until `shutdown` completes, then lets the requests in
/// flight finish. Does not close the engine: the caller owns it. Never busy-polls (see
/// [`serve_spinning`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Engine,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    serve_spinning(listener, engine, std::time::Duration::ZERO, shutdown).await
}

/// [`serve`], with each connection spinning on its socket for up to `spin` after each answer
/// before it sleeps (the `busy_poll` module: a client that sends its next request within the
/// window costs no wake-up). Zero never spins.
pub async fn serve_spinning(
    listener: tokio::net::TcpListener,
    engine: Engine,
    spin: std::time::Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    axum::serve(busy_poll::SpinningListener::new(listener, spin), router(engine))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ServerError::Serve)
}

async fn health() -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/plain; charset=utf-8")],
        concat!("healthy: dynotable-local ", env!("CARGO_PKG_VERSION"), "\n"),
    )
}

async fn not_found() -> Response {
    let body = wire::error_body(
        &wire::error_type(ErrorKind::UnknownOperationException),
        "",
        None,
        None,
    );
    wire::json_response(StatusCode::NOT_FOUND, body, &new_request_id())
}

async fn method_not_allowed() -> Response {
    let body = wire::error_body(
        &wire::error_type(ErrorKind::UnknownOperationException),
        "",
        None,
        None,
    );
    let mut response = wire::json_response(StatusCode::METHOD_NOT_ALLOWED, body, &new_request_id());
    response.headers_mut().insert(
        axum::http::header::ALLOW,
        HeaderValue::from_static("GET, HEAD, POST"),
    );
    response
}

/// One DynamoDB API call: steps 4 to 7 of the module documentation.
async fn api(State(engine): State<Engine>, request: Request) -> Response {
    // No connection busy-polls while this request is being served.
    let _in_flight = busy_poll::RequestInFlight::start();
    let request_id = new_request_id();
    let started = Instant::now();
    let (parts, body) = request.into_parts();

    let declared = declared_length(&parts.headers);
    if declared.is_some_and(|length| length > wire::MAX_REQUEST_BYTES as u64) {
        tracing::debug!(%request_id, length = declared, "request body too large");
        if !parts.headers.contains_key(EXPECT) {
            // The client sends the body before it reads the answer: take it in (up to a bound),
            // or it may see a reset connection instead of the 413.
            discard(body).await;
        }
        return wire::request_too_large_response(declared, &request_id);
    }
    let bytes = match read_body(body, declared).await {
        BodyRead::Complete(bytes) => bytes,
        BodyRead::TooLarge => {
            tracing::debug!(%request_id, "request body too large");
            return wire::request_too_large_response(None, &request_id);
        }
        BodyRead::Failed(err) => {
            // The client went away or sent a broken chunked body; it is unlikely to read this.
            tracing::debug!(%request_id, %err, "request body could not be read");
            let err = ApiError::new(
                ErrorKind::SerializationException,
                "The request body could not be read",
            );
            return wire::api_error_response(&err, &request_id);
        }
    };

    let target = parts.headers.get("x-amz-target").map(HeaderValue::as_bytes);
    let Some((api, operation)) = wire::operation_of_target(target) else {
        tracing::debug!(%request_id, target = ?target.map(String::from_utf8_lossy), "unknown target");
        let err = ApiError::new(ErrorKind::UnknownOperationException, "");
        return wire::api_error_response(&err, &request_id);
    };
    let operation = operation.to_owned();

    // The region the client signed for (SigV4 credential scope); its ARNs report it.
    let region = parts
        .headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(dynotable_engine::identity::region_of_authorization)
        .unwrap_or(dynotable_engine::identity::DEFAULT_REGION)
        .to_owned();
    let buffers = std::sync::Arc::clone(engine.page_buffers());
    // Run to completion even if the client hangs up, and a panic stays in this request.
    let call = {
        let operation = operation.clone();
        async move {
            match api {
                wire::Api::DynamoDb => engine.call_in(&region, &operation, &bytes).await,
                wire::Api::Streams => engine.call_streams_in(&region, &operation, &bytes).await,
            }
        }
    };
    let result = match run_to_completion(call).await {
        Ok(result) => result,
        Err(Panicked) => {
            tracing::error!(%request_id, %operation, "the engine failed while serving a request");
            Err(ApiError::new(
                ErrorKind::InternalServerError,
                "Internal server error",
            ))
        }
    };
    let response = match result {
        Ok(body) => wire::engine_response(StatusCode::OK, body, &request_id, &buffers),
        Err(err) => wire::api_error_response(&err, &request_id),
    };
    tracing::debug!(
        %request_id,
        %operation,
        status = response.status().as_u16(),
        elapsed_us = started.elapsed().as_micros() as u64,
        "request served"
    );
    response
}

/// An engine call that panicked (or whose task the runtime dropped at shutdown).
#[derive(Debug)]
struct Panicked;

/// Runs `call` to its end whether or not the caller keeps waiting, and catches its panic.
///
/// It is polled once right here, on the connection's task: a call that completes without
/// waiting (a GetItem or a Query answered from the item cache, a DescribeTable) so costs no
/// hand-off to another task, which on the multi-thread runtime means waking another worker
/// thread (a futex wake and, on a small machine, a context switch) for every request. A call
/// that has to wait (for SQLite, for the writer) is moved, still pending, into a task of its
/// own in the same poll — nothing can cancel it between the two — and awaited there: a client
/// that hangs up drops only the waiting, never a write half-way.
async fn run_to_completion<F>(call: F) -> Result<F::Output, Panicked>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::task::Poll;
    let mut call = Box::pin(call);
    // A future that panicked is never polled again (it is dropped below), so whatever state the
    // panic left it in is never observed: unwind safety holds.
    let first =
        std::future::poll_fn(|cx| Poll::Ready(catch_unwind(AssertUnwindSafe(|| call.as_mut().poll(cx)))))
            .await;
    match first {
        Ok(Poll::Ready(output)) => Ok(output),
        Ok(Poll::Pending) => tokio::spawn(call).await.map_err(|_| Panicked),
        Err(_) => Err(Panicked),
    }
}

/// The body length the client declared, if it declared one that parses.
fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(CONTENT_LENGTH)?.to_str().ok()?.trim().parse().ok()
}

enum BodyRead {
    Complete(Vec<u8>),
    TooLarge,
    Failed(axum::Error),
}

/// Reads a request body of at most [`wire::MAX_REQUEST_BYTES`]. A larger one is read on and
/// dropped (see [`discard`]) so that the client, still sending, gets to read the refusal.
async fn read_body(mut body: Body, declared: Option<u64>) -> BodyRead {
    let capacity = declared.map_or(0, |length| length.min(wire::MAX_REQUEST_BYTES as u64) as usize);
    let mut bytes = Vec::with_capacity(capacity);
    while let Some(frame) = body.frame().await {
        let frame = match frame {
            Ok(frame) => frame,
            Err(err) => return BodyRead::Failed(err),
        };
        if let Some(data) = frame.data_ref() {
            if bytes.len() + data.len() > wire::MAX_REQUEST_BYTES {
                discard(body).await;
                return BodyRead::TooLarge;
            }
            bytes.extend_from_slice(data);
        }
    }
    BodyRead::Complete(bytes)
}

/// Reads and drops what is left of a refused body, for at most 64 MB and 10 seconds.
async fn discard(mut body: Body) {
    const MAX_DISCARD: usize = 64 * 1024 * 1024;
    let drain = async {
        let mut seen = 0usize;
        while let Some(Ok(frame)) = body.frame().await {
            if let Some(data) = frame.data_ref() {
                seen += data.len();
                if seen > MAX_DISCARD {
                    break;
                }
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(10), drain).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    // The test body runs outside any task (`block_on`), so `try_id` tells where a call runs:
    // `None` in place, `Some` in a task of its own.

    #[tokio::test]
    async fn a_call_that_does_not_wait_is_answered_in_place() {
        let task = run_to_completion(async { tokio::task::try_id() }).await;
        assert!(matches!(task, Ok(None)), "{task:?}");
    }

    #[tokio::test]
    async fn a_call_that_waits_finishes_in_its_own_task() {
        let result = run_to_completion(async {
            let first = tokio::task::try_id();
            tokio::time::sleep(Duration::from_millis(5)).await;
            (first, tokio::task::try_id(), 7)
        })
        .await;
        let Ok((first, then, 7)) = result else {
            panic!("the call did not complete");
        };
        assert!(first.is_none() && then.is_some(), "{first:?} {then:?}");
    }

    #[tokio::test]
    async fn a_call_is_not_cancelled_when_its_caller_stops_waiting() {
        let finished = Arc::new(AtomicBool::new(false));
        let (started_tx, started_rx) = tokio::sync::oneshot::channel();
        let waiting = tokio::spawn(run_to_completion({
            let finished = finished.clone();
            async move {
                let _ = started_tx.send(());
                tokio::time::sleep(Duration::from_millis(50)).await;
                finished.store(true, Ordering::SeqCst);
            }
        }));
        started_rx.await.unwrap();
        // The client hangs up: the request's future is dropped while the call waits.
        waiting.abort();
        let _ = waiting.await;
        assert!(!finished.load(Ordering::SeqCst));
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            finished.load(Ordering::SeqCst),
            "the call was cancelled with its caller"
        );
    }

    #[tokio::test]
    async fn a_panic_before_or_after_the_first_wait_is_caught() {
        let before = run_to_completion(async {
            if std::hint::black_box(true) {
                panic!("engine bug (expected by this test)");
            }
        })
        .await;
        assert!(before.is_err());
        let after = run_to_completion(async {
            tokio::task::yield_now().await;
            if std::hint::black_box(true) {
                panic!("engine bug (expected by this test)");
            }
        })
        .await;
        assert!(after.is_err());
    }
}
