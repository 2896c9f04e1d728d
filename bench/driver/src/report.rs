//! The results as Markdown: the side-by-side table and the targets' ratios.

use serde_json::Value;

use crate::phases::WRITERS;
use crate::run::*;

pub(crate) fn f(v: &Value) -> Option<f64> {
    v.as_f64()
}

pub(crate) fn fmt_rate(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            let n = x.round() as u64;
            let s = n.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
        _ => "—".into(),
    }
}

pub(crate) fn fmt_ms(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            if x < 1.0 {
                format!("{x:.3}")
            } else if x < 100.0 {
                format!("{x:.2}")
            } else {
                format!("{x:.0}")
            }
        }
        _ => "—".into(),
    }
}

pub(crate) fn mb(v: Option<f64>) -> String {
    v.map_or("—".into(), |kb| format!("{:.1}", kb / 1024.0))
}

pub(crate) fn yes_no(v: &Value) -> String {
    match v.as_bool() {
        Some(true) => "yes".into(),
        Some(false) => "**NO**".into(),
        None => "—".into(),
    }
}

pub(crate) fn column(r: &Value) -> String {
    format!(
        "{} ({})",
        r["name"].as_str().unwrap_or("?"),
        r["mode"].as_str().unwrap_or("?")
    )
}

pub(crate) fn report(results: &[Value], cfg: &Config, header: &str) -> String {
    let mut md = String::new();
    md.push_str(header);
    md.push('\n');
    md.push_str("| | ");
    md.push_str(&results.iter().map(column).collect::<Vec<_>>().join(" | "));
    md.push_str(" |\n|---|");
    md.push_str(&"---:|".repeat(results.len()));
    md.push('\n');
    let row = |md: &mut String, label: &str, cell: &dyn Fn(&Value) -> String| {
        md.push_str(&format!("| {label} | "));
        md.push_str(
            &results
                .iter()
                .map(|r| {
                    if r.get("failure").is_some() && cell(r) == "—" {
                        "failed".into()
                    } else {
                        cell(r)
                    }
                })
                .collect::<Vec<_>>()
                .join(" | "),
        );
        md.push_str(" |\n");
    };
    let n = cfg.shape.vehicles * cfg.shape.readings;
    row(
        &mut md,
        &format!("startup → first ListTables 200, ms (median of {})", cfg.startups),
        &|r| fmt_ms(f(&r["startup_ms"]["median"])),
    );
    row(
        &mut md,
        &format!("idle RSS right after startup, MB (median of {})", cfg.startups),
        &|r| mb(f(&r["idle_rss_kb"]["median"])),
    );
    row(&mut md, &format!("RSS after the {n}-item load, MB"), &|r| {
        mb(f(&r["rss_after_load_kb"]))
    });
    row(&mut md, "peak RSS (VmHWM) at the end, MB", &|r| {
        mb(f(&r["peak_rss_kb"]))
    });
    for (k, label) in [
        ("load_c1", "BatchWriteItem load c=1"),
        ("load_c16", "BatchWriteItem load c=16"),
    ] {
        row(&mut md, &format!("{label}: items/s"), &|r| {
            fmt_rate(f(&r[k]["items_per_s"]))
        });
        row(&mut md, &format!("{label}: batch p50 / p99 ms"), &|r| {
            format!("{} / {}", fmt_ms(f(&r[k]["p50_ms"])), fmt_ms(f(&r[k]["p99_ms"])))
        });
    }
    for (k, label) in [
        ("get", "GetItem"),
        ("query", "Query 50-item window, newest first"),
        ("gsi_query", "Query GSI ByDepot, Limit 100"),
    ] {
        for c in [1, 16] {
            let key = format!("{k}_c{c}");
            row(&mut md, &format!("{label} c={c}: ops/s"), &|r| {
                fmt_rate(f(&r[&key]["ops_per_s"]))
            });
            row(&mut md, &format!("{label} c={c}: p50 / p99 ms"), &|r| {
                format!(
                    "{} / {}",
                    fmt_ms(f(&r[&key]["p50_ms"])),
                    fmt_ms(f(&r[&key]["p99_ms"]))
                )
            });
        }
    }
    row(&mut md, "full paginated Scan: seconds (pages)", &|r| {
        format!(
            "{} ({})",
            fmt_ms(f(&r["scan"]["seconds"])),
            r["scan"]["pages"].as_u64().map_or("—".into(), |p| p.to_string())
        )
    });
    row(&mut md, "conditional puts, 8 hot keys, c=16: attempts/s", &|r| {
        fmt_rate(f(&r["conditional_c16"]["attempts_per_s"]))
    });
    row(
        &mut md,
        "… succeeded / ConditionalCheckFailed / other errors",
        &|r| {
            let c = &r["conditional_c16"];
            if c.is_null() {
                return "—".into();
            }
            format!(
                "{} / {} / {}",
                c["succeeded"], c["conditional_check_failed"], c["errors"]
            )
        },
    );
    row(&mut md, "… every key's version == its successful puts", &|r| {
        yes_no(&r["conditional_c16"]["consistent"])
    });
    // A phase the server does not support, or one that failed (its error is in the notes).
    let unsupported = |v: &Value| -> Option<String> {
        if v["phase_error"].is_string() {
            return Some("failed (see below)".into());
        }
        (v["supported"] == false).then(|| "not supported".into())
    };
    for c in [1, 16] {
        let key = format!("tx_c{c}");
        let label = format!("TransactWriteItems (2 Puts + conditional Update), c={c}");
        row(&mut md, &format!("{label}: committed tx/s"), &|r| {
            unsupported(&r[&key]).unwrap_or_else(|| fmt_rate(f(&r[&key]["committed_per_s"])))
        });
        row(&mut md, &format!("{label}: p50 / p99 ms"), &|r| {
            unsupported(&r[&key]).unwrap_or_else(|| {
                format!(
                    "{} / {}",
                    fmt_ms(f(&r[&key]["p50_ms"])),
                    fmt_ms(f(&r[&key]["p99_ms"]))
                )
            })
        });
        row(
            &mut md,
            "… committed / TransactionCanceled (CCF, conflict) / other errors",
            &|r| {
                let t = &r[&key];
                if t.is_null() {
                    return "—".into();
                }
                unsupported(t).unwrap_or_else(|| {
                    let reason = |code: &str| t["cancellation_reasons"][code].as_u64().unwrap_or(0);
                    format!(
                        "{} / {} ({}, {}) / {}",
                        t["committed"],
                        t["cancelled"],
                        reason("ConditionalCheckFailed"),
                        reason("TransactionConflict"),
                        t["errors"]
                    )
                })
            },
        );
        row(
            &mut md,
            "… every committed transaction's items and counter there, no others",
            &|r| unsupported(&r[&key]).unwrap_or_else(|| yes_no(&r[&key]["consistent"])),
        );
    }
    row(
        &mut md,
        "server CPU per TransactWriteItems attempt and its re-read (c=16), µs",
        &|r| {
            unsupported(&r["tx_c16"]).unwrap_or_else(|| fmt_ms(f(&r["tx_c16"]["server_cpu_us_per_attempt"])))
        },
    );
    let s = "Streams consumer (NEW_AND_OLD_IMAGES)";
    row(
        &mut md,
        &format!("{s}: items put ({} PutItem tasks), puts/s", WRITERS),
        &|r| {
            unsupported(&r["streams"]).unwrap_or_else(|| {
                format!(
                    "{} ({})",
                    r["streams"]["written"],
                    fmt_rate(f(&r["streams"]["puts_per_s"]))
                )
            })
        },
    );
    row(&mut md, &format!("{s}: tailing from LATEST, records/s"), &|r| {
        unsupported(&r["streams"]).unwrap_or_else(|| fmt_rate(f(&r["streams"]["records_per_s"])))
    });
    row(
        &mut md,
        &format!("{s}: lag PutItem response → GetRecords, p50 / p99 ms"),
        &|r| {
            let v = &r["streams"];
            unsupported(v).unwrap_or_else(|| {
                format!(
                    "{} / {}",
                    fmt_ms(f(&v["lag_p50_ms"])),
                    fmt_ms(f(&v["lag_p99_ms"]))
                )
            })
        },
    );
    row(
        &mut md,
        &format!("{s}: backlog from TRIM_HORIZON, records/s"),
        &|r| {
            unsupported(&r["streams"])
                .unwrap_or_else(|| fmt_rate(f(&r["streams"]["backlog"]["records_per_s"])))
        },
    );
    row(
        &mut md,
        "… every put seen once as an INSERT, in sequence order",
        &|r| unsupported(&r["streams"]).unwrap_or_else(|| yes_no(&r["streams"]["consistent"])),
    );
    // The scale phase, then (dynotable-local's file mode only) the same windows with its item
    // cache off.
    for (field, p50_suffix, ratio_suffix) in [
        ("query_c1", "", ""),
        (
            "query_c1_cache_off",
            ", item cache off (`--cache-mb 0`)",
            ", item cache off",
        ),
    ] {
        for &size in &cfg.scale {
            row(
                &mut md,
                &format!(
                    "Query window p50 on {} items{p50_suffix}, ms",
                    fmt_rate(Some(size as f64))
                ),
                &|r| {
                    let e = &r["scale"][size.to_string()];
                    match e["skipped"].as_str() {
                        Some(s) if field == "query_c1" => format!("skipped: {s}"),
                        _ => fmt_ms(f(&e[field]["p50_ms"])),
                    }
                },
            );
        }
        if cfg.scale.len() >= 2 {
            let (lo, hi) = (
                cfg.scale[0].to_string(),
                cfg.scale[cfg.scale.len() - 1].to_string(),
            );
            row(
                &mut md,
                &format!(
                    "… p50 ratio {} / {}{ratio_suffix}",
                    fmt_rate(Some(cfg.scale[cfg.scale.len() - 1] as f64)),
                    fmt_rate(Some(cfg.scale[0] as f64))
                ),
                &|r| match (
                    f(&r["scale"][&hi][field]["p50_ms"]),
                    f(&r["scale"][&lo][field]["p50_ms"]),
                ) {
                    (Some(a), Some(b)) => format!("{:.2}×", a / b),
                    _ => "—".into(),
                },
            );
        }
    }
    for c in [1, 16] {
        let key = format!("get_c{c}");
        row(&mut md, &format!("server CPU per GetItem (c={c}), µs"), &|r| {
            fmt_ms(f(&r[&key]["server_cpu_us_per_op"]))
        });
        // The client's share: the driver is one thread, and its CPU per request is the part of
        // every round trip that no server can take away.
        row(&mut md, &format!("driver CPU per GetItem (c={c}), µs"), &|r| {
            fmt_ms(f(&r[&key]["driver_cpu_us_per_op"]))
        });
    }
    row(&mut md, "server CPU per window Query (c=16), µs", &|r| {
        fmt_ms(f(&r["query_c16"]["server_cpu_us_per_op"]))
    });
    row(&mut md, "server CPU per BatchWriteItem of 25 (c=16), µs", &|r| {
        fmt_ms(f(&r["load_c16"]["server_cpu_us_per_op"]))
    });
    row(&mut md, "wall time for this server's whole run, s", &|r| {
        format!("{:.0}", f(&r["wall_seconds"]).unwrap_or(f64::NAN))
    });
    md.push('\n');

    for r in results {
        if r["load_c1"]["stopped_by_budget"].as_bool() == Some(true) {
            md.push_str(&format!(
                "- {}: the c=1 load stopped at its {} s budget, after {} of {n} items; its rate is over those.\n",
                column(r),
                cfg.c1_budget.as_secs(),
                r["load_c1"]["items"]
            ));
        }
        if let Some(e) = r["failure"].as_str() {
            md.push_str(&format!(
                "- **{}** failed: `{}`\n",
                column(r),
                e.replace('`', "'")
            ));
        }
        for k in [
            "load_c1",
            "load_c16",
            "get_c1",
            "get_c16",
            "query_c1",
            "query_c16",
            "gsi_query_c1",
            "gsi_query_c16",
            "conditional_c16",
            "tx_c1",
            "tx_c16",
        ] {
            if r[k]["errors"].as_u64().unwrap_or(0) > 0 {
                md.push_str(&format!(
                    "- {} {k}: {} errors, first: `{}`\n",
                    column(r),
                    r[k]["errors"],
                    r[k]["first_error"]
                        .as_str()
                        .unwrap_or("")
                        .chars()
                        .take(300)
                        .collect::<String>()
                        .replace('`', "'")
                ));
            }
        }
        let st = &r["streams"];
        if st["supported"] == true {
            if st["write_errors"].as_u64().unwrap_or(0) > 0 {
                md.push_str(&format!(
                    "- {} streams: {} PutItem errors, first: `{}`\n",
                    column(r),
                    st["write_errors"],
                    st["first_error"]
                        .as_str()
                        .unwrap_or("")
                        .chars()
                        .take(300)
                        .collect::<String>()
                        .replace('`', "'")
                ));
            }
            if st["written"].as_u64() < st["items"].as_u64() {
                md.push_str(&format!(
                    "- {} streams: the writers stopped at their {} s budget after {} of {} items.\n",
                    column(r),
                    cfg.c1_budget.as_secs(),
                    st["written"],
                    st["items"]
                ));
            }
            if st["consistent"] == false {
                md.push_str(&format!("- {} streams: **records missing or wrong**: missing {}, duplicates {}, foreign {}, not INSERT {}; backlog {}\n", column(r), st["missing"], st["duplicates"], st["foreign"], st["not_insert"], st["backlog"]));
            }
            md.push_str(&format!("- {} streams: {} of {} records came back before their PutItem response (lag counted as 0); {} GetRecords calls, {} empty.\n", column(r), st["seen_before_ack"], st["records_seen"], st["polls"], st["empty_polls"]));
        }
        for (k, what) in [("tx_c1", "TransactWriteItems"), ("streams", "DynamoDB Streams")] {
            if r[k]["supported"] == false {
                let answer = r[k]["answer"].as_str().unwrap_or("?");
                md.push_str(&format!("- {}: {what} not supported: {answer}.\n", column(r)));
            }
        }
        for k in ["tx_c1", "tx_c16", "streams"] {
            if let Some(e) = r[k]["phase_error"].as_str() {
                md.push_str(&format!(
                    "- **{}** {k} failed: `{}`\n",
                    column(r),
                    e.chars().take(300).collect::<String>().replace('`', "'")
                ));
            }
        }
        for k in ["tx_c1", "tx_c16"] {
            if r[k]["consistent"] == false {
                md.push_str(&format!(
                    "- {} {k}: **effects do not match the committed transactions**: {}\n",
                    column(r),
                    r[k]["inconsistencies"]
                ));
            }
        }
    }
    md.push('\n');
    md.push_str(&ratios(results, cfg));
    md.push_str(&against_the_floor(results));
    md.push_str("\nMachine load per server (`uptime` before → after its run):\n\n");
    for r in results {
        let la = |s: &str| s.split("load average:").nth(1).unwrap_or("?").trim().to_string();
        md.push_str(&format!(
            "- {}: {} → {}\n",
            column(r),
            la(r["uptime_before"].as_str().unwrap_or("")),
            la(r["uptime_after"].as_str().unwrap_or(""))
        ));
    }
    md
}

