//! Creating a table, from the create-table form to the service.
//!
//! The life of a draft: as the user types, the UI sends its [`NewTable`] to
//! [`App::check_new_table`]. The draft becomes the CreateTable request body exactly as it would be
//! sent ([`create_table_request`]); the embedded engine's own CreateTable validation answers for
//! it (`dynotable_engine::check_create_table`: one rule set for the engine and the form, with the
//! service's exception and message, rules B.7, B.8, B.10 in docs/dynamodb-rules.md), and so does
//! UpdateTimeToLive's for the TTL attribute; the request is rendered as code
//! (`dynotable_builder::codegen::table`). [`App::create_table`] sends the same definition through
//! the connection's SDK client (the embedded engine's or AWS's alike), then, since CreateTable
//! cannot carry a TTL attribute, enables time to live with UpdateTimeToLive once the table is
//! ACTIVE.

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, LocalSecondaryIndex,
    Projection as SdkProjection, ProjectionType as SdkProjectionType, ProvisionedThroughput,
    ScalarAttributeType, StreamSpecification, StreamViewType, TableStatus, Tag, TimeToLiveSpecification,
};
use dynotable_builder::codegen::table::{TableCode, table_code};
use serde_json::{Value, json};

use crate::dto::{
    Billing, IndexKind, KeyAttribute, KeySchema, NewTable, Projection, ProjectionType, ScalarType,
    TableDescription,
};
use crate::{App, CommandError, ErrorCode};

/// What the form shows for a draft: DynamoDB's objection, if any, and the request as code.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NewTableCheck {
    /// The first rule the draft breaks, as the service would report it; `None` when CreateTable
    /// would accept it (unless a table of that name exists).
    pub problem: Option<CommandError>,
    pub code: TableCode,
}

/// How long `create_table` waits for a new table to turn ACTIVE before enabling its TTL.
const ACTIVE_WAIT: Duration = Duration::from_secs(120);

fn type_name(ty: ScalarType) -> &'static str {
    match ty {
        ScalarType::S => "S",
        ScalarType::N => "N",
        ScalarType::B => "B",
    }
}

/// The attribute definitions of a draft: each key attribute once, in the order first used. An
/// attribute used with two types is defined twice, so the service's own objection to it
/// ("Attribute Name is duplicated: <name>") is what the user reads.
fn definitions(table: &NewTable) -> Vec<KeyAttribute> {
    let mut defined: Vec<KeyAttribute> = Vec::new();
    let keys = std::iter::once(&table.keys).chain(table.indexes.iter().map(|i| &i.keys));
    for schema in keys {
        for key in schema.partition_keys().chain(schema.sort_keys()) {
            if !defined.iter().any(|d| d == key) {
                defined.push(key.clone());
            }
        }
    }
    defined
}

/// Every HASH element, then every RANGE element (a GSI may have up to four of each, rule B.18).
fn key_schema_json(keys: &KeySchema) -> Value {
    let element = |key: &KeyAttribute, role: &str| json!({ "AttributeName": key.name, "KeyType": role });
    Value::Array(
        keys.partition_keys()
            .map(|k| element(k, "HASH"))
            .chain(keys.sort_keys().map(|k| element(k, "RANGE")))
            .collect(),
    )
}

fn projection_json(projection: &Projection) -> Value {
    match projection.ty {
        ProjectionType::All => json!({ "ProjectionType": "ALL" }),
        ProjectionType::KeysOnly => json!({ "ProjectionType": "KEYS_ONLY" }),
        ProjectionType::Include if projection.attributes.is_empty() => json!({ "ProjectionType": "INCLUDE" }),
        ProjectionType::Include => {
            json!({ "ProjectionType": "INCLUDE", "NonKeyAttributes": projection.attributes })
        }
    }
}

fn throughput_json(billing: &Billing) -> Option<Value> {
    match billing {
        Billing::OnDemand => None,
        Billing::Provisioned {
            read_units,
            write_units,
        } => Some(json!({ "ReadCapacityUnits": read_units, "WriteCapacityUnits": write_units })),
    }
}

