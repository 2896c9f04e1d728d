//! Staged bulk edits (issue 20, point 7): one SET/REMOVE update or a delete, staged for many
//! items (the ones the user selected, or a Query's or Scan's result), tried dry first, then
//! committed in batches or transactions, and undone.
//!
//! The life of a bulk edit:
//! 1. **Dry run** ([`App::bulk_dry_run`]). Nothing is sent but one DescribeTable. Each item's new
//!    image is computed here (SET and REMOVE of top-level attributes), and its write is priced by
//!    the app's write estimate on that table (rule B.3: the larger of the two images, each
//!    index's 0, 1 or 2 writes sized on its entry). A SET or REMOVE of a key attribute is refused
//!    with DynamoDB's message (rule B.10: `Cannot update attribute pk. This attribute is part of
//!    the key`).
//! 2. **Commit** ([`App::bulk_commit`]), refused on a read-only connection. In batches: deletes
//!    go by BatchWriteItem, 25 a request (rule B.7), `UnprocessedItems` sent again with a growing
//!    pause; updates go by UpdateItem, one a request (BatchWriteItem has no update), each with
//!    `attribute_exists(<partition key>)` so an item deleted meanwhile is not created again, and
//!    `ReturnValues=ALL_OLD` so the undo puts back the image that was really replaced. All or
//!    nothing: TransactWriteItems, 100 actions a request (rule B.7) — all or nothing holds per
//!    request of 100, and is complete when the edit has at most 100 items. Between requests the
//!    operation's cancel flag is read ([`crate::cancellation`]); progress is reported after each
//!    request. Every failure comes back with its item's key and DynamoDB's exception.
//! 3. **Undo** ([`App::bulk_undo`]): the old images of the last commit on that connection and
//!    table are put back by BatchWriteItem (puts, 25 a request). For deletes and transactional
//!    updates the old image is the item as staged (neither returns what it replaced).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeValue as Sdk, Delete, PutRequest, ReturnConsumedCapacity, ReturnValue, TransactWriteItem,
    Update, WriteRequest,
};
use serde::{Deserialize, Serialize};

use crate::costs::writes::write_estimate_on;
use crate::dto::attribute::item_to_sdk;
use crate::dto::cost::{WriteEstimate, WriteEstimateInput, WriteKindInput, WriteModeInput};
use crate::dto::{AttributeValue, Item, KeySchema};
use crate::{App, CommandError, ErrorCode};

/// BatchWriteItem's most requests per call (rule B.7).
pub const BATCH_LIMIT: usize = 25;
/// TransactWriteItems' most actions per call (rule B.7).
pub const TRANSACTION_LIMIT: usize = 100;
/// How often UnprocessedItems are sent again before they are reported as failures.
const UNPROCESSED_RETRIES: u32 = 6;

/// The change staged for every item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum BulkEdit {
    /// `SET name = value, …  REMOVE name, …` on top-level attributes.
    Update {
        set: BTreeMap<String, AttributeValue>,
        remove: Vec<String>,
    },
    Delete,
}

/// How the commit is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum BulkMode {
    /// BatchWriteItem for deletes, UpdateItem per item for updates: each item stands alone.
    Batches,
    /// TransactWriteItems, 100 items a transaction.
    AllOrNothing,
}

/// One item's part of the dry run.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BulkChange {
    pub key: Item,
    pub before: Item,
    /// The image the write leaves; `None` for a delete.
    pub after: Option<Item>,
    /// The attributes whose value the write changes (set to another value, added or removed).
    pub changed: Vec<String>,
    pub estimate: WriteEstimate,
}

/// The dry run: each item's change and what the commit will cost.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BulkPlan {
    pub changes: Vec<BulkChange>,
    /// Write units of every change, table and indexes, sent as the mode sends them.
    #[specta(type = specta_typescript::Number)]
    pub total_units: f64,
    /// Requests the commit will send.
    pub requests: u32,
}

/// Progress of a commit or an undo: items done (written or failed) of the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BulkProgress {
    pub done: u32,
    pub total: u32,
}

