//! Creating and deleting tables through the commands, on the embedded engine.

use std::sync::Arc;

use dynotable_app::dto::{
    Billing, IndexKind, KeyAttribute, KeySchema, NewIndex, NewTable, Projection, ProjectionType, ScalarType,
};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

fn key(name: &str, ty: ScalarType) -> KeyAttribute {
    KeyAttribute {
        name: name.into(),
        ty,
    }
}

fn orders() -> NewTable {
    NewTable {
        name: "Orders2".into(),
        keys: KeySchema {
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
            partition_key: key("customerId", ScalarType::S),
            sort_key: Some(key("orderedAt", ScalarType::N)),
        },
        billing: Billing::Provisioned {
            read_units: 5,
            write_units: 2,
        },
        indexes: vec![
            NewIndex {
                name: "ByStatus".into(),
                kind: IndexKind::Global,
                keys: KeySchema {
                    more_partition_keys: Vec::new(),
                    more_sort_keys: Vec::new(),
                    partition_key: key("status", ScalarType::S),
                    sort_key: Some(key("orderedAt", ScalarType::N)),
                },
                projection: Projection {
                    ty: ProjectionType::Include,
                    attributes: vec!["total".into()],
                },
            },
            NewIndex {
                name: "ByTotal".into(),
                kind: IndexKind::Local,
                keys: KeySchema {
                    more_partition_keys: Vec::new(),
                    more_sort_keys: Vec::new(),
                    partition_key: key("customerId", ScalarType::S),
                    sort_key: Some(key("total", ScalarType::N)),
                },
                projection: Projection {
                    ty: ProjectionType::KeysOnly,
                    attributes: vec![],
                },
            },
        ],
        stream_view_type: None,
        ttl_attribute: None,
        tags: vec![],
    }
}

#[tokio::test]
async fn a_table_is_created_with_its_indexes_and_deleted_after_its_name_is_typed_back() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let created = app.create_table(EMBEDDED_ID, orders()).await.unwrap();
    assert_eq!(created.name, "Orders2");
    let described = app.describe_table(EMBEDDED_ID, "Orders2").await.unwrap();
    assert_eq!(described.keys, orders().keys);
    assert_eq!(described.billing_mode, "PROVISIONED");
    assert_eq!(described.provisioned, Some((5.0, 2.0)));
    // Every key attribute defined once, with its type.
    let mut definitions: Vec<(String, ScalarType)> = described
        .attribute_definitions
        .iter()
        .map(|d| (d.name.clone(), d.ty))
        .collect();
    definitions.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        definitions,
        [
            ("customerId".into(), ScalarType::S),
            ("orderedAt".into(), ScalarType::N),
            ("status".into(), ScalarType::S),
            ("total".into(), ScalarType::N)
        ]
    );
    let gsi = described.indexes.iter().find(|i| i.name == "ByStatus").unwrap();
    assert_eq!(gsi.kind, IndexKind::Global);
    assert_eq!(gsi.projection.attributes, ["total"]);
    let lsi = described.indexes.iter().find(|i| i.name == "ByTotal").unwrap();
    assert_eq!(lsi.projection.ty, ProjectionType::KeysOnly);

    // Creating it again is DynamoDB's ResourceInUseException.
    let err = app.create_table(EMBEDDED_ID, orders()).await.unwrap_err();
    assert_eq!(err.exception.as_deref(), Some("ResourceInUseException"));

    // The table's name, as the same caller could send it, is no confirmation.
    let err = app
        .delete_table(EMBEDDED_ID, "Orders2", "Orders2")
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed);
    // A token confirms the table it was issued for, on its connection, once.
    let other = app.issue_delete_token(EMBEDDED_ID, "Telemetry").await.unwrap();
    let err = app
        .delete_table(EMBEDDED_ID, "Orders2", &other.token)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed);
    assert!(err.message.contains("another table"), "{}", err.message);
    let confirmed = app.issue_delete_token(EMBEDDED_ID, "Orders2").await.unwrap();
    assert_eq!(confirmed.table, "Orders2");
    app.delete_table(EMBEDDED_ID, "Orders2", &confirmed.token)
        .await
        .unwrap();
    let err = app
        .delete_table(EMBEDDED_ID, "Orders2", &confirmed.token)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed, "a token is used once");
    // The table the other token named is still there: nothing deleted it.
    app.describe_table(EMBEDDED_ID, "Telemetry").await.unwrap();
    let err = app.describe_table(EMBEDDED_ID, "Orders2").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

#[tokio::test]
async fn one_attribute_with_two_key_types_gets_the_services_answer_in_the_form_and_on_create() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let mut table = orders();
    table.indexes[0].keys.sort_key = Some(key("orderedAt", ScalarType::S));
    let problem = app.check_new_table(&table).problem.unwrap();
    assert_eq!(problem.exception.as_deref(), Some("ValidationException"));
    assert_eq!(problem.message, "Attribute Name is duplicated: orderedAt");
    let err = app.create_table(EMBEDDED_ID, table).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert_eq!(err.message, problem.message);
}
