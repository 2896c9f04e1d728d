//! The local endpoint defends itself (issue 19.4) and speaks the wire as browsers and SDKs use it
//! (issue 18.6): the real `dynotable-local` on a loopback port, attacked with raw sockets (slow
//! headers, 64 KB headers, thousands of connections, oversized and stalled bodies, foreign Host
//! names) while a real client, the AWS SDK for Rust, must stay served; SigV4 checked with
//! `--auth`; gzip bodies; CORS preflights.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

const BIN: &str = env!("CARGO_BIN_EXE_dynotable-local");

/// A running `dynotable-local`, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["--port", "0", "--in-memory"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dynotable-local starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut server = Server {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let url = line
            .trim_end()
            .strip_prefix("dynotable-local listening on http://")
            .unwrap_or_else(|| panic!("no ready line but {line:?}"));
        server.addr = url.parse().unwrap();
        server
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream
    }

    /// One raw request on a fresh connection: its status, headers (lower-case names) and body.
    fn raw(&self, head: &str, body: &[u8]) -> Answer {
        let mut stream = self.connect();
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        read_answer(&mut BufReader::new(stream)).expect("an answer")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Reads one HTTP/1.1 answer (with a Content-Length body); `None` if the connection closed first.
fn read_answer(reader: &mut BufReader<TcpStream>) -> Option<Answer> {
    let mut status_line = String::new();
    if reader.read_line(&mut status_line).ok()? == 0 {
        return None;
    }
    let status = status_line.split(' ').nth(1)?.parse().ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Answer {
        status,
        headers,
        body,
    })
}

/// A POST of `operation` with `body`, naming `host`, with the extra header lines `extra`.
fn post(host: &str, operation: &str, extra: &str, body: &[u8]) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nX-Amz-Target: DynamoDB_20120810.{operation}\r\n\
         Content-Type: application/x-amz-json-1.0\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    )
}

/// Whether the server closed `stream` (a read sees the end, or a reset) within `within`.
fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut sink = [0u8; 4096];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false;
            }
            Err(_) => return true,
        }
    }
}

fn sdk(url: &str, access_key: &str, secret: &str) -> Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("eu-west-1"))
        .credentials_provider(Credentials::new(access_key, secret, None, None, "endpoint-tests"))
        .endpoint_url(url)
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .timeout_config(
            aws_sdk_dynamodb::config::timeout::TimeoutConfig::builder()
                .operation_timeout(Duration::from_secs(10))
                .build(),
        )
        .build();
    Client::from_conf(config)
}

/// The SDK client is served `times` times in a row (each a fresh ListTables, a PutItem and a
/// GetItem); returns the slowest round.
async fn stays_served(client: &Client, times: usize) -> Duration {
    let _ = client
        .create_table()
        .table_name("Pets")
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
        .attribute_definitions(
            aws_sdk_dynamodb::types::AttributeDefinition::builder()
                .attribute_name("pk")
                .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                .build()
                .unwrap(),
        )
        .key_schema(
            aws_sdk_dynamodb::types::KeySchemaElement::builder()
                .attribute_name("pk")
                .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                .build()
                .unwrap(),
        )
        .send()
        .await;
    let mut slowest = Duration::ZERO;
    for i in 0..times {
        let started = Instant::now();
        let tables = client.list_tables().send().await.expect("ListTables is served");
        assert_eq!(tables.table_names(), ["Pets"]);
        let value = aws_sdk_dynamodb::types::AttributeValue::S(format!("pet-{i}"));
        client
            .put_item()
            .table_name("Pets")
            .item("pk", value.clone())
            .send()
            .await
            .expect("PutItem is served");
        let got = client
            .get_item()
            .table_name("Pets")
            .key("pk", value.clone())
            .send()
            .await
            .expect("GetItem is served");
        assert_eq!(got.item().and_then(|item| item.get("pk")), Some(&value));
        slowest = slowest.max(started.elapsed());
    }
    slowest
}

// ---------------------------------------------------------------------------------------------
// Host (DNS rebinding)

