//! The partition map: a table's partitions as ranges of a hash ring, each collection placed
//! on one, lit by the traffic it takes.
//!
//! **This is a model, not DynamoDB's placement.** DynamoDB hashes the partition-key value and
//! gives each partition a range of the hash space, but its hash function and its split points
//! are not public. Here the ring is the 64-bit space of FNV-1a over the key's bytes (the UTF-8
//! of an S, the number's canonical text for N, the raw bytes of a B), mixed by MurmurHash3's
//! 64-bit finaliser, cut into equal ranges:
//! the picture is faithful to how placement works, the exact partition of a given key is not.
//!
//! The life of a map:
//! 1. The partition count is estimated from size and throughput, each partition holding at
//!    most 10 GB and serving at most 3,000 RCU and 1,000 WCU a second (rule B.11; the
//!    ceilings are the engine's `capacity::hot_partitions` constants):
//!    `max(⌈bytes / 10 GB⌉, ⌈RCU / 3,000 + WCU / 1,000⌉, 1)`.
//! 2. Each collection of the table (the sample's, its sizes scaled by `scale`) is placed by
//!    the hash of its partition-key value; its traffic is its share of the table's, by item
//!    count (a vehicle with ten times the readings takes ten times the reads) or uniform.
//! 3. A partition over 10 GB or over a ceiling splits in two between the collections where the
//!    two halves' loads are most even, again until every part fits, at most `MAX_SPLITS` times; a partition left with a single collection
//!    over a ceiling cannot split further: that key is hot (adaptive capacity isolates a hot
//!    item up to the same per-partition ceiling, rule B.11). A table with an LSI never splits
//!    an item collection (rule B.11), which the one-collection rule already keeps.

use dynotable_engine::capacity::hot_partitions::{PARTITION_READ_UNITS, PARTITION_WRITE_UNITS};
use dynotable_types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::ModelError;
use crate::collections::{COLLECTION_LIMIT_BYTES, collections};
use crate::generate::Sample;
use crate::model::Model;

/// Rule B.11 / B.7: what one partition holds at most.
pub const PARTITION_BYTES: u64 = COLLECTION_LIMIT_BYTES;
/// How many splits the model performs at most.
pub const MAX_SPLITS: usize = 1024;

/// The traffic a table takes, and how it spreads over its keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TrafficModel {
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub read_units_per_second: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_units_per_second: f64,
    /// Traffic shared by item count (skew follows the data) or evenly over the keys.
    #[serde(default)]
    pub spread: Spread,
    /// How many times larger production is than the sample (sizes are multiplied by it).
    #[serde(default = "unscaled")]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub scale: f64,
}

fn unscaled() -> f64 {
    1.0
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Spread {
    #[default]
    ByItems,
    Uniform,
}

/// One collection on the ring.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Placed {
    #[cfg_attr(feature = "specta", specta(type = dynotable_builder::typescript::AttributeValueJson))]
    pub key: AttributeValue,
    /// The key's position on the ring, `0..2^64`, as 16 hex digits.
    pub hash: String,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub read_units: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_units: f64,
}

/// One partition: a range of the ring and what lands in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Partition {
    /// Inclusive start and end of its range, 16 hex digits each.
    pub start: String,
    pub end: String,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub read_units: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_units: f64,
    /// Its share of the per-partition ceilings, the larger of reads and writes (1 = at the
    /// ceiling).
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub load: f64,
    pub hot: bool,
    pub collections: Vec<Placed>,
}

/// A table's partition map.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct PartitionMap {
    pub table: String,
    /// The estimate of step 1, before any split.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub estimated: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub by_size: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub by_throughput: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub splits: usize,
    pub partitions: Vec<Partition>,
    /// Keys alone on a partition they overload.
    #[cfg_attr(feature = "specta", specta(type = Vec<dynotable_builder::typescript::AttributeValueJson>))]
    pub hot_keys: Vec<AttributeValue>,
    pub notes: Vec<String>,
}

/// FNV-1a, 64 bits: the model's hash (see the module docs — not DynamoDB's).
pub fn ring_position(key: &AttributeValue) -> u64 {
    let bytes: Vec<u8> = match key {
        AttributeValue::S(s) => s.as_bytes().to_vec(),
        AttributeValue::N(n) => n.to_string().into_bytes(),
        AttributeValue::B(b) => b.clone(),
        other => serde_json::to_vec(other).unwrap_or_default(),
    };
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // FNV alone leaves keys that differ in their last characters (`VEH#V-7741`, `VEH#V-7748`)
    // close together on the ring; a 64-bit finalising mix (MurmurHash3's) spreads them.
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^= hash >> 33;
    hash
}

struct Range {
    start: u64,
    end: u64,
    members: Vec<(u64, Placed)>,
}

impl Range {
    fn sums(&self) -> (f64, f64, f64) {
        self.members.iter().fold((0.0, 0.0, 0.0), |(b, r, w), (_, p)| {
            (b + p.bytes, r + p.read_units, w + p.write_units)
        })
    }

    fn over(&self) -> bool {
        let (bytes, reads, writes) = self.sums();
        bytes > PARTITION_BYTES as f64 || reads > PARTITION_READ_UNITS || writes > PARTITION_WRITE_UNITS
    }
}

