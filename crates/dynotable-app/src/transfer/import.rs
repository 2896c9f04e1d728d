//! Import: the items of a file the user chose written into a table with BatchWriteItem, after a
//! first reading of the whole file has checked every item (a file with a bad item imports
//! nothing); and, before it starts, what the import will cost and, for CSV, the file's first
//! rows with the type each column will be read as (`csv_types`). The file is read a record at a
//! time each pass: its size does not matter.

use std::path::Path;
use std::sync::atomic::Ordering;

use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
use dynotable_engine::capacity::estimate::{counted, write};

use super::csv_types::{self, CsvColumnChoice, ImportPreview, KeyTypes};
use super::{
    BATCH_SIZE, FileFormat, Pace, TransferProgress, TransferStage, TransferSummary, display_name, formats,
    internal, sleep, write_batch,
};
use crate::costs::table_shape;
use crate::dto::CapacityFigure;
use crate::dto::Item;
use crate::dto::attribute::{item_to_engine, item_to_sdk};
use crate::dto::cost::{ExplanationLine, ImportEstimate};
use crate::files::FilePurpose;
use crate::{App, CommandError, ErrorCode};

/// Items the import estimate sizes at a time.
const ESTIMATE_CHUNK: usize = 1000;

impl App {
    /// The CSV file chosen as `file` as an import into `table` would read it: its columns, each
    /// with the type it will be read as and where that type comes from, and its first rows. At
    /// most [`csv_types::INFER_ROWS`] rows are read, whatever the file's size.
    pub async fn preview_import_file(
        &self,
        profile_id: &str,
        table: &str,
        file: &str,
    ) -> Result<ImportPreview, CommandError> {
        let path = self.inner.files.path(file, FilePurpose::Open)?;
        let keys = KeyTypes::of(&self.describe_table(profile_id, table).await?);
        read_preview(&path, &keys)
    }

    /// The types an import of `path` into `table` reads its columns with: for CSV, `columns`
    /// (the user's choices) or else what the file's preview chooses; for the other formats,
    /// whose values carry their types, none.
    async fn column_types(
        &self,
        profile_id: &str,
        table: &str,
        format: FileFormat,
        path: &Path,
        columns: Option<Vec<CsvColumnChoice>>,
    ) -> Result<Vec<CsvColumnChoice>, CommandError> {
        match (format, columns) {
            (FileFormat::Csv, Some(columns)) => Ok(columns),
            (FileFormat::Csv, None) => {
                let keys = KeyTypes::of(&self.describe_table(profile_id, table).await?);
                Ok(read_preview(path, &keys)?.choices())
            }
            (_, None) => Ok(Vec::new()),
            (_, Some(_)) => Err(validation(
                "Column types are for CSV files only: a JSON file's values carry their types.",
            )),
        }
    }

    /// What importing the file chosen as `file` into `table` will cost, before it runs: every
    /// item of the file sized by DynamoDB's rules, with its index fan-out (the estimator of
    /// issue 7), a thousand items in memory at a time. A CSV file's columns are read with the
    /// types `columns` chooses (see [`App::import`]).
    pub async fn estimate_import_file(
        &self,
        profile_id: &str,
        table: &str,
        format: FileFormat,
        file: &str,
        columns: Option<Vec<CsvColumnChoice>>,
    ) -> Result<ImportEstimate, CommandError> {
        let path = self.inner.files.path(file, FilePurpose::Open)?;
        let shape = table_shape(&self.describe_table(profile_id, table).await?);
        let columns = self
            .column_types(profile_id, table, format, &path, columns)
            .await?;
        let mut items = open_items(&path, format, &columns)?;
        let mut count = 0u64;
        let mut table_units = 0.0;
        let mut index_units = vec![0.0; shape.indexes.len()];
        loop {
            let chunk = items
                .by_ref()
                .take(ESTIMATE_CHUNK)
                .map(|item| item.and_then(|item| item_to_engine(&item).map_err(validation)))
                .collect::<Result<Vec<_>, CommandError>>()?;
            if chunk.is_empty() {
                break;
            }
            count += chunk.len() as u64;
            // Exact for the chunk (every item sized), so the chunks add up.
            let estimate = write::estimate_import(&shape, &chunk, chunk.len() as u64)
                .map_err(|err| validation(err.message))?;
            table_units += estimate.table_units;
            for (sum, (_, units)) in index_units.iter_mut().zip(&estimate.index_units) {
                *sum += units;
            }
        }
        let requests = count.div_ceil(BATCH_SIZE as u64);
        let mut lines = vec![ExplanationLine {
            rule: Some("B.3".into()),
            text: format!(
                "{} in {} of at most 25 puts, each item rounded up to 1 KB on its own → {table_units} WCU on the table",
                counted(count, "new item", "new items"),
                counted(requests, "BatchWriteItem call", "BatchWriteItem calls")
            ),
        }];
        let indexes: Vec<CapacityFigure> = shape
            .indexes
            .iter()
            .zip(&index_units)
            .map(|(index, units)| {
                lines.push(ExplanationLine {
                    rule: Some("B.3".into()),
                    text: format!(
                        "Index {}: one write per item that has its key attributes, sized on the entry → {units} WCU",
                        index.name
                    ),
                });
                CapacityFigure {
                    name: index.name.clone(),
                    units: *units,
                }
            })
            .collect();
        Ok(ImportEstimate {
            items: count as f64,
            requests: requests as f64,
            capacity_units: table_units + index_units.iter().sum::<f64>(),
            table_units,
            indexes,
            exact: true,
            lines,
        })
    }

