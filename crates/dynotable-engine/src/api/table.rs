//! Control-plane shapes: CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable.

use serde::{Deserialize, Serialize};

use super::{
    AttributeDefinition, KeySchemaElement, Projection, ProvisionedThroughput, StreamSpecification, Tag,
};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct CreateTableInput {
    pub table_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub attribute_definitions: Option<Vec<AttributeDefinition>>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub key_schema: Option<Vec<KeySchemaElement>>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub local_secondary_indexes: Option<Vec<LocalSecondaryIndex>>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub global_secondary_indexes: Option<Vec<GlobalSecondaryIndex>>,
    pub billing_mode: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub provisioned_throughput: Option<ProvisionedThroughput>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub stream_specification: Option<StreamSpecification>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub tags: Option<Vec<Tag>>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub deletion_protection_enabled: Option<bool>,
    pub table_class: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure LocalSecondaryIndex")]
pub struct LocalSecondaryIndex {
    pub index_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub key_schema: Option<Vec<KeySchemaElement>>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub projection: Option<Projection>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure GlobalSecondaryIndex")]
pub struct GlobalSecondaryIndex {
    pub index_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub key_schema: Option<Vec<KeySchemaElement>>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub projection: Option<Projection>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub provisioned_throughput: Option<ProvisionedThroughput>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct CreateTableOutput {
    pub table_description: TableDescription,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TableNameInput {
    pub table_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeTableOutput {
    pub table: TableDescription,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeleteTableOutput {
    pub table_description: DeletedTableDescription,
}

/// DeleteTable's TableDescription. The service leaves out the members that describe the table's
/// schema — KeySchema, AttributeDefinitions, CreationDateTime, GlobalSecondaryIndexes and
/// LocalSecondaryIndexes — and keeps the rest (API_DeleteTable's example response carries none
/// of them; the ScyllaDB Alternator tests `test_delete_table_description*`, run against the
/// service, check that they are absent and that TableId, TableArn, BillingModeSummary and
/// ProvisionedThroughput are present).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DeletedTableDescription {
    pub table_name: String,
    pub table_status: String,
    pub provisioned_throughput: ProvisionedThroughputDescription,
    pub table_size_bytes: i64,
    pub item_count: i64,
    pub table_arn: String,
    pub table_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billing_mode_summary: Option<BillingModeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_specification: Option<StreamSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_stream_label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_stream_arn: Option<String>,
    pub deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_class_summary: Option<TableClassSummary>,
}

impl From<TableDescription> for DeletedTableDescription {
    fn from(d: TableDescription) -> DeletedTableDescription {
        DeletedTableDescription {
            table_name: d.table_name,
            table_status: d.table_status,
            provisioned_throughput: d.provisioned_throughput,
            table_size_bytes: d.table_size_bytes,
            item_count: d.item_count,
            table_arn: d.table_arn,
            table_id: d.table_id,
            billing_mode_summary: d.billing_mode_summary,
            stream_specification: d.stream_specification,
            latest_stream_label: d.latest_stream_label,
            latest_stream_arn: d.latest_stream_arn,
            deletion_protection_enabled: d.deletion_protection_enabled,
            table_class_summary: d.table_class_summary,
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ListTablesInput {
    pub exclusive_start_table_name: Option<String>,
    pub limit: Option<i64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListTablesOutput {
    pub table_names: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_evaluated_table_name: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct UpdateTableInput {
    pub table_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub attribute_definitions: Option<Vec<AttributeDefinition>>,
    pub billing_mode: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub provisioned_throughput: Option<ProvisionedThroughput>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub global_secondary_index_updates: Option<Vec<GlobalSecondaryIndexUpdate>>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub stream_specification: Option<StreamSpecification>,
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub deletion_protection_enabled: Option<bool>,
    pub table_class: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure GlobalSecondaryIndexUpdate")]
pub struct GlobalSecondaryIndexUpdate {
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub create: Option<GlobalSecondaryIndex>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub update: Option<UpdateGlobalSecondaryIndexAction>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub delete: Option<DeleteGlobalSecondaryIndexAction>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure UpdateGlobalSecondaryIndexAction")]
pub struct UpdateGlobalSecondaryIndexAction {
    pub index_name: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub provisioned_throughput: Option<ProvisionedThroughput>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure DeleteGlobalSecondaryIndexAction")]
pub struct DeleteGlobalSecondaryIndexAction {
    pub index_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct UpdateTableOutput {
    pub table_description: TableDescription,
}

/// `TableDescription`, as DescribeTable and the other control-plane operations return it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TableDescription {
    pub attribute_definitions: Vec<AttributeDefinition>,
    pub table_name: String,
    pub key_schema: Vec<KeySchemaElement>,
    pub table_status: String,
    /// Seconds since the Unix epoch, with fractions, as the JSON protocol sends timestamps.
    pub creation_date_time: f64,
    pub provisioned_throughput: ProvisionedThroughputDescription,
    pub table_size_bytes: i64,
    pub item_count: i64,
    pub table_arn: String,
    pub table_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billing_mode_summary: Option<BillingModeSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_secondary_indexes: Option<Vec<LocalSecondaryIndexDescription>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_secondary_indexes: Option<Vec<GlobalSecondaryIndexDescription>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_specification: Option<StreamSpecification>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_stream_label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_stream_arn: Option<String>,
    pub deletion_protection_enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_class_summary: Option<TableClassSummary>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ProvisionedThroughputDescription {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_increase_date_time: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_decrease_date_time: Option<f64>,
    pub number_of_decreases_today: i64,
    pub read_capacity_units: i64,
    pub write_capacity_units: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct BillingModeSummary {
    pub billing_mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_update_to_pay_per_request_date_time: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct TableClassSummary {
    pub table_class: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct LocalSecondaryIndexDescription {
    pub index_name: String,
    pub key_schema: Vec<KeySchemaElement>,
    pub projection: Projection,
    pub index_size_bytes: i64,
    pub item_count: i64,
    pub index_arn: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct GlobalSecondaryIndexDescription {
    pub index_name: String,
    pub key_schema: Vec<KeySchemaElement>,
    pub projection: Projection,
    pub index_status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backfilling: Option<bool>,
    pub provisioned_throughput: ProvisionedThroughputDescription,
    pub index_size_bytes: i64,
    pub item_count: i64,
    pub index_arn: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TagResourceInput {
    pub resource_arn: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structures")]
    pub tags: Option<Vec<Tag>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct UntagResourceInput {
    pub resource_arn: Option<String>,
    pub tag_keys: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ListTagsOfResourceInput {
    pub resource_arn: Option<String>,
    pub next_token: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListTagsOfResourceOutput {
    pub tags: Vec<Tag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_token: Option<String>,
}