/// An item the commit could not write, with DynamoDB's exception.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BulkFailure {
    pub key: Item,
    pub exception: String,
    pub message: String,
}

/// What a commit or an undo did.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct BulkReport {
    pub total: u32,
    pub written: u32,
    pub failures: Vec<BulkFailure>,
    /// The user cancelled: the items neither written nor failed were not sent.
    pub cancelled: bool,
    #[specta(type = specta_typescript::Number)]
    pub consumed_units: f64,
    /// Old images the undo would put back (0 after an undo).
    pub undoable: u32,
}

/// The old images of the last commit, by connection and table.
#[derive(Debug, Default)]
pub(crate) struct UndoShelf(Mutex<HashMap<(String, String), Vec<Item>>>);

impl UndoShelf {
    fn keep(&self, profile: &str, table: &str, images: Vec<Item>) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((profile.to_owned(), table.to_owned()), images);
    }

    fn take(&self, profile: &str, table: &str) -> Option<Vec<Item>> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(profile.to_owned(), table.to_owned()))
    }
}

fn validation(message: impl Into<String>) -> CommandError {
    CommandError {
        code: ErrorCode::Validation,
        message: message.into(),
        exception: Some("ValidationException".to_owned()),
    }
}

fn key_names(keys: &KeySchema) -> Vec<&str> {
    let mut names = vec![keys.partition_key.name.as_str()];
    if let Some(sort) = &keys.sort_key {
        names.push(sort.name.as_str());
    }
    names
}

fn key_of(item: &Item, keys: &KeySchema) -> Result<Item, CommandError> {
    key_names(keys)
        .into_iter()
        .map(|name| {
            item.get(name)
                .map(|v| (name.to_owned(), v.clone()))
                .ok_or_else(|| validation(format!("An item has no {name}, a key attribute of the table.")))
        })
        .collect()
}

/// The edit's shape: something to do, no key attribute touched (rule B.10), no name both set and
/// removed (DynamoDB's "Two document paths overlap").
fn check_edit(edit: &BulkEdit, keys: &KeySchema) -> Result<(), CommandError> {
    let BulkEdit::Update { set, remove } = edit else {
        return Ok(());
    };
    if set.is_empty() && remove.is_empty() {
        return Err(validation("The update sets and removes nothing."));
    }
    for name in set.keys().chain(remove.iter()) {
        if name.is_empty() {
            return Err(validation("An attribute name cannot be empty."));
        }
        if key_names(keys).contains(&name.as_str()) {
            return Err(validation(format!(
                "One or more parameter values were invalid: Cannot update attribute {name}. This attribute is part of the key"
            )));
        }
    }
    if let Some(both) = remove.iter().find(|n| set.contains_key(*n)) {
        return Err(validation(format!(
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [{both}], path two: [{both}]"
        )));
    }
    Ok(())
}

/// The image `edit` leaves of `item`; `None` for a delete.
fn apply(edit: &BulkEdit, item: &Item) -> Option<Item> {
    match edit {
        BulkEdit::Delete => None,
        BulkEdit::Update { set, remove } => {
            let mut after = item.clone();
            for name in remove {
                after.remove(name);
            }
            for (name, value) in set {
                after.insert(name.clone(), value.clone());
            }
            Some(after)
        }
    }
}

fn changed(before: &Item, after: Option<&Item>) -> Vec<String> {
    let Some(after) = after else {
        return before.keys().cloned().collect();
    };
    let mut names: Vec<String> = before
        .keys()
        .chain(after.keys())
        .filter(|n| before.get(*n) != after.get(*n))
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    names
}

/// An UpdateExpression with its ExpressionAttributeNames and ExpressionAttributeValues.
type UpdateParts = (String, HashMap<String, String>, HashMap<String, Sdk>);

