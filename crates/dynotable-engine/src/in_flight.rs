//! The items that write requests are working on, so that a request meeting a transaction
//! behaves as DynamoDB documents it (DG `transaction-apis.html`, "Transaction conflict handling
//! in DynamoDB"; rules table in docs/dynamodb-rules.md, "TransactionConflictException"):
//!
//! > Transaction conflicts can occur in the following scenarios:
//! > - A PutItem, UpdateItem, or DeleteItem request for an item conflicts with an ongoing
//! >   TransactWriteItems request that includes the same item.
//! > - An item within a TransactWriteItems request is part of another ongoing TransactWriteItems
//! >   request.
//! > - An item within a TransactGetItems request is part of an ongoing TransactWriteItems,
//! >   BatchWriteItem, PutItem, UpdateItem, or DeleteItem request.
//!
//! and: when a PutItem, UpdateItem or DeleteItem request is rejected, it fails with a
//! `TransactionConflictException`; when an item-level request within TransactWriteItems or
//! TransactGetItems is rejected, that request fails with a `TransactionCanceledException` whose
//! reason for the item is `TransactionConflict` ("Transaction is ongoing for the item").
//!
//! The engine runs one write transaction at a time on its writer connection (`write_tx`), so
//! without this registry a request for an item inside a transaction would simply wait for it.
//! Instead each write request *claims* its items when it is admitted — after validation, before
//! it waits for the writer — and its [`Claim`] releases them when dropped, after the storage
//! transaction has ended: on commit, on a cancellation, on an error returned with `?`, and when
//! the request's future is dropped mid-way (the client went away). A claim never makes anyone
//! wait; it only decides who is refused:
//!
//! - TransactWriteItems claims all its items (ConditionChecks included) exclusively, all or
//!   nothing. If another request holds any of them it claims none and is cancelled, with
//!   `TransactionConflict` for those actions and `None` for the others, in request order.
//! - PutItem, UpdateItem and DeleteItem claim their item beside other single-item writes (those
//!   still run one after the other, as before). If a transaction holds it, the request fails at
//!   once with `TransactionConflictException` instead of queueing behind the transaction.
//! - BatchWriteItem claims each of its items the same way; a put or delete whose item a
//!   transaction holds is not written and comes back in `UnprocessedItems` (BatchWriteItem has no
//!   `TransactionConflictException` among its errors; a request of the batch that could not be
//!   processed is returned for the caller to send again).
//! - TransactGetItems claims nothing; if a write holds any of its items it is cancelled.
//! - GetItem, Query, Scan and BatchGetItem never look here: "If an ongoing TransactWriteItems or
//!   TransactGetItems operation conflicts with a concurrent GetItem request, both operations can
//!   succeed."
//!
//! A claim is a plain entry in a map under a `std` mutex held for a few map operations — never
//! across an `await` — so it costs a single-item write one lock and one key copy.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Mutex, MutexGuard};

use crate::entry::StorageKey;

/// One item of one table: the table's keyspace and the item's encoded primary key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ItemId {
    pub keyspace: i64,
    pub key: StorageKey,
}

impl ItemId {
    pub fn new(keyspace: i64, key: &StorageKey) -> ItemId {
        ItemId {
            keyspace,
            key: key.clone(),
        }
    }
}

/// Who holds an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// One TransactWriteItems, alone.
    Transaction,
    /// This many single-item writes (PutItem, UpdateItem, DeleteItem, a BatchWriteItem's).
    Writes(u32),
}

/// The registry of claimed items; one per engine.
#[derive(Debug, Default)]
pub(crate) struct InFlight {
    items: Mutex<HashMap<ItemId, Holder>>,
}

