//! A DynamoDB Streams consumer tailing a table while it is written: records per second and the
//! end-to-end lag, then a read of the whole stream from TRIM_HORIZON.
//!
//! The table has the workload's shape and `StreamSpecification` NEW_AND_OLD_IMAGES. Before the
//! writer starts, the consumer calls DescribeStream and takes a LATEST iterator on each shard
//! (the stream is empty, so it will see every record that follows). Then, together:
//! - WRITERS tasks put `items` new workload items (PutItem), noting when each response arrived;
//! - one consumer polls GetRecords (default Limit, 1000), noting when each record came back
//!   (after an empty answer it waits POLL_PAUSE, as a real poller would rather than spin on a
//!   2-core machine); a closed shard sends it back to DescribeStream for the children.
//!
//! Lag is measured in the driver: from the PutItem response to the GetRecords response that
//! carried the record, both on the driver's monotonic clock. (The records'
//! ApproximateCreationDateTime is whole seconds on the servers here, too coarse.) A record can
//! come back before its PutItem response does — the server committed, the consumer polled, and
//! the writer's response was still on its way — its lag counts as 0 and the number is reported.
//!
//! Afterwards a second consumer reads the stream from TRIM_HORIZON as fast as it can (the
//! backlog): records/s, and the check that the stream holds exactly one INSERT per item put, in
//! increasing sequence-number order.
//!
//! A server without streams is reported as such: dynalite accepts the StreamSpecification but
//! returns no LatestStreamArn and answers UnknownOperationException on the Streams API.

use std::cell::RefCell;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::rc::Rc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::phases::*;
use crate::process::*;
use crate::workload::*;

/// PutItem tasks writing at once.
pub(crate) const WRITERS: usize = 4;
/// The consumer's pause after a GetRecords that returned nothing.
pub(crate) const POLL_PAUSE: Duration = Duration::from_millis(1);
/// How long the consumer may take to see the last record once the writers are done.
pub(crate) const CATCH_UP: Duration = Duration::from_secs(30);

pub(crate) fn stream_table_body(table: &str) -> Value {
    let mut body = create_table_body(table);
    body["StreamSpecification"] = json!({"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"});
    body
}

/// Item `i` of the phase: vehicle i mod V, reading i div V, so every key is new.
fn stream_item(i: u32, shape: Shape) -> (u32, u32) {
    (i % shape.vehicles, i / shape.vehicles)
}

fn key_string(vehicle: &str, recorded: &str) -> String {
    format!("{vehicle}|{recorded}")
}

/// The shards of a stream: (ShardId, ParentShardId).
async fn shards(c: &mut Conn, arn: &str) -> Result<Vec<(String, Option<String>)>> {
    let mut out = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let mut req = json!({"StreamArn": arn});
        if let Some(s) = start.take() {
            req["ExclusiveStartShardId"] = json!(s);
        }
        let d = c.call_ok(Op::DescribeStream, req).await?;
        let desc = &d["StreamDescription"];
        for s in desc["Shards"]
            .as_array()
            .ok_or_else(|| anyhow!("DescribeStream: no Shards: {d}"))?
        {
            let id = s["ShardId"]
                .as_str()
                .ok_or_else(|| anyhow!("shard without ShardId: {s}"))?;
            out.push((id.to_string(), s["ParentShardId"].as_str().map(String::from)));
        }
        match desc["LastEvaluatedShardId"].as_str() {
            Some(s) => start = Some(s.to_string()),
            None => return Ok(out),
        }
    }
}

async fn iterator(c: &mut Conn, arn: &str, shard: &str, kind: &str) -> Result<String> {
    let r = c
        .call_ok(
            Op::GetShardIterator,
            json!({"StreamArn": arn, "ShardId": shard, "ShardIteratorType": kind}),
        )
        .await?;
    r["ShardIterator"]
        .as_str()
        .map(String::from)
        .ok_or_else(|| anyhow!("GetShardIterator: no ShardIterator: {r}"))
}

/// A consumer over every shard of a stream: open iterators, and the shards already read to
/// their end (so their children are picked up, from TRIM_HORIZON, when they appear).
struct Consumer {
    conn: Conn,
    arn: String,
    open: Vec<(String, String)>,
    finished: Vec<String>,
    known: Vec<String>,
    polls: u64,
    empty_polls: u64,
}

/// One record as the phase needs it: its shard, key, event name and sequence number.
struct Seen {
    shard: String,
    key: String,
    event: String,
    sequence: String,
}

