//! The timed phases of the workload. Shared here: latency statistics, the connections, a timed
//! loop over precomputed requests, table creation and the check of sample reads; one module
//! per phase with a shape of its own (the load, the full Scan, the conditional race,
//! TransactWriteItems, the DynamoDB Streams consumer).

mod load;
mod race;
mod scan;
mod streams;
mod transactions;

pub(crate) use load::*;
pub(crate) use race::*;
pub(crate) use scan::*;
pub(crate) use streams::*;
pub(crate) use transactions::*;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::process::*;
use crate::workload::*;

#[derive(Default, Clone)]
pub(crate) struct Stats {
    pub(crate) ops: u64,
    pub(crate) errors: u64,
    pub(crate) first_error: Option<String>,
    pub(crate) elapsed: Duration,
    pub(crate) lat_us: Vec<u32>,
    pub(crate) server_cpu_ms: u64,
    pub(crate) driver_cpu_ms: u64,
}

impl Stats {
    pub(crate) fn rate(&self) -> f64 {
        self.ops as f64 / self.elapsed.as_secs_f64()
    }
    pub(crate) fn pct(&mut self, p: f64) -> f64 {
        if self.lat_us.is_empty() {
            return f64::NAN;
        }
        self.lat_us.sort_unstable();
        let i = ((self.lat_us.len() as f64 * p) as usize).min(self.lat_us.len() - 1);
        self.lat_us[i] as f64 / 1000.0
    }
    pub(crate) fn figures(&mut self, unit_items: Option<u64>) -> Value {
        let mut m = json!({
            "ops": self.ops,
            "errors": self.errors,
            "seconds": self.elapsed.as_secs_f64(),
            "ops_per_s": self.rate(),
            "p50_ms": self.pct(0.50),
            "p99_ms": self.pct(0.99),
            "server_cpu_ms": self.server_cpu_ms,
            "driver_cpu_ms": self.driver_cpu_ms,
            "server_cpu_us_per_op": self.server_cpu_ms as f64 * 1000.0 / self.ops.max(1) as f64,
            "driver_cpu_us_per_op": self.driver_cpu_ms as f64 * 1000.0 / self.ops.max(1) as f64,
        });
        if let Some(items) = unit_items {
            m["items"] = json!(items);
            m["items_per_s"] = json!(items as f64 / self.elapsed.as_secs_f64());
        }
        if let Some(e) = &self.first_error {
            m["first_error"] = json!(e);
        }
        m
    }
}

pub(crate) async fn connections(addr: SocketAddr, n: usize) -> Result<Vec<Conn>> {
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(Conn::connect(addr).await?);
    }
    Ok(v)
}

/// `concurrency` tasks send bodies from `pool` round-robin for `duration` (after a warm-up of
/// `warmup`), each on its own connection. Any status but 200 counts as an error.
pub(crate) async fn timed(
    server: &Server,
    op: Op,
    pool: Arc<Vec<Bytes>>,
    concurrency: usize,
    warmup: Duration,
    duration: Duration,
) -> Result<Stats> {
    let conns = connections(server.addr, concurrency).await?;
    let start_at = Instant::now() + warmup;
    let end_at = start_at + duration;
    let mut handles = Vec::new();
    for (i, mut conn) in conns.into_iter().enumerate() {
        let pool = pool.clone();
        handles.push(tokio::task::spawn_local(async move {
            let mut st = Stats::default();
            let mut idx = i * (pool.len() / concurrency.max(1));
            loop {
                let t = Instant::now();
                if t >= end_at {
                    break;
                }
                let body = pool[idx % pool.len()].clone();
                idx += 1;
                let res = conn.call(op, body).await;
                let dt = t.elapsed();
                let measured = t >= start_at;
                match res {
                    Ok((200, _)) => {
                        if measured {
                            st.ops += 1;
                            st.lat_us.push(dt.as_micros().min(u32::MAX as u128) as u32);
                        }
                    }
                    Ok((status, b)) => {
                        st.errors += 1;
                        st.first_error
                            .get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
                    }
                    Err(e) => {
                        st.errors += 1;
                        st.first_error.get_or_insert_with(|| format!("{e:#}"));
                        let _ = conn.reconnect().await;
                    }
                }
            }
            st
        }));
    }
    // Sample CPU counters when the measured window opens.
    tokio::time::sleep_until(start_at.into()).await;
    let (s0, d0) = (server.cpu_ms(), self_cpu_ms());
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
    total.elapsed = start_at.elapsed();
    total.server_cpu_ms = server.cpu_ms() - s0;
    total.driver_cpu_ms = self_cpu_ms() - d0;
    Ok(total)
}

