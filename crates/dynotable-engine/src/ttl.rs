//! Time to Live: UpdateTimeToLive, DescribeTimeToLive, and the sweep that deletes expired items.
//!
//! Rules (DG `TTL.html`, `howitworks-ttl.html`; rule B.3 "TTL deletions"):
//! - the TTL attribute holds an expiry in epoch seconds as a Number; items whose attribute is
//!   missing or not a number are never touched;
//! - an expired item is deleted by the service in the background, without consuming write
//!   capacity; until then it is still read, queried and scanned like any other;
//! - items whose expiry is more than five years in the past are not deleted;
//! - a TTL deletion appears in the table's stream as a REMOVE with the service as its user;
//! - TTL may be enabled or disabled once per table per hour (rule B.7).
//!
//! The engine keeps every item's expiry in the `expiries` table, inside each write's
//! transaction (`expiry::track_expiry`, called by `items::write_item`), so a sweep reads only
//! what has expired.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sqlx::{Row, SqliteConnection};

use crate::catalog::{TableSchema, TtlSchema};
use crate::entry::{StorageKey, decode_entry};
use crate::expiry::track_expiry;
use crate::items::{self, WriteContext};
use crate::shape::Shape;
use crate::streams::Origin;
use crate::write_tx::{StatementBatch, WriteTx};
use crate::{ApiError, Engine, begin_write, storage};

