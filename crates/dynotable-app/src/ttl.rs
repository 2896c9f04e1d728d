//! The TTL view: which items are due to expire and when, when the embedded engine sweeps next,
//! and a sweep on demand. (The deletions Time to Live made are read from the table's stream:
//! `streams.rs`, with `StreamFilter::ttl_only`.)
//!
//! The life of the view:
//! 1. [`App::ttl_overview`] reads the table's TTL attribute (DescribeTimeToLive) and, on the
//!    embedded engine, the time of its next background sweep (`Engine::next_sweep_at`; the
//!    service gives no such time: it deletes expired items "typically within a few days").
//! 2. [`App::expiring_items`] scans the table (a Scan written by `dynotable-builder`, every page,
//!    up to a page budget) for items whose TTL attribute is a Number — the only ones TTL
//!    deletes (DG `TTL.html`) — and keeps the `limit` that expire first, so memory is bounded by
//!    `limit` whatever the table's size. Each is due (expired, waiting for a sweep), pending, or
//!    too old: an expiry more than five years past is never deleted (DG `howitworks-ttl.html`).
//! 3. [`App::sweep_expired`] runs the embedded engine's sweep now (what it would do at its next
//!    scheduled time); a read-only connection refuses it.

use std::collections::{BTreeMap, BinaryHeap};

use dynotable_builder::{Direction, ReadOperation, ReadRequest, ReturnConsumedCapacity};
use serde::{Deserialize, Serialize};

use crate::dto::{AttributeValue, Item};
use crate::{App, CommandError, ErrorCode, requests};

/// Expiries more than five years in the past are never deleted (DG `howitworks-ttl.html`).
const FIVE_YEARS_SECONDS: f64 = 5.0 * 365.0 * 24.0 * 3600.0;
/// Most items the view lists.
pub const MAX_LISTED: u32 = 1000;

/// The TTL state of a table.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TtlOverview {
    pub table: String,
    /// The TTL attribute, when time to live is on.
    pub attribute: Option<String>,
    /// Whether the table is on the embedded engine (which sweeps on a schedule the app knows).
    pub embedded: bool,
    /// Now, in seconds since the epoch, as the app read it.
    #[specta(type = specta_typescript::Number)]
    pub now: f64,
    /// When the embedded engine sweeps next (seconds since the epoch).
    #[specta(type = Option<specta_typescript::Number>)]
    pub next_sweep_at: Option<f64>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub sweep_interval_seconds: Option<f64>,
}

/// Where an item stands with Time to Live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ExpiryState {
    /// Its time has not come.
    Pending,
    /// Expired: it is deleted by the next sweep (still read until then).
    Due,
    /// Expired more than five years ago: Time to Live never deletes it.
    TooOld,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExpiringItem {
    pub keys: Item,
    /// The TTL attribute's value, in epoch seconds (as a number).
    #[specta(type = specta_typescript::Number)]
    pub expires_at: f64,
    /// The attribute's number exactly as stored.
    pub expiry_text: String,
    pub state: ExpiryState,
}

/// The items that expire first.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExpiringItems {
    /// The first `limit` expiries, earliest first.
    pub items: Vec<ExpiringItem>,
    /// Items read by the scan.
    #[specta(type = specta_typescript::Number)]
    pub scanned: f64,
    /// Items read that carry a Number in the TTL attribute.
    #[specta(type = specta_typescript::Number)]
    pub with_expiry: f64,
    /// How many of those have expired (due or too old).
    #[specta(type = specta_typescript::Number)]
    pub expired: f64,
    /// Whether the whole table was read (not stopped by the page budget).
    pub complete: bool,
    #[specta(type = specta_typescript::Number)]
    pub capacity_units: f64,
}

/// What to look for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ExpiringInput {
    pub table: String,
    /// How many of the earliest expiries to keep (at most [`MAX_LISTED`]).
    pub limit: u32,
    /// Scan pages to read at most (each up to 1 MB).
    pub max_pages: u32,
}

/// A sweep run on demand.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SweepOutcome {
    /// Items deleted, on every table with TTL on.
    #[specta(type = specta_typescript::Number)]
    pub deleted: f64,
    #[specta(type = Option<specta_typescript::Number>)]
    pub next_sweep_at: Option<f64>,
}

/// An entry of the bounded heap: the greatest expiry on top, so the latest is dropped first.
struct ByExpiry(ExpiringItem);

impl PartialEq for ByExpiry {
    fn eq(&self, other: &Self) -> bool {
        self.0.expires_at.total_cmp(&other.0.expires_at).is_eq()
    }
}
impl Eq for ByExpiry {}
impl PartialOrd for ByExpiry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByExpiry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.expires_at.total_cmp(&other.0.expires_at)
    }
}

fn now_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Where an expiry stands at `now`.
pub fn expiry_state(expires_at: f64, now: f64) -> ExpiryState {
    if expires_at >= now {
        ExpiryState::Pending
    } else if expires_at < now - FIVE_YEARS_SECONDS {
        ExpiryState::TooOld
    } else {
        ExpiryState::Due
    }
}