/// `SET #s0 = :s0, … REMOVE #r0, …` with its placeholders.
fn update_expression(edit: &BulkEdit) -> Result<UpdateParts, CommandError> {
    let BulkEdit::Update { set, remove } = edit else {
        return Err(validation("A delete has no update expression."));
    };
    let mut names = HashMap::new();
    let mut values = Item::new();
    let mut sets = Vec::new();
    for (i, (name, value)) in set.iter().enumerate() {
        names.insert(format!("#s{i}"), name.clone());
        values.insert(format!(":s{i}"), value.clone());
        sets.push(format!("#s{i} = :s{i}"));
    }
    let mut removes = Vec::new();
    for (i, name) in remove.iter().enumerate() {
        names.insert(format!("#r{i}"), name.clone());
        removes.push(format!("#r{i}"));
    }
    let mut expression = String::new();
    if !sets.is_empty() {
        expression.push_str(&format!("SET {}", sets.join(", ")));
    }
    if !removes.is_empty() {
        if !expression.is_empty() {
            expression.push(' ');
        }
        expression.push_str(&format!("REMOVE {}", removes.join(", ")));
    }
    Ok((expression, names, item_to_sdk(&values).map_err(validation)?))
}

fn units(capacity: Option<&aws_sdk_dynamodb::types::ConsumedCapacity>) -> f64 {
    capacity.and_then(|c| c.capacity_units()).unwrap_or(0.0)
}

fn units_of(capacities: &[aws_sdk_dynamodb::types::ConsumedCapacity]) -> f64 {
    capacities.iter().map(|c| c.capacity_units().unwrap_or(0.0)).sum()
}

/// A running commit or undo: its counts, its progress callback, its cancel flag.
struct Run<'a> {
    total: u32,
    written: u32,
    failures: Vec<BulkFailure>,
    consumed: f64,
    progress: &'a (dyn Fn(BulkProgress) + Send + Sync),
    cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Run<'_> {
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    fn report(&self) {
        (self.progress)(BulkProgress {
            done: self.written + self.failures.len() as u32,
            total: self.total,
        });
    }

    fn fail(&mut self, key: Item, err: &CommandError) {
        self.failures.push(BulkFailure {
            key,
            exception: err.exception.clone().unwrap_or_else(|| format!("{:?}", err.code)),
            message: err.message.clone(),
        });
    }

    fn finish(self, undoable: u32) -> BulkReport {
        let cancelled = self.cancelled() && self.written + (self.failures.len() as u32) < self.total;
        BulkReport {
            total: self.total,
            written: self.written,
            failures: self.failures,
            cancelled,
            consumed_units: self.consumed,
            undoable,
        }
    }
}

impl App {
    /// Each item's change under `edit` and its write cost, index writes included (rule B.3);
    /// nothing is written.
    pub async fn bulk_dry_run(
        &self,
        profile_id: &str,
        table: &str,
        items: Vec<Item>,
        edit: BulkEdit,
        mode: BulkMode,
    ) -> Result<BulkPlan, CommandError> {
        let description = self.describe_table(profile_id, table).await?;
        let keys = description.keys.clone();
        check_edit(&edit, &keys)?;
        let shape = crate::costs::table_shape(&description);
        let write_mode = match (mode, &edit) {
            (BulkMode::AllOrNothing, _) => WriteModeInput::Transactional,
            (BulkMode::Batches, BulkEdit::Delete) => WriteModeInput::Batch,
            (BulkMode::Batches, BulkEdit::Update { .. }) => WriteModeInput::Single,
        };
        let mut changes = Vec::with_capacity(items.len());
        let mut total_units = 0.0;
        for before in items {
            let key = key_of(&before, &keys)?;
            let after = apply(&edit, &before);
            let estimate = write_estimate_on(
                &shape,
                &WriteEstimateInput {
                    kind: if after.is_some() {
                        WriteKindInput::Update
                    } else {
                        WriteKindInput::Delete
                    },
                    existing: Some(before.clone()),
                    new_item: after.clone(),
                    mode: write_mode,
                    condition_fails: false,
                },
            )?;
            total_units += estimate.cost.total;
            changes.push(BulkChange {
                key,
                changed: changed(&before, after.as_ref()),
                before,
                after,
                estimate,
            });
        }
        let n = changes.len();
        let requests = match (mode, &edit) {
            (BulkMode::AllOrNothing, _) => n.div_ceil(TRANSACTION_LIMIT),
            (BulkMode::Batches, BulkEdit::Delete) => n.div_ceil(BATCH_LIMIT),
            (BulkMode::Batches, BulkEdit::Update { .. }) => n,
        };
        Ok(BulkPlan {
            changes,
            total_units,
            requests: requests as u32,
        })
    }

