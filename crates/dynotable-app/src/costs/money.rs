//! Units as money (rule B.12's price table) and as load on each partition key against the
//! per-partition ceilings (rule B.11).

use dynotable_engine::capacity::hot_partitions::{
    self, KeyDistribution, PARTITION_READ_UNITS, PARTITION_WRITE_UNITS, Traffic, WeightBy,
};
use dynotable_engine::capacity::pricing::{self, PriceTable};
use dynotable_engine::{CollectionStats as EngineStats, CollectionSummary};

use super::{engine_error, lines, validation};
use crate::dto::cost::{
    HotPartitionReport, KeyLoad, KeySpread, ModeCost, MonthlyCost, RegionPrices, TrafficInput, Workload,
};
use crate::dto::{AttributeValue, CollectionStats};
use crate::{App, CommandError, ErrorCode};

impl App {
    /// The load `traffic` puts on each partition key of `table`, against the per-partition
    /// ceilings (rule B.11).
    pub async fn hot_partitions(
        &self,
        profile_id: &str,
        table: &str,
        traffic: TrafficInput,
    ) -> Result<HotPartitionReport, CommandError> {
        let distribution = match traffic.spread {
            KeySpread::Uniform { keys } => {
                if !keys.is_finite() || keys < 1.0 {
                    return Err(validation("Spread the requests over at least one key"));
                }
                KeyDistribution::Uniform { keys: keys as u64 }
            }
            KeySpread::ByItemCount | KeySpread::ByBytes => {
                let stats = self.collection_stats(profile_id, table, None).await?;
                let by = if traffic.spread == KeySpread::ByBytes {
                    WeightBy::Bytes
                } else {
                    WeightBy::ItemCount
                };
                KeyDistribution::from_collection_stats(&engine_stats(&stats)?, by)
            }
        };
        hot_partition_report(&Traffic {
            reads_per_second: traffic.reads_per_second,
            read_units_per_request: traffic.read_units_per_request,
            writes_per_second: traffic.writes_per_second,
            write_units_per_request: traffic.write_units_per_request,
            distribution,
        })
    }
}
/// The app's statistics (live or gathered) in the engine's shape, for the key distribution.
fn engine_stats(stats: &CollectionStats) -> Result<EngineStats, CommandError> {
    let largest = stats
        .collections
        .iter()
        .map(|c| {
            let json = serde_json::to_value(&c.partition_value)
                .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?;
            Ok(CollectionSummary {
                partition_key: serde_json::from_value(json)
                    .map_err(|e| CommandError::new(ErrorCode::Internal, e.to_string()))?,
                item_count: c.item_count as u64,
                size_bytes: c.size_bytes as u64,
                limited_size_bytes: c.limited_size_bytes.map(|b| b as u64),
            })
        })
        .collect::<Result<Vec<_>, CommandError>>()?;
    Ok(EngineStats {
        distinct_partition_keys: stats.distinct_partition_keys as u64,
        item_count: stats.item_count as u64,
        size_bytes: stats.size_bytes as u64,
        largest,
        size_distribution: Vec::new(),
        collection_size_limit: stats.collection_size_limit.map(|b| b as u64),
    })
}

fn hot_partition_report(traffic: &Traffic) -> Result<HotPartitionReport, CommandError> {
    let report = hot_partitions::hot_partitions(traffic).map_err(|e| engine_error(&e))?;
    Ok(HotPartitionReport {
        partition_read_units: PARTITION_READ_UNITS,
        partition_write_units: PARTITION_WRITE_UNITS,
        table_read_units: report.table_read_units,
        table_write_units: report.table_write_units,
        throttling_keys: report.throttling_keys as f64,
        keys: report
            .keys
            .iter()
            .map(|k| {
                // A single key is named by its value as DynamoDB JSON; a group by a sentence.
                let partition_value: Option<AttributeValue> =
                    serde_json::from_str(&k.key).ok().filter(|_| k.keys == 1);
                KeyLoad {
                    label: partition_value
                        .as_ref()
                        .map_or_else(|| k.key.clone(), AttributeValue::display_text),
                    partition_value,
                    keys: k.keys as f64,
                    share: k.share,
                    read_units: k.read_units,
                    write_units: k.write_units,
                    read_ratio: k.read_ratio,
                    write_ratio: k.write_ratio,
                    throttles: k.throttles,
                    warning: k.warning,
                    lines: lines(&k.lines),
                }
            })
            .collect(),
        lines: lines(&report.lines),
    })
}

/// The default price table: one region, with the date of its figures.
pub fn default_prices() -> Vec<RegionPrices> {
    PriceTable::default()
        .regions
        .into_iter()
        .map(|r| RegionPrices {
            region: r.region,
            currency: r.currency,
            as_of: r.as_of,
            source: r.source,
            on_demand_write_per_million: r.on_demand_write_per_million,
            on_demand_read_per_million: r.on_demand_read_per_million,
            provisioned_wcu_hour: r.provisioned_wcu_hour,
            provisioned_rcu_hour: r.provisioned_rcu_hour,
            storage_gb_month: r.storage_gb_month,
        })
        .collect()
}

/// What `workload` costs a month at `prices`, on-demand and provisioned (rule B.12).
pub fn monthly_cost(prices: RegionPrices, workload: Workload) -> Result<MonthlyCost, CommandError> {
    if !workload.stored_bytes.is_finite() || workload.stored_bytes < 0.0 {
        return Err(validation("The stored bytes must be a number of at least 0"));
    }
    let cost = pricing::monthly_cost(
        &pricing::RegionPrices {
            region: prices.region,
            currency: prices.currency,
            as_of: prices.as_of,
            source: prices.source,
            on_demand_write_per_million: prices.on_demand_write_per_million,
            on_demand_read_per_million: prices.on_demand_read_per_million,
            provisioned_wcu_hour: prices.provisioned_wcu_hour,
            provisioned_rcu_hour: prices.provisioned_rcu_hour,
            storage_gb_month: prices.storage_gb_month,
        },
        &pricing::Workload {
            reads_per_second: workload.reads_per_second,
            read_units_per_request: workload.read_units_per_request,
            writes_per_second: workload.writes_per_second,
            write_units_per_request: workload.write_units_per_request,
            target_utilisation: workload.target_utilisation,
            stored_bytes: workload.stored_bytes as u64,
        },
    )
    .map_err(|e| engine_error(&e))?;
    let mode = |m: &pricing::ModeCost| ModeCost {
        reads: m.reads,
        writes: m.writes,
        total: m.total,
    };
    Ok(MonthlyCost {
        region: cost.region,
        currency: cost.currency,
        prices_as_of: cost.prices_as_of,
        on_demand: mode(&cost.on_demand),
        provisioned: mode(&cost.provisioned),
        provisioned_rcu: cost.provisioned_rcu as f64,
        provisioned_wcu: cost.provisioned_wcu as f64,
        storage: cost.storage,
        lines: lines(&cost.lines),
    })
}
