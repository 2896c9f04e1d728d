//! The cost commands: what a read or a write will consume before it runs, how that compares
//! with the `ConsumedCapacity` it then reports, what a request rate costs a month, and which
//! partition keys a rate would make throttle.
//!
//! # Design
//!
//! The cost rules live once, in `dynotable_engine::capacity` — the functions the engine charges
//! its own requests with — and this module only gathers their inputs and carries their answers
//! (with the explanation lines they write) to the UI as DTOs; nothing here rounds a unit.
//!
//! - The table's shape (keys, indexes, projections) comes from DescribeTable, for the embedded
//!   engine and AWS alike ([`table_shape`]).
//! - A Query's selection is sized from collection statistics: on the embedded engine the
//!   collection's live count and bytes ([`dynotable_engine::Engine::collection_summary`]); on
//!   other connections the statistics a scan gathered and cached ([`crate::statistics`]), or the
//!   table's averages when the collection is not among them. Statistics count whole
//!   collections, so a sort-key condition on the embedded engine is sized exactly instead, by
//!   reading the key range from the local engine (free: nothing is billed locally).
//! - A write is estimated on the items the editor holds (before and after).
//! - Reconciliation recomputes the estimate of the same request and hands it, with the reported
//!   `ConsumedCapacity`, to the estimator's `reconcile`, which explains every difference.
//!
//! # Files
//!
//! - `reads`: a Query's estimate (sized by statistics or the engine's key ranges) and its
//!   reconciliation with what the Query reported.
//! - `writes`: a write's estimate from the editor's items, an import's from its file, and their
//!   reconciliation.
//! - `money`: monthly cost of a request rate, and the hot-partition report.

mod money;
mod reads;
pub(crate) mod writes;

pub use money::{default_prices, monthly_cost};

use dynotable_engine::api::{Capacity, ConsumedCapacity as EngineCapacity};
use dynotable_engine::capacity::ReadKind;
use dynotable_engine::capacity::estimate::{Line, RequestCost, TableShape, reconcile};
use dynotable_engine::catalog::{IndexKind as EngineIndexKind, KeyAttribute, KeySchema, ProjectionSchema};
use dynotable_types::ScalarAttributeType;

use crate::dto::cost::{
    ExplanationLine, IndexCostFigure, ReadConsistency, ReconcileRow, Reconciliation, RequestCostFigure,
};
use crate::dto::{ConsumedCapacity, IndexKind, ProjectionType, ScalarType, TableDescription};
use crate::{CommandError, ErrorCode};

/// The estimator's view of a table described by DescribeTable.
pub fn table_shape(description: &TableDescription) -> TableShape {
    fn key(keys: &crate::dto::KeySchema) -> KeySchema {
        let attribute = |a: &crate::dto::KeyAttribute| KeyAttribute {
            name: a.name.clone(),
            ty: match a.ty {
                ScalarType::S => ScalarAttributeType::S,
                ScalarType::N => ScalarAttributeType::N,
                ScalarType::B => ScalarAttributeType::B,
            },
        };
        KeySchema {
            partition: attribute(&keys.partition_key),
            sort: keys.sort_key.as_ref().map(attribute),
            more_partition: keys.more_partition_keys.iter().map(attribute).collect(),
            more_sort: keys.more_sort_keys.iter().map(attribute).collect(),
        }
    }
    TableShape {
        name: description.name.clone(),
        key: key(&description.keys),
        indexes: description
            .indexes
            .iter()
            .map(|i| dynotable_engine::capacity::estimate::IndexShape {
                name: i.name.clone(),
                kind: engine_kind(i.kind),
                key: key(&i.keys),
                projection: match i.projection.ty {
                    ProjectionType::All => ProjectionSchema::All,
                    ProjectionType::KeysOnly => ProjectionSchema::KeysOnly,
                    ProjectionType::Include => ProjectionSchema::Include(i.projection.attributes.clone()),
                },
            })
            .collect(),
    }
}

fn engine_kind(kind: IndexKind) -> EngineIndexKind {
    match kind {
        IndexKind::Global => EngineIndexKind::Global,
        IndexKind::Local => EngineIndexKind::Local,
    }
}

fn app_kind(kind: EngineIndexKind) -> IndexKind {
    match kind {
        EngineIndexKind::Global => IndexKind::Global,
        EngineIndexKind::Local => IndexKind::Local,
    }
}

fn validation(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

fn engine_error(err: &dynotable_engine::ApiError) -> CommandError {
    CommandError::from_engine(err)
}

pub(crate) fn lines(lines: &[Line]) -> Vec<ExplanationLine> {
    lines.iter().map(line).collect()
}

fn line(line: &Line) -> ExplanationLine {
    ExplanationLine {
        rule: line.rule.clone(),
        text: line.text.clone(),
    }
}

fn figure(cost: &RequestCost) -> RequestCostFigure {
    RequestCostFigure {
        total: cost.capacity_units,
        table: cost.table_units,
        indexes: cost
            .indexes
            .iter()
            .map(|i| IndexCostFigure {
                name: i.name.clone(),
                kind: app_kind(i.kind),
                units: i.capacity_units,
            })
            .collect(),
        exact: cost.exact,
        lines: lines(&cost.lines),
    }
}

fn consistency(kind: ReadKind) -> ReadConsistency {
    match kind {
        ReadKind::Eventual => ReadConsistency::Eventual,
        ReadKind::Strong => ReadConsistency::Strong,
        ReadKind::Transactional => ReadConsistency::Transactional,
    }
}

/// The reported capacity (as the UI holds it) in the engine's shape, each index filed as a GSI
/// or an LSI by the table's shape.
fn engine_capacity(shape: &TableShape, actual: &ConsumedCapacity) -> EngineCapacity {
    let capacity = |units: f64| Capacity {
        capacity_units: units,
        read_capacity_units: None,
        write_capacity_units: None,
    };
    let mut global = std::collections::BTreeMap::new();
    let mut local = std::collections::BTreeMap::new();
    for index in &actual.indexes {
        let is_local = shape
            .index(&index.name)
            .is_some_and(|i| i.kind == EngineIndexKind::Local);
        let target = if is_local { &mut local } else { &mut global };
        target.insert(index.name.clone(), capacity(index.units));
    }
    EngineCapacity {
        table_name: shape.name.clone(),
        capacity_units: actual.total,
        read_capacity_units: None,
        write_capacity_units: None,
        table: actual.table.map(capacity),
        global_secondary_indexes: (!global.is_empty()).then_some(global),
        local_secondary_indexes: (!local.is_empty()).then_some(local),
    }
}

fn reconciliation(estimate: &RequestCost, shape: &TableShape, actual: &ConsumedCapacity) -> Reconciliation {
    let result = reconcile::reconcile(estimate, &engine_capacity(shape, actual));
    Reconciliation {
        rows: result
            .rows
            .into_iter()
            .map(|r| ReconcileRow {
                target: r.target,
                estimated: r.estimated,
                actual: r.actual,
                difference: r.difference,
            })
            .collect(),
        matches: result.matches,
        lines: lines(&result.lines),
    }
}
