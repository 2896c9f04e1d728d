//! What the endpoint tests share: the real `dynotable-local` on a loopback port, raw HTTP/1.1
//! over a socket, and an SDK client that must stay served. Each test crate uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

pub const BIN: &str = env!("CARGO_BIN_EXE_dynotable-local");

/// A running `dynotable-local`, killed when dropped.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
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

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        stream
    }

    /// One raw request on a fresh connection: its status, headers (lower-case names) and body.
    pub fn raw(&self, head: &str, body: &[u8]) -> Answer {
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
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|err| panic!("{err}: {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Reads one HTTP/1.1 answer (with a Content-Length body); `None` if the connection closed first.
pub fn read_answer(reader: &mut BufReader<TcpStream>) -> Option<Answer> {
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
pub fn post(host: &str, operation: &str, extra: &str, body: &[u8]) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: {host}\r\nX-Amz-Target: DynamoDB_20120810.{operation}\r\n\
         Content-Type: application/x-amz-json-1.0\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    )
}

/// Whether the server closed `stream` (a read sees the end, or a reset) within `within`.
pub fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
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

pub fn sdk(url: &str, access_key: &str, secret: &str) -> Client {
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
/// GetItem), each request within the client's operation timeout.
pub async fn stays_served(client: &Client, times: usize) {
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
    for i in 0..times {
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
    }
}
