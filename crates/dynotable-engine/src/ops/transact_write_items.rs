//! TransactWriteItems: up to 100 ConditionCheck, Put, Update and Delete actions on distinct
//! items, all or nothing (rule B.7; DG `transaction-apis.html`).
//!
//! Every action is validated before anything is read (a bad action fails the whole request
//! with a ValidationException). Then, in one storage transaction under the writer lock, each
//! action's condition is checked against the current item and its new item computed; if any
//! condition fails, nothing is written and the request fails with
//! `TransactionCanceledException`, whose reasons list every action in request order. Otherwise
//! every write is applied, with index entries and collection statistics, and committed at once.
//!
//! Before it reads anything or waits for the writer, the transaction claims all its items
//! (`in_flight`). An item that another ongoing write request holds — another TransactWriteItems,
//! or a PutItem, UpdateItem, DeleteItem or BatchWriteItem still in flight — cancels the
//! transaction: `TransactionCanceledException` with `TransactionConflict` ("Transaction is
//! ongoing for the item") for that action and `None` for the others, in request order (DG
//! `transaction-apis.html`, "Transaction conflict handling in DynamoDB"). While the transaction
//! holds its items, a single-item write to one of them fails with
//! `TransactionConflictException`. The claim is released when the storage transaction has ended,
//! whether it committed, was cancelled or failed.
//!
//! `ClientRequestToken` makes the call idempotent for 10 minutes: a repeat with the same
//! parameters returns the first answer without writing again; the same token with different
//! parameters is `IdempotentParameterMismatchException`, and a repeat while the first call is
//! still running is `TransactionInProgressException`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use dynotable_expr::{Condition, ExpressionKind, Update};
use dynotable_types::{ConstraintViolation, Item, SizeCheck};

use crate::api::ConsumedCapacity;
use crate::api::body;
use crate::api::item::ItemCollectionMetrics;
use crate::api::transact::{TransactAction, TransactWriteItemsInput, TransactWriteItemsOutput};
use crate::capacity::{self, WriteUnits};
use crate::catalog::TableSchema;
use crate::entry::{self, StorageKey, StoredItem};
use crate::error::CancellationReason;
use crate::in_flight::ItemId;
use crate::items;
use crate::ops::item_write::{PreparedItem, collection_metrics};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind};

/// Rule B.7: at most 100 actions, at most 4 MB of items in one transaction (TransactGetItems
/// shares the limit and its sentence).
const MAX_ACTIONS: usize = 100;
pub(crate) const MAX_TRANSACTION_BYTES: u64 = 4 * 1024 * 1024;
pub(crate) const TRANSACTION_TOO_LARGE: &str = "Collection size of items exceeded, which can also be caused by the aggregate size of the items in the transaction exceeding the 4MB limit";
/// How long a ClientRequestToken is remembered (DG `transaction-apis.html`: 10 minutes).
const TOKEN_SECONDS: f64 = 600.0;

/// Requests seen with a ClientRequestToken, by token.
#[derive(Default)]
pub(crate) struct Tokens {
    seen: HashMap<String, Token>,
}

/// What is known of one token: the fingerprint of its request's parameters and, once the
/// request has succeeded, when and with what response.
enum Token {
    InProgress {
        fingerprint: u64,
    },
    Done {
        fingerprint: u64,
        at: f64,
        response: Vec<u8>,
    },
}

impl Token {
    fn fingerprint(&self) -> u64 {
        match self {
            Token::InProgress { fingerprint } | Token::Done { fingerprint, .. } => *fingerprint,
        }
    }
}

/// A token whose request is running; forgotten when dropped unless the request succeeded, so a
/// failed or abandoned request can be sent again with its token.
struct PendingToken<'a> {
    engine: &'a Engine,
    token: String,
}

impl PendingToken<'_> {
    fn succeeded(self, fingerprint: u64, response: Vec<u8>) {
        let at = self.engine.now();
        let mut tokens = self.engine.tokens();
        tokens.seen.insert(
            self.token.clone(),
            Token::Done {
                fingerprint,
                at,
                response,
            },
        );
    }
}

