//! PutItem throughput of the engine in-process, without HTTP: a quick before/after check for a
//! change on the write path (e.g. the item claims of `in_flight`).
//!
//! ```sh
//! cargo run --release -p dynotable-engine --example put_throughput -- [puts] [concurrency] [memory|file]
//! ```
//!
//! Puts distinct items of ~200 bytes into a fresh table, first one at a time, then from
//! `concurrency` tasks, and prints puts per second for each.

use std::time::Instant;

use dynotable_engine::{Engine, Location, Options};

fn body(n: usize) -> Vec<u8> {
    format!(
        r#"{{"TableName":"Puts","Item":{{"id":{{"S":"item-{n:08}"}},"n":{{"N":"{n}"}},"payload":{{"S":"{}"}}}}}}"#,
        "x".repeat(160)
    )
    .into_bytes()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let puts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let concurrency: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let on_file = args.next().as_deref() == Some("file");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir().expect("a temporary folder");
    runtime.block_on(async {
        let location = if on_file {
            Location::File(dir.path().join("puts.sqlite"))
        } else {
            Location::InMemory
        };
        let mut options = Options::new(location);
        options.sweep_interval = None;
        let engine = Engine::open_with(options).await.expect("the engine opens");
        engine
            .call(
                "CreateTable",
                br#"{"TableName":"Puts","KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
                    "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
                    "BillingMode":"PAY_PER_REQUEST"}"#,
            )
            .await
            .expect("the table is created");

        let started = Instant::now();
        for n in 0..puts {
            engine.call("PutItem", &body(n)).await.expect("the put succeeds");
        }
        let sequential = puts as f64 / started.elapsed().as_secs_f64();

        let started = Instant::now();
        let tasks: Vec<_> = (0..concurrency)
            .map(|task| {
                let engine = engine.clone();
                tokio::spawn(async move {
                    for n in (puts + task..2 * puts).step_by(concurrency) {
                        engine.call("PutItem", &body(n)).await.expect("the put succeeds");
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("the task finishes");
        }
        let concurrent = puts as f64 / started.elapsed().as_secs_f64();
        println!(
            "{} puts, {}: sequential {sequential:.0} puts/s, concurrency {concurrency} {concurrent:.0} puts/s",
            puts,
            if on_file { "file" } else { "memory" }
        );
        engine.close().await;
    });
}
