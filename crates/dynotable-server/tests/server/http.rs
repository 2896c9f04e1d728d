//! The wire, seen from outside: the real `dynotable-local` binary on an ephemeral loopback port,
//! spoken to in raw HTTP/1.1 over a TCP socket, so that every byte of the protocol is visible
//! (headers, CRC32, keep-alive, refusals, shutdown). The SDK-level tests live in the black-box
//! crate under `tests/` at the repository root.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_dynotable-local");
const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// A running `dynotable-local`, killed when dropped (also when a test fails).
struct Server {
    child: Child,
    addr: SocketAddr,
    _logs: tempfile::TempDir,
    log: std::path::PathBuf,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let logs = tempfile::tempdir().unwrap();
        let log = logs.path().join("stderr.log");
        let mut child = Command::new(BIN)
            .args(["--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("dynotable-local starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        // Owned by the guard from here on: a failed check below still kills the process.
        let mut server = Server {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            child,
            _logs: logs,
            log,
        };
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let url = line
            .trim_end()
            .strip_prefix("dynotable-local listening on http://")
            .unwrap_or_else(|| panic!("no ready line but {line:?}; stderr: {}", server.stderr()));
        server.addr = url.parse().expect("HOST:PORT");
        server
    }

    fn connect(&self) -> Conn {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(20))).unwrap();
        Conn {
            reader: BufReader::new(stream),
        }
    }

    /// One API call on a fresh connection.
    fn call(&self, operation: &str, body: &str) -> Response {
        self.connect().call(operation, body)
    }

    fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([format!("-{name}"), self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Waits (bounded) for the process to exit and returns its status.
    fn wait_exit(&mut self, within: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "dynotable-local did not exit within {within:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Conn {
    reader: BufReader<TcpStream>,
}

#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The checks every DynamoDB response passes.
    fn assert_dynamodb_headers(&self) {
        assert_eq!(self.header("content-type"), Some("application/x-amz-json-1.0"));
        let crc: u32 = self.header("x-amz-crc32").expect("x-amz-crc32").parse().unwrap();
        assert_eq!(crc, crc32(&self.body), "x-amz-crc32 matches the body");
        let id = self.header("x-amzn-requestid").expect("x-amzn-RequestId");
        assert_eq!(id.len(), 36, "a uuid: {id}");
    }
}

impl Conn {
    fn write(&mut self, bytes: &[u8]) {
        self.reader.get_mut().write_all(bytes).unwrap();
    }

    fn request(&mut self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
        let mut head = format!(
            "{method} / HTTP/1.1\r\nHost: localhost\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        // The service answers a body in no or another content type 404; the SDKs send this one.
        if !headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        {
            head.push_str("Content-Type: application/x-amz-json-1.0\r\n");
        }
        head.push_str("\r\n");
        self.write(head.as_bytes());
        self.write(body);
        self.read_response()
    }

    fn call(&mut self, operation: &str, body: &str) -> Response {
        let target = format!("DynamoDB_20120810.{operation}");
        let response = self.request(
            "POST",
            &[
                ("X-Amz-Target", target.as_str()),
                ("Content-Type", "application/x-amz-json-1.0"),
                // What an SDK sends; never checked.
                ("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0000"),
                ("X-Amz-Date", "20260101T000000Z"),
            ],
            body.as_bytes(),
        );
        response.assert_dynamodb_headers();
        response
    }

    fn read_response(&mut self) -> Response {
        let mut status_line = String::new();
        self.reader.read_line(&mut status_line).expect("a status line");
        let status = status_line
            .split_whitespace()
            .nth(1)
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"))
            .parse()
            .unwrap();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .map(|(_, v)| v.parse().unwrap())
            .expect("responses carry Content-Length");
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        Response {
            status,
            headers,
            body,
        }
    }
}

/// CRC-32/ISO-HDLC, written out so the test does not trust the server's implementation.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

const PETS: &str = r#"{"TableName":"Pets","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"AnimalType","AttributeType":"S"},{"AttributeName":"Name","AttributeType":"S"}],"KeySchema":[{"AttributeName":"AnimalType","KeyType":"HASH"},{"AttributeName":"Name","KeyType":"RANGE"}]}"#;
const FIDO: &str =
    r#"{"TableName":"Pets","Item":{"AnimalType":{"S":"Dog"},"Name":{"S":"Fido"},"Age":{"N":"3"}}}"#;
const FIDO_KEY: &str = r#"{"TableName":"Pets","Key":{"AnimalType":{"S":"Dog"},"Name":{"S":"Fido"}}}"#;

#[test]
fn health_answers_get() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    let response = conn.request("GET", &[], b"");
    assert_eq!(response.status, 200);
    // The service's words, its trailing space included; the region of an unsigned request.
    assert_eq!(response.body, b"healthy: dynamodb.local.amazonaws.com ");
    assert_eq!(
        response.header("x-amz-crc32"),
        Some(crc32(&response.body).to_string().as_str())
    );
    // Signed for a region, it names that one.
    let response = conn.request(
        "GET",
        &[("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00")],
        b"",
    );
    assert_eq!(response.body, b"healthy: dynamodb.eu-west-1.amazonaws.com ");
    // Then the API, on the same kept-alive connection.
    let response = conn.request("POST", &[("X-Amz-Target", "DynamoDB_20120810.ListTables")], b"{}");
    assert_eq!(
        (response.status, response.json()),
        (200, serde_json::json!({"TableNames": []}))
    );
}

#[test]
fn keep_alive_serves_many_requests_on_one_connection() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    let created = conn.call("CreateTable", PETS);
    assert_eq!(created.status, 200);
    assert_eq!(created.json()["TableDescription"]["TableName"], "Pets");
    let mut ids = std::collections::HashSet::new();
    for i in 0..50 {
        let put = format!(
            r#"{{"TableName":"Pets","Item":{{"AnimalType":{{"S":"Dog"}},"Name":{{"S":"dog-{i:02}"}}}}}}"#
        );
        let response = conn.call("PutItem", &put);
        assert_eq!((response.status, response.json()), (200, serde_json::json!({})));
        assert!(
            ids.insert(response.header("x-amzn-requestid").unwrap().to_owned()),
            "fresh request ids"
        );
    }
    let query = r#"{"TableName":"Pets","KeyConditionExpression":"AnimalType = :a","ExpressionAttributeValues":{":a":{"S":"Dog"}},"Select":"COUNT"}"#;
    let response = conn.call("Query", query);
    assert_eq!(response.json()["Count"], 50);
}