impl Drop for PendingToken<'_> {
    fn drop(&mut self) {
        let mut tokens = self.engine.tokens();
        if let Some(Token::InProgress { .. }) = tokens.seen.get(&self.token) {
            tokens.seen.remove(&self.token);
        }
    }
}

/// Runs the call, honouring ClientRequestToken idempotency: a repeat within 10 minutes of the
/// first call's success returns its response without writing again; the same token with other
/// parameters is `IdempotentParameterMismatchException`; the same token while the first call is
/// still running is `TransactionInProgressException` (API reference, TransactWriteItems). The
/// registry is locked only to look a token up or record it — never while the transaction runs,
/// so transactions with different tokens run (and conflict) as those without.
pub(crate) async fn call(engine: &Engine, body: &[u8]) -> Result<Vec<u8>, ApiError> {
    let token_and_fingerprint =
        serde_json::from_slice::<serde_json::Value>(body)
            .ok()
            .and_then(|mut value| {
                let token = value
                    .as_object_mut()?
                    .remove("ClientRequestToken")?
                    .as_str()?
                    .to_owned();
                if let Some(map) = value.as_object_mut() {
                    map.remove("ReturnConsumedCapacity");
                }
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                value.to_string().hash(&mut hasher);
                Some((token, hasher.finish()))
            });
    let Some((token, fingerprint)) = token_and_fingerprint else {
        return body::run(body, |input| run(engine, input)).await;
    };
    {
        let mut tokens = engine.tokens();
        let now = engine.now();
        tokens.seen.retain(|_, seen| match seen {
            Token::Done { at, .. } => now - *at < TOKEN_SECONDS,
            Token::InProgress { .. } => true,
        });
        match tokens.seen.get(&token) {
            Some(seen) if seen.fingerprint() != fingerprint => {
                return Err(ApiError::new(
                    ErrorKind::IdempotentParameterMismatchException,
                    "The request uses the same client token as a previous, but non-identical request.",
                ));
            }
            Some(Token::Done { response, .. }) => return Ok(response.clone()),
            Some(Token::InProgress { .. }) => {
                // Unverified wording: the API reference's description of the exception.
                return Err(ApiError::new(
                    ErrorKind::TransactionInProgressException,
                    "The transaction with the given request token is already in progress.",
                ));
            }
            None => {
                tokens
                    .seen
                    .insert(token.clone(), Token::InProgress { fingerprint });
            }
        }
    }
    let pending = PendingToken { engine, token };
    let response = body::run(body, |input| run(engine, input)).await?;
    pending.succeeded(fingerprint, response.clone());
    Ok(response)
}

enum Kind {
    ConditionCheck,
    Put(PreparedItem),
    Update(Option<Update>),
    Delete,
}

/// One action, validated.
struct Action {
    table: Arc<TableSchema>,
    /// The table as the action named it (its name or ARN).
    named: String,
    key: StorageKey,
    key_item: Item,
    condition: Option<Condition>,
    return_old_on_failure: bool,
    kind: Kind,
}

