//! Collection statistics of tables the app cannot ask an engine about (AWS, any endpoint).
//!
//! The life of a statistics scan:
//! 1. The user sees what reading the table (or one of its indexes) whole would cost
//!    ([`App::statistics_scan_cost`], from DescribeTable's sizes) and sets a budget of read units.
//! 2. [`App::gather_statistics`] scans it page by page, counting every collection's items and
//!    bytes as the pages arrive, and reporting the running cost, until the scan reads to the end,
//!    the budget is used up or the user cancels.
//! 3. Whatever was read is kept in the app database (migration 0005), per table and index, so it
//!    is not paid for twice: a whole scan as complete statistics; a stopped one as partial
//!    statistics with the key to continue from. The next run can continue it
//!    ([`StatisticsRequest::resume`]) and adds to what was kept.
//! 4. Each collection's first rows are kept too ([`crate::kept_rows`]), page by page, so the
//!    Collections view draws its boxes from the pages this scan paid for.
//!
//! A Scan returns the items of one collection together (rule B.4 in `docs/dynamodb-rules.md`:
//! it walks the table partition by partition, each collection's items stored together), so in a
//! stopped scan only the collection read last can be unfinished; it is named in
//! [`StatisticsScan::open_collection`].

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use dynotable_engine::capacity::estimate::counted;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::dto::attribute::item_to_engine;
use crate::dto::{AttributeValue, CollectionStat, CollectionStats, Item, StatisticsScan};
use crate::kept_rows::{RowKeeper, value_key};
use crate::scans::{ScanInput, ScanTotals};
use crate::tables::STATS_COLLECTIONS;
use crate::{App, CommandError, ErrorCode};

/// What the statistics scan of a table (or index) will read and cost, from DescribeTable's size.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScanCost {
    #[specta(type = specta_typescript::Number)]
    pub table_bytes: f64,
    #[specta(type = specta_typescript::Number)]
    pub item_count: f64,
    /// 1 MB pages (rule B.4).
    pub pages: u32,
    /// Eventually consistent read units: half a unit per 4 KB read (rule B.2).
    #[specta(type = specta_typescript::Number)]
    pub read_units: f64,
    /// Why: the sentence the confirmation shows.
    pub explanation: String,
}

/// A statistics scan to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StatisticsRequest {
    pub table: String,
    /// Scan this index instead of the table: the collections are then the index's (rule B.8:
    /// an index collects the items that carry its keys, by its own partition key).
    pub index: Option<String>,
    /// Stop this run once about this many read units are consumed; `None` reads to the end.
    #[specta(type = Option<specta_typescript::Number>)]
    pub budget: Option<f64>,
    /// Continue the earlier scan of the same table or index from where it stopped, adding to what
    /// it kept; when there is none unfinished, the scan starts from the beginning.
    pub resume: bool,
}

fn storage(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::ProfileStorage,
        format!("The statistics cache failed: {err}"),
    )
}

/// One collection as it is being counted.
struct Counted {
    value: AttributeValue,
    items: f64,
    bytes: f64,
}