    /// Writes `edit` to every item, as `mode` sends it, under the cancel id `operation_id`;
    /// `progress` hears after each request. The old images are kept for [`App::bulk_undo`].
    #[allow(clippy::too_many_arguments)]
    pub async fn bulk_commit(
        &self,
        profile_id: &str,
        table: &str,
        operation_id: &str,
        items: Vec<Item>,
        edit: BulkEdit,
        mode: BulkMode,
        progress: &(dyn Fn(BulkProgress) + Send + Sync),
    ) -> Result<BulkReport, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        check_edit(&edit, &keys)?;
        let staged: Vec<(Item, Item)> = items
            .into_iter()
            .map(|item| Ok((key_of(&item, &keys)?, item)))
            .collect::<Result<_, CommandError>>()?;
        let cancel = self.inner.running.register(operation_id)?;
        let mut run = Run {
            total: staged.len() as u32,
            written: 0,
            failures: Vec::new(),
            consumed: 0.0,
            progress,
            cancel,
        };
        let mut old_images = Vec::new();
        let client = &session.client;
        let sent = match (mode, &edit) {
            (BulkMode::AllOrNothing, _) => {
                transactions(client, table, &keys, &staged, &edit, &mut run, &mut old_images).await
            }
            (BulkMode::Batches, BulkEdit::Delete) => {
                let requests: Vec<(Item, WriteRequest)> = staged
                    .iter()
                    .map(|(key, _)| Ok((key.clone(), delete_request(key)?)))
                    .collect::<Result<_, CommandError>>()?;
                let images: HashMap<String, &Item> =
                    staged.iter().map(|(k, item)| (key_text(k), item)).collect();
                let written = batches(client, table, &keys, requests, &mut run).await;
                old_images.extend(
                    written
                        .iter()
                        .filter_map(|k| images.get(&key_text(k)).map(|i| (*i).clone())),
                );
                Ok(())
            }
            (BulkMode::Batches, BulkEdit::Update { .. }) => {
                updates(client, table, &keys, &staged, &edit, &mut run, &mut old_images).await
            }
        };
        self.inner.running.remove(operation_id);
        sent?;
        let undoable = old_images.len() as u32;
        self.inner.bulk_undo.keep(profile_id, table, old_images);
        Ok(run.finish(undoable))
    }

    /// Puts back the old images of the last bulk commit on this connection and table.
    pub async fn bulk_undo(
        &self,
        profile_id: &str,
        table: &str,
        operation_id: &str,
        progress: &(dyn Fn(BulkProgress) + Send + Sync),
    ) -> Result<BulkReport, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let keys = self.key_schema_of(profile_id, table, None).await?;
        let Some(images) = self.inner.bulk_undo.take(profile_id, table) else {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!("There is no bulk edit of {table} to undo on this connection."),
            ));
        };
        let requests: Vec<(Item, WriteRequest)> = images
            .iter()
            .map(|item| Ok((key_of(item, &keys)?, put_request(item)?)))
            .collect::<Result<_, CommandError>>()?;
        let cancel = self.inner.running.register(operation_id)?;
        let mut run = Run {
            total: requests.len() as u32,
            written: 0,
            failures: Vec::new(),
            consumed: 0.0,
            progress,
            cancel,
        };
        let written = batches(&session.client, table, &keys, requests, &mut run).await;
        self.inner.running.remove(operation_id);
        // What was not put back stays undoable.
        let done: std::collections::HashSet<String> = written.iter().map(key_text).collect();
        let left: Vec<Item> = images
            .into_iter()
            .filter(|i| {
                key_of(i, &keys)
                    .map(|k| !done.contains(&key_text(&k)))
                    .unwrap_or(false)
            })
            .collect();
        let undoable = left.len() as u32;
        if !left.is_empty() {
            self.inner.bulk_undo.keep(profile_id, table, left);
        }
        Ok(run.finish(undoable))
    }
}

