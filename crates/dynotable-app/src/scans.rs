//! Scans as a stream of pages: the UI starts a scan with an id, receives every page with running
//! totals (items, bytes, capacity) as it arrives, and can cancel it by id at any moment; a
//! capacity budget stops it by itself. A parallel scan runs `segments` Scan requests at once
//! (rule B.4: `Segment` / `TotalSegments`), each paging on its own.
//!
//! Every page is a Scan written by `dynotable-builder` ([`scan_request`], [`crate::requests`]):
//! the filter the caller typed is parsed into builder state and written again with the builder's
//! placeholders, never sent as typed.
//!
//! The scan checks for cancellation between pages, so it stops within one page's latency, and
//! pages still in flight when it is cancelled are dropped, not delivered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use dynotable_builder::{Direction, GeneratedRequest, ReadOperation, ReadRequest, ReturnConsumedCapacity};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::dto::attribute::item_to_engine;
use crate::dto::{Item, QueryPage};
use crate::requests::{self, Segment};
use crate::{App, CommandError, ErrorCode};

/// Most segments a parallel scan may use here (DynamoDB allows up to 1,000,000; a desktop app
/// gains nothing past a few dozen connections).
pub const MAX_SEGMENTS: u32 = 64;

/// A Scan to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScanInput {
    /// Chosen by the caller; [`App::cancel_operation`] takes it.
    pub scan_id: String,
    pub table: String,
    pub index: Option<String>,
    pub filter: Option<String>,
    pub filter_names: Option<std::collections::BTreeMap<String, String>>,
    pub filter_values: Option<Item>,
    /// The attributes to return, as document paths `a, b.c[2]` (a ProjectionExpression: rule
    /// B.4 counts the capacity on the whole items read all the same); `None` returns them whole.
    pub projection: Option<String>,
    pub consistent_read: bool,
    /// Items evaluated per request (the Scan's Limit); `None` reads 1 MB pages.
    pub page_limit: Option<u32>,
    /// 1 for a plain scan; more for a parallel scan.
    pub segments: u32,
    /// Stop once this many capacity units have been consumed.
    #[specta(type = Option<specta_typescript::Number>)]
    pub capacity_budget: Option<f64>,
}

/// Running totals of a scan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScanTotals {
    pub pages: u32,
    /// Items returned (after the filter).
    #[specta(type = specta_typescript::Number)]
    pub items: f64,
    /// Items read (before the filter).
    #[specta(type = specta_typescript::Number)]
    pub scanned: f64,
    /// Bytes of the items returned, by DynamoDB's size rules.
    #[specta(type = specta_typescript::Number)]
    pub bytes: f64,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// The table's item count as DescribeTable reports it: the denominator of a progress bar
    /// (approximate on AWS, where it is refreshed about every six hours).
    #[specta(type = specta_typescript::Number)]
    pub expected_items: f64,
}

/// One page of a running scan, with the totals so far.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScanUpdate {
    pub scan_id: String,
    pub segment: u32,
    pub page: QueryPage,
    pub totals: ScanTotals,
}

/// How a scan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ScanEnd {
    /// Every segment read to its end.
    Completed,
    /// The user cancelled it.
    Cancelled,
    /// The capacity budget was used up.
    BudgetReached,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScanSummary {
    pub end: ScanEnd,
    pub totals: ScanTotals,
}

/// What one segment's task reports.
enum SegmentReport {
    Page(u32, QueryPage),
    Failed(CommandError),
}

impl App {
    /// A Scan the user ran from the query bar: [`App::scan`], then recorded in the query history
    /// with what it read in all (an export's scans are not: the user ran an export). A scan that
    /// failed is not recorded; one cancelled or stopped by its budget is, with what it read.
    pub async fn run_scan(
        &self,
        profile_id: &str,
        input: ScanInput,
        on_update: impl FnMut(ScanUpdate) + Send,
    ) -> Result<ScanSummary, CommandError> {
        let request = scan_read_request(&input)?;
        let summary = self.scan(profile_id, input, on_update).await?;
        let generated = requests::generate(&request)?;
        let ran = crate::history::HistoryRequest::builder(&request, &generated);
        let items = u32::try_from(summary.totals.items as u64).unwrap_or(u32::MAX);
        // History is a convenience: a failure to record it must not fail the scan.
        if let Err(err) = self
            .record_query(profile_id, &ran, items, summary.totals.capacity_units)
            .await
        {
            tracing::warn!(%err, "the scan could not be added to the history");
        }
        Ok(summary)
    }

