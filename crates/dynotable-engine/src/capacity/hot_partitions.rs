//! Hot partitions: a request rate spread over partition-key values, against the per-partition
//! ceilings (rule B.11).
//!
//! # Specification
//!
//! A partition serves at most 3,000 read units and 1,000 write units a second; past either it
//! throttles, whatever the table's total capacity. Adaptive capacity can isolate a hot key on a
//! partition of its own, but never beyond those same ceilings, so the load on **one
//! partition-key value** is the figure that decides: every request for a key lands on the one
//! partition holding its collection (on tables with an LSI a collection is never split).
//!
//! The load of a key is its share of the requests × the rate × the units per request. Shares
//! come from a [`KeyDistribution`]: uniform over N keys, or weighted per key (for instance by
//! each collection's item count from collection statistics, with the keys not listed sharing the
//! rest evenly). A key throttles when its read load exceeds 3,000 RCU or its write load 1,000
//! WCU; a key is flagged as warm from 80 % of either. The table's totals are also set against
//! the default per-table quota of 40,000 RCU / 40,000 WCU (rule B.7).

use serde::{Deserialize, Serialize};

use super::estimate::Line;
use crate::ApiError;
use crate::collections::CollectionStats;

/// Rule B.11: the most one partition serves per second.
pub const PARTITION_READ_UNITS: f64 = 3000.0;
pub const PARTITION_WRITE_UNITS: f64 = 1000.0;
/// Rule B.7: the default per-table throughput quota.
pub const TABLE_QUOTA_UNITS: f64 = 40_000.0;
/// The share of a ceiling from which a key is flagged as warm.
pub const WARNING_SHARE: f64 = 0.8;

/// How requests spread over partition-key values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "kind")]
pub enum KeyDistribution {
    /// Every one of `keys` values gets the same share.
    Uniform { keys: u64 },
    /// Listed keys with weights; `other_keys` more values share `other_weight` evenly.
    Weighted {
        keys: Vec<KeyWeight>,
        other_keys: u64,
        other_weight: f64,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyWeight {
    /// The key as the UI shows it.
    pub key: String,
    pub weight: f64,
}

/// What a collection's weight is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeightBy {
    ItemCount,
    Bytes,
}

impl KeyDistribution {
    /// Weights from collection statistics: each listed (largest) collection by its item count
    /// or bytes, the other collections sharing the remainder evenly.
    pub fn from_collection_stats(stats: &CollectionStats, by: WeightBy) -> KeyDistribution {
        let weight = |count: u64, bytes: u64| match by {
            WeightBy::ItemCount => count as f64,
            WeightBy::Bytes => bytes as f64,
        };
        let keys: Vec<KeyWeight> = stats
            .largest
            .iter()
            .map(|c| KeyWeight {
                key: serde_json::to_string(&c.partition_key).unwrap_or_default(),
                weight: weight(c.item_count, c.size_bytes),
            })
            .collect();
        let listed = keys.iter().map(|k| k.weight).sum::<f64>();
        KeyDistribution::Weighted {
            other_keys: stats.distinct_partition_keys.saturating_sub(keys.len() as u64),
            other_weight: (weight(stats.item_count, stats.size_bytes) - listed).max(0.0),
            keys,
        }
    }
}

/// The load to spread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Traffic {
    pub reads_per_second: f64,
    pub read_units_per_request: f64,
    pub writes_per_second: f64,
    pub write_units_per_request: f64,
    pub distribution: KeyDistribution,
}

/// The load on one key (or on each of a group of keys with the same share).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyLoad {
    /// The key, or a description of the group (`"each of 50 keys"`).
    pub key: String,
    /// How many keys this row stands for.
    pub keys: u64,
    /// Each key's share of the requests (0–1).
    pub share: f64,
    pub read_units: f64,
    pub write_units: f64,
    /// Load over the ceiling (1.0 = at the ceiling).
    pub read_ratio: f64,
    pub write_ratio: f64,
    pub throttles: bool,
    pub warning: bool,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotPartitionReport {
    pub table_read_units: f64,
    pub table_write_units: f64,
    /// Heaviest keys first.
    pub keys: Vec<KeyLoad>,
    pub throttling_keys: u64,
    pub lines: Vec<Line>,
}

