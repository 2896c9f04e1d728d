//! Golden tests of the engine's operations, through its public entry point `Engine::call` with
//! the JSON bodies a DynamoDB client sends. Each file in `tests/golden/` is a goldenscript; run
//! `UPDATE_GOLDENFILES=1 cargo test -p dynotable-engine --test engine golden::` to refresh the expected
//! output, then review the diff.
//!
//! Commands:
//! - `<Operation> '<json body>'`: runs the operation; prints the response (JSON with sorted
//!   keys, `TableId` masked) or `<Exception>: <message>`.
//! - `clock <seconds>`: sets the engine's clock (the clock starts at 1700000000).
//! - `stats <table> [index=<name>] [largest=<n>]`: the engine's collection statistics.
//! - `range <table> [index=<name>] [offset=<n>] [limit=<n>]`: the collections in key order, one a
//!   line.
//! - `position <table> [index=<name>] '<partition-key value>'`: where that collection stands in
//!   the key-ordered run (`none` when there is none).
//! - `reopen collection_size_limit=<bytes>`: a fresh engine with that item-collection limit.
//! - `streams <Operation> '<json body>'`: a DynamoDB Streams operation.
//! - `read-stream <table> [type=TRIM_HORIZON] [limit=<n>]`: the latest stream of the table read
//!   through ListStreams, DescribeStream, GetShardIterator and GetRecords; one record a line.
//! - `sweep`: runs the Time to Live sweep and stream trimming; prints how many items it deleted.
//! - `region <name>`: the commands that follow are requests signed for that region (the engine's
//!   `call_in`); scripts start in the default region.
//!
//! Each script runs on a fresh in-memory engine.

use std::error::Error;
use std::sync::Arc;

use dynotable_engine::{Engine, Location, ManualClock, Options};

struct Runner {
    runtime: tokio::runtime::Runtime,
    engine: Engine,
    clock: Arc<ManualClock>,
    region: String,
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
            region: dynotable_engine::identity::DEFAULT_REGION.to_owned(),
        }
    }

    fn options(clock: &Arc<ManualClock>, collection_size_limit: Option<u64>) -> Options {
        let mut options = Options::new(Location::InMemory);
        options.clock = clock.clone();
        options.sweep_interval = None;
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
                if key == "TableId" || key == "ShardIterator" || key == "NextShardIterator" {
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
        if command.name == "range" {
            let table = args.next_pos().ok_or("range needs a table")?.to_owned();
            let index = args.take_key("index").map(str::to_owned);
            let offset: u64 = args.take_key("offset").unwrap_or("0").parse()?;
            let limit: usize = args.take_key("limit").unwrap_or("100").parse()?;
            args.reject_next()?;
            let result =
                self.runtime.block_on(
                    self.engine
                        .collection_range(&table, index.as_deref(), offset, limit),
                );
            return Ok(match result {
                Ok(run) => run
                    .iter()
                    .map(|c| serde_json::to_string(c).map(|line| line + "\n"))
                    .collect::<Result<String, _>>()?,
                Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
            });
        }
        if command.name == "position" {
            let table = args.next_pos().ok_or("position needs a table")?.to_owned();
            let index = args.take_key("index").map(str::to_owned);
            let value: dynotable_types::AttributeValue =
                serde_json::from_str(args.next_pos().ok_or("position needs a key value")?)?;
            args.reject_next()?;
            let result =
                self.runtime
                    .block_on(self.engine.collection_position(&table, index.as_deref(), &value));
            return Ok(match result {
                Ok(Some(at)) => format!("{at}\n"),
                Ok(None) => "none\n".to_owned(),
                Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
            });
        }
        if command.name == "region" {
            self.region = args.next_pos().ok_or("region needs a name")?.to_owned();
            args.reject_next()?;
            return Ok(String::new());
        }
        if command.name == "sweep" {
            args.reject_next()?;
            return Ok(match self.runtime.block_on(self.engine.sweep()) {
                Ok(deleted) => format!("deleted {deleted}\n"),
                Err(err) => format!("{}: {}\n", err.kind.name(), err.message),
            });
        }
        if command.name == "read-stream" {
            let table = args.next_pos().ok_or("read-stream needs a table")?.to_owned();
            let kind = args.take_key("type").unwrap_or("TRIM_HORIZON").to_owned();
            let limit = args.take_key("limit").map(str::parse::<i64>).transpose()?;
            args.reject_next()?;
            return self
                .runtime
                .block_on(read_stream(&self.engine, &self.region, &table, &kind, limit));
        }
        let streams = command.name == "streams";
        let operation = if streams {
            args.next_pos().ok_or("streams needs an operation")?.to_owned()
        } else {
            command.name.clone()
        };
        let body = args.next_pos().unwrap_or_default().to_owned();
        args.reject_next()?;
        let result = if streams {
            self.runtime.block_on(
                self.engine
                    .call_streams_in(&self.region, &operation, body.as_bytes()),
            )
        } else {
            self.runtime
                .block_on(self.engine.call_in(&self.region, &operation, body.as_bytes()))
        };
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

/// Reads a table's latest stream from the start (or as `kind` says) with the Streams API.
async fn read_stream(
    engine: &Engine,
    region: &str,
    table: &str,
    kind: &str,
    limit: Option<i64>,
) -> Result<String, Box<dyn Error>> {
    let json =
        |bytes: Vec<u8>| -> Result<serde_json::Value, Box<dyn Error>> { Ok(serde_json::from_slice(&bytes)?) };
    let body = serde_json::json!({ "TableName": table }).to_string();
    let streams = json(
        engine
            .call_streams_in(region, "ListStreams", body.as_bytes())
            .await?,
    )?;
    let Some(stream) = streams["Streams"].as_array().and_then(|s| s.last()) else {
        return Ok("(no stream listed)\n".to_owned());
    };
    let arn = stream["StreamArn"].clone();
    let body = serde_json::json!({ "StreamArn": arn }).to_string();
    let description = json(
        engine
            .call_streams_in(region, "DescribeStream", body.as_bytes())
            .await?,
    )?;
    let shard = description["StreamDescription"]["Shards"][0]["ShardId"].clone();
    let body =
        serde_json::json!({ "StreamArn": arn, "ShardId": shard, "ShardIteratorType": kind }).to_string();
    let mut iterator = json(
        engine
            .call_streams_in(region, "GetShardIterator", body.as_bytes())
            .await?,
    )?["ShardIterator"]
        .clone();
    let mut out = String::new();
    while iterator.is_string() {
        let mut request = serde_json::json!({ "ShardIterator": iterator });
        if let Some(limit) = limit {
            request["Limit"] = serde_json::json!(limit);
        }
        let page = json(
            engine
                .call_streams_in(region, "GetRecords", request.to_string().as_bytes())
                .await?,
        )?;
        let records = page["Records"].as_array().cloned().unwrap_or_default();
        for record in &records {
            out.push_str(&format!("{record}\n"));
        }
        if records.is_empty() {
            break;
        }
        iterator = page["NextShardIterator"].clone();
    }
    if out.is_empty() {
        out.push_str("(no records)\n");
    }
    Ok(out)
}

fn run_script(path: &std::path::Path) {
    goldenscript::run(&mut Runner::new(), path).expect("goldenscript failed")
}

test_each_file::test_each_path! { in "crates/dynotable-engine/tests/golden" => run_script }