pub(crate) async fn wait_active(conn: &mut Conn, table: &str) -> Result<()> {
    let t0 = Instant::now();
    loop {
        let d = conn
            .call_ok(Op::DescribeTable, json!({"TableName": table}))
            .await?;
        let table_active = d["Table"]["TableStatus"] == "ACTIVE";
        let gsis_active = d["Table"]["GlobalSecondaryIndexes"].as_array().is_none_or(|a| {
            a.iter()
                .all(|g| g["IndexStatus"] == "ACTIVE" || g["IndexStatus"].is_null())
        });
        if table_active && gsis_active {
            return Ok(());
        }
        if t0.elapsed() > Duration::from_secs(30) {
            bail!("{table} not ACTIVE after 30 s: {d}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub(crate) async fn create_table(addr: SocketAddr, table: &str) -> Result<()> {
    let mut c = Conn::connect(addr).await?;
    c.call_ok(Op::CreateTable, create_table_body(table)).await?;
    wait_active(&mut c, table).await
}

/// Checks one sample GetItem: an item comes back.
pub(crate) async fn validate_get(addr: SocketAddr, table: &str, shape: Shape) -> Result<()> {
    let mut c = Conn::connect(addr).await?;
    let g: Value = serde_json::from_slice(&get_bodies(table, shape, 7)[0])?;
    let r = c.call_ok(Op::GetItem, g).await?;
    if r["Item"]["vehicleId"]["S"].as_str().is_none() {
        bail!("GetItem returned no item: {r}");
    }
    Ok(())
}

/// Checks one sample of each read against what the workload expects, so a fast wrong answer
/// cannot pass for a fast right one.
pub(crate) async fn validate(addr: SocketAddr, table: &str, shape: Shape) -> Result<()> {
    validate_get(addr, table, shape).await?;
    let mut c = Conn::connect(addr).await?;
    let q: Value = serde_json::from_slice(&window_bodies(table, shape, 7)[0])?;
    let r = c.call_ok(Op::Query, q).await?;
    let items = r["Items"]
        .as_array()
        .ok_or_else(|| anyhow!("Query: no Items: {r}"))?;
    if items.len() != WINDOW as usize {
        bail!("window Query returned {} items, expected {WINDOW}", items.len());
    }
    let sks: Vec<&str> = items
        .iter()
        .map(|i| i["recordedAt"]["S"].as_str().unwrap_or(""))
        .collect();
    if !sks.windows(2).all(|w| w[0] > w[1]) {
        bail!("window Query not newest-first: {sks:?}");
    }
    let q: Value = serde_json::from_slice(&gsi_bodies(table, 7)[0])?;
    let r = c.call_ok(Op::Query, q).await?;
    let n = r["Items"].as_array().map_or(0, |a| a.len());
    if n != GSI_LIMIT as usize {
        bail!("GSI Query returned {n} items, expected {GSI_LIMIT}");
    }
    if r["LastEvaluatedKey"].is_null() {
        bail!("GSI Query with Limit {GSI_LIMIT} on a depot of more items returned no LastEvaluatedKey");
    }
    Ok(())
}
