//! Export: a table (a Scan) or a Query's every page written to a file the user chose, through
//! [`sink::ExportSink`]; and, before it starts, what reading it will cost.
//!
//! The cost estimate follows DynamoDB's rules for reads (rules B.2 and B.4,
//! docs/dynamodb-rules.md): a Scan sums the sizes of the items each page evaluates and rounds
//! the sum up to 4 KB once per page; a page reads at most 1 MB; an eventually consistent read
//! costs half a unit per 4 KB. For a table the sizes are DescribeTable's `TableSizeBytes` and
//! `ItemCount` (on AWS refreshed about every six hours); for a Query, the query estimator's.

use std::sync::atomic::Ordering;

use dynotable_engine::capacity::estimate::counted;
use serde::Serialize;

use super::sink::ExportSink;
use super::{ExportSource, FileFormat, Pace, TransferProgress, TransferStage, TransferSummary};
use crate::dto::cost::{ExplanationLine, ReadConsistency};
use crate::files::FilePurpose;
use crate::scans::{ScanEnd, ScanInput};
use crate::{App, CommandError, ErrorCode};

/// A read unit covers 4 KB (rule B.2).
const BLOCK_BYTES: f64 = 4096.0;
/// A Scan page reads at most 1 MB (rule B.4).
const PAGE_BYTES: f64 = 1024.0 * 1024.0;

/// What an export will read, and what that costs, before it starts.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExportEstimate {
    #[specta(type = specta_typescript::Number)]
    pub items: f64,
    #[specta(type = specta_typescript::Number)]
    pub bytes: f64,
    /// Requests (pages) the read takes.
    #[specta(type = specta_typescript::Number)]
    pub pages: f64,
    /// Read capacity units the export consumes at most (RCU on provisioned tables, RRU on
    /// on-demand ones).
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
    /// The figures come from DescribeTable on AWS (refreshed about every six hours) or from
    /// statistics: the table may have changed since.
    pub approximate: bool,
    /// DescribeTable reported a size of 0 bytes for a table outside the embedded engine: the
    /// table may be empty, or its figures not refreshed yet (AWS refreshes them about every six
    /// hours; dynalite never does). What the export reads is then not known before it runs, and
    /// `capacity_units` is only the one page every Scan reads, not an estimate of the table.
    pub size_unknown: bool,
    pub lines: Vec<ExplanationLine>,
}

impl App {
    /// What exporting `source` will read and cost, before it starts: the figure a read budget
    /// is set against.
    pub async fn estimate_export(
        &self,
        profile_id: &str,
        source: ExportSource,
    ) -> Result<ExportEstimate, CommandError> {
        match source {
            ExportSource::Table { table } => {
                let session = self.session(profile_id).await?;
                let description = self.describe_table(profile_id, &table).await?;
                Ok(scan_estimate(
                    description.item_count,
                    description.size_bytes,
                    !session.is_embedded(),
                ))
            }
            ExportSource::Query { query } => {
                let mut query = *query;
                query.exclusive_start_key = None;
                let estimate = self.estimate_query(profile_id, query).await?;
                let cost = estimate
                    .query
                    .iter()
                    .find(|q| q.consistency == estimate.requested)
                    .or_else(|| estimate.query.first())
                    .ok_or_else(|| CommandError::new(ErrorCode::Internal, "The query estimate is empty."))?;
                let mut lines = vec![ExplanationLine {
                    rule: Some("B.2".into()),
                    text: format!(
                        "Every page of the query, {} and {} in {} → {} RCU {}",
                        counted(estimate.item_count as u64, "item", "items"),
                        counted(estimate.total_bytes as u64, "byte", "bytes"),
                        counted(cost.pages.len() as u64, "page", "pages"),
                        cost.capacity_units,
                        match cost.consistency {
                            ReadConsistency::Strong => "strongly consistent",
                            _ => "eventually consistent",
                        }
                    ),
                }];
                lines.extend(estimate.lines);
                Ok(ExportEstimate {
                    items: estimate.item_count,
                    bytes: estimate.total_bytes,
                    pages: cost.pages.len() as f64,
                    capacity_units: cost.capacity_units,
                    approximate: !cost.exact,
                    size_unknown: false,
                    lines,
                })
            }
        }
    }