impl App {
    /// The table's TTL attribute and, on the embedded engine, when it sweeps next.
    pub async fn ttl_overview(&self, profile_id: &str, table: &str) -> Result<TtlOverview, CommandError> {
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, table).await?;
        let (next_sweep_at, sweep_interval_seconds) = if session.is_embedded() {
            let engine = self.engine().await?;
            (
                engine.next_sweep_at(),
                engine.sweep_interval().map(|d| d.as_secs_f64()),
            )
        } else {
            (None, None)
        };
        Ok(TtlOverview {
            table: table.to_owned(),
            attribute: description.ttl_attribute,
            embedded: session.is_embedded(),
            now: now_seconds(),
            next_sweep_at,
            sweep_interval_seconds,
        })
    }

    /// The items of `input.table` that expire first (see the module's documentation).
    pub async fn expiring_items(
        &self,
        profile_id: &str,
        input: ExpiringInput,
    ) -> Result<ExpiringItems, CommandError> {
        if input.limit == 0 || input.limit > MAX_LISTED || input.max_pages == 0 {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!(
                    "List 1 to {MAX_LISTED} items from at least one page, not {} from {}.",
                    input.limit, input.max_pages
                ),
            ));
        }
        let session = self.session(profile_id).await?;
        let description = self.describe_table(profile_id, &input.table).await?;
        let attribute = description.ttl_attribute.clone().ok_or_else(|| {
            CommandError::new(
                ErrorCode::Validation,
                format!(
                    "Time to live is off on {}: turn it on in the table's Settings.",
                    input.table
                ),
            )
        })?;
        let mut key_names = vec![description.keys.partition_key.name.clone()];
        key_names.extend(description.keys.sort_key.as_ref().map(|k| k.name.clone()));
        // Only a Number is an expiry (DG `TTL.html`): the filter keeps just those.
        let names = BTreeMap::from([("#ttl".to_owned(), attribute.clone())]);
        let values = BTreeMap::from([(":number".to_owned(), AttributeValue::S("N".into()))]);
        let mut projected = key_names.clone();
        if !projected.contains(&attribute) {
            projected.push(attribute.clone());
        }
        let request = ReadRequest {
            operation: ReadOperation::Scan,
            table_name: input.table.clone(),
            index_name: None,
            key_condition: None,
            filter: requests::filter_state(
                Some("attribute_type(#ttl, :number)"),
                Some(&names),
                Some(&values),
            )?,
            projection: requests::projection_state(Some(&projected.join(", ")))?,
            direction: Direction::Ascending,
            limit: None,
            consistent_read: false,
            return_consumed_capacity: Some(ReturnConsumedCapacity::TOTAL),
        };
        let generated = requests::generate(&request)?;
        let now = now_seconds();
        let mut heap: BinaryHeap<ByExpiry> = BinaryHeap::new();
        let (mut scanned, mut with_expiry, mut expired, mut units) = (0u64, 0u64, 0u64, 0.0);
        let mut start: Option<Item> = None;
        let mut complete = false;
        for _ in 0..input.max_pages {
            let page = requests::send(&session.client, &generated, start.as_ref(), None).await?;
            scanned += u64::from(page.scanned_count);
            units += page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
            for item in &page.items {
                let Some(AttributeValue::N(text)) = item.get(&attribute) else {
                    continue;
                };
                let Ok(expires_at) = text.parse::<f64>() else {
                    continue;
                };
                with_expiry += 1;
                let state = expiry_state(expires_at, now);
                if state != ExpiryState::Pending {
                    expired += 1;
                }
                let keys = key_names
                    .iter()
                    .filter_map(|name| item.get(name).map(|v| (name.clone(), v.clone())))
                    .collect();
                heap.push(ByExpiry(ExpiringItem {
                    keys,
                    expires_at,
                    expiry_text: text.clone(),
                    state,
                }));
                if heap.len() > input.limit as usize {
                    heap.pop();
                }
            }
            match page.last_evaluated_key {
                Some(key) => start = Some(key),
                None => {
                    complete = true;
                    break;
                }
            }
        }
        Ok(ExpiringItems {
            items: heap.into_sorted_vec().into_iter().map(|e| e.0).collect(),
            scanned: scanned as f64,
            with_expiry: with_expiry as f64,
            expired: expired as f64,
            complete,
            capacity_units: units,
        })
    }

    /// Runs the embedded engine's Time to Live sweep now. Only the embedded engine has one the app
    /// can run; a read-only connection refuses it (it deletes items).
    pub async fn sweep_expired(&self, profile_id: &str) -> Result<SweepOutcome, CommandError> {
        let session = self.session(profile_id).await?;
        session.writable()?;
        if !session.is_embedded() {
            return Err(CommandError::new(
                ErrorCode::Validation,
                "Only the embedded engine sweeps on demand: DynamoDB deletes expired items on its own schedule, typically within a few days.",
            ));
        }
        let engine = self.engine().await?;
        let deleted = engine
            .sweep()
            .await
            .map_err(|err| CommandError::from_engine(&err))?;
        Ok(SweepOutcome {
            deleted: deleted as f64,
            next_sweep_at: engine.next_sweep_at(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_expiry_is_pending_due_or_too_old_to_be_deleted() {
        let now = 2_000_000_000.0;
        assert_eq!(expiry_state(now + 1.0, now), ExpiryState::Pending);
        assert_eq!(expiry_state(now - 1.0, now), ExpiryState::Due);
        assert_eq!(
            expiry_state(now - FIVE_YEARS_SECONDS + 1.0, now),
            ExpiryState::Due
        );
        assert_eq!(
            expiry_state(now - FIVE_YEARS_SECONDS - 1.0, now),
            ExpiryState::TooOld
        );
    }
}
