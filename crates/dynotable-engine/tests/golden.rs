//! Golden tests of the engine's operations, through its public entry point `Engine::call` with
//! the JSON bodies a DynamoDB client sends. Each file in `tests/golden/` is a goldenscript; run
//! `UPDATE_GOLDENFILES=1 cargo test -p dynotable-engine --test golden` to refresh the expected
//! output, then review the diff.
//!
//! Commands:
//! - `<Operation> '<json body>'`: runs the operation; prints the response (JSON with sorted
//!   keys, `TableId` masked) or `<Exception>: <message>`.
//! - `clock <seconds>`: sets the engine's clock (the clock starts at 1700000000).
//! - `stats <table> [index=<name>] [largest=<n>]`: the engine's collection statistics.
//! - `reopen collection_size_limit=<bytes>`: a fresh engine with that item-collection limit.
//!
//! Each script runs on a fresh in-memory engine.

use std::error::Error;
use std::sync::Arc;

use dynotable_engine::{Engine, Location, ManualClock, Options};

struct Runner {
    runtime: tokio::runtime::Runtime,
    engine: Engine,
    clock: Arc<ManualClock>,
}

impl Runner {
    fn new() -> Runner {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let clock = Arc::new(ManualClock::new(1_700_000_000.0));
        let engine = runtime
            .block_on(Engine::open_with(Runner::options(&clock, None)))
            .unwrap();
        Runner {
            runtime,
            engine,
            clock,
        }
    }

    fn options(clock: &Arc<ManualClock>, collection_size_limit: Option<u64>) -> Options {
        let mut options = Options::new(Location::InMemory);
        options.clock = clock.clone();
        if let Some(limit) = collection_size_limit {
            options.collection_size_limit = limit;
        }
        options
    }
}

/// Masks the values that change from run to run.
fn mask(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if key == "TableId" {
                    *child = serde_json::Value::String("<table-id>".into());
                } else {
                    mask(child);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(mask),
        _ => {}
    }
}

impl goldenscript::Runner for Runner {
    type Command = goldenscript::Command;

    fn run(
        &mut self,
        command: &goldenscript::Command,
        _: &goldenscript::Context,
    ) -> Result<String, Box<dyn Error>> {
        let mut args = command.consume_args();
        if command.name == "clock" {
            let seconds: f64 = args.next_pos().ok_or("clock needs seconds")?.parse()?;
            self.clock.set(seconds);
            args.reject_next()?;
            return Ok(String::new());
        }
        if command.name == "reopen" {
            let limit: u64 = args
                .take_key("collection_size_limit")
                .ok_or("reopen needs collection_size_limit")?
                .parse()?;
            args.reject_next()?;
            let options = Runner::options(&self.clock, Some(limit));
            self.engine = self.runtime.block_on(Engine::open_with(options))?;
            return Ok(String::new());
        }
        if command.name == "stats" {
            let table = args.next_pos().ok_or("stats needs a table")?.to_owned();
            let index = args.take_key("index").map(str::to_owned);
            let largest: usize = args.take_key("largest").unwrap_or("10").parse()?;
            args.reject_next()?;
            let result =
                self.runtime
                    .block_on(self.engine.collection_stats(&table, index.as_deref(), largest));
            return Ok(match result {
                Ok(stats) => format!("{}\n", serde_json::to_string(&stats)?),
                Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
            });
        }
        let body = args.next_pos().unwrap_or_default().to_owned();
        args.reject_next()?;
        let result = self
            .runtime
            .block_on(self.engine.call(&command.name, body.as_bytes()));
        Ok(match result {
            Ok(bytes) => {
                let mut value: serde_json::Value = serde_json::from_slice(&bytes)?;
                mask(&mut value);
                format!("{value}\n")
            }
            Err(err) => {
                let mut out = format!("{}: {}\n", err.kind.name(), err.message);
                if let Some(reasons) = &err.cancellation_reasons {
                    out.push_str(&format!(
                        "CancellationReasons: {}\n",
                        serde_json::to_string(reasons)?
                    ));
                }
                if let Some(item) = err.item {
                    out.push_str(&format!("Item: {}\n", serde_json::to_string(&item)?));
                }
                out
            }
        })
    }
}

fn run_script(path: &std::path::Path) {
    goldenscript::run(&mut Runner::new(), path).expect("goldenscript failed")
}

test_each_file::test_each_path! { in "crates/dynotable-engine/tests/golden" => run_script }
