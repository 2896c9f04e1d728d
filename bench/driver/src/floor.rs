//! `dynobench serve-floor --port P [--threads N]`: the floor of the benchmark, the fastest
//! DynamoDB-shaped HTTP server this client can talk to.
//!
//! It answers every request, whatever its target, with the same canned GetItem response: status
//! 200, the body `{"Item": <a workload item>}` (reading 0 of vehicle 0, the same size and shape
//! as every GetItem answer of the workload), `Content-Type: application/x-amz-json-1.0`, a
//! correct `x-amz-crc32` of that body (computed once, at startup) and a fixed
//! `x-amzn-RequestId`. It reads each request's body (HTTP/1.1 keep-alive needs it read) and does
//! nothing else: no parsing of the target or the JSON, no storage, no logging. Everything a real
//! server spends beyond this is its own work; everything this one costs is loopback TCP, hyper
//! and the scheduler, which no server on this machine can avoid with this client.
//!
//! The same hyper (HTTP/1.1 only, one task per connection, `TCP_NODELAY` on accepted sockets) as
//! dynotable-local serves with. `--threads 0` runs it on a current-thread tokio runtime (no
//! hand-off between workers at all); `--threads N` on a multi-thread runtime of N workers, as
//! dynotable-local runs (one per core).
//!
//! `--spin` (after `--port`) is not a server anyone would run: a thread per connection that
//! busy-polls its non-blocking socket instead of sleeping, and a hand-written HTTP/1.1 reader,
//! so the server side never waits to be woken (on this virtual machine an idle vCPU halts, and
//! waking it is most of a round trip at concurrency 1). It bounds what giving up a whole core
//! to spinning could buy; the client still sleeps between requests.
//!
//! The driver runs it as the target kind `floor`: only the startups and the GetItem phase,
//! since a canned answer cannot pass the load's or the Query checks (`run::workload`).

use std::convert::Infallible;

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_TYPE, HeaderName, HeaderValue};
use hyper_util::rt::TokioIo;

use crate::http::CONTENT_TYPE as JSON_CONTENT_TYPE;
use crate::workload::item_json;

/// The canned response body: a GetItem answer carrying one workload item.
pub(crate) fn canned_body() -> Bytes {
    Bytes::from(format!("{{\"Item\":{}}}", item_json(0, 0)))
}

/// `serve-floor` with its arguments (everything after the subcommand).
pub(crate) fn main(args: &[String]) -> Result<()> {
    let mut port: u16 = 0;
    let mut threads: usize = 0;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--spin" {
            return spin::serve(port);
        }
        let val = args
            .get(i + 1)
            .ok_or_else(|| anyhow!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--port" => port = val.parse()?,
            "--threads" => threads = val.parse()?,
            other => bail!("serve-floor: unknown argument {other}"),
        }
        i += 2;
    }
    let rt = if threads == 0 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()?
    };
    rt.block_on(serve(port))
}

async fn serve(port: u16) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .with_context(|| format!("bind 127.0.0.1:{port}"))?;
    let body = canned_body();
    let crc = HeaderValue::from(crc32fast::hash(&body));
    println!("dynobench floor listening on http://{}", listener.local_addr()?);
    loop {
        let (tcp, _) = listener.accept().await?;
        tcp.set_nodelay(true)?;
        let (body, crc) = (body.clone(), crc.clone());
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                let (body, crc) = (body.clone(), crc.clone());
                async move {
                    // Read the request to its end, as any server must; then the canned answer.
                    let _ = req.into_body().collect().await;
                    let mut resp = hyper::Response::new(Full::new(body));
                    let h = resp.headers_mut();
                    h.insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
                    h.insert(HeaderName::from_static("x-amz-crc32"), crc);
                    h.insert(
                        HeaderName::from_static("x-amzn-requestid"),
                        HeaderValue::from_static("00000000-0000-4000-8000-000000000000"),
                    );
                    Ok::<_, Infallible>(resp)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(tcp), service)
                .await;
        });
    }
}

/// `--spin`: busy-polling threads, one per connection.
mod spin {
    use std::io::{ErrorKind, Read, Write};
    use std::net::{TcpListener, TcpStream};

    use anyhow::Result;

    pub(super) fn serve(port: u16) -> Result<()> {
        let listener = TcpListener::bind(("127.0.0.1", port))?;
        let body = super::canned_body();
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: {}\r\nx-amz-crc32: {}\r\nx-amzn-requestid: 00000000-0000-4000-8000-000000000000\r\ncontent-length: {}\r\n\r\n",
            super::JSON_CONTENT_TYPE,
            crc32fast::hash(&body),
            body.len()
        );
        let response: Vec<u8> = [head.as_bytes(), &body].concat();
        println!(
            "dynobench floor (spinning) listening on http://{}",
            listener.local_addr()?
        );
        for tcp in listener.incoming() {
            let tcp = tcp?;
            let response = response.clone();
            std::thread::spawn(move || connection(tcp, &response));
        }
        Ok(())
    }

    /// Answers each request on `tcp` with `response` until the client closes it.
    fn connection(mut tcp: TcpStream, response: &[u8]) -> Result<()> {
        tcp.set_nodelay(true)?;
        tcp.set_nonblocking(true)?;
        let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
        let mut chunk = [0u8; 64 * 1024];
        loop {
            // A whole request: the head, then Content-Length bytes of body.
            while let Some(len) = request_len(&buf) {
                if buf.len() < len {
                    break;
                }
                buf.drain(..len);
                let mut sent = 0;
                while sent < response.len() {
                    match tcp.write(&response[sent..]) {
                        Ok(n) => sent += n,
                        Err(e) if e.kind() == ErrorKind::WouldBlock => std::hint::spin_loop(),
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            match tcp.read(&mut chunk) {
                Ok(0) => return Ok(()),
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => std::hint::spin_loop(),
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// The length of the request at the start of `buf` (head and body), once its head is in.
    pub(super) fn request_len(buf: &[u8]) -> Option<usize> {
        let end = buf.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let head = std::str::from_utf8(&buf[..end]).ok()?;
        let body = head
            .lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse::<usize>().ok())
            .unwrap_or(0);
        Some(end + body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canned_body_is_a_get_item_answer_with_the_workload_item() {
        let v: serde_json::Value = serde_json::from_slice(&canned_body()).unwrap();
        assert_eq!(v["Item"]["vehicleId"]["S"], "VEH#V-00000");
        assert_eq!(v["Item"]["recordedAt"]["S"], "TS#2025-01-01T00:00:00Z");
        assert_eq!(v.as_object().unwrap().len(), 1);
    }

    #[test]
    fn spin_reader_finds_where_a_request_ends() {
        let req = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}POST";
        assert_eq!(spin::request_len(req), Some(req.len() - 4));
        assert_eq!(spin::request_len(b"POST / HTTP/1.1\r\nHost: x\r\n"), None);
    }
}