impl Consumer {
    async fn start(addr: SocketAddr, arn: &str, kind: &str) -> Result<Consumer> {
        let mut conn = Conn::connect(addr).await?;
        let mut open = Vec::new();
        let mut known = Vec::new();
        for (id, _) in shards(&mut conn, arn).await? {
            let it = iterator(&mut conn, arn, &id, kind).await?;
            open.push((id.clone(), it));
            known.push(id);
        }
        Ok(Consumer {
            conn,
            arn: arn.into(),
            open,
            finished: Vec::new(),
            known,
            polls: 0,
            empty_polls: 0,
        })
    }

    /// One GetRecords on each open shard; the records returned, and the instant each answer
    /// arrived.
    async fn poll(&mut self) -> Result<Vec<(Instant, Seen)>> {
        let mut out = Vec::new();
        let mut closed = false;
        let mut i = 0;
        while i < self.open.len() {
            let it = self.open[i].1.clone();
            let (status, body) = self
                .conn
                .call(
                    Op::GetRecords,
                    Bytes::from(json!({"ShardIterator": it}).to_string()),
                )
                .await?;
            let at = Instant::now();
            self.polls += 1;
            if status != 200 {
                bail!("GetRecords → HTTP {status}: {}", String::from_utf8_lossy(&body));
            }
            let r: Value = serde_json::from_slice(&body).context("GetRecords answer")?;
            let records = r["Records"].as_array().map(Vec::as_slice).unwrap_or_default();
            if records.is_empty() {
                self.empty_polls += 1;
            }
            for rec in records {
                let keys = &rec["dynamodb"]["Keys"];
                out.push((
                    at,
                    Seen {
                        shard: self.open[i].0.clone(),
                        key: key_string(
                            keys["vehicleId"]["S"].as_str().unwrap_or("?"),
                            keys["recordedAt"]["S"].as_str().unwrap_or("?"),
                        ),
                        event: rec["eventName"].as_str().unwrap_or("?").to_string(),
                        sequence: rec["dynamodb"]["SequenceNumber"]
                            .as_str()
                            .unwrap_or("")
                            .to_string(),
                    },
                ));
            }
            match r["NextShardIterator"].as_str() {
                Some(next) => {
                    self.open[i].1 = next.to_string();
                    i += 1;
                }
                None => {
                    // The shard is closed and read to its end.
                    let (id, _) = self.open.remove(i);
                    self.finished.push(id);
                    closed = true;
                }
            }
        }
        if closed || self.open.is_empty() {
            for (id, parent) in shards(&mut self.conn, &self.arn).await? {
                let ready = parent
                    .as_ref()
                    .is_none_or(|p| self.finished.contains(p) || !self.known.contains(p));
                if !self.known.contains(&id) && ready {
                    let it = iterator(&mut self.conn, &self.arn, &id, "TRIM_HORIZON").await?;
                    self.open.push((id.clone(), it));
                    self.known.push(id);
                }
            }
        }
        Ok(out)
    }
}

/// Sequence numbers are decimal strings of up to 40 digits: compare by length, then text.
fn seq_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
    (a.len(), a) < (b.len(), b)
}

/// The stream ARN of a fresh table with a stream, or why the server has none.
async fn stream_arn(c: &mut Conn, table: &str) -> Result<Result<String, String>> {
    let d = c.call_ok(Op::DescribeTable, json!({"TableName": table})).await?;
    let Some(arn) = d["Table"]["LatestStreamArn"].as_str() else {
        // Ask the Streams API too, so the report says what the server answers.
        let (status, b) = c
            .call(
                Op::ListStreams,
                Bytes::from(json!({"TableName": table}).to_string()),
            )
            .await?;
        let why = if contains(&b, b"UnknownOperationException") {
            "no LatestStreamArn; ListStreams → UnknownOperationException".to_string()
        } else {
            format!("no LatestStreamArn; ListStreams → HTTP {status}")
        };
        return Ok(Err(why));
    };
    let (status, b) = c
        .call(
            Op::DescribeStream,
            Bytes::from(json!({"StreamArn": arn}).to_string()),
        )
        .await?;
    if status != 200 && contains(&b, b"UnknownOperationException") {
        return Ok(Err("DescribeStream → UnknownOperationException".into()));
    }
    Ok(Ok(arn.to_string()))
}

