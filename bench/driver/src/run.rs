//! One target, start to finish: startups, the workload's phases in order, the table-size
//! curve; and `--attach`, one phase against a server started by hand.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::phases::*;
use crate::process::*;
use crate::workload::*;

pub(crate) struct Config {
    pub(crate) shape: Shape,
    pub(crate) duration: Duration,
    pub(crate) warmup: Duration,
    pub(crate) scale: Vec<u32>,
    pub(crate) scale_budget: Duration,
    /// The budget for dynotable-local itself: its 1M point is a target, so it is always measured
    /// unless its load would take longer than this.
    pub(crate) scale_budget_ours: Duration,
    /// How long the concurrency-1 load may run before it stops (its rate is what was loaded).
    pub(crate) c1_budget: Duration,
    pub(crate) startups: usize,
    /// Items the streams phase puts while its consumer tails the stream.
    pub(crate) stream_items: u32,
    pub(crate) run_dir: std::path::PathBuf,
    /// The phases to run after the startups and the c=16 load (which the others read), or
    /// `None` for all: `load_c1`, `get`, `query`, `gsi_query`, `scan`, `race`, `tx`, `streams`,
    /// `scale` (`--phases`, for quick iterations on a few figures).
    pub(crate) phases: Option<Vec<String>>,
    /// The table an attached phase reads or writes (`--table`, default `Telemetry`): e.g.
    /// `Telemetry1000000` with `--vehicles 10000` for the scale phase's 1M table.
    pub(crate) table: String,
    /// `--pair-table NAME:VEHICLES`: the attached phase `query-pair` alternates its window
    /// Queries with ones on this table (e.g. `Telemetry10000:100`).
    pub(crate) pair_table: Option<(String, u32)>,
}

impl Config {
    /// Whether `phase` is to run.
    pub(crate) fn runs(&self, phase: &str) -> bool {
        self.phases
            .as_ref()
            .is_none_or(|phases| phases.iter().any(|p| p == phase))
    }
}

/// The phase names `--phases` accepts.
pub(crate) const PHASES: [&str; 9] = [
    "load_c1",
    "get",
    "query",
    "gsi_query",
    "scan",
    "race",
    "tx",
    "streams",
    "scale",
];

pub(crate) fn log(msg: impl AsRef<str>) {
    eprintln!("[{}] {}", chrono_now(), msg.as_ref());
}

pub(crate) fn chrono_now() -> String {
    let s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!("{:02}:{:02}:{:02}", (s / 3600) % 24, (s / 60) % 60, s % 60)
}

