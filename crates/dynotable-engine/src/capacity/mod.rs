//! DynamoDB's capacity rules, once, in integer units: the engine's ConsumedCapacity and the
//! app's cost estimator both call these functions (rules B.1–B.3, docs/dynamodb-rules.md).
//!
//! Reads are counted in *half read units* (an eventually consistent read of one 4 KB block), so
//! every read cost is an integer; writes in whole write units (1 KB blocks). They become the
//! service's doubles only at the edge ([`ReadUnits::as_f64`]).
//!
//! The module tree:
//! - this file: the rules themselves — rounding per item and per range, the write of an item
//!   and of each index entry, the charge of a failed condition, the index entry an item makes,
//!   and the shape of a `ConsumedCapacity` report;
//! - [`estimate`]: the estimator the desktop app calls before a request runs, and the
//!   reconciliation of an estimate with the `ConsumedCapacity` reported afterwards;
//! - [`pricing`]: capacity units turned into money for a request rate;
//! - [`hot_partitions`]: a request rate spread over partition-key values against the
//!   per-partition ceilings (rule B.11).
//!
//! The engine's operations call the rules here directly (`ops/*`), and the estimator calls the
//! same functions, so an estimate and the engine's report cannot drift apart; the property test
//! `tests/engine/capacity_estimate/` holds them to each other.

pub mod estimate;
pub mod hot_partitions;
pub mod pricing;

use std::collections::BTreeMap;

use dynotable_types::{Item, KeyRole, ValidationError, item_size};
use serde::{Deserialize, Serialize};

use crate::api::{Capacity, ConsumedCapacity};
use crate::catalog::{IndexKind, KeySchema, ProjectionSchema};

/// Rule B.2: one read unit covers up to 4 KB (1 KB = 1,024 bytes).
pub const READ_BLOCK_BYTES: u64 = 4 * 1024;
/// Rule B.3: one write unit covers up to 1 KB.
pub const WRITE_BLOCK_BYTES: u64 = 1024;
/// Rule B.4: one Query or Scan page reads at most 1 MB (counted before any filter); the page
/// stops after the item that reaches it. The engine's page reader uses this same constant.
pub const PAGE_BYTES: u64 = 1024 * 1024;
/// Rules B.2/B.3: BatchGetItem takes at most 100 keys, BatchWriteItem 25 requests, the
/// transactions 100 actions (rule B.7).
pub const BATCH_GET_KEYS: u64 = 100;
pub const BATCH_WRITE_REQUESTS: u64 = 25;
pub const TRANSACTION_ACTIONS: u64 = 100;
/// Rule B.1: storage counts 100 bytes of overhead per item and per index entry. Storage only:
/// read and write units are sized without it (GSI.md "Read capacity units" sums the projected
/// attributes; the live-service captures the rules file cites size index writes on the
/// projected entry alone).
pub const STORAGE_OVERHEAD_BYTES: u64 = 100;

/// How a read is served, which sets its price per 4 KB block (rule B.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadKind {
    /// Half a unit per block.
    Eventual,
    /// One unit per block.
    Strong,
    /// Two units per block (prepare + commit).
    Transactional,
}

impl ReadKind {
    pub fn of_consistent_read(consistent: bool) -> ReadKind {
        if consistent {
            ReadKind::Strong
        } else {
            ReadKind::Eventual
        }
    }

    /// Half units per 4 KB block.
    pub fn halves_per_block(self) -> u64 {
        match self {
            ReadKind::Eventual => 1,
            ReadKind::Strong => 2,
            ReadKind::Transactional => 4,
        }
    }
}

/// Read capacity in half units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct ReadUnits(pub u64);

