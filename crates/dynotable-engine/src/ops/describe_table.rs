//! DescribeTable: the table's definition with its live item count and size, and each index's.
//! DynamoDB refreshes ItemCount and TableSizeBytes about every six hours; the engine keeps them
//! exact, updated in every write's transaction (see docs/compatibility.md).

use crate::api::table::{
    BillingModeSummary, DescribeTableOutput, GlobalSecondaryIndexDescription, LocalSecondaryIndexDescription,
    ProvisionedThroughputDescription, TableClassSummary, TableDescription, TableNameInput,
};
use sqlx::SqliteConnection;

use crate::api::StreamSpecification;
use crate::catalog::{Billing, IndexKind, TableSchema, Throughput};
use crate::shape::Shape;
use crate::{ApiError, Engine, storage};

pub async fn run(engine: &Engine, input: TableNameInput) -> Result<DescribeTableOutput, ApiError> {
    let name = table_name_shape(&input)?;
    let table = engine.table_or(&name, ApiError::table_not_found)?;
    let mut conn = engine.reader().await?;
    Ok(DescribeTableOutput {
        table: describe(&mut conn, &table, "ACTIVE").await?,
    })
}

/// Shape check shared by the operations whose request is only a table name; the TableName as
/// given (a name or an ARN), for `Engine::table_or`.
pub(crate) fn table_name_shape(input: &TableNameInput) -> Result<String, ApiError> {
    let mut shape = Shape::new();
    shape.table("tableName", input.table_name.as_ref());
    shape.finish()?;
    Ok(input.table_name.clone().unwrap_or_default())
}

/// The description of `table` with `status`, with live counts read from storage.
pub(crate) async fn describe(
    conn: &mut SqliteConnection,
    table: &TableSchema,
    status: &str,
) -> Result<TableDescription, ApiError> {
    let (item_count, size_bytes) = storage::keyspace_totals(conn, table.keyspace).await?;
    let arn = table.arn();

    let mut lsis = Vec::new();
    let mut gsis = Vec::new();
    for index in &table.indexes {
        let (count, bytes) = storage::keyspace_totals(conn, index.keyspace).await?;
        let index_arn = format!("{arn}/index/{}", index.name);
        match index.kind {
            IndexKind::Local => lsis.push(LocalSecondaryIndexDescription {
                index_name: index.name.clone(),
                key_schema: index.key.to_api(),
                projection: index.projection.to_api(),
                index_size_bytes: bytes,
                item_count: count,
                index_arn,
            }),
            IndexKind::Global => gsis.push(GlobalSecondaryIndexDescription {
                index_name: index.name.clone(),
                key_schema: index.key.to_api(),
                projection: index.projection.to_api(),
                index_status: "ACTIVE".into(),
                backfilling: None,
                provisioned_throughput: throughput_description(index.throughput),
                index_size_bytes: bytes,
                item_count: count,
                index_arn,
            }),
        }
    }

    let (throughput, billing_summary) = match table.billing {
        Billing::Provisioned(t) => (throughput_description(Some(t)), None),
        Billing::PayPerRequest => (
            throughput_description(None),
            Some(BillingModeSummary {
                billing_mode: "PAY_PER_REQUEST".into(),
                last_update_to_pay_per_request_date_time: Some(table.created_at),
            }),
        ),
    };

    Ok(TableDescription {
        attribute_definitions: table.attribute_definitions_api(),
        table_name: table.name.clone(),
        key_schema: table.key.to_api(),
        table_status: status.to_owned(),
        creation_date_time: table.created_at,
        provisioned_throughput: throughput,
        table_size_bytes: size_bytes,
        item_count,
        table_arn: arn,
        table_id: table.table_id.clone(),
        billing_mode_summary: billing_summary,
        local_secondary_indexes: (!lsis.is_empty()).then_some(lsis),
        global_secondary_indexes: (!gsis.is_empty()).then_some(gsis),
        stream_specification: table.active_stream().map(|s| StreamSpecification {
            stream_enabled: Some(true),
            stream_view_type: Some(s.view_type.clone()),
        }),
        latest_stream_label: table.streams.last().map(|s| s.label.clone()),
        latest_stream_arn: table.streams.last().map(|s| table.stream_arn(s)),
        deletion_protection_enabled: table.deletion_protection,
        table_class_summary: (table.table_class != "STANDARD").then(|| TableClassSummary {
            table_class: table.table_class.clone(),
        }),
    })
}

/// On-demand tables and indexes report zero provisioned units, as the service does.
fn throughput_description(t: Option<Throughput>) -> ProvisionedThroughputDescription {
    let t = t.unwrap_or(Throughput { read: 0, write: 0 });
    ProvisionedThroughputDescription {
        last_increase_date_time: None,
        last_decrease_date_time: None,
        number_of_decreases_today: 0,
        read_capacity_units: t.read,
        write_capacity_units: t.write,
    }
}