pub(crate) fn uptime() -> String {
    Command::new("uptime")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

pub(crate) async fn run_target(t: &Target, cfg: &Config) -> Value {
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

pub(crate) async fn run_target_inner(t: &Target, cfg: &Config, res: &mut Value) -> Result<()> {
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
    log(format!(
        "{}: started (pid {}), startup median {:.1} ms",
        t.name,
        server.pid,
        sorted[sorted.len() / 2]
    ));

    let outcome = workload(t, cfg, &server, res).await;
    res["peak_rss_kb"] = json!(server.hwm_kb());
    res["final_rss_kb"] = json!(server.rss_kb());
    server.stop();
    outcome?;
    if t.kind == "dynotable" && t.mode == "file" && cfg.runs("scale") {
        scale_without_cache(t, cfg, res).await?;
    }
    Ok(())
}

/// The scale phase again with dynotable-local's item cache off (`--cache-mb 0`), on the same
/// database file: the 10k and 100k tables fit the cache and the 1M table does not, so with the
/// cache on the 1M/10k ratio compares a cache miss with a hit; with it off it compares SQLite
/// with SQLite, which is what "Query p50 at 1M within 1.5× of 10k" asks of the storage.
async fn scale_without_cache(t: &Target, cfg: &Config, res: &mut Value) -> Result<()> {
    let (server, _) = restart(
        t,
        &cfg.run_dir,
        cfg.startups - 1,
        &["--cache-mb", "0"],
        "server-cache-off.log",
    )?;
    let n_items = cfg.shape.vehicles * cfg.shape.readings;
    for &size in &cfg.scale {
        let key = size.to_string();
        if res["scale"][&key]["query_c1"].is_null() {
            continue;
        }
        let sshape = Shape {
            vehicles: size / cfg.shape.readings,
            readings: cfg.shape.readings,
        };
        let table = if size == n_items {
            "Telemetry".to_string()
        } else {
            format!("Telemetry{size}")
        };
        let pool = Arc::new(window_bodies(&table, sshape, 11));
        let outcome = timed(
            &server,
            Op::Query,
            pool,
            1,
            cfg.warmup,
            Duration::from_secs_f64(cfg.duration.as_secs_f64().min(4.0)),
        )
        .await;
        match outcome {
            Ok(mut st) => {
                log(format!(
                    "{}: scale {size}, item cache off: query p50 {:.3} ms",
                    t.name,
                    st.pct(0.5)
                ));
                res["scale"][&key]["query_c1_cache_off"] = st.figures(None);
            }
            Err(e) => res["scale"][&key]["query_c1_cache_off"] = json!({"phase_error": format!("{e:#}")}),
        }
    }
    server.stop();
    Ok(())
}

pub(crate) async fn workload(t: &Target, cfg: &Config, server: &Server, res: &mut Value) -> Result<()> {
    let shape = cfg.shape;
    let main = "Telemetry";
    let n_items = (shape.vehicles * shape.readings) as u64;
    if t.kind == "floor" {
        return floor_reads(t, cfg, server, res).await;
    }

    // Load at concurrency 16 into the main table, then RSS.
    create_table(server.addr, main).await?;
    let bodies = Arc::new(batch_bodies(main, shape));
    let (mut st, written, retries) = load(server, bodies, 16, None).await?;
    res["load_c16"] = st.figures(Some(written));
    res["load_c16"]["unprocessed_retries"] = json!(retries);
    res["rss_after_load_kb"] = json!(server.rss_kb());
    log(format!(
        "{}: load c=16: {written} items in {:.1} s ({:.0} items/s, {} errors)",
        t.name,
        st.elapsed.as_secs_f64(),
        written as f64 / st.elapsed.as_secs_f64(),
        st.errors
    ));
    if written != n_items || st.errors > 0 {
        bail!(
            "load c=16 wrote {written} of {n_items} items: {:?}",
            st.first_error
        );
    }

    // Load at concurrency 1 into a second table of the same shape, then drop it.
    if cfg.runs("load_c1") {
        load_c1(t, cfg, server, res).await?;
    }

    validate(server.addr, main, shape).await?;
    reads_and_the_rest(t, cfg, server, res).await
}

/// The `floor` target (`dynobench serve-floor`): a server that answers every request with the
/// same GetItem response. Only the GetItem phase means anything against it: nothing is loaded
/// (its answer to BatchWriteItem would not be one), and of the sample checks only GetItem's
/// can pass (the canned item is a workload item); the Query checks are not run.
async fn floor_reads(t: &Target, cfg: &Config, server: &Server, res: &mut Value) -> Result<()> {
    let gets = Arc::new(get_bodies("Telemetry", cfg.shape, 1));
    validate_get(server.addr, "Telemetry", cfg.shape).await?;
    if !cfg.runs("get") {
        return Ok(());
    }
    for c in [1usize, 16] {
        let mut st = timed(server, Op::GetItem, gets.clone(), c, cfg.warmup, cfg.duration).await?;
        log(format!(
            "{}: get_c{c}: {:.0} ops/s, p50 {:.3} ms, p99 {:.3} ms, errors {}",
            t.name,
            st.rate(),
            st.pct(0.5),
            st.pct(0.99),
            st.errors
        ));
        res[format!("get_c{c}")] = st.figures(None);
    }
    Ok(())
}

async fn load_c1(t: &Target, cfg: &Config, server: &Server, res: &mut Value) -> Result<()> {
    let shape = cfg.shape;
    let n_items = (shape.vehicles * shape.readings) as u64;
    let scratch = "TelemetryLoadC1";
    create_table(server.addr, scratch).await?;
    let bodies = Arc::new(batch_bodies(scratch, shape));
    // A slow server is measured on what it loads within the budget (the table is dropped anyway).
    let (mut st, written, retries) = load(server, bodies, 1, Some(cfg.c1_budget)).await?;
    res["load_c1"] = st.figures(Some(written));
    if written < n_items {
        res["load_c1"]["stopped_by_budget"] = json!(true);
    }
    res["load_c1"]["unprocessed_retries"] = json!(retries);
    log(format!(
        "{}: load c=1: {written} items in {:.1} s ({:.0} items/s)",
        t.name,
        st.elapsed.as_secs_f64(),
        written as f64 / st.elapsed.as_secs_f64()
    ));
    {
        let mut c = Conn::connect(server.addr).await?;
        c.call_ok(Op::DeleteTable, json!({"TableName": scratch})).await?;
    }
    Ok(())
}

async fn reads_and_the_rest(t: &Target, cfg: &Config, server: &Server, res: &mut Value) -> Result<()> {
    let shape = cfg.shape;
    let main = "Telemetry";
    let n_items = (shape.vehicles * shape.readings) as u64;

    // Reads.
    let gets = Arc::new(get_bodies(main, shape, 1));
    let windows = Arc::new(window_bodies(main, shape, 2));
    let gsis = Arc::new(gsi_bodies(main, 3));
    for (key, op, pool) in [
        ("get", Op::GetItem, &gets),
        ("query", Op::Query, &windows),
        ("gsi_query", Op::Query, &gsis),
    ] {
        if !cfg.runs(key) {
            continue;
        }
        for c in [1usize, 16] {
            let mut st = timed(server, op, pool.clone(), c, cfg.warmup, cfg.duration).await?;
            let k = format!("{key}_c{c}");
            log(format!(
                "{}: {k}: {:.0} ops/s, p50 {:.3} ms, p99 {:.3} ms, errors {}",
                t.name,
                st.rate(),
                st.pct(0.5),
                st.pct(0.99),
                st.errors
            ));
            res[k] = st.figures(None);
        }
    }

    // Full Scan.
    if cfg.runs("scan") {
        let scan = full_scan(server, main).await?;
        log(format!("{}: scan: {}", t.name, scan));
        res["scan"] = scan;
    }

    // Conditional puts racing.
    if cfg.runs("race") {
        let race = conditional_race(server, main, 16, cfg.duration).await?;
        log(format!("{}: conditional race: {}", t.name, race));
        res["conditional_c16"] = race;
    }

    // TransactWriteItems at c=1 and c=16, each on a fresh table. These two phases cover
    // operations a peer may lack or get wrong: an error is recorded and the run goes on.
    for c in [1usize, 16].into_iter().filter(|_| cfg.runs("tx")) {
        let tx = phase_outcome(transactions(server, &format!("TelemetryTx{c}"), c, cfg.duration).await);
        log(format!("{}: transactions c={c}: {}", t.name, tx_summary(&tx)));
        res[format!("tx_c{c}")] = tx;
    }

    // A DynamoDB Streams consumer tailing a table while it is written, then the backlog.
    if cfg.runs("streams") {
        let streams = phase_outcome(
            stream_consumer(server, "TelemetryStream", shape, cfg.stream_items, cfg.c1_budget).await,
        );
        log(format!("{}: streams: {}", t.name, streams_summary(&streams)));
        res["streams"] = streams;
    }
    if !cfg.runs("scale") {
        return Ok(());
    }

    // Query p50 by table size.
    let mut scale = serde_json::Map::new();
    let predicted_rate = res["load_c16"]["items_per_s"].as_f64().unwrap_or(1.0);
    let budget = if t.kind == "dynotable" {
        cfg.scale_budget_ours
    } else {
        cfg.scale_budget
    };
    for &size in &cfg.scale {
        let vehicles = size / shape.readings;
        let sshape = Shape {
            vehicles,
            readings: shape.readings,
        };
        let table = if size == n_items as u32 {
            main.to_string()
        } else {
            format!("Telemetry{size}")
        };
        let mut entry = json!({"items": size});
        if table != main {
            let predicted = size as f64 / predicted_rate;
            if predicted > budget.as_secs_f64() {
                entry["skipped"] = json!(format!(
                    "load ~{:.0} s > {} s budget",
                    predicted,
                    budget.as_secs()
                ));
                log(format!("{}: scale {size}: skipped", t.name));
                scale.insert(size.to_string(), entry);
                continue;
            }
            create_table(server.addr, &table).await?;
            let bodies = Arc::new(batch_bodies(&table, sshape));
            let (st, written, _) = load(server, bodies, 16, Some(budget * 2)).await?;
            entry["load_seconds"] = json!(st.elapsed.as_secs_f64());
            entry["load_items_per_s"] = json!(written as f64 / st.elapsed.as_secs_f64());
            log(format!(
                "{}: scale {size}: loaded {written} items in {:.1} s",
                t.name,
                st.elapsed.as_secs_f64()
            ));
            if written != size as u64 {
                entry["skipped"] = json!(format!(
                    "load aborted after {written} items ({:.0} s)",
                    st.elapsed.as_secs_f64()
                ));
                scale.insert(size.to_string(), entry);
                continue;
            }
            validate(server.addr, &table, sshape).await?;
        }
        let pool = Arc::new(window_bodies(&table, sshape, 11));
        let mut st = timed(
            server,
            Op::Query,
            pool,
            1,
            cfg.warmup,
            Duration::from_secs_f64(cfg.duration.as_secs_f64().min(4.0)),
        )
        .await?;
        entry["query_c1"] = st.figures(None);
        entry["rss_kb"] = json!(server.rss_kb());
        log(format!(
            "{}: scale {size}: query p50 {:.3} ms",
            t.name,
            st.pct(0.5)
        ));
        scale.insert(size.to_string(), entry);
    }
    res["scale"] = Value::Object(scale);
    Ok(())
}

/// A phase's figures, or `{"phase_error": …}` when it failed.
fn phase_outcome(r: Result<Value>) -> Value {
    r.unwrap_or_else(|e| json!({"phase_error": format!("{e:#}")}))
}

fn tx_summary(tx: &Value) -> String {
    if let Some(e) = tx["phase_error"].as_str() {
        return format!("FAILED: {e}");
    }
    if tx["supported"] == false {
        return format!("not supported ({})", tx["answer"].as_str().unwrap_or("?"));
    }
    format!(
        "{:.0} committed/s of {:.0} attempts/s, p50 {:.3} ms, p99 {:.3} ms, cancelled {} {}, errors {}, effects consistent: {}",
        tx["committed_per_s"].as_f64().unwrap_or(f64::NAN),
        tx["attempts_per_s"].as_f64().unwrap_or(f64::NAN),
        tx["p50_ms"].as_f64().unwrap_or(f64::NAN),
        tx["p99_ms"].as_f64().unwrap_or(f64::NAN),
        tx["cancelled"],
        tx["cancellation_reasons"],
        tx["errors"],
        tx["consistent"]
    )
}

fn streams_summary(s: &Value) -> String {
    if let Some(e) = s["phase_error"].as_str() {
        return format!("FAILED: {e}");
    }
    if s["supported"] == false {
        return format!("not supported ({})", s["answer"].as_str().unwrap_or("?"));
    }
    format!(
        "{} of {} records seen live, {:.0} records/s, lag p50 {:.3} ms p99 {:.3} ms ({} before the ack); backlog {:.0} records/s; consistent: {}",
        s["records_seen"],
        s["written"],
        s["records_per_s"].as_f64().unwrap_or(f64::NAN),
        s["lag_p50_ms"].as_f64().unwrap_or(f64::NAN),
        s["lag_p99_ms"].as_f64().unwrap_or(f64::NAN),
        s["seen_before_ack"],
        s["backlog"]["records_per_s"].as_f64().unwrap_or(f64::NAN),
        s["consistent"]
    )
}

/// Window Queries at concurrency 1 that alternate, request by request, between a small table
/// and a large one, so that both see the same moments of a busy machine: the p50 of each and
/// their ratio (the scale phase's "1M within 1.5× of 10k", measured side by side).
async fn query_pair(
    server: &Server,
    small: (&str, Shape),
    large: (&str, Shape),
    cfg: &Config,
) -> Result<Value> {
    let pools = [
        window_bodies(small.0, small.1, 11),
        window_bodies(large.0, large.1, 11),
    ];
    let mut conn = connections(server.addr, 1).await?.pop().expect("one connection");
    let start_at = Instant::now() + cfg.warmup;
    let end_at = start_at + cfg.duration;
    let mut lat: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut cpu0 = None;
    let mut n = 0usize;
    loop {
        let t = Instant::now();
        if t >= end_at {
            break;
        }
        if t >= start_at && cpu0.is_none() {
            cpu0 = Some(server.cpu_ms());
        }
        let which = n % 2;
        let body = pools[which][(n / 2) % pools[which].len()].clone();
        n += 1;
        match conn.call(Op::Query, body).await {
            Ok((200, _)) => {
                if t >= start_at {
                    lat[which].push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                }
            }
            Ok((status, b)) => bail!("HTTP {status}: {}", String::from_utf8_lossy(&b)),
            Err(e) => return Err(e),
        }
    }
    let cpu_ms = server.cpu_ms() - cpu0.unwrap_or(0);
    let p50 = |v: &mut Vec<u32>| {
        v.sort_unstable();
        v.get(v.len() / 2).map_or(f64::NAN, |&us| us as f64 / 1000.0)
    };
    let (ps, pl) = (p50(&mut lat[0]), p50(&mut lat[1]));
    let ops = lat[0].len() + lat[1].len();
    Ok(json!({
        "small_p50_ms": ps, "large_p50_ms": pl, "ratio": pl / ps,
        "ops": ops, "server_cpu_us_per_op": cpu_ms as f64 * 1000.0 / ops.max(1) as f64,
    }))
}

/// `--attach PID:PORT --phase P [--concurrency N]`: one phase against a server someone else
/// started (to profile it with perf while the driver loads it). Phases: create, load, get,
/// query, gsi, scan, race, tx, streams, list, and query-pair (with `--pair-table`). `--table`
/// names the table they use (default `Telemetry`).
pub(crate) async fn attach(pid: u32, port: u16, phase: &str, concurrency: usize, cfg: &Config) -> Result<()> {
    let server = Server {
        child: None,
        pid,
        addr: format!("127.0.0.1:{port}").parse()?,
    };
    let (main, shape) = (cfg.table.as_str(), cfg.shape);
    let out = match phase {
        "create" => {
            create_table(server.addr, main).await?;
            json!("created")
        }
        "load" => {
            let (mut st, written, _) =
                load(&server, Arc::new(batch_bodies(main, shape)), concurrency, None).await?;
            st.figures(Some(written))
        }
        "get" => timed(
            &server,
            Op::GetItem,
            Arc::new(get_bodies(main, shape, 1)),
            concurrency,
            cfg.warmup,
            cfg.duration,
        )
        .await?
        .figures(None),
        "query" => timed(
            &server,
            Op::Query,
            Arc::new(window_bodies(main, shape, 2)),
            concurrency,
            cfg.warmup,
            cfg.duration,
        )
        .await?
        .figures(None),
        "gsi" => timed(
            &server,
            Op::Query,
            Arc::new(gsi_bodies(main, 3)),
            concurrency,
            cfg.warmup,
            cfg.duration,
        )
        .await?
        .figures(None),
        "scan" => full_scan(&server, main).await?,
        "query-pair" => {
            let (small, vehicles) = cfg
                .pair_table
                .clone()
                .ok_or_else(|| anyhow::anyhow!("query-pair needs --pair-table NAME:VEHICLES"))?;
            let small_shape = Shape {
                vehicles,
                readings: shape.readings,
            };
            query_pair(&server, (&small, small_shape), (main, shape), cfg).await?
        }
        // ListTables touches no item: the floor of HTTP + dispatch, for comparison.
        "list" => timed(
            &server,
            Op::ListTables,
            Arc::new(vec![Bytes::from_static(b"{}")]),
            concurrency,
            cfg.warmup,
            cfg.duration,
        )
        .await?
        .figures(None),
        "race" => conditional_race(&server, main, concurrency, cfg.duration).await?,
        "tx" => transactions(&server, "TelemetryTx", concurrency, cfg.duration).await?,
        "streams" => {
            stream_consumer(&server, "TelemetryStream", shape, cfg.stream_items, cfg.c1_budget).await?
        }
        other => bail!("unknown phase {other}"),
    };
    println!("{out}");
    Ok(())
}