/// A key as text, to match keys across requests (the SDK's maps have no order).
fn key_text(key: &Item) -> String {
    serde_json::to_string(key).unwrap_or_default()
}

fn delete_request(key: &Item) -> Result<WriteRequest, CommandError> {
    let delete = aws_sdk_dynamodb::types::DeleteRequest::builder()
        .set_key(Some(item_to_sdk(key).map_err(validation)?))
        .build()
        .map_err(|e| validation(e.to_string()))?;
    Ok(WriteRequest::builder().delete_request(delete).build())
}

fn put_request(item: &Item) -> Result<WriteRequest, CommandError> {
    let put = PutRequest::builder()
        .set_item(Some(item_to_sdk(item).map_err(validation)?))
        .build()
        .map_err(|e| validation(e.to_string()))?;
    Ok(WriteRequest::builder().put_request(put).build())
}

/// The key of a write request, as the app's item.
fn request_key(request: &WriteRequest, keys: &KeySchema) -> Option<Item> {
    let map = request
        .delete_request()
        .map(|d| d.key())
        .or_else(|| request.put_request().map(|p| p.item()))?;
    let item = crate::dto::attribute::item_from_sdk(map);
    key_of(&item, keys).ok()
}

/// BatchWriteItem in requests of 25, UnprocessedItems sent again; the keys written.
async fn batches(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: &KeySchema,
    requests: Vec<(Item, WriteRequest)>,
    run: &mut Run<'_>,
) -> Vec<Item> {
    let mut written = Vec::new();
    for chunk in requests.chunks(BATCH_LIMIT) {
        if run.cancelled() {
            break;
        }
        let by_key: HashMap<String, Item> = chunk.iter().map(|(k, _)| (key_text(k), k.clone())).collect();
        let mut pending: Vec<WriteRequest> = chunk.iter().map(|(_, r)| r.clone()).collect();
        let mut attempt = 0;
        loop {
            let result = client
                .batch_write_item()
                .request_items(table, pending.clone())
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await;
            match result {
                Err(err) => {
                    let err = CommandError::from_sdk(&err);
                    for request in &pending {
                        let key = request_key(request, keys).unwrap_or_default();
                        run.fail(key, &err);
                    }
                    break;
                }
                Ok(output) => {
                    run.consumed += units_of(output.consumed_capacity());
                    let unprocessed: Vec<WriteRequest> = output
                        .unprocessed_items()
                        .and_then(|m| m.get(table))
                        .cloned()
                        .unwrap_or_default();
                    let left: std::collections::HashSet<String> = unprocessed
                        .iter()
                        .filter_map(|r| request_key(r, keys))
                        .map(|k| key_text(&k))
                        .collect();
                    for request in &pending {
                        let Some(key) = request_key(request, keys) else {
                            continue;
                        };
                        if !left.contains(&key_text(&key)) {
                            run.written += 1;
                            written.push(by_key.get(&key_text(&key)).cloned().unwrap_or(key));
                        }
                    }
                    if unprocessed.is_empty() {
                        break;
                    }
                    attempt += 1;
                    if attempt > UNPROCESSED_RETRIES {
                        let err = CommandError {
                            code: ErrorCode::Throttled,
                            message: format!(
                                "DynamoDB returned the item in UnprocessedItems {} times; it was not written.",
                                attempt
                            ),
                            exception: Some("ProvisionedThroughputExceededException".to_owned()),
                        };
                        for request in &unprocessed {
                            let key = request_key(request, keys).unwrap_or_default();
                            run.fail(key, &err);
                        }
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(50 << attempt)).await;
                    pending = unprocessed;
                }
            }
        }
        run.report();
    }
    written
}