/// The targets of issue 3 as ratios, each dynotable-local mode against the peer in the same
/// mode (or, when the peer has no such mode here, the mode it has, said so).
pub(crate) fn ratios(results: &[Value], cfg: &Config) -> String {
    let mut md = String::from("| target | dynotable-local | vs | ratio | met? |\n|---|---|---|---:|:---:|\n");
    let ours: Vec<&Value> = results.iter().filter(|r| r["kind"] == "dynotable").collect();
    let peer_for = |kind: &str, mode: &Value| -> Option<&Value> {
        results
            .iter()
            .find(|r| r["kind"] == kind && r["mode"] == *mode)
            .or_else(|| results.iter().find(|r| r["kind"] == kind))
    };
    // (label, json path, higher is better, min ratio vs dynoxide)
    let metrics: Vec<(&str, Vec<&str>, bool, f64)> = vec![
        (
            "BatchWriteItem load c=1, items/s",
            vec!["load_c1", "items_per_s"],
            true,
            10.0,
        ),
        (
            "BatchWriteItem load c=16, items/s",
            vec!["load_c16", "items_per_s"],
            true,
            10.0,
        ),
        ("GetItem c=1, ops/s", vec!["get_c1", "ops_per_s"], true, 2.0),
        ("GetItem c=16, ops/s", vec!["get_c16", "ops_per_s"], true, 2.0),
        (
            "Query window c=1, ops/s",
            vec!["query_c1", "ops_per_s"],
            true,
            4.0,
        ),
        (
            "Query window c=16, ops/s",
            vec!["query_c16", "ops_per_s"],
            true,
            4.0,
        ),
        (
            "Query GSI c=1, ops/s",
            vec!["gsi_query_c1", "ops_per_s"],
            true,
            4.0,
        ),
        (
            "Query GSI c=16, ops/s",
            vec!["gsi_query_c16", "ops_per_s"],
            true,
            4.0,
        ),
        ("full Scan, seconds", vec!["scan", "seconds"], false, 1.0),
        (
            "conditional puts c=16, attempts/s",
            vec!["conditional_c16", "attempts_per_s"],
            true,
            1.0,
        ),
    ];
    let get = |r: &Value, p: &[&str]| -> Option<f64> {
        let mut v = r;
        for k in p {
            v = &v[*k];
        }
        v.as_f64()
    };
    for us in &ours {
        for (peer_kind, floor_for) in [("dynoxide", None), ("dynalite", Some(5.0))] {
            let Some(peer) = peer_for(peer_kind, &us["mode"]) else {
                continue;
            };
            for (label, path, higher, min_dynoxide) in &metrics {
                let min = floor_for.unwrap_or(*min_dynoxide);
                let ratio = match (get(us, path), get(peer, path)) {
                    (Some(a), Some(b)) if a > 0.0 && b > 0.0 => Some(if *higher { a / b } else { b / a }),
                    _ => None,
                };
                let goal = if min > 1.0 {
                    format!("≥ {min}× {peer_kind}")
                } else {
                    format!("ahead of {peer_kind}")
                };
                let met = ratio.map_or("—", |x| if x >= min { "met" } else { "**missed**" });
                md.push_str(&format!(
                    "| {label}: {goal} | {} | {} | {} | {met} |\n",
                    us["mode"].as_str().unwrap_or("?"),
                    column(peer),
                    ratio.map_or("—".into(), |x| format!("{x:.2}×"))
                ));
            }
        }
        let start = get(us, &["startup_ms", "median"]);
        md.push_str(&format!(
            "| startup < 20 ms | {} | — | {} ms | {} |\n",
            us["mode"].as_str().unwrap_or("?"),
            fmt_ms(start),
            start.map_or("—", |s| if s < 20.0 { "met" } else { "**missed**" })
        ));
        let idle = get(us, &["idle_rss_kb", "median"]).map(|kb| kb / 1024.0);
        md.push_str(&format!(
            "| idle RSS < 20 MB | {} | — | {} MB | {} |\n",
            us["mode"].as_str().unwrap_or("?"),
            idle.map_or("—".into(), |m| format!("{m:.1}")),
            idle.map_or("—", |m| if m < 20.0 { "met" } else { "**missed**" })
        ));
        if cfg.scale.len() >= 2 {
            let (lo, hi) = (
                cfg.scale[0].to_string(),
                cfg.scale[cfg.scale.len() - 1].to_string(),
            );
            let r = match (
                get(us, &["scale", &hi, "query_c1", "p50_ms"]),
                get(us, &["scale", &lo, "query_c1", "p50_ms"]),
            ) {
                (Some(a), Some(b)) => Some(a / b),
                _ => None,
            };
            md.push_str(&format!(
                "| Query p50 at {} within 1.5× of {} | {} | — | {} | {} |\n",
                fmt_rate(Some(cfg.scale[cfg.scale.len() - 1] as f64)),
                fmt_rate(Some(cfg.scale[0] as f64)),
                us["mode"].as_str().unwrap_or("?"),
                r.map_or("skipped".into(), |x| format!("{x:.2}×")),
                r.map_or("—", |x| if x <= 1.5 { "met" } else { "**missed**" })
            ));
            let off = match (
                get(us, &["scale", &hi, "query_c1_cache_off", "p50_ms"]),
                get(us, &["scale", &lo, "query_c1_cache_off", "p50_ms"]),
            ) {
                (Some(a), Some(b)) => Some(a / b),
                _ => None,
            };
            if let Some(x) = off {
                md.push_str(&format!(
                    "| Query p50 at {} within 1.5× of {}, item cache off | {} | — | {x:.2}× | {} |\n",
                    fmt_rate(Some(cfg.scale[cfg.scale.len() - 1] as f64)),
                    fmt_rate(Some(cfg.scale[0] as f64)),
                    us["mode"].as_str().unwrap_or("?"),
                    if x <= 1.5 { "met" } else { "**missed**" }
                ));
            }
        }
    }
    md
}

