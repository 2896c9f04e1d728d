//! TransactWriteItems throughput, with conflicts, and the check that every committed
//! transaction's effects are there and no cancelled one's are.
//!
//! Each transaction is three actions on one table of the workload's shape: two Puts of telemetry
//! items (new keys under the counter's vehicle) and an Update of that vehicle's counter item,
//! `SET version = :n` with `attribute_not_exists(version) OR version = :v` — optimistic
//! concurrency on TX_COUNTERS hot counters. A task that meets a TransactionCanceledException
//! (ConditionalCheckFailed: someone else bumped the counter; TransactionConflict: another
//! transaction held the item) re-reads the counter (ConsistentRead) and goes on with a new
//! transaction. At the end, per counter: `version` = transactions committed on it, and the
//! vehicle holds exactly 2 × that many items plus the counter (a cancelled transaction's Puts
//! must not be there, a committed one's must).
//!
//! A server without TransactWriteItems (dynalite answers UnknownOperationException) is found
//! by a probe transaction of one ConditionCheck, which writes nothing, and reported as such.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::phases::*;
use crate::process::*;
use crate::workload::*;

/// How many counters (vehicles) the transactions spread over: at c=16, two tasks in three meet
/// a counter another task has just moved.
pub(crate) const TX_COUNTERS: u32 = 16;

pub(crate) fn tx_vehicle(k: u32) -> String {
    format!("TXV#{k:02}")
}

pub(crate) fn counter_key(k: u32) -> Value {
    json!({"vehicleId": {"S": tx_vehicle(k)}, "recordedAt": {"S": "COUNTER"}})
}

/// One transaction: two telemetry Puts under counter `k`'s vehicle (keys unique to this task
/// and attempt `seq`) and the conditional counter Update expecting `expected`.
pub(crate) fn tx_body(table: &str, k: u32, expected: Option<u64>, task: usize, seq: u64) -> Bytes {
    let put = |part: &str| {
        let mut item: Value =
            serde_json::from_str(&item_json(k, (seq % 1000) as u32)).expect("workload item is JSON");
        item["vehicleId"] = json!({"S": tx_vehicle(k)});
        item["recordedAt"] = json!({"S": format!("TX#{task:02}#{seq:08}#{part}")});
        json!({"Put": {"TableName": table, "Item": item}})
    };
    let current = expected.unwrap_or(0);
    let update = json!({"Update": {
        "TableName": table,
        "Key": counter_key(k),
        "UpdateExpression": "SET #v = :n",
        "ConditionExpression": "attribute_not_exists(#v) OR #v = :v",
        "ExpressionAttributeNames": {"#v": "version"},
        "ExpressionAttributeValues": {":v": {"N": current.to_string()}, ":n": {"N": (current + 1).to_string()}}
    }});
    Bytes::from(json!({"TransactItems": [put("a"), put("b"), update]}).to_string())
}

fn counter_get(table: &str, k: u32) -> Bytes {
    Bytes::from(json!({"TableName": table, "ConsistentRead": true, "Key": counter_key(k)}).to_string())
}

/// The codes of a TransactionCanceledException's CancellationReasons, if the body is one.
pub(crate) fn cancellation_codes(body: &[u8]) -> Option<Vec<String>> {
    if !contains(body, b"TransactionCanceledException") {
        return None;
    }
    let v: Value = serde_json::from_slice(body).ok()?;
    let reasons = v["CancellationReasons"].as_array().cloned().unwrap_or_default();
    Some(
        reasons
            .iter()
            .map(|r| r["Code"].as_str().unwrap_or("?").to_string())
            .collect(),
    )
}

/// Whether the server runs TransactWriteItems: `Ok(None)` if so, `Ok(Some(answer))` with its
/// error type if it does not know the operation, an error for any other answer.
pub(crate) async fn probe_transactions(addr: std::net::SocketAddr, table: &str) -> Result<Option<String>> {
    let mut c = Conn::connect(addr).await?;
    let body = json!({"TransactItems": [{"ConditionCheck": {
        "TableName": table,
        "Key": {"vehicleId": {"S": "TXV#PROBE"}, "recordedAt": {"S": "COUNTER"}},
        "ConditionExpression": "attribute_not_exists(vehicleId)"
    }}]});
    let (status, resp) = c
        .call(Op::TransactWriteItems, Bytes::from(body.to_string()))
        .await?;
    match status {
        200 => Ok(None),
        _ if contains(&resp, b"UnknownOperationException") => Ok(Some("UnknownOperationException".into())),
        _ => bail!(
            "probe TransactWriteItems → HTTP {status}: {}",
            String::from_utf8_lossy(&resp)
        ),
    }
}