impl InFlight {
    fn items(&self) -> MutexGuard<'_, HashMap<ItemId, Holder>> {
        // The map is consistent after every operation (none panics midway), so a poisoned lock
        // still holds a usable map.
        self.items.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A single-item write's claim on `item`, or `None` when a transaction holds it.
    pub fn claim_write(&self, item: ItemId) -> Option<Claim<'_>> {
        {
            let mut items = self.items();
            match items.get_mut(&item) {
                Some(Holder::Transaction) => return None,
                Some(Holder::Writes(count)) => *count += 1,
                None => {
                    items.insert(item.clone(), Holder::Writes(1));
                }
            }
        }
        Some(Claim {
            registry: self,
            items: vec![item],
            holder: Holder::Writes(1),
        })
    }

    /// BatchWriteItem's claim on each of `items` as a single-item write; the second value says,
    /// per item, whether a transaction holds it (that item is not claimed).
    pub fn claim_writes(&self, items: &[ItemId]) -> (Claim<'_>, Vec<bool>) {
        let mut held = Vec::with_capacity(items.len());
        let mut claimed = Vec::with_capacity(items.len());
        {
            let mut map = self.items();
            for item in items {
                match map.get_mut(item) {
                    Some(Holder::Transaction) => {
                        held.push(true);
                        continue;
                    }
                    Some(Holder::Writes(count)) => *count += 1,
                    None => {
                        map.insert(item.clone(), Holder::Writes(1));
                    }
                }
                held.push(false);
                claimed.push(item.clone());
            }
        }
        let claim = Claim {
            registry: self,
            items: claimed,
            holder: Holder::Writes(1),
        };
        (claim, held)
    }

    /// TransactWriteItems' claim on all of `items` (distinct), or — when another request holds
    /// any of them — no claim at all and, per item, whether it is held.
    pub fn claim_transaction(&self, items: Vec<ItemId>) -> Result<Claim<'_>, Vec<bool>> {
        {
            let mut map = self.items();
            let held: Vec<bool> = items.iter().map(|item| map.contains_key(item)).collect();
            if held.iter().any(|h| *h) {
                return Err(held);
            }
            for item in &items {
                map.insert(item.clone(), Holder::Transaction);
            }
        }
        Ok(Claim {
            registry: self,
            items,
            holder: Holder::Transaction,
        })
    }

    /// Per item, whether a write request holds it (TransactGetItems).
    pub fn held(&self, items: &[ItemId]) -> Vec<bool> {
        let map = self.items();
        items.iter().map(|item| map.contains_key(item)).collect()
    }

    /// How many items are claimed.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.items().len()
    }
}

