//! The Streams API operations. A stream has one shard; its iterator is an opaque token holding
//! the stream, the position (records after sequence number N) and when it was issued.

use std::sync::Arc;

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::RETENTION_SECONDS;
use super::api::*;
use crate::api::body::run;
use crate::catalog::{StreamSchema, TableSchema};
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind};

/// The lengths the Streams API model gives its identifiers (rule B.21.3): a value outside them is
/// a member error, listed before any stream or shard is looked up (rule B.15).
const STREAM_ARN: (usize, usize) = (37, 1024);
const SHARD_ID: (usize, usize) = (28, 65);
const SEQUENCE_NUMBER: (usize, usize) = (21, 40);
const SHARD_ITERATOR: (usize, usize) = (1, 2048);

/// A member of `(min, max)` characters, when it is there.
fn length(shape: &mut Shape, field: &str, value: Option<&String>, (min, max): (usize, usize)) {
    if let Some(value) = value {
        shape.length(field, value, min, max);
    }
}

/// Iterators expire after 15 minutes (API_GetShardIterator).
const ITERATOR_SECONDS: f64 = 15.0 * 60.0;
/// GetRecords returns at most 1,000 records (API_GetRecords).
const MAX_RECORDS: i64 = 1000;

/// Runs one Streams operation (the part after `DynamoDBStreams_20120810.`).
pub(crate) async fn call(engine: &Engine, operation: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
    match operation {
        "ListStreams" => run(body, |input| list_streams(engine, input)).await,
        "DescribeStream" => run(body, |input| describe_stream(engine, input)).await,
        "GetShardIterator" => run(body, |input| get_shard_iterator(engine, input)).await,
        "GetRecords" => run(body, |input| get_records(engine, input)).await,
        _ => Err(ApiError::new(ErrorKind::UnknownOperationException, "")),
    }
}

/// Sequence numbers are decimal strings; here the record's row number, zero-padded to 21 digits.
fn sequence_number(seq: i64) -> String {
    format!("{seq:021}")
}

fn shard_id(stream: &StreamSchema) -> String {
    format!(
        "shardId-{:020}-{:08x}",
        (stream.created_at * 1000.0) as i64,
        stream.id
    )
}

fn not_found(what: &str) -> ApiError {
    ApiError::new(
        ErrorKind::ResourceNotFoundException,
        format!("Requested resource not found: {what}"),
    )
}

/// The table and stream an ARN names (`<table arn>/stream/<label>`).
fn stream_of(engine: &Engine, arn: &str) -> Result<(Arc<TableSchema>, StreamSchema), ApiError> {
    let (table_arn, label) = arn
        .split_once("/stream/")
        .ok_or_else(|| ApiError::validation(format!("Invalid StreamArn: {arn}")))?;
    let table = engine
        .table(table_arn)
        .map_err(|_| not_found(&format!("Stream: {arn} not found")))?;
    let stream = table
        .streams
        .iter()
        .find(|s| s.label == label && table.arn() == table_arn)
        .cloned()
        .ok_or_else(|| not_found(&format!("Stream: {arn} not found")))?;
    Ok((table, stream))
}

