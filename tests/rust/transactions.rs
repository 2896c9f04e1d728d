//! TransactWriteItems and TransactGetItems through the SDK: all or nothing across tables,
//! `TransactionCanceledException` with its reasons in request order, ClientRequestToken
//! idempotency, and the one-action-per-item rule.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::transact_get_items::TransactGetItemsError;
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    ConditionCheck, Delete, Get, Put, ReturnConsumedCapacity, ReturnValuesOnConditionCheckFailure,
    TransactGetItem, TransactWriteItem, Update,
};

use crate::server::Server;
use crate::{Item, create_counters, create_pets, item, n, s, service_error};

fn pet_key(animal: &str, name: &str) -> Item {
    item([("AnimalType", s(animal)), ("Name", s(name))])
}

fn put(table: &str, value: Item) -> TransactWriteItem {
    TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name(table)
                .set_item(Some(value))
                .build()
                .unwrap(),
        )
        .build()
}

fn delete(table: &str, key: Item) -> TransactWriteItem {
    TransactWriteItem::builder()
        .delete(
            Delete::builder()
                .table_name(table)
                .set_key(Some(key))
                .build()
                .unwrap(),
        )
        .build()
}

fn add_hits(id: i64, by: i64) -> TransactWriteItem {
    TransactWriteItem::builder()
        .update(
            Update::builder()
                .table_name("Counters")
                .key("id", n(id))
                .update_expression("ADD hits :by")
                .expression_attribute_values(":by", n(by))
                .build()
                .unwrap(),
        )
        .build()
}

/// A check that Fido's Age is `age`, returning the item when it fails.
fn fido_is(age: i64) -> TransactWriteItem {
    TransactWriteItem::builder()
        .condition_check(
            ConditionCheck::builder()
                .table_name("Pets")
                .set_key(Some(pet_key("Dog", "Fido")))
                .condition_expression("Age = :age")
                .expression_attribute_values(":age", n(age))
                .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
                .build()
                .unwrap(),
        )
        .build()
}

async fn get(client: &Client, table: &str, key: Item) -> Option<Item> {
    client
        .get_item()
        .table_name(table)
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
}

async fn pets_and_counters() -> (Server, Client) {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;
    create_counters(&client).await;
    for pet in [
        item([("AnimalType", s("Dog")), ("Name", s("Fido")), ("Age", n(3))]),
        item([("AnimalType", s("Bird")), ("Name", s("Tweety")), ("Age", n(1))]),
    ] {
        client
            .put_item()
            .table_name("Pets")
            .set_item(Some(pet))
            .send()
            .await
            .unwrap();
    }
    client
        .put_item()
        .table_name("Counters")
        .set_item(Some(item([("id", n(1)), ("hits", n(10))])))
        .send()
        .await
        .unwrap();
    (server, client)
}

#[tokio::test]
async fn a_failing_condition_check_cancels_every_write() {
    let (_server, client) = pets_and_counters().await;
    let transaction = |fido_age| {
        client
            .transact_write_items()
            .transact_items(put(
                "Pets",
                item([("AnimalType", s("Dog")), ("Name", s("Rex")), ("Age", n(7))]),
            ))
            .transact_items(fido_is(fido_age))
            .transact_items(add_hits(1, 5))
            .transact_items(delete("Pets", pet_key("Bird", "Tweety")))
    };

    let err = service_error(transaction(4).send().await);
    assert_eq!(
        err.message(),
        Some(
            "Transaction cancelled, please refer cancellation reasons for specific reasons \
             [None, ConditionalCheckFailed, None, None]"
        )
    );
    let TransactWriteItemsError::TransactionCanceledException(cancelled) = err else {
        panic!("typed TransactionCanceledException, got {err:?}");
    };
    let reasons = cancelled.cancellation_reasons();
    let codes: Vec<Option<&str>> = reasons.iter().map(|r| r.code()).collect();
    assert_eq!(
        codes,
        [
            Some("None"),
            Some("ConditionalCheckFailed"),
            Some("None"),
            Some("None")
        ],
        "one reason per action, in request order"
    );
    assert_eq!(reasons[1].message(), Some("The conditional request failed"));
    assert_eq!(
        reasons[1].item(),
        Some(&item([
            ("AnimalType", s("Dog")),
            ("Name", s("Fido")),
            ("Age", n(3))
        ])),
        "ALL_OLD puts the checked item on its reason"
    );
    for i in [0, 2, 3] {
        assert_eq!(reasons[i].item(), None, "reason {i}");
    }

    // Nothing was written: not the put, not the other table's update, not the delete.
    assert_eq!(get(&client, "Pets", pet_key("Dog", "Rex")).await, None);
    assert_eq!(
        get(&client, "Counters", item([("id", n(1))])).await,
        Some(item([("id", n(1)), ("hits", n(10))]))
    );
    assert!(get(&client, "Pets", pet_key("Bird", "Tweety")).await.is_some());

    // With the check passing, every action applies, across both tables.
    let done = transaction(3)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .expect("the transaction commits");
    let mut capacity: Vec<(String, f64)> = done
        .consumed_capacity()
        .iter()
        .map(|c| (c.table_name().unwrap().to_owned(), c.capacity_units().unwrap()))
        .collect();
    capacity.sort_by(|a, b| a.0.cmp(&b.0));
    // Every action on a small item is charged 2 units (a ConditionCheck as a write too).
    assert_eq!(capacity, [("Counters".to_owned(), 2.0), ("Pets".to_owned(), 6.0)]);
    assert_eq!(
        get(&client, "Pets", pet_key("Dog", "Rex")).await,
        Some(item([
            ("AnimalType", s("Dog")),
            ("Name", s("Rex")),
            ("Age", n(7))
        ]))
    );
    assert_eq!(
        get(&client, "Counters", item([("id", n(1))])).await,
        Some(item([("id", n(1)), ("hits", n(15))]))
    );
    assert_eq!(get(&client, "Pets", pet_key("Bird", "Tweety")).await, None);
}

