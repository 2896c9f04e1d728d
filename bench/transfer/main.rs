//! Import and export of many items through `dynotable-app`'s own code (`App::import`,
//! `App::export`, the embedded engine in the same process, as in the desktop app), each phase in
//! a process of its own so that each reports its own peak memory. Not a test: nothing asserts a
//! time. See bench/transfer/README.md.
//!
//! ```sh
//! cargo run --release -p dynotable-app --example transfer_bench -- all /tmp/transfer-bench 1000000
//! ```
//!
//! Phases (`all` runs them in order, each as a child process):
//! - `start DIR` starts the app on the data folder `DIR/app` and stops it (the first start loads
//!   the demo tables; the second is the app at rest, the baseline of the others);
//! - `generate DIR N` writes `DIR/items.jsonl`: N items of plain JSON lines (about 200 bytes each,
//!   a 38-digit number and a 36-decimal one among their attributes);
//! - `import DIR FORMAT FILE TABLE` imports FILE into TABLE (created, on demand) of the app whose
//!   data folder is `DIR/app`;
//! - `export DIR FORMAT FILE TABLE` exports TABLE whole (a Scan) to FILE.
//!
//! Each phase prints one line `phase=… format=… items=… seconds=… vm_hwm_kb=… peak_anon_kb=…
//! peak_file_kb=…`: VmHWM is the kernel's peak resident set of the process; the two peaks are
//! the largest anonymous and file-backed resident sizes sampled every 10 ms (`/proc/self/status`).

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use dynotable_app::App;
use dynotable_app::files::FilePurpose;
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;
use dynotable_app::transfer::{ExportSource, FileFormat};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| -> &str {
        args.get(i).map(String::as_str).unwrap_or_else(|| {
            eprintln!(
                "usage: transfer_bench all DIR N | generate DIR N | import|export DIR FORMAT FILE TABLE"
            );
            std::process::exit(2)
        })
    };
    match arg(0) {
        "all" => all(Path::new(arg(1)), arg(2).parse().expect("N is a number")),
        "generate" => generate(Path::new(arg(1)), arg(2).parse().expect("N is a number")),
        "start" => measured("start", "-", || {
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(start(Path::new(arg(1))))
        }),
        phase @ ("import" | "export") => {
            let format = parse_format(arg(2));
            measured(phase, arg(2), || {
                tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(transfer(
                        phase,
                        Path::new(arg(1)),
                        format,
                        Path::new(arg(3)),
                        arg(4),
                    ))
            });
        }
        other => {
            eprintln!("unknown phase {other}");
            std::process::exit(2)
        }
    }
}

fn parse_format(name: &str) -> FileFormat {
    match name {
        "jsonLines" => FileFormat::JsonLines,
        "dynamodbJson" => FileFormat::DynamodbJson,
        "csv" => FileFormat::Csv,
        other => panic!("unknown format {other} (jsonLines, dynamodbJson, csv)"),
    }
}

/// Every phase, each in a child process: generate, start twice, import the JSON lines, then for each format
/// export the table and import the export into a table of its own.
fn all(dir: &Path, n: u64) {
    std::fs::create_dir_all(dir).unwrap();
    let me = std::env::current_exe().unwrap();
    let run = |args: &[&str]| {
        let status = std::process::Command::new(&me).args(args).status().unwrap();
        assert!(status.success(), "{args:?} failed");
    };
    let d = dir.to_str().unwrap();
    let source = dir.join("items.jsonl");
    if !source.exists() {
        run(&["generate", d, &n.to_string()]);
    }
    // The first start loads the demo tables; the second is the app at rest, for comparison.
    run(&["start", d]);
    run(&["start", d]);
    run(&["import", d, "jsonLines", source.to_str().unwrap(), "Loaded"]);
    for (format, extension) in [
        ("jsonLines", "jsonl"),
        ("dynamodbJson", "ddb.jsonl"),
        ("csv", "csv"),
    ] {
        let file = dir.join(format!("export.{extension}"));
        run(&["export", d, format, file.to_str().unwrap(), "Loaded"]);
        run(&[
            "import",
            d,
            format,
            file.to_str().unwrap(),
            &format!("Copy_{format}"),
        ]);
    }
}

