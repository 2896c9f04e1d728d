//! `dynotable-local`: DynoTable's engine behind DynamoDB's JSON wire protocol, so that any AWS SDK,
//! the AWS CLI or a test suite can use it as a local DynamoDB endpoint.
//!
//! # The life of a request
//!
//! 1. **Listening.** [`cli::main`] opens the engine (a SQLite file, or in memory), binds a TCP
//!    listener (127.0.0.1:8000 unless told otherwise; port 0 picks a free port), installs the
//!    SIGINT/SIGTERM handlers, and only then prints its one line to stdout,
//!    `dynotable-local listening on http://HOST:PORT`, so whoever waits for that line can connect.
//!    [`serve_with`] runs the connection loop (module `connections`): at most
//!    `--max-connections` connections at once (the next waits in the kernel's backlog),
//!    `TCP_NODELAY` on, each connection served by hyper's HTTP/1.1 server with keep-alive. The
//!    request head (at most `--max-header-bytes`, else `431` from hyper) must arrive within
//!    `--header-timeout` of the connection starting to wait for it, which also closes a
//!    kept-alive connection that sends nothing more; an answer the client stops taking closes
//!    the connection after `--idle-timeout`. With `--spin-us N` (module `busy_poll`) a
//!    connection that has just answered keeps polling its socket for up to N µs before its
//!    worker sleeps, so that a client taking turns with the server costs no wake-up.
//!
//! 2. **Host and CORS.** A request whose `Host` header does not name this endpoint (module
//!    [`host`]: `localhost`, `127.0.0.1`, `[::1]`, the bound address, `--allow-host` names) is
//!    refused first, whatever it asks, with a 400 `AccessDeniedException`: a browser page
//!    reaching loopback through a re-pointed DNS name (DNS rebinding) names its own host there.
//!    Then, unless `--no-cors`, tower-http's CORS layer answers a browser's preflight (`OPTIONS`
//!    with `Origin` and `Access-Control-Request-Method`: 200, the methods served (POST, GET,
//!    HEAD) and the asked headers allowed, `Access-Control-Max-Age: 172800`) and marks every answer to a request with an
//!    `Origin` `Access-Control-Allow-Origin: *`, as the service does.
//!
//! 3. **Routing.** Everything a client sends goes to `POST /`, exactly as the SDKs do: the
//!    operation is in the header `X-Amz-Target: DynamoDB_20120810.<Operation>`, the request in
//!    the JSON body. `GET` on any path is the health check, `healthy: dynamodb.<region>.amazonaws.com `
//!    as the service words it; any other method, or `POST` on another path, is the service's
//!    `404` with an `<UnknownOperationException/>` body. A turn among `--max-in-flight`
//!    requests is taken before the body is read; more wait.
//!
//! 4. **Reading the body.** At most [`wire::MAX_REQUEST_BYTES`] (16 MB, the service's request
//!    limit), within `--body-timeout` (else `408` and the connection closed). A larger request,
//!    whether declared by `Content-Length` or found while reading, gets the service's `413`
//!    with an empty body, and the connection is closed. A body in a content type other than
//!    `application/x-amz-json-1.0` or `application/json` is the service's `404`.
//!
//! 5. **Decompressing.** A `Content-Encoding: gzip` body (an SDK with request compression on)
//!    is decompressed, to at most 16 MB again ([`wire::gunzip`]), unless `--no-gzip`. This is
//!    done here rather than by a decompression layer because the signature (step 7) covers the
//!    body as sent, compressed.
//!
//! 6. **The target.** [`wire::operation_of_target`] takes the operation out of `X-Amz-Target`.
//!    A missing header, another service's prefix, or a malformed name answers
//!    `UnknownOperationException`, as the service does. With `--auth` the body is first checked
//!    to be JSON (`SerializationException`), as the service reads it before the target.
//!
//! 7. **Authentication.** Without `--auth`, like DynamoDB Local, any signature or none is
//!    accepted. With `--auth ACCESS_KEY:SECRET` module [`sigv4`] recomputes the SigV4 signature
//!    over the method, path, query, signed headers and the body as sent, and refuses with the
//!    service's `MissingAuthenticationTokenException`, `IncompleteSignatureException`,
//!    `UnrecognizedClientException` (another access key) or `InvalidSignatureException` (a
//!    wrong signature, a clock more than 15 minutes off).
//!
//! 8. **The engine.** `Engine::call_in(region, operation, body)` deserialises the body
//!    (malformed JSON is its `SerializationException`), validates, runs the operation and
//!    serialises the response; `region` is the one the `Authorization` header's SigV4
//!    credential scope names (`local` without one), which the answer's ARNs report.
//!    The call is polled first on the connection's task (a call answered from memory costs no
//!    hand-off) and moved into a task of its own at its first wait, so a client that hangs up
//!    does not cancel a write half-way; a bug that panics becomes a 500 `InternalServerError`
//!    for that request alone.
//!
//! 9. **The response.** [`wire::json_response`]: status 200 and the engine's JSON, or the error
//!    as `{"__type":"<namespace>#<Name>","message":"..."}` with the error's status (400; 500 only
//!    for `InternalServerError`) plus `Item` on a `ConditionalCheckFailedException` that asked
//!    for it. Every response carries `Content-Type: application/x-amz-json-1.0` (or
//!    `application/json` when the request came in that), `x-amz-crc32` (the CRC32 of the body,
//!    which botocore verifies) and a fresh `x-amzn-RequestId`.
//!
//! 10. **Shutdown.** On SIGINT or SIGTERM the listener stops accepting, idle keep-alive
//!     connections are closed, requests in flight finish (for at most [`cli::SHUTDOWN_GRACE`]),
//!     and the engine is closed, which checkpoints SQLite's write-ahead log. A write is
//!     acknowledged only after its `COMMIT` returned (WAL, `synchronous = NORMAL` by default), so
//!     even `kill -9` loses nothing that a client was told succeeded; `--durability power-loss`
//!     (`synchronous = FULL`) also survives a power cut, at an fsync per commit.
//!
//! The app's share port (`dynotable-app`, `sharing`) serves the same application through
//! [`serve_with`], with its own [`ServeOptions`]; the app's in-process client uses [`router`],
//! which has no Host check, no signature check and no CORS.
//!
//! Errors of the server itself (cannot bind, cannot open the database) are [`ServerError`];
//! errors a client sees are the engine's `ApiError`, rendered in [`wire`].