#[tokio::test]
async fn a_client_request_token_replays_the_first_answer_and_refuses_other_parameters() {
    let (_server, client) = pets_and_counters().await;
    let increment = |by| {
        client
            .transact_write_items()
            .transact_items(add_hits(1, by))
            .client_request_token("token-1")
    };

    increment(1).send().await.expect("first call");
    increment(1).send().await.expect("the same call again");
    assert_eq!(
        get(&client, "Counters", item([("id", n(1))])).await,
        Some(item([("id", n(1)), ("hits", n(11))])),
        "the repeat wrote nothing"
    );

    let err = service_error(increment(2).send().await);
    assert_eq!(
        err.message(),
        Some("The request uses the same client token as a previous, but non-identical request.")
    );
    assert!(
        matches!(
            err,
            TransactWriteItemsError::IdempotentParameterMismatchException(_)
        ),
        "typed IdempotentParameterMismatchException, got {err:?}"
    );
    assert_eq!(
        get(&client, "Counters", item([("id", n(1))])).await,
        Some(item([("id", n(1)), ("hits", n(11))]))
    );

    // Without a token the SDK makes a fresh one per call: both apply.
    for _ in 0..2 {
        client
            .transact_write_items()
            .transact_items(add_hits(1, 1))
            .send()
            .await
            .unwrap();
    }
    assert_eq!(
        get(&client, "Counters", item([("id", n(1))])).await,
        Some(item([("id", n(1)), ("hits", n(13))]))
    );
}

#[tokio::test]
async fn one_item_twice_in_a_transaction_is_refused_and_nothing_is_written() {
    let (_server, client) = pets_and_counters().await;
    let err = service_error(
        client
            .transact_write_items()
            .transact_items(add_hits(2, 1))
            .transact_items(delete("Pets", pet_key("Dog", "Fido")))
            .transact_items(fido_is(3))
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Transaction request cannot include multiple operations on one item")
    );
    assert!(get(&client, "Pets", pet_key("Dog", "Fido")).await.is_some());
    assert_eq!(get(&client, "Counters", item([("id", n(2))])).await, None);

    // The same item in the same transaction on a get is refused as well.
    let get_fido = || {
        TransactGetItem::builder()
            .get(
                Get::builder()
                    .table_name("Pets")
                    .set_key(Some(pet_key("Dog", "Fido")))
                    .build()
                    .unwrap(),
            )
            .build()
    };
    let err = service_error(
        client
            .transact_get_items()
            .transact_items(get_fido())
            .transact_items(get_fido())
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"), "{err:?}");
    assert!(!matches!(
        err,
        TransactGetItemsError::TransactionCanceledException(_)
    ));
}

#[tokio::test]
async fn transact_get_items_answers_in_request_order() {
    let (_server, client) = pets_and_counters().await;
    let got = client
        .transact_get_items()
        .transact_items(
            TransactGetItem::builder()
                .get(
                    Get::builder()
                        .table_name("Counters")
                        .key("id", n(1))
                        .build()
                        .unwrap(),
                )
                .build(),
        )
        .transact_items(
            TransactGetItem::builder()
                .get(
                    Get::builder()
                        .table_name("Pets")
                        .set_key(Some(pet_key("Cat", "Nobody")))
                        .build()
                        .unwrap(),
                )
                .build(),
        )
        .transact_items(
            TransactGetItem::builder()
                .get(
                    Get::builder()
                        .table_name("Pets")
                        .set_key(Some(pet_key("Dog", "Fido")))
                        .projection_expression("#a")
                        .expression_attribute_names("#a", "Age")
                        .build()
                        .unwrap(),
                )
                .build(),
        )
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    let responses: Vec<Option<&Item>> = got.responses().iter().map(|r| r.item()).collect();
    assert_eq!(
        responses,
        [
            Some(&item([("id", n(1)), ("hits", n(10))])),
            None,
            Some(&item([("Age", n(3))])),
        ]
    );
    // Two read units per item read, missing or not.
    let total: f64 = got
        .consumed_capacity()
        .iter()
        .map(|c| c.capacity_units().unwrap())
        .sum();
    assert_eq!(total, 6.0);

    let err = service_error(
        client
            .transact_get_items()
            .transact_items(
                TransactGetItem::builder()
                    .get(Get::builder().table_name("Nope").key("id", n(1)).build().unwrap())
                    .build(),
            )
            .send()
            .await,
    );
    assert!(
        matches!(err, TransactGetItemsError::ResourceNotFoundException(_)),
        "{err:?}"
    );
}
