//! A quick look at the engine's own GetItem latency on a file database, without HTTP: how long
//! `Engine::call("GetItem", ...)` takes, one call at a time. Not a test and not the benchmark
//! (that is bench/run.sh); a tool for profiling the engine alone:
//! `cargo run --release -p dynotable-engine --example get_item_latency`.

use std::time::Instant;

use dynotable_engine::{Engine, Location};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let engine = Engine::open(Location::File(dir.path().join("local.db")))
        .await
        .expect("the engine opens");
    let create = r#"{"TableName":"Bench","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}"#;
    engine
        .call("CreateTable", create.as_bytes())
        .await
        .expect("CreateTable");
    for i in 0..1000 {
        let put = format!(
            r#"{{"TableName":"Bench","Item":{{"pk":{{"S":"k{i}"}},"v":{{"S":"{}"}}}}}}"#,
            "x".repeat(150)
        );
        engine.call("PutItem", put.as_bytes()).await.expect("PutItem");
    }
    let gets: Vec<String> = (0..20_000)
        .map(|i| {
            format!(
                r#"{{"TableName":"Bench","Key":{{"pk":{{"S":"k{}"}}}}}}"#,
                i % 1000
            )
        })
        .collect();
    let started = Instant::now();
    for get in &gets {
        engine.call("GetItem", get.as_bytes()).await.expect("GetItem");
    }
    let elapsed = started.elapsed();
    println!(
        "{} GetItem calls: {:.1} µs each, {:.0} calls/s",
        gets.len(),
        elapsed.as_micros() as f64 / gets.len() as f64,
        gets.len() as f64 / elapsed.as_secs_f64()
    );
}
