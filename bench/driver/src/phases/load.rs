//! The BatchWriteItem load: 25-item batches pulled by N tasks, UnprocessedItems re-sent.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::phases::*;
use crate::process::*;

/// Loads `bodies` (BatchWriteItem, 25 puts each) with `concurrency` tasks pulling the next
/// batch; UnprocessedItems are re-sent. `budget`, when given, aborts a load that runs longer.
pub(crate) async fn load(
    server: &Server,
    bodies: Arc<Vec<Bytes>>,
    concurrency: usize,
    budget: Option<Duration>,
) -> Result<(Stats, u64, u64)> {
    let conns = connections(server.addr, concurrency).await?;
    let next = Arc::new(AtomicUsize::new(0));
    let written = Arc::new(AtomicU64::new(0));
    let retries = Arc::new(AtomicU64::new(0));
    let t0 = Instant::now();
    let (s0, d0) = (server.cpu_ms(), self_cpu_ms());
    let mut handles = Vec::new();
    for mut conn in conns {
        let (bodies, next, written, retries) =
            (bodies.clone(), next.clone(), written.clone(), retries.clone());
        handles.push(tokio::task::spawn_local(async move {
            let mut st = Stats::default();
            loop {
                if budget.is_some_and(|b| t0.elapsed() > b) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= bodies.len() {
                    break;
                }
                let mut body = bodies[i].clone();
                let mut attempts = 0;
                loop {
                    attempts += 1;
                    let t = Instant::now();
                    match conn.call(Op::BatchWriteItem, body.clone()).await {
                        Ok((200, resp)) => {
                            st.ops += 1;
                            st.lat_us
                                .push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                            match unprocessed(&resp) {
                                None => break,
                                Some(rest) => {
                                    retries.fetch_add(1, Ordering::Relaxed);
                                    body = rest;
                                }
                            }
                        }
                        Ok((status, b)) => {
                            st.errors += 1;
                            st.first_error.get_or_insert_with(|| {
                                format!("HTTP {status}: {}", String::from_utf8_lossy(&b))
                            });
                        }
                        Err(e) => {
                            st.errors += 1;
                            st.first_error.get_or_insert_with(|| format!("{e:#}"));
                            let _ = conn.reconnect().await;
                        }
                    }
                    if attempts > 50 {
                        return st;
                    }
                }
                written.fetch_add(25, Ordering::Relaxed);
            }
            st
        }));
    }
    let mut total = Stats::default();
    for h in handles {
        let st = h.await?;
        total.ops += st.ops;
        total.errors += st.errors;
        if total.first_error.is_none() {
            total.first_error = st.first_error;
        }
        total.lat_us.extend(st.lat_us);
    }
    total.elapsed = t0.elapsed();
    total.server_cpu_ms = server.cpu_ms() - s0;
    total.driver_cpu_ms = self_cpu_ms() - d0;
    Ok((
        total,
        written.load(Ordering::Relaxed),
        retries.load(Ordering::Relaxed),
    ))
}

/// The UnprocessedItems of a BatchWriteItem response as a new request body, if any.
pub(crate) fn unprocessed(resp: &[u8]) -> Option<Bytes> {
    // Fast path: the common empty answer.
    let s = std::str::from_utf8(resp).ok()?;
    if s.contains(r#""UnprocessedItems":{}"#) || !s.contains("UnprocessedItems") {
        return None;
    }
    let v: Value = serde_json::from_slice(resp).ok()?;
    let u = v.get("UnprocessedItems")?.as_object()?;
    if u.is_empty() {
        return None;
    }
    Some(Bytes::from(json!({ "RequestItems": u }).to_string()))
}