    /// Writes the items of `source` to the file chosen as `file` in `format`, calling
    /// `on_progress` as pages arrive. The items go to a partial file beside it, renamed over the
    /// chosen name only when the export is complete: a cancelled or failed export leaves the
    /// chosen name as it was. With a `capacity_budget` (read units), the export stops once it
    /// has consumed that much (after the page that reaches it) and keeps what it read.
    #[allow(clippy::too_many_arguments)]
    pub async fn export(
        &self,
        profile_id: &str,
        id: &str,
        source: ExportSource,
        format: FileFormat,
        file: &str,
        capacity_budget: Option<f64>,
        on_progress: impl FnMut(TransferProgress) + Send,
    ) -> Result<TransferSummary, CommandError> {
        if capacity_budget.is_some_and(|budget| !budget.is_finite() || budget <= 0.0) {
            return Err(CommandError::new(
                ErrorCode::Validation,
                "A read budget is a number of capacity units above 0.",
            ));
        }
        let target = self.inner.files.path(file, FilePurpose::Save)?;
        let table = match &source {
            ExportSource::Table { table } => table.clone(),
            ExportSource::Query { query } => query.table.clone(),
        };
        let keys = self.key_schema_of(profile_id, &table, None).await?;
        let leading: Vec<String> = std::iter::once(keys.partition_key.name)
            .chain(keys.sort_key.map(|k| k.name))
            .collect();
        // Dropped on any early return (an error, a cancel, this future dropped), the sink
        // removes its partial file.
        let mut sink = ExportSink::create(&target, format, &leading)?;
        let mut pace = Pace::new(on_progress);
        let summary = self
            .export_into(profile_id, id, source, capacity_budget, &mut sink, &mut pace)
            .await?;
        if summary.cancelled {
            return Ok(summary);
        }
        let mut progress = summary.progress.clone();
        progress.stage = TransferStage::Finishing;
        progress.expected_items = Some(f64::from(summary.progress.items));
        sink.finish(|rows| {
            progress.items = rows;
            pace.report(&progress, false);
        })?;
        pace.report(&summary.progress, true);
        Ok(summary)
    }

    async fn export_into(
        &self,
        profile_id: &str,
        id: &str,
        source: ExportSource,
        capacity_budget: Option<f64>,
        sink: &mut ExportSink,
        pace: &mut Pace<impl FnMut(TransferProgress) + Send>,
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
                    projection: None,
                    consistent_read: false,
                    page_limit: None,
                    segments: 1,
                    capacity_budget,
                };
                let mut progress = TransferProgress::default();
                // The scan's callback cannot fail: the first write error is kept and reported
                // when the scan returns (later pages are not written).
                let mut failed: Option<CommandError> = None;
                let summary = self
                    .scan(profile_id, input, |update| {
                        if failed.is_some() {
                            return;
                        }
                        if let Err(err) = sink.write(&update.page.items) {
                            failed = Some(err);
                            return;
                        }
                        progress.items += update.page.items.len() as u32;
                        progress.capacity_units = update.totals.capacity_units;
                        progress.expected_items = Some(update.totals.expected_items);
                        pace.report(&progress, false);
                    })
                    .await?;
                if let Some(err) = failed {
                    return Err(err);
                }
                progress.capacity_units = summary.totals.capacity_units;
                progress.expected_items = Some(summary.totals.expected_items);
                Ok(TransferSummary {
                    progress,
                    cancelled: summary.end == ScanEnd::Cancelled,
                    budget_reached: summary.end == ScanEnd::BudgetReached,
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
                            return Ok((true, false));
                        }
                        let page = self.query(profile_id, query.clone()).await?;
                        progress.capacity_units += page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
                        progress.items += page.items.len() as u32;
                        sink.write(&page.items)?;
                        pace.report(&progress, false);
                        if capacity_budget.is_some_and(|budget| progress.capacity_units >= budget) {
                            return Ok((false, page.last_evaluated_key.is_some()));
                        }
                        match page.last_evaluated_key {
                            Some(key) => query.exclusive_start_key = Some(key),
                            None => return Ok((false, false)),
                        }
                    }
                }
                .await;
                self.inner.running.remove(id);
                let (cancelled, budget_reached) = result?;
                Ok(TransferSummary {
                    progress,
                    cancelled,
                    budget_reached,
                })
            }
        }
    }
}

