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
//!           [--scale-budget 240] [--startups 5] [--stream-items 5000]
//!           [--phases get,query,…]   (only these phases after the startups and the c=16 load)
//! dynobench --attach PID:PORT --phase create|load|get|query|gsi|scan|list|race|tx|streams|query-pair
//!           [--concurrency 16] [--vehicles 1000] [--readings 100] [--duration 5] [--warmup 0.5]
//!           [--table Telemetry] [--pair-table NAME:VEHICLES]
//! ```
//!
//! `--attach` runs one phase against a server someone else started (to profile it while the
//! driver loads it) and prints the phase's figures as one JSON line; the server's CPU is read
//! from `/proc/PID/stat`. `--help` prints the usage.
//!
//! In COMMAND, `{port}` is replaced by a free loopback port and `{dir}` by a fresh empty
//! directory for that start. KIND is `dynotable`, `dynoxide`, `dynalite` or `floor` (a server
//! that answers every request with the same GetItem response: only its startups and GetItem
//! phase run); MODE is `file` or `memory` (`canned` for the floor; free text may follow after a
//! colon, e.g. `file:SQLite WAL synchronous=FULL`).

mod floor;
mod http;
mod phases;
mod process;
mod report;
mod run;
mod workload;

use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use serde_json::json;

use process::*;
use report::*;
use run::*;
use workload::*;

fn parse_target(spec: &str) -> Result<Target> {
    let mut parts = spec.splitn(4, '|');
    let name = parts
        .next()
        .ok_or_else(|| anyhow!("target: no name"))?
        .to_string();
    let kind = parts
        .next()
        .ok_or_else(|| anyhow!("target: no kind"))?
        .to_string();
    let mode_full = parts.next().ok_or_else(|| anyhow!("target: no mode"))?;
    let command: Vec<String> = parts
        .next()
        .ok_or_else(|| anyhow!("target: no command"))?
        .split_whitespace()
        .map(String::from)
        .collect();
    let (mode, mode_note) = mode_full.split_once(':').map_or((mode_full, ""), |(a, b)| (a, b));
    Ok(Target {
        name,
        kind,
        mode: mode.into(),
        mode_note: mode_note.into(),
        command,
    })
}

const USAGE: &str = "\
usage: dynobench --target 'NAME|KIND|MODE|COMMAND…' [--target …] --out-json F --out-md F
                 [--vehicles 1000] [--readings 100] [--duration 5] [--warmup 0.5]
                 [--scale 10000,100000,1000000] [--scale-budget 240] [--startups 5]
                 [--stream-items 5000] [--phases get,query,…] [--header TEXT]
       dynobench --attach PID:PORT --phase create|load|get|query|gsi|scan|list|race|tx|streams|query-pair
                 [--concurrency 16] [--vehicles 1000] [--readings 100] [--duration 5]
                 [--table Telemetry] [--pair-table NAME:VEHICLES] (query-pair: alternates
                 window Queries on --table and on the pair table, both p50s and their ratio)
       dynobench --item-size