/// UpdateItem per item, each only where the item still exists.
async fn updates(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: &KeySchema,
    staged: &[(Item, Item)],
    edit: &BulkEdit,
    run: &mut Run<'_>,
    old_images: &mut Vec<Item>,
) -> Result<(), CommandError> {
    let (expression, mut names, values) = update_expression(edit)?;
    names.insert("#k".to_owned(), keys.partition_key.name.clone());
    for (key, staged_image) in staged {
        if run.cancelled() {
            break;
        }
        let result = client
            .update_item()
            .table_name(table)
            .set_key(Some(item_to_sdk(key).map_err(validation)?))
            .update_expression(&expression)
            .condition_expression("attribute_exists(#k)")
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values((!values.is_empty()).then(|| values.clone()))
            .return_values(ReturnValue::AllOld)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        match result {
            Ok(output) => {
                run.written += 1;
                run.consumed += units(output.consumed_capacity());
                old_images.push(
                    output
                        .attributes()
                        .map(crate::dto::attribute::item_from_sdk)
                        .unwrap_or_else(|| staged_image.clone()),
                );
            }
            Err(err) => run.fail(key.clone(), &CommandError::from_sdk(&err)),
        }
        run.report();
    }
    Ok(())
}

/// TransactWriteItems of 100 actions: a chunk is written whole or not at all.
async fn transactions(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    keys: &KeySchema,
    staged: &[(Item, Item)],
    edit: &BulkEdit,
    run: &mut Run<'_>,
    old_images: &mut Vec<Item>,
) -> Result<(), CommandError> {
    let mut names = HashMap::from([("#k".to_owned(), keys.partition_key.name.clone())]);
    let (expression, values) = match edit {
        BulkEdit::Update { .. } => {
            let (expression, update_names, values) = update_expression(edit)?;
            names.extend(update_names);
            (Some(expression), values)
        }
        BulkEdit::Delete => (None, HashMap::new()),
    };
    for chunk in staged.chunks(TRANSACTION_LIMIT) {
        if run.cancelled() {
            break;
        }
        let mut actions = Vec::with_capacity(chunk.len());
        for (key, _) in chunk {
            let key_map = item_to_sdk(key).map_err(validation)?;
            let action = match &expression {
                Some(expression) => TransactWriteItem::builder()
                    .update(
                        Update::builder()
                            .table_name(table)
                            .set_key(Some(key_map))
                            .update_expression(expression)
                            .condition_expression("attribute_exists(#k)")
                            .set_expression_attribute_names(Some(names.clone()))
                            .set_expression_attribute_values((!values.is_empty()).then(|| values.clone()))
                            .build()
                            .map_err(|e| validation(e.to_string()))?,
                    )
                    .build(),
                None => TransactWriteItem::builder()
                    .delete(
                        Delete::builder()
                            .table_name(table)
                            .set_key(Some(key_map))
                            .build()
                            .map_err(|e| validation(e.to_string()))?,
                    )
                    .build(),
            };
            actions.push(action);
        }
        let result = client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await;
        match result {
            Ok(output) => {
                run.written += chunk.len() as u32;
                run.consumed += units_of(output.consumed_capacity());
                old_images.extend(chunk.iter().map(|(_, image)| image.clone()));
            }
            Err(err) => {
                let whole = CommandError::from_sdk(&err);
                // The reasons, one per action in order, say which item stopped the transaction.
                let reasons = match err.as_service_error() {
                    Some(aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(e)) => {
                        e.cancellation_reasons().to_vec()
                    }
                    _ => Vec::new(),
                };
                for (i, (key, _)) in chunk.iter().enumerate() {
                    let failure = match reasons.get(i).and_then(|r| r.code().map(|c| (c, r.message()))) {
                        Some((code, message)) if code != "None" => CommandError {
                            code: whole.code,
                            message: message.unwrap_or(&whole.message).to_owned(),
                            exception: Some(code.to_owned()),
                        },
                        _ => whole.clone(),
                    };
                    run.fail(key.clone(), &failure);
                }
            }
        }
        run.report();
    }
    Ok(())
}
