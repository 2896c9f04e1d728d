//! PartiQL through the SDK: ExecuteStatement (INSERT, SELECT with `?` parameters, UPDATE,
//! DELETE, NextToken paging with Limit), BatchExecuteStatement (per-statement errors) and
//! ExecuteTransaction (all or nothing, reasons in order).

use std::collections::BTreeSet;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::execute_statement::ExecuteStatementError;
use aws_sdk_dynamodb::operation::execute_transaction::ExecuteTransactionError;
use aws_sdk_dynamodb::types::{
    AttributeValue, BatchStatementErrorCodeEnum, BatchStatementRequest, ParameterizedStatement,
    ReturnValuesOnConditionCheckFailure,
};

use crate::server::Server;
use crate::{Item, create_pets, item, n, s, service_error};

async fn statement(client: &Client, text: &str, parameters: Vec<AttributeValue>) -> Vec<Item> {
    client
        .execute_statement()
        .statement(text)
        .set_parameters((!parameters.is_empty()).then_some(parameters))
        .send()
        .await
        .unwrap_or_else(|err| panic!("{text}: {}", aws_sdk_dynamodb::error::DisplayErrorContext(&err)))
        .items
        .unwrap_or_default()
}

async fn pets() -> (Server, Client) {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;
    (server, client)
}

#[tokio::test]
async fn execute_statement_inserts_selects_updates_and_deletes() {
    let (_server, client) = pets().await;
    let insert = "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?, 'Age': ?}";
    for (name, age) in [("Fido", 3), ("Rex", 7), ("Spot", 1)] {
        let written = statement(&client, insert, vec![s("Dog"), s(name), n(age)]).await;
        assert!(written.is_empty(), "INSERT returns no items: {written:?}");
    }
    statement(
        &client,
        "INSERT INTO \"Pets\" VALUE {'AnimalType': 'Cat', 'Name': 'Tom', 'Toys': ['ball', 2], 'Tags': <<'a', 'b'>>}",
        vec![],
    )
    .await;

    // An existing item is not overwritten.
    let err = service_error(
        client
            .execute_statement()
            .statement(insert)
            .parameters(s("Dog"))
            .parameters(s("Fido"))
            .parameters(n(99))
            .send()
            .await,
    );
    assert_eq!(err.message(), Some("Duplicate primary key exists in table"));
    assert!(
        matches!(err, ExecuteStatementError::DuplicateItemException(_)),
        "typed DuplicateItemException, got {err:?}"
    );

    // Partition key equality with a parameter: a Query, in sort-key order, with a filter.
    let dogs = statement(
        &client,
        "SELECT Name, Age FROM Pets WHERE AnimalType = ? AND Age > ?",
        vec![s("Dog"), n(2)],
    )
    .await;
    assert_eq!(
        dogs,
        [
            item([("Name", s("Fido")), ("Age", n(3))]),
            item([("Name", s("Rex")), ("Age", n(7))])
        ]
    );
    let tom = statement(
        &client,
        "SELECT * FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Tom'",
        vec![],
    )
    .await;
    assert_eq!(
        tom,
        [item([
            ("AnimalType", s("Cat")),
            ("Name", s("Tom")),
            ("Toys", AttributeValue::L(vec![s("ball"), n(2)])),
            ("Tags", AttributeValue::Ss(vec!["a".into(), "b".into()])),
        ])]
    );

    let updated = statement(
        &client,
        "UPDATE Pets SET Age = Age + ? WHERE AnimalType = ? AND Name = ? RETURNING ALL NEW *",
        vec![n(1), s("Dog"), s("Fido")],
    )
    .await;
    assert_eq!(
        updated,
        [item([
            ("AnimalType", s("Dog")),
            ("Name", s("Fido")),
            ("Age", n(4))
        ])]
    );
    // The rest of an UPDATE's WHERE clause is a condition on the item.
    let err = service_error(
        client
            .execute_statement()
            .statement("UPDATE Pets SET Age = 0 WHERE AnimalType = 'Dog' AND Name = 'Fido' AND Age > 100")
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await,
    );
    let ExecuteStatementError::ConditionalCheckFailedException(failed) = err else {
        panic!("typed ConditionalCheckFailedException, got {err:?}");
    };
    assert_eq!(failed.item().and_then(|i| i.get("Age")), Some(&n(4)));

    statement(
        &client,
        "DELETE FROM Pets WHERE AnimalType = 'Dog' AND Name = ?",
        vec![s("Rex")],
    )
    .await;
    let names: Vec<Item> = statement(&client, "SELECT Name FROM Pets WHERE AnimalType = 'Dog'", vec![]).await;
    assert_eq!(names, [item([("Name", s("Fido"))]), item([("Name", s("Spot"))])]);

    // Statements the service refuses.
    let err = service_error(
        client
            .execute_statement()
            .statement("UPDATE Pets SET Age = 1 WHERE AnimalType = 'Dog'")
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Where clause does not contain a mandatory equality on all key attributes")
    );
    let err = service_error(
        client
            .execute_statement()
            .statement("SELECT * FROM Nowhere")
            .send()
            .await,
    );
    assert!(
        matches!(err, ExecuteStatementError::ResourceNotFoundException(_)),
        "{err:?}"
    );
}

