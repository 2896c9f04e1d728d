//! DescribeContinuousBackups: the backup settings of a table. DynoTable keeps no backups and no
//! point-in-time recovery, so every table answers what the service answers for a new table
//! (API_DescribeContinuousBackups: "Continuous backups are ENABLED on all tables at table
//! creation"; point-in-time recovery is off until UpdateContinuousBackups turns it on):
//! `ContinuousBackupsStatus` ENABLED, `PointInTimeRecoveryStatus` DISABLED.

use serde_json::{Value, json};

use crate::api::table::TableNameInput;
use crate::{ApiError, Engine, ErrorKind, ops};

pub async fn describe(engine: &Engine, input: TableNameInput) -> Result<Value, ApiError> {
    let name = ops::describe_table::table_name_shape(&input)?;
    // API_DescribeContinuousBackups, Errors: TableNotFoundException, "A source table with the
    // name TableName does not currently exist"; the service's message is `Table not found: <name>`.
    engine.table_or(&name, |name| {
        ApiError::new(
            ErrorKind::TableNotFoundException,
            format!("Table not found: {name}"),
        )
    })?;
    Ok(json!({
        "ContinuousBackupsDescription": {
            "ContinuousBackupsStatus": "ENABLED",
            "PointInTimeRecoveryDescription": { "PointInTimeRecoveryStatus": "DISABLED" }
        }
    }))
}
