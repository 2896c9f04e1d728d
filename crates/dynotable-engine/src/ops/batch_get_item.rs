//! BatchGetItem: up to 100 keys over one or more tables, each read like a GetItem and charged
//! like one (rule B.2: rounded per item); what does not fit in the 16 MB response comes back in
//! `UnprocessedKeys` (rule B.7).

use std::collections::BTreeSet;

use dynotable_types::Item;

use crate::api::item::{BatchGetItemInput, BatchGetItemOutput, KeysAndAttributes};
use crate::capacity::{self, ReadKind, ReadUnits};
use crate::entry::{self, StorageKey};
use crate::legacy;
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// Rule B.7: at most 100 keys in one BatchGetItem, at most 16 MB returned.
const MAX_KEYS: usize = 100;
const MAX_RESPONSE_BYTES: u64 = 16 * 1024 * 1024;

pub async fn run(engine: &Engine, input: BatchGetItemInput) -> Result<BatchGetItemOutput, ApiError> {
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    let Some(request_items) = input.request_items else {
        shape.required::<()>("requestItems", None);
        shape.finish()?;
        return Err(ApiError::validation(
            "The requestItems parameter is required for BatchGetItem",
        ));
    };
    for (name, request) in &request_items {
        shape.table(&format!("requestItems.{name}.member.tableName"), Some(name));
        match &request.keys {
            None => {
                shape.required::<()>(&format!("requestItems.{name}.member.keys"), None);
            }
            Some(keys) => {
                legacy::shape_attributes_to_get(
                    &mut shape,
                    &format!("requestItems.{name}.member.attributesToGet"),
                    request.attributes_to_get.as_ref(),
                );
                // A list with a bad value in it is not empty: its value error comes after the
                // member list (rule B.15), not a length violation.
                let count = keys.0.as_ref().map_or(1, Vec::len);
                if count > MAX_KEYS {
                    // Rule B.10: the service renders this one without a value.
                    return Err(ApiError::validation(format!(
                        "1 validation error detected: Value at 'RequestItems.{name}.member.Keys' failed to satisfy constraint: Member must have length less than or equal to {MAX_KEYS}"
                    )));
                } else if count == 0 {
                    shape.list_length(&format!("requestItems.{name}.member.keys"), "[]", 0, 1, MAX_KEYS);
                }
            }
        }
    }
    shape.finish()?;
    if request_items.is_empty() {
        return Err(ApiError::validation(
            "The requestItems parameter is required for BatchGetItem",
        ));
    }
    let total: usize = request_items
        .values()
        .map(|r| {
            r.keys
                .as_ref()
                .and_then(|k| k.0.as_ref().ok())
                .map_or(0, Vec::len)
        })
        .sum();
    if total > MAX_KEYS {
        return Err(ApiError::validation(
            "Too many items requested for the BatchGetItem call",
        ));
    }

    // Rule B.15: the key values of every table are checked before any table is looked up.
    for request in request_items.values() {
        if let Some(Err(err)) = request.keys.as_ref().map(|k| &k.0) {
            return Err(err.clone().into());
        }
    }

    // Validate every table's request before reading anything.
    struct TableRead {
        name: String,
        table: std::sync::Arc<crate::catalog::TableSchema>,
        keys: Vec<(Item, StorageKey)>,
        projection: Option<dynotable_expr::Projection>,
        kind: ReadKind,
        request: KeysAndAttributes,
    }
    let mut reads = Vec::new();
    for (name, request) in request_items {
        let keys: Vec<Item> = request
            .keys
            .clone()
            .map(|k| k.into_result())
            .transpose()?
            .unwrap_or_default();
        let expressions = [("ProjectionExpression", request.projection_expression.is_some())];
        legacy::refuse_mixing(
            &[("AttributesToGet", request.attributes_to_get.is_some())],
            &expressions,
        )?;
        // Rule B.6: names without a ProjectionExpression, as GetItem answers them (dynalite's
        // batchGetItem tests record the same sentence from the service).
        params::names_without_expression(request.expression_attribute_names.is_some(), &expressions)?;
        let mut placeholders = params::placeholders(request.expression_attribute_names.as_ref(), None)?;
        let mut projection = request
            .projection_expression
            .as_deref()
            .map(|t| placeholders.projection(t))
            .transpose()?;
        placeholders.check_unused()?;
        if let Some(names) = &request.attributes_to_get {
            projection = Some(legacy::attributes_to_get(names)?);
        }
        let table = engine.table(&name)?;
        let mut seen = BTreeSet::new();
        let mut located = Vec::new();
        for key in keys {
            let storage_key = StorageKey::of_key(&table, &key)?;
            if !seen.insert(storage_key.clone()) {
                return Err(ApiError::validation(
                    "Provided list of item keys contains duplicates",
                ));
            }
            located.push((key, storage_key));
        }
        // Rule B.6.1: each table's projection once its keys are checked, as GetItem does.
        params::check_projection_key_paths(&table, projection.as_ref())?;
        let kind = ReadKind::of_consistent_read(request.consistent_read.unwrap_or(false));
        reads.push(TableRead {
            name,
            table,
            keys: located,
            projection,
            kind,
            request,
        });
    }

    let mut output = BatchGetItemOutput::default();
    let mut capacities = Vec::new();
    let mut returned: u64 = 0;
    // Set once an item did not fit: that key and every later one are left for the next call.
    let mut full = false;
    // A reader connection is taken only if a key is not in the item cache.
    let mut conn = None;
    for read in reads {
        let mut units = ReadUnits(0);
        let mut items = Vec::new();
        let mut unprocessed = Vec::new();
        for (key_item, key) in read.keys {
            if full {
                unprocessed.push(key_item);
                continue;
            }
            let current = engine.read_item(&mut conn, &read.table, &key).await?;
            // Rule B.20: an eventually consistent read may see an older version when reads lag.
            let stored = engine
                .as_read(&read.table, &key, read.kind, current)
                .map(|s| entry::decode_entry(s.body.as_bytes(), s.size as i64))
                .transpose()?;
            // Rule B.7: the response stays within 16 MB ("the system returns 52 items (so as not
            // to exceed the 16 MB limit)", API_BatchGetItem): the item that would take it past
            // is not returned nor charged, and its key goes to UnprocessedKeys. The first item
            // found is always returned (an item is at most 400 KB), so a retry makes progress.
            if let Some(stored) = &stored
                && returned > 0
                && returned + stored.size > MAX_RESPONSE_BYTES
            {
                full = true;
                unprocessed.push(key_item);
                continue;
            }
            let item_units = capacity::item_read(stored.as_ref().map(|s| s.size), read.kind);
            crate::throttling::record_item(&read.table, &key.pk, Charge::Read(item_units), &[]);
            units += item_units;
            if let Some(stored) = stored {
                returned += stored.size;
                items.push(match &read.projection {
                    Some(projection) => projection.apply(&stored.item),
                    None => stored.item,
                });
            }
        }
        if !unprocessed.is_empty() {
            let mut request = read.request;
            request.keys = Some(dynotable_types::Checked(Ok(unprocessed)));
            output.unprocessed_keys.insert(read.name.clone(), request);
        }
        if let Some(consumed) =
            params::consumed_capacity(report, &read.table, &read.name, Some(Charge::Read(units)), &[])
        {
            capacities.push(consumed);
        }
        output.responses.insert(read.name, items);
    }
    output.consumed_capacity = (report != CapacityReport::None).then_some(capacities);
    Ok(output)
}
