//! Write estimates: one put, update or delete with its index fan-out, transactional, batched or
//! under a failing condition, and imports of many items (rule B.3; see the specification in
//! [`super`]).

use dynotable_types::{Item, item_size};
use serde::{Deserialize, Serialize};

use super::{Line, RequestCost, TableShape, bytes, counted, units};
use crate::ApiError;
use crate::capacity::{
    self, BATCH_WRITE_REQUESTS, Charge, IndexEntryImage, STORAGE_OVERHEAD_BYTES, WriteUnits,
};
use crate::catalog::IndexKind;

/// What the write does to the item at its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WriteKind {
    Put,
    Update,
    Delete,
}

/// How the write is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum WriteMode {
    /// PutItem, UpdateItem, DeleteItem.
    #[default]
    Single,
    /// One request of a BatchWriteItem (puts and deletes only).
    Batch,
    /// One action of TransactWriteItems.
    Transactional,
}

/// A write to estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteInput {
    pub table: TableShape,
    pub kind: WriteKind,
    /// The item at the key before the write (`None`: no item there).
    pub existing: Option<Item>,
    /// The item the write leaves: the put item, or the updated item; ignored for deletes.
    pub new_item: Option<Item>,
    #[serde(default)]
    pub mode: WriteMode,
    /// The write's condition is false: nothing is written, the table is still charged.
    #[serde(default)]
    pub condition_fails: bool,
}

/// What a write costs, with each index's part.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteEstimate {
    pub cost: RequestCost,
    pub table: TableWrite,
    pub indexes: Vec<IndexWrite>,
}

/// The base table's part of a write.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableWrite {
    pub before_bytes: Option<u64>,
    pub after_bytes: Option<u64>,
    pub capacity_units: f64,
}

/// One index's part of a write.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexWrite {
    pub name: String,
    pub kind: IndexKind,
    /// Index writes: 0 (untouched), 1 (entry added, removed or rewritten) or 2 (key moved).
    pub writes: u8,
    /// The item's entry before and after (projected size), `None` when it has none.
    pub entry_before_bytes: Option<u64>,
    pub entry_after_bytes: Option<u64>,
    /// The entry's storage after the write, with the 100-byte overhead (rule B.1).
    pub storage_after_bytes: Option<u64>,
    pub capacity_units: f64,
    /// GSI writes consume the GSI's capacity, LSI writes the table's.
    pub charged_to_table: bool,
    pub reason: Line,
}

