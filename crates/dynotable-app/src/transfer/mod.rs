//! Import and export: a table or a query result written to a file as JSON lines, DynamoDB JSON or
//! CSV ([`formats`]); a file written into a table with BatchWriteItem. Both report progress as
//! they go and stop when cancelled by id ([`App::cancel_operation`]).
//!
//! Import follows DynamoDB's rules for batch writes (rule B.9, docs/dynamodb-rules.md; API reference
//! `API_BatchWriteItem.html`): at most 25 puts per request; `UnprocessedItems` are sent again
//! after an exponential backoff, and so are requests refused for throughput
//! (`ProvisionedThroughputExceededException`, `ThrottlingException`, `RequestLimitExceeded`).

pub mod formats;
mod sink;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Duration;

use aws_sdk_dynamodb::types::{DeleteRequest, PutRequest, ReturnConsumedCapacity, WriteRequest};
use serde::{Deserialize, Serialize};

pub use formats::FileFormat;

use crate::dto::attribute::item_to_sdk;
use crate::dto::{Item, QueryInput};
use crate::files::{self, ChosenFile, FilePurpose};
use crate::scans::ScanInput;
use crate::{App, CommandError, ErrorCode};

/// BatchWriteItem takes at most 25 requests (rule B.9).
pub const BATCH_SIZE: usize = 25;
/// Attempts per batch before the import gives up on it.
const MAX_ATTEMPTS: u32 = 10;
/// The first backoff; it doubles each attempt up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// What to export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ExportSource {
    /// Every item of a table (a Scan).
    Table { table: String },
    /// Every page of a Query.
    Query { query: Box<QueryInput> },
}

/// Progress of an import or export.
#[derive(Debug, Clone, Default, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TransferProgress {
    pub items: u32,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// Batches sent again (unprocessed items or throttling).
    pub retries: u32,
}

/// How a transfer ended.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TransferSummary {
    pub progress: TransferProgress,
    pub cancelled: bool,
}

impl App {
    /// Records the file the user chose in the system's dialog and returns the handle the UI
    /// names it by (the shell calls this with the dialog's answer; the web view never sends a
    /// path).
    pub fn grant_file(&self, path: std::path::PathBuf, purpose: FilePurpose) -> ChosenFile {
        self.inner.files.grant(path, purpose)
    }

    /// Writes the items of `source` to the file chosen as `file` in `format`, calling
    /// `on_progress` as pages arrive. The items go to a partial file beside it, renamed over the
    /// chosen name only when the export is complete: a cancelled or failed export leaves the
    /// chosen name as it was. JSON lines and DynamoDB JSON are written page by page; CSV's header
    /// depends on every item, so it is written at the end.
    pub async fn export(
        &self,
        profile_id: &str,
        id: &str,
        source: ExportSource,
        format: FileFormat,
        file: &str,
        mut on_progress: impl FnMut(TransferProgress) + Send,
    ) -> Result<TransferSummary, CommandError> {
        let target = self.inner.files.path(file, FilePurpose::Save)?;
        let table = match &source {
            ExportSource::Table { table } => table.clone(),
            ExportSource::Query { query } => query.table.clone(),
        };
        let keys = self.key_schema_of(profile_id, &table, None).await?;
        let leading: Vec<String> = std::iter::once(keys.partition_key.name)
            .chain(keys.sort_key.map(|k| k.name))
            .collect();
        let partial = files::partial_path(&target);
        let mut sink = sink::ExportSink::create(&partial, format, leading)?;
        let result = self
            .export_into(profile_id, id, source, &mut sink, &mut on_progress)
            .await;
        let summary = match result {
            Ok(summary) if !summary.cancelled => summary,
            other => {
                drop(sink);
                let _ = std::fs::remove_file(&partial);
                return other;
            }
        };
        sink.finish()?;
        std::fs::rename(&partial, &target).map_err(|err| {
            let _ = std::fs::remove_file(&partial);
            written_error(&target, err)
        })?;
        Ok(summary)
    }

