//! Conditional puts racing on hot keys, and the check that no update was lost or doubled.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use bytes::Bytes;
use serde_json::{Value, json};

use crate::http::*;
use crate::phases::*;
use crate::process::*;
use crate::workload::*;

pub(crate) const HOT_KEYS: u32 = 8;

pub(crate) fn hot_put(table: &str, key: u32, expected: Option<u64>, task: usize) -> Bytes {
    let new_version = expected.unwrap_or(0) + 1;
    let base: Value = serde_json::from_str(&item_json(key, task as u32)).unwrap();
    let mut item = base;
    item["vehicleId"] = json!({"S": format!("HOT#{key:02}")});
    item["recordedAt"] = json!({"S": "META"});
    item["version"] = json!({"N": new_version.to_string()});
    let body = match expected {
        None => {
            json!({"TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(vehicleId)"})
        }
        Some(v) => json!({"TableName": table, "Item": item, "ConditionExpression": "#v = :v",
                          "ExpressionAttributeNames": {"#v": "version"},
                          "ExpressionAttributeValues": {":v": {"N": v.to_string()}}}),
    };
    Bytes::from(body.to_string())
}

pub(crate) fn hot_get(table: &str, key: u32) -> Bytes {
    Bytes::from(
        json!({"TableName": table, "ConsistentRead": true,
               "Key": {"vehicleId": {"S": format!("HOT#{key:02}")}, "recordedAt": {"S": "META"}}})
        .to_string(),
    )
}

pub(crate) fn version_of(resp: &[u8]) -> Option<u64> {
    let v: Value = serde_json::from_slice(resp).ok()?;
    v["Item"]["version"]["N"].as_str()?.parse().ok()
}

/// Optimistic-concurrency puts racing on HOT_KEYS keys: each task creates a key with
/// `attribute_not_exists`, or bumps its `version` with `version = :expected`; after a
/// ConditionalCheckFailed it re-reads the key (strongly consistent) and tries again. At the end
/// every key's version must equal the number of puts that succeeded on it.
pub(crate) async fn conditional_race(
    server: &Server,
    table: &str,
    concurrency: usize,
    duration: Duration,
) -> Result<Value> {
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
                        first_error
                            .get_or_insert_with(|| format!("HTTP {status}: {}", String::from_utf8_lossy(&b)));
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
        let v = if status == 200 {
            version_of(&b).unwrap_or(0)
        } else {
            0
        };
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

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}