mod busy_poll;
pub mod cli;
mod connections;
mod error;
pub mod host;
mod request_id;
pub mod sigv4;
pub mod wire;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, EXPECT, HOST};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::post;
use dynotable_engine::{ApiError, Engine, ErrorKind};
use http_body_util::BodyExt;

pub use connections::Limits;
pub use error::ServerError;
pub use host::AllowedHosts;
use request_id::new_request_id;
pub use sigv4::Credentials;

/// How a local endpoint serves: everything `dynotable-local`'s flags set, and what the app's
/// share port sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// How long a connection spins on its socket after each answer (module `busy_poll`); zero
    /// never spins.
    pub spin: Duration,
    /// Connection cap, timeouts, requests in flight ([`Limits`]).
    pub limits: Limits,
    /// Verify SigV4 signatures against this key (step 6); `None` accepts any signature or none.
    pub auth: Option<Credentials>,
    /// Host names answered besides loopback and the bound address (step 2).
    pub allow_hosts: Vec<String>,
    /// Accept `Content-Encoding: gzip` request bodies (step 5).
    pub gzip: bool,
    /// Answer CORS preflights from, and mark answers readable by, pages on loopback origins and
    /// on `cors_origins` (step 2).
    pub cors: bool,
    /// Origins besides loopback's that CORS admits (`*`: every origin).
    pub cors_origins: Vec<String>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            spin: Duration::ZERO,
            limits: Limits::default(),
            auth: None,
            allow_hosts: Vec::new(),
            gzip: true,
            cors: true,
            cors_origins: Vec::new(),
        }
    }
}

/// What the API handler needs besides the request.
struct Endpoint {
    engine: Engine,
    auth: Option<Credentials>,
    gzip: bool,
    body_timeout: Duration,
    /// Requests in flight, past their head and until their answer is ready.
    in_flight: tokio::sync::Semaphore,
}

/// The HTTP application for a caller in the same process (the app's in-process AWS client, tests):
/// health on `GET`, the DynamoDB API on `POST /`, gzip bodies accepted; no Host check, no
/// signature check, no CORS, no bound on requests in flight beyond the engine's.
pub fn router(engine: Engine) -> Router {
    application(
        engine,
        &ServeOptions {
            cors: false,
            limits: Limits {
                max_in_flight: tokio::sync::Semaphore::MAX_PERMITS,
                ..Limits::default()
            },
            ..ServeOptions::default()
        },
        None,
    )
}