/// TTL deletes nothing that expired more than five years ago (DG `howitworks-ttl.html`).
const FIVE_YEARS_SECONDS: f64 = 5.0 * 365.0 * 24.0 * 3600.0;
/// One TTL change per table per hour (rule B.7).
const CHANGE_INTERVAL_SECONDS: f64 = 3600.0;
/// Items deleted per sweep transaction, so a large backlog never holds the writer for long.
const SWEEP_BATCH: i64 = 500;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct UpdateTimeToLiveInput {
    pub table_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub time_to_live_specification: Option<TimeToLiveSpecification>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure TimeToLiveSpecification")]
pub struct TimeToLiveSpecification {
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub enabled: Option<bool>,
    pub attribute_name: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct UpdateTimeToLiveOutput {
    pub time_to_live_specification: TimeToLiveSpecification,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeTimeToLiveOutput {
    pub time_to_live_description: TimeToLiveDescription,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct TimeToLiveDescription {
    pub time_to_live_status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute_name: Option<String>,
}

/// UpdateTimeToLive's member constraints, before any table is looked at.
pub(crate) fn check_shape(input: &UpdateTimeToLiveInput) -> Result<(), ApiError> {
    let mut shape = Shape::new();
    shape.table("tableName", input.table_name.as_ref());
    shape.required(
        "timeToLiveSpecification",
        input.time_to_live_specification.as_ref(),
    );
    let spec = input.time_to_live_specification.clone().unwrap_or_default();
    if input.time_to_live_specification.is_some() {
        shape.required("timeToLiveSpecification.enabled", spec.enabled.as_ref());
        match &spec.attribute_name {
            // An empty name is answered in the service's own words, below.
            Some(name) if name.is_empty() => {}
            Some(name) => shape.length("timeToLiveSpecification.attributeName", name, 1, 255),
            None => {
                shape.required::<()>("timeToLiveSpecification.attributeName", None);
            }
        }
    }
    shape.finish()?;
    // Rule B.17: an empty AttributeName has a sentence of its own, after the member list and
    // before the table is looked up.
    if spec.attribute_name.as_deref() == Some("") {
        return Err(ApiError::validation(
            "TimeToLiveSpecification.AttributeName must be non empty",
        ));
    }
    Ok(())
}

/// UpdateTimeToLive: turns a table's time to live on or off (once an hour at most).
pub async fn update_time_to_live(
    engine: &Engine,
    input: UpdateTimeToLiveInput,
) -> Result<UpdateTimeToLiveOutput, ApiError> {
    check_shape(&input)?;
    let spec = input.time_to_live_specification.clone().unwrap_or_default();
    let enabled = spec.enabled.unwrap_or(false);
    let attribute = spec.attribute_name.clone().unwrap_or_default();

    let mut writer = engine.writer().await;
    // Rule B.17: the TTL operations word a missing table as the control plane does.
    let mut table = (*engine.table_or(
        input.table_name.as_deref().unwrap_or_default(),
        ApiError::table_not_found,
    )?)
    .clone();
    let now = engine.now();
    // Unverified wordings below follow the service's as reported by its users.
    match &table.ttl {
        Some(ttl) if ttl.enabled && enabled => {
            return Err(ApiError::validation("TimeToLive is already enabled"));
        }
        Some(ttl) if !ttl.enabled && !enabled => {
            return Err(ApiError::validation("TimeToLive is already disabled"));
        }
        None if !enabled => return Err(ApiError::validation("TimeToLive is already disabled")),
        Some(ttl) if !enabled && ttl.attribute_name != attribute => {
            return Err(ApiError::validation(
                "TimeToLive is active on a different AttributeName: current AttributeName is ".to_owned()
                    + &ttl.attribute_name,
            ));
        }
        Some(ttl) if now - ttl.changed_at < CHANGE_INTERVAL_SECONDS => {
            return Err(ApiError::validation(
                "Time to live has been modified multiple times within a fixed interval",
            ));
        }
        _ => {}
    }
    table.ttl = Some(TtlSchema {
        attribute_name: attribute,
        enabled,
        changed_at: now,
    });

    let mut tx = begin_write(&mut writer).await?;
    sqlx::query("DELETE FROM expiries WHERE keyspace = ?")
        .bind(table.keyspace)
        .execute(&mut *tx)
        .await?;
    if enabled {
        index_existing_expiries(&mut tx, &table).await?;
    }
    storage::save_table(&mut tx, &table).await?;
    tx.commit().await?;
    engine.catalog_mut().insert(table.name.clone(), Arc::new(table));
    Ok(UpdateTimeToLiveOutput {
        time_to_live_specification: spec,
    })
}

/// Records the expiry of every existing item when TTL is enabled.
async fn index_existing_expiries(conn: &mut SqliteConnection, table: &TableSchema) -> Result<(), ApiError> {
    let mut cursor: (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
    loop {
        let rows = sqlx::query(
            "SELECT pk, sk, body, size FROM entries WHERE keyspace = ? AND tail = X'' AND (pk, sk) > (?, ?) ORDER BY pk, sk LIMIT 512",
        )
        .bind(table.keyspace)
        .bind(&cursor.0)
        .bind(&cursor.1)
        .fetch_all(&mut *conn)
        .await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut batch = StatementBatch::new();
        for row in rows {
            let key = StorageKey {
                pk: row.get(0),
                sk: row.get(1),
            };
            let stored = decode_entry(row.get::<&[u8], _>(2), row.get(3))?;
            track_expiry(&mut batch, table, &key, false, Some(&stored.item));
            cursor = (key.pk, key.sk);
        }
        batch.execute(conn).await?;
    }
}

pub async fn describe_time_to_live(
    engine: &Engine,
    input: crate::api::table::TableNameInput,
) -> Result<DescribeTimeToLiveOutput, ApiError> {
    let name = crate::ops::describe_table::table_name_shape(&input)?;
    // Rule B.17: a missing table as the control plane words it.
    let table = engine.table_or(&name, ApiError::table_not_found)?;
    let description = match &table.ttl {
        Some(ttl) if ttl.enabled => TimeToLiveDescription {
            time_to_live_status: "ENABLED".into(),
            attribute_name: Some(ttl.attribute_name.clone()),
        },
        _ => TimeToLiveDescription {
            time_to_live_status: "DISABLED".into(),
            attribute_name: None,
        },
    };
    Ok(DescribeTimeToLiveOutput {
        time_to_live_description: description,
    })
}

impl Engine {
    /// Deletes the items whose Time to Live has passed, on every table with TTL enabled, and
    /// trims stream records past their 24 hours. Returns how many items were deleted. The
    /// engine runs this in the background (see `Options::sweep_interval`); tests call it.
    pub async fn sweep(&self) -> Result<u64, ApiError> {
        let mut deleted = 0;
        let tables: Vec<Arc<TableSchema>> = self
            .catalog()
            .values()
            .filter(|t| t.ttl.as_ref().is_some_and(|t| t.enabled))
            .cloned()
            .collect();
        for table in tables {
            loop {
                let batch = self.sweep_batch(&table).await?;
                deleted += batch;
                if batch < SWEEP_BATCH as u64 {
                    break;
                }
            }
        }
        let mut writer = self.writer().await;
        crate::streams::trim(&mut writer, self.now()).await?;
        Ok(deleted)
    }

    async fn sweep_batch(&self, table: &Arc<TableSchema>) -> Result<u64, ApiError> {
        let now = self.now();
        let context = WriteContext {
            collection_size_limit: u64::MAX,
            now,
            origin: Origin::TimeToLive,
            history: self.inner.simulations.history(),
        };
        let mut tx = WriteTx::begin(&self.inner.writer).await;
        // The table may have changed since the list was taken.
        let Some(table) = self.catalog().get(&table.name).cloned() else {
            return Ok(0);
        };
        let keys: Vec<StorageKey> = sqlx::query(
            "SELECT pk, sk FROM expiries WHERE keyspace = ? AND expires_at < ? AND expires_at >= ? ORDER BY expires_at LIMIT ?",
        )
        .bind(table.keyspace)
        .bind(now)
        .bind(now - FIVE_YEARS_SECONDS)
        .bind(SWEEP_BATCH)
        .fetch_all(tx.flush().await?)
        .await?
        .into_iter()
        .map(|row| StorageKey { pk: row.get(0), sk: row.get(1) })
        .collect();
        let olds = tx.load_items(&table, &keys).await?;
        let mut deleted = 0;
        for (key, old) in keys.iter().zip(&olds) {
            let Some(old) = old else { continue };
            items::write_item(&mut tx, &table, &context, key, Some(old), None).await?;
            deleted += 1;
        }
        tx.commit().await?;
        Ok(deleted)
    }
}
