//! Collection statistics of tables the app cannot ask an engine about (AWS, any endpoint): a
//! Scan gathers every collection's item count and bytes, after the user has seen what the scan
//! will cost ([`App::statistics_scan_cost`]) and started it; the result is kept in the app
//! database (migration 0004) so the scan is not paid for twice.

use std::collections::HashMap;

use serde::Serialize;
use sqlx::Row;

use crate::dto::attribute::item_to_engine;
use crate::dto::{AttributeValue, CollectionStat, CollectionStats};
use crate::scans::{ScanEnd, ScanInput, ScanTotals};
use crate::tables::STATS_COLLECTIONS;
use crate::{App, CommandError, ErrorCode};

/// What the statistics scan of a table will read and cost, from DescribeTable's size.
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

fn storage(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::ProfileStorage,
        format!("The statistics cache failed: {err}"),
    )
}

impl App {
    /// What scanning `table` for statistics will cost, before the user starts it. DescribeTable's
    /// size is refreshed about every six hours on AWS, so the figure is an estimate.
    pub async fn statistics_scan_cost(
        &self,
        profile_id: &str,
        table: &str,
    ) -> Result<ScanCost, CommandError> {
        let description = self.describe_table(profile_id, table).await?;
        let bytes = description.size_bytes.max(0.0);
        let blocks = (bytes / 4096.0).ceil();
        let pages = ((bytes / (1024.0 * 1024.0)).ceil() as u32).max(1);
        let read_units = blocks / 2.0;
        Ok(ScanCost {
            table_bytes: bytes,
            item_count: description.item_count,
            pages,
            read_units,
            explanation: format!(
                "A full eventually consistent scan reads the table's {bytes:.0} bytes in {pages} page(s) of up to 1 MB: \
                 half a read unit per 4 KB, about {read_units} RCU (DescribeTable's size, refreshed about every six hours)."
            ),
        })
    }

    /// Scans `table` under the id `id` (cancellable), gathering every collection's count and
    /// bytes, and keeps the result. `on_progress` gets the scan's running totals.
    pub async fn gather_statistics(
        &self,
        profile_id: &str,
        id: &str,
        table: &str,
        mut on_progress: impl FnMut(ScanTotals) + Send,
    ) -> Result<Option<CollectionStats>, CommandError> {
        let description = self.describe_table(profile_id, table).await?;
        let partition_key = description.keys.partition_key.name.clone();
        let mut collections: HashMap<String, (AttributeValue, f64, f64)> = HashMap::new();
        let input = ScanInput {
            scan_id: id.to_owned(),
            table: table.to_owned(),
            index: None,
            filter: None,
            filter_names: None,
            filter_values: None,
            consistent_read: false,
            page_limit: None,
            segments: 1,
            capacity_budget: None,
        };
        let summary = self
            .scan(profile_id, input, |update| {
                for item in &update.page.items {
                    let Some(value) = item.get(&partition_key) else {
                        continue;
                    };
                    let size = item_to_engine(item)
                        .map(|i| dynotable_types::item_size(&i) as f64)
                        .unwrap_or(0.0);
                    let key = serde_json::to_string(value).unwrap_or_default();
                    let entry = collections
                        .entry(key)
                        .or_insert_with(|| (value.clone(), 0.0, 0.0));
                    entry.1 += 1.0;
                    entry.2 += size;
                }
                on_progress(update.totals);
            })
            .await?;
        if summary.end != ScanEnd::Completed {
            return Ok(None);
        }
        let mut all: Vec<CollectionStat> = collections
            .into_values()
            .map(|(partition_value, item_count, size_bytes)| CollectionStat {
                partition_value,
                item_count,
                size_bytes,
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
        let gathered_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0);
        let stats = CollectionStats {
            table: table.to_owned(),
            index: None,
            distinct_partition_keys: all.len() as f64,
            item_count: all.iter().map(|c| c.item_count).sum(),
            size_bytes: all.iter().map(|c| c.size_bytes).sum(),
            // Every collection is kept (the key-ordered run of the Collections view reads them
            // all); what the UI is sent as statistics is the largest (`largest_only`).
            collections: all,
            collection_size_limit: None,
            gathered_at: Some(gathered_at),
        };
        let pool = self.profile_store().await?.pool();
        sqlx::query(
            "INSERT INTO collection_statistics (profile_id, table_name, stats, gathered_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (profile_id, table_name) DO UPDATE SET stats = excluded.stats, gathered_at = excluded.gathered_at",
        )
        .bind(profile_id)
        .bind(table)
        .bind(serde_json::to_string(&stats).map_err(storage)?)
        .bind(gathered_at)
        .execute(pool)
        .await
        .map_err(storage)?;
        Ok(Some(largest_only(stats)))
    }

    /// The statistics a scan gathered earlier, every collection listed (largest first);
    /// `NOT_FOUND` when none was run.
    pub(crate) async fn gathered_statistics(
        &self,
        profile_id: &str,
        table: &str,
    ) -> Result<CollectionStats, CommandError> {
        let pool = self.profile_store().await?.pool();
        let row =
            sqlx::query("SELECT stats FROM collection_statistics WHERE profile_id = ? AND table_name = ?")
                .bind(profile_id)
                .bind(table)
                .fetch_optional(pool)
                .await
                .map_err(storage)?;
        match row {
            Some(row) => serde_json::from_str(row.get::<&str, _>(0)).map_err(storage),
            None => Err(CommandError::new(
                ErrorCode::NotFound,
                format!(
                    "No statistics of {table} yet: on this connection they come from a scan. See its cost and start it from the table overview."
                ),
            )),
        }
    }
}

/// The statistics as the UI gets them: the largest `STATS_COLLECTIONS` collections listed.
pub(crate) fn largest_only(mut stats: CollectionStats) -> CollectionStats {
    stats.collections.truncate(STATS_COLLECTIONS);
    stats
}

#[cfg(test)]
mod tests {
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
}