    async fn export_into(
        &self,
        profile_id: &str,
        id: &str,
        source: ExportSource,
        sink: &mut sink::ExportSink,
        on_progress: &mut (impl FnMut(TransferProgress) + Send),
    ) -> Result<TransferSummary, CommandError> {
        match source {
            ExportSource::Table { table } => {
                let input = ScanInput {
                    scan_id: id.to_owned(),
                    table,
                    index: None,
                    filter: None,
                    filter_names: None,
                    filter_values: None,
                    consistent_read: false,
                    page_limit: None,
                    segments: 1,
                    capacity_budget: None,
                };
                let mut written = 0u32;
                // The scan's callback cannot fail: the first write error is kept and reported
                // when the scan returns (later pages are not written).
                let mut failed: Option<CommandError> = None;
                let summary = self
                    .scan(profile_id, input, |update| {
                        if failed.is_some() {
                            return;
                        }
                        written += update.page.items.len() as u32;
                        if let Err(err) = sink.write(update.page.items) {
                            failed = Some(err);
                            return;
                        }
                        on_progress(TransferProgress {
                            items: written,
                            capacity_units: update.totals.capacity_units,
                            retries: 0,
                        });
                    })
                    .await?;
                if let Some(err) = failed {
                    return Err(err);
                }
                Ok(TransferSummary {
                    progress: TransferProgress {
                        items: written,
                        capacity_units: summary.totals.capacity_units,
                        retries: 0,
                    },
                    cancelled: summary.end != crate::scans::ScanEnd::Completed,
                })
            }
            ExportSource::Query { query } => {
                let mut query = *query;
                let flag = self.inner.running.register(id)?;
                let mut progress = TransferProgress::default();
                let result = async {
                    query.exclusive_start_key = None;
                    loop {
                        if flag.load(Ordering::SeqCst) {
                            return Ok(true);
                        }
                        let page = self.query(profile_id, query.clone()).await?;
                        progress.capacity_units += page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
                        progress.items += page.items.len() as u32;
                        sink.write(page.items)?;
                        on_progress(progress.clone());
                        match page.last_evaluated_key {
                            Some(key) => query.exclusive_start_key = Some(key),
                            None => return Ok(false),
                        }
                    }
                }
                .await;
                self.inner.running.remove(id);
                let cancelled = result?;
                Ok(TransferSummary { progress, cancelled })
            }
        }
    }

    /// What importing the file chosen as `file` into `table` will cost, before it runs: every
    /// item of the file sized by DynamoDB's rules, with its index fan-out (the estimator of
    /// issue 7).
    pub async fn estimate_import_file(
        &self,
        profile_id: &str,
        table: &str,
        format: FileFormat,
        file: &str,
    ) -> Result<crate::dto::cost::ImportEstimate, CommandError> {
        let path = self.inner.files.path(file, FilePurpose::Open)?;
        let items = read_items(&path, format)?;
        let count = items.len() as f64;
        self.estimate_import(profile_id, table, items, count).await
    }

