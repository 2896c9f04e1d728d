//! The local endpoint defends itself (issue 19.4): the real `dynotable-local` on a loopback port,
//! attacked with raw sockets (a byte a second, 64 KB heads, 5,000 connections, the connection
//! cap, oversized and stalled bodies, a client that stops reading) while a real client, the AWS
//! SDK for Rust, must stay served.

use crate::local;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use local::{BIN, Server, closed_within, post, read_answer, sdk, stays_served};

// ---------------------------------------------------------------------------------------------
// Slow clients, large heads, many connections, large and stalled bodies

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_sending_a_byte_a_second_is_cut_off_and_others_stay_served() {
    // A header timeout long enough that the SDK's rounds end before it, on a loaded machine too:
    // they are then served while the slow client still holds its connection.
    let server = Server::start(&["--header-timeout", "10"]);
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
    stays_served(&client, 20).await;
    assert!(
        !closed_within(&mut reader, Duration::from_millis(1)),
        "the slow client was cut off before the others were served: they waited for it"
    );
    assert!(
        closed_within(&mut reader, Duration::from_secs(30)),
        "the slow client was never cut off"
    );
    let sender_ran = sender.join().unwrap();
    // Cut off at the timeout (10 s after the connection started waiting), long before its ~110
    // bytes at one a second were in.
    assert!(sender_ran < Duration::from_secs(60), "{sender_ran:?}");
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
    assert!(
        closed_within(&mut conn, Duration::from_secs(30)),
        "the idle connection was never closed"
    );
    // Not before the timeout (1 s, less what the answer's read took).
    let idle = started.elapsed();
    assert!(idle >= Duration::from_millis(800), "closed after {idle:?}");
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
    stays_served(&client, 10).await;
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
    stays_served(&client, 10).await;
    let answer = big.await.unwrap();
    assert_eq!(answer.status, 413);
    assert!(answer.body.is_empty());
    assert_eq!(answer.header("connection"), Some("close"));
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
    // It waited for the stalled body's turn to end (its 2 s timeout, less the 300 ms above).
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(1200), "served after {waited:?}");
    let answer = read_answer(&mut BufReader::new(stalled)).expect("an answer");
    assert_eq!(answer.status, 408);
    assert_eq!(
        answer.json()["__type"],
        "com.amazon.coral.service#RequestTimeoutException"
    );
    stays_served(&client, 3).await;
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
    stays_served(&client, 5).await;
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