#[test]
fn errors_come_in_dynamodb_format() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();

    // No target, another API version's target, a malformed target: UnknownOperationException, bare.
    for target in [
        None,
        Some("DynamoDBStreams_20111205.ListStreams"),
        Some("DynamoDB_20120810."),
        Some("garbage"),
    ] {
        let headers: Vec<(&str, &str)> = target.iter().map(|t| ("X-Amz-Target", *t)).collect();
        let response = conn.request("POST", &headers, b"{}");
        response.assert_dynamodb_headers();
        assert_eq!(response.status, 400);
        assert_eq!(
            response.body, br#"{"__type":"com.amazon.coral.service#UnknownOperationException"}"#,
            "{target:?}"
        );
    }
    let response = conn.call("Frobnicate", "{}");
    assert_eq!(
        response.json(),
        serde_json::json!({"__type": "com.amazon.coral.service#UnknownOperationException"})
    );

    let response = conn.call("CreateTable", "not json");
    assert_eq!(response.status, 400);
    assert_eq!(
        response.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );

    let response = conn.call("DescribeTable", r#"{"TableName":"Pets"}"#);
    assert_eq!(response.status, 400);
    assert_eq!(
        response.json(),
        serde_json::json!({
            "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
            "message": "Requested resource not found: Table: Pets not found"
        })
    );

    let response = conn.call("CreateTable", r#"{"TableName":"a;b"}"#);
    assert_eq!(
        response.json()["__type"],
        "com.amazon.coral.validate#ValidationException"
    );
    assert!(
        response.json()["message"]
            .as_str()
            .unwrap()
            .contains("validation error")
    );

    assert_eq!(conn.call("CreateTable", PETS).status, 200);
    let response = conn.call("CreateTable", PETS);
    assert_eq!(
        response.json()["__type"],
        "com.amazonaws.dynamodb.v20120810#ResourceInUseException"
    );
}

#[test]
fn failed_condition_returns_the_item_when_asked() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    assert_eq!(conn.call("CreateTable", PETS).status, 200);
    assert_eq!(conn.call("PutItem", FIDO).status, 200);
    let conditional = r#"{"TableName":"Pets","Item":{"AnimalType":{"S":"Dog"},"Name":{"S":"Fido"}},"ConditionExpression":"attribute_not_exists(AnimalType)","ReturnValuesOnConditionCheckFailure":"ALL_OLD"}"#;
    let response = conn.call("PutItem", conditional);
    assert_eq!(response.status, 400);
    assert_eq!(
        response.json(),
        serde_json::json!({
            "__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
            "message": "The conditional request failed",
            "Item": {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}, "Age": {"N": "3"}}
        })
    );
    // Without ReturnValuesOnConditionCheckFailure, no item.
    let response = conn.call(
        "PutItem",
        &conditional.replace(r#","ReturnValuesOnConditionCheckFailure":"ALL_OLD""#, ""),
    );
    assert_eq!(response.status, 400);
    assert!(response.json().get("Item").is_none());
}