/// N items like a vehicle's readings, about 200 bytes each.
fn generate(dir: &Path, n: u64) {
    std::fs::create_dir_all(dir).unwrap();
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("items.jsonl")).unwrap());
    for i in 0..n {
        writeln!(
            out,
            r#"{{"vehicleId":"VEH#V-{:05}","recordedAt":"TS#{:06}","speedKph":{},"odometer":12345678901234567890123456789012345678,"drift":-0.000000000000000000000000000000000001,"ok":{},"note":"reading {} of the bench, with some text to make it the size of a real one","tags":["a","b"],"pos":{{"lat":{}.{:04},"lon":-{}.5}}}}"#,
            i / 1000,
            i % 1000,
            i % 130,
            i % 2 == 0,
            i,
            i % 90,
            i % 10_000,
            i % 180
        )
        .unwrap();
    }
    out.flush().unwrap();
    println!(
        "phase=generate items={n} file={}",
        dir.join("items.jsonl").display()
    );
}

/// The app started and its engine opened, nothing else: the baseline of the other phases.
async fn start(dir: &Path) -> u64 {
    let app = App::start_with("bench", dir.join("app"), Arc::new(MemoryStore::default()));
    let engine = app.engine().await.unwrap();
    engine.close().await;
    0
}

async fn transfer(phase: &str, dir: &Path, format: FileFormat, file: &Path, table: &str) -> u64 {
    let app = App::start_with("bench", dir.join("app"), Arc::new(MemoryStore::default()));
    let engine = app.engine().await.unwrap();
    let summary = if phase == "import" {
        let body = format!(
            r#"{{"TableName":"{table}","BillingMode":"PAY_PER_REQUEST",
                "AttributeDefinitions":[{{"AttributeName":"vehicleId","AttributeType":"S"}},{{"AttributeName":"recordedAt","AttributeType":"S"}}],
                "KeySchema":[{{"AttributeName":"vehicleId","KeyType":"HASH"}},{{"AttributeName":"recordedAt","KeyType":"RANGE"}}]}}"#
        );
        // Already there from an earlier run: the import overwrites the same keys.
        let _ = engine.call("CreateTable", body.as_bytes()).await;
        let handle = app.grant_file(file.to_owned(), FilePurpose::Open).handle;
        app.import(EMBEDDED_ID, "bench", table, format, &handle, None, |_| {})
            .await
            .unwrap()
    } else {
        let handle = app.grant_file(file.to_owned(), FilePurpose::Save).handle;
        app.export(
            EMBEDDED_ID,
            "bench",
            ExportSource::Table { table: table.into() },
            format,
            &handle,
            None,
            |_| {},
        )
        .await
        .unwrap()
    };
    engine.close().await;
    u64::from(summary.progress.items)
}

/// Runs `work`, sampling the process's resident memory, and prints the phase's line.
fn measured(phase: &str, format: &str, work: impl FnOnce() -> u64) {
    let stop = Arc::new(AtomicBool::new(false));
    let peak_anon = Arc::new(AtomicU64::new(0));
    let peak_file = Arc::new(AtomicU64::new(0));
    let sampler = {
        let (stop, peak_anon, peak_file) = (stop.clone(), peak_anon.clone(), peak_file.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                peak_anon.fetch_max(status_kb("RssAnon:"), Ordering::Relaxed);
                peak_file.fetch_max(status_kb("RssFile:"), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let started = Instant::now();
    let items = work();
    let seconds = started.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    println!(
        "phase={phase} format={format} items={items} seconds={seconds:.1} vm_hwm_kb={} peak_anon_kb={} peak_file_kb={}",
        status_kb("VmHWM:"),
        peak_anon.load(Ordering::Relaxed),
        peak_file.load(Ordering::Relaxed),
    );
}

/// A `kB` figure of `/proc/self/status`.
fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
