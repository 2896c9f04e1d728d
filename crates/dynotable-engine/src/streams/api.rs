//! Request and response shapes of the DynamoDB Streams API.

use serde::{Deserialize, Serialize};

use crate::api::KeySchemaElement;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct ListStreamsInput {
    pub table_name: Option<String>,
    pub limit: Option<i64>,
    pub exclusive_start_stream_arn: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct StreamSummary {
    pub stream_arn: String,
    pub table_name: String,
    pub stream_label: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ListStreamsOutput {
    pub streams: Vec<StreamSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_evaluated_stream_arn: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct DescribeStreamInput {
    pub stream_arn: Option<String>,
    pub limit: Option<i64>,
    pub exclusive_start_shard_id: Option<String>,
    #[serde(deserialize_with = "crate::api::objects::structure")]
    pub shard_filter: Option<ShardFilter>,
}

/// DescribeStream's `ShardFilter` (Streams API Reference, "ShardFilter"): the children of one
/// shard (`Type: CHILD_SHARDS`, the only type).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure")]
pub struct ShardFilter {
    pub r#type: Option<String>,
    pub shard_id: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeStreamOutput {
    pub stream_description: StreamDescription,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct StreamDescription {
    pub stream_arn: String,
    pub stream_label: String,
    pub stream_status: String,
    pub stream_view_type: String,
    pub creation_request_date_time: f64,
    pub table_name: String,
    pub key_schema: Vec<KeySchemaElement>,
    pub shards: Vec<Shard>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct Shard {
    pub shard_id: String,
    /// The shard this one was split from; a stream here has one shard, which has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_shard_id: Option<String>,
    pub sequence_number_range: SequenceNumberRange,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct SequenceNumberRange {
    pub starting_sequence_number: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending_sequence_number: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct GetShardIteratorInput {
    pub stream_arn: Option<String>,
    pub shard_id: Option<String>,
    pub shard_iterator_type: Option<String>,
    pub sequence_number: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetShardIteratorOutput {
    pub shard_iterator: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct GetRecordsInput {
    pub shard_iterator: Option<String>,
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct GetRecordsOutput {
    pub records: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_shard_iterator: Option<String>,
}