    /// Writes the items of the file chosen as `file` into `table` with BatchWriteItem. Every
    /// item is checked before the first is written: a file with a bad item imports nothing.
    /// Cancelling stops it between two batches, in either pass.
    ///
    /// A CSV file's columns are read with the types `columns` chooses, one per column of its
    /// header (the preview's, as the user left them), or, without them, with the preview's: a
    /// cell that does not fit its column's type stops the import with its row and column.
    #[allow(clippy::too_many_arguments)]
    pub async fn import(
        &self,
        profile_id: &str,
        id: &str,
        table: &str,
        format: FileFormat,
        file: &str,
        columns: Option<Vec<CsvColumnChoice>>,
        on_progress: impl FnMut(TransferProgress) + Send,
    ) -> Result<TransferSummary, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let path = self.inner.files.path(file, FilePurpose::Open)?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        let columns = self
            .column_types(profile_id, table, format, &path, columns)
            .await?;
        let flag = self.inner.running.register(id)?;
        let client = session.client.clone();
        let mut pace = Pace::new(on_progress);
        let result = async {
            let mut progress = TransferProgress {
                stage: TransferStage::Checking,
                ..TransferProgress::default()
            };
            let cancelled = |progress: TransferProgress| TransferSummary {
                progress,
                cancelled: true,
                budget_reached: false,
            };
            // First pass: every item read and checked, none kept (the file is read again to
            // write).
            for (number, item) in open_items(&path, format, &columns)?.enumerate() {
                let item = item.map_err(|err| {
                    let end = if err.message.ends_with('.') { "" } else { "." };
                    validation(format!("{}{end} Nothing was imported.", err.message))
                })?;
                if let Some(problem) = crate::writes::check_item(&item, &keys).problems.first() {
                    return Err(CommandError::new(
                        ErrorCode::Validation,
                        format!(
                            "Item {} of {}: {} Nothing was imported.",
                            number + 1,
                            display_name(&path),
                            problem.message
                        ),
                    ));
                }
                progress.items += 1;
                if progress.items.is_multiple_of(1000) {
                    if flag.load(Ordering::SeqCst) {
                        return Ok(cancelled(progress));
                    }
                    pace.report(&progress, false);
                    // The check is synchronous work: let the runtime's other tasks run.
                    tokio::task::yield_now().await;
                }
            }
            progress = TransferProgress {
                expected_items: Some(f64::from(progress.items)),
                ..TransferProgress::default()
            };
            pace.report(&progress, true);
            let mut items = open_items(&path, format, &columns)?;
            loop {
                let chunk = items
                    .by_ref()
                    .take(BATCH_SIZE)
                    .collect::<Result<Vec<Item>, _>>()?;
                if chunk.is_empty() {
                    break;
                }
                if flag.load(Ordering::SeqCst) {
                    return Ok(cancelled(progress));
                }
                let requests = chunk
                    .iter()
                    .map(|item| {
                        let put = PutRequest::builder()
                            .set_item(Some(item_to_sdk(item).map_err(internal)?))
                            .build()
                            .map_err(internal)?;
                        Ok(WriteRequest::builder().put_request(put).build())
                    })
                    .collect::<Result<Vec<_>, CommandError>>()?;
                write_batch(&client, table, requests, &mut progress, &mut sleep).await?;
                progress.items += chunk.len() as u32;
                pace.report(&progress, false);
            }
            pace.report(&progress, true);
            Ok(TransferSummary {
                progress,
                cancelled: false,
                budget_reached: false,
            })
        }
        .await;
        self.inner.running.remove(id);
        result
    }
}

fn validation(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::Validation, message.into())
}

/// The preview of the CSV file at `path` (see [`csv_types::preview`]).
fn read_preview(path: &Path, keys: &KeyTypes) -> Result<ImportPreview, CommandError> {
    let name = display_name(path);
    let file =
        std::fs::File::open(path).map_err(|err| validation(format!("{name} could not be read: {err}")))?;
    csv_types::preview(std::io::BufReader::new(file), keys)
        .map_err(|err| validation(format!("{name}: {err}")))
}

/// The items of the file at `path`, parsed in `format` one record at a time: a line of JSON
/// lines or DynamoDB JSON, a row of CSV (its cells read as `columns` say). Only the record being
/// read is in memory.
fn open_items(
    path: &Path,
    format: FileFormat,
    columns: &[CsvColumnChoice],
) -> Result<Box<dyn Iterator<Item = Result<Item, CommandError>> + Send>, CommandError> {
    let name = display_name(path);
    let unreadable = {
        let name = name.clone();
        move |err: std::io::Error| {
            CommandError::new(ErrorCode::Validation, format!("{name} could not be read: {err}"))
        }
    };
    let invalid = {
        let name = name.clone();
        move |message: String| CommandError::new(ErrorCode::Validation, format!("{name}: {message}"))
    };
    let file = std::io::BufReader::new(std::fs::File::open(path).map_err(&unreadable)?);
    Ok(match format {
        FileFormat::Csv => Box::new(
            formats::CsvItems::new(file, columns)
                .map_err(&invalid)?
                .map(move |item| item.map_err(&invalid)),
        ),
        FileFormat::JsonLines | FileFormat::DynamodbJson => Box::new(
            std::io::BufRead::lines(file)
                .enumerate()
                .filter(|(_, line)| !line.as_ref().is_ok_and(|line| line.trim().is_empty()))
                .map(move |(number, line)| {
                    let line = line.map_err(&unreadable)?;
                    let item = if format == FileFormat::JsonLines {
                        formats::item_from_plain_json(&line)
                    } else {
                        formats::item_from_dynamodb_json(&line)
                    };
                    item.map_err(|err| invalid(format!("line {}: {err}", number + 1)))
                }),
        ),
    })
}
