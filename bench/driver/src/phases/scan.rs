//! The full paginated Scan, timed once.

use std::time::Instant;

use anyhow::{Result, bail};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::*;
use crate::process::*;

#[derive(Deserialize)]
pub(crate) struct Page {
    #[serde(rename = "Count")]
    pub(crate) count: u64,
    #[serde(rename = "LastEvaluatedKey")]
    pub(crate) last_evaluated_key: Option<Value>,
}

/// A full paginated Scan of the table (no Limit: the 1 MB page cuts it).
pub(crate) async fn full_scan(server: &Server, table: &str) -> Result<Value> {
    let mut c = Conn::connect(server.addr).await?;
    let t0 = Instant::now();
    let s0 = server.cpu_ms();
    let (mut items, mut pages) = (0u64, 0u64);
    let mut start: Option<Value> = None;
    loop {
        let mut req = json!({"TableName": table});
        if let Some(k) = start.take() {
            req["ExclusiveStartKey"] = k;
        }
        let (status, body) = c.call(Op::Scan, Bytes::from(req.to_string())).await?;
        if status != 200 {
            bail!("Scan → HTTP {status}: {}", String::from_utf8_lossy(&body));
        }
        let page: Page = serde_json::from_slice(&body)?;
        items += page.count;
        pages += 1;
        match page.last_evaluated_key {
            Some(k) if !k.is_null() => start = Some(k),
            _ => break,
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    Ok(
        json!({"seconds": secs, "items": items, "pages": pages, "items_per_s": items as f64 / secs,
              "server_cpu_ms": server.cpu_ms() - s0}),
    )
}