async fn run(engine: &Engine, input: TransactWriteItemsInput) -> Result<TransactWriteItemsOutput, ApiError> {
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.one_of(
        "returnItemCollectionMetrics",
        input.return_item_collection_metrics.as_ref(),
        &["SIZE", "NONE"],
    );
    if let Some(token) = &input.client_request_token {
        shape.length("clientRequestToken", token, 1, 36);
    }
    // Rule B.15: a missing list is null, an empty one is echoed as `[]`.
    let present = shape.required("transactItems", input.transact_items.as_ref());
    let items = input.transact_items.unwrap_or_default();
    if present && (items.is_empty() || items.len() > MAX_ACTIONS) {
        let constraint = if items.is_empty() {
            "Member must have length greater than or equal to 1".to_owned()
        } else {
            format!("Member must have length less than or equal to {MAX_ACTIONS}")
        };
        let rendered = if items.is_empty() {
            "[]".to_owned()
        } else {
            format!("[{} items]", items.len())
        };
        shape.push(ConstraintViolation {
            field: "transactItems".into(),
            value: Some(rendered),
            constraint,
        });
    }
    for (position, item) in items.iter().enumerate() {
        shape_action(&mut shape, position, item);
    }
    shape.finish()?;

    // Validate every action before touching data.
    let mut actions = Vec::with_capacity(items.len());
    let mut seen = BTreeSet::new();
    let mut total_bytes = 0u64;
    for item in items {
        let (action, bytes) = prepare(engine, item)?;
        if !seen.insert((action.table.name.clone(), action.key.clone())) {
            return Err(ApiError::validation(
                "Transaction request cannot include multiple operations on one item",
            ));
        }
        total_bytes += bytes;
        actions.push(action);
    }
    if total_bytes > MAX_TRANSACTION_BYTES {
        return Err(ApiError::validation(TRANSACTION_TOO_LARGE));
    }

    // Claim every item, all or nothing; held until the storage transaction has ended (declared
    // before `tx`, so dropped after it on every path).
    let items = actions
        .iter()
        .map(|action| ItemId::new(action.table.keyspace, &action.key))
        .collect();
    let _claim = engine
        .in_flight()
        .claim_transaction(items)
        .map_err(|held| ApiError::transaction_conflicts(&held))?;

    // Check every condition and compute every new item, then write all or nothing.
    let mut tx = engine.write_tx().await;
    let mut reasons = Vec::with_capacity(actions.len());
    let mut planned: Vec<(Option<StoredItem>, Option<PreparedItem>)> = Vec::with_capacity(actions.len());
    let mut failed = false;
    for action in &mut actions {
        let old = tx.load_item(&action.table, &action.key).await?;
        let none = CancellationReason {
            code: "None".into(),
            message: None,
            item: None,
        };
        if let Some(condition) = &action.condition
            && !condition.evaluate(old.as_ref().map(|o| &o.item))
        {
            failed = true;
            reasons.push(CancellationReason {
                code: "ConditionalCheckFailed".into(),
                message: Some("The conditional request failed".into()),
                item: if action.return_old_on_failure {
                    old.as_ref().map(|o| o.item.clone())
                } else {
                    None
                },
            });
            planned.push((old, None));
            continue;
        }
        let new = match std::mem::replace(&mut action.kind, Kind::Delete) {
            Kind::ConditionCheck => {
                action.kind = Kind::ConditionCheck;
                planned.push((old, None));
                reasons.push(none);
                continue;
            }
            Kind::Put(prepared) => Ok(Some(prepared)),
            Kind::Delete => Ok(None),
            Kind::Update(update) => {
                let base = old.as_ref().map(|o| &o.item);
                let updated = match &update {
                    // REMOVE / DELETE only on a missing item: nothing to write
                    // (`Update::creates_item`), as UpdateItem.
                    Some(update) if base.is_none() && !update.creates_item() => None,
                    // Rule B.6.2: an index key attribute SET to a value of another type.
                    Some(update) => Some(
                        update
                            .apply(base, &action.key_item)
                            .map_err(ApiError::from)
                            .and_then(|item| {
                                params::check_updated_index_keys(&action.table, update, &item).map(|()| item)
                            }),
                    ),
                    None => Some(Ok(base.cloned().unwrap_or_else(|| action.key_item.clone()))),
                };
                updated
                    .map(|item| {
                        item.and_then(|item| PreparedItem::new(&action.table, item, SizeCheck::Update))
                    })
                    .transpose()
            }
        };
        match new {
            Ok(new) => {
                planned.push((old, new));
                reasons.push(none);
            }
            Err(err) => {
                failed = true;
                reasons.push(CancellationReason {
                    code: "ValidationError".into(),
                    message: Some(err.message),
                    item: None,
                });
                planned.push((old, None));
            }
        }
    }
    if failed {
        return Err(ApiError::transaction_canceled(reasons));
    }

    let context = engine.write_context();
    let asked_metrics = input.return_item_collection_metrics.as_deref() == Some("SIZE");
    // Per table, with the first action that names it: ConsumedCapacity echoes the name or ARN
    // that action gave (rule B.2).
    let mut charges: BTreeMap<String, (&Action, WriteUnits, Vec<WriteUnits>)> = BTreeMap::new();
    let mut metrics: BTreeMap<String, Vec<ItemCollectionMetrics>> = BTreeMap::new();
    // Each action's own units, for its partition, recorded once the transaction commits.
    let mut item_charges = Vec::with_capacity(actions.len());
    for (position, (action, (old, new))) in actions.iter().zip(&planned).enumerate() {
        let entry = charges.entry(action.table.name.clone()).or_insert_with(|| {
            (
                action,
                WriteUnits(0),
                vec![WriteUnits(0); action.table.indexes.len()],
            )
        });
        // Rule B.3: 2 units per KB per item; the ×2 applies to the table, not to index arms.
        if matches!(action.kind, Kind::ConditionCheck) {
            let units = capacity::item_write(old.as_ref().map(|o| o.size), None, true);
            item_charges.push((&action.table, &action.key.pk, units, Vec::new()));
            entry.1 += units;
            continue;
        }
        let units = capacity::item_write(old.as_ref().map(|o| o.size), new.as_ref().map(|n| n.size), true);
        entry.1 += units;
        if old.is_none() && new.is_none() {
            item_charges.push((&action.table, &action.key.pk, units, Vec::new()));
            continue;
        }
        let write = new.as_ref().map(|n| (&n.item, n.size, n.entries.as_slice()));
        let effects =
            match items::write_item(&mut tx, &action.table, &context, &action.key, old.as_ref(), write).await
            {
                Ok(effects) => effects,
                Err(err) if err.kind == ErrorKind::ItemCollectionSizeLimitExceededException => {
                    let mut reasons: Vec<CancellationReason> = (0..planned.len())
                        .map(|_| CancellationReason {
                            code: "None".into(),
                            message: None,
                            item: None,
                        })
                        .collect();
                    reasons[position] = CancellationReason {
                        code: "ItemCollectionSizeLimitExceeded".into(),
                        message: Some("Collection size exceeded".into()),
                        item: None,
                    };
                    return Err(ApiError::transaction_canceled(reasons));
                }
                Err(err) => return Err(err),
            };
        item_charges.push((&action.table, &action.key.pk, units, effects.index_units.clone()));
        for (total, units) in entry.2.iter_mut().zip(&effects.index_units) {
            *total += *units;
        }
        if let Some(m) = collection_metrics(asked_metrics, &action.table, &action.key_item, &effects) {
            metrics.entry(action.table.name.clone()).or_default().push(m);
        }
    }
    tx.commit().await?;
    for (table, pk, units, index_units) in item_charges {
        crate::throttling::record_item(table, pk, Charge::Write(units), &index_units);
    }

    let consumed: Vec<ConsumedCapacity> = charges
        .values()
        .filter_map(|(action, units, index_units)| {
            let mut consumed = params::consumed_capacity(
                report,
                &action.table,
                &action.named,
                Some(Charge::Write(*units)),
                &params::index_write_charges(index_units),
            )?;
            // Transactional writes mirror their units into WriteCapacityUnits (rule B.2).
            consumed.write_capacity_units = Some(consumed.capacity_units);
            Some(consumed)
        })
        .collect();
    Ok(TransactWriteItemsOutput {
        consumed_capacity: (report != CapacityReport::None).then_some(consumed),
        item_collection_metrics: asked_metrics.then_some(metrics),
    })
}