    /// Runs a scan, calling `on_update` with each page, until it completes, is cancelled or uses
    /// up its budget.
    pub async fn scan(
        &self,
        profile_id: &str,
        input: ScanInput,
        mut on_update: impl FnMut(ScanUpdate) + Send,
    ) -> Result<ScanSummary, CommandError> {
        if input.segments == 0 || input.segments > MAX_SEGMENTS {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!(
                    "A scan runs in 1 to {MAX_SEGMENTS} segments, not {}.",
                    input.segments
                ),
            ));
        }
        let generated = scan_request(&input)?;
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, &input.table).await?;
        let cancelled = self.inner.running.register(&input.scan_id)?;
        let result = async {
            // Each segment reads its next page while the caller handles the last (an export
            // writes it), and no further: see `scan_segment`.
            let (sender, mut receiver) = mpsc::channel::<SegmentReport>(input.segments as usize);
            let mut tasks = tokio::task::JoinSet::new();
            for segment in 0..input.segments {
                let client = session.client.clone();
                let generated = generated.clone();
                let sender = sender.clone();
                let cancelled = cancelled.clone();
                let segment = Segment {
                    segment,
                    total: input.segments,
                };
                tasks.spawn(async move { scan_segment(client, generated, segment, cancelled, sender).await });
            }
            drop(sender);
            let mut totals = ScanTotals {
                expected_items: description.item_count,
                ..ScanTotals::default()
            };
            let mut end = ScanEnd::Completed;
            while let Some(report) = receiver.recv().await {
                // Pages already in flight when the scan was cancelled are not delivered.
                if cancelled.load(Ordering::SeqCst) {
                    break;
                }
                let (segment, page) = match report {
                    SegmentReport::Page(segment, page) => (segment, page),
                    SegmentReport::Failed(err) => {
                        cancelled.store(true, Ordering::SeqCst);
                        return Err(err);
                    }
                };
                totals.pages += 1;
                totals.items += f64::from(page.count);
                totals.scanned += f64::from(page.scanned_count);
                totals.bytes += page
                    .items
                    .iter()
                    .filter_map(|i| item_to_engine(i).ok())
                    .map(|i| dynotable_types::item_size(&i) as f64)
                    .sum::<f64>();
                totals.capacity_units += page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
                on_update(ScanUpdate {
                    scan_id: input.scan_id.clone(),
                    segment,
                    page,
                    totals: totals.clone(),
                });
                if input
                    .capacity_budget
                    .is_some_and(|budget| totals.capacity_units >= budget)
                {
                    end = ScanEnd::BudgetReached;
                    break;
                }
            }
            drop(receiver);
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
            if end == ScanEnd::Completed && cancelled.load(Ordering::SeqCst) {
                end = ScanEnd::Cancelled;
            }
            Ok(ScanSummary { end, totals })
        }
        .await;
        self.inner.running.remove(&input.scan_id);
        result
    }
}

/// The Scan a [`ScanInput`] asks for, as `dynotable-builder` writes it (see [`crate::requests`]):
/// a typed filter is parsed into builder state and written again with the builder's
/// placeholders, so what DynamoDB would refuse is refused before the first page.
pub(crate) fn scan_request(input: &ScanInput) -> Result<GeneratedRequest, CommandError> {
    requests::generate(&scan_read_request(input)?)
}

/// The builder request of a [`ScanInput`].
fn scan_read_request(input: &ScanInput) -> Result<ReadRequest, CommandError> {
    Ok(ReadRequest {
        operation: ReadOperation::Scan,
        table_name: input.table.clone(),
        index_name: input.index.clone(),
        key_condition: None,
        filter: requests::filter_state(
            input.filter.as_deref(),
            input.filter_names.as_ref(),
            input.filter_values.as_ref(),
        )?,
        projection: requests::projection_state(input.projection.as_deref())?,
        direction: Direction::Ascending,
        limit: input.page_limit,
        consistent_read: input.consistent_read,
        return_consumed_capacity: Some(ReturnConsumedCapacity::INDEXES),
    })
}

/// Pages through one segment until its end, cancellation, or an error.
async fn scan_segment(
    client: aws_sdk_dynamodb::Client,
    generated: GeneratedRequest,
    segment: Segment,
    cancelled: Arc<AtomicBool>,
    sender: mpsc::Sender<SegmentReport>,
) {
    let mut start: Option<Item> = None;
    while !cancelled.load(Ordering::SeqCst) {
        // The slot first, then the read: a page is read only once the last one read was taken,
        // so a segment holds at most the page being read and the page being handled.
        let Ok(slot) = sender.reserve().await else {
            return;
        };
        let page = match requests::send(&client, &generated, start.as_ref(), Some(segment)).await {
            Ok(page) => page,
            Err(err) => {
                slot.send(SegmentReport::Failed(err));
                return;
            }
        };
        let last = page.last_evaluated_key.clone();
        slot.send(SegmentReport::Page(segment.segment, page));
        match last {
            Some(key) => start = Some(key),
            None => return,
        }
    }
}