#[test]
fn requests_above_16_mb_are_refused_with_413() {
    let server = Server::start(&["--in-memory"]);

    // Declared too large, body sent in full: 413 with an empty body, as the service answers,
    // then the connection closes.
    let mut conn = server.connect();
    let big = vec![b' '; MAX_REQUEST_BYTES + 1];
    let response = conn.request("POST", &[("X-Amz-Target", "DynamoDB_20120810.ListTables")], &big);
    assert_eq!(response.status, 413);
    assert!(response.body.is_empty());
    assert_eq!(response.header("connection"), Some("close"));

    // Declared too large with Expect: 100-continue: refused before any body is sent.
    let mut conn = server.connect();
    conn.write(
        format!(
            "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
            MAX_REQUEST_BYTES * 4
        )
        .as_bytes(),
    );
    assert_eq!(conn.read_response().status, 413);

    // Chunked, no length declared: found while reading.
    let mut conn = server.connect();
    conn.write(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nTransfer-Encoding: chunked\r\n\r\n");
    let chunk = vec![b' '; 1024 * 1024];
    for _ in 0..17 {
        let mut frame = format!("{:x}\r\n", chunk.len()).into_bytes();
        frame.extend_from_slice(&chunk);
        frame.extend_from_slice(b"\r\n");
        conn.write(&frame);
    }
    conn.write(b"0\r\n\r\n");
    let response = conn.read_response();
    assert_eq!(response.status, 413);
    assert!(response.body.is_empty());

    // Exactly 16 MB is accepted (unknown members are ignored, as the service does).
    let mut body = br#"{"Limit":5,"Padding":""#.to_vec();
    body.resize(MAX_REQUEST_BYTES - 2, b'x');
    body.extend_from_slice(br#""}"#);
    let response =
        server
            .connect()
            .request("POST", &[("X-Amz-Target", "DynamoDB_20120810.ListTables")], &body);
    assert_eq!(
        (response.status, response.json()),
        (200, serde_json::json!({"TableNames": []}))
    );
}

#[test]
fn garbage_neither_panics_nor_hangs_the_server() {
    let server = Server::start(&["--in-memory"]);
    // Not HTTP at all.
    let mut conn = server.connect();
    conn.write(b"\x00\x01\x02 hello\r\n\r\n");
    let mut rest = Vec::new();
    let _ = conn.reader.read_to_end(&mut rest);
    // A request cut off in the middle of its body, then the client leaves.
    let mut conn = server.connect();
    conn.write(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: 1000\r\n\r\n{\"TableName\":");
    drop(conn);
    // A broken chunked encoding.
    let mut conn = server.connect();
    conn.write(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
    let _ = conn.reader.read_to_end(&mut rest);
    // Deeply nested and binary JSON bodies.
    let deep = format!(r#"{{"TableName":"Pets","Item":{}}}"#, "[".repeat(100_000));
    assert_eq!(server.call("PutItem", &deep).status, 400);
    let response = server.connect().request(
        "POST",
        &[("X-Amz-Target", "DynamoDB_20120810.PutItem")],
        &[0xff, 0xfe, 0x00],
    );
    assert_eq!(response.status, 400);

    // Still serving, and the process is alive.
    assert_eq!(server.call("ListTables", "{}").status, 200);
    let mut server = server;
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "still running; stderr: {}",
        server.stderr()
    );
}

/// The service's answers outside `POST /` (as dynalite recorded them from the live service):
/// `GET` anywhere is the health check; other methods, other paths and bodies in another
/// content type are `404` with an `<UnknownOperationException/>` body.
#[test]
fn other_paths_methods_and_content_types() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    conn.write(b"GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let response = conn.read_response();
    assert_eq!(
        (response.status, response.body.as_slice()),
        (200, &b"healthy: dynamodb.local.amazonaws.com "[..])
    );
    for method in ["PUT", "DELETE", "PATCH", "OPTIONS"] {
        let response = conn.request(method, &[], b"{}");
        assert_eq!(response.status, 404, "{method}");
        assert_eq!(response.body, b"<UnknownOperationException/>\n", "{method}");
        assert_eq!(response.header("x-amz-crc32"), Some("3552371480"));
        assert!(response.header("x-amzn-requestid").is_some());
    }
    conn.write(b"POST /nope HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n{}");
    assert_eq!(conn.read_response().status, 404);
    for content_type in ["text/plain", "application/x-amz-json-1.1", "application/jsonx"] {
        let response = conn.request(
            "POST",
            &[
                ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
                ("Content-Type", content_type),
            ],
            b"{}",
        );
        assert_eq!(response.status, 404, "{content_type}");
    }
    conn.write(b"POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n{}");
    assert_eq!(conn.read_response().status, 404, "a body without a content type");
    // application/json is served, and answered in application/json.
    let response = conn.request(
        "POST",
        &[
            ("X-Amz-Target", "DynamoDB_20120810.ListTables"),
            ("Content-Type", "application/json; charset=utf-8"),
        ],
        b"{}",
    );
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("application/json"));
}

#[cfg(unix)]
fn stops_gracefully_and_keeps_the_data(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("data/local.db");
    let db = db.to_str().unwrap();
    // Timeouts of an hour: a connection the server waited on would hold the shutdown up that long.
    let mut server = Server::start(&["--db", db, "--header-timeout", "3600", "--idle-timeout", "3600"]);
    assert_eq!(server.call("CreateTable", PETS).status, 200);
    assert_eq!(server.call("PutItem", FIDO).status, 200);
    // An idle kept-alive connection must not hold the shutdown up.
    let mut idle = server.connect();
    assert_eq!(idle.call("ListTables", "{}").status, 200);

    server.signal(signal);
    let status = server.wait_exit(Duration::from_secs(60));
    assert!(
        status.success(),
        "exit status {status:?}; stderr: {}",
        server.stderr()
    );
    assert!(
        server.stderr().contains("stopped"),
        "the engine was closed: {}",
        server.stderr()
    );
    // Closing checkpoints the write-ahead log into the database file.
    let wal = Path::new(db).with_extension("db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "WAL checkpointed"
    );

    let server = Server::start(&["--db", db]);
    let response = server.call("GetItem", FIDO_KEY);
    assert_eq!(response.json()["Item"]["Age"], serde_json::json!({"N": "3"}));
}

#[cfg(unix)]
#[test]
fn sigterm_stops_gracefully() {
    stops_gracefully_and_keeps_the_data("TERM");
}

#[cfg(unix)]
#[test]
fn sigint_stops_gracefully() {
    stops_gracefully_and_keeps_the_data("INT");
}

#[test]
fn a_port_in_use_is_an_error_not_a_hang() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = Command::new(BIN)
        .args(["--in-memory", "--port", &port])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty(), "no ready line");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{stderr}"
    );
}

