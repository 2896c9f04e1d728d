//! TransactGetItems: up to 100 gets read from one consistent snapshot (one SQLite read
//! transaction), each charged 2 units per 4 KB, rounded per item (rule B.2).
//!
//! An item that an ongoing write request holds (`in_flight`: a TransactWriteItems, BatchWriteItem,
//! PutItem, UpdateItem or DeleteItem) cancels the request before anything is read:
//! `TransactionCanceledException` with `TransactionConflict` for that get and `None` for the
//! others (DG `transaction-apis.html`, "Transaction conflict handling in DynamoDB").

use std::collections::BTreeMap;
use std::sync::Arc;

use dynotable_types::ConstraintViolation;
use sqlx::Connection;

use crate::api::transact::{ItemResponse, TransactGetItemsInput, TransactGetItemsOutput};
use crate::capacity::{self, ReadKind, ReadUnits};
use crate::catalog::TableSchema;
use crate::entry::{self, StorageKey};
use crate::in_flight::ItemId;
use crate::ops::transact_write_items::{MAX_TRANSACTION_BYTES, TRANSACTION_TOO_LARGE};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

const MAX_GETS: usize = 100;

pub async fn run(engine: &Engine, input: TransactGetItemsInput) -> Result<TransactGetItemsOutput, ApiError> {
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    // Rule B.15: a missing list is null, an empty one is echoed as `[]`.
    let present = shape.required("transactItems", input.transact_items.as_ref());
    let gets = input.transact_items.unwrap_or_default();
    if present && (gets.is_empty() || gets.len() > MAX_GETS) {
        let constraint = if gets.is_empty() {
            "Member must have length greater than or equal to 1".to_owned()
        } else {
            format!("Member must have length less than or equal to {MAX_GETS}")
        };
        let rendered = if gets.is_empty() {
            "[]".to_owned()
        } else {
            format!("[{} items]", gets.len())
        };
        shape.push(ConstraintViolation {
            field: "transactItems".into(),
            value: Some(rendered),
            constraint,
        });
    }
    shape.finish()?;

    // Every action's members are checked before any table is looked up (rule B.15); list
    // members are numbered from 1 in the member's path.
    let mut shape = Shape::new();
    for (position, get) in gets.iter().enumerate() {
        let member = format!("transactItems.{}.member.get", position + 1);
        match &get.get {
            None => shape.push(ConstraintViolation::not_null(&member)),
            Some(get) => {
                shape.table(&format!("{member}.tableName"), get.table_name.as_ref());
                shape.required(&format!("{member}.key"), get.key.as_ref());
            }
        }
    }
    shape.finish()?;

    let mut planned = Vec::with_capacity(gets.len());
    let mut seen = std::collections::BTreeSet::new();
    for get in gets.into_iter().filter_map(|g| g.get) {
        let named = get.table_name.unwrap_or_default();
        let table = engine.table(&named)?;
        let key_item = get.key.map(|c| c.into_result()).transpose()?.unwrap_or_default();
        let key = StorageKey::of_key(&table, &key_item)?;
        if !seen.insert((table.name.clone(), key.clone())) {
            return Err(ApiError::validation(
                "Transaction request cannot include multiple operations on one item",
            ));
        }
        let mut placeholders = params::placeholders(get.expression_attribute_names.as_ref(), None)?;
        let projection = get
            .projection_expression
            .as_deref()
            .map(|t| placeholders.projection(t))
            .transpose()?;
        placeholders.check_unused()?;
        // Rule B.6.1, as GetItem.
        params::check_projection_key_paths(&table, projection.as_ref())?;
        planned.push((table, named, key, projection));
    }

    // "An item within a TransactGetItems request is part of an ongoing TransactWriteItems,
    // BatchWriteItem, PutItem, UpdateItem, or DeleteItem request": cancelled.
    let items: Vec<ItemId> = planned
        .iter()
        .map(|(table, _, key, _)| ItemId::new(table.keyspace, key))
        .collect();
    let held = engine.in_flight().held(&items);
    if held.iter().any(|h| *h) {
        return Err(ApiError::transaction_conflicts(&held));
    }

    // One read transaction: every get sees the same committed state.
    let mut conn = engine.reader().await?;
    let mut tx = conn.begin().await?;
    let mut found = Vec::with_capacity(planned.len());
    for (table, _, key, _) in &planned {
        found.push(entry::load_item(&mut tx, table, key).await?);
    }
    tx.commit().await?;
    // Rule B.7: "DynamoDB rejects the entire TransactGetItems request if ... the aggregate size of
    // the items in the transaction exceeded 4 MB" (API_TransactGetItems), the items as stored,
    // sized by rule B.1. The sentence is not documented: the one TransactWriteItems answers
    // (docs/compatibility.md).
    let total: u64 = found.iter().flatten().map(|s| s.size).sum();
    if total > MAX_TRANSACTION_BYTES {
        return Err(ApiError::validation(TRANSACTION_TOO_LARGE));
    }
    let mut responses = Vec::with_capacity(planned.len());
    // Per table, with the name or ARN its first get named it by (ConsumedCapacity echoes it).
    let mut units: BTreeMap<String, (Arc<TableSchema>, &str, ReadUnits)> = BTreeMap::new();
    for ((table, named, key, projection), stored) in planned.iter().zip(found) {
        let entry = units
            .entry(table.name.clone())
            .or_insert_with(|| (table.clone(), named, ReadUnits(0)));
        let item_units = capacity::item_read(stored.as_ref().map(|s| s.size), ReadKind::Transactional);
        crate::throttling::record_item(table, &key.pk, Charge::Read(item_units), &[]);
        entry.2 += item_units;
        responses.push(ItemResponse {
            item: stored.map(|s| match projection {
                Some(projection) => projection.apply(&s.item),
                None => s.item,
            }),
        });
    }
    let consumed = units
        .values()
        .filter_map(|(table, named, units)| {
            let mut consumed =
                params::consumed_capacity(report, table, named, Some(Charge::Read(*units)), &[])?;
            consumed.read_capacity_units = Some(consumed.capacity_units);
            Some(consumed)
        })
        .collect();
    Ok(TransactGetItemsOutput {
        responses,
        consumed_capacity: (report != CapacityReport::None).then_some(consumed),
    })
}
