//! Import and export: a table or a query result written to a file as JSON lines, DynamoDB JSON or
//! CSV ([`formats`]); a file written into a table with BatchWriteItem, a CSV file's columns read
//! with the types previewed and chosen per column ([`csv_types`]). Both report progress as they
//! go and stop when cancelled by id ([`App::cancel_operation`]).
//!
//! Both hold a page (or a batch) of items in memory at a time, whatever the size of the table or
//! the file, and numbers travel as DynamoDB's decimal text, never through a double.
//!
//! Import follows DynamoDB's rules for batch writes (rule B.9, docs/dynamodb-rules.md; API reference
//! `API_BatchWriteItem.html`): at most 25 puts per request; `UnprocessedItems` are sent again
//! after an exponential backoff, and so are requests refused for throughput
//! (`ProvisionedThroughputExceededException`, `ThrottlingException`, `RequestLimitExceeded`).

pub mod csv_types;
mod export;
pub mod formats;
mod import;
mod sink;

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use aws_sdk_dynamodb::types::{DeleteRequest, ReturnConsumedCapacity, WriteRequest};
use serde::{Deserialize, Serialize};

pub use csv_types::{CsvColumnChoice, CsvColumnType, ImportPreview};
pub use export::ExportEstimate;
pub use formats::FileFormat;

use crate::dto::attribute::item_to_sdk;
use crate::dto::{Item, QueryInput};
use crate::files::{ChosenFile, FilePurpose};
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

/// What a transfer is doing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum TransferStage {
    /// An import reads its file once to check every item before it writes any.
    Checking,
    /// Items are read from the table and written to the file, or read from the file and
    /// written to the table.
    #[default]
    Transferring,
    /// A CSV export writes its rows under the header, once every item has been read.
    Finishing,
}

/// Progress of an import or export.
#[derive(Debug, Clone, Default, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TransferProgress {
    pub stage: TransferStage,
    /// Items done in this stage.
    pub items: u32,
    /// How many items there are in all, when known: the denominator of a progress bar. The
    /// table's item count as DescribeTable reports it for a table's export (on AWS refreshed
    /// about every six hours, so approximate); the file's count, once checked, for an import.
    #[specta(type = Option<specta_typescript::Number>)]
    pub expected_items: Option<f64>,
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
    /// An export stopped once it had consumed the read budget it was given: the file holds the
    /// items read until then (a complete file of fewer items, not a half-written one).
    pub budget_reached: bool,
}

impl App {
    /// Records the file the user chose in the system's dialog and returns the handle the UI
    /// names it by (the shell calls this with the dialog's answer; the web view never sends a
    /// path).
    pub fn grant_file(&self, path: std::path::PathBuf, purpose: FilePurpose) -> ChosenFile {
        self.inner.files.grant(path, purpose)
    }
}

/// The file's name for messages (the UI is never told where a file is).
fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// How often progress is reported at most: a million items imported 25 a request would
/// otherwise send the window 40,000 messages.
const REPORT_EVERY: Duration = Duration::from_millis(100);

/// Passes progress on at most every [`REPORT_EVERY`] (and always when forced).
struct Pace<F> {
    report: F,
    last: Option<std::time::Instant>,
}

impl<F: FnMut(TransferProgress)> Pace<F> {
    fn new(report: F) -> Pace<F> {
        Pace { report, last: None }
    }

    fn report(&mut self, progress: &TransferProgress, force: bool) {
        let now = std::time::Instant::now();
        if force
            || self
                .last
                .is_none_or(|last| now.duration_since(last) >= REPORT_EVERY)
        {
            self.last = Some(now);
            (self.report)(progress.clone());
        }
    }
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
        let session = self.writing(profile_id, Some(table)).await?;
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