/// Items claimed by one request; released when dropped.
#[derive(Debug)]
pub(crate) struct Claim<'a> {
    registry: &'a InFlight,
    items: Vec<ItemId>,
    /// `Transaction`, or `Writes(1)` for claims of single-item writes.
    holder: Holder,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if self.items.is_empty() {
            return;
        }
        let mut map = self.registry.items();
        for item in self.items.drain(..) {
            let Entry::Occupied(mut entry) = map.entry(item) else {
                continue;
            };
            match (self.holder, entry.get_mut()) {
                (Holder::Writes(_), Holder::Writes(count)) if *count > 1 => *count -= 1,
                _ => {
                    entry.remove();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(keyspace: i64, pk: &str) -> ItemId {
        ItemId {
            keyspace,
            key: StorageKey {
                pk: pk.as_bytes().to_vec(),
                sk: Vec::new(),
            },
        }
    }

    #[test]
    fn a_transaction_refuses_single_writes_until_it_is_dropped() {
        let registry = InFlight::default();
        let transaction = registry
            .claim_transaction(vec![item(1, "a"), item(1, "b")])
            .unwrap();
        assert!(registry.claim_write(item(1, "a")).is_none());
        // The same key in another table is another item.
        assert!(registry.claim_write(item(2, "a")).is_some());
        assert_eq!(registry.held(&[item(1, "b"), item(1, "c")]), vec![true, false]);
        drop(transaction);
        assert_eq!(registry.len(), 0);
        assert!(registry.claim_write(item(1, "a")).is_some());
        assert_eq!(registry.len(), 0, "the write's claim was dropped at once");
    }

    #[test]
    fn a_transaction_claims_all_or_nothing() {
        let registry = InFlight::default();
        let write = registry.claim_write(item(1, "b")).unwrap();
        let first = registry.claim_transaction(vec![item(1, "x")]).unwrap();
        assert_eq!(
            registry
                .claim_transaction(vec![item(1, "a"), item(1, "b"), item(1, "x")])
                .unwrap_err(),
            vec![false, true, true]
        );
        // Nothing of the refused transaction was claimed: "a" is free.
        assert_eq!(registry.held(&[item(1, "a")]), vec![false]);
        assert_eq!(registry.len(), 2);
        drop(write);
        drop(first);
        assert_eq!(registry.len(), 0);
    }

    #[test]
    fn single_writes_share_an_item_and_the_last_one_releases_it() {
        let registry = InFlight::default();
        let first = registry.claim_write(item(1, "a")).unwrap();
        let (batch, held) = registry.claim_writes(&[item(1, "a"), item(1, "b")]);
        assert_eq!(held, vec![false, false]);
        drop(first);
        assert!(
            registry.claim_transaction(vec![item(1, "a")]).is_err(),
            "the batch still holds the item"
        );
        drop(batch);
        assert_eq!(registry.len(), 0);
        assert!(registry.claim_transaction(vec![item(1, "a")]).is_ok());
    }

    #[test]
    fn a_batch_skips_the_items_a_transaction_holds() {
        let registry = InFlight::default();
        let transaction = registry.claim_transaction(vec![item(1, "b")]).unwrap();
        let (batch, held) = registry.claim_writes(&[item(1, "a"), item(1, "b"), item(1, "c")]);
        assert_eq!(held, vec![false, true, false]);
        drop(batch);
        // The batch released only its own items; the transaction still holds "b".
        assert_eq!(registry.held(&[item(1, "a"), item(1, "b")]), vec![false, true]);
        drop(transaction);
        assert_eq!(registry.len(), 0);
    }
}

/// The conflicts through `Engine::call`. A test holds the engine's writer connection, so a write
/// request it spawns is admitted — its items claimed — and then waits for the writer: it stays
/// "ongoing" for exactly as long as the test wants, with no timing involved.
#[cfg(test)]
mod requests {
    use serde_json::{Value, json};

    use crate::{ApiError, Engine, ErrorKind, Location, Options};

    async fn engine() -> Engine {
        let mut options = Options::new(Location::InMemory);
        options.sweep_interval = None;
        let engine = Engine::open_with(options).await.unwrap();
        engine
            .call(
                "CreateTable",
                br#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
                    "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
                    "BillingMode":"PAY_PER_REQUEST"}"#,
            )
            .await
            .unwrap();
        engine
    }

    async fn call(engine: &Engine, operation: &str, body: Value) -> Result<Value, ApiError> {
        let out = engine.call(operation, body.to_string().as_bytes()).await?;
        Ok(serde_json::from_slice(&out).unwrap())
    }

    /// Runs the request on a task of its own; it is admitted the next time the test yields.
    fn spawn(
        engine: &Engine,
        operation: &'static str,
        body: Value,
    ) -> tokio::task::JoinHandle<Result<Value, ApiError>> {
        let engine = engine.clone();
        tokio::spawn(async move { call(&engine, operation, body).await })
    }

    /// Yields to the spawned requests until `count` items are claimed.
    async fn until_claimed(engine: &Engine, count: usize) {
        for _ in 0..10_000 {
            if engine.in_flight().len() == count {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!(
            "{count} items were never claimed ({} are)",
            engine.in_flight().len()
        );
    }

    fn put(id: &str, n: u32) -> Value {
        json!({"TableName": "Tbl", "Item": {"id": {"S": id}, "n": {"N": n.to_string()}}})
    }

    fn key(id: &str) -> Value {
        json!({"TableName": "Tbl", "Key": {"id": {"S": id}}})
    }

    /// A TransactWriteItems that puts `puts` and adds 1 to `n` of `updates`.
    fn transaction(puts: &[&str], updates: &[&str]) -> Value {
        let mut items: Vec<Value> = puts.iter().map(|id| json!({"Put": put(id, 0)})).collect();
        items.extend(updates.iter().map(|id| {
            json!({"Update": {"TableName": "Tbl", "Key": {"id": {"S": id}},
                "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}})
        }));
        json!({ "TransactItems": items })
    }

    fn transact_get(ids: &[&str]) -> Value {
        json!({"TransactItems": ids.iter().map(|id| json!({"Get": key(id)})).collect::<Vec<_>>()})
    }

    async fn n_of(engine: &Engine, id: &str) -> Option<String> {
        let mut body = key(id);
        body["ConsistentRead"] = json!(true);
        let out = call(engine, "GetItem", body).await.unwrap();
        out["Item"]["n"]["N"].as_str().map(str::to_owned)
    }

    fn assert_conflict_reasons(err: &ApiError, held: &[bool]) {
        assert_eq!(err.kind, ErrorKind::TransactionCanceledException, "{err}");
        let codes: Vec<&str> = held
            .iter()
            .map(|h| if *h { "TransactionConflict" } else { "None" })
            .collect();
        assert_eq!(
            err.message,
            format!(
                "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                codes.join(", ")
            )
        );
        let reasons = err.cancellation_reasons.as_ref().unwrap();
        let rendered: Vec<(String, Option<String>)> = reasons
            .iter()
            .map(|r| (r.code.clone(), r.message.clone()))
            .collect();
        let expected: Vec<(String, Option<String>)> = held
            .iter()
            .map(|h| {
                if *h {
                    (
                        "TransactionConflict".to_owned(),
                        Some("Transaction is ongoing for the item".to_owned()),
                    )
                } else {
                    ("None".to_owned(), None)
                }
            })
            .collect();
        assert_eq!(rendered, expected);
    }

    #[tokio::test]
    async fn single_writes_meeting_an_ongoing_transaction_fail_with_transaction_conflict() {
        let engine = engine().await;
        call(&engine, "PutItem", put("b", 5)).await.unwrap();
        let writer = engine.writer().await;
        let ongoing = spawn(&engine, "TransactWriteItems", transaction(&["a"], &["b"]));
        until_claimed(&engine, 2).await;

        let mut update = key("b");
        update["UpdateExpression"] = json!("SET n = :n");
        update["ExpressionAttributeValues"] = json!({":n": {"N": "9"}});
        let mut delete = key("a");
        delete["ReturnConsumedCapacity"] = json!("TOTAL");
        for (operation, body) in [
            ("PutItem", put("a", 1)),
            ("UpdateItem", update.clone()),
            ("DeleteItem", delete),
        ] {
            let err = call(&engine, operation, body).await.unwrap_err();
            assert_eq!(err.kind, ErrorKind::TransactionConflictException, "{operation}");
            assert_eq!(err.message, "Transaction is ongoing for the item");
            assert_eq!(err.consumed_capacity, None, "a rejected write consumes nothing");
        }
        // Reads do not conflict ("both operations can succeed"): the committed state.
        assert_eq!(n_of(&engine, "b").await.as_deref(), Some("5"));
        assert_eq!(engine.in_flight().len(), 2, "the refused writes claimed nothing");

        drop(writer);
        ongoing.await.unwrap().unwrap();
        assert_eq!(engine.in_flight().len(), 0);
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("0"));
        assert_eq!(n_of(&engine, "b").await.as_deref(), Some("6"));
        // The transaction has completed: the same writes now succeed.
        call(&engine, "PutItem", put("a", 1)).await.unwrap();
        call(&engine, "UpdateItem", update).await.unwrap();
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("1"));
        assert_eq!(n_of(&engine, "b").await.as_deref(), Some("9"));
    }

    #[tokio::test]
    async fn a_transaction_meeting_an_ongoing_transaction_is_cancelled() {
        let engine = engine().await;
        let writer = engine.writer().await;
        let ongoing = spawn(&engine, "TransactWriteItems", transaction(&["a", "b"], &[]));
        until_claimed(&engine, 2).await;

        let mut second = transaction(&["c", "b"], &["d"]);
        second["TransactItems"].as_array_mut().unwrap().push(
            json!({"ConditionCheck": {"TableName": "Tbl", "Key": {"id": {"S": "a"}},
                "ConditionExpression": "attribute_not_exists(id)"}}),
        );
        let err = call(&engine, "TransactWriteItems", second.clone())
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[false, true, false, true]);
        assert_eq!(
            engine.in_flight().len(),
            2,
            "the cancelled transaction claimed nothing"
        );
        // TransactGetItems meeting the ongoing transaction is cancelled too.
        let err = call(&engine, "TransactGetItems", transact_get(&["x", "a"]))
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[false, true]);

        drop(writer);
        ongoing.await.unwrap().unwrap();
        assert_eq!(engine.in_flight().len(), 0);
        // Now the ConditionCheck on "a" (written by the first) fails on its own merits.
        let err = call(&engine, "TransactWriteItems", second).await.unwrap_err();
        assert_eq!(
            err.cancellation_reasons
                .unwrap()
                .iter()
                .map(|r| r.code.as_str())
                .collect::<Vec<_>>(),
            vec!["None", "None", "None", "ConditionalCheckFailed"]
        );
        let out = call(&engine, "TransactGetItems", transact_get(&["x", "a"]))
            .await
            .unwrap();
        assert_eq!(out["Responses"][1]["Item"]["n"]["N"], "0");
        assert_eq!(
            engine.in_flight().len(),
            0,
            "a cancelled transaction releases its items"
        );
    }

    #[tokio::test]
    async fn transactions_meeting_a_single_write_in_flight_are_cancelled() {
        let engine = engine().await;
        let writer = engine.writer().await;
        let ongoing = spawn(&engine, "PutItem", put("a", 3));
        until_claimed(&engine, 1).await;

        let err = call(&engine, "TransactWriteItems", transaction(&["z"], &["a"]))
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[false, true]);
        let err = call(&engine, "TransactGetItems", transact_get(&["a"]))
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[true]);
        // Another single write of the same item is not a conflict: it waits its turn.
        let second = spawn(&engine, "PutItem", put("a", 4));
        until_claimed(&engine, 1).await;

        drop(writer);
        ongoing.await.unwrap().unwrap();
        second.await.unwrap().unwrap();
        assert_eq!(engine.in_flight().len(), 0);
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("4"));
        assert_eq!(
            n_of(&engine, "z").await,
            None,
            "the cancelled transaction wrote nothing"
        );
        call(&engine, "TransactWriteItems", transaction(&["z"], &["a"]))
            .await
            .unwrap();
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("5"));
    }

    #[tokio::test]
    async fn a_batch_write_returns_the_items_a_transaction_holds_as_unprocessed() {
        let engine = engine().await;
        call(&engine, "PutItem", put("d", 1)).await.unwrap();
        let writer = engine.writer().await;
        let ongoing = spawn(&engine, "TransactWriteItems", transaction(&["b"], &["d"]));
        until_claimed(&engine, 2).await;
        let batch = spawn(
            &engine,
            "BatchWriteItem",
            json!({"RequestItems": {"Tbl": [
                {"PutRequest": {"Item": {"id": {"S": "a"}, "n": {"N": "7"}}}},
                {"PutRequest": {"Item": {"id": {"S": "b"}, "n": {"N": "7"}}}},
                {"PutRequest": {"Item": {"id": {"S": "c"}, "n": {"N": "7"}}}},
                {"DeleteRequest": {"Key": {"id": {"S": "d"}}}}
            ]}, "ReturnConsumedCapacity": "TOTAL"}),
        );
        // The batch claims "a" and "c" beside the transaction's "b" and "d".
        until_claimed(&engine, 4).await;
        // While the batch is in flight, a TransactGetItems of its items is cancelled.
        let err = call(&engine, "TransactGetItems", transact_get(&["c", "q"]))
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[true, false]);

        drop(writer);
        ongoing.await.unwrap().unwrap();
        let out = batch.await.unwrap().unwrap();
        assert_eq!(
            out["UnprocessedItems"],
            json!({"Tbl": [
                {"PutRequest": {"Item": {"id": {"S": "b"}, "n": {"N": "7"}}}},
                {"DeleteRequest": {"Key": {"id": {"S": "d"}}}}
            ]})
        );
        // Two puts of 1 unit each: the unprocessed requests are not charged.
        assert_eq!(
            out["ConsumedCapacity"],
            json!([{"TableName": "Tbl", "CapacityUnits": 2.0}])
        );
        assert_eq!(engine.in_flight().len(), 0);
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("7"));
        assert_eq!(
            n_of(&engine, "b").await.as_deref(),
            Some("0"),
            "the transaction's put"
        );
        assert_eq!(n_of(&engine, "c").await.as_deref(), Some("7"));
        assert_eq!(
            n_of(&engine, "d").await.as_deref(),
            Some("2"),
            "not deleted by the batch"
        );
    }

    #[tokio::test]
    async fn transactions_with_client_request_tokens_conflict_like_any_other() {
        let engine = engine().await;
        let mut first = transaction(&["a"], &[]);
        first["ClientRequestToken"] = json!("token-1");
        let mut second = transaction(&["b"], &["a"]);
        second["ClientRequestToken"] = json!("token-2");
        let writer = engine.writer().await;
        let ongoing = spawn(&engine, "TransactWriteItems", first.clone());
        until_claimed(&engine, 1).await;

        // Another token does not wait behind the first transaction's token: it meets its item.
        let err = call(&engine, "TransactWriteItems", second.clone())
            .await
            .unwrap_err();
        assert_conflict_reasons(&err, &[false, true]);
        // The same token while its call is running.
        let err = call(&engine, "TransactWriteItems", first.clone())
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::TransactionInProgressException);
        assert_eq!(
            err.message,
            "The transaction with the given request token is already in progress."
        );
        let mut other_parameters = transaction(&["c"], &[]);
        other_parameters["ClientRequestToken"] = json!("token-1");
        let err = call(&engine, "TransactWriteItems", other_parameters)
            .await
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::IdempotentParameterMismatchException);

        drop(writer);
        let response = ongoing.await.unwrap().unwrap();
        // A repeat now returns the first response without writing again.
        call(&engine, "PutItem", put("a", 8)).await.unwrap();
        assert_eq!(
            call(&engine, "TransactWriteItems", first).await.unwrap(),
            response
        );
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("8"));
        // The cancelled call's token was not kept: sent again, it runs.
        call(&engine, "TransactWriteItems", second).await.unwrap();
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("9"));
        assert_eq!(engine.in_flight().len(), 0);
    }

    #[tokio::test]
    async fn claims_are_released_on_every_path_out_of_a_request() {
        let engine = engine().await;
        call(&engine, "PutItem", put("a", 1)).await.unwrap();

        // A condition that fails: cancelled, released.
        let mut failing = transaction(&["b"], &["a"]);
        failing["TransactItems"][1]["Update"]["ConditionExpression"] = json!("n = :two");
        failing["TransactItems"][1]["Update"]["ExpressionAttributeValues"][":two"] = json!({"N": "2"});
        let err = call(&engine, "TransactWriteItems", failing).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::TransactionCanceledException);
        assert_eq!(engine.in_flight().len(), 0);

        // An action whose update cannot apply to the item (a ValidationError reason): released.
        let mut invalid = transaction(&["b"], &[]);
        invalid["TransactItems"]
            .as_array_mut()
            .unwrap()
            .push(json!({"Update": {"TableName": "Tbl", "Key": {"id": {"S": "a"}},
                "UpdateExpression": "SET n = m + :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}));
        let err = call(&engine, "TransactWriteItems", invalid).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::TransactionCanceledException, "{err}");
        assert_eq!(engine.in_flight().len(), 0);

        // A single write whose condition fails, and one whose update cannot apply: released.
        let mut conditional = put("a", 5);
        conditional["ConditionExpression"] = json!("attribute_not_exists(id)");
        let err = call(&engine, "PutItem", conditional).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::ConditionalCheckFailedException);
        let mut update = key("a");
        update["UpdateExpression"] = json!("SET n = m + :one");
        update["ExpressionAttributeValues"] = json!({":one": {"N": "1"}});
        let err = call(&engine, "UpdateItem", update).await.unwrap_err();
        assert_eq!(err.kind, ErrorKind::ValidationException);
        assert_eq!(engine.in_flight().len(), 0);

        // Requests dropped while they wait for the writer (a client that went away): released,
        // and nothing of them written.
        let writer = engine.writer().await;
        let transaction = spawn(&engine, "TransactWriteItems", transaction(&["t"], &["a"]));
        let single = spawn(&engine, "PutItem", put("s", 1));
        until_claimed(&engine, 3).await;
        transaction.abort();
        single.abort();
        assert!(transaction.await.unwrap_err().is_cancelled());
        assert!(single.await.unwrap_err().is_cancelled());
        assert_eq!(engine.in_flight().len(), 0);
        drop(writer);
        assert_eq!(n_of(&engine, "t").await, None);
        assert_eq!(n_of(&engine, "s").await, None);
        assert_eq!(n_of(&engine, "a").await.as_deref(), Some("1"));
        call(&engine, "PutItem", put("a", 2)).await.unwrap();
        assert_eq!(engine.in_flight().len(), 0);
    }
}
