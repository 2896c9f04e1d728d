//! The PartiQL editor's commands on the embedded engine's demo data: a SELECT with a parameter
//! paged by NextToken, an INSERT, a syntax error with its exception and position, a read-only
//! connection refusing writes before sending them, a batch and a transaction.

use std::collections::BTreeSet;
use std::sync::Arc;

use dynotable_app::dto::AttributeValue;
use dynotable_app::dto::partiql::{BatchStatementInput, StatementInput};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, Profile, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

async fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    (dir, app)
}

fn statement(text: &str, parameters: Vec<AttributeValue>) -> StatementInput {
    StatementInput {
        statement: text.into(),
        parameters,
        next_token: None,
        consistent_read: false,
        limit: None,
    }
}

/// A connection to an endpoint on loopback (the engine shared on a port, or nothing there).
async fn endpoint_profile(app: &App, name: &str, url: impl Into<String>, read_only: bool) -> Profile {
    app.create_profile(ProfileInput {
        name: name.into(),
        color: "#000000".into(),
        region: "local".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: url.into(),
            access_key_id: "local".into(),
            secret_access_key: SecretInput::new("local"),
        },
    })
    .await
    .unwrap()
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

#[tokio::test]
async fn a_select_with_a_parameter_pages_by_next_token() {
    let (_dir, app) = app().await;
    let mut input = statement(
        r#"SELECT * FROM "Telemetry" WHERE "vehicleId" = ?"#,
        vec![s("VEH#V-7741")],
    );
    input.limit = Some(500);
    let mut seen = BTreeSet::new();
    let mut pages = 0;
    loop {
        let page = app.execute_statement(EMBEDDED_ID, input.clone()).await.unwrap();
        pages += 1;
        assert!(page.items.len() <= 500);
        let capacity = page.consumed_capacity.expect("every page reports its capacity");
        assert!(capacity.total > 0.0, "{capacity:?}");
        for item in &page.items {
            assert_eq!(item["vehicleId"], s("VEH#V-7741"));
            let AttributeValue::S(at) = &item["recordedAt"] else {
                panic!("recordedAt is a string")
            };
            assert!(seen.insert(at.clone()), "{at} came twice");
        }
        match page.next_token {
            Some(token) => input.next_token = Some(token),
            None => break,
        }
    }
    // META and one reading a minute for a day, over three pages of at most 500.
    assert_eq!(seen.len(), 1441);
    assert!(pages >= 3, "{pages} pages");
}

#[tokio::test]
async fn an_insert_writes_an_item_that_a_select_then_finds() {
    let (_dir, app) = app().await;
    let page = app
        .execute_statement(
            EMBEDDED_ID,
            statement(
                r#"INSERT INTO "Pets" VALUE {'AnimalType': ?, 'Name': ?, 'age': 3}"#,
                vec![s("Axolotl"), s("Pink")],
            ),
        )
        .await
        .unwrap();
    assert!(page.items.is_empty());
    assert!(page.next_token.is_none());
    let found = app
        .execute_statement(
            EMBEDDED_ID,
            statement(
                r#"SELECT "age" FROM "Pets" WHERE "AnimalType" = 'Axolotl' AND "Name" = 'Pink'"#,
                vec![],
            ),
        )
        .await
        .unwrap();
    assert_eq!(found.items.len(), 1);
    assert_eq!(found.items[0]["age"], AttributeValue::N("3".into()));
}