/// The phase: see the module comment. `budget` bounds the writers (a slow server is measured on
/// what it wrote within it).
pub(crate) async fn stream_consumer(
    server: &Server,
    table: &str,
    shape: Shape,
    items: u32,
    budget: Duration,
) -> Result<Value> {
    let items = items.min(shape.vehicles * shape.readings);
    let mut c = Conn::connect(server.addr).await?;
    c.call_ok(Op::CreateTable, stream_table_body(table)).await?;
    wait_active(&mut c, table).await?;
    let arn = match stream_arn(&mut c, table).await? {
        Ok(arn) => arn,
        Err(why) => {
            c.call_ok(Op::DeleteTable, json!({"TableName": table})).await?;
            return Ok(json!({"supported": false, "answer": why}));
        }
    };
    let mut index: HashMap<String, usize> = HashMap::with_capacity(items as usize);
    let mut bodies = Vec::with_capacity(items as usize);
    for i in 0..items {
        let (v, r) = stream_item(i, shape);
        index.insert(key_string(&vehicle_id(v), &recorded_at(r)), i as usize);
        bodies.push(Bytes::from(format!(
            r#"{{"TableName":"{table}","Item":{}}}"#,
            item_json(v, r)
        )));
    }
    let bodies = Rc::new(bodies);

    let mut consumer = Consumer::start(server.addr, &arn, "LATEST").await?;
    let acked: Rc<RefCell<Vec<Option<Instant>>>> = Rc::new(RefCell::new(vec![None; items as usize]));
    let next = Rc::new(RefCell::new(0usize));
    let writers_done = Rc::new(RefCell::new(None::<Instant>));
    let t0 = Instant::now();
    let (s0, d0) = (server.cpu_ms(), self_cpu_ms());
    let mut writers = Vec::new();
    for mut conn in connections(server.addr, WRITERS).await? {
        let (bodies, acked, next) = (bodies.clone(), acked.clone(), next.clone());
        writers.push(tokio::task::spawn_local(async move {
            let mut st = Stats::default();
            loop {
                let i = {
                    let mut n = next.borrow_mut();
                    *n += 1;
                    *n - 1
                };
                if i >= bodies.len() || t0.elapsed() > budget {
                    return st;
                }
                let t = Instant::now();
                match conn.call(Op::PutItem, bodies[i].clone()).await {
                    Ok((200, _)) => {
                        let now = Instant::now();
                        acked.borrow_mut()[i] = Some(now);
                        st.ops += 1;
                        st.lat_us.push((now - t).as_micros().min(u32::MAX as u128) as u32);
                    }
                    Ok((status, b)) => {
                        st.errors += 1;
                        st.first_error.get_or_insert_with(|| {
                            format!("PutItem HTTP {status}: {}", String::from_utf8_lossy(&b))
                        });
                    }
                    Err(e) => {
                        st.errors += 1;
                        st.first_error.get_or_insert_with(|| format!("PutItem: {e:#}"));
                        let _ = conn.reconnect().await;
                    }
                }
            }
        }));
    }
    {
        let writers_done = writers_done.clone();
        let handles = std::mem::take(&mut writers);
        writers.push(tokio::task::spawn_local(async move {
            let mut total = Stats::default();
            for h in handles {
                if let Ok(st) = h.await {
                    total.ops += st.ops;
                    total.errors += st.errors;
                    total.lat_us.extend(st.lat_us);
                    if total.first_error.is_none() {
                        total.first_error = st.first_error;
                    }
                }
            }
            *writers_done.borrow_mut() = Some(Instant::now());
            total
        }));
    }

    // The consumer runs here, on the phase's own task, until it has seen every acknowledged
    // item's record or CATCH_UP has passed since the writers finished.
    let mut seen_at: Vec<Option<Instant>> = vec![None; items as usize];
    let (mut seen, mut duplicates, mut foreign, mut not_insert) = (0u64, 0u64, 0u64, 0u64);
    let mut last_record_at = t0;
    loop {
        let got = consumer.poll().await?;
        let empty = got.is_empty();
        for (at, rec) in got {
            match index.get(&rec.key) {
                Some(&i) if seen_at[i].is_none() => {
                    seen_at[i] = Some(at);
                    seen += 1;
                    last_record_at = at;
                    if rec.event != "INSERT" {
                        not_insert += 1;
                    }
                }
                Some(_) => duplicates += 1,
                None => foreign += 1,
            }
        }
        let done_at = *writers_done.borrow();
        if let Some(done) = done_at {
            let acked_n = acked.borrow().iter().filter(|a| a.is_some()).count() as u64;
            if seen >= acked_n || done.elapsed() > CATCH_UP {
                break;
            }
        }
        if empty {
            tokio::time::sleep(POLL_PAUSE).await;
        }
    }
    let mut writes = writers.pop().expect("the writers' collector").await?;
    let (server_cpu, driver_cpu) = (server.cpu_ms() - s0, self_cpu_ms() - d0);
    let write_secs = writers_done.borrow().map_or(0.0, |d| (d - t0).as_secs_f64());

    // Lag of every record seen, from its PutItem response; the ones never acknowledged (a
    // failed put) or never seen are counted apart.
    let acked: Vec<Option<Instant>> = acked.borrow().clone();
    let mut lag = Stats::default();
    let (mut before_ack, mut missing) = (0u64, 0u64);
    for (a, s) in acked.iter().zip(&seen_at) {
        match (a, s) {
            (Some(a), Some(s)) => {
                if s < a {
                    before_ack += 1;
                }
                lag.lat_us
                    .push(s.saturating_duration_since(*a).as_micros().min(u32::MAX as u128) as u32);
            }
            (Some(_), None) => missing += 1,
            _ => {}
        }
    }
    let written = writes.ops;
    let live_secs = (last_record_at - t0).as_secs_f64();

    // The backlog: the whole stream from TRIM_HORIZON, as fast as the server answers.
    let backlog = read_backlog(server, &arn, &index, written).await?;
    c.call_ok(Op::DeleteTable, json!({"TableName": table})).await?;
    let consistent =
        missing == 0 && duplicates == 0 && foreign == 0 && not_insert == 0 && backlog["consistent"] == true;
    Ok(json!({
        "supported": true, "items": items, "written": written, "writers": WRITERS,
        "write_errors": writes.errors, "first_error": writes.first_error,
        "puts_per_s": written as f64 / write_secs.max(1e-9), "put_p50_ms": writes.pct(0.5), "put_p99_ms": writes.pct(0.99),
        "records_seen": seen, "records_per_s": seen as f64 / live_secs.max(1e-9),
        "lag_p50_ms": lag.pct(0.5), "lag_p99_ms": lag.pct(0.99), "lag_max_ms": lag.pct(1.0),
        "seen_before_ack": before_ack, "missing": missing, "duplicates": duplicates,
        "foreign": foreign, "not_insert": not_insert,
        "polls": consumer.polls, "empty_polls": consumer.empty_polls,
        "server_cpu_ms": server_cpu, "driver_cpu_ms": driver_cpu,
        "backlog": backlog, "consistent": consistent,
    }))
}

