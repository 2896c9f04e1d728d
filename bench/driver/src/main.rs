//! `dynobench`: the DynoTable benchmark load driver.
//!
//! It starts each server under test itself (so it can time spawn → first successful
//! `ListTables` and read `/proc/PID/status`), runs the same vehicle-telemetry workload against it
//! over plain HTTP/1.1 keep-alive connections on loopback, stops it, and moves to the next one:
//! never two servers alive at once. Results go to a JSON file and a Markdown file.
//!
//! Usage (see ../run.sh, which builds everything and passes the targets):
//!
//! ```text
//! dynobench --target 'NAME|KIND|MODE|COMMAND…' [--target …] --out-json F --out-md F
//!           [--vehicles 1000] [--readings 100] [--duration 5] [--scale 10000,100000,1000000]
//!           [--scale-budget 240] [--startups 5]
//! ```
//!
//! In COMMAND, `{port}` is replaced by a free loopback port and `{dir}` by a fresh empty
//! directory for that start. KIND is `dynotable`, `dynoxide` or `dynalite`; MODE is `file` or
//! `memory` (free text may follow after a colon, e.g. `file:SQLite WAL synchronous=FULL`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderName, HeaderValue};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// HTTP

const AUTH: &str = "AWS4-HMAC-SHA256 Credential=bench/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0";
const AMZ_DATE: &str = "20250101T000000Z";
const CONTENT_TYPE: &str = "application/x-amz-json-1.0";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    ListTables,
    CreateTable,
    DescribeTable,
    DeleteTable,
    BatchWriteItem,
    GetItem,
    PutItem,
    Query,
    Scan,
}

impl Op {
    fn target(self) -> &'static str {
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
        }
    }
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    addr: SocketAddr,
    host: HeaderValue,
    sender: SendRequest<Full<Bytes>>,
}

impl Conn {
    async fn connect(addr: SocketAddr) -> Result<Conn> {
        let stream = tokio::net::TcpStream::connect(addr).await.with_context(|| format!("connect {addr}"))?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::task::spawn_local(async move {
            let _ = conn.await;
        });
        Ok(Conn { addr, host: HeaderValue::from_str(&addr.to_string())?, sender })
    }

    async fn reconnect(&mut self) -> Result<()> {
        *self = Conn::connect(self.addr).await?;
        Ok(())
    }

    /// Sends one request; returns the status and the whole body.
    async fn call(&mut self, op: Op, body: Bytes) -> Result<(u16, Bytes)> {
        let req = hyper::Request::builder()
            .method("POST")
            .uri("/")
            .header(hyper::header::HOST, self.host.clone())
            .header(hyper::header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE))
            .header(HeaderName::from_static("x-amz-target"), HeaderValue::from_static(op.target()))
            .header(HeaderName::from_static("x-amz-date"), HeaderValue::from_static(AMZ_DATE))
            .header(hyper::header::AUTHORIZATION, HeaderValue::from_static(AUTH))
            .body(Full::new(body))?;
        self.sender.ready().await?;
        let resp = self.sender.send_request(req).await?;
        let status = resp.status().as_u16();
        let body = resp.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }

    /// Sends one request and insists on 200; returns the parsed body.
    async fn call_ok(&mut self, op: Op, body: Value) -> Result<Value> {
        let (status, resp) = self.call(op, Bytes::from(body.to_string())).await?;
        if status != 200 {
            bail!("{op:?} → HTTP {status}: {}", String::from_utf8_lossy(&resp));
        }
        Ok(serde_json::from_slice(&resp)?)
    }
}