#[tokio::test]
async fn a_malformed_statement_comes_back_with_its_exception_and_position() {
    let (_dir, app) = app().await;
    let err = app
        .execute_statement(EMBEDDED_ID, statement(r#"SELECT * FROM "Pets" WHERE"#, vec![]))
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
    assert!(
        err.message.starts_with("Statement wasn't well formed"),
        "{}",
        err.message
    );
    let err = app
        .execute_statement(
            EMBEDDED_ID,
            statement(r#"SELECT * FROM "NoSuchTable" WHERE "id" = ?"#, vec![s("x")]),
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound, "{err:?}");
    assert_eq!(err.exception.as_deref(), Some("ResourceNotFoundException"));
}

#[tokio::test]
async fn a_read_only_connection_refuses_writes_before_sending_them_and_still_reads() {
    let (_dir, app) = app().await;
    let shared = app.share_engine(0).await.unwrap();
    let watch = endpoint_profile(&app, "watch", shared.url, true).await;
    let insert = r#"INSERT INTO "Pets" VALUE {'AnimalType': 'Owl', 'Name': 'Hoot'}"#;
    let delete = r#"DELETE FROM "Pets" WHERE "AnimalType" = 'Dog' AND "Name" = 'Fido'"#;
    let refusals = [
        app.execute_statement(&watch.id, statement(insert, vec![]))
            .await
            .unwrap_err(),
        app.execute_statement(&watch.id, statement(&format!("-- SELECT\n{delete}"), vec![]))
            .await
            .unwrap_err(),
        app.execute_batch(
            &watch.id,
            vec![BatchStatementInput {
                statement: insert.into(),
                parameters: vec![],
            }],
            false,
        )
        .await
        .unwrap_err(),
        app.execute_transaction(
            &watch.id,
            vec![BatchStatementInput {
                statement: delete.into(),
                parameters: vec![],
            }],
        )
        .await
        .unwrap_err(),
    ];
    for err in refusals {
        assert_eq!(err.code, ErrorCode::ReadOnly, "{err:?}");
    }
    // Nothing was written; and the read-only connection still reads, over the wire.
    let owls = app
        .execute_statement(
            &watch.id,
            statement(r#"SELECT * FROM "Pets" WHERE "AnimalType" = ?"#, vec![s("Owl")]),
        )
        .await
        .unwrap();
    assert!(owls.items.is_empty());
}

#[tokio::test]
async fn a_batch_answers_each_statement_and_a_transaction_all_or_nothing() {
    let (_dir, app) = app().await;
    batch_and_transaction(&app, EMBEDDED_ID).await;
}

/// The same over the wire, as on AWS: an endpoint connection to the engine served on a loopback
/// port (dynalite has no PartiQL, so this is the AWS path's test, issue 20).
#[tokio::test]
async fn a_batch_and_a_transaction_over_an_endpoint_connection_on_loopback() {
    let (_dir, app) = app().await;
    let shared = app.share_engine(0).await.unwrap();
    let endpoint = endpoint_profile(&app, "loopback", shared.url, false).await;
    batch_and_transaction(&app, &endpoint.id).await;
}

async fn batch_and_transaction(app: &App, profile: &str) {
    let insert = |name: &str| BatchStatementInput {
        statement: r#"INSERT INTO "Pets" VALUE {'AnimalType': 'Newt', 'Name': ?}"#.into(),
        parameters: vec![s(name)],
    };
    let outcome = app
        .execute_batch(profile, vec![insert("A"), insert("B")], false)
        .await
        .unwrap();
    assert_eq!(outcome.results.len(), 2);
    assert!(outcome.results.iter().all(|r| r.error.is_none()), "{outcome:?}");
    // The same inserts again: each fails on its own, with DynamoDB's code.
    let again = app
        .execute_batch(profile, vec![insert("A"), insert("C")], false)
        .await
        .unwrap();
    let first = again.results[0].error.as_ref().expect("A exists already");
    assert_eq!(first.code, "DuplicateItem", "{first:?}");
    assert!(again.results[1].error.is_none());

    // A transaction with one failing statement writes nothing.
    let err = app
        .execute_transaction(profile, vec![insert("D"), insert("A")])
        .await
        .unwrap_err();
    assert_eq!(
        err.exception.as_deref(),
        Some("TransactionCanceledException"),
        "{err:?}"
    );
    let newts = app
        .execute_statement(
            profile,
            statement(r#"SELECT "Name" FROM "Pets" WHERE "AnimalType" = 'Newt'"#, vec![]),
        )
        .await
        .unwrap();
    let names: BTreeSet<String> = newts
        .items
        .iter()
        .map(|i| match &i["Name"] {
            AttributeValue::S(name) => name.clone(),
            other => panic!("a name is a string: {other:?}"),
        })
        .collect();
    assert_eq!(
        names,
        BTreeSet::from(["A".to_owned(), "B".to_owned(), "C".to_owned()])
    );
}

#[tokio::test]
async fn statements_are_saved_by_name_per_connection_replaced_under_the_same_name_and_forgotten_with_it() {
    use dynotable_app::dto::partiql::{RunMode, SavedStatementContent};
    let (_dir, app) = app().await;
    let window = SavedStatementContent {
        statement: r#"SELECT * FROM "Telemetry" WHERE "vehicleId" = ? AND "recordedAt" BETWEEN ? AND ?"#
            .into(),
        parameters: vec![
            s("VEH#V-7741"),
            s("TS#2025-03-14T09:00:00Z"),
            s("TS#2025-03-14T09:09:00Z"),
        ],
        mode: RunMode::Statement,
    };
    let first = app
        .save_statement(EMBEDDED_ID, "  ten minutes  ", window.clone())
        .await
        .unwrap();
    assert_eq!(first.name, "ten minutes");
    // The same name again replaces the content and keeps the row.
    let batch = SavedStatementContent {
        statement: r#"SELECT * FROM "Pets"; SELECT * FROM "Music""#.into(),
        parameters: vec![],
        mode: RunMode::Batch,
    };
    let again = app
        .save_statement(EMBEDDED_ID, "ten minutes", batch.clone())
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    app.save_statement(EMBEDDED_ID, "a window", window.clone())
        .await
        .unwrap();
    let saved = app.saved_statements(EMBEDDED_ID).await.unwrap();
    assert_eq!(
        saved
            .iter()
            .map(|s| (s.name.as_str(), &s.content))
            .collect::<Vec<_>>(),
        vec![("a window", &window), ("ten minutes", &batch)]
    );
    // Refused in a sentence: no name, no statement.
    let unnamed = app
        .save_statement(EMBEDDED_ID, " ", window.clone())
        .await
        .unwrap_err();
    assert_eq!(unnamed.code, ErrorCode::Validation);
    assert_eq!(
        unnamed.message,
        "A saved statement needs a name of 1 to 100 characters."
    );
    let empty = SavedStatementContent {
        statement: "  ".into(),
        ..window.clone()
    };
    let nothing = app.save_statement(EMBEDDED_ID, "empty", empty).await.unwrap_err();
    assert_eq!(nothing.message, "There is no statement to save: type one first.");

    app.delete_saved_statement(&first.id).await.unwrap();
    let left = app.saved_statements(EMBEDDED_ID).await.unwrap();
    assert_eq!(
        left.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        vec!["a window"]
    );

    // Another connection has its own shelf, and loses it with the connection.
    let other = endpoint_profile(&app, "other", "http://127.0.0.1:1", false).await;
    assert!(app.saved_statements(&other.id).await.unwrap().is_empty());
    app.save_statement(&other.id, "theirs", window.clone())
        .await
        .unwrap();
    app.delete_profile(&other.id).await.unwrap();
    assert!(app.saved_statements(&other.id).await.unwrap().is_empty());
    assert_eq!(app.saved_statements(EMBEDDED_ID).await.unwrap().len(), 1);
}