/// The CreateTable request body for `table`, as DynamoDB's JSON protocol carries it. A GSI of a
/// provisioned table gets the table's throughput.
pub fn create_table_request(table: &NewTable) -> Value {
    let mut request = json!({
        "TableName": table.name,
        "AttributeDefinitions": definitions(table)
            .iter()
            .map(|d| json!({ "AttributeName": d.name, "AttributeType": type_name(d.ty) }))
            .collect::<Vec<_>>(),
        "KeySchema": key_schema_json(&table.keys),
        "BillingMode": match table.billing {
            Billing::OnDemand => "PAY_PER_REQUEST",
            Billing::Provisioned { .. } => "PROVISIONED",
        },
    });
    let throughput = throughput_json(&table.billing);
    if let Some(throughput) = &throughput {
        request["ProvisionedThroughput"] = throughput.clone();
    }
    let index_json = |kind: IndexKind| -> Vec<Value> {
        table
            .indexes
            .iter()
            .filter(|i| i.kind == kind)
            .map(|i| {
                let mut index = json!({
                    "IndexName": i.name,
                    "KeySchema": key_schema_json(&i.keys),
                    "Projection": projection_json(&i.projection),
                });
                if let (IndexKind::Global, Some(throughput)) = (kind, &throughput) {
                    index["ProvisionedThroughput"] = throughput.clone();
                }
                index
            })
            .collect()
    };
    let lsis = index_json(IndexKind::Local);
    if !lsis.is_empty() {
        request["LocalSecondaryIndexes"] = Value::Array(lsis);
    }
    let gsis = index_json(IndexKind::Global);
    if !gsis.is_empty() {
        request["GlobalSecondaryIndexes"] = Value::Array(gsis);
    }
    if let Some(view_type) = &table.stream_view_type {
        request["StreamSpecification"] = json!({ "StreamEnabled": true, "StreamViewType": view_type });
    }
    if !table.tags.is_empty() {
        request["Tags"] = table
            .tags
            .iter()
            .map(|t| json!({ "Key": t.key, "Value": t.value }))
            .collect();
    }
    request
}

/// DynamoDB's first objection to a draft: CreateTable's, then UpdateTimeToLive's for its TTL
/// attribute.
pub fn check_new_table(table: &NewTable) -> Option<CommandError> {
    let request = create_table_request(table);
    if let Err(err) = dynotable_engine::check_create_table(request.to_string().as_bytes()) {
        return Some(CommandError::from_engine(&err));
    }
    let ttl = table.ttl_attribute.as_ref()?;
    let update = json!({
        "TableName": table.name,
        "TimeToLiveSpecification": { "Enabled": true, "AttributeName": ttl },
    });
    dynotable_engine::check_update_time_to_live(update.to_string().as_bytes())
        .err()
        .map(|err| CommandError::from_engine(&err))
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, err.to_string())
}

/// Every HASH element, then every RANGE element (a GSI may have up to four of each, rule B.18).
pub(crate) fn sdk_key_schema(keys: &KeySchema) -> Result<Vec<KeySchemaElement>, CommandError> {
    let element = |key: &KeyAttribute, role: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(&key.name)
            .key_type(role)
            .build()
            .map_err(internal)
    };
    keys.partition_keys()
        .map(|k| element(k, KeyType::Hash))
        .chain(keys.sort_keys().map(|k| element(k, KeyType::Range)))
        .collect()
}

pub(crate) fn sdk_projection(projection: &Projection) -> SdkProjection {
    let builder = SdkProjection::builder().projection_type(match projection.ty {
        ProjectionType::All => SdkProjectionType::All,
        ProjectionType::KeysOnly => SdkProjectionType::KeysOnly,
        ProjectionType::Include => SdkProjectionType::Include,
    });
    if projection.ty == ProjectionType::Include && !projection.attributes.is_empty() {
        builder
            .set_non_key_attributes(Some(projection.attributes.clone()))
            .build()
    } else {
        builder.build()
    }
}

impl App {
    /// The create-table form's check of a draft: DynamoDB's objection and the code of the request.
    pub fn check_new_table(&self, table: &NewTable) -> NewTableCheck {
        NewTableCheck {
            problem: check_new_table(table),
            code: table_code(&create_table_request(table), table.ttl_attribute.as_deref()),
        }
    }