async fn list_streams(engine: &Engine, input: ListStreamsInput) -> Result<ListStreamsOutput, ApiError> {
    let mut shape = Shape::new();
    // Streams API Reference, ListStreams: TableName is a table's name (3 to 255 characters of
    // [a-zA-Z0-9_.-]; the Streams API model gives it the shape `TableName`, not `TableArn` as
    // DynamoDB's operations have): an ARN is refused as any other value outside the pattern.
    if input.table_name.is_some() {
        shape.name("tableName", input.table_name.as_ref());
    }
    // Limit, valid range 1 to 100.
    shape.at_least("limit", input.limit, 1);
    shape.at_most("limit", input.limit, 100);
    length(
        &mut shape,
        "exclusiveStartStreamArn",
        input.exclusive_start_stream_arn.as_ref(),
        STREAM_ARN,
    );
    shape.finish()?;
    let now = engine.now();
    let limit = input.limit.unwrap_or(100).min(100) as usize;
    let catalog = engine.catalog().clone();
    let mut streams: Vec<StreamSummary> = catalog
        .values()
        .filter(|t| input.table_name.as_deref().is_none_or(|name| name == t.name))
        .flat_map(|t| {
            // A disabled stream stays listed while its records are retained.
            t.streams
                .iter()
                .filter(move |s| s.enabled || now - s.created_at < RETENTION_SECONDS)
                .map(move |s| StreamSummary {
                    stream_arn: t.stream_arn(s),
                    table_name: t.name.clone(),
                    stream_label: s.label.clone(),
                })
        })
        .collect();
    // An ExclusiveStartStreamArn that names no listed stream is refused (not read as "from the
    // start"): see docs/compatibility.md, "Streams", for the choice. One that is no stream ARN at
    // all is a ValidationException (rule B.17), in DescribeStream's words for such a StreamArn.
    if let Some(start) = &input.exclusive_start_stream_arn {
        if !start.contains("/stream/") {
            return Err(ApiError::validation(format!("Invalid StreamArn: {start}")));
        }
        let position = streams
            .iter()
            .position(|s| &s.stream_arn == start)
            .ok_or_else(|| not_found(&format!("Stream: {start} not found")))?;
        streams.drain(..=position);
    }
    let more = streams.len() > limit;
    streams.truncate(limit);
    let last_evaluated_stream_arn = if more {
        streams.last().map(|s| s.stream_arn.clone())
    } else {
        None
    };
    Ok(ListStreamsOutput {
        streams,
        last_evaluated_stream_arn,
    })
}

/// The first and (for a disabled stream) last sequence numbers of a stream's retained records.
async fn sequence_range(
    engine: &Engine,
    stream: &StreamSchema,
) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let mut conn = engine.reader().await?;
    let row = sqlx::query("SELECT MIN(seq), MAX(seq) FROM stream_records WHERE stream_id = ?")
        .bind(stream.id)
        .fetch_one(&mut *conn)
        .await?;
    Ok((row.get(0), row.get(1)))
}

async fn describe_stream(
    engine: &Engine,
    input: DescribeStreamInput,
) -> Result<DescribeStreamOutput, ApiError> {
    let mut shape = Shape::new();
    shape.required("streamArn", input.stream_arn.as_ref());
    length(&mut shape, "streamArn", input.stream_arn.as_ref(), STREAM_ARN);
    // Streams API Reference, DescribeStream: Limit, valid range 1 to 100.
    shape.at_least("limit", input.limit, 1);
    shape.at_most("limit", input.limit, 100);
    if let Some(filter) = &input.shard_filter {
        // Streams API Reference, "ShardFilter": Type CHILD_SHARDS, ShardId 28 to 65 characters;
        // both are needed for the filter to mean anything.
        if shape.required("shardFilter.type", filter.r#type.as_ref()) {
            shape.one_of("shardFilter.type", filter.r#type.as_ref(), &["CHILD_SHARDS"]);
        }
        if shape.required("shardFilter.shardId", filter.shard_id.as_ref())
            && let Some(id) = &filter.shard_id
        {
            shape.length("shardFilter.shardId", id, SHARD_ID.0, SHARD_ID.1);
        }
    }
    length(
        &mut shape,
        "exclusiveStartShardId",
        input.exclusive_start_shard_id.as_ref(),
        SHARD_ID,
    );
    shape.finish()?;
    let arn = input.stream_arn.as_deref().unwrap_or_default();
    let (table, stream) = stream_of(engine, arn)?;
    let (first, last) = sequence_range(engine, &stream).await?;
    let shard = Shard {
        shard_id: shard_id(&stream),
        parent_shard_id: None,
        sequence_number_range: SequenceNumberRange {
            starting_sequence_number: sequence_number(first.unwrap_or(1)),
            ending_sequence_number: if stream.enabled {
                None
            } else {
                Some(sequence_number(last.unwrap_or(0)))
            },
        },
    };
    let mut shards = vec![shard];
    // A filter's shard id the stream does not have is refused, as GetShardIterator refuses it
    // (the service's answer is not recorded: docs/compatibility.md, "Streams").
    if let Some(parent) = input.shard_filter.as_ref().and_then(|f| f.shard_id.as_deref()) {
        if !shards.iter().any(|s| s.shard_id == parent) {
            return Err(not_found(&format!("Shard: {parent} in Stream: {arn} not found")));
        }
        shards.retain(|s| s.parent_shard_id.as_deref() == Some(parent));
    }
    // Rule B.17: ExclusiveStartShardId is a position in the shards' id order, not a shard that
    // must exist: the shards after it, none for an id after them all.
    if let Some(start) = input.exclusive_start_shard_id.as_deref() {
        shards.retain(|s| s.shard_id.as_str() > start);
    }
    Ok(DescribeStreamOutput {
        stream_description: StreamDescription {
            stream_arn: table.stream_arn(&stream),
            stream_label: stream.label.clone(),
            stream_status: if stream.enabled { "ENABLED" } else { "DISABLED" }.into(),
            stream_view_type: stream.view_type.clone(),
            creation_request_date_time: stream.created_at,
            table_name: table.name.clone(),
            key_schema: table.key.to_api(),
            shards,
        },
    })
}

/// What an iterator holds.
#[derive(Debug, Serialize, Deserialize)]
struct Position {
    arn: String,
    /// Records with a sequence number above this.
    after: i64,
    issued: f64,
}

fn encode_iterator(position: &Position) -> String {
    base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(position).unwrap_or_default())
}