#[test]
fn help_and_version() {
    let output = Command::new(BIN).arg("--help").output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for flag in [
        "--port",
        "--host",
        "--db",
        "--in-memory",
        "--auth",
        "--allow-host",
        "--no-gzip",
        "--no-cors",
        "--max-connections",
        "--header-timeout",
        "signature is checked only",
    ] {
        assert!(help.contains(flag), "{flag} in --help:\n{help}");
    }
    let output = Command::new(BIN).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("dynotable-local "));
}

#[test]
fn dynamodb_streams_is_served_on_the_same_endpoint() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    let create = r#"{"TableName":"Events","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}"#;
    assert_eq!(conn.call("CreateTable", create).status, 200);
    let response = conn.request(
        "POST",
        &[
            ("X-Amz-Target", "DynamoDBStreams_20120810.ListStreams"),
            ("Content-Type", "application/x-amz-json-1.0"),
        ],
        br#"{"TableName":"Events"}"#,
    );
    response.assert_dynamodb_headers();
    assert_eq!(response.status, 200);
    let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(body["Streams"][0]["TableName"], "Events");
    assert!(
        body["Streams"][0]["StreamArn"]
            .as_str()
            .unwrap()
            .contains("/stream/")
    );
}

#[test]
fn cancelled_transactions_carry_their_reasons() {
    let server = Server::start(&["--in-memory"]);
    let mut conn = server.connect();
    let create = r#"{"TableName":"Accounts","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}"#;
    assert_eq!(conn.call("CreateTable", create).status, 200);
    let transaction = r#"{"TransactItems":[{"Put":{"TableName":"Accounts","Item":{"id":{"S":"a"}}}},{"ConditionCheck":{"TableName":"Accounts","Key":{"id":{"S":"b"}},"ConditionExpression":"attribute_exists(id)"}}]}"#;
    let response = conn.call("TransactWriteItems", transaction);
    assert_eq!(response.status, 400);
    let body: serde_json::Value = serde_json::from_slice(&response.body).unwrap();
    assert_eq!(
        body["__type"],
        "com.amazonaws.dynamodb.v20120810#TransactionCanceledException"
    );
    assert_eq!(
        body["CancellationReasons"],
        serde_json::json!([{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}])
    );
}