/// The member constraints of one action, at its path in the request
/// (`transactItems.1.member.put.tableName`): all actions are checked before any table is looked
/// up (rule B.15).
fn shape_action(shape: &mut Shape, position: usize, item: &crate::api::transact::TransactWriteItem) {
    let actions = [
        ("conditionCheck", item.condition_check.as_ref()),
        ("put", item.put.as_ref()),
        ("delete", item.delete.as_ref()),
        ("update", item.update.as_ref()),
    ];
    for (which, action) in actions {
        let Some(action) = action else { continue };
        let member = format!("transactItems.{}.member.{which}", position + 1);
        // Rule B.21.3: the API model requires a Put's Item and the others' Key; a missing one is
        // listed (`Member must not be null`) before any table is looked up (rule B.15), ahead of
        // the TableName as in the model.
        if which == "put" {
            shape.required(&format!("{member}.item"), action.item.as_ref());
        } else {
            shape.required(&format!("{member}.key"), action.key.as_ref());
        }
        shape.table(&format!("{member}.tableName"), action.table_name.as_ref());
        shape.one_of(
            &format!("{member}.returnValuesOnConditionCheckFailure"),
            action.return_values_on_condition_check_failure.as_ref(),
            &["ALL_OLD", "NONE"],
        );
        if which == "conditionCheck" && action.condition_expression.is_none() {
            shape.required::<()>(&format!("{member}.conditionExpression"), None);
        }
        if which == "update" && action.update_expression.is_none() {
            shape.required::<()>(&format!("{member}.updateExpression"), None);
        }
    }
}

