//! An estimate beside the `ConsumedCapacity` actually reported, table by table and index by
//! index, with each difference explained (see the specification in [`super`]).

use serde::Serialize;

use super::{Line, RequestCost, units};
use crate::api::ConsumedCapacity;
use crate::capacity::Charge;
use crate::catalog::IndexKind;

/// One row: the table, an index, or the total.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReconcileRow {
    /// `"Total"`, `"Table"` or the index's name.
    pub target: String,
    pub estimated: f64,
    /// `None` when the report does not itemise (ReturnConsumedCapacity = TOTAL).
    pub actual: Option<f64>,
    /// actual − estimated.
    pub difference: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reconciliation {
    pub rows: Vec<ReconcileRow>,
    /// Every reported figure equals its estimate.
    pub matches: bool,
    pub lines: Vec<Line>,
}

/// Compares the estimate of one request with the `ConsumedCapacity` reported for it.
pub fn reconcile(estimate: &RequestCost, actual: &ConsumedCapacity) -> Reconciliation {
    let mut rows = vec![row("Total", estimate.capacity_units, Some(actual.capacity_units))];
    if let Some(table) = &actual.table {
        rows.push(row(
            "Table",
            estimate.table_units.unwrap_or(0.0),
            Some(table.capacity_units),
        ));
    }
    let reported = |name: &str| {
        let gsi = actual.global_secondary_indexes.as_ref().and_then(|m| m.get(name));
        let lsi = actual.local_secondary_indexes.as_ref().and_then(|m| m.get(name));
        gsi.or(lsi).map(|c| c.capacity_units)
    };
    let itemised = actual.table.is_some();
    let mut names: Vec<&str> = estimate.indexes.iter().map(|i| i.name.as_str()).collect();
    for map in [&actual.global_secondary_indexes, &actual.local_secondary_indexes]
        .into_iter()
        .flatten()
    {
        for name in map.keys() {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    for name in names {
        let estimated = estimate
            .indexes
            .iter()
            .find(|i| i.name == name)
            .map_or(0.0, |i| i.capacity_units);
        let actual = if itemised {
            Some(reported(name).unwrap_or(0.0))
        } else {
            None
        };
        rows.push(row(name, estimated, actual));
    }
    let matches = rows.iter().all(|r| r.difference.is_none_or(|d| d == 0.0));
    let lines = if matches {
        vec![Line::note("The reported capacity equals the estimate")]
    } else {
        explain(estimate, actual, &rows)
    };
    Reconciliation { rows, matches, lines }
}

fn row(target: &str, estimated: f64, actual: Option<f64>) -> ReconcileRow {
    ReconcileRow {
        target: target.to_owned(),
        estimated,
        actual,
        difference: actual.map(|a| a - estimated),
    }
}

/// Why the figures differ, from what the estimate assumed.
fn explain(estimate: &RequestCost, actual: &ConsumedCapacity, rows: &[ReconcileRow]) -> Vec<Line> {
    let mut lines = Vec::new();
    let is_read = matches!(estimate.table, Some(Charge::Read(_)))
        || estimate
            .indexes
            .iter()
            .any(|i| matches!(i.charge, Some(Charge::Read(_))));
    let diff = |target: &str| {
        rows.iter()
            .find(|r| r.target == target)
            .and_then(|r| r.difference)
            .unwrap_or(0.0)
    };
    let lsi_read = is_read && estimate.indexes.iter().any(|i| i.kind == IndexKind::Local);
    let table_diff = diff("Table");
    if lsi_read && table_diff > 0.0 && estimate.table_units.unwrap_or(0.0) == 0.0 {
        lines.push(Line::rule(
            "B.2",
            format!(
                "Base-table fetches: the LSI query asked for attributes the index does not project, so each returned item was read again from the table, rounded to 4 KB on its own (+{} RCU on the table)",
                units(table_diff)
            ),
        ));
    }
    let total_diff = diff("Total");
    let explained_by_fetches = !lines.is_empty();
    if is_read && total_diff > 0.0 && !explained_by_fetches {
        if estimate.capacity_units <= 1.0 {
            lines.push(Line::rule(
                "B.2",
                "Per-partition minimum: a Query or Scan costs at least one block for every partition it touches, even partitions with no matching item; the read touched more partitions than the estimate assumed",
            ));
        } else {
            lines.push(Line::rule(
                "B.2",
                "The read found more than the estimate counted: items were added since the statistics were taken, or the read touched more partitions than assumed (each costs at least one block)",
            ));
        }
    }
    if is_read && total_diff < 0.0 {
        lines.push(Line::rule(
            "B.4",
            "The read found less than the estimate counted: items were removed since the statistics were taken, or the page stopped earlier (Limit, 1 MB)",
        ));
    }
    if !estimate.exact {
        lines.push(Line::rule(
            "B.1",
            "Rounding: the estimate assumed every item has the average size; items of different sizes round up to 4 KB (reads) or 1 KB (writes) differently",
        ));
    }
    if !is_read {
        for r in rows.iter().filter(|r| r.target != "Total" && r.target != "Table") {
            match r.difference {
                Some(d) if d > 0.0 => lines.push(Line::rule(
                    "B.3",
                    format!(
                        "Index {}: the item's entry was written more than estimated — the stored item differed from the one the estimate started from (an entry added, moved or grown)",
                        r.target
                    ),
                )),
                Some(d) if d < 0.0 => lines.push(Line::rule(
                    "B.3",
                    format!(
                        "Index {}: written less than estimated — the stored item's entry was absent or unchanged",
                        r.target
                    ),
                )),
                _ => {}
            }
        }
        if table_diff != 0.0 {
            lines.push(Line::rule(
                "B.3",
                "The table: the item found at the key was not the size the estimate assumed (writes are charged on the larger of before and after)",
            ));
        }
    }
    if actual.table.is_none() {
        lines.push(Line::note(
            "The report is a total only; ask for ReturnConsumedCapacity = INDEXES to compare table and indexes one by one",
        ));
    }
    if lines.is_empty() {
        lines.push(Line::note(
            "The items read or written were not the ones the estimate was computed from",
        ));
    }
    lines
}