/// The CPU time (user + system, in clock ticks of 10 ms) a process has used so far.
#[cfg(target_os = "linux")]
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn requests_inside_and_after_the_spin_window_are_answered() {
    // A 20 ms window: the second request arrives inside it, the third long after it.
    let server = Server::start(&["--in-memory", "--spin-us", "20000"]);
    let mut conn = server.connect();
    assert_eq!(conn.call("CreateTable", PETS).status, 200);
    assert_eq!(conn.call("PutItem", FIDO).status, 200);
    std::thread::sleep(Duration::from_millis(2));
    assert_eq!(conn.call("GetItem", FIDO_KEY).json()["Item"]["Age"]["N"], "3");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(conn.call("GetItem", FIDO_KEY).json()["Item"]["Name"]["S"], "Fido");
    // A connection closed while the server spins on it, then one closed half-way through a
    // request: neither stops the server.
    let mut closing = server.connect();
    assert_eq!(closing.call("ListTables", "{}").status, 200);
    drop(closing);
    let mut half = server.connect();
    assert_eq!(half.call("ListTables", "{}").status, 200);
    half.write(b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{");
    drop(half);
    assert_eq!(conn.call("ListTables", "{}").json()["TableNames"][0], "Pets");
}

#[cfg(target_os = "linux")]
#[test]
fn an_idle_server_uses_no_cpu_after_the_spin_window() {
    // The default window, then a long one (100 ms) that still ends well before the measurement.
    for spin in ["50", "100000"] {
        let server = Server::start(&["--in-memory", "--spin-us", spin]);
        let mut conn = server.connect();
        for _ in 0..20 {
            assert_eq!(conn.call("ListTables", "{}").status, 200);
        }
        // The connection stays open and idle: the server spins once, then must sleep.
        std::thread::sleep(Duration::from_millis(300));
        let before = cpu_ticks(server.child.id());
        std::thread::sleep(Duration::from_secs(1));
        let used = cpu_ticks(server.child.id()) - before;
        // A server that kept spinning would use ~100 ticks (a whole core) in that second.
        assert!(
            used <= 10,
            "--spin-us {spin}: {used} ticks of CPU in 1 s of idleness"
        );
        assert_eq!(conn.call("ListTables", "{}").status, 200);
    }
}