impl ReadUnits {
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl std::ops::Add for ReadUnits {
    type Output = ReadUnits;
    fn add(self, other: ReadUnits) -> ReadUnits {
        ReadUnits(self.0 + other.0)
    }
}

impl std::ops::AddAssign for ReadUnits {
    fn add_assign(&mut self, other: ReadUnits) {
        self.0 += other.0;
    }
}

/// Write capacity in whole units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct WriteUnits(pub u64);

impl WriteUnits {
    pub fn as_f64(self) -> f64 {
        self.0 as f64
    }
}

impl std::ops::Add for WriteUnits {
    type Output = WriteUnits;
    fn add(self, other: WriteUnits) -> WriteUnits {
        WriteUnits(self.0 + other.0)
    }
}

impl std::ops::AddAssign for WriteUnits {
    fn add_assign(&mut self, other: WriteUnits) {
        self.0 += other.0;
    }
}

/// Number of 4 KB blocks `bytes` occupies, at least one: a missing item or an empty result
/// still costs one block (rule B.2, GetItem and the Query/Scan minimum).
pub fn read_blocks(bytes: u64) -> u64 {
    bytes.div_ceil(READ_BLOCK_BYTES).max(1)
}

/// Number of 1 KB blocks `bytes` occupies, at least one (rule B.3).
pub fn write_blocks(bytes: u64) -> u64 {
    bytes.div_ceil(WRITE_BLOCK_BYTES).max(1)
}

/// GetItem, and each item of BatchGetItem and TransactGetItems: the item's size rounded up to
/// 4 KB on its own (rule B.2: "round per item"). `None` is a missing item: one block.
pub fn item_read(size: Option<u64>, kind: ReadKind) -> ReadUnits {
    ReadUnits(read_blocks(size.unwrap_or(0)) * kind.halves_per_block())
}

/// Query and Scan: the sizes of all items *read* (before any filter) summed, then rounded up to
/// 4 KB once (rule B.2: "sum-then-round"), at least one block.
pub fn range_read(total_bytes: u64, kind: ReadKind) -> ReadUnits {
    ReadUnits(read_blocks(total_bytes) * kind.halves_per_block())
}

/// A write of an item (PutItem, UpdateItem, DeleteItem, a BatchWriteItem request): the larger
/// of the old and new item's sizes, rounded up to 1 KB (rule B.3); ×2 when transactional.
/// A write that finds no item and writes none (deleting a missing item) costs one unit.
pub fn item_write(old: Option<u64>, new: Option<u64>, transactional: bool) -> WriteUnits {
    let bytes = old.unwrap_or(0).max(new.unwrap_or(0));
    WriteUnits(write_blocks(bytes) * if transactional { 2 } else { 1 })
}

/// What one write does to one secondary index, from the item's entry in it before and after.
/// Each entry is `(index key, entry size)`; `None` means the item is not in the index.
///
/// Rule B.3 (index write amplification), with the live-service refinements the rules file
/// records: no entry before or after → 0; an entry appears or disappears → one write of its
/// size; the index key changes → a delete of the old entry plus a put of the new one; the key
/// stays and the projected entry changes → one write of the larger; the entry is unchanged → 0.
pub fn index_write<K: PartialEq>(
    old: Option<(&K, u64)>,
    new: Option<(&K, u64)>,
    entry_changed: bool,
) -> WriteUnits {
    match (old, new) {
        (None, None) => WriteUnits(0),
        (Some((_, size)), None) | (None, Some((_, size))) => WriteUnits(write_blocks(size)),
        (Some((old_key, old_size)), Some((new_key, new_size))) => {
            if old_key != new_key {
                WriteUnits(write_blocks(old_size) + write_blocks(new_size))
            } else if entry_changed {
                WriteUnits(write_blocks(old_size.max(new_size)))
            } else {
                WriteUnits(0)
            }
        }
    }
}

/// The charge of a write whose condition was false (rule B.3, "Failed condition"; DG
/// `WorkingWithItems` §"Capacity units consumed by conditional writes"): nothing is written, no
/// index is touched, and the table is still charged — one unit when no item is at the key,
/// otherwise the larger of the existing item and the item the write tried to leave (the
/// current read/write page's 300 KB / 310 KB example), rounded up to 1 KB.
pub fn failed_condition_write(existing: Option<u64>, attempted: Option<u64>) -> WriteUnits {
    match existing {
        None => WriteUnits(1),
        Some(size) => WriteUnits(write_blocks(size.max(attempted.unwrap_or(0)))),
    }
}

/// An item's entry in one secondary index: where it sits (encoded index key) and what it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexEntryImage {
    /// The encoded index partition key (its attributes' encodings in key-schema order, rule B.18).
    pub pk: Vec<u8>,
    /// The encoded index sort key (empty without one; its attributes' encodings in order).
    pub sk: Vec<u8>,
    /// The projected attributes: the table's keys, the index's keys and what the projection adds.
    pub item: Item,
    /// The entry's size by rule B.1 — what index reads and writes are charged on.
    pub size: u64,
}

