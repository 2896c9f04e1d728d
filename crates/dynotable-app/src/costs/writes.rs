//! What a write will cost (rule B.3): from the item editor's before and after, from an import
//! file's items, and against what the write reported.

use dynotable_engine::capacity::estimate::TableShape;
use dynotable_engine::capacity::estimate::write::{self, WriteInput, WriteKind, WriteMode};

use super::{app_kind, engine_error, figure, line, lines, reconciliation, table_shape, validation};
use crate::dto::attribute::item_to_engine;
use crate::dto::cost::{
    ImportEstimate, IndexWriteEstimate, Reconciliation, WriteEstimate, WriteEstimateInput, WriteKindInput,
    WriteModeInput,
};
use crate::dto::{CapacityFigure, ConsumedCapacity, Item};
use crate::{App, CommandError};

impl App {
    /// What a write will cost, as the item editor has it (rule B.3).
    pub async fn estimate_write(
        &self,
        profile_id: &str,
        table: &str,
        input: WriteEstimateInput,
    ) -> Result<WriteEstimate, CommandError> {
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        write_estimate_on(&shape, &input)
    }

    /// The estimate of a write beside the ConsumedCapacity the put or delete reported.
    pub async fn reconcile_write(
        &self,
        profile_id: &str,
        table: &str,
        input: WriteEstimateInput,
        actual: ConsumedCapacity,
    ) -> Result<Reconciliation, CommandError> {
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let estimate = write_estimate(&shape, &input)?;
        Ok(reconciliation(&estimate.cost, &shape, &actual))
    }

    /// What importing `total_items` items like `sample` costs, as BatchWriteItem puts.
    pub async fn estimate_import(
        &self,
        profile_id: &str,
        table: &str,
        sample: Vec<Item>,
        total_items: f64,
    ) -> Result<ImportEstimate, CommandError> {
        if !total_items.is_finite() || total_items < sample.len() as f64 {
            return Err(validation(
                "The number of items to import must be at least the sample's size",
            ));
        }
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let sample = sample
            .iter()
            .map(item_to_engine)
            .collect::<Result<Vec<_>, String>>()
            .map_err(validation)?;
        let estimate =
            write::estimate_import(&shape, &sample, total_items as u64).map_err(|e| engine_error(&e))?;
        Ok(ImportEstimate {
            items: estimate.items as f64,
            requests: estimate.requests as f64,
            capacity_units: estimate.capacity_units,
            table_units: estimate.table_units,
            indexes: estimate
                .index_units
                .iter()
                .map(|(name, units)| CapacityFigure {
                    name: name.clone(),
                    units: *units,
                })
                .collect(),
            exact: estimate.exact,
            lines: lines(&estimate.lines),
        })
    }
}

fn write_estimate(
    shape: &TableShape,
    input: &WriteEstimateInput,
) -> Result<write::WriteEstimate, CommandError> {
    let item = |i: &Option<Item>| {
        i.as_ref()
            .map(|i| item_to_engine(i).map_err(validation))
            .transpose()
    };
    write::estimate_write(&WriteInput {
        table: shape.clone(),
        kind: match input.kind {
            WriteKindInput::Put => WriteKind::Put,
            WriteKindInput::Update => WriteKind::Update,
            WriteKindInput::Delete => WriteKind::Delete,
        },
        existing: item(&input.existing)?,
        new_item: item(&input.new_item)?,
        mode: match input.mode {
            WriteModeInput::Single => WriteMode::Single,
            WriteModeInput::Batch => WriteMode::Batch,
            WriteModeInput::Transactional => WriteMode::Transactional,
        },
        condition_fails: input.condition_fails,
    })
    .map_err(|e| engine_error(&e))
}

/// The estimate of one write on a table already described (a bulk edit describes it once).
pub(crate) fn write_estimate_on(
    shape: &TableShape,
    input: &WriteEstimateInput,
) -> Result<WriteEstimate, CommandError> {
    let estimate = write_estimate(shape, input)?;
    Ok(WriteEstimate {
        cost: figure(&estimate.cost),
        before_bytes: estimate.table.before_bytes.map(|b| b as f64),
        after_bytes: estimate.table.after_bytes.map(|b| b as f64),
        table_units: estimate.table.capacity_units,
        indexes: estimate
            .indexes
            .iter()
            .map(|i| IndexWriteEstimate {
                name: i.name.clone(),
                kind: app_kind(i.kind),
                writes: i.writes,
                entry_before_bytes: i.entry_before_bytes.map(|b| b as f64),
                entry_after_bytes: i.entry_after_bytes.map(|b| b as f64),
                capacity_units: i.capacity_units,
                charged_to_table: i.charged_to_table,
                reason: line(&i.reason),
            })
            .collect(),
    })
}