/// The application a listener serves: [`router`]'s, plus the Host check (outermost) and CORS.
fn application(engine: Engine, options: &ServeOptions, hosts: Option<AllowedHosts>) -> Router {
    let endpoint = Arc::new(Endpoint {
        engine,
        auth: options.auth.clone(),
        gzip: options.gzip,
        body_timeout: options.limits.body_timeout,
        in_flight: tokio::sync::Semaphore::new(options.limits.max_in_flight.max(1)),
    });
    let mut app = Router::new()
        .route("/", post(api).fallback(other_method))
        .fallback(other_method)
        .with_state(endpoint);
    if options.cors {
        // The service answers an OPTIONS without an Origin 404, as any other method; the CORS
        // layer would answer it as a preflight.
        app = app
            .layer(cors(&options.cors_origins))
            .layer(axum::middleware::from_fn(options_without_origin));
    }
    if let Some(hosts) = hosts {
        app = app.layer(axum::middleware::from_fn_with_state(Arc::new(hosts), check_host));
    }
    app
}

/// Serves on `listener` with [`ServeOptions::default`] until `shutdown` completes, then lets the
/// requests in flight finish. Does not close the engine: the caller owns it.
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Engine,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    serve_with(listener, engine, ServeOptions::default(), shutdown).await
}

/// [`serve`] with `options`: the Host check for the listener's address, the signature check,
/// the limits, gzip and CORS as set there.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    engine: Engine,
    options: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let local = listener.local_addr().map_err(ServerError::Serve)?;
    let hosts = AllowedHosts::new(local, &options.allow_hosts);
    let app = application(engine, &options, Some(hosts));
    let listener = busy_poll::SpinningListener::new(listener, options.spin);
    connections::serve(listener, app, options.limits, shutdown).await;
    Ok(())
}

/// Step 2: a request whose `Host` does not name this endpoint is refused, whatever it asks.
async fn check_host(State(hosts): State<Arc<AllowedHosts>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(HOST)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
    if host.as_deref().is_some_and(|host| hosts.allows(host)) {
        return next.run(request).await;
    }
    tracing::debug!(?host, "refused a request for another host name");
    let message = match host {
        Some(host) => format!(
            "The Host header '{host}' does not name this endpoint, which answers only to {}: a request \
             through another host name is refused, as it may come from a web page by DNS rebinding \
             (dynotable-local --allow-host NAME adds a name)",
            hosts.describe()
        ),
        None => format!(
            "The request has no Host header; this endpoint answers only to {}",
            hosts.describe()
        ),
    };
    let body = wire::error_body(wire::HOST_REFUSED_TYPE, &message, None, None);
    wire::json_response(StatusCode::BAD_REQUEST, body, &new_request_id())
}

/// An `OPTIONS` that is no browser's preflight (it has no `Origin`) is the service's `404`.
async fn options_without_origin(request: Request, next: Next) -> Response {
    if request.method() == Method::OPTIONS && !request.headers().contains_key(axum::http::header::ORIGIN) {
        return wire::not_found_response(&new_request_id());
    }
    next.run(request).await
}

/// The request headers a browser SDK sends, which a preflight must allow (the layer mirrors
/// whatever is asked), and the response headers it reads. Only pages served from this machine
/// (loopback origins: a browser SDK app under development) and the origins named with
/// `--cors-origin` may read the answers: a local endpoint checks no signature by default, so
/// admitting every origin would let any web page the user opens read and change the tables.
fn cors(extra: &[String]) -> tower_http::cors::CorsLayer {
    use tower_http::cors::{AllowHeaders, AllowMethods, AllowOrigin, CorsLayer};
    let origins = if extra.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        let extra: Vec<String> = extra
            .iter()
            .map(|o| o.trim_end_matches('/').to_ascii_lowercase())
            .collect();
        AllowOrigin::predicate(move |origin, _| {
            origin
                .to_str()
                .is_ok_and(|o| loopback_origin(o) || extra.iter().any(|e| e.eq_ignore_ascii_case(o)))
        })
    };
    CorsLayer::new()
        .allow_origin(origins)
        // The methods served, whatever the preflight asks for: POST for the API, GET and HEAD
        // for the health check (a preflight for DELETE gets this list, and the browser refuses).
        .allow_methods(AllowMethods::list([Method::POST, Method::GET, Method::HEAD]))
        .allow_headers(AllowHeaders::mirror_request())
        // What an SDK reads from an answer: the request id, the error type where a server sends
        // it as a header (the body's `__type` is what this one sends), and the body's CRC32.
        .expose_headers([
            HeaderName::from_static("x-amzn-requestid"),
            HeaderName::from_static("x-amzn-errortype"),
            HeaderName::from_static("x-amz-crc32"),
        ])
        // The service's (two days).
        .max_age(Duration::from_secs(172_800))
}