/// Validates one action; returns it and the bytes it counts toward the 4 MB limit.
fn prepare(
    engine: &Engine,
    item: crate::api::transact::TransactWriteItem,
) -> Result<(Action, u64), ApiError> {
    let chosen = [
        item.condition_check.is_some(),
        item.put.is_some(),
        item.delete.is_some(),
        item.update.is_some(),
    ];
    if chosen.iter().filter(|c| **c).count() != 1 {
        // Unverified wording.
        return Err(ApiError::validation(
            "TransactItems can only contain one of Check, Put, Update or Delete",
        ));
    }
    let (raw, which) = match (item.condition_check, item.put, item.delete, item.update) {
        (Some(a), ..) => (a, "ConditionCheck"),
        (_, Some(a), ..) => (a, "Put"),
        (_, _, Some(a), _) => (a, "Delete"),
        (.., Some(a)) => (a, "Update"),
        _ => unreachable!("exactly one action was checked above"),
    };
    let TransactAction {
        table_name,
        key,
        item,
        update_expression,
        condition_expression,
        expression_attribute_names,
        expression_attribute_values,
        return_values_on_condition_check_failure,
    } = raw;
    let named = table_name.unwrap_or_default();
    let table = engine.table(&named)?;
    // Rule B.16: transactions check values in the older layer (three regions of four; eu-west-2
    // answers bare, in the current layer's words).
    let expression_attribute_values = expression_attribute_values
        .map(params::older_layer_values)
        .transpose()?;
    let mut placeholders =
        params::placeholders(expression_attribute_names.as_ref(), expression_attribute_values)?;
    let update = update_expression
        .as_deref()
        .map(|t| placeholders.update(t))
        .transpose()?;
    let condition = condition_expression
        .as_deref()
        .map(|t| placeholders.condition(ExpressionKind::Condition, t))
        .transpose()?;
    placeholders.check_unused()?;

    let (key, key_item, kind, bytes) = if which == "Put" {
        let item = item.map(|c| c.into_result()).transpose()?.unwrap_or_default();
        let key = StorageKey::of_item(&table, &item)?;
        let key_item = entry::key_of(&table.key, &item);
        let prepared = PreparedItem::new(&table, item, SizeCheck::Write)?;
        let bytes = prepared.size;
        (key, key_item, Kind::Put(prepared), bytes)
    } else {
        let key_item = key.map(|c| c.into_result()).transpose()?.unwrap_or_default();
        let key = StorageKey::of_key(&table, &key_item)?;
        let bytes = dynotable_types::item_size(&key_item) as u64;
        let kind = match which {
            "ConditionCheck" => Kind::ConditionCheck,
            "Delete" => Kind::Delete,
            _ => Kind::Update(update),
        };
        (key, key_item, kind, bytes)
    };
    // The checks against the table that UpdateItem, PutItem and DeleteItem make (rules B.10,
    // B.6.1, B.6.2).
    match &kind {
        Kind::Update(update) => {
            params::check_update_against_table(&table, update.as_ref(), condition.as_ref())?
        }
        _ => params::check_condition_key_paths(&table, ExpressionKind::Condition, condition.as_ref())?,
    }
    let return_old_on_failure = return_values_on_condition_check_failure.as_deref() == Some("ALL_OLD");
    Ok((
        Action {
            table,
            named,
            key,
            key_item,
            condition,
            return_old_on_failure,
            kind,
        },
        bytes,
    ))
}