#[tokio::test]
async fn select_pages_with_limit_and_next_token() {
    let (_server, client) = pets().await;
    for i in 0..7 {
        statement(
            &client,
            "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?, 'Age': ?}",
            vec![
                s(if i % 2 == 0 { "Dog" } else { "Cat" }),
                s(&format!("pet-{i}")),
                n(i),
            ],
        )
        .await;
    }
    // A Scan (no key in the WHERE clause); Limit counts the items evaluated.
    let text = "SELECT Name FROM Pets WHERE Age >= 1";
    let mut names = Vec::new();
    let mut token = None;
    let mut pages = 0;
    loop {
        let page = client
            .execute_statement()
            .statement(text)
            .limit(2)
            .set_next_token(token)
            .send()
            .await
            .unwrap();
        pages += 1;
        assert!(page.items().len() <= 2, "{page:?}");
        names.extend(page.items().iter().map(|i| i["Name"].as_s().unwrap().clone()));
        token = page.next_token().map(str::to_owned);
        if token.is_none() {
            break;
        }
        assert!(pages < 10, "paging does not end");
    }
    assert!(pages >= 4, "7 items, 2 a page: {pages} pages");
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "no item twice: {names:?}");
    assert_eq!(
        unique,
        (1..7)
            .map(|i| format!("pet-{i}"))
            .collect::<Vec<_>>()
            .iter()
            .collect(),
        "every matching item once"
    );

    // A token continues only the statement it came from.
    let first = client
        .execute_statement()
        .statement(text)
        .limit(2)
        .send()
        .await
        .unwrap();
    let err = service_error(
        client
            .execute_statement()
            .statement("SELECT Name FROM Pets WHERE Age >= 2")
            .limit(2)
            .next_token(first.next_token().unwrap())
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(err.message(), Some("NextToken does not match request"));
}