/// Estimates one write (rule B.3).
pub fn estimate_write(input: &WriteInput) -> Result<WriteEstimate, ApiError> {
    let table = &input.table;
    let old_size = input.existing.as_ref().map(|i| item_size(i) as u64);
    let new_item = match input.kind {
        WriteKind::Delete => None,
        WriteKind::Put | WriteKind::Update => Some(input.new_item.as_ref().ok_or_else(|| {
            ApiError::validation("A put or an update needs the item it leaves to be estimated")
        })?),
    };
    if input.kind == WriteKind::Update && input.mode == WriteMode::Batch {
        return Err(ApiError::validation(
            "BatchWriteItem takes only puts and deletes; an update cannot be batched",
        ));
    }
    let new_size = new_item.map(|i| item_size(i) as u64);
    let transactional = input.mode == WriteMode::Transactional;

    if input.condition_fails {
        return Ok(failed_condition(input, old_size, new_size));
    }
    if old_size.is_none() && new_size.is_none() {
        let units = capacity::item_write(None, None, transactional);
        let lines = vec![Line::rule(
            "B.3",
            format!(
                "Deleting a key with no item changes nothing and still costs one write unit{} → {} WCU",
                if transactional {
                    ", ×2 as a transaction"
                } else {
                    ""
                },
                units.as_f64()
            ),
        )];
        let mut cost = RequestCost::new(&table.name, Some(Charge::Write(units)), Vec::new(), true, lines);
        if transactional {
            cost = cost.transactional();
        }
        return Ok(WriteEstimate {
            cost,
            table: TableWrite {
                before_bytes: None,
                after_bytes: None,
                capacity_units: units.as_f64(),
            },
            indexes: table
                .indexes
                .iter()
                .map(|index| IndexWrite {
                    name: index.name.clone(),
                    kind: index.kind,
                    writes: 0,
                    entry_before_bytes: None,
                    entry_after_bytes: None,
                    storage_after_bytes: None,
                    capacity_units: 0.0,
                    charged_to_table: index.kind == IndexKind::Local,
                    reason: Line::rule("B.3", "No item before or after: the index is not written"),
                })
                .collect(),
        });
    }

    let base = capacity::item_write(old_size, new_size, transactional);
    let larger = old_size.unwrap_or(0).max(new_size.unwrap_or(0));
    let mut lines = vec![Line::rule(
        "B.3",
        format!(
            "The table: the larger of the item before ({}) and after ({}) is {}, {} of 1 KB{}{} → {} WCU",
            old_size.map_or("none".into(), bytes),
            new_size.map_or("none".into(), bytes),
            bytes(larger),
            counted(capacity::write_blocks(larger), "block", "blocks"),
            if transactional {
                ", ×2 as a transaction (prepare + commit)"
            } else {
                ""
            },
            if input.mode == WriteMode::Batch {
                ", rounded on its own within the batch"
            } else {
                ""
            },
            units(base.as_f64())
        ),
    )];

    let mut index_writes = Vec::new();
    let mut charges = Vec::new();
    for index in &table.indexes {
        let image = |item: Option<&Item>| -> Result<Option<IndexEntryImage>, ApiError> {
            match item {
                Some(item) => Ok(capacity::index_entry_image(
                    &table.key,
                    &index.name,
                    &index.key,
                    &index.projection,
                    item,
                )?),
                None => Ok(None),
            }
        };
        let before = image(input.existing.as_ref())?;
        let after = image(new_item)?;
        let units = capacity::index_entry_write(before.as_ref(), after.as_ref());
        let (writes, why) = describe_index_write(before.as_ref(), after.as_ref());
        let reason = Line::rule(
            "B.3",
            format!(
                "{} {}: {why} → {} WCU",
                kind_label(index.kind),
                index.name,
                self::units(units.as_f64())
            ),
        );
        lines.push(reason.clone());
        if units.0 > 0 {
            charges.push((index.name.clone(), index.kind, Charge::Write(units)));
        }
        index_writes.push(IndexWrite {
            name: index.name.clone(),
            kind: index.kind,
            writes,
            entry_before_bytes: before.as_ref().map(|e| e.size),
            entry_after_bytes: after.as_ref().map(|e| e.size),
            storage_after_bytes: after.as_ref().map(|e| e.size + STORAGE_OVERHEAD_BYTES),
            capacity_units: units.as_f64(),
            charged_to_table: index.kind == IndexKind::Local,
            reason,
        });
    }
    if transactional && !charges.is_empty() {
        lines.push(Line::rule(
            "B.3",
            "The transactional ×2 applies to the base table, not to the index writes",
        ));
    }
    let mut cost = RequestCost::new(&table.name, Some(Charge::Write(base)), charges, true, lines);
    if transactional {
        cost = cost.transactional();
    }
    Ok(WriteEstimate {
        cost,
        table: TableWrite {
            before_bytes: old_size,
            after_bytes: new_size,
            capacity_units: base.as_f64(),
        },
        indexes: index_writes,
    })
}

/// A write whose condition is false: no item and no index is written (rule B.3).
fn failed_condition(input: &WriteInput, old_size: Option<u64>, new_size: Option<u64>) -> WriteEstimate {
    let mut units = capacity::failed_condition_write(old_size, new_size);
    let mut lines = vec![Line::rule(
        "B.3",
        match old_size {
            None => "The condition is false and no item is at the key: nothing is written, one write unit is still charged".to_owned(),
            Some(old) => format!(
                "The condition is false: nothing is written, and the table is still charged for the larger of the existing item ({}) and the attempted one ({}) → {} WCU",
                bytes(old),
                new_size.map_or("none".into(), bytes),
                self::units(units.as_f64())
            ),
        },
    )];
    lines.push(Line::rule("B.3", "No index is written, so no index is charged"));
    let mut exact = true;
    if input.mode == WriteMode::Transactional {
        // Transactions: capacity is consumed even when the transaction is cancelled
        // (transaction-apis.md); the service does not say how much, so assume the write's own
        // transactional charge.
        units = capacity::item_write(old_size, new_size, true);
        exact = false;
        lines.push(Line::note(format!(
            "A cancelled transaction still consumes capacity; assumed: the action's transactional units, {} WCU",
            self::units(units.as_f64())
        )));
    }
    let cost = RequestCost::new(
        &input.table.name,
        Some(Charge::Write(units)),
        Vec::new(),
        exact,
        lines,
    );
    WriteEstimate {
        cost,
        table: TableWrite {
            before_bytes: old_size,
            after_bytes: old_size,
            capacity_units: units.as_f64(),
        },
        indexes: input
            .table
            .indexes
            .iter()
            .map(|index| IndexWrite {
                name: index.name.clone(),
                kind: index.kind,
                writes: 0,
                entry_before_bytes: None,
                entry_after_bytes: None,
                storage_after_bytes: None,
                capacity_units: 0.0,
                charged_to_table: index.kind == IndexKind::Local,
                reason: Line::rule("B.3", "The condition failed: the index is not written"),
            })
            .collect(),
    }
}

