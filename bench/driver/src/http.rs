//! HTTP/1.1 to the servers: one keep-alive connection per task, the DynamoDB (and DynamoDB
//! Streams) operations the workload calls, and the blocking ListTables used to time startup.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderName, HeaderValue};
use hyper_util::rt::TokioIo;
use serde_json::Value;

pub(crate) const AUTH: &str = "AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0";
pub(crate) const AMZ_DATE: &str = "20250101T000000Z";
pub(crate) const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    ListTables,
    CreateTable,
    DescribeTable,
    DeleteTable,
    BatchWriteItem,
    GetItem,
    PutItem,
    Query,
    Scan,
    TransactWriteItems,
    ListStreams,
    DescribeStream,
    GetShardIterator,
    GetRecords,
}

impl Op {
    pub(crate) fn target(self) -> &'static str {
        match self {
            Op::ListTables => "DynamoDB_20120810.ListTables",
            Op::CreateTable => "DynamoDB_20120810.CreateTable",
            Op::DescribeTable => "DynamoDB_20120810.DescribeTable",
            Op::DeleteTable => "DynamoDB_20120810.DeleteTable",
            Op::BatchWriteItem => "DynamoDB_20120810.BatchWriteItem",
            Op::GetItem => "DynamoDB_20120810.GetItem",
            Op::PutItem => "DynamoDB_20120810.PutItem",
            Op::Query => "DynamoDB_20120810.Query",
            Op::Scan => "DynamoDB_20120810.Scan",
            Op::TransactWriteItems => "DynamoDB_20120810.TransactWriteItems",
            // DynamoDB Streams: its own target prefix, same endpoint and content type locally.
            Op::ListStreams => "DynamoDBStreams_20120810.ListStreams",
            Op::DescribeStream => "DynamoDBStreams_20120810.DescribeStream",
            Op::GetShardIterator => "DynamoDBStreams_20120810.GetShardIterator",
            Op::GetRecords => "DynamoDBStreams_20120810.GetRecords",
        }
    }
}

/// One keep-alive HTTP/1.1 connection.
pub(crate) struct Conn {
    pub(crate) addr: SocketAddr,
    pub(crate) host: HeaderValue,
    pub(crate) sender: SendRequest<Full<Bytes>>,
}

impl Conn {
    pub(crate) async fn connect(addr: SocketAddr) -> Result<Conn> {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .with_context(|| format!("connect {addr}"))?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::task::spawn_local(async move {
            let _ = conn.await;
        });
        Ok(Conn {
            addr,
            host: HeaderValue::from_str(&addr.to_string())?,
            sender,
        })
    }

    pub(crate) async fn reconnect(&mut self) -> Result<()> {
        *self = Conn::connect(self.addr).await?;
        Ok(())
    }

    /// Sends one request; returns the status and the whole body.
    pub(crate) async fn call(&mut self, op: Op, body: Bytes) -> Result<(u16, Bytes)> {
        let req = hyper::Request::builder()
            .method("POST")
            .uri("/")
            .header(hyper::header::HOST, self.host.clone())
            .header(
                hyper::header::CONTENT_TYPE,
                HeaderValue::from_static(CONTENT_TYPE),
            )
            .header(
                HeaderName::from_static("x-amz-target"),
                HeaderValue::from_static(op.target()),
            )
            .header(
                HeaderName::from_static("x-amz-date"),
                HeaderValue::from_static(AMZ_DATE),
            )
            .header(hyper::header::AUTHORIZATION, HeaderValue::from_static(AUTH))
            .body(Full::new(body))?;
        self.sender.ready().await?;
        let resp = self.sender.send_request(req).await?;
        let status = resp.status().as_u16();
        let body = resp.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }

    /// Sends one request and insists on 200; returns the parsed body.
    pub(crate) async fn call_ok(&mut self, op: Op, body: Value) -> Result<Value> {
        let (status, resp) = self.call(op, Bytes::from(body.to_string())).await?;
        if status != 200 {
            bail!("{op:?} → HTTP {status}: {}", String::from_utf8_lossy(&resp));
        }
        Ok(serde_json::from_slice(&resp)?)
    }
}

/// A blocking ListTables over a fresh connection (`Connection: close`), for startup timing.
pub(crate) fn list_tables_blocking(addr: SocketAddr) -> std::io::Result<bool> {
    let mut s = std::net::TcpStream::connect(addr)?;
    s.set_nodelay(true)?;
    s.set_read_timeout(Some(Duration::from_secs(5)))?;
    let body = "{}";
    let req = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {CONTENT_TYPE}\r\nX-Amz-Target: {}\r\nX-Amz-Date: {AMZ_DATE}\r\nAuthorization: {AUTH}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        Op::ListTables.target(),
        body.len()
    );
    s.write_all(req.as_bytes())?;
    let mut buf = [0u8; 12];
    let mut got = 0;
    while got < 12 {
        let n = s.read(&mut buf[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    Ok(got == 12 && &buf[..12] == b"HTTP/1.1 200")
}