#[tokio::test]
async fn batch_execute_statement_answers_each_statement_on_its_own() {
    let (_server, client) = pets().await;
    let write = |text: &str, parameters: Vec<AttributeValue>| {
        BatchStatementRequest::builder()
            .statement(text)
            .set_parameters((!parameters.is_empty()).then_some(parameters))
            .build()
            .unwrap()
    };
    let inserted = client
        .batch_execute_statement()
        .statements(write(
            "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?, 'Age': 3}",
            vec![s("Dog"), s("Fido")],
        ))
        .statements(write(
            "INSERT INTO Pets VALUE {'AnimalType': 'Cat', 'Name': 'Tom', 'Age': 5}",
            vec![],
        ))
        .statements(write(
            "INSERT INTO Pets VALUE {'AnimalType': 'Bird', 'Name': 'Tweety', 'Age': 1}",
            vec![],
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(inserted.responses().len(), 3);
    for response in inserted.responses() {
        assert_eq!(response.error(), None, "{response:?}");
        assert_eq!(response.table_name(), Some("Pets"));
    }

    let mixed = client
        .batch_execute_statement()
        .statements(write(
            "INSERT INTO Pets VALUE {'AnimalType': 'Dog', 'Name': 'Fido'}",
            vec![],
        ))
        .statements(
            BatchStatementRequest::builder()
                .statement("UPDATE Pets SET Age = 0 WHERE AnimalType = 'Cat' AND Name = 'Tom' AND Age > 10")
                .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
                .build()
                .unwrap(),
        )
        .statements(write(
            "UPDATE Pets SET Age = Age + 1 WHERE AnimalType = 'Bird' AND Name = 'Tweety'",
            vec![],
        ))
        .send()
        .await
        .unwrap();
    let errors: Vec<Option<&BatchStatementErrorCodeEnum>> = mixed
        .responses()
        .iter()
        .map(|r| r.error().and_then(|e| e.code()))
        .collect();
    assert_eq!(
        errors,
        [
            Some(&BatchStatementErrorCodeEnum::DuplicateItem),
            Some(&BatchStatementErrorCodeEnum::ConditionalCheckFailed),
            None
        ]
    );
    assert_eq!(
        mixed.responses()[1].error().and_then(|e| e.item()),
        Some(&item([
            ("AnimalType", s("Cat")),
            ("Name", s("Tom")),
            ("Age", n(5))
        ])),
        "ALL_OLD puts the item on the statement's error"
    );

    // Reads: one item each by its full key; a missing item is an empty response.
    let read = client
        .batch_execute_statement()
        .statements(write(
            "SELECT Age FROM Pets WHERE AnimalType = ? AND Name = ?",
            vec![s("Dog"), s("Fido")],
        ))
        .statements(write(
            "SELECT * FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Nobody'",
            vec![],
        ))
        .statements(write(
            "SELECT Age FROM Pets WHERE AnimalType = 'Bird' AND Name = 'Tweety'",
            vec![],
        ))
        .send()
        .await
        .unwrap();
    let items: Vec<Option<&Item>> = read.responses().iter().map(|r| r.item()).collect();
    assert_eq!(
        items,
        [Some(&item([("Age", n(3))])), None, Some(&item([("Age", n(2))]))],
        "the duplicate INSERT changed nothing; the third statement applied"
    );
    assert!(read.responses().iter().all(|r| r.error().is_none()));

    // Two statements on one item fail the whole batch.
    let err = service_error(
        client
            .batch_execute_statement()
            .statements(write(
                "UPDATE Pets SET Age = 50 WHERE AnimalType = 'Dog' AND Name = 'Fido'",
                vec![],
            ))
            .statements(write(
                "DELETE FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'",
                vec![],
            ))
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Provided list of item keys contains duplicates")
    );

    // Reads mixed with writes fail the whole batch.
    let err = service_error(
        client
            .batch_execute_statement()
            .statements(write(
                "SELECT * FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'",
                vec![],
            ))
            .statements(write(
                "DELETE FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'",
                vec![],
            ))
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"), "{err:?}");
    let still = statement(
        &client,
        "SELECT Name FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'",
        vec![],
    )
    .await;
    assert_eq!(still.len(), 1, "the refused batch deleted nothing");
}

#[tokio::test]
async fn execute_transaction_is_all_or_nothing() {
    let (_server, client) = pets().await;
    let st = |text: &str, parameters: Vec<AttributeValue>| {
        ParameterizedStatement::builder()
            .statement(text)
            .set_parameters((!parameters.is_empty()).then_some(parameters))
            .build()
            .unwrap()
    };
    statement(
        &client,
        "INSERT INTO Pets VALUE {'AnimalType': 'Dog', 'Name': 'Fido', 'Age': 3}",
        vec![],
    )
    .await;

    let written = client
        .execute_transaction()
        .transact_statements(st(
            "EXISTS(SELECT * FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido' AND Age = 3)",
            vec![],
        ))
        .transact_statements(st(
            "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?}",
            vec![s("Cat"), s("Tom")],
        ))
        .transact_statements(st(
            "INSERT INTO Pets VALUE {'AnimalType': 'Bird', 'Name': 'Tweety'}",
            vec![],
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(written.responses().len(), 3);

    // A duplicate INSERT and a failed condition cancel the whole transaction.
    let err = service_error(
        client
            .execute_transaction()
            .transact_statements(st(
                "UPDATE Pets SET Age = 10 WHERE AnimalType = 'Dog' AND Name = 'Fido'",
                vec![],
            ))
            .transact_statements(st(
                "INSERT INTO Pets VALUE {'AnimalType': 'Cat', 'Name': 'Tom'}",
                vec![],
            ))
            .transact_statements(
                ParameterizedStatement::builder()
                    .statement("DELETE FROM Pets WHERE AnimalType = 'Bird' AND Name = 'Tweety' AND Age = 1")
                    .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
                    .build()
                    .unwrap(),
            )
            .send()
            .await,
    );
    let ExecuteTransactionError::TransactionCanceledException(cancelled) = err else {
        panic!("typed TransactionCanceledException, got {err:?}");
    };
    let codes: Vec<Option<&str>> = cancelled
        .cancellation_reasons()
        .iter()
        .map(|r| r.code())
        .collect();
    assert_eq!(
        codes,
        [
            Some("None"),
            Some("DuplicateItem"),
            Some("ConditionalCheckFailed")
        ]
    );
    assert_eq!(
        cancelled.cancellation_reasons()[2].item(),
        Some(&item([("AnimalType", s("Bird")), ("Name", s("Tweety"))]))
    );

    // Nothing of it applied; a read transaction sees the committed state.
    let read = client
        .execute_transaction()
        .transact_statements(st(
            "SELECT Age FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'",
            vec![],
        ))
        .transact_statements(st(
            "SELECT * FROM Pets WHERE AnimalType = ? AND Name = ?",
            vec![s("Bird"), s("Tweety")],
        ))
        .transact_statements(st(
            "SELECT * FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Nobody'",
            vec![],
        ))
        .send()
        .await
        .unwrap();
    let items: Vec<Option<&Item>> = read.responses().iter().map(|r| r.item()).collect();
    assert_eq!(
        items,
        [
            Some(&item([("Age", n(3))])),
            Some(&item([("AnimalType", s("Bird")), ("Name", s("Tweety"))])),
            None
        ]
    );
}
