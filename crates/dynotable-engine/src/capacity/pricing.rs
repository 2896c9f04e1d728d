//! Capacity units turned into money for a request rate (rule B.12).
//!
//! # Specification
//!
//! A [`Workload`] is a steady request rate per second for reads and for writes, with the units
//! one request consumes (from an estimate: table and index units together, since on-demand bills
//! every read and write request unit, GSIs included). A month is 730 hours, as AWS prices it.
//!
//! - **On-demand**: units per second × seconds in the month = request units; cost = request
//!   units ÷ 1,000,000 × the price per million (read request units and write request units
//!   priced apart). Eventually consistent reads are already half units, transactional ones
//!   double, so no multiplier is added here.
//! - **Provisioned**: the capacity to provision is the units per second divided by the target
//!   utilisation (auto scaling's default target is 70 %; 100 % means provisioning exactly the
//!   load), rounded up to whole units, at least 1; cost = units × hours in the month × the price
//!   per unit-hour.
//! - **Storage** (optional): GB-month × the price, when the price table has one.
//!
//! Prices are data: a [`PriceTable`] is passed in, so the user can edit it. The default holds one
//! region with the date and source of its figures.

use serde::{Deserialize, Serialize};

use super::estimate::{Line, counted};
use crate::ApiError;

/// Hours in a month as AWS prices them.
pub const HOURS_PER_MONTH: f64 = 730.0;

/// Prices per region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PriceTable {
    pub regions: Vec<RegionPrices>,
}

/// One region's prices, in `currency`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegionPrices {
    pub region: String,
    pub currency: String,
    /// When these prices were in force, `YYYY-MM-DD`.
    pub as_of: String,
    /// Where they come from.
    pub source: String,
    /// On-demand, per million write request units.
    pub on_demand_write_per_million: f64,
    /// On-demand, per million read request units.
    pub on_demand_read_per_million: f64,
    /// Provisioned, per write capacity unit-hour.
    pub provisioned_wcu_hour: f64,
    /// Provisioned, per read capacity unit-hour.
    pub provisioned_rcu_hour: f64,
    /// Table storage, per GB-month, if known.
    pub storage_gb_month: Option<f64>,
}

impl PriceTable {
    pub fn region(&self, region: &str) -> Option<&RegionPrices> {
        self.regions.iter().find(|r| r.region == region)
    }
}

impl Default for PriceTable {
    /// us-east-1 (Standard table class) after AWS's 2024-11-01 price change, which halved
    /// on-demand throughput prices: $0.625 per million WRU, $0.125 per million RRU, $0.00065 per
    /// WCU-hour, $0.00013 per RCU-hour (rules B.12, from third-party summaries of the change:
    /// airbyte.com, jusdb.com, zeonedge.com — not an AWS primary source, verify before relying on
    /// it), and $0.25 per GB-month of storage (AWS DynamoDB pricing page, Standard class, beyond
    /// the free 25 GB). Other regions differ; add them to the table.
    fn default() -> PriceTable {
        PriceTable {
            regions: vec![RegionPrices {
                region: "us-east-1".into(),
                currency: "USD".into(),
                as_of: "2024-11-01".into(),
                // Shown to the user as it is: words, not a rule code (B.12 is cited in the comment above).
                source: "third-party summaries of AWS's 2024-11-01 price change, not AWS's own price list: verify against it".into(),
                on_demand_write_per_million: 0.625,
                on_demand_read_per_million: 0.125,
                provisioned_wcu_hour: 0.00065,
                provisioned_rcu_hour: 0.00013,
                storage_gb_month: Some(0.25),
            }],
        }
    }
}

/// A steady load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Workload {
    pub reads_per_second: f64,
    /// Read units one read request consumes (table and indexes).
    pub read_units_per_request: f64,
    pub writes_per_second: f64,
    /// Write units one write request consumes (table and indexes).
    pub write_units_per_request: f64,
    /// Provisioned mode: the share of provisioned capacity the load may use (0 < u ≤ 1).
    #[serde(default = "full_utilisation")]
    pub target_utilisation: f64,
    /// Bytes stored (items and index entries with their overhead), for the storage line.
    #[serde(default)]
    pub stored_bytes: u64,
}