/// Reads the stream from TRIM_HORIZON until `expected` records have come back (or 30 s pass):
/// records/s, and one INSERT per item, in increasing sequence-number order.
async fn read_backlog(
    server: &Server,
    arn: &str,
    index: &HashMap<String, usize>,
    expected: u64,
) -> Result<Value> {
    let t0 = Instant::now();
    let s0 = server.cpu_ms();
    let mut consumer = Consumer::start(server.addr, arn, "TRIM_HORIZON").await?;
    let mut seen = vec![false; index.len()];
    let (mut records, mut distinct, mut out_of_order) = (0u64, 0u64, 0u64);
    let mut last_seq: HashMap<String, String> = HashMap::new();
    while distinct < expected && t0.elapsed() < CATCH_UP {
        let got = consumer.poll().await?;
        if got.is_empty() {
            tokio::time::sleep(POLL_PAUSE).await;
        }
        for (_, rec) in got {
            records += 1;
            if let Some(&i) = index.get(&rec.key)
                && !seen[i]
                && rec.event == "INSERT"
            {
                seen[i] = true;
                distinct += 1;
            }
            // Sequence numbers increase within a shard.
            let prev = last_seq.entry(rec.shard).or_default();
            if !prev.is_empty() && !seq_less(prev, &rec.sequence) {
                out_of_order += 1;
            }
            *prev = rec.sequence;
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    Ok(json!({
        "records": records, "distinct_inserts": distinct, "seconds": secs,
        "records_per_s": records as f64 / secs, "polls": consumer.polls,
        "server_cpu_ms": server.cpu_ms() - s0, "out_of_order": out_of_order,
        "consistent": records == expected && distinct == expected && out_of_order == 0,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_numbers_compare_as_numbers_not_text() {
        // dynotable-local pads to 21 digits; dynoxide does not pad: both must order numerically.
        assert!(seq_less("000000000000000000009", "000000000000000000010"));
        assert!(seq_less("9", "10"));
        assert!(!seq_less("10", "9"));
        assert!(!seq_less("100001795997291243454", "100001795997291243371"));
        assert!(!seq_less("42", "0042"), "equal numbers are not less");
    }

    #[test]
    fn stream_items_are_distinct_keys_of_the_workload() {
        let shape = Shape {
            vehicles: 100,
            readings: 100,
        };
        let keys: std::collections::HashSet<(u32, u32)> =
            (0..10_000).map(|i| stream_item(i, shape)).collect();
        assert_eq!(keys.len(), 10_000);
        assert_eq!(stream_item(101, shape), (1, 1));
    }
}