/// A blocking ListTables over a fresh connection (`Connection: close`), for startup timing.
fn list_tables_blocking(addr: SocketAddr) -> std::io::Result<bool> {
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

// ---------------------------------------------------------------------------------------------
// Processes

struct Target {
    name: String,
    kind: String,
    mode: String,
    mode_note: String,
    command: Vec<String>,
}

struct Server {
    /// `None` when attached to a server started by someone else (`--attach`).
    child: Option<Child>,
    pid: u32,
    addr: SocketAddr,
}

impl Server {
    fn rss_kb(&self) -> Option<u64> {
        status_field(self.pid, "VmRSS:")
    }
    fn hwm_kb(&self) -> Option<u64> {
        status_field(self.pid, "VmHWM:")
    }
    /// utime + stime of the whole process, in milliseconds.
    fn cpu_ms(&self) -> u64 {
        proc_cpu_ms(&format!("/proc/{}/stat", self.pid))
    }
    fn stop(mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn status_field(pid: u32, field: &str) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn proc_cpu_ms(path: &str) -> u64 {
    let Ok(s) = std::fs::read_to_string(path) else { return 0 };
    // Fields after the `(comm)`: state is field 3; utime 14, stime 15 (1-based).
    let Some(rest) = s.rfind(')').map(|i| &s[i + 2..]) else { return 0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0)
        + f.get(12).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    ticks * 10 // USER_HZ is 100 on Linux
}

fn self_cpu_ms() -> u64 {
    proc_cpu_ms("/proc/self/stat")
}

fn free_port() -> Result<u16> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?.port())
}

/// Starts the target on a fresh port (and fresh directory) and waits for the first 200 to
/// ListTables. Returns the server and the startup time.
fn start(t: &Target, run_dir: &std::path::Path, n: usize) -> Result<(Server, Duration)> {
    let port = free_port()?;
    let dir = run_dir.join(format!("{}-{n}", t.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let args: Vec<String> = t
        .command
        .iter()
        .map(|a| a.replace("{port}", &port.to_string()).replace("{dir}", &dir.to_string_lossy()))
        .collect();
    let log = std::fs::File::create(dir.join("server.log"))?;
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
    let t0 = Instant::now();
    let child = Command::new(&args[0])
        .args(&args[1..])
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .with_context(|| format!("spawn {args:?}"))?;
    let pid = child.id();
    let mut server = Server { child: Some(child), pid, addr };
    loop {
        if let Ok(true) = list_tables_blocking(addr) {
            return Ok((server, t0.elapsed()));
        }
        if let Some(Ok(Some(status))) = server.child.as_mut().map(|c| c.try_wait()) {
            bail!("{} exited during startup with {status}; see {}", t.name, dir.join("server.log").display());
        }
        if t0.elapsed() > Duration::from_secs(60) {
            server.stop();
            bail!("{} did not answer ListTables within 60 s", t.name);
        }
        std::thread::sleep(Duration::from_micros(100));
    }
}

// ---------------------------------------------------------------------------------------------
// The workload

#[derive(Clone, Copy)]
struct Shape {
    vehicles: u32,
    readings: u32,
}

const DEPOTS: u32 = 10;
const MODELS: [&str; 5] = ["Sprinter 316", "Transit Custom", "e-Vito 112", "Daily 35S14", "Master L3H2"];
const STATUSES: [&str; 3] = ["MOVING", "IDLE", "CHARGING"];

fn vehicle_id(v: u32) -> String {
    format!("VEH#V-{v:05}")
}

/// Reading r of a vehicle: one a minute from 2025-01-01T00:00Z.
fn recorded_at(r: u32) -> String {
    let (d, h, m) = (1 + r / 1440, (r / 60) % 24, r % 60);
    format!("TS#2025-01-{d:02}T{h:02}:{m:02}:00Z")
}

fn depot(d: u32) -> String {
    format!("DEPOT#{d:02}")
}

/// One reading as a DynamoDB JSON item (without the outer braces' table context).
fn item_json(v: u32, r: u32) -> String {
    let x = v.wrapping_mul(2_654_435_761).wrapping_add(r.wrapping_mul(40_503));
    format!(
        concat!(
            r#"{{"vehicleId":{{"S":"{}"}},"recordedAt":{{"S":"{}"}},"depotCode":{{"S":"{}"}},"#,
            r#""plate":{{"S":"KX{:02}-{:04}"}},"model":{{"S":"{}"}},"driverId":{{"S":"DRV#{:04}"}},"#,
            r#""status":{{"S":"{}"}},"speedKph":{{"N":"{}"}},"coolantC":{{"N":"{}.{}"}},"#,
            r#""fuelPct":{{"N":"{}.{}"}},"odometerKm":{{"N":"{}"}},"lat":{{"N":"52.{:06}"}},"#,
            r#""lon":{{"N":"13.{:06}"}},"firmware":{{"S":"fw-2.14.{}"}}}}"#
        ),
        vehicle_id(v),
        recorded_at(r),
        depot(v % DEPOTS),
        v % 97,
        v % 10_000,
        MODELS[(v % 5) as usize],
        v % 350,
        STATUSES[(x % 3) as usize],
        x % 130,
        80 + x % 25,
        x % 10,
        5 + x % 95,
        (x >> 3) % 10,
        10_000 + v * 100 + r,
        x % 1_000_000,
        (x >> 7) % 1_000_000,
        x % 9,
    )
}

/// DynamoDB's item size (names + values; numbers ≈ 1 byte per 2 significant digits + 1).
fn item_size(item: &Value) -> usize {
    fn val(v: &Value) -> usize {
        let (t, x) = v.as_object().unwrap().iter().next().unwrap();
        match t.as_str() {
            "S" => x.as_str().unwrap().len(),
            "N" => {
                let digits = x.as_str().unwrap().chars().filter(|c| c.is_ascii_digit()).count();
                digits.div_ceil(2) + 1
            }
            _ => 0,
        }
    }
    item.as_object().unwrap().iter().map(|(k, v)| k.len() + val(v)).sum()
}

fn create_table_body(table: &str) -> Value {
    json!({
        "TableName": table,
        "AttributeDefinitions": [
            {"AttributeName": "vehicleId", "AttributeType": "S"},
            {"AttributeName": "recordedAt", "AttributeType": "S"},
            {"AttributeName": "depotCode", "AttributeType": "S"}
        ],
        "KeySchema": [
            {"AttributeName": "vehicleId", "KeyType": "HASH"},
            {"AttributeName": "recordedAt", "KeyType": "RANGE"}
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByDepot",
            "KeySchema": [
                {"AttributeName": "depotCode", "KeyType": "HASH"},
                {"AttributeName": "recordedAt", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "BillingMode": "PAY_PER_REQUEST"
    })
}

/// BatchWriteItem bodies of 25 puts each, in arrival order (reading-major: every vehicle's
/// reading 0, then every vehicle's reading 1, …), as a telemetry feed would write them.
fn batch_bodies(table: &str, shape: Shape) -> Vec<Bytes> {
    let mut out = Vec::new();
    let mut cur: Vec<String> = Vec::with_capacity(25);
    let flush = |cur: &mut Vec<String>, out: &mut Vec<Bytes>| {
        if cur.is_empty() {
            return;
        }
        let reqs: Vec<String> = cur.drain(..).map(|i| format!(r#"{{"PutRequest":{{"Item":{i}}}}}"#)).collect();
        out.push(Bytes::from(format!(r#"{{"RequestItems":{{"{table}":[{}]}}}}"#, reqs.join(","))));
    };
    for r in 0..shape.readings {
        for v in 0..shape.vehicles {
            cur.push(item_json(v, r));
            if cur.len() == 25 {
                flush(&mut cur, &mut out);
            }
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

const POOL: usize = 20_000;

fn get_bodies(table: &str, shape: Shape, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            let (v, r) = (rng.below(shape.vehicles), rng.below(shape.readings));
            Bytes::from(
                json!({"TableName": table, "Key": {"vehicleId": {"S": vehicle_id(v)}, "recordedAt": {"S": recorded_at(r)}}})
                    .to_string(),
            )
        })
        .collect()
}

/// The window query: one vehicle, 50 consecutive readings, newest first.
const WINDOW: u32 = 50;
fn window_bodies(table: &str, shape: Shape, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            let v = rng.below(shape.vehicles);
            let start = rng.below(shape.readings - WINDOW + 1);
            Bytes::from(
                json!({
                    "TableName": table,
                    "KeyConditionExpression": "vehicleId = :v AND recordedAt BETWEEN :a AND :b",
                    "ExpressionAttributeValues": {
                        ":v": {"S": vehicle_id(v)},
                        ":a": {"S": recorded_at(start)},
                        ":b": {"S": recorded_at(start + WINDOW - 1)}
                    },
                    "ScanIndexForward": false
                })
                .to_string(),
            )
        })
        .collect()
}

const GSI_LIMIT: u32 = 100;
fn gsi_bodies(table: &str, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            Bytes::from(
                json!({
                    "TableName": table,
                    "IndexName": "ByDepot",
                    "KeyConditionExpression": "depotCode = :d",
                    "ExpressionAttributeValues": {":d": {"S": depot(rng.below(DEPOTS))}},
                    "Limit": GSI_LIMIT
                })
                .to_string(),
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Phases

#[derive(Default, Clone)]
struct Stats {
    ops: u64,
    errors: u64,
    first_error: Option<String>,
    elapsed: Duration,
    lat_us: Vec<u32>,
    server_cpu_ms: u64,
    driver_cpu_ms: u64,
}

impl Stats {
    fn rate(&self) -> f64 {
        self.ops as f64 / self.elapsed.as_secs_f64()
    }
    fn pct(&mut self, p: f64) -> f64 {
        if self.lat_us.is_empty() {
            return f64::NAN;
        }
        self.lat_us.sort_unstable();
        let i = ((self.lat_us.len() as f64 * p) as usize).min(self.lat_us.len() - 1);
        self.lat_us[i] as f64 / 1000.0
    }
    fn to_json(&mut self, unit_items: Option<u64>) -> Value {
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

async fn connections(addr: SocketAddr, n: usize) -> Result<Vec<Conn>> {
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(Conn::connect(addr).await?);
    }
    Ok(v)
}

/// `concurrency` tasks send bodies from `pool` round-robin for `duration` (after a warm-up of
/// `warmup`), each on its own connection. Any status but 200 counts as an error.
async fn timed(server: &Server, op: Op, pool: Arc<Vec<Bytes>>, concurrency: usize, warmup: Duration, duration: Duration) -> Result<Stats> {
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
                        st.first_error.get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
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

/// Loads `bodies` (BatchWriteItem, 25 puts each) with `concurrency` tasks pulling the next
/// batch; UnprocessedItems are re-sent. `budget`, when given, aborts a load that runs longer.
async fn load(server: &Server, bodies: Arc<Vec<Bytes>>, concurrency: usize, budget: Option<Duration>) -> Result<(Stats, u64, u64)> {
    let conns = connections(server.addr, concurrency).await?;
    let next = Arc::new(AtomicUsize::new(0));
    let written = Arc::new(AtomicU64::new(0));
    let retries = Arc::new(AtomicU64::new(0));
    let t0 = Instant::now();
    let (s0, d0) = (server.cpu_ms(), self_cpu_ms());
    let mut handles = Vec::new();
    for mut conn in conns {
        let (bodies, next, written, retries) = (bodies.clone(), next.clone(), written.clone(), retries.clone());
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
                            st.lat_us.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
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
                            st.first_error.get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
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
    Ok((total, written.load(Ordering::Relaxed), retries.load(Ordering::Relaxed)))
}

/// The UnprocessedItems of a BatchWriteItem response as a new request body, if any.
fn unprocessed(resp: &[u8]) -> Option<Bytes> {
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

async fn wait_active(conn: &mut Conn, table: &str) -> Result<()> {
    let t0 = Instant::now();
    loop {
        let d = conn.call_ok(Op::DescribeTable, json!({"TableName": table})).await?;
        let table_active = d["Table"]["TableStatus"] == "ACTIVE";
        let gsis_active = d["Table"]["GlobalSecondaryIndexes"]
            .as_array()
            .is_none_or(|a| a.iter().all(|g| g["IndexStatus"] == "ACTIVE" || g["IndexStatus"].is_null()));
        if table_active && gsis_active {
            return Ok(());
        }
        if t0.elapsed() > Duration::from_secs(30) {
            bail!("{table} not ACTIVE after 30 s: {d}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn create_table(addr: SocketAddr, table: &str) -> Result<()> {
    let mut c = Conn::connect(addr).await?;
    c.call_ok(Op::CreateTable, create_table_body(table)).await?;
    wait_active(&mut c, table).await
}

#[derive(Deserialize)]
struct Page {
    #[serde(rename = "Count")]
    count: u64,
    #[serde(rename = "LastEvaluatedKey")]
    last_evaluated_key: Option<Value>,
}

/// A full paginated Scan of the table (no Limit: the 1 MB page cuts it).
async fn full_scan(server: &Server, table: &str) -> Result<Value> {
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
    Ok(json!({"seconds": secs, "items": items, "pages": pages, "items_per_s": items as f64 / secs,
              "server_cpu_ms": server.cpu_ms() - s0}))
}

/// Checks one sample of each read against what the workload expects, so a fast wrong answer
/// cannot pass for a fast right one.
async fn validate(addr: SocketAddr, table: &str, shape: Shape) -> Result<()> {
    let mut c = Conn::connect(addr).await?;
    let g: Value = serde_json::from_slice(&get_bodies(table, shape, 7)[0])?;
    let r = c.call_ok(Op::GetItem, g).await?;
    if r["Item"]["vehicleId"]["S"].as_str().is_none() {
        bail!("GetItem returned no item: {r}");
    }
    let q: Value = serde_json::from_slice(&window_bodies(table, shape, 7)[0])?;
    let r = c.call_ok(Op::Query, q).await?;
    let items = r["Items"].as_array().ok_or_else(|| anyhow!("Query: no Items: {r}"))?;
    if items.len() != WINDOW as usize {
        bail!("window Query returned {} items, expected {WINDOW}", items.len());
    }
    let sks: Vec<&str> = items.iter().map(|i| i["recordedAt"]["S"].as_str().unwrap_or("")).collect();
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

const HOT_KEYS: u32 = 8;

fn hot_put(table: &str, key: u32, expected: Option<u64>, task: usize) -> Bytes {
    let new_version = expected.unwrap_or(0) + 1;
    let base: Value = serde_json::from_str(&item_json(key, task as u32)).unwrap();
    let mut item = base;
    item["vehicleId"] = json!({"S": format!("HOT#{key:02}")});
    item["recordedAt"] = json!({"S": "META"});
    item["version"] = json!({"N": new_version.to_string()});
    let body = match expected {
        None => json!({"TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(vehicleId)"}),
        Some(v) => json!({"TableName": table, "Item": item, "ConditionExpression": "#v = :v",
                          "ExpressionAttributeNames": {"#v": "version"},
                          "ExpressionAttributeValues": {":v": {"N": v.to_string()}}}),
    };
    Bytes::from(body.to_string())
}

fn hot_get(table: &str, key: u32) -> Bytes {
    Bytes::from(
        json!({"TableName": table, "ConsistentRead": true,
               "Key": {"vehicleId": {"S": format!("HOT#{key:02}")}, "recordedAt": {"S": "META"}}})
        .to_string(),
    )
}

fn version_of(resp: &[u8]) -> Option<u64> {
    let v: Value = serde_json::from_slice(resp).ok()?;
    v["Item"]["version"]["N"].as_str()?.parse().ok()
}

/// Optimistic-concurrency puts racing on HOT_KEYS keys: each task creates a key with
/// `attribute_not_exists`, or bumps its `version` with `version = :expected`; after a
/// ConditionalCheckFailed it re-reads the key (strongly consistent) and tries again. At the end
/// every key's version must equal the number of puts that succeeded on it.
async fn conditional_race(server: &Server, table: &str, concurrency: usize, duration: Duration) -> Result<Value> {
    let conns = connections(server.addr, concurrency).await?;
    let succeeded: Arc<Vec<AtomicU64>> = Arc::new((0..HOT_KEYS).map(|_| AtomicU64::new(0)).collect());
    let t0 = Instant::now();
    let end_at = t0 + duration;
    let s0 = server.cpu_ms();
    let mut handles = Vec::new();
    for (task, mut conn) in conns.into_iter().enumerate() {
        let succeeded = succeeded.clone();
        let table = table.to_string();
        handles.push(tokio::task::spawn_local(async move {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (task as u64 + 1));
            let mut known: Vec<Option<u64>> = vec![None; HOT_KEYS as usize];
            let (mut attempts, mut ok, mut ccf, mut errors, mut rereads) = (0u64, 0u64, 0u64, 0u64, 0u64);
            let mut first_error: Option<String> = None;
            let mut lat = Vec::new();
            while Instant::now() < end_at {
                let k = rng.below(HOT_KEYS);
                let body = hot_put(&table, k, known[k as usize], task);
                let t = Instant::now();
                attempts += 1;
                match conn.call(Op::PutItem, body).await {
                    Ok((200, _)) => {
                        lat.push(t.elapsed().as_micros() as u32);
                        ok += 1;
                        succeeded[k as usize].fetch_add(1, Ordering::Relaxed);
                        known[k as usize] = Some(known[k as usize].unwrap_or(0) + 1);
                    }
                    Ok((400, b)) if contains(&b, b"ConditionalCheckFailed") => {
                        lat.push(t.elapsed().as_micros() as u32);
                        ccf += 1;
                        rereads += 1;
                        match conn.call(Op::GetItem, hot_get(&table, k)).await {
                            Ok((200, b)) => known[k as usize] = version_of(&b),
                            _ => errors += 1,
                        }
                    }
                    Ok((status, b)) => {
                        errors += 1;
                        first_error.get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
                    }
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert_with(|| format!("{e:#}"));
                        let _ = conn.reconnect().await;
                    }
                }
            }
            (attempts, ok, ccf, errors, rereads, first_error, lat)
        }));
    }
    let (mut attempts, mut ok, mut ccf, mut errors, mut rereads) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut first_error = None;
    let mut st = Stats::default();
    for h in handles {
        let (a, o, c, e, r, fe, lat) = h.await?;
        attempts += a;
        ok += o;
        ccf += c;
        errors += e;
        rereads += r;
        if first_error.is_none() {
            first_error = fe;
        }
        st.lat_us.extend(lat);
    }
    let secs = t0.elapsed().as_secs_f64();
    let server_cpu = server.cpu_ms() - s0;
    // The invariant: version == successful puts, per key.
    let mut c = Conn::connect(server.addr).await?;
    let mut consistent = true;
    let mut detail = Vec::new();
    for k in 0..HOT_KEYS {
        let (status, b) = c.call(Op::GetItem, hot_get(table, k)).await?;
        let v = if status == 200 { version_of(&b).unwrap_or(0) } else { 0 };
        let s = succeeded[k as usize].load(Ordering::Relaxed);
        if v != s {
            consistent = false;
            detail.push(format!("HOT#{k:02}: version {v}, successes {s}"));
        }
    }
    Ok(json!({
        "attempts": attempts, "succeeded": ok, "conditional_check_failed": ccf, "errors": errors,
        "rereads": rereads, "seconds": secs, "attempts_per_s": attempts as f64 / secs,
        "succeeded_per_s": ok as f64 / secs, "p50_ms": st.pct(0.5), "p99_ms": st.pct(0.99),
        "server_cpu_ms": server_cpu,
        "consistent": consistent, "inconsistencies": detail, "first_error": first_error,
    }))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

// ---------------------------------------------------------------------------------------------
// One target, start to finish

struct Config {
    shape: Shape,
    duration: Duration,
    warmup: Duration,
    scale: Vec<u32>,
    scale_budget: Duration,
    /// The budget for dynotable-local itself: its 1M point is a target, so it is always measured
    /// unless its load would take longer than this.
    scale_budget_ours: Duration,
    /// How long the concurrency-1 load may run before it stops (its rate is what was loaded).
    c1_budget: Duration,
    startups: usize,
    run_dir: std::path::PathBuf,
}

fn log(msg: impl AsRef<str>) {
    eprintln!("[{}] {}", chrono_now(), msg.as_ref());
}

fn chrono_now() -> String {
    let s = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    format!("{:02}:{:02}:{:02}", (s / 3600) % 24, (s / 60) % 60, s % 60)
}

fn uptime() -> String {
    Command::new("uptime").output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default()
}

async fn run_target(t: &Target, cfg: &Config) -> Value {
    let mut res = json!({"name": t.name, "kind": t.kind, "mode": t.mode, "mode_note": t.mode_note,
                         "command": t.command.join(" "), "uptime_before": uptime()});
    let started = Instant::now();
    if let Err(e) = run_target_inner(t, cfg, &mut res).await {
        log(format!("{}: FAILED: {e:#}", t.name));
        res["failure"] = json!(format!("{e:#}"));
    }
    res["uptime_after"] = json!(uptime());
    res["wall_seconds"] = json!(started.elapsed().as_secs_f64());
    res
}

async fn run_target_inner(t: &Target, cfg: &Config, res: &mut Value) -> Result<()> {
    // Startup and idle RSS: several fresh starts, median; the last start serves the workload.
    let mut startups = Vec::new();
    let mut idle = Vec::new();
    let mut server = None;
    for n in 0..cfg.startups {
        let (s, d) = start(t, &cfg.run_dir, n)?;
        startups.push(d.as_secs_f64() * 1000.0);
        idle.push(s.rss_kb().unwrap_or(0));
        if n + 1 < cfg.startups {
            s.stop();
        } else {
            server = Some(s);
        }
    }
    let server = server.unwrap();
    let mut sorted = startups.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut idle_sorted = idle.clone();
    idle_sorted.sort();
    res["startup_ms"] = json!({"median": sorted[sorted.len() / 2], "min": sorted[0], "all": startups});
    res["idle_rss_kb"] = json!({"median": idle_sorted[idle_sorted.len() / 2], "all": idle});
    log(format!("{}: started (pid {}), startup median {:.1} ms", t.name, server.pid, sorted[sorted.len() / 2]));

    let outcome = workload(t, cfg, &server, res).await;
    res["peak_rss_kb"] = json!(server.hwm_kb());
    res["final_rss_kb"] = json!(server.rss_kb());
    server.stop();
    outcome
}

async fn workload(t: &Target, cfg: &Config, server: &Server, res: &mut Value) -> Result<()> {
    let shape = cfg.shape;
    let main = "Telemetry";
    let n_items = (shape.vehicles * shape.readings) as u64;

    // Load at concurrency 16 into the main table, then RSS.
    create_table(server.addr, main).await?;
    let bodies = Arc::new(batch_bodies(main, shape));
    let (mut st, written, retries) = load(server, bodies, 16, None).await?;
    res["load_c16"] = st.to_json(Some(written));
    res["load_c16"]["unprocessed_retries"] = json!(retries);
    res["rss_after_load_kb"] = json!(server.rss_kb());
    log(format!("{}: load c=16: {written} items in {:.1} s ({:.0} items/s, {} errors)", t.name, st.elapsed.as_secs_f64(),
        written as f64 / st.elapsed.as_secs_f64(), st.errors));
    if written != n_items || st.errors > 0 {
        bail!("load c=16 wrote {written} of {n_items} items: {:?}", st.first_error);
    }

    // Load at concurrency 1 into a second table of the same shape, then drop it.
    let scratch = "TelemetryLoadC1";
    create_table(server.addr, scratch).await?;
    let bodies = Arc::new(batch_bodies(scratch, shape));
    // A slow server is measured on what it loads within the budget (the table is dropped anyway).
    let (mut st, written, retries) = load(server, bodies, 1, Some(cfg.c1_budget)).await?;
    res["load_c1"] = st.to_json(Some(written));
    if written < n_items {
        res["load_c1"]["stopped_by_budget"] = json!(true);
    }
    res["load_c1"]["unprocessed_retries"] = json!(retries);
    log(format!("{}: load c=1: {written} items in {:.1} s ({:.0} items/s)", t.name, st.elapsed.as_secs_f64(),
        written as f64 / st.elapsed.as_secs_f64()));
    {
        let mut c = Conn::connect(server.addr).await?;
        c.call_ok(Op::DeleteTable, json!({"TableName": scratch})).await?;
    }

    validate(server.addr, main, shape).await?;

    // Reads.
    let gets = Arc::new(get_bodies(main, shape, 1));
    let windows = Arc::new(window_bodies(main, shape, 2));
    let gsis = Arc::new(gsi_bodies(main, 3));
    for (key, op, pool) in [("get", Op::GetItem, &gets), ("query", Op::Query, &windows), ("gsi_query", Op::Query, &gsis)] {
        for c in [1usize, 16] {
            let mut st = timed(server, op, pool.clone(), c, cfg.warmup, cfg.duration).await?;
            let k = format!("{key}_c{c}");
            log(format!("{}: {k}: {:.0} ops/s, p50 {:.3} ms, p99 {:.3} ms, errors {}", t.name, st.rate(), st.pct(0.5), st.pct(0.99), st.errors));
            res[k] = st.to_json(None);
        }
    }

    // Full Scan.
    let scan = full_scan(server, main).await?;
    log(format!("{}: scan: {}", t.name, scan));
    res["scan"] = scan;

    // Conditional puts racing.
    let race = conditional_race(server, main, 16, cfg.duration).await?;
    log(format!("{}: conditional race: {}", t.name, race));
    res["conditional_c16"] = race;

    // Query p50 by table size.
    let mut scale = serde_json::Map::new();
    let predicted_rate = res["load_c16"]["items_per_s"].as_f64().unwrap_or(1.0);
    let budget = if t.kind == "dynotable" { cfg.scale_budget_ours } else { cfg.scale_budget };
    for &size in &cfg.scale {
        let vehicles = size / shape.readings;
        let sshape = Shape { vehicles, readings: shape.readings };
        let table = if size == n_items as u32 { main.to_string() } else { format!("Telemetry{size}") };
        let mut entry = json!({"items": size});
        if table != main {
            let predicted = size as f64 / predicted_rate;
            if predicted > budget.as_secs_f64() {
                entry["skipped"] = json!(format!("load ~{:.0} s > {} s budget", predicted, budget.as_secs()));
                log(format!("{}: scale {size}: skipped", t.name));
                scale.insert(size.to_string(), entry);
                continue;
            }
            create_table(server.addr, &table).await?;
            let bodies = Arc::new(batch_bodies(&table, sshape));
            let (st, written, _) = load(server, bodies, 16, Some(budget * 2)).await?;
            entry["load_seconds"] = json!(st.elapsed.as_secs_f64());
            entry["load_items_per_s"] = json!(written as f64 / st.elapsed.as_secs_f64());
            log(format!("{}: scale {size}: loaded {written} items in {:.1} s", t.name, st.elapsed.as_secs_f64()));
            if written != size as u64 {
                entry["skipped"] = json!(format!("load aborted after {written} items ({:.0} s)", st.elapsed.as_secs_f64()));
                scale.insert(size.to_string(), entry);
                continue;
            }
            validate(server.addr, &table, sshape).await?;
        }
        let pool = Arc::new(window_bodies(&table, sshape, 11));
        let mut st = timed(server, Op::Query, pool, 1, cfg.warmup, Duration::from_secs_f64(cfg.duration.as_secs_f64().min(4.0))).await?;
        entry["query_c1"] = st.to_json(None);
        entry["rss_kb"] = json!(server.rss_kb());
        log(format!("{}: scale {size}: query p50 {:.3} ms", t.name, st.pct(0.5)));
        scale.insert(size.to_string(), entry);
    }
    res["scale"] = Value::Object(scale);
    Ok(())
}

/// `--attach PID:PORT --phase P [--concurrency N]`: one phase against a server someone else
/// started (to profile it with perf while the driver loads it). Phases: create, load, get,
/// query, gsi, scan, race, list.
async fn attach(pid: u32, port: u16, phase: &str, concurrency: usize, cfg: &Config) -> Result<()> {
    let server = Server { child: None, pid, addr: format!("127.0.0.1:{port}").parse()? };
    let (main, shape) = ("Telemetry", cfg.shape);
    let out = match phase {
        "create" => {
            create_table(server.addr, main).await?;
            json!("created")
        }
        "load" => {
            let (mut st, written, _) = load(&server, Arc::new(batch_bodies(main, shape)), concurrency, None).await?;
            st.to_json(Some(written))
        }
        "get" => timed(&server, Op::GetItem, Arc::new(get_bodies(main, shape, 1)), concurrency, cfg.warmup, cfg.duration).await?.to_json(None),
        "query" => timed(&server, Op::Query, Arc::new(window_bodies(main, shape, 2)), concurrency, cfg.warmup, cfg.duration).await?.to_json(None),
        "gsi" => timed(&server, Op::Query, Arc::new(gsi_bodies(main, 3)), concurrency, cfg.warmup, cfg.duration).await?.to_json(None),
        "scan" => full_scan(&server, main).await?,
        // ListTables touches no item: the floor of HTTP + dispatch, for comparison.
        "list" => timed(&server, Op::ListTables, Arc::new(vec![Bytes::from_static(b"{}")]), concurrency, cfg.warmup, cfg.duration)
            .await?
            .to_json(None),
        "race" => conditional_race(&server, main, concurrency, cfg.duration).await?,
        other => bail!("unknown phase {other}"),
    };
    println!("{out}");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Report

fn f(v: &Value) -> Option<f64> {
    v.as_f64()
}

fn fmt_rate(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            let n = x.round() as u64;
            let s = n.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
        _ => "—".into(),
    }
}

fn fmt_ms(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            if x < 1.0 {
                format!("{x:.3}")
            } else if x < 100.0 {
                format!("{x:.2}")
            } else {
                format!("{x:.0}")
            }
        }
        _ => "—".into(),
    }
}

fn mb(v: Option<f64>) -> String {
    v.map_or("—".into(), |kb| format!("{:.1}", kb / 1024.0))
}

fn column(r: &Value) -> String {
    format!("{} ({})", r["name"].as_str().unwrap_or("?"), r["mode"].as_str().unwrap_or("?"))
}

fn report(results: &[Value], cfg: &Config, header: &str) -> String {
    let mut md = String::new();
    md.push_str(header);
    md.push('\n');
    md.push_str("| | ");
    md.push_str(&results.iter().map(column).collect::<Vec<_>>().join(" | "));
    md.push_str(" |\n|---|");
    md.push_str(&"---:|".repeat(results.len()));
    md.push('\n');
    let row = |md: &mut String, label: &str, cell: &dyn Fn(&Value) -> String| {
        md.push_str(&format!("| {label} | "));
        md.push_str(&results.iter().map(|r| if r.get("failure").is_some() && cell(r) == "—" { "failed".into() } else { cell(r) }).collect::<Vec<_>>().join(" | "));
        md.push_str(" |\n");
    };
    let n = cfg.shape.vehicles * cfg.shape.readings;
    row(&mut md, &format!("startup → first ListTables 200, ms (median of {})", cfg.startups), &|r| fmt_ms(f(&r["startup_ms"]["median"])));
    row(&mut md, &format!("idle RSS right after startup, MB (median of {})", cfg.startups), &|r| mb(f(&r["idle_rss_kb"]["median"])));
    row(&mut md, &format!("RSS after the {n}-item load, MB"), &|r| mb(f(&r["rss_after_load_kb"])));
    row(&mut md, "peak RSS (VmHWM) at the end, MB", &|r| mb(f(&r["peak_rss_kb"])));
    for (k, label) in [("load_c1", "BatchWriteItem load c=1"), ("load_c16", "BatchWriteItem load c=16")] {
        row(&mut md, &format!("{label}: items/s"), &|r| fmt_rate(f(&r[k]["items_per_s"])));
        row(&mut md, &format!("{label}: batch p50 / p99 ms"), &|r| format!("{} / {}", fmt_ms(f(&r[k]["p50_ms"])), fmt_ms(f(&r[k]["p99_ms"]))));
    }
    for (k, label) in [("get", "GetItem"), ("query", "Query 50-item window, newest first"), ("gsi_query", "Query GSI ByDepot, Limit 100")] {
        for c in [1, 16] {
            let key = format!("{k}_c{c}");
            row(&mut md, &format!("{label} c={c}: ops/s"), &|r| fmt_rate(f(&r[&key]["ops_per_s"])));
            row(&mut md, &format!("{label} c={c}: p50 / p99 ms"), &|r| format!("{} / {}", fmt_ms(f(&r[&key]["p50_ms"])), fmt_ms(f(&r[&key]["p99_ms"]))));
        }
    }
    row(&mut md, "full paginated Scan: seconds (pages)", &|r| {
        format!("{} ({})", fmt_ms(f(&r["scan"]["seconds"])), r["scan"]["pages"].as_u64().map_or("—".into(), |p| p.to_string()))
    });
    row(&mut md, "conditional puts, 8 hot keys, c=16: attempts/s", &|r| fmt_rate(f(&r["conditional_c16"]["attempts_per_s"])));
    row(&mut md, "… succeeded / ConditionalCheckFailed / other errors", &|r| {
        let c = &r["conditional_c16"];
        if c.is_null() {
            return "—".into();
        }
        format!("{} / {} / {}", c["succeeded"], c["conditional_check_failed"], c["errors"])
    });
    row(&mut md, "… every key's version == its successful puts", &|r| match r["conditional_c16"]["consistent"].as_bool() {
        Some(true) => "yes".into(),
        Some(false) => "**NO**".into(),
        None => "—".into(),
    });
    for &size in &cfg.scale {
        row(&mut md, &format!("Query window p50 on {} items, ms", fmt_rate(Some(size as f64))), &|r| {
            let e = &r["scale"][size.to_string()];
            if let Some(s) = e["skipped"].as_str() {
                format!("skipped: {s}")
            } else {
                fmt_ms(f(&e["query_c1"]["p50_ms"]))
            }
        });
    }
    if cfg.scale.len() >= 2 {
        let (lo, hi) = (cfg.scale[0].to_string(), cfg.scale[cfg.scale.len() - 1].to_string());
        row(&mut md, &format!("… p50 ratio {} / {}", fmt_rate(Some(cfg.scale[cfg.scale.len() - 1] as f64)), fmt_rate(Some(cfg.scale[0] as f64))), &|r| {
            match (f(&r["scale"][&hi]["query_c1"]["p50_ms"]), f(&r["scale"][&lo]["query_c1"]["p50_ms"])) {
                (Some(a), Some(b)) => format!("{:.2}×", a / b),
                _ => "—".into(),
            }
        });
    }
    row(&mut md, "server CPU per GetItem (c=16), µs", &|r| fmt_ms(f(&r["get_c16"]["server_cpu_us_per_op"])));
    row(&mut md, "server CPU per window Query (c=16), µs", &|r| fmt_ms(f(&r["query_c16"]["server_cpu_us_per_op"])));
    row(&mut md, "server CPU per BatchWriteItem of 25 (c=16), µs", &|r| fmt_ms(f(&r["load_c16"]["server_cpu_us_per_op"])));
    row(&mut md, "wall time for this server's whole run, s", &|r| format!("{:.0}", f(&r["wall_seconds"]).unwrap_or(f64::NAN)));
    md.push('\n');

    for r in results {
        if r["load_c1"]["stopped_by_budget"].as_bool() == Some(true) {
            md.push_str(&format!(
                "- {}: the c=1 load stopped at its {} s budget, after {} of {n} items; its rate is over those.\n",
                column(r),
                cfg.c1_budget.as_secs(),
                r["load_c1"]["items"]
            ));
        }
        if let Some(e) = r["failure"].as_str() {
            md.push_str(&format!("- **{}** failed: `{}`\n", column(r), e.replace('`', "'")));
        }
        for k in ["load_c1", "load_c16", "get_c1", "get_c16", "query_c1", "query_c16", "gsi_query_c1", "gsi_query_c16", "conditional_c16"] {
            if r[k]["errors"].as_u64().unwrap_or(0) > 0 {
                md.push_str(&format!("- {} {k}: {} errors, first: `{}`\n", column(r), r[k]["errors"], r[k]["first_error"].as_str().unwrap_or("").chars().take(300).collect::<String>().replace('`', "'")));
            }
        }
    }
    md.push('\n');
    md.push_str(&ratios(results, cfg));
    md.push_str("\nMachine load per server (`uptime` before → after its run):\n\n");
    for r in results {
        let la = |s: &str| s.split("load average:").nth(1).unwrap_or("?").trim().to_string();
        md.push_str(&format!("- {}: {} → {}\n", column(r), la(r["uptime_before"].as_str().unwrap_or("")), la(r["uptime_after"].as_str().unwrap_or(""))));
    }
    md
}

/// The targets of issue 3 as ratios, each dynotable-local mode against the peer in the same
/// mode (or, when the peer has no such mode here, the mode it has, said so).
fn ratios(results: &[Value], cfg: &Config) -> String {
    let mut md = String::from("| target | dynotable-local | vs | ratio | met? |\n|---|---|---|---:|:---:|\n");
    let ours: Vec<&Value> = results.iter().filter(|r| r["kind"] == "dynotable").collect();
    let peer_for = |kind: &str, mode: &Value| -> Option<&Value> {
        results.iter().find(|r| r["kind"] == kind && r["mode"] == *mode).or_else(|| results.iter().find(|r| r["kind"] == kind))
    };
    // (label, json path, higher is better, min ratio vs dynoxide)
    let metrics: Vec<(&str, Vec<&str>, bool, f64)> = vec![
        ("BatchWriteItem load c=1, items/s", vec!["load_c1", "items_per_s"], true, 10.0),
        ("BatchWriteItem load c=16, items/s", vec!["load_c16", "items_per_s"], true, 10.0),
        ("GetItem c=1, ops/s", vec!["get_c1", "ops_per_s"], true, 2.0),
        ("GetItem c=16, ops/s", vec!["get_c16", "ops_per_s"], true, 2.0),
        ("Query window c=1, ops/s", vec!["query_c1", "ops_per_s"], true, 4.0),
        ("Query window c=16, ops/s", vec!["query_c16", "ops_per_s"], true, 4.0),
        ("Query GSI c=1, ops/s", vec!["gsi_query_c1", "ops_per_s"], true, 4.0),
        ("Query GSI c=16, ops/s", vec!["gsi_query_c16", "ops_per_s"], true, 4.0),
        ("full Scan, seconds", vec!["scan", "seconds"], false, 1.0),
        ("conditional puts c=16, attempts/s", vec!["conditional_c16", "attempts_per_s"], true, 1.0),
    ];
    let get = |r: &Value, p: &[&str]| -> Option<f64> {
        let mut v = r;
        for k in p {
            v = &v[*k];
        }
        v.as_f64()
    };
    for us in &ours {
        for (peer_kind, floor_for) in [("dynoxide", None), ("dynalite", Some(5.0))] {
            let Some(peer) = peer_for(peer_kind, &us["mode"]) else { continue };
            for (label, path, higher, min_dynoxide) in &metrics {
                let min = floor_for.unwrap_or(*min_dynoxide);
                let ratio = match (get(us, path), get(peer, path)) {
                    (Some(a), Some(b)) if a > 0.0 && b > 0.0 => Some(if *higher { a / b } else { b / a }),
                    _ => None,
                };
                let goal = if min > 1.0 { format!("≥ {min}× {peer_kind}") } else { format!("ahead of {peer_kind}") };
                let met = ratio.map_or("—", |x| if x >= min { "met" } else { "**missed**" });
                md.push_str(&format!(
                    "| {label}: {goal} | {} | {} | {} | {met} |\n",
                    us["mode"].as_str().unwrap_or("?"),
                    column(peer),
                    ratio.map_or("—".into(), |x| format!("{x:.2}×"))
                ));
            }
        }
        let start = get(us, &["startup_ms", "median"]);
        md.push_str(&format!("| startup < 20 ms | {} | — | {} ms | {} |\n", us["mode"].as_str().unwrap_or("?"), fmt_ms(start),
            start.map_or("—", |s| if s < 20.0 { "met" } else { "**missed**" })));
        let idle = get(us, &["idle_rss_kb", "median"]).map(|kb| kb / 1024.0);
        md.push_str(&format!("| idle RSS < 20 MB | {} | — | {} MB | {} |\n", us["mode"].as_str().unwrap_or("?"), idle.map_or("—".into(), |m| format!("{m:.1}")),
            idle.map_or("—", |m| if m < 20.0 { "met" } else { "**missed**" })));
        if cfg.scale.len() >= 2 {
            let (lo, hi) = (cfg.scale[0].to_string(), cfg.scale[cfg.scale.len() - 1].to_string());
            let r = match (get(us, &["scale", &hi, "query_c1", "p50_ms"]), get(us, &["scale", &lo, "query_c1", "p50_ms"])) {
                (Some(a), Some(b)) => Some(a / b),
                _ => None,
            };
            md.push_str(&format!("| Query p50 at {} within 1.5× of {} | {} | — | {} | {} |\n", fmt_rate(Some(cfg.scale[cfg.scale.len() - 1] as f64)),
                fmt_rate(Some(cfg.scale[0] as f64)), us["mode"].as_str().unwrap_or("?"), r.map_or("skipped".into(), |x| format!("{x:.2}×")),
                r.map_or("—", |x| if x <= 1.5 { "met" } else { "**missed**" })));
        }
    }
    md
}

// ---------------------------------------------------------------------------------------------

fn parse_target(spec: &str) -> Result<Target> {
    let mut parts = spec.splitn(4, '|');
    let name = parts.next().ok_or_else(|| anyhow!("target: no name"))?.to_string();
    let kind = parts.next().ok_or_else(|| anyhow!("target: no kind"))?.to_string();
    let mode_full = parts.next().ok_or_else(|| anyhow!("target: no mode"))?;
    let command: Vec<String> = parts.next().ok_or_else(|| anyhow!("target: no command"))?.split_whitespace().map(String::from).collect();
    let (mode, mode_note) = mode_full.split_once(':').map_or((mode_full, ""), |(a, b)| (a, b));
    Ok(Target { name, kind, mode: mode.into(), mode_note: mode_note.into(), command })
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut targets = Vec::new();
    let mut out_json = None;
    let mut out_md = None;
    let mut header = String::new();
    let mut cfg = Config {
        shape: Shape { vehicles: 1000, readings: 100 },
        duration: Duration::from_secs(5),
        warmup: Duration::from_millis(500),
        scale: vec![10_000, 100_000, 1_000_000],
        scale_budget: Duration::from_secs(240),
        scale_budget_ours: Duration::from_secs(900),
        c1_budget: Duration::from_secs(60),
        startups: 5,
        run_dir: std::env::temp_dir().join("dynobench"),
    };
    let mut attach_to: Option<(u32, u16)> = None;
    let mut phase = String::new();
    let mut concurrency = 16usize;
    let mut i = 0;
    while i < args.len() {
        let val = || args.get(i + 1).cloned().ok_or_else(|| anyhow!("{} needs a value", args[i]));
        match args[i].as_str() {
            "--target" => targets.push(parse_target(&val()?)?),
            "--attach" => {
                let v = val()?;
                let (p, port) = v.split_once(':').ok_or_else(|| anyhow!("--attach PID:PORT"))?;
                attach_to = Some((p.parse()?, port.parse()?));
            }
            "--phase" => phase = val()?,
            "--concurrency" => concurrency = val()?.parse()?,
            "--out-json" => out_json = Some(val()?),
            "--out-md" => out_md = Some(val()?),
            "--header" => header = val()?,
            "--vehicles" => cfg.shape.vehicles = val()?.parse()?,
            "--readings" => cfg.shape.readings = val()?.parse()?,
            "--duration" => cfg.duration = Duration::from_secs_f64(val()?.parse()?),
            "--warmup" => cfg.warmup = Duration::from_secs_f64(val()?.parse()?),
            "--scale" => cfg.scale = val()?.split(',').filter(|s| !s.is_empty()).map(|s| s.parse()).collect::<Result<_, _>>()?,
            "--scale-budget" => cfg.scale_budget = Duration::from_secs(val()?.parse()?),
            "--c1-budget" => cfg.c1_budget = Duration::from_secs(val()?.parse()?),
            "--scale-budget-ours" => cfg.scale_budget_ours = Duration::from_secs(val()?.parse()?),
            "--startups" => cfg.startups = val()?.parse()?,
            "--run-dir" => cfg.run_dir = val()?.into(),
            "--item-size" => {
                let sizes: Vec<usize> = (0..1000).map(|k| item_size(&serde_json::from_str(&item_json(k, k % 100)).unwrap())).collect();
                println!("mean item size {} bytes", sizes.iter().sum::<usize>() / sizes.len());
                return Ok(());
            }
            other => bail!("unknown argument {other}"),
        }
        i += 2;
    }
    if let Some((pid, port)) = attach_to {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        return tokio::task::LocalSet::new().block_on(&rt, attach(pid, port, &phase, concurrency, &cfg));
    }
    if targets.is_empty() {
        bail!("no --target given");
    }
    let _ = std::fs::remove_dir_all(&cfg.run_dir);
    std::fs::create_dir_all(&cfg.run_dir)?;
    let sizes: Vec<usize> = (0..1000).map(|k| item_size(&serde_json::from_str(&item_json(k, k % 100)).unwrap())).collect();
    let mean_size = sizes.iter().sum::<usize>() / sizes.len();
    log(format!("{} targets; {} vehicles × {} readings, mean item size {mean_size} bytes", targets.len(), cfg.shape.vehicles, cfg.shape.readings));

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let local = tokio::task::LocalSet::new();
    let mut results = Vec::new();
    for t in &targets {
        log(format!("=== {} ({}) ===", t.name, t.mode));
        let r = local.block_on(&rt, run_target(t, &cfg));
        results.push(r);
        if let Some(p) = &out_json {
            std::fs::write(p, serde_json::to_string_pretty(&json!({"mean_item_bytes": mean_size, "results": results}))?)?;
        }
    }
    let md = report(&results, &cfg, &header);
    if let Some(p) = &out_md {
        std::fs::write(p, &md)?;
    }
    println!("{md}");
    Ok(())
}
