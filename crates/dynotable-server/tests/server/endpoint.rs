//! The local endpoint as browsers and SDKs meet it: the Host check against DNS rebinding (issue
//! 19.4), SigV4 checked with `--auth` against the AWS SDK for Rust (issue 19.4), gzip bodies and
//! CORS preflights (issue 18.6), on the real `dynotable-local`.

use crate::local;

use std::io::Write;
use std::process::Command;
use std::time::Duration;

use local::{Server, post, sdk, stays_served};

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
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    // The methods served, whatever the preflight asks for.
    assert_eq!(
        answer.header("access-control-allow-methods"),
        Some("POST,GET,HEAD")
    );
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
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("http://localhost:5173")
    );
    let exposed = answer
        .header("access-control-expose-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(
        exposed.contains("x-amzn-requestid")
            && exposed.contains("x-amzn-errortype")
            && exposed.contains("x-amz-crc32"),
        "{exposed}"
    );

    // A page on another origin may not read the answer: the endpoint checks no signature, so
    // any web site the user opens could otherwise read and change the tables.
    let foreign = preflight.replace("http://localhost:5173", "https://evil.example");
    let answer = server.raw(&foreign, b"");
    assert_eq!(answer.header("access-control-allow-origin"), None);
    let answer = server.raw(
        &post(
            "localhost",
            "ListTables",
            "Origin: https://evil.example\r\n",
            b"{}",
        ),
        b"{}",
    );
    assert_eq!(answer.header("access-control-allow-origin"), None);
    // Unless it is named.
    let named = Server::start(&["--cors-origin", "https://app.example"]);
    let answer = named.raw(
        &preflight.replace("http://localhost:5173", "https://app.example"),
        b"",
    );
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("https://app.example")
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