fn decode_iterator(text: &str) -> Result<Position, ApiError> {
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(|| ApiError::validation("Invalid ShardIterator"))
}

async fn get_shard_iterator(
    engine: &Engine,
    input: GetShardIteratorInput,
) -> Result<GetShardIteratorOutput, ApiError> {
    let mut shape = Shape::new();
    shape.required("streamArn", input.stream_arn.as_ref());
    length(&mut shape, "streamArn", input.stream_arn.as_ref(), STREAM_ARN);
    shape.required("shardId", input.shard_id.as_ref());
    length(&mut shape, "shardId", input.shard_id.as_ref(), SHARD_ID);
    shape.required("shardIteratorType", input.shard_iterator_type.as_ref());
    shape.one_of(
        "shardIteratorType",
        input.shard_iterator_type.as_ref(),
        &[
            "TRIM_HORIZON",
            "LATEST",
            "AT_SEQUENCE_NUMBER",
            "AFTER_SEQUENCE_NUMBER",
        ],
    );
    length(
        &mut shape,
        "sequenceNumber",
        input.sequence_number.as_ref(),
        SEQUENCE_NUMBER,
    );
    shape.finish()?;
    // The iterator type and SequenceNumber must agree, a check of the request alone, made before
    // the stream is looked up (rule B.15): AT_ and AFTER_SEQUENCE_NUMBER need a sequence number,
    // and TRIM_HORIZON and LATEST refuse one (rule B.17: a ValidationException). Both sentences
    // are ours (unverified: the service's are not recorded).
    let sequence = match (input.shard_iterator_type.as_deref(), input.sequence_number.as_deref()) {
        (Some("TRIM_HORIZON" | "LATEST"), Some(_)) => {
            return Err(ApiError::validation(
                "SequenceNumber can only be given with AT_SEQUENCE_NUMBER and AFTER_SEQUENCE_NUMBER",
            ));
        }
        (Some("TRIM_HORIZON" | "LATEST"), None) => None,
        (_, number) => Some(number.and_then(|s| s.parse::<i64>().ok()).ok_or_else(|| {
            ApiError::validation(
                "SequenceNumber is required and must be a sequence number for AT_SEQUENCE_NUMBER and AFTER_SEQUENCE_NUMBER",
            )
        })?),
    };
    let arn = input.stream_arn.clone().unwrap_or_default();
    let (_, stream) = stream_of(engine, &arn)?;
    if input.shard_id.as_deref() != Some(shard_id(&stream).as_str()) {
        return Err(not_found(&format!(
            "Shard: {} in Stream: {arn} not found",
            input.shard_id.unwrap_or_default()
        )));
    }
    let (first, last) = sequence_range(engine, &stream).await?;
    let after = match (input.shard_iterator_type.as_deref(), sequence) {
        (Some("TRIM_HORIZON"), _) => first.map_or(last.unwrap_or(0), |f| f - 1),
        (Some("AT_SEQUENCE_NUMBER"), Some(number)) => number - 1,
        (_, Some(number)) => number,
        // LATEST.
        (_, None) => last.unwrap_or(first.map_or(0, |f| f - 1)),
    };
    if let Some(first) = first
        && after + 1 < first
        && input.shard_iterator_type.as_deref() != Some("TRIM_HORIZON")
    {
        return Err(ApiError::new(
            ErrorKind::TrimmedDataAccessException,
            "The operation attempted to read past the oldest stream record in a shard.",
        ));
    }
    let iterator = encode_iterator(&Position {
        arn,
        after,
        issued: engine.now(),
    });
    Ok(GetShardIteratorOutput {
        shard_iterator: iterator,
    })
}