#[test]
fn a_request_naming_another_host_is_refused() {
    let server = Server::start(&["--allow-host", "dynamo.test"]);
    let port = server.addr.port();
    for host in [
        format!("evil.example:{port}"),
        "evil.example".to_owned(),
        format!("localhost.evil.example:{port}"),
    ] {
        let answer = server.raw(&post(&host, "ListTables", "", b"{}"), b"{}");
        assert_eq!(answer.status, 400, "{host}");
        let body = answer.json();
        assert_eq!(
            body["__type"], "com.amazon.coral.service#AccessDeniedException",
            "{host}"
        );
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("The Host header '{host}' does not name this endpoint")),
            "{message}"
        );
        assert!(message.contains("DNS rebinding"), "{message}");
        assert!(answer.header("x-amzn-requestid").is_some());
        // The health check and a CORS preflight too: the Host check comes first.
        let answer = server.raw(&format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n"), b"");
        assert_eq!(answer.status, 400);
        let answer = server.raw(
            &format!(
                "OPTIONS / HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nAccess-Control-Request-Method: POST\r\n\r\n"
            ),
            b"",
        );
        assert_eq!(answer.status, 400);
        assert_eq!(answer.header("access-control-allow-origin"), None);
    }
    // No Host at all (HTTP/1.0).
    let answer = server.raw("GET / HTTP/1.0\r\n\r\n", b"");
    assert_eq!(answer.status, 400);
    assert!(
        answer.json()["message"]
            .as_str()
            .unwrap()
            .starts_with("The request has no Host header")
    );

    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        format!("dynamo.test:{port}"),
        "localhost".to_owned(),
    ] {
        let answer = server.raw(&post(&host, "ListTables", "", b"{}"), b"{}");
        assert_eq!(
            (answer.status, answer.json()),
            (200, serde_json::json!({"TableNames": []})),
            "{host}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Slow clients, large heads, many connections, large and stalled bodies

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_sending_a_byte_a_second_is_cut_off_and_others_stay_served() {
    let server = Server::start(&["--header-timeout", "3"]);
    let mut slow = server.connect();
    let mut reader = slow.try_clone().unwrap();
    let head = post(
        &format!("localhost:{}", server.addr.port()),
        "ListTables",
        "",
        b"{}",
    );
    let sender = std::thread::spawn(move || {
        let started = Instant::now();
        for byte in head.as_bytes() {
            if slow.write_all(&[*byte]).is_err() {
                break;
            }
            std::thread::sleep(Duration::from_secs(1));
        }
        started.elapsed()
    });
    let client = sdk(&server.url(), "AKID", "secret");
    let slowest = stays_served(&client, 20).await;
    assert!(
        slowest < Duration::from_secs(2),
        "a served round took {slowest:?}"
    );
    let started = Instant::now();
    assert!(
        closed_within(&mut reader, Duration::from_secs(10)),
        "the slow client was never cut off"
    );
    let sender_ran = sender.join().unwrap();
    // Cut off at the timeout (3 s after the connection started waiting), long before its ~110
    // bytes at one a second were in.
    assert!(sender_ran < Duration::from_secs(15), "{sender_ran:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
    stays_served(&client, 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let server = Server::start(&["--header-timeout", "1"]);
    let mut conn = server.connect();
    let head = post("localhost", "ListTables", "", b"{}");
    conn.write_all(head.as_bytes()).unwrap();
    conn.write_all(b"{}").unwrap();
    let answer = read_answer(&mut BufReader::new(conn.try_clone().unwrap())).unwrap();
    assert_eq!(answer.status, 200);
    let started = Instant::now();
    assert!(closed_within(&mut conn, Duration::from_secs(5)));
    let idle = started.elapsed();
    assert!(
        idle >= Duration::from_millis(800) && idle < Duration::from_secs(4),
        "{idle:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_kb_head_is_answered_431_and_others_stay_served() {
    let server = Server::start(&[]);
    let client = sdk(&server.url(), "AKID", "secret");
    stays_served(&client, 1).await;
    let padding = "a".repeat(64 * 1024);
    let mut big = server.connect();
    let head = format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nX-Padding: {padding}\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    // The server may close before it has read everything: a write error is fine.
    let _ = big.write_all(head.as_bytes());
    let answer = read_answer(&mut BufReader::new(big.try_clone().unwrap())).expect("an answer");
    assert_eq!(answer.status, 431);
    assert!(closed_within(&mut big, Duration::from_secs(5)));
    // A request line of 64 KB: the same.
    let mut long = server.connect();
    let _ = long.write_all(format!("GET /{padding} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes());
    let answer = read_answer(&mut BufReader::new(long)).expect("an answer");
    assert_eq!(answer.status, 431);
    // A 12 KB header (a large session token, say) is still within the 16 KB head.
    let token = "t".repeat(12 * 1024);
    let answer = server.raw(
        &post(
            "localhost",
            "ListTables",
            &format!("X-Amz-Security-Token: {token}\r\n"),
            b"{}",
        ),
        b"{}",
    );
    assert_eq!(answer.status, 200);
    stays_served(&client, 5).await;
}

/// Opens up to `count` connections to `addr` and sends nothing on them; returns those that
/// connected.
fn open_idle(addr: SocketAddr, count: usize) -> Vec<TcpStream> {
    let mut open = Vec::with_capacity(count);
    for _ in 0..count {
        // Generous: on a busy machine the server accepts a few hundred a second, and a connect
        // that finds the accept queue full is retried by the kernel after 1, 3, 7 s.
        match TcpStream::connect_timeout(&addr, Duration::from_secs(15)) {
            Ok(stream) => open.push(stream),
            Err(err) => panic!("connection {} failed: {err}", open.len()),
        }
    }
    open
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_thousand_idle_connections_leave_the_server_serving() {
    // The default cap (8,192) is above the flood: every connection is accepted, none is served
    // anything, and the SDK's own connection is served beside them.
    let server = Server::start(&[]);
    let client = sdk(&server.url(), "AKID", "secret");
    stays_served(&client, 1).await;
    let addr = server.addr;
    let flood = tokio::task::spawn_blocking(move || open_idle(addr, 5_000))
        .await
        .unwrap();
    assert_eq!(flood.len(), 5_000);
    // The SDK's pooled connection, and a new client (its connection queues behind the last of
    // the flood still waiting to be accepted).
    let slowest = stays_served(&client, 10).await;
    assert!(
        slowest < Duration::from_secs(2),
        "a served round took {slowest:?}"
    );
    let fresh = sdk(&server.url(), "AKID", "secret");
    stays_served(&fresh, 10).await;
    drop(flood);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_connection_cap_a_new_client_is_served_once_idle_ones_time_out() {
    // 5,000 connections against a cap of 100: 100 are accepted, the rest wait in the backlog
    // (or their connect times out); the header timeout frees slots, and the SDK gets one.
    let server = Server::start(&["--max-connections", "100", "--header-timeout", "1"]);
    let addr = server.addr;
    let flood = tokio::task::spawn_blocking(move || {
        let mut open = Vec::new();
        for _ in 0..5_000 {
            if let Ok(stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(20)) {
                open.push(stream);
            }
        }
        open
    })
    .await
    .unwrap();
    assert!(flood.len() >= 100, "{} connected", flood.len());
    let started = Instant::now();
    let client = sdk(&server.url(), "AKID", "secret");
    let mut served = false;
    while started.elapsed() < Duration::from_secs(60) {
        if client.list_tables().send().await.is_ok() {
            served = true;
            break;
        }
    }
    assert!(served, "not served within 60 s");
    stays_served(&client, 3).await;
    drop(flood);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_body_is_refused_and_others_stay_served() {
    let server = Server::start(&[]);
    let client = sdk(&server.url(), "AKID", "secret");
    stays_served(&client, 1).await;
    let addr = server.addr;
    let big = tokio::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let body = vec![b' '; 17 * 1024 * 1024];
        stream
            .write_all(post("localhost", "ListTables", "", &body).as_bytes())
            .unwrap();
        let _ = stream.write_all(&body);
        read_answer(&mut BufReader::new(stream)).expect("an answer")
    });
    let slowest = stays_served(&client, 10).await;
    let answer = big.await.unwrap();
    assert_eq!(answer.status, 413);
    assert!(answer.body.is_empty());
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(
        slowest < Duration::from_secs(2),
        "a served round took {slowest:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_times_out_and_holds_its_turn_only_until_then() {
    // One request in flight at a time: the stalled body holds the only turn until the body
    // timeout, then the SDK's request gets it.
    let server = Server::start(&["--max-in-flight", "1", "--body-timeout", "2"]);
    let client = sdk(&server.url(), "AKID", "secret");
    stays_served(&client, 1).await;
    let mut stalled = server.connect();
    stalled
        .write_all(post("localhost", "ListTables", "", &[b' '; 100]).as_bytes())
        .unwrap();
    stalled.write_all(b"{").unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    client
        .list_tables()
        .send()
        .await
        .expect("served after the stalled body's timeout");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1200) && waited < Duration::from_secs(6),
        "{waited:?}"
    );
    let answer = read_answer(&mut BufReader::new(stalled)).expect("an answer");
    assert_eq!(answer.status, 408);
    assert_eq!(
        answer.json()["__type"],
        "com.amazon.coral.service#RequestTimeoutException"
    );
    assert!(stays_served(&client, 3).await < Duration::from_secs(2));
}

// ---------------------------------------------------------------------------------------------
// --auth: SigV4 for real

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_auth_the_right_secret_is_served_and_others_get_the_services_errors() {
    let server = Server::start(&["--auth", "AKIDLOCAL:local-secret"]);
    let right = sdk(&server.url(), "AKIDLOCAL", "local-secret");
    stays_served(&right, 2).await;

    let err = sdk(&server.url(), "AKIDLOCAL", "wrong-secret")
        .list_tables()
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    let meta = aws_sdk_dynamodb::error::ProvideErrorMetadata::meta(&err);
    assert_eq!(meta.code(), Some("InvalidSignatureException"));
    assert_eq!(
        meta.message(),
        Some(
            "The request signature we calculated does not match the signature you provided. Check your AWS \
             Secret Access Key and signing method. Consult the service documentation for details."
        )
    );

    let err = sdk(&server.url(), "AKIDOTHER", "local-secret")
        .list_tables()
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    let meta = aws_sdk_dynamodb::error::ProvideErrorMetadata::meta(&err);
    assert_eq!(meta.code(), Some("UnrecognizedClientException"));
    assert_eq!(
        meta.message(),
        Some("The security token included in the request is invalid.")
    );

    // A clock 20 minutes behind: refused before the signature is even looked at.
    let late = std::time::SystemTime::now() - Duration::from_secs(20 * 60);
    let date = amz_date(late);
    let authorization = format!(
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIDLOCAL/{}/eu-west-1/dynamodb/aws4_request, \
         SignedHeaders=host;x-amz-date;x-amz-target, Signature=00\r\nX-Amz-Date: {date}\r\n",
        &date[..8]
    );
    let answer = server.raw(&post("localhost", "ListTables", &authorization, b"{}"), b"{}");
    assert_eq!(answer.status, 400);
    let body = answer.json();
    assert_eq!(
        body["__type"],
        "com.amazon.coral.service#InvalidSignatureException"
    );
    let message = body["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("Signature expired: {date} is now earlier than "))
            && message.ends_with(" - 15 min.)"),
        "{message}"
    );

    // No signature at all.
    let answer = server.raw(&post("localhost", "ListTables", "", b"{}"), b"{}");
    assert_eq!(
        answer.json(),
        serde_json::json!({
            "__type": "com.amazon.coral.service#MissingAuthenticationTokenException",
            "message": "Request is missing Authentication Token"
        })
    );
    // And the right client is still served.
    stays_served(&right, 1).await;
}

/// `YYYYMMDDTHHMMSSZ` of a time, by the `date` command (no date crate in the tests).
fn amz_date(at: std::time::SystemTime) -> String {
    let seconds = at.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let out = Command::new("date")
        .args(["-u", "-d", &format!("@{seconds}"), "+%Y%m%dT%H%M%SZ"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

// ---------------------------------------------------------------------------------------------
// gzip and CORS

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn gzip_bodies_are_read_unless_turned_off() {
    let server = Server::start(&[]);
    let body = gzip(br#"{"Limit":3}"#);
    let answer = server.raw(
        &post("localhost", "ListTables", "Content-Encoding: gzip\r\n", &body),
        &body,
    );
    assert_eq!(
        (answer.status, answer.json()),
        (200, serde_json::json!({"TableNames": []}))
    );
    // Not gzip after all.
    let answer = server.raw(
        &post("localhost", "ListTables", "Content-Encoding: gzip\r\n", b"{}"),
        b"{}",
    );
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    // A bomb: 20 MB of spaces in a few KB.
    let bomb = gzip(&vec![b' '; 20 * 1024 * 1024]);
    let answer = server.raw(
        &post("localhost", "ListTables", "Content-Encoding: gzip\r\n", &bomb),
        &bomb,
    );
    assert_eq!(answer.status, 413);

    let off = Server::start(&["--no-gzip"]);
    let answer = off.raw(
        &post("localhost", "ListTables", "Content-Encoding: gzip\r\n", &body),
        &body,
    );
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
}

/// The headers the AWS SDK for JavaScript sends from a browser, which its preflight asks for.
const JS_SDK_HEADERS: &str = "amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,x-amz-content-sha256,\
                              x-amz-date,x-amz-security-token,x-amz-target,x-amz-user-agent";

#[test]
fn cors_preflights_are_answered_unless_turned_off() {
    let server = Server::start(&[]);
    let preflight = format!(
        "OPTIONS / HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost:5173\r\n\
         Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: {JS_SDK_HEADERS}\r\n\r\n"
    );
    let answer = server.raw(&preflight, b"");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
    assert_eq!(answer.header("access-control-allow-methods"), Some("POST"));
    assert_eq!(
        answer.header("access-control-allow-headers"),
        Some(JS_SDK_HEADERS)
    );
    assert_eq!(answer.header("access-control-max-age"), Some("172800"));
    assert!(answer.body.is_empty());
    // The call itself: readable by the page, its request id and CRC too.
    let answer = server.raw(
        &post(
            "localhost",
            "ListTables",
            "Origin: http://localhost:5173\r\n",
            b"{}",
        ),
        b"{}",
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
    let exposed = answer
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(
        exposed.contains("x-amzn-requestid") && exposed.contains("x-amz-crc32"),
        "{exposed}"
    );

    let off = Server::start(&["--no-cors"]);
    let answer = off.raw(&preflight, b"");
    assert_eq!(answer.status, 404);
    assert_eq!(answer.header("access-control-allow-origin"), None);
    let answer = off.raw(
        &post(
            "localhost",
            "ListTables",
            "Origin: http://localhost:5173\r\n",
            b"{}",
        ),
        b"{}",
    );
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("access-control-allow-origin"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_its_answers_is_closed_after_the_idle_timeout() {
    let server = Server::start(&["--idle-timeout", "2"]);
    let client = sdk(&server.url(), "AKID", "secret");
    stays_served(&client, 1).await;
    // Ten items of 390 KB: each Scan page is about 1 MB.
    for i in 0..10 {
        client
            .put_item()
            .table_name("Pets")
            .item(
                "pk",
                aws_sdk_dynamodb::types::AttributeValue::S(format!("big-{i}")),
            )
            .item(
                "blob",
                aws_sdk_dynamodb::types::AttributeValue::S("x".repeat(390 * 1024)),
            )
            .send()
            .await
            .unwrap();
    }
    // What one Scan answers.
    let page = server.raw(
        &post("localhost", "Scan", "", br#"{"TableName":"Pets"}"#),
        br#"{"TableName":"Pets"}"#,
    );
    assert_eq!(page.status, 200);
    let all_answers = 40 * page.body.len();
    assert!(all_answers > 20 * 1024 * 1024, "{all_answers}");
    // A small receive buffer, 40 Scans sent at once, none of their answers read.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.set_recv_buffer_size(64 * 1024).unwrap();
    socket.connect(&server.addr.into()).unwrap();
    let mut stalled: TcpStream = socket.into();
    let scan = br#"{"TableName":"Pets"}"#;
    let mut requests = Vec::new();
    for _ in 0..40 {
        requests.extend_from_slice(post("localhost", "Scan", "", scan).as_bytes());
        requests.extend_from_slice(scan);
    }
    stalled.write_all(&requests).unwrap();
    // Meanwhile the SDK is served; then the stalled connection has been closed.
    let slowest = stays_served(&client, 5).await;
    assert!(
        slowest < Duration::from_secs(3),
        "a served round took {slowest:?}"
    );
    tokio::time::sleep(Duration::from_secs(5)).await;
    let read = tokio::task::spawn_blocking(move || {
        stalled.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut total = 0usize;
        let mut sink = vec![0u8; 1 << 16];
        loop {
            match stalled.read(&mut sink) {
                Ok(0) | Err(_) => return total,
                Ok(n) => total += n,
            }
        }
    })
    .await
    .unwrap();
    assert!(
        read < all_answers,
        "all {read} bytes came: the connection was never closed"
    );
    // The server itself is fine.
    let answer = server.raw(&post("localhost", "ListTables", "", b"{}"), b"{}");
    assert_eq!(answer.status, 200);
    stays_served(&client, 2).await;
}

/// The soft limit on descriptors is raised (to the hard limit at most) so that the connection
/// cap can be reached: a desktop's 1,024 (macOS: 256) would stop accepting far below 8,192.
#[cfg(target_os = "linux")]
#[test]
fn the_descriptor_limit_is_raised_towards_the_connection_cap() {
    let limits = |pid: u32| -> (u64, u64) {
        let text = std::fs::read_to_string(format!("/proc/{pid}/limits")).unwrap();
        let line = text
            .lines()
            .find(|line| line.starts_with("Max open files"))
            .unwrap();
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields[3].parse().unwrap(), fields[4].parse().unwrap_or(u64::MAX))
    };
    let (_, hard) = limits(std::process::id());
    let script = format!("ulimit -Sn 512 && exec {BIN} --port 0 --in-memory --max-connections 4000");
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("dynotable-local listening on "), "{line:?}");
    let (soft, _) = limits(child.id());
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(soft, hard.min(4000 + 256), "hard limit {hard}");
}