/// `http(s)://localhost`, `127.0.0.1` or `[::1]`, on any port.
fn loopback_origin(origin: &str) -> bool {
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match rest.strip_prefix('[') {
        Some(v6) => v6.split(']').next().map(|h| format!("[{h}]")).unwrap_or_default(),
        None => rest.split(':').next().unwrap_or_default().to_owned(),
    };
    let after = &rest[host.len().min(rest.len())..];
    let port_ok = after.is_empty()
        || after
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    port_ok
        && matches!(
            host.to_ascii_lowercase().as_str(),
            "localhost" | "127.0.0.1" | "[::1]"
        )
}

#[cfg(test)]
mod cors_tests {
    use super::loopback_origin;

    #[test]
    fn only_pages_served_from_this_machine_are_loopback_origins() {
        for yes in [
            "http://localhost",
            "http://localhost:5173",
            "https://127.0.0.1:8443",
            "http://[::1]:3000",
            "http://LOCALHOST:1",
        ] {
            assert!(loopback_origin(yes), "{yes}");
        }
        for no in [
            "http://localhost.evil.example",
            "http://127.0.0.1.nip.io",
            "https://example.com",
            "http://localhost:",
            "http://localhost:80x",
            "null",
            "file://",
            "http://[::2]:3000",
        ] {
            assert!(!loopback_origin(no), "{no}");
        }
    }
}

/// `GET` (any path) is the health check; every other method, and `POST` elsewhere than `/`,
/// is answered `404` with the service's `<UnknownOperationException/>` body.
async fn other_method(method: Method, headers: HeaderMap) -> Response {
    if method == Method::GET || method == Method::HEAD {
        return health(&headers);
    }
    wire::not_found_response(&new_request_id())
}

/// `healthy: dynamodb.<region>.amazonaws.com ` (with its trailing space, as the service sends
/// it), the region being the one the request was signed for, if it was, else `local`.
fn health(headers: &HeaderMap) -> Response {
    let region = signed_region(headers);
    let body = format!("healthy: dynamodb.{region}.amazonaws.com ");
    wire::text_response(StatusCode::OK, body.into_bytes(), &new_request_id())
}

/// The region of the SigV4 credential scope, or `local`.
fn signed_region(headers: &HeaderMap) -> String {
    headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(dynotable_engine::identity::region_of_authorization)
        .unwrap_or(dynotable_engine::identity::DEFAULT_REGION)
        .to_owned()
}

/// The content types a body may come in: the service answers a body of any other `404`.
fn acceptable_content_type(headers: &HeaderMap) -> Option<&'static str> {
    let value = headers.get(CONTENT_TYPE)?;
    let essence = String::from_utf8_lossy(value.as_bytes());
    let essence = essence.split(';').next().unwrap_or_default().trim();
    match essence {
        "application/x-amz-json-1.0" => Some(wire::CONTENT_TYPE_JSON),
        "application/json" => Some("application/json"),
        _ => None,
    }
}