/// What a Scan of a whole table of `items` items and `bytes` bytes costs eventually consistent
/// (rules B.2, B.4): the bytes in 4 KB blocks, plus at most one block of rounding per page and
/// the empty page a read that ends exactly at a page's end is followed by, each block half a
/// unit.
pub(super) fn scan_estimate(items: f64, bytes: f64, approximate: bool) -> ExportEstimate {
    let items = items.max(0.0);
    let bytes = bytes.max(0.0);
    let blocks = (bytes / BLOCK_BYTES).ceil();
    let pages = (bytes / PAGE_BYTES).ceil().max(1.0);
    let capacity_units = 0.5 * (blocks + pages + 1.0);
    let mut lines = vec![
        ExplanationLine {
            rule: Some("B.4".into()),
            text: format!(
                "A Scan reads the whole table, {} and {}, at most 1 MB a page → {}",
                counted(items as u64, "item", "items"),
                counted(bytes as u64, "byte", "bytes"),
                counted(pages as u64, "page", "pages")
            ),
        },
        ExplanationLine {
            rule: Some("B.2".into()),
            text: format!(
                "Each page's item sizes are summed and rounded up to 4 KB once: {} of 4 KB, plus at most one block of rounding per page and one for a last, empty page",
                counted(blocks as u64, "block", "blocks")
            ),
        },
        ExplanationLine {
            rule: Some("B.2".into()),
            text: format!("Eventually consistent, half a unit per 4 KB → at most {capacity_units} RCU"),
        },
    ];
    if approximate {
        lines.push(ExplanationLine {
            rule: None,
            text: "DescribeTable's item count and size are refreshed about every six hours: the table may have changed since".into(),
        });
    }
    // On the embedded engine the figures are live: 0 bytes is an empty table. Elsewhere 0 bytes
    // may be a table whose figures were never refreshed.
    let size_unknown = approximate && bytes == 0.0;
    if size_unknown {
        lines.insert(
            0,
            ExplanationLine {
                rule: None,
                text: "DescribeTable reports a size of 0 bytes: the table may be empty, or its size not refreshed yet (AWS refreshes it about every six hours; some local emulators never do), so what the export reads is not known before it runs. A read budget bounds it".into(),
            },
        );
    }
    ExportEstimate {
        items,
        bytes,
        pages,
        capacity_units,
        approximate,
        size_unknown,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_costs_half_a_unit_per_4_kb_with_one_block_of_rounding_per_page() {
        // 10 MB: 2,560 blocks in 10 pages, + 10 blocks of rounding + 1 empty page → 1,285.5 RCU.
        let estimate = scan_estimate(100_000.0, 10.0 * 1024.0 * 1024.0, true);
        assert_eq!(estimate.pages, 10.0);
        assert_eq!(estimate.capacity_units, 0.5 * (2560.0 + 10.0 + 1.0));
        assert!(estimate.approximate);
        // An empty table still reads one page.
        let empty = scan_estimate(0.0, 0.0, false);
        assert_eq!((empty.pages, empty.capacity_units), (1.0, 1.0));
        assert_eq!(empty.lines.len(), 3);
        assert!(!estimate.size_unknown && !empty.size_unknown);
    }

    #[test]
    fn a_size_of_0_bytes_outside_the_embedded_engine_is_an_unknown_size_not_a_free_export() {
        // dynalite never updates TableSizeBytes; AWS refreshes it about every six hours.
        for items in [0.0, 2000.0] {
            let estimate = scan_estimate(items, 0.0, true);
            assert!(estimate.size_unknown, "{items} items, 0 bytes");
            assert!(
                estimate.lines[0]
                    .text
                    .starts_with("DescribeTable reports a size of 0 bytes"),
                "{:?}",
                estimate.lines
            );
        }
        // A size DescribeTable does report is an estimate, however small.
        assert!(!scan_estimate(1.0, 100.0, true).size_unknown);
    }
}
