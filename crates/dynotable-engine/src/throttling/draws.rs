//! What a request draws on: the token buckets of its tables, indexes and partitions, read from its
//! body (step 2 of the life of a request in the module above).

use std::collections::HashMap;

use super::{
    Bucket, BucketKey, Direction, Draw, INDEX_MESSAGE, KEY_RANGE_MESSAGE, Limit, Meter, TABLE_MESSAGE, Target,
};
use crate::Engine;
use crate::api::item::QueryInput;
use crate::catalog::{Billing, IndexKind, TableSchema, Throughput};
use crate::error::ThrottlingReason;

/// The partition a single-item request or a Query charges: its table's whole charge falls on
/// it (a batch's and a transaction's items record their own, [`record_item`]).
#[derive(Debug, Clone)]
pub(super) struct PartitionShare {
    pub(super) table_id: String,
    pub(super) pk: Vec<u8>,
}

/// One request of a batch: its table (the name the request gave, and the table's id), its
/// position in the table's list, and the draw on its partition.
pub(super) struct BatchEntry {
    pub(super) table: String,
    pub(super) table_id: String,
    pub(super) position: usize,
    pub(super) draw: Draw,
}

/// The requests of a BatchWriteItem or BatchGetItem body, each with the partition it draws on
/// (requests on unknown tables, or without a partition-key value, draw on none).
pub(super) fn batch_entries(engine: &Engine, operation: &str, body: &[u8]) -> Vec<BatchEntry> {
    let Ok(request) = serde_json::from_slice::<serde_json::Value>(body) else {
        return Vec::new();
    };
    let Some(items) = request.get("RequestItems").and_then(serde_json::Value::as_object) else {
        return Vec::new();
    };
    let write = operation == "BatchWriteItem";
    let direction = if write { Direction::Write } else { Direction::Read };
    let mut entries = Vec::new();
    for (name, member) in items {
        let Ok(table) = engine.table(name) else { continue };
        let list = if write {
            member.as_array()
        } else {
            member.get("Keys").and_then(serde_json::Value::as_array)
        };
        for (position, request) in list.into_iter().flatten().enumerate() {
            let key = if write {
                request
                    .get("PutRequest")
                    .and_then(|r| r.get("Item"))
                    .or_else(|| request.get("DeleteRequest").and_then(|r| r.get("Key")))
            } else {
                Some(request)
            };
            let Some(value) = key.and_then(|key| key.get(&table.key.partition.name)) else {
                continue;
            };
            entries.push(BatchEntry {
                table: name.clone(),
                table_id: table.table_id.clone(),
                position,
                draw: partition_draw(&table, partition_bytes(value), direction),
            });
        }
    }
    entries
}

/// A partition-key value (its DynamoDB JSON) in its canonical key encoding, as items are
/// stored: `{"N":"1.0"}` and `{"N":"1"}` are one partition. A value that is not a key value is
/// keyed by its JSON (the operation refuses it).
fn partition_bytes(value: &serde_json::Value) -> Vec<u8> {
    serde_json::from_value::<dynotable_types::AttributeValue>(value.clone())
        .ok()
        .and_then(|value| value.as_key_ref().map(|key| key.encode()))
        .unwrap_or_else(|| serde_json::to_vec(value).unwrap_or_default())
}

/// The draw on one partition of `table` (a hot key is throttled at the partition's ceiling).
fn partition_draw(table: &TableSchema, pk: Vec<u8>, direction: Direction) -> Draw {
    Draw {
        key: BucketKey {
            table_id: table.table_id.clone(),
            meter: Meter::Partition(pk),
            direction,
        },
        limit: Limit::partition(direction),
        reason: reason(&table.arn(), "Table", direction, "KeyRangeThroughputExceeded"),
        message: KEY_RANGE_MESSAGE,
    }
}

/// The bucket at `key`, refilled to `now` (created full).
pub(super) fn bucket<'a>(
    buckets: &'a mut HashMap<BucketKey, Bucket>,
    key: &BucketKey,
    limit: Limit,
    now: f64,
) -> &'a mut Bucket {
    let bucket = buckets.entry(key.clone()).or_insert(Bucket {
        tokens: limit.holds,
        at: now,
    });
    *bucket = bucket.refilled(limit, now);
    bucket
}

/// The buckets a request draws on, per table it names (by the name it gave).
type Groups = Vec<(String, Vec<Draw>)>;