/// One DynamoDB API call: steps 3 to 9 of the module documentation.
async fn api(State(endpoint): State<Arc<Endpoint>>, request: Request) -> Response {
    let Ok(_turn) = endpoint.in_flight.acquire().await else {
        return wire::api_error_response(
            &ApiError::new(ErrorKind::InternalServerError, "Internal server error"),
            &new_request_id(),
        );
    };
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
        return wire::request_too_large_response();
    }
    let read = tokio::time::timeout(endpoint.body_timeout, read_body(body, declared)).await;
    let bytes = match read {
        Ok(BodyRead::Complete(bytes)) => bytes,
        Ok(BodyRead::TooLarge) => {
            tracing::debug!(%request_id, "request body too large");
            return wire::request_too_large_response();
        }
        Ok(BodyRead::Failed(err)) => {
            // The client went away or sent a broken chunked body; it is unlikely to read this.
            tracing::debug!(%request_id, %err, "request body could not be read");
            let err = ApiError::new(
                ErrorKind::SerializationException,
                "The request body could not be read",
            );
            return wire::api_error_response(&err, &request_id);
        }
        Err(_) => {
            tracing::debug!(%request_id, "request body not received in time");
            return wire::body_timeout_response(endpoint.body_timeout, &request_id);
        }
    };

    let content_type = acceptable_content_type(&parts.headers);
    if !bytes.is_empty() && content_type.is_none() {
        return wire::not_found_response(&request_id);
    }

    // The body the engine reads: as sent, or decompressed.
    let gzipped = endpoint.gzip
        && parts
            .headers
            .get(CONTENT_ENCODING)
            .is_some_and(|value| matches!(value.as_bytes().trim_ascii(), b"gzip" | b"x-gzip" | b"GZIP"));
    let decoded = if gzipped {
        match wire::gunzip(&bytes) {
            Ok(decoded) => Some(decoded),
            Err(wire::Gunzip::TooLarge) => return wire::request_too_large_response(),
            Err(wire::Gunzip::Corrupt) => {
                let err = ApiError::new(
                    ErrorKind::SerializationException,
                    "The request body is not valid gzip",
                );
                return wire::api_error_response(&err, &request_id);
            }
        }
    } else {
        None
    };
    let json = decoded.as_deref().unwrap_or(&bytes);

    if endpoint.auth.is_some()
        && !json.is_empty()
        && serde_json::from_slice::<serde::de::IgnoredAny>(json).is_err()
    {
        // The service reads the body before it looks at the target or the signature.
        let err = ApiError::new(ErrorKind::SerializationException, "");
        return wire::api_error_response(&err, &request_id);
    }

    let target = parts.headers.get("x-amz-target").map(HeaderValue::as_bytes);
    let Some((api, operation)) = wire::operation_of_target(target) else {
        tracing::debug!(%request_id, target = ?target.map(String::from_utf8_lossy), "unknown target");
        let err = ApiError::new(ErrorKind::UnknownOperationException, "");
        return wire::api_error_response(&err, &request_id);
    };
    let operation = operation.to_owned();

    if let Some(credentials) = &endpoint.auth {
        let signed = sigv4::Signed {
            method: &parts.method,
            uri: &parts.uri,
            headers: &parts.headers,
            body: &bytes,
        };
        if let Err(refusal) = sigv4::verify(&signed, credentials, SystemTime::now()) {
            tracing::debug!(%request_id, exception = refusal.name, "signature refused");
            let body = wire::error_body(&refusal.error_type(), &refusal.message, None, None);
            return wire::json_response(StatusCode::BAD_REQUEST, body, &request_id);
        }
    }

    // The region the client signed for (SigV4 credential scope); its ARNs report it.
    let region = signed_region(&parts.headers);
    let engine = endpoint.engine.clone();
    let buffers = Arc::clone(engine.page_buffers());
    let bytes = match decoded {
        Some(decoded) => decoded,
        None => bytes,
    };
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
    let mut response = match result {
        Ok(body) => wire::engine_response(StatusCode::OK, body, &request_id, &buffers),
        Err(err) => wire::api_error_response(&err, &request_id),
    };
    if content_type == Some("application/json") {
        // The service answers in the content type it was asked in.
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
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
        let (release_tx, release_rx) = tokio::sync::oneshot::channel::<()>();
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let waiting = tokio::spawn(run_to_completion({
            let finished = finished.clone();
            async move {
                let _ = started_tx.send(());
                // The call goes on only once its caller is gone.
                let _ = release_rx.await;
                finished.store(true, Ordering::SeqCst);
                let _ = done_tx.send(());
            }
        }));
        started_rx.await.unwrap();
        // The client hangs up: the request's future is dropped while the call waits.
        waiting.abort();
        let _ = waiting.await;
        assert!(!finished.load(Ordering::SeqCst));
        let _ = release_tx.send(());
        let done = tokio::time::timeout(Duration::from_secs(30), done_rx).await;
        assert!(
            matches!(done, Ok(Ok(()))) && finished.load(Ordering::SeqCst),
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