/// How many index writes an entry change takes, and why (rule B.3, index write amplification).
fn describe_index_write(before: Option<&IndexEntryImage>, after: Option<&IndexEntryImage>) -> (u8, String) {
    match (before, after) {
        (None, None) => (
            0,
            "the item has no entry before or after (it lacks an index key attribute)".into(),
        ),
        (None, Some(a)) => (
            1,
            format!(
                "the item gains an entry of {}: one write of {}",
                bytes(a.size),
                counted(capacity::write_blocks(a.size), "block", "blocks")
            ),
        ),
        (Some(b), None) => (
            1,
            format!(
                "the item's entry of {} is removed: one write of {}",
                bytes(b.size),
                counted(capacity::write_blocks(b.size), "block", "blocks")
            ),
        ),
        (Some(b), Some(a)) if (&b.pk, &b.sk) != (&a.pk, &a.sk) => (
            2,
            format!(
                "the index key changes: delete the old entry ({}, {}) and put the new one ({}, {})",
                bytes(b.size),
                counted(capacity::write_blocks(b.size), "block", "blocks"),
                bytes(a.size),
                counted(capacity::write_blocks(a.size), "block", "blocks")
            ),
        ),
        (Some(b), Some(a)) if b != a => (
            1,
            format!(
                "the key stays and projected attributes change: one write of the larger entry ({})",
                bytes(b.size.max(a.size))
            ),
        ),
        (Some(_), Some(_)) => (0, "the entry is unchanged, so the index is not written".into()),
    }
}

fn kind_label(kind: IndexKind) -> &'static str {
    match kind {
        IndexKind::Global => "GSI",
        IndexKind::Local => "LSI",
    }
}

/// An import of many new items, as BatchWriteItem puts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportEstimate {
    pub items: u64,
    /// BatchWriteItem calls of at most 25 puts.
    pub requests: u64,
    pub capacity_units: f64,
    pub table_units: f64,
    /// Units per index, in the table's index order.
    pub index_units: Vec<(String, f64)>,
    pub exact: bool,
    pub lines: Vec<Line>,
}

/// Estimates importing `total_items` new items like `sample` (all of them when the sample is
/// the whole import; otherwise the sample's cost is scaled up).
pub fn estimate_import(
    table: &TableShape,
    sample: &[Item],
    total_items: u64,
) -> Result<ImportEstimate, ApiError> {
    let mut table_units = WriteUnits(0);
    let mut index_units = vec![WriteUnits(0); table.indexes.len()];
    for item in sample {
        let estimate = estimate_write(&WriteInput {
            table: table.clone(),
            kind: WriteKind::Put,
            existing: None,
            new_item: Some(item.clone()),
            mode: WriteMode::Batch,
            condition_fails: false,
        })?;
        table_units += WriteUnits(estimate.table.capacity_units as u64);
        for (sum, index) in index_units.iter_mut().zip(&estimate.indexes) {
            *sum += WriteUnits(index.capacity_units as u64);
        }
    }
    let n = sample.len() as u64;
    let exact = n == total_items;
    let scale = |u: WriteUnits| {
        if n == 0 {
            0.0
        } else if exact {
            u.as_f64()
        } else {
            (u.as_f64() * total_items as f64 / n as f64).ceil()
        }
    };
    let table_total = scale(table_units);
    let index_totals: Vec<(String, f64)> = table
        .indexes
        .iter()
        .zip(&index_units)
        .map(|(i, u)| (i.name.clone(), scale(*u)))
        .collect();
    let total = table_total + index_totals.iter().map(|(_, u)| u).sum::<f64>();
    let requests = total_items.div_ceil(BATCH_WRITE_REQUESTS);
    let mut lines = vec![Line::rule(
        "B.3",
        format!(
            "{} in {} of at most 25 puts, each item rounded up to 1 KB on its own → {} WCU on the table",
            counted(total_items, "new item", "new items"),
            counted(requests, "BatchWriteItem call", "BatchWriteItem calls"),
            units(table_total)
        ),
    )];
    for (name, u) in &index_totals {
        lines.push(Line::rule(
            "B.3",
            format!(
                "Index {name}: one write per item that has its key attributes, sized on the entry → {} WCU",
                units(*u)
            ),
        ));
    }
    if !exact {
        lines.push(Line::note(format!(
            "Scaled from a sample of {} to {}",
            counted(n, "item", "items"),
            counted(total_items, "item", "items")
        )));
    }
    Ok(ImportEstimate {
        items: total_items,
        requests,
        capacity_units: total,
        table_units: table_total,
        index_units: index_totals,
        exact,
        lines,
    })
}