/// Step 2: the buckets a request draws on, and the partitions it charges: the one a
/// single-item request or a Query names, one per action of a transaction (a batch's are
/// [`batch_entries`]).
pub(super) fn draws(
    engine: &Engine,
    operation: &str,
    target: &Target,
    body: &[u8],
) -> (Groups, Vec<PartitionShare>) {
    let direction = match operation {
        "GetItem" | "Query" | "Scan" | "BatchGetItem" => Direction::Read,
        "PutItem" | "UpdateItem" | "DeleteItem" | "BatchWriteItem" => Direction::Write,
        "TransactGetItems" => return transaction_draws(engine, target, Direction::Read),
        "TransactWriteItems" => return transaction_draws(engine, target, Direction::Write),
        _ => return (Vec::new(), Vec::new()),
    };
    let mut groups = Vec::new();
    let mut partitions = Vec::new();
    let names: Vec<&str> = match (&target.table_name, &target.request_items) {
        (Some(name), _) => vec![name.as_str()],
        (None, Some(items)) => items.keys().map(String::as_str).collect(),
        (None, None) => Vec::new(),
    };
    for name in names {
        let Ok(table) = engine.table(name) else { continue };
        let index = target
            .index_name
            .as_deref()
            .and_then(|index| table.index(index))
            .filter(|index| index.kind == IndexKind::Global);
        let mut draws = capacity_draws(&table, index.map(|i| i.name.as_str()), direction);
        let key_item = target.key.as_ref().or(target.item.as_ref());
        let pk = if index.is_some() {
            None
        } else if operation == "Query" {
            // A Query reads one partition (of the table, or of a local index: the same one).
            serde_json::from_slice::<QueryInput>(body)
                .ok()
                .and_then(|input| crate::ops::query::partition_read(&table, input))
        } else {
            key_item
                .and_then(|item| item.get(&table.key.partition.name))
                .map(partition_bytes)
        };
        if let Some(pk) = pk {
            draws.push(partition_draw(&table, pk.clone(), direction));
            partitions.push(PartitionShare {
                table_id: table.table_id.clone(),
                pk,
            });
        }
        groups.push((name.to_owned(), draws));
    }
    (groups, partitions)
}

/// The buckets of a provisioned table (or, for a read of a global secondary index, of the
/// index) a request draws on; a write also draws on every provisioned GSI of its table.
fn capacity_draws(table: &TableSchema, read_index: Option<&str>, direction: Direction) -> Vec<Draw> {
    let mut draws = Vec::new();
    if direction == Direction::Read
        && let Some(index) = read_index.and_then(|name| table.index(name))
    {
        if let Some(throughput) = index.throughput {
            draws.push(index_draw(table, &index.name, throughput, direction));
        }
        return draws;
    }
    if let Billing::Provisioned(throughput) = table.billing {
        draws.push(Draw {
            key: BucketKey {
                table_id: table.table_id.clone(),
                meter: Meter::Table,
                direction,
            },
            limit: Limit::provisioned(throughput, direction),
            reason: reason(&table.arn(), "Table", direction, "ProvisionedThroughputExceeded"),
            message: TABLE_MESSAGE,
        });
    }
    if direction == Direction::Write {
        for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
            if let Some(throughput) = index.throughput {
                draws.push(index_draw(table, &index.name, throughput, direction));
            }
        }
    }
    draws
}

/// The buckets each action of a transaction draws on, one group per action in request order
/// (named by its position; an action on an unknown table draws on none): its table's (and
/// indexes') capacity and its item's partition. Each action charges its partition its own units
/// ([`record_item`]), so none is listed here.
fn transaction_draws(
    engine: &Engine,
    target: &Target,
    direction: Direction,
) -> (Groups, Vec<PartitionShare>) {
    let actions = target.transact_items.as_deref().unwrap_or_default();
    let groups = actions
        .iter()
        .enumerate()
        .map(|(position, action)| {
            let operation = action.as_object().and_then(|action| action.values().next());
            let table = operation
                .and_then(|operation| operation.get("TableName"))
                .and_then(serde_json::Value::as_str)
                .and_then(|name| engine.table(name).ok());
            let Some(table) = table else {
                return (position.to_string(), Vec::new());
            };
            let mut draws = capacity_draws(&table, None, direction);
            let value = operation
                .and_then(|operation| operation.get("Key").or_else(|| operation.get("Item")))
                .and_then(|key| key.get(&table.key.partition.name));
            if let Some(value) = value {
                draws.push(partition_draw(&table, partition_bytes(value), direction));
            }
            (position.to_string(), draws)
        })
        .collect();
    (groups, Vec::new())
}

/// The draw on a provisioned global secondary index.
fn index_draw(table: &TableSchema, index: &str, throughput: Throughput, direction: Direction) -> Draw {
    Draw {
        key: BucketKey {
            table_id: table.table_id.clone(),
            meter: Meter::Index(index.to_owned()),
            direction,
        },
        limit: Limit::provisioned(throughput, direction),
        reason: reason(
            &format!("{}/index/{index}", table.arn()),
            "Index",
            direction,
            "ProvisionedThroughputExceeded",
        ),
        message: INDEX_MESSAGE,
    }
}

/// A `ThrottlingReason`: `{resource kind}{Read|Write}{limit}` and the resource's ARN.
fn reason(resource: &str, kind: &str, direction: Direction, limit: &str) -> ThrottlingReason {
    let direction = match direction {
        Direction::Read => "Read",
        Direction::Write => "Write",
    };
    ThrottlingReason {
        reason: format!("{kind}{direction}{limit}"),
        resource: resource.to_owned(),
    }
}