impl App {
    /// What scanning `table` (or its index `index`) whole for statistics will cost, before the
    /// user starts it. DescribeTable's sizes are refreshed about every six hours on AWS, so the
    /// figure is an estimate.
    pub async fn statistics_scan_cost(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<ScanCost, CommandError> {
        let description = self.describe_table(profile_id, table).await?;
        let (bytes, item_count, what) = match index {
            None => (description.size_bytes, description.item_count, "table".to_owned()),
            Some(name) => {
                let index = description
                    .indexes
                    .iter()
                    .find(|i| i.name == name)
                    .ok_or_else(|| unknown_index(table, name))?;
                (
                    index.size_bytes.unwrap_or(0.0),
                    index.item_count.unwrap_or(0.0),
                    format!("index {name}"),
                )
            }
        };
        let bytes = bytes.max(0.0);
        let blocks = (bytes / 4096.0).ceil();
        let pages = ((bytes / (1024.0 * 1024.0)).ceil() as u32).max(1);
        let read_units = blocks / 2.0;
        Ok(ScanCost {
            table_bytes: bytes,
            item_count,
            pages,
            read_units,
            explanation: if bytes == 0.0 {
                format!(
                    "DescribeTable reports no size for the {what} yet (AWS refreshes it about every six hours), so what a whole scan costs is not known: \
                     the budget bounds it, half a read unit per 4 KB read."
                )
            } else {
                format!(
                    "A full eventually consistent scan reads the {what}'s {} in {} of up to 1 MB: \
                 half a read unit per 4 KB, about {read_units} RCU (DescribeTable's size, refreshed about every six hours).",
                    counted(bytes as u64, "byte", "bytes"),
                    counted(u64::from(pages), "page", "pages")
                )
            },
        })
    }

    /// Scans the table or index of `request` under the id `id` (cancellable), counting every
    /// collection's items and bytes, and keeps what it read, whole or partial. `on_progress` gets
    /// this run's running totals.
    pub async fn gather_statistics(
        &self,
        profile_id: &str,
        id: &str,
        request: StatisticsRequest,
        mut on_progress: impl FnMut(ScanTotals) + Send,
    ) -> Result<CollectionStats, CommandError> {
        let table = request.table.as_str();
        let index = request.index.as_deref();
        let description = self.describe_table(profile_id, table).await?;
        let (read_keys, expected_items, expected_bytes) = match index {
            None => (
                description.keys.clone(),
                description.item_count,
                description.size_bytes,
            ),
            Some(name) => {
                let found = description
                    .indexes
                    .iter()
                    .find(|i| i.name == name)
                    .ok_or_else(|| unknown_index(table, name))?;
                (
                    found.keys.clone(),
                    found.item_count.unwrap_or(0.0),
                    found.size_bytes.unwrap_or(0.0),
                )
            }
        };
        let partition_key = read_keys.partition_key.name.clone();

        // What an unfinished earlier run kept, when the user continues it.
        let earlier = if request.resume {
            self.kept_statistics(profile_id, table, index)
                .await?
                .filter(|(stats, resume_key)| {
                    resume_key.is_some() && stats.scan.as_ref().is_some_and(|s| !s.complete)
                })
        } else {
            None
        };
        let pool = self.profile_store().await?.pool();
        let mut keeper = RowKeeper::start(
            pool,
            profile_id,
            table,
            index,
            &read_keys,
            &description.keys,
            earlier.is_some(),
        )
        .await?;
        let mut counted: HashMap<String, Counted> = HashMap::new();
        let (mut items_read, mut capacity_units, start) = match earlier {
            Some((stats, resume_key)) => {
                for c in stats.collections {
                    counted.insert(
                        value_key(&c.partition_value),
                        Counted {
                            value: c.partition_value,
                            items: c.item_count,
                            bytes: c.size_bytes,
                        },
                    );
                }
                let scan = stats.scan.unwrap_or_else(|| empty_scan(expected_items));
                (scan.items_read, scan.capacity_units, resume_key)
            }
            None => (0.0, 0.0, None),
        };

        let input = ScanInput {
            scan_id: id.to_owned(),
            table: table.to_owned(),
            index: index.map(str::to_owned),
            filter: None,
            filter_names: None,
            filter_values: None,
            projection: None,
            consistent_read: false,
            page_limit: None,
            segments: 1,
            capacity_budget: request.budget,
        };
        let session = self.session(profile_id).await?;
        let cancelled = self.inner.running.register(id)?;
        let mut totals = ScanTotals {
            expected_items,
            ..ScanTotals::default()
        };
        let mut last_key: Option<Item> = start;
        let mut last_value: Option<AttributeValue> = None;
        // What the items read so far weigh on average, to size the next page to the budget left;
        // before the first page, DescribeTable's average.
        let described_average =
            (expected_items > 0.0 && expected_bytes > 0.0).then(|| expected_bytes / expected_items);
        let outcome: Result<bool, CommandError> = async {
            loop {
                if cancelled.load(Ordering::SeqCst) {
                    return Ok(false);
                }
                let average = if totals.scanned > 0.0 {
                    Some(totals.bytes / totals.scanned)
                } else {
                    described_average
                };
                let limit = match request.budget {
                    None => None,
                    Some(budget) => match page_limit_for(budget - totals.capacity_units, average) {
                        PageLimit::Stop => return Ok(false),
                        PageLimit::Items(n) => Some(n),
                        PageLimit::Whole => None,
                    },
                };
                let generated = crate::scans::scan_request(&ScanInput {
                    page_limit: limit,
                    ..input.clone()
                })?;
                let page =
                    crate::requests::send(&session.client, &generated, last_key.as_ref(), None).await?;
                if cancelled.load(Ordering::SeqCst) {
                    // Read but not counted: the user asked to stop before it came back, so the
                    // scan continues from the key before it.
                    return Ok(false);
                }
                totals.pages += 1;
                totals.items += f64::from(page.count);
                totals.scanned += f64::from(page.scanned_count);
                totals.capacity_units += page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
                for item in &page.items {
                    let size = item_to_engine(item)
                        .map(|i| dynotable_types::item_size(&i) as f64)
                        .unwrap_or(0.0);
                    totals.bytes += size;
                    let Some(value) = item.get(&partition_key) else {
                        continue;
                    };
                    let key = value_key(value);
                    keeper.add(&key, item);
                    let entry = counted.entry(key).or_insert_with(|| Counted {
                        value: value.clone(),
                        items: 0.0,
                        bytes: 0.0,
                    });
                    entry.items += 1.0;
                    entry.bytes += size;
                    last_value = Some(value.clone());
                }
                on_progress(totals.clone());
                keeper.flush(pool, now_seconds()).await?;
                match page.last_evaluated_key {
                    Some(key) => last_key = Some(key),
                    None => {
                        last_key = None;
                        return Ok(true);
                    }
                }
            }
        }
        .await;
        self.inner.running.remove(id);
        // Stopped, cancelled or failed in the middle of a collection: its kept rows may be short
        // of its first ones, so they are not served (a failed run keeps no statistics, but the
        // rows it kept are already written).
        if !matches!(outcome, Ok(true))
            && let Some(open) = &last_value
        {
            keeper.stopped_in(pool, &value_key(open)).await?;
        }
        let complete = outcome?;
        items_read += totals.scanned;
        capacity_units += totals.capacity_units;
        let resume_key = if complete { None } else { last_key };

        let mut all: Vec<CollectionStat> = counted
            .into_values()
            .map(|c| CollectionStat {
                partition_value: c.value,
                item_count: c.items,
                size_bytes: c.bytes,
                limited_size_bytes: None,
            })
            .collect();
        all.sort_by(|a, b| {
            b.size_bytes.total_cmp(&a.size_bytes).then_with(|| {
                a.partition_value
                    .display_text()
                    .cmp(&b.partition_value.display_text())
            })
        });
        let gathered_at = now_seconds();
        let stats = CollectionStats {
            table: table.to_owned(),
            index: index.map(str::to_owned),
            distinct_partition_keys: all.len() as f64,
            item_count: all.iter().map(|c| c.item_count).sum(),
            size_bytes: all.iter().map(|c| c.size_bytes).sum(),
            // Every collection is kept (the key-ordered run of the Collections view reads them
            // all); what the UI is sent as statistics is the largest (`largest_only`).
            collections: all,
            collection_size_limit: None,
            gathered_at: Some(gathered_at),
            scan: Some(StatisticsScan {
                complete,
                items_read,
                capacity_units,
                expected_items,
                open_collection: if complete { None } else { last_value },
            }),
        };
        self.keep_statistics(profile_id, &stats, resume_key.as_ref(), gathered_at)
            .await?;
        Ok(largest_only(stats))
    }

    /// The statistics a scan gathered earlier for `table` (or its index `index`), every
    /// collection listed (largest first); `NOT_FOUND` when none was run.
    pub(crate) async fn gathered_statistics(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<CollectionStats, CommandError> {
        match self.kept_statistics(profile_id, table, index).await? {
            Some((stats, _)) => Ok(stats),
            None => Err(CommandError::new(
                ErrorCode::NotFound,
                match index {
                    None => format!(
                        "No statistics of {table} yet: on this connection they come from a scan. See its cost and start it from the Collections view."
                    ),
                    Some(index) => format!(
                        "No statistics of the index {index} yet: on this connection they come from a scan of the index. See its cost and start it from the Collections view."
                    ),
                },
            )),
        }
    }

    async fn kept_statistics(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<Option<(CollectionStats, Option<Item>)>, CommandError> {
        let pool = self.profile_store().await?.pool();
        let row = sqlx::query(
            "SELECT stats, resume_key FROM gathered_statistics WHERE profile_id = ? AND table_name = ? AND index_name = ?",
        )
        .bind(profile_id)
        .bind(table)
        .bind(index.unwrap_or(""))
        .fetch_optional(pool)
        .await
        .map_err(storage)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let stats: CollectionStats = serde_json::from_str(row.get::<&str, _>(0)).map_err(storage)?;
        let resume_key: Option<Item> = match row.get::<Option<&str>, _>(1) {
            Some(text) => Some(serde_json::from_str(text).map_err(storage)?),
            None => None,
        };
        Ok(Some((stats, resume_key)))
    }

    async fn keep_statistics(
        &self,
        profile_id: &str,
        stats: &CollectionStats,
        resume_key: Option<&Item>,
        gathered_at: f64,
    ) -> Result<(), CommandError> {
        let pool = self.profile_store().await?.pool();
        let resume_key = resume_key
            .map(serde_json::to_string)
            .transpose()
            .map_err(storage)?;
        sqlx::query(
            "INSERT INTO gathered_statistics (profile_id, table_name, index_name, stats, resume_key, gathered_at) \
             VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (profile_id, table_name, index_name) DO UPDATE SET \
             stats = excluded.stats, resume_key = excluded.resume_key, gathered_at = excluded.gathered_at",
        )
        .bind(profile_id)
        .bind(&stats.table)
        .bind(stats.index.as_deref().unwrap_or(""))
        .bind(serde_json::to_string(stats).map_err(storage)?)
        .bind(resume_key)
        .bind(gathered_at)
        .execute(pool)
        .await
        .map_err(storage)?;
        Ok(())
    }
}

/// How much the next page of a budgeted statistics scan may read.
#[derive(Debug, Clone, Copy, PartialEq)]
enum PageLimit {
    /// The budget is spent.
    Stop,
    /// At most this many items (the Scan's Limit).
    Items(u32),
    /// A whole 1 MB page fits in what is left.
    Whole,
}

/// The next page's Limit with `left` read units of the budget left and items of `average` bytes,
/// so that the scan stops at the budget rather than a whole 1 MB page (up to 128 RCU, rule B.2)
/// past it. An eventually consistent read unit reads 8 KB (half a unit per 4 KB, the page's size
/// rounded up to 4 KB): a page of n items costs about n × average / 8 KB. Before any item's size
/// is known, a first page of a few items tells it.
fn page_limit_for(left: f64, average: Option<f64>) -> PageLimit {
    // Less than half a unit left: the next page would cost at least that (its 4 KB round-up).
    if left < 0.5 {
        return PageLimit::Stop;
    }
    let Some(average) = average.filter(|a| *a > 0.0) else {
        return PageLimit::Items(FIRST_PAGE_ITEMS);
    };
    let page_bytes = left * 8192.0;
    if page_bytes >= 1024.0 * 1024.0 {
        return PageLimit::Whole;
    }
    PageLimit::Items(((page_bytes / average).floor() as u32).max(1))
}

/// Items in the first page of a budgeted scan whose item size nothing has told yet.
const FIRST_PAGE_ITEMS: u32 = 10;

fn empty_scan(expected_items: f64) -> StatisticsScan {
    StatisticsScan {
        complete: false,
        items_read: 0.0,
        capacity_units: 0.0,
        expected_items,
        open_collection: None,
    }
}

/// Now, in seconds since the epoch.
fn now_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

fn unknown_index(table: &str, index: &str) -> CommandError {
    CommandError::new(
        ErrorCode::NotFound,
        format!("The table {table} has no index named {index}."),
    )
}

/// The statistics as the UI gets them: the largest `STATS_COLLECTIONS` collections listed.
pub(crate) fn largest_only(mut stats: CollectionStats) -> CollectionStats {
    stats.collections.truncate(STATS_COLLECTIONS);
    stats
}

#[cfg(test)]
mod tests {
    use super::{FIRST_PAGE_ITEMS, PageLimit, page_limit_for};

    /// Gathered statistics are kept as JSON and read back: their timestamp must come back
    /// bit for bit (serde_json's default float parser may be one ulp off; `float_roundtrip`).
    #[test]
    fn a_gathered_timestamp_reads_back_exactly() {
        for at in [
            1_796_025_055.533_294_7_f64,
            1_796_025_055.533_295,
            1_700_000_000.123_456_7,
        ] {
            let text = serde_json::to_string(&at).unwrap();
            let back: f64 = serde_json::from_str(&text).unwrap();
            assert_eq!(back.to_bits(), at.to_bits(), "{at} → {text} → {back}");
        }
    }

    /// Pages are sized to the budget left: a whole page when it fits, otherwise as many items
    /// of the average size as the units left read, a few items when no size is known yet, and
    /// none once less than half a unit is left.
    #[test]
    fn pages_are_sized_to_the_budget_left() {
        // 1 KB items: 10 RCU read 80 KB, so 80 items.
        assert_eq!(page_limit_for(10.0, Some(1024.0)), PageLimit::Items(80));
        // One 400 KB item still reads one item.
        assert_eq!(page_limit_for(1.0, Some(400.0 * 1024.0)), PageLimit::Items(1));
        assert_eq!(page_limit_for(128.0, Some(1024.0)), PageLimit::Whole);
        assert_eq!(page_limit_for(10.0, None), PageLimit::Items(FIRST_PAGE_ITEMS));
        assert_eq!(page_limit_for(0.4, Some(1024.0)), PageLimit::Stop);
        assert_eq!(page_limit_for(-3.0, None), PageLimit::Stop);
    }
}