In COMMAND, {port} is a free loopback port and {dir} a fresh directory; KIND is dynotable,
dynoxide, dynalite or floor; MODE is file, memory or canned (see bench/README.md).";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    if args.first().map(String::as_str) == Some("serve-floor") {
        return floor::main(&args[1..]);
    }
    let mut targets = Vec::new();
    let mut out_json = None;
    let mut out_md = None;
    let mut header = String::new();
    let mut cfg = Config {
        shape: Shape {
            vehicles: 1000,
            readings: 100,
        },
        duration: Duration::from_secs(5),
        warmup: Duration::from_millis(500),
        scale: vec![10_000, 100_000, 1_000_000],
        scale_budget: Duration::from_secs(240),
        scale_budget_ours: Duration::from_secs(900),
        c1_budget: Duration::from_secs(60),
        startups: 5,
        stream_items: 5000,
        run_dir: std::env::temp_dir().join("dynobench"),
        phases: None,
        table: "Telemetry".to_string(),
        pair_table: None,
    };
    let mut attach_to: Option<(u32, u16)> = None;
    let mut phase = String::new();
    let mut concurrency = 16usize;
    let mut i = 0;
    while i < args.len() {
        let val = || {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| anyhow!("{} needs a value", args[i]))
        };
        match args[i].as_str() {
            "--target" => targets.push(parse_target(&val()?)?),
            "--attach" => {
                let v = val()?;
                let (p, port) = v.split_once(':').ok_or_else(|| anyhow!("--attach PID:PORT"))?;
                attach_to = Some((p.parse()?, port.parse()?));
            }
            "--phase" => phase = val()?,
            "--table" => cfg.table = val()?,
            "--pair-table" => {
                let v = val()?;
                let (name, vehicles) = v
                    .split_once(':')
                    .ok_or_else(|| anyhow!("--pair-table NAME:VEHICLES"))?;
                cfg.pair_table = Some((name.to_string(), vehicles.parse()?));
            }
            "--concurrency" => concurrency = val()?.parse()?,
            "--out-json" => out_json = Some(val()?),
            "--out-md" => out_md = Some(val()?),
            "--header" => header = val()?,
            "--vehicles" => cfg.shape.vehicles = val()?.parse()?,
            "--readings" => cfg.shape.readings = val()?.parse()?,
            "--duration" => cfg.duration = Duration::from_secs_f64(val()?.parse()?),
            "--warmup" => cfg.warmup = Duration::from_secs_f64(val()?.parse()?),
            "--scale" => {
                cfg.scale = val()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse())
                    .collect::<Result<_, _>>()?
            }
            "--scale-budget" => cfg.scale_budget = Duration::from_secs(val()?.parse()?),
            "--c1-budget" => cfg.c1_budget = Duration::from_secs(val()?.parse()?),
            "--scale-budget-ours" => cfg.scale_budget_ours = Duration::from_secs(val()?.parse()?),
            "--startups" => cfg.startups = val()?.parse()?,
            "--stream-items" => cfg.stream_items = val()?.parse()?,
            "--run-dir" => cfg.run_dir = val()?.into(),
            "--phases" => {
                let phases: Vec<String> = val()?
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                if let Some(unknown) = phases.iter().find(|p| !PHASES.contains(&p.as_str())) {
                    bail!("unknown phase {unknown} (phases: {})", PHASES.join(","));
                }
                cfg.phases = Some(phases);
            }
            "--item-size" => {
                let sizes: Vec<usize> = (0..1000)
                    .map(|k| item_size(&serde_json::from_str(&item_json(k, k % 100)).unwrap()))
                    .collect();
                println!(
                    "mean item size {} bytes",
                    sizes.iter().sum::<usize>() / sizes.len()
                );
                return Ok(());
            }
            other => bail!("unknown argument {other}\n{USAGE}"),
        }
        i += 2;
    }
    if let Some((pid, port)) = attach_to {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        return tokio::task::LocalSet::new().block_on(&rt, attach(pid, port, &phase, concurrency, &cfg));
    }
    if targets.is_empty() {
        bail!("no --target given");
    }
    let _ = std::fs::remove_dir_all(&cfg.run_dir);
    std::fs::create_dir_all(&cfg.run_dir)?;
    let sizes: Vec<usize> = (0..1000)
        .map(|k| item_size(&serde_json::from_str(&item_json(k, k % 100)).unwrap()))
        .collect();
    let mean_size = sizes.iter().sum::<usize>() / sizes.len();
    log(format!(
        "{} targets; {} vehicles × {} readings, mean item size {mean_size} bytes",
        targets.len(),
        cfg.shape.vehicles,
        cfg.shape.readings
    ));

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let local = tokio::task::LocalSet::new();
    let mut results = Vec::new();
    for t in &targets {
        log(format!("=== {} ({}) ===", t.name, t.mode));
        let r = local.block_on(&rt, run_target(t, &cfg));
        results.push(r);
        if let Some(p) = &out_json {
            std::fs::write(
                p,
                serde_json::to_string_pretty(&json!({"mean_item_bytes": mean_size, "results": results}))?,
            )?;
        }
    }
    let md = report(&results, &cfg, &header);
    if let Some(p) = &out_md {
        std::fs::write(p, &md)?;
    }
    println!("{md}");
    Ok(())
}
