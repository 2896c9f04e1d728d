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
}