/// Spreads `traffic` over its keys and sets each against the partition ceilings.
pub fn hot_partitions(traffic: &Traffic) -> Result<HotPartitionReport, ApiError> {
    let rates = [
        traffic.reads_per_second,
        traffic.read_units_per_request,
        traffic.writes_per_second,
        traffic.write_units_per_request,
    ];
    if rates.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(ApiError::validation(
            "Request rates and units must be numbers of at least 0",
        ));
    }
    let table_read = traffic.reads_per_second * traffic.read_units_per_request;
    let table_write = traffic.writes_per_second * traffic.write_units_per_request;

    // (label, keys in the group, share of each key)
    let groups: Vec<(String, u64, f64)> = match &traffic.distribution {
        KeyDistribution::Uniform { keys } => {
            if *keys == 0 {
                return Err(ApiError::validation(
                    "The distribution needs at least one partition-key value",
                ));
            }
            vec![(format!("each of {keys} keys"), *keys, 1.0 / *keys as f64)]
        }
        KeyDistribution::Weighted {
            keys,
            other_keys,
            other_weight,
        } => {
            let weights = keys.iter().map(|k| k.weight).chain([*other_weight]);
            if weights.clone().any(|w| !w.is_finite() || w < 0.0) {
                return Err(ApiError::validation("Key weights must be numbers of at least 0"));
            }
            let total: f64 = weights.sum();
            if total <= 0.0 {
                return Err(ApiError::validation("The key weights add up to nothing"));
            }
            let mut groups: Vec<(String, u64, f64)> = keys
                .iter()
                .map(|k| (k.key.clone(), 1, k.weight / total))
                .collect();
            if *other_keys > 0 && *other_weight > 0.0 {
                groups.push((
                    format!("each of the {other_keys} other keys"),
                    *other_keys,
                    other_weight / total / *other_keys as f64,
                ));
            }
            groups
        }
    };

    let mut keys: Vec<KeyLoad> = groups
        .into_iter()
        .map(|(key, count, share)| {
            let read_units = table_read * share;
            let write_units = table_write * share;
            let read_ratio = read_units / PARTITION_READ_UNITS;
            let write_ratio = write_units / PARTITION_WRITE_UNITS;
            let throttles = read_ratio > 1.0 || write_ratio > 1.0;
            let warning = !throttles && (read_ratio >= WARNING_SHARE || write_ratio >= WARNING_SHARE);
            let mut lines = vec![Line::rule(
                "B.11",
                format!(
                    "{key}: {:.2} % of requests → {} RCU and {} WCU a second, against 3,000 RCU / 1,000 WCU per partition",
                    share * 100.0,
                    round2(read_units),
                    round2(write_units)
                ),
            )];
            if throttles {
                lines.push(Line::rule(
                    "B.11",
                    "Throttles: one key's collection lives on one partition, and adaptive capacity cannot raise a partition past its ceiling",
                ));
            } else if warning {
                lines.push(Line::rule("B.11", "Within 20 % of a partition ceiling"));
            }
            KeyLoad {
                key,
                keys: count,
                share,
                read_units,
                write_units,
                read_ratio,
                write_ratio,
                throttles,
                warning,
                lines,
            }
        })
        .collect();
    keys.sort_by(|a, b| {
        let load = |k: &KeyLoad| k.read_ratio.max(k.write_ratio);
        load(b).total_cmp(&load(a))
    });
    let throttling_keys = keys.iter().filter(|k| k.throttles).map(|k| k.keys).sum();
    let mut lines = vec![Line::note(format!(
        "The table: {} RCU and {} WCU a second in all",
        round2(table_read),
        round2(table_write)
    ))];
    if table_read > TABLE_QUOTA_UNITS || table_write > TABLE_QUOTA_UNITS {
        lines.push(Line::rule(
            "B.7",
            "Above the default per-table quota of 40,000 RCU / 40,000 WCU: ask AWS for more before this load",
        ));
    }
    if throttling_keys > 0 {
        lines.push(Line::rule(
            "B.11",
            format!("{throttling_keys} key(s) would throttle; spread their traffic over more partition-key values (for example a suffix)"),
        ));
    }
    Ok(HotPartitionReport {
        table_read_units: table_read,
        table_write_units: table_write,
        keys,
        throttling_keys,
        lines,
    })
}

fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_thousand_writes_over_fifty_keys_is_two_hundred_wcu_a_key() {
        // The seed article: 10,000 writes/s over 50 partition-key values ≈ 200 WCU per key.
        let report = hot_partitions(&Traffic {
            reads_per_second: 0.0,
            read_units_per_request: 0.0,
            writes_per_second: 10_000.0,
            write_units_per_request: 1.0,
            distribution: KeyDistribution::Uniform { keys: 50 },
        })
        .unwrap();
        assert_eq!(report.keys.len(), 1);
        assert_eq!(report.keys[0].keys, 50);
        assert!((report.keys[0].write_units - 200.0).abs() < 1e-9);
        assert!(!report.keys[0].throttles);
        assert_eq!(report.throttling_keys, 0);
        assert_eq!(report.table_write_units, 10_000.0);
    }

    #[test]
    fn a_key_with_most_of_the_traffic_throttles() {
        // 5,000 writes/s of 1 WCU; one key takes half → 2,500 WCU > 1,000.
        let report = hot_partitions(&Traffic {
            reads_per_second: 4_000.0,
            read_units_per_request: 0.5,
            writes_per_second: 5_000.0,
            write_units_per_request: 1.0,
            distribution: KeyDistribution::Weighted {
                keys: vec![KeyWeight {
                    key: "VEH#V-7741".into(),
                    weight: 50.0,
                }],
                other_keys: 100,
                other_weight: 50.0,
            },
        })
        .unwrap();
        let hot = &report.keys[0];
        assert_eq!(hot.key, "VEH#V-7741");
        assert!((hot.write_units - 2_500.0).abs() < 1e-9);
        assert!((hot.read_units - 1_000.0).abs() < 1e-9);
        assert!(hot.throttles);
        let rest = &report.keys[1];
        assert_eq!(rest.keys, 100);
        assert!((rest.write_units - 25.0).abs() < 1e-9);
        assert!(!rest.throttles);
        assert_eq!(report.throttling_keys, 1);
    }

    #[test]
    fn reads_have_their_own_ceiling() {
        // 2,500 strongly consistent 1-RCU reads a second on one key: 83 % of 3,000 → a warning.
        let report = hot_partitions(&Traffic {
            reads_per_second: 2_500.0,
            read_units_per_request: 1.0,
            writes_per_second: 0.0,
            write_units_per_request: 0.0,
            distribution: KeyDistribution::Uniform { keys: 1 },
        })
        .unwrap();
        assert!(report.keys[0].warning);
        assert!(!report.keys[0].throttles);
    }

    #[test]
    fn collection_statistics_weigh_the_largest_keys_and_spread_the_rest() {
        use crate::collections::{CollectionStats, CollectionSummary};
        use dynotable_types::AttributeValue;
        let summary = |key: &str, items: u64| CollectionSummary {
            partition_key: AttributeValue::S(key.into()),
            item_count: items,
            size_bytes: items * 100,
            limited_size_bytes: None,
        };
        let stats = CollectionStats {
            distinct_partition_keys: 50,
            item_count: 1000,
            size_bytes: 100_000,
            largest: vec![summary("VEH#V-7741", 400), summary("VEH#V-7742", 100)],
            size_distribution: vec![],
            collection_size_limit: None,
        };
        let distribution = KeyDistribution::from_collection_stats(&stats, WeightBy::ItemCount);
        let report = hot_partitions(&Traffic {
            reads_per_second: 0.0,
            read_units_per_request: 0.0,
            writes_per_second: 10_000.0,
            write_units_per_request: 1.0,
            distribution,
        })
        .unwrap();
        // 40 % of 10,000 WCU on one key; 10 % on the next; 50 % over the 48 others.
        assert_eq!(report.keys[0].key, r#"{"S":"VEH#V-7741"}"#);
        assert!((report.keys[0].write_units - 4_000.0).abs() < 1e-9);
        assert!(report.keys[0].throttles);
        assert!((report.keys[1].write_units - 1_000.0).abs() < 1e-9);
        assert!(!report.keys[1].throttles && report.keys[1].warning);
        assert_eq!(report.keys[2].keys, 48);
        assert!((report.keys[2].write_units - 5_000.0 / 48.0).abs() < 1e-9);
        assert_eq!(report.throttling_keys, 1);
    }

    #[test]
    fn bad_distributions_are_refused() {
        let traffic = |distribution| Traffic {
            reads_per_second: 1.0,
            read_units_per_request: 1.0,
            writes_per_second: 1.0,
            write_units_per_request: 1.0,
            distribution,
        };
        assert!(hot_partitions(&traffic(KeyDistribution::Uniform { keys: 0 })).is_err());
        assert!(
            hot_partitions(&traffic(KeyDistribution::Weighted {
                keys: vec![],
                other_keys: 3,
                other_weight: 0.0
            }))
            .is_err()
        );
    }
}