#[derive(Default)]
struct TaskTally {
    attempts: u64,
    committed: Vec<u64>,
    reasons: BTreeMap<String, u64>,
    cancelled: u64,
    errors: u64,
    first_error: Option<String>,
    lat_us: Vec<u32>,
}

/// `concurrency` tasks run transactions for `duration` on a fresh table `table` (created here,
/// dropped at the end). Returns the figures as JSON; `{"supported": false}` for a server
/// without TransactWriteItems.
pub(crate) async fn transactions(
    server: &Server,
    table: &str,
    concurrency: usize,
    duration: Duration,
) -> Result<Value> {
    create_table(server.addr, table).await?;
    if let Some(answer) = probe_transactions(server.addr, table).await? {
        drop_table(server.addr, table).await?;
        return Ok(json!({"supported": false, "answer": answer}));
    }
    let conns = connections(server.addr, concurrency).await?;
    let t0 = Instant::now();
    let end_at = t0 + duration;
    let (s0, d0) = (server.cpu_ms(), self_cpu_ms());
    let mut handles = Vec::new();
    for (task, mut conn) in conns.into_iter().enumerate() {
        let table = table.to_string();
        handles.push(tokio::task::spawn_local(async move {
            let mut rng = Rng(0xD1B5_4A32_D192_ED03 ^ (task as u64 + 1));
            let mut known: Vec<Option<u64>> = vec![None; TX_COUNTERS as usize];
            let mut t = TaskTally {
                committed: vec![0; TX_COUNTERS as usize],
                ..Default::default()
            };
            let mut seq = 0u64;
            while Instant::now() < end_at {
                let k = rng.below(TX_COUNTERS);
                seq += 1;
                let body = tx_body(&table, k, known[k as usize], task, seq);
                let start = Instant::now();
                t.attempts += 1;
                match conn.call(Op::TransactWriteItems, body).await {
                    Ok((200, _)) => {
                        t.lat_us
                            .push(start.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        t.committed[k as usize] += 1;
                        known[k as usize] = Some(known[k as usize].unwrap_or(0) + 1);
                    }
                    Ok((400, b)) if cancellation_codes(&b).is_some() => {
                        t.lat_us
                            .push(start.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        t.cancelled += 1;
                        for code in cancellation_codes(&b).unwrap_or_default() {
                            if code != "None" {
                                *t.reasons.entry(code).or_default() += 1;
                            }
                        }
                        match conn.call(Op::GetItem, counter_get(&table, k)).await {
                            Ok((200, b)) => known[k as usize] = version_of(&b),
                            Ok((status, b)) => {
                                t.errors += 1;
                                t.first_error.get_or_insert_with(|| {
                                    format!("re-read HTTP {status}: {}", String::from_utf8_lossy(&b))
                                });
                            }
                            Err(e) => {
                                t.errors += 1;
                                t.first_error.get_or_insert_with(|| format!("re-read: {e:#}"));
                                let _ = conn.reconnect().await;
                            }
                        }
                    }
                    Ok((status, b)) => {
                        t.errors += 1;
                        t.first_error
                            .get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
                        // The outcome is unknown to this task: learn the counter again.
                        if let Ok((200, b)) = conn.call(Op::GetItem, counter_get(&table, k)).await {
                            known[k as usize] = version_of(&b);
                        }
                    }
                    Err(e) => {
                        t.errors += 1;
                        t.first_error.get_or_insert_with(|| format!("{e:#}"));
                        let _ = conn.reconnect().await;
                        known[k as usize] = None;
                    }
                }
            }
            t
        }));
    }
    let mut total = TaskTally {
        committed: vec![0; TX_COUNTERS as usize],
        ..Default::default()
    };
    let mut st = Stats::default();
    for h in handles {
        let t = h.await?;
        total.attempts += t.attempts;
        total.cancelled += t.cancelled;
        total.errors += t.errors;
        for (k, n) in t.committed.iter().enumerate() {
            total.committed[k] += n;
        }
        for (code, n) in t.reasons {
            *total.reasons.entry(code).or_default() += n;
        }
        if total.first_error.is_none() {
            total.first_error = t.first_error;
        }
        st.lat_us.extend(t.lat_us);
    }
    let secs = t0.elapsed().as_secs_f64();
    let (server_cpu, driver_cpu) = (server.cpu_ms() - s0, self_cpu_ms() - d0);
    let committed: u64 = total.committed.iter().sum();
    let (consistent, detail) = check_effects(server.addr, table, &total.committed).await?;
    drop_table(server.addr, table).await?;
    Ok(json!({
        "supported": true, "concurrency": concurrency, "seconds": secs,
        "attempts": total.attempts, "committed": committed, "cancelled": total.cancelled,
        "cancellation_reasons": total.reasons, "errors": total.errors, "first_error": total.first_error,
        "committed_per_s": committed as f64 / secs, "attempts_per_s": total.attempts as f64 / secs,
        "p50_ms": st.pct(0.5), "p99_ms": st.pct(0.99),
        "server_cpu_ms": server_cpu, "driver_cpu_ms": driver_cpu,
        "server_cpu_us_per_attempt": server_cpu as f64 * 1000.0 / total.attempts.max(1) as f64,
        "consistent": consistent, "inconsistencies": detail,
    }))
}

/// Per counter: its `version` equals the transactions committed on it, and its vehicle holds
/// exactly two items per committed transaction, plus the counter.
async fn check_effects(
    addr: std::net::SocketAddr,
    table: &str,
    committed: &[u64],
) -> Result<(bool, Vec<String>)> {
    let mut c = Conn::connect(addr).await?;
    let mut detail = Vec::new();
    for (k, &n) in committed.iter().enumerate() {
        let k = k as u32;
        let (status, b) = c.call(Op::GetItem, counter_get(table, k)).await?;
        if status != 200 {
            bail!(
                "GetItem counter {k} → HTTP {status}: {}",
                String::from_utf8_lossy(&b)
            );
        }
        let version = version_of(&b).unwrap_or(0);
        let items = count_vehicle(&mut c, table, &tx_vehicle(k)).await?;
        let expected_items = 2 * n + u64::from(n > 0);
        if version != n || items != expected_items {
            detail.push(format!(
                "{}: version {version}, items {items}; committed {n} → expected {expected_items} items",
                tx_vehicle(k)
            ));
        }
    }
    Ok((detail.is_empty(), detail))
}

/// The number of items under one partition key (Query, Select COUNT, every page).
pub(crate) async fn count_vehicle(c: &mut Conn, table: &str, vehicle: &str) -> Result<u64> {
    let mut count = 0;
    let mut start: Option<Value> = None;
    loop {
        let mut q = json!({"TableName": table, "ConsistentRead": true, "Select": "COUNT",
                           "KeyConditionExpression": "vehicleId = :v",
                           "ExpressionAttributeValues": {":v": {"S": vehicle}}});
        if let Some(k) = start.take() {
            q["ExclusiveStartKey"] = k;
        }
        let r = c.call_ok(Op::Query, q).await?;
        count += r["Count"].as_u64().unwrap_or(0);
        match &r["LastEvaluatedKey"] {
            Value::Null => return Ok(count),
            k => start = Some(k.clone()),
        }
    }
}

pub(crate) async fn drop_table(addr: std::net::SocketAddr, table: &str) -> Result<()> {
    let mut c = Conn::connect(addr).await?;
    c.call_ok(Op::DeleteTable, json!({"TableName": table})).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancellation_reasons_are_read_in_request_order() {
        let body = br#"{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","CancellationReasons":[{"Code":"None"},{"Code":"None"},{"Code":"ConditionalCheckFailed","Message":"The conditional request failed"}],"message":"Transaction cancelled"}"#;
        assert_eq!(
            cancellation_codes(body).unwrap(),
            ["None", "None", "ConditionalCheckFailed"]
        );
        let other = br#"{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException"}"#;
        assert!(cancellation_codes(other).is_none());
    }

    #[test]
    fn a_transaction_puts_two_new_items_and_moves_the_counter_by_one() {
        let body: Value = serde_json::from_slice(&tx_body("T", 3, Some(7), 2, 41)).unwrap();
        let actions = body["TransactItems"].as_array().unwrap();
        assert_eq!(actions.len(), 3);
        let sk = |i: usize| {
            actions[i]["Put"]["Item"]["recordedAt"]["S"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert_eq!(
            (sk(0), sk(1)),
            ("TX#02#00000041#a".to_string(), "TX#02#00000041#b".to_string())
        );
        assert_eq!(actions[0]["Put"]["Item"]["vehicleId"]["S"], "TXV#03");
        let u = &actions[2]["Update"];
        assert_eq!(u["Key"], counter_key(3));
        assert_eq!(u["ExpressionAttributeValues"][":v"]["N"], "7");
        assert_eq!(u["ExpressionAttributeValues"][":n"]["N"], "8");
        // A counter never seen is expected absent (or at 0) and becomes 1.
        let first: Value = serde_json::from_slice(&tx_body("T", 0, None, 0, 1)).unwrap();
        assert_eq!(
            first["TransactItems"][2]["Update"]["ExpressionAttributeValues"][":n"]["N"],
            "1"
        );
    }
}
