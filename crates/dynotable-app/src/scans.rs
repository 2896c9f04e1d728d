//! Scans as a stream of pages: the UI starts a scan with an id, receives every page with running
//! totals (items, bytes, capacity) as it arrives, and can cancel it by id at any moment; a
//! capacity budget stops it by itself. A parallel scan runs `segments` Scan requests at once
//! (rule B.4: `Segment` / `TotalSegments`), each paging on its own.
//!
//! The scan checks for cancellation between pages, so it stops within one page's latency, and
//! pages still in flight when it is cancelled are dropped, not delivered.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use crate::dto::attribute::{item_from_sdk, item_to_engine, item_to_sdk};
use crate::dto::{Item, QueryPage};
use crate::reads::{consumed_capacity, page_stop};
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
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, &input.table).await?;
        let cancelled = self.inner.running.register(&input.scan_id)?;
        let result = async {
            let (sender, mut receiver) = mpsc::channel::<SegmentReport>(input.segments as usize * 2);
            let mut tasks = tokio::task::JoinSet::new();
            for segment in 0..input.segments {
                let client = session.client.clone();
                let input = input.clone();
                let sender = sender.clone();
                let cancelled = cancelled.clone();
                tasks.spawn(async move { scan_segment(client, input, segment, cancelled, sender).await });
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

/// Pages through one segment until its end, cancellation, or an error.
async fn scan_segment(
    client: aws_sdk_dynamodb::Client,
    input: ScanInput,
    segment: u32,
    cancelled: Arc<AtomicBool>,
    sender: mpsc::Sender<SegmentReport>,
) {
    let filter_values = match input.filter_values.as_ref().map(item_to_sdk).transpose() {
        Ok(values) => values,
        Err(message) => {
            let _ = sender
                .send(SegmentReport::Failed(CommandError::new(
                    ErrorCode::Validation,
                    message,
                )))
                .await;
            return;
        }
    };
    let mut start = None;
    while !cancelled.load(Ordering::SeqCst) {
        let mut call = client
            .scan()
            .table_name(&input.table)
            .set_index_name(input.index.clone())
            .set_filter_expression(input.filter.clone().filter(|f| !f.trim().is_empty()))
            .set_expression_attribute_names(input.filter_names.clone().map(|n| n.into_iter().collect()))
            .set_expression_attribute_values(filter_values.clone())
            .consistent_read(input.consistent_read)
            .set_limit(input.page_limit.map(|l| l.min(i32::MAX as u32) as i32))
            .set_exclusive_start_key(start.take())
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes);
        if input.segments > 1 {
            call = call.segment(segment as i32).total_segments(input.segments as i32);
        }
        let output = match call.send().await {
            Ok(output) => output,
            Err(err) => {
                let _ = sender
                    .send(SegmentReport::Failed(CommandError::from_sdk(&err)))
                    .await;
                return;
            }
        };
        let last = output.last_evaluated_key().cloned();
        let scanned_count = u32::try_from(output.scanned_count()).unwrap_or(0);
        let page = QueryPage {
            items: output.items().iter().map(item_from_sdk).collect(),
            count: u32::try_from(output.count()).unwrap_or(0),
            scanned_count,
            last_evaluated_key: last.as_ref().map(item_from_sdk),
            consumed_capacity: output.consumed_capacity().map(consumed_capacity),
            stop: page_stop(last.is_some(), input.page_limit, scanned_count),
        };
        if sender.send(SegmentReport::Page(segment, page)).await.is_err() {
            return;
        }
        match last {
            Some(key) => start = Some(key),
            None => return,
        }
    }
}