    /// CreateTable: the table, its keys, billing, secondary indexes, stream and tags; then its
    /// TTL attribute with UpdateTimeToLive once the table is ACTIVE. A read-only connection is
    /// refused before anything is sent.
    pub async fn create_table(
        &self,
        profile_id: &str,
        table: NewTable,
    ) -> Result<TableDescription, CommandError> {
        let session = self.session(profile_id).await?;
        session.writable()?;
        let mut call = session
            .client
            .create_table()
            .table_name(&table.name)
            .set_key_schema(Some(sdk_key_schema(&table.keys)?));
        for definition in definitions(&table) {
            call = call.attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(&definition.name)
                    .attribute_type(ScalarAttributeType::from(type_name(definition.ty)))
                    .build()
                    .map_err(internal)?,
            );
        }
        let throughput = match table.billing {
            Billing::OnDemand => {
                call = call.billing_mode(BillingMode::PayPerRequest);
                None
            }
            Billing::Provisioned {
                read_units,
                write_units,
            } => {
                let throughput = ProvisionedThroughput::builder()
                    .read_capacity_units(i64::from(read_units))
                    .write_capacity_units(i64::from(write_units))
                    .build()
                    .map_err(internal)?;
                call = call
                    .billing_mode(BillingMode::Provisioned)
                    .provisioned_throughput(throughput.clone());
                Some(throughput)
            }
        };
        for index in &table.indexes {
            let projection = sdk_projection(&index.projection);
            call = match index.kind {
                IndexKind::Global => call.global_secondary_indexes(
                    GlobalSecondaryIndex::builder()
                        .index_name(&index.name)
                        .set_key_schema(Some(sdk_key_schema(&index.keys)?))
                        .projection(projection)
                        .set_provisioned_throughput(throughput.clone())
                        .build()
                        .map_err(internal)?,
                ),
                IndexKind::Local => call.local_secondary_indexes(
                    LocalSecondaryIndex::builder()
                        .index_name(&index.name)
                        .set_key_schema(Some(sdk_key_schema(&index.keys)?))
                        .projection(projection)
                        .build()
                        .map_err(internal)?,
                ),
            };
        }
        if let Some(view_type) = &table.stream_view_type {
            call = call.stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::from(view_type.as_str()))
                    .build()
                    .map_err(internal)?,
            );
        }
        for tag in &table.tags {
            call = call.tags(
                Tag::builder()
                    .key(&tag.key)
                    .value(&tag.value)
                    .build()
                    .map_err(internal)?,
            );
        }
        call.send().await.map_err(|err| CommandError::from_sdk(&err))?;

        if let Some(attribute) = &table.ttl_attribute {
            self.wait_until_active(&session.client, &table.name).await?;
            session
                .client
                .update_time_to_live()
                .table_name(&table.name)
                .time_to_live_specification(
                    TimeToLiveSpecification::builder()
                        .enabled(true)
                        .attribute_name(attribute)
                        .build()
                        .map_err(internal)?,
                )
                .send()
                .await
                .map_err(|err| {
                    let err = CommandError::from_sdk(&err);
                    CommandError {
                        message: format!(
                            "The table {} was created, but its time to live could not be enabled: {}",
                            table.name, err.message
                        ),
                        ..err
                    }
                })?;
        }
        self.describe_table(profile_id, &table.name).await
    }

    /// Polls DescribeTable until `table` is ACTIVE (at once on the embedded engine).
    async fn wait_until_active(
        &self,
        client: &aws_sdk_dynamodb::Client,
        table: &str,
    ) -> Result<(), CommandError> {
        let started = std::time::Instant::now();
        loop {
            let output = client
                .describe_table()
                .table_name(table)
                .send()
                .await
                .map_err(|err| CommandError::from_sdk(&err))?;
            if output.table().and_then(|t| t.table_status()) == Some(&TableStatus::Active) {
                return Ok(());
            }
            if started.elapsed() > ACTIVE_WAIT {
                return Err(CommandError::new(
                    ErrorCode::Internal,
                    format!(
                        "The table {table} was created but is not ACTIVE after {} seconds; enable its time to live in Settings once it is.",
                        ACTIVE_WAIT.as_secs()
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}