fn full_utilisation() -> f64 {
    1.0
}

/// A month of the workload under both capacity modes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyCost {
    pub region: String,
    pub currency: String,
    pub prices_as_of: String,
    pub on_demand: ModeCost,
    pub provisioned: ModeCost,
    /// Provisioned units the load needs at the target utilisation.
    pub provisioned_rcu: u64,
    pub provisioned_wcu: u64,
    pub storage: Option<f64>,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeCost {
    pub reads: f64,
    pub writes: f64,
    pub total: f64,
}

/// What `workload` costs a month in `prices`' region. Rates and units must be finite and not
/// negative, the utilisation in (0, 1].
pub fn monthly_cost(prices: &RegionPrices, workload: &Workload) -> Result<MonthlyCost, ApiError> {
    let values = [
        workload.reads_per_second,
        workload.read_units_per_request,
        workload.writes_per_second,
        workload.write_units_per_request,
    ];
    if values.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(ApiError::validation(
            "Request rates and units must be numbers of at least 0",
        ));
    }
    let u = workload.target_utilisation;
    if !(u > 0.0 && u <= 1.0) {
        return Err(ApiError::validation(
            "The target utilisation must be more than 0 and at most 1",
        ));
    }
    let seconds = HOURS_PER_MONTH * 3600.0;
    let rcu_per_second = workload.reads_per_second * workload.read_units_per_request;
    let wcu_per_second = workload.writes_per_second * workload.write_units_per_request;

    let rru = rcu_per_second * seconds;
    let wru = wcu_per_second * seconds;
    let on_demand_reads = rru / 1e6 * prices.on_demand_read_per_million;
    let on_demand_writes = wru / 1e6 * prices.on_demand_write_per_million;

    let provision = |per_second: f64| ((per_second / u).ceil() as u64).max(1);
    let (rcu, wcu) = (provision(rcu_per_second), provision(wcu_per_second));
    let provisioned_reads = rcu as f64 * HOURS_PER_MONTH * prices.provisioned_rcu_hour;
    let provisioned_writes = wcu as f64 * HOURS_PER_MONTH * prices.provisioned_wcu_hour;
    let storage = prices
        .storage_gb_month
        .map(|p| workload.stored_bytes as f64 / (1024.0 * 1024.0 * 1024.0) * p);

    let c = &prices.currency;
    let mut lines = vec![
        Line::rule(
            "B.12",
            format!(
                "Prices for {} as of {} ({})",
                prices.region, prices.as_of, prices.source
            ),
        ),
        Line::note(format!(
            "Reads: {} requests/s × {} = {rcu_per_second} units/s; writes: {} requests/s × {} = {wcu_per_second} units/s; a month is {HOURS_PER_MONTH} hours",
            workload.reads_per_second,
            units(workload.read_units_per_request),
            workload.writes_per_second,
            units(workload.write_units_per_request)
        )),
        Line::rule(
            "B.12",
            format!(
                "On-demand: {} million RRU × {} {c} per million + {} million WRU × {} {c} per million = {:.2} {c}",
                millions(rru),
                prices.on_demand_read_per_million,
                millions(wru),
                prices.on_demand_write_per_million,
                on_demand_reads + on_demand_writes
            ),
        ),
        Line::rule(
            "B.12",
            format!(
                "Provisioned at {:.0} % utilisation: {rcu} RCU × {HOURS_PER_MONTH} h × {} {c} per RCU-hour + {wcu} WCU × {HOURS_PER_MONTH} h × {} {c} per WCU-hour = {:.2} {c}",
                u * 100.0,
                prices.provisioned_rcu_hour,
                prices.provisioned_wcu_hour,
                provisioned_reads + provisioned_writes
            ),
        ),
    ];
    if let Some(storage) = storage {
        lines.push(Line::note(format!(
            "Storage: {} at {} {c} per GB-month = {storage:.2} {c}",
            counted(workload.stored_bytes, "byte", "bytes"),
            prices.storage_gb_month.unwrap_or_default()
        )));
    }
    Ok(MonthlyCost {
        region: prices.region.clone(),
        currency: prices.currency.clone(),
        prices_as_of: prices.as_of.clone(),
        on_demand: ModeCost {
            reads: on_demand_reads,
            writes: on_demand_writes,
            total: on_demand_reads + on_demand_writes,
        },
        provisioned: ModeCost {
            reads: provisioned_reads,
            writes: provisioned_writes,
            total: provisioned_reads + provisioned_writes,
        },
        provisioned_rcu: rcu,
        provisioned_wcu: wcu,
        storage,
        lines,
    })
}