/// The entry `item` makes in an index with key `index_key` and `projection` on a table keyed by
/// `table_key`, or `None` when the item lacks an index key attribute (a sparse index). An index
/// key attribute of the wrong type or empty is the service's ValidationException.
///
/// Rule B.1 "Index entry size": base-table key + index key + projected attributes; the 100-byte
/// storage overhead is not part of it ([`STORAGE_OVERHEAD_BYTES`]).
pub fn index_entry_image(
    table_key: &KeySchema,
    index_name: &str,
    index_key: &KeySchema,
    projection: &ProjectionSchema,
    item: &Item,
) -> Result<Option<IndexEntryImage>, ValidationError> {
    let Some((pk, sk)) = index_entry_key(index_name, index_key, item)? else {
        return Ok(None);
    };
    let projected: Item = item
        .iter()
        .filter(|(name, _)| projection.projects(name, index_key, table_key))
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let size = item_size(&projected) as u64;
    Ok(Some(IndexEntryImage {
        pk,
        sk,
        item: projected,
        size,
    }))
}

/// An index entry's encoded partition key and sort key (empty without one).
pub type EncodedIndexKey = (Vec<u8>, Vec<u8>);

/// The encoded partition and sort key of the entry `item` makes in an index keyed by
/// `index_key`, or `None` when the item lacks an index key attribute (a sparse index); the key
/// half of [`index_entry_image`], with the same checks.
pub fn index_entry_key(
    index_name: &str,
    index_key: &KeySchema,
    item: &Item,
) -> Result<Option<EncodedIndexKey>, ValidationError> {
    fn checker(attribute: &crate::catalog::KeyAttribute, role: KeyRole) -> dynotable_types::KeyAttribute<'_> {
        dynotable_types::KeyAttribute::new(&attribute.name, attribute.ty, role)
    }
    // Rule B.18.4: every key attribute of the index is checked, in key-schema order, whether or
    // not the item has the others (a present attribute of the wrong type or empty fails the
    // write); the item is in the index only when it has them all.
    let mut pk = Vec::new();
    let mut sk = Vec::new();
    let mut complete = true;
    let attributes = index_key
        .partition_attributes()
        .map(|a| (a, KeyRole::Partition))
        .chain(index_key.sort_attributes().map(|a| (a, KeyRole::Sort)));
    for (attribute, role) in attributes {
        let out = if role == KeyRole::Partition {
            &mut pk
        } else {
            &mut sk
        };
        match checker(attribute, role).check_index_key_in_item(index_name, item)? {
            Some(value) => value.encode_into(out),
            None => complete = false,
        }
    }
    Ok(complete.then_some((pk, sk)))
}

/// What one write does to one index, from the item's entry before and after (see
/// [`index_write`]): the units and how many index writes they are.
pub fn index_entry_write(before: Option<&IndexEntryImage>, after: Option<&IndexEntryImage>) -> WriteUnits {
    let key = |e: &IndexEntryImage| (e.pk.clone(), e.sk.clone());
    let (before_key, after_key) = (before.map(key), after.map(key));
    index_write(
        before.zip(before_key.as_ref()).map(|(e, k)| (k, e.size)),
        after.zip(after_key.as_ref()).map(|(e, k)| (k, e.size)),
        before != after,
    )
}

/// `ReturnConsumedCapacity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CapacityReport {
    #[default]
    None,
    Total,
    Indexes,
}

/// Units charged to one table or index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Charge {
    Read(ReadUnits),
    Write(WriteUnits),
}

impl Charge {
    pub fn units(self) -> f64 {
        match self {
            Charge::Read(units) => units.as_f64(),
            Charge::Write(units) => units.as_f64(),
        }
    }

    fn capacity(self) -> Capacity {
        Capacity {
            capacity_units: self.units(),
            read_capacity_units: None,
            write_capacity_units: None,
        }
    }
}