/// A collection's share of one partition's ceilings: the largest of size, reads and writes.
fn weight(p: &Placed) -> f64 {
    (p.bytes / PARTITION_BYTES as f64)
        .max(p.read_units / PARTITION_READ_UNITS)
        .max(p.write_units / PARTITION_WRITE_UNITS)
}

/// Where to cut `members` (sorted by position, at least two) so that the heavier half is as
/// light as it can be: the index of the first member of the upper half.
fn even_split(members: &[(u64, Placed)]) -> usize {
    let total: f64 = members.iter().map(|(_, p)| weight(p)).sum();
    let mut below = 0.0;
    let mut best = (f64::INFINITY, 1);
    for (i, (_, p)) in members.iter().enumerate().take(members.len() - 1) {
        below += weight(p);
        let heavier = below.max(total - below);
        if heavier < best.0 {
            best = (heavier, i + 1);
        }
    }
    best.1
}

/// The partition map of `table` under `traffic`.
pub fn partition_map(
    model: &Model,
    sample: &Sample,
    table: &str,
    traffic: &TrafficModel,
) -> Result<PartitionMap, ModelError> {
    let values = [
        traffic.read_units_per_second,
        traffic.write_units_per_second,
        traffic.scale,
    ];
    if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(ModelError::model("rates and scale must be numbers ≥ 0"));
    }
    let model_table = model
        .table(table)
        .ok_or_else(|| ModelError::model(format!("the model has no table {table}")))?;
    let all = collections(model, sample)?;
    let on_table = all
        .iter()
        .find(|t| t.target.table == table && t.target.index.is_none())
        .expect("every table has its own collections");
    let total_items: u64 = on_table.items.max(1);
    let key_count = on_table.collections.len().max(1) as f64;
    let bytes = on_table.bytes as f64 * traffic.scale;
    let by_size = (bytes / PARTITION_BYTES as f64).ceil() as u64;
    let by_throughput = (traffic.read_units_per_second / PARTITION_READ_UNITS
        + traffic.write_units_per_second / PARTITION_WRITE_UNITS)
        .ceil() as u64;
    let estimated = by_size.max(by_throughput).max(1);

    let mut placed: Vec<(u64, Placed)> = on_table
        .collections
        .iter()
        .map(|c| {
            let share = match traffic.spread {
                Spread::ByItems => c.items as f64 / total_items as f64,
                Spread::Uniform => 1.0 / key_count,
            };
            let position = ring_position(&c.key);
            (
                position,
                Placed {
                    key: c.key.clone(),
                    hash: format!("{position:016x}"),
                    bytes: c.bytes as f64 * traffic.scale,
                    read_units: traffic.read_units_per_second * share,
                    write_units: traffic.write_units_per_second * share,
                },
            )
        })
        .collect();
    placed.sort_by_key(|(position, _)| *position);

    // Equal ranges of the ring.
    let width = u64::MAX / estimated;
    let mut ranges: Vec<Range> = (0..estimated)
        .map(|i| Range {
            start: i * width,
            end: if i + 1 == estimated {
                u64::MAX
            } else {
                (i + 1) * width - 1
            },
            members: Vec::new(),
        })
        .collect();
    for (position, p) in placed {
        let i = ((position / width.max(1)) as usize).min(ranges.len() - 1);
        ranges[i].members.push((position, p));
    }

    // Splits: halve any range over a limit that holds more than one collection.
    let mut splits = 0;
    let mut i = 0;
    while i < ranges.len() {
        if splits < MAX_SPLITS && ranges[i].over() && ranges[i].members.len() > 1 {
            let mut range = ranges.remove(i);
            let at = even_split(&range.members);
            let high = range.members.split_off(at);
            // The cut lies halfway between the last collection below it and the first above.
            let below = range.members[at - 1].0;
            let cut = below + (high[0].0 - below) / 2;
            ranges.insert(
                i,
                Range {
                    start: cut + 1,
                    end: range.end,
                    members: high,
                },
            );
            ranges.insert(
                i,
                Range {
                    start: range.start,
                    end: cut,
                    members: range.members,
                },
            );
            splits += 1;
            continue;
        }
        i += 1;
    }

    let mut hot_keys = Vec::new();
    let partitions: Vec<Partition> = ranges
        .into_iter()
        .map(|range| {
            let (bytes, reads, writes) = range.sums();
            let load = (reads / PARTITION_READ_UNITS).max(writes / PARTITION_WRITE_UNITS);
            let hot = range.over();
            if hot && range.members.len() == 1 {
                hot_keys.push(range.members[0].1.key.clone());
            }
            Partition {
                start: format!("{:016x}", range.start),
                end: format!("{:016x}", range.end),
                bytes,
                read_units: reads,
                write_units: writes,
                load,
                hot,
                collections: range.members.into_iter().map(|(_, p)| p).collect(),
            }
        })
        .collect();
    let mut notes = vec![
        "DynamoDB's hash function is not public: placement on this ring is a model, not where AWS puts a key"
            .to_owned(),
    ];
    if !model_table.local_indexes.is_empty() {
        notes.push(format!(
            "{table} has an LSI: an item collection is never split across partitions (rule B.11) and is limited to 10 GB (rule B.7)"
        ));
    }
    Ok(PartitionMap {
        table: table.to_owned(),
        estimated,
        by_size,
        by_throughput,
        splits,
        partitions,
        hot_keys,
        notes,
    })
}