    /// Writes the items of the file chosen as `file` into `table` with BatchWriteItem. Every
    /// item is checked before the first is written: a file with a bad item imports nothing.
    pub async fn import(
        &self,
        profile_id: &str,
        id: &str,
        table: &str,
        format: FileFormat,
        file: &str,
        mut on_progress: impl FnMut(TransferProgress) + Send,
    ) -> Result<TransferSummary, CommandError> {
        let session = self.session(profile_id).await?;
        session.writable()?;
        let path = self.inner.files.path(file, FilePurpose::Open)?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        // First pass: every item read and checked, none kept (the file is read again to write).
        for (number, item) in open_items(&path, format)?.enumerate() {
            if let Some(problem) = crate::writes::check_item(&item?, &keys).problems.first() {
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
        }
        let mut items = open_items(&path, format)?;
        let flag = self.inner.running.register(id)?;
        let client = session.client.clone();
        let result = async {
            let mut progress = TransferProgress::default();
            loop {
                let chunk = items
                    .by_ref()
                    .take(BATCH_SIZE)
                    .collect::<Result<Vec<Item>, _>>()?;
                if chunk.is_empty() {
                    break;
                }
                if flag.load(Ordering::SeqCst) {
                    return Ok(TransferSummary {
                        progress,
                        cancelled: true,
                    });
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
                on_progress(progress.clone());
            }
            Ok(TransferSummary {
                progress,
                cancelled: false,
            })
        }
        .await;
        self.inner.running.remove(id);
        result
    }
}

/// The file's name for messages (the UI is never told where a file is).
fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn written_error(path: &Path, err: std::io::Error) -> CommandError {
    CommandError::new(
        ErrorCode::Validation,
        format!("The export could not be written to {}: {err}", display_name(path)),
    )
}

/// Every item of the file at `path`, parsed in `format` (the estimate sizes them all).
fn read_items(path: &Path, format: FileFormat) -> Result<Vec<Item>, CommandError> {
    open_items(path, format)?.collect()
}

/// The items of the file at `path`, parsed in `format` one record at a time: a line of JSON
/// lines or DynamoDB JSON, a row of CSV. Only the record being read is in memory.
fn open_items(
    path: &Path,
    format: FileFormat,
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
            formats::CsvItems::new(file)
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

impl App {
    /// Deletes the items with `keys` from `table` (the user's selection) with BatchWriteItem,
    /// 25 a request, unprocessed ones sent again. Deleting a key that has no item is not an error
    /// (DynamoDB's DeleteRequest is unconditional).
    pub async fn delete_items(
        &self,
        profile_id: &str,
        table: &str,
        keys: Vec<Item>,
    ) -> Result<TransferProgress, CommandError> {
        let session = self.session(profile_id).await?;
        session.writable()?;
        let mut progress = TransferProgress::default();
        for chunk in keys.chunks(BATCH_SIZE) {
            let requests = chunk
                .iter()
                .map(|key| {
                    let delete = DeleteRequest::builder()
                        .set_key(Some(
                            item_to_sdk(key).map_err(|m| CommandError::new(ErrorCode::Validation, m))?,
                        ))
                        .build()
                        .map_err(internal)?;
                    Ok(WriteRequest::builder().delete_request(delete).build())
                })
                .collect::<Result<Vec<_>, CommandError>>()?;
            write_batch(&session.client, table, requests, &mut progress, &mut sleep).await?;
            progress.items += chunk.len() as u32;
        }
        Ok(progress)
    }
}

async fn sleep(duration: Duration) {
    tokio::time::sleep(duration).await;
}

/// Sends one batch until every request in it is processed, backing off between attempts.
async fn write_batch<F, Fut>(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    mut requests: Vec<WriteRequest>,
    progress: &mut TransferProgress,
    wait: &mut F,
) -> Result<(), CommandError>
where
    F: FnMut(Duration) -> Fut,
    Fut: Future<Output = ()>,
{
    let mut backoff = FIRST_BACKOFF;
    for attempt in 1..=MAX_ATTEMPTS {
        let sent = client
            .batch_write_item()
            .set_request_items(Some(HashMap::from([(table.to_owned(), requests.clone())])))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        match sent {
            Ok(output) => {
                progress.capacity_units += output
                    .consumed_capacity()
                    .iter()
                    .filter_map(|c| c.capacity_units())
                    .sum::<f64>();
                let unprocessed = output
                    .unprocessed_items()
                    .and_then(|u| u.get(table))
                    .cloned()
                    .unwrap_or_default();
                if unprocessed.is_empty() {
                    return Ok(());
                }
                requests = unprocessed;
            }
            Err(err) => {
                let error = CommandError::from_sdk(&err);
                if error.code != ErrorCode::Throttled {
                    return Err(error);
                }
            }
        }
        if attempt == MAX_ATTEMPTS {
            break;
        }
        progress.retries += 1;
        wait(backoff).await;
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
    Err(CommandError::new(
        ErrorCode::Throttled,
        format!(
            "DynamoDB kept {} items unprocessed after {MAX_ATTEMPTS} attempts; the import stopped there.",
            requests.len()
        ),
    ))
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, err.to_string())
}