/// The ConsumedCapacity a response carries: `base` for the base table (if it was touched) and
/// `indexes` as `(index name, kind, units)`. `TOTAL` adds everything up; `INDEXES` also
/// itemises, with `Table` always present (rule B.2, "What ConsumedCapacity reports").
pub fn consumed_capacity(
    report: CapacityReport,
    table_name: &str,
    base: Option<Charge>,
    indexes: &[(&str, IndexKind, Charge)],
) -> Option<ConsumedCapacity> {
    if report == CapacityReport::None {
        return None;
    }
    let total = base.map_or(0.0, Charge::units) + indexes.iter().map(|(_, _, c)| c.units()).sum::<f64>();
    let mut consumed = ConsumedCapacity {
        table_name: table_name.to_owned(),
        capacity_units: total,
        ..Default::default()
    };
    if report == CapacityReport::Indexes {
        consumed.table = Some(base.map(Charge::capacity).unwrap_or_default());
        let mut global = BTreeMap::new();
        let mut local = BTreeMap::new();
        for (name, kind, charge) in indexes {
            let target = if *kind == IndexKind::Global {
                &mut global
            } else {
                &mut local
            };
            target.insert((*name).to_owned(), charge.capacity());
        }
        consumed.global_secondary_indexes = (!global.is_empty()).then_some(global);
        consumed.local_secondary_indexes = (!local.is_empty()).then_some(local);
    }
    Some(consumed)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KB: u64 = 1024;

    #[test]
    fn ten_two_kilobyte_readings_in_one_collection_cost_what_the_seed_article_says() {
        // 10 items × 2 KB = 20 KB → five 4 KB blocks: 2.5 RCU eventually consistent, 5 strong.
        assert_eq!(range_read(10 * 2 * KB, ReadKind::Eventual).as_f64(), 2.5);
        assert_eq!(range_read(10 * 2 * KB, ReadKind::Strong).as_f64(), 5.0);
        // The same items as ten GetItems: each rounds up to 4 KB on its own.
        let ten_gets = |kind| {
            (0..10)
                .map(|_| item_read(Some(2 * KB), kind))
                .fold(ReadUnits(0), |a, b| a + b)
        };
        assert_eq!(ten_gets(ReadKind::Eventual).as_f64(), 5.0);
        assert_eq!(ten_gets(ReadKind::Strong).as_f64(), 10.0);
    }

    #[test]
    fn batch_get_rounds_each_item() {
        // Rule B.2 example: 1.5 KB + 6.5 KB → 4 KB + 8 KB = 12 KB → 3 strong units.
        let total = item_read(Some(1536), ReadKind::Strong) + item_read(Some(6656), ReadKind::Strong);
        assert_eq!(total.as_f64(), 3.0);
    }

    #[test]
    fn query_sums_then_rounds() {
        // Rule B.2 examples: 40.8 KB → 44 KB (11 blocks); 1,500 × 64 B = 96,000 B → 24 blocks.
        assert_eq!(range_read(41_779, ReadKind::Strong).as_f64(), 11.0);
        assert_eq!(range_read(1_500 * 64, ReadKind::Eventual).as_f64(), 12.0);
        // An empty result still costs the minimum.
        assert_eq!(range_read(0, ReadKind::Eventual).as_f64(), 0.5);
        assert_eq!(range_read(0, ReadKind::Strong).as_f64(), 1.0);
    }

    #[test]
    fn reads_of_missing_items_cost_one_block() {
        assert_eq!(item_read(None, ReadKind::Eventual).as_f64(), 0.5);
        assert_eq!(item_read(None, ReadKind::Strong).as_f64(), 1.0);
        assert_eq!(item_read(Some(5000), ReadKind::Transactional).as_f64(), 4.0);
    }

    #[test]
    fn writes_charge_the_larger_of_old_and_new() {
        assert_eq!(item_write(None, Some(500), false).as_f64(), 1.0);
        assert_eq!(item_write(Some(3500), Some(500), false).as_f64(), 4.0);
        assert_eq!(item_write(Some(1024), Some(1025), false).as_f64(), 2.0);
        assert_eq!(item_write(None, None, false).as_f64(), 1.0);
        assert_eq!(item_write(None, Some(2048), true).as_f64(), 4.0);
    }

    #[test]
    fn a_failed_condition_charges_the_larger_item_or_one_unit() {
        // No item at the key: one unit, whatever the write carried.
        assert_eq!(failed_condition_write(None, Some(5000)), WriteUnits(1));
        // DG's example: an existing 300 KB item and a 310 KB attempted one → 310 units.
        assert_eq!(
            failed_condition_write(Some(300 * KB), Some(310 * KB)),
            WriteUnits(310)
        );
        assert_eq!(failed_condition_write(Some(2 * KB), None), WriteUnits(2));
    }

    #[test]
    fn index_writes_follow_the_entry() {
        let (a, b) = ("a", "b");
        assert_eq!(index_write::<&str>(None, None, false), WriteUnits(0));
        assert_eq!(index_write(None, Some((&a, 100)), true), WriteUnits(1));
        assert_eq!(index_write(Some((&a, 1500)), None, true), WriteUnits(2));
        // Key moved: delete the old entry and put the new one.
        assert_eq!(index_write(Some((&a, 100)), Some((&b, 100)), true), WriteUnits(2));
        // Same key, projected attribute changed: one write of the larger entry.
        assert_eq!(
            index_write(Some((&a, 100)), Some((&a, 2000)), true),
            WriteUnits(2)
        );
        // Same key, entry unchanged: the index is not written.
        assert_eq!(
            index_write(Some((&a, 100)), Some((&a, 100)), false),
            WriteUnits(0)
        );
    }
}