async fn get_records(engine: &Engine, input: GetRecordsInput) -> Result<GetRecordsOutput, ApiError> {
    let mut shape = Shape::new();
    shape.required("shardIterator", input.shard_iterator.as_ref());
    length(
        &mut shape,
        "shardIterator",
        input.shard_iterator.as_ref(),
        SHARD_ITERATOR,
    );
    // Streams API Reference, GetRecords: Limit, valid range 1 to 1000.
    shape.at_least("limit", input.limit, 1);
    shape.at_most("limit", input.limit, MAX_RECORDS);
    shape.finish()?;
    let position = decode_iterator(input.shard_iterator.as_deref().unwrap_or_default())?;
    let now = engine.now();
    if now - position.issued > ITERATOR_SECONDS {
        return Err(ApiError::new(
            ErrorKind::ExpiredIteratorException,
            format!(
                "Iterator expired. The iterator was created at time {} while right now it's {} which is further in the future than the tolerated delay of 900000 milliseconds.",
                position.issued, now
            ),
        ));
    }
    let (table, stream) = stream_of(engine, &position.arn)?;
    let limit = input.limit.unwrap_or(MAX_RECORDS).min(MAX_RECORDS);
    let rows = {
        let mut conn = engine.reader().await?;
        sqlx::query(
            "SELECT seq, event_name, record, service_removal FROM stream_records
             WHERE stream_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        )
        .bind(stream.id)
        .bind(position.after)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?
    };
    let mut after = position.after;
    let mut records = Vec::with_capacity(rows.len());
    for row in rows {
        let seq: i64 = row.get(0);
        let event: String = row.get(1);
        let mut dynamodb: serde_json::Value =
            serde_json::from_str(row.get::<&str, _>(2)).map_err(ApiError::internal)?;
        dynamodb["SequenceNumber"] = serde_json::Value::String(sequence_number(seq));
        let mut record = serde_json::json!({
            "eventID": format!("{:032x}", seq as u128 * 0x9e37_79b9_7f4a_7c15_u128 + stream.id as u128),
            "eventName": event,
            "eventVersion": "1.1",
            "eventSource": "aws:dynamodb",
            "awsRegion": crate::identity::current().region,
            "dynamodb": dynamodb,
        });
        if row.get::<bool, _>(3) {
            // A Time to Live deletion is the service's own (DG `time-to-live-ttl-streams.html`).
            record["userIdentity"] =
                serde_json::json!({ "Type": "Service", "PrincipalId": "dynamodb.amazonaws.com" });
        }
        records.push(record);
        after = seq;
    }
    // A disabled stream's shard is closed: once read to the end, there is no next iterator.
    let current = table
        .streams
        .iter()
        .find(|s| s.id == stream.id)
        .is_some_and(|s| s.enabled);
    let next_shard_iterator = if !current && records.is_empty() {
        None
    } else {
        Some(encode_iterator(&Position {
            arn: position.arn,
            after,
            issued: now,
        }))
    };
    Ok(GetRecordsOutput {
        records,
        next_shard_iterator,
    })
}