/// GetItem against the floor (the `floor` targets, `dynobench serve-floor`): what each server
/// reaches of the most a server that sleeps between requests could with this client on this
/// machine (the faster of `floor` and `floor-mt`), and how far each floor (also `floor-spin`,
/// which busy-polls) is above dynoxide (the ceiling of the "≥ 2× dynoxide" target). Empty
/// without a floor.
pub(crate) fn against_the_floor(results: &[Value]) -> String {
    let rate = |r: &Value, c: u32| f(&r[format!("get_c{c}")]["ops_per_s"]);
    // The floor at each concurrency: the faster of the floors that sleep between requests
    // (`floor`, `floor-mt`; not `floor-spin`). Which one is faster depends on the machine's load.
    let sleeping: Vec<&Value> = results
        .iter()
        .filter(|r| r["kind"] == "floor" && r["mode"] != "spin")
        .collect();
    if sleeping.is_empty() {
        return String::new();
    }
    let floor_rate = |c: u32| sleeping.iter().filter_map(|r| rate(r, c)).reduce(f64::max);
    let share = |r: &Value, c: u32| match (rate(r, c), floor_rate(c)) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.0} %", 100.0 * a / b),
        _ => "—".into(),
    };
    let mut md = String::from(
        "\nGetItem against the floor (a canned GetItem answer, no work: `dynobench serve-floor`; \
         the share is of the faster of `floor` and `floor-mt` at that concurrency):\n\n\
         | server | c=1 ops/s | of the floor | c=16 ops/s | of the floor |\n|---|---:|---:|---:|---:|\n",
    );
    for r in results {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            column(r),
            fmt_rate(rate(r, 1)),
            share(r, 1),
            fmt_rate(rate(r, 16)),
            share(r, 16)
        ));
    }
    md.push('\n');
    for peer in results.iter().filter(|r| r["kind"] == "dynoxide") {
        for c in [1, 16] {
            let Some(b) = rate(peer, c) else { continue };
            for floor in results.iter().filter(|r| r["kind"] == "floor") {
                if let Some(a) = rate(floor, c) {
                    md.push_str(&format!(
                        "- GetItem c={c}: {} is {:.2}× {}\n",
                        column(floor),
                        a / b,
                        column(peer)
                    ));
                }
            }
            if let Some(best) = floor_rate(c)
                && best / b < 2.0
            {
                md.push_str(&format!(
                    "- GetItem c={c}: a server that sleeps between requests cannot reach \"≥ 2× \
                     dynoxide\" here (the faster sleeping floor is {:.2}× {}); dynotable-local polls \
                     its socket for a moment after each answer instead (`--spin-us`)\n",
                    best / b,
                    column(peer)
                ));
            }
        }
    }
    md
}