/// Units per request as the explanation says them: "1 unit", "2.5 units".
fn units(per_request: f64) -> String {
    if per_request == 1.0 {
        "1 unit".to_owned()
    } else {
        format!("{per_request} units")
    }
}

/// Request units in millions as a person reads them: whole from 100 million, else to three
/// significant digits, so a small load reads "0.0263 million", never "0 million".
fn millions(units: f64) -> String {
    let m = units / 1e6;
    if m <= 0.0 || !m.is_finite() {
        return "0".to_owned();
    }
    if m >= 100.0 {
        return format!("{m:.0}");
    }
    let decimals = (2 - m.log10().floor() as i32).max(0) as usize;
    let text = format!("{m:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn millions_of_units_are_never_rounded_to_nothing() {
        assert_eq!(millions(131_400_000.0), "131");
        assert_eq!(millions(26_280_000.0), "26.3");
        assert_eq!(millions(3_500_000.0), "3.5");
        assert_eq!(millions(26_280.0), "0.0263");
        assert_eq!(millions(1.0), "0.000001");
        assert_eq!(millions(0.0), "0");
    }

    fn us_east_1() -> RegionPrices {
        PriceTable::default().region("us-east-1").unwrap().clone()
    }

    #[test]
    fn a_million_writes_of_one_unit_cost_the_on_demand_price_per_million() {
        // 1,000,000 WRU in a month: a rate of 1e6 / (730 × 3600) writes a second.
        let rate = 1e6 / (HOURS_PER_MONTH * 3600.0);
        let cost = monthly_cost(
            &us_east_1(),
            &Workload {
                reads_per_second: 0.0,
                read_units_per_request: 0.0,
                writes_per_second: rate,
                write_units_per_request: 1.0,
                target_utilisation: 1.0,
                stored_bytes: 0,
            },
        )
        .unwrap();
        assert!((cost.on_demand.writes - 0.625).abs() < 1e-9);
        assert_eq!(cost.on_demand.reads, 0.0);
    }

    #[test]
    fn provisioned_capacity_is_the_load_over_the_utilisation_rounded_up() {
        // 100 reads/s of 0.5 RCU = 50 RCU; at 70 % → 72 RCU (71.4 rounded up).
        let cost = monthly_cost(
            &us_east_1(),
            &Workload {
                reads_per_second: 100.0,
                read_units_per_request: 0.5,
                writes_per_second: 10.0,
                write_units_per_request: 3.0,
                target_utilisation: 0.7,
                stored_bytes: 1024 * 1024 * 1024,
            },
        )
        .unwrap();
        assert_eq!(cost.provisioned_rcu, 72);
        assert_eq!(cost.provisioned_wcu, 43);
        assert!((cost.provisioned.reads - 72.0 * 730.0 * 0.00013).abs() < 1e-9);
        assert!((cost.provisioned.writes - 43.0 * 730.0 * 0.00065).abs() < 1e-9);
        // On-demand: 50 RRU/s × 2,628,000 s = 131.4 million RRU × $0.125.
        assert!((cost.on_demand.reads - 131.4 * 0.125).abs() < 1e-6);
        assert_eq!(cost.storage, Some(0.25));
    }

    #[test]
    fn bad_rates_are_refused() {
        let mut workload = Workload {
            reads_per_second: -1.0,
            read_units_per_request: 1.0,
            writes_per_second: 0.0,
            write_units_per_request: 0.0,
            target_utilisation: 1.0,
            stored_bytes: 0,
        };
        assert!(monthly_cost(&us_east_1(), &workload).is_err());
        workload.reads_per_second = 1.0;
        workload.target_utilisation = 0.0;
        assert!(monthly_cost(&us_east_1(), &workload).is_err());
    }
}
