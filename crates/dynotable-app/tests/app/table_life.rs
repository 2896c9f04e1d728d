//! A table's life through the commands: the create-table form's check (the engine's own
//! CreateTable rules, with the service's messages), create with a stream, tags and TTL, every
//! change of the Settings view, and the delete that only a backend-issued token allows — on the
//! embedded engine, on `dynotable-local` served on a loopback port and reached as an endpoint
//! connection (the code path of every AWS connection), and on dynalite (a DynamoDB nobody here
//! wrote; `tests/peers`) for the operations it has (no UpdateTimeToLive, no streams, and UpdateTable
//! only for throughput).
//! Read-only connections and unconfirmed deletes are refused by the backend whatever the caller
//! sends.

use std::sync::Arc;

use crate::support;
use support::Dynalite;

use dynotable_app::dto::{
    Billing, IndexKind, KeyAttribute, KeySchema, NewIndex, NewTable, Projection, ProjectionType, ScalarType,
    TableTag,
};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

fn key(name: &str, ty: ScalarType) -> KeyAttribute {
    KeyAttribute {
        name: name.into(),
        ty,
    }
}

fn keys(partition: (&str, ScalarType), sort: Option<(&str, ScalarType)>) -> KeySchema {
    KeySchema {
        more_partition_keys: Vec::new(),
        more_sort_keys: Vec::new(),
        partition_key: key(partition.0, partition.1),
        sort_key: sort.map(|(n, t)| key(n, t)),
    }
}

fn gsi(name: &str, partition: &str) -> NewIndex {
    NewIndex {
        name: name.into(),
        kind: IndexKind::Global,
        keys: keys((partition, ScalarType::S), None),
        projection: Projection {
            ty: ProjectionType::KeysOnly,
            attributes: vec![],
        },
    }
}

/// Trips: a vehicle's trips by start time, a GSI by depot, a stream, a tag and a TTL attribute.
fn trips(name: &str) -> NewTable {
    NewTable {
        name: name.into(),
        keys: keys(("vehicleId", ScalarType::S), Some(("startedAt", ScalarType::N))),
        billing: Billing::OnDemand,
        indexes: vec![NewIndex {
            projection: Projection {
                ty: ProjectionType::Include,
                attributes: vec!["distanceKm".into()],
            },
            ..gsi("ByDepot", "depot")
        }],
        stream_view_type: Some("NEW_AND_OLD_IMAGES".into()),
        ttl_attribute: Some("expiresAt".into()),
        tags: vec![TableTag {
            key: "team".into(),
            value: "fleet".into(),
        }],
    }
}

fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    (dir, app)
}

fn problem(app: &App, table: &NewTable) -> Option<(String, String)> {
    app.check_new_table(table)
        .problem
        .map(|p| (p.exception.unwrap_or_default(), p.message))
}

fn validation(message: &str) -> Option<(String, String)> {
    Some(("ValidationException".into(), message.into()))
}

#[tokio::test]
async fn the_form_check_answers_with_the_services_messages() {
    let (_dir, app) = app();
    assert_eq!(problem(&app, &trips("Trips")), None);

    let mut short = trips("Tr");
    short.ttl_attribute = None;
    assert_eq!(
        problem(&app, &short),
        validation("TableName must be at least 3 characters long and at most 255 characters long")
    );

    let mut odd = trips("Trips!");
    odd.ttl_attribute = None;
    let (_, message) = problem(&app, &odd).unwrap();
    assert!(
        message.starts_with("1 validation error detected: Value 'Trips!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"),
        "{message}"
    );

    // An LSI needs the table's partition key and a sort key on the table.
    let mut lsi = trips("Trips");
    lsi.keys.sort_key = None;
    lsi.indexes = vec![NewIndex {
        kind: IndexKind::Local,
        keys: keys(("vehicleId", ScalarType::S), Some(("depot", ScalarType::S))),
        ..gsi("ByDepotLocal", "vehicleId")
    }];
    assert_eq!(
        problem(&app, &lsi),
        validation(
            "One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"
        )
    );
    lsi.keys.sort_key = Some(key("startedAt", ScalarType::N));
    lsi.indexes[0].keys.partition_key = key("depot", ScalarType::S);
    lsi.indexes[0].keys.sort_key = Some(key("startedAt", ScalarType::N));
    let (_, message) = problem(&app, &lsi).unwrap();
    assert!(
        message.contains("Index KeySchema does not have the same leading hash key as table KeySchema for index: ByDepotLocal"),
        "{message}"
    );

    // INCLUDE with no attribute, 21 GSIs, 101 projected attributes.
    let mut include = trips("Trips");
    include.indexes[0].projection.attributes.clear();
    assert_eq!(
        problem(&app, &include),
        validation(
            "One or more parameter values were invalid: NonKeyAttributes must not be empty when ProjectionType is INCLUDE for index: ByDepot"
        )
    );
    let mut many = trips("Trips");
    many.indexes = (0..21)
        .map(|i| gsi(&format!("G{i:02}"), &format!("g{i}")))
        .collect();
    let (_, message) = problem(&app, &many).unwrap();
    assert!(message.contains("exceeds the per-table limit of 20"), "{message}");
    // Past 100 projected attributes over the table's indexes, none past its own 20 (rule B.21.3):
    // six indexes of 17.
    let mut wide = trips("Trips");
    wide.indexes = (0..6)
        .map(|i| NewIndex {
            projection: Projection {
                ty: ProjectionType::Include,
                attributes: (0..17).map(|a| format!("a{i}_{a}")).collect(),
            },
            ..gsi(&format!("Wide{i}"), &format!("w{i}"))
        })
        .collect();
    let (_, message) = problem(&app, &wide).unwrap();
    assert!(message.contains("exceeds limit of 100"), "{message}");
    // One index of 21 is refused by its own limit first.
    wide.indexes.truncate(1);
    wide.indexes[0].projection.attributes = (0..21).map(|a| format!("a{a}")).collect();
    let (_, message) = problem(&app, &wide).unwrap();
    assert!(
        message.contains(
            "nonKeyAttributes' failed to satisfy constraint: Member must have length less than or equal to 20"
        ),
        "{message}"
    );

    // Provisioned throughput of zero, an empty tag key, a TTL attribute too long.
    let mut zero = trips("Trips");
    zero.billing = Billing::Provisioned {
        read_units: 0,
        write_units: 1,
    };
    let (_, message) = problem(&app, &zero).unwrap();
    assert!(message.contains("readCapacityUnits"), "{message}");
    let mut tag = trips("Trips");
    tag.tags[0].key.clear();
    assert!(problem(&app, &tag).is_some());
    let mut ttl = trips("Trips");
    ttl.ttl_attribute = Some("t".repeat(256));
    let (_, message) = problem(&app, &ttl).unwrap();
    assert!(
        message.contains("timeToLiveSpecification.attributeName"),
        "{message}"
    );
}

/// The form's check and the engine's CreateTable are one rule set: for each bad draft, what the
/// form shows is exactly what creating it on the embedded engine answers.
#[tokio::test]
async fn the_form_check_is_what_create_table_answers() {
    let (_dir, app) = app();
    let mut drafts = Vec::new();
    let mut draft = trips("x");
    draft.ttl_attribute = None;
    drafts.push(draft.clone());
    draft.name = "Trips".into();
    draft.indexes[0].projection.attributes.clear();
    drafts.push(draft.clone());
    draft.indexes[0].projection.ty = ProjectionType::KeysOnly;
    draft.indexes.push(gsi("ByDepot", "other"));
    drafts.push(draft.clone());
    draft.indexes.truncate(1);
    draft.billing = Billing::Provisioned {
        read_units: 40_001,
        write_units: 1,
    };
    drafts.push(draft.clone());
    draft.billing = Billing::OnDemand;
    draft.tags = vec![TableTag {
        key: "aws:owner".into(),
        value: "me".into(),
    }];
    drafts.push(draft.clone());
    for draft in drafts {
        let shown = app.check_new_table(&draft).problem.expect("a bad draft");
        let answered = app.create_table(EMBEDDED_ID, draft.clone()).await.unwrap_err();
        assert_eq!(
            (shown.exception, shown.message),
            (answered.exception, answered.message),
            "{draft:?}"
        );
    }
}

#[tokio::test]
async fn the_code_shown_is_the_request_checked() {
    let (_dir, app) = app();
    let check = app.check_new_table(&trips("Trips"));
    let request: serde_json::Value = serde_json::from_str(&check.code.create_table).unwrap();
    assert_eq!(request["TableName"], "Trips");
    assert_eq!(
        request["GlobalSecondaryIndexes"][0]["Projection"]["NonKeyAttributes"][0],
        "distanceKm"
    );
    assert_eq!(
        request["StreamSpecification"]["StreamViewType"],
        "NEW_AND_OLD_IMAGES"
    );
    assert!(check.code.update_time_to_live.unwrap().contains("expiresAt"));
    assert!(
        check.code.aws_cli.starts_with("aws dynamodb create-table"),
        "{}",
        check.code.aws_cli
    );
    assert!(check.code.cloud_formation.contains("AWS::DynamoDB::Table"));
}

/// Creates, checks what DescribeTable says, and deletes `trips(name)` on `profile`.
async fn create_describe_delete(app: &App, profile: &str, name: &str) {
    let created = app.create_table(profile, trips(name)).await.unwrap();
    assert_eq!(created.name, name);
    assert_eq!(created.billing_mode, "PAY_PER_REQUEST");
    assert_eq!(created.stream_view_type.as_deref(), Some("NEW_AND_OLD_IMAGES"));
    assert_eq!(
        created.ttl_attribute.as_deref(),
        Some("expiresAt"),
        "TTL enabled after CreateTable"
    );
    let index = &created.indexes[0];
    assert_eq!((index.name.as_str(), index.kind), ("ByDepot", IndexKind::Global));
    let listed = app.list_tables(profile, None).await.unwrap();
    assert!(listed.names.iter().any(|n| n == name), "{listed:?}");

    // The name typed back is no confirmation; a token for another table is none either.
    let err = app.delete_table(profile, name, name).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed);
    let other = app.issue_delete_token(profile, "SomeOtherTable").await.unwrap();
    let err = app.delete_table(profile, name, &other.token).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed);
    app.describe_table(profile, name).await.unwrap();

    let token = app.issue_delete_token(profile, name).await.unwrap();
    app.delete_table(profile, name, &token.token).await.unwrap();
    let err = app.describe_table(profile, name).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

#[tokio::test]
async fn a_table_is_created_with_stream_tags_and_ttl_and_deleted_on_the_embedded_engine() {
    let (_dir, app) = app();
    create_describe_delete(&app, EMBEDDED_ID, "Trips").await;
}

/// `dynotable-local`: an engine of its own served on a loopback port.
async fn local_server() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let engine =
        dynotable_engine::Engine::open(dynotable_engine::Location::File(dir.path().join("local.db")))
            .await
            .unwrap();
    let url = dynotable_stand_ins::serve(dynotable_server::router(engine)).await;
    (dir, url)
}

fn endpoint(name: &str, url: &str, read_only: bool) -> ProfileInput {
    ProfileInput {
        name: name.into(),
        color: "#3366ff".into(),
        region: "us-east-1".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: url.into(),
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SecretInput::new("local-secret"),
        },
    }
}

#[tokio::test]
async fn a_table_is_created_and_deleted_on_dynotable_local_as_an_endpoint_connection() {
    let (_dir, app) = app();
    let (_data, url) = local_server().await;
    let profile = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    create_describe_delete(&app, &profile.id, "Trips").await;
}

#[tokio::test]
async fn a_read_only_connection_refuses_create_confirm_and_delete_whatever_is_sent() {
    let (_dir, app) = app();
    let (_data, url) = local_server().await;
    let writer = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    app.create_table(&writer.id, trips("Kept")).await.unwrap();
    let watcher = app
        .create_profile(endpoint("watch only", &url, true))
        .await
        .unwrap();

    let err = app.create_table(&watcher.id, trips("Trips")).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    let err = app.issue_delete_token(&watcher.id, "Kept").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    // Even a token issued for the table on a writable connection does not pass the read-only one.
    let token = app.issue_delete_token(&writer.id, "Kept").await.unwrap();
    let err = app
        .delete_table(&watcher.id, "Kept", &token.token)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    let err = app.delete_table(&watcher.id, "Kept", "Kept").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    // The writable connection's token was for its own connection; it still deletes there, once.
    let names = app.list_tables(&watcher.id, None).await.unwrap().names;
    assert_eq!(names, ["Kept"]);
    let err = app
        .delete_table(&writer.id, "Kept", "delete-1-0000000000000000")
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed, "a guessed token");
    app.delete_table(&writer.id, "Kept", &token.token).await.unwrap();
    assert!(app.list_tables(&writer.id, None).await.unwrap().names.is_empty());
}

/// Every change of the Settings view on `trips(name)` (made without TTL), on `profile`.
async fn change_everything(app: &App, profile: &str, name: &str) {
    use dynotable_app::table_changes::TableChange;
    let mut table = trips(name);
    table.ttl_attribute = None;
    app.create_table(profile, table).await.unwrap();

    let changed = app
        .change_table(
            profile,
            name,
            TableChange::Billing {
                billing: Billing::Provisioned {
                    read_units: 4,
                    write_units: 3,
                },
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.billing_mode, "PROVISIONED");
    assert_eq!(changed.provisioned, Some((4.0, 3.0)));

    let changed = app
        .change_table(
            profile,
            name,
            TableChange::AddIndex {
                index: gsi("ByDriver", "driver"),
            },
        )
        .await
        .unwrap();
    let added = changed.indexes.iter().find(|i| i.name == "ByDriver").unwrap();
    assert_eq!(added.kind, IndexKind::Global);
    assert!(
        matches!(added.status.as_deref(), Some("ACTIVE" | "CREATING")),
        "{added:?}"
    );
    let changed = app
        .change_table(
            profile,
            name,
            TableChange::DeleteIndex {
                name: "ByDepot".into(),
            },
        )
        .await
        .unwrap();
    assert!(
        changed
            .indexes
            .iter()
            .all(|i| i.name != "ByDepot" || i.status.as_deref() == Some("DELETING")),
        "{:?}",
        changed.indexes
    );

    let changed = app
        .change_table(profile, name, TableChange::Stream { view_type: None })
        .await
        .unwrap();
    assert_eq!(changed.stream_view_type, None);
    let changed = app
        .change_table(
            profile,
            name,
            TableChange::Stream {
                view_type: Some("KEYS_ONLY".into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.stream_view_type.as_deref(), Some("KEYS_ONLY"));

    let changed = app
        .change_table(
            profile,
            name,
            TableChange::TimeToLive {
                attribute: Some("expiresAt".into()),
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.ttl_attribute.as_deref(), Some("expiresAt"));
    // The service allows one TTL change an hour: turning it off at once gets its refusal.
    let err = app
        .change_table(profile, name, TableChange::TimeToLive { attribute: None })
        .await
        .unwrap_err();
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
    assert!(
        err.message.contains("multiple times within a fixed interval"),
        "{}",
        err.message
    );

    app.change_table(
        profile,
        name,
        TableChange::Tags {
            set: vec![TableTag {
                key: "env".into(),
                value: "test".into(),
            }],
            remove: vec!["team".into()],
        },
    )
    .await
    .unwrap();
    assert_eq!(
        app.table_tags(profile, name).await.unwrap(),
        [TableTag {
            key: "env".into(),
            value: "test".into()
        }]
    );
}

#[tokio::test]
async fn a_table_is_changed_in_every_way_on_the_embedded_engine() {
    let (_dir, app) = app();
    change_everything(&app, EMBEDDED_ID, "Trips").await;
}

#[tokio::test]
async fn a_table_is_changed_in_every_way_on_dynotable_local_and_not_through_a_read_only_connection() {
    use dynotable_app::table_changes::TableChange;
    let (_dir, app) = app();
    let (_data, url) = local_server().await;
    let profile = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    change_everything(&app, &profile.id, "Trips").await;
    let watcher = app
        .create_profile(endpoint("watch only", &url, true))
        .await
        .unwrap();
    for change in [
        TableChange::Billing {
            billing: Billing::OnDemand,
        },
        TableChange::DeleteIndex {
            name: "ByDriver".into(),
        },
        TableChange::Stream { view_type: None },
        TableChange::Tags {
            set: vec![],
            remove: vec!["env".into()],
        },
    ] {
        let err = app.change_table(&watcher.id, "Trips", change).await.unwrap_err();
        assert_eq!(err.code, ErrorCode::ReadOnly);
    }
    assert_eq!(
        app.table_tags(&watcher.id, "Trips").await.unwrap().len(),
        1,
        "nothing changed"
    );
}

/// Describes `name` until it and its indexes are ACTIVE (dynalite takes a moment, as AWS does).
async fn settled(app: &App, profile: &str, name: &str) -> dynotable_app::dto::TableDescription {
    for _ in 0..100 {
        let table = app.describe_table(profile, name).await.unwrap();
        if table.status == "ACTIVE"
            && table
                .indexes
                .iter()
                .all(|i| i.status.as_deref().is_none_or(|s| s == "ACTIVE"))
        {
            return table;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{name} did not settle");
}

#[tokio::test]
async fn a_table_is_created_changed_and_deleted_on_dynalite() {
    use dynotable_app::table_changes::TableChange;
    let (_dir, app) = app();
    let dynalite = Dynalite::start_with(&[
        "--createTableMs",
        "100",
        "--updateTableMs",
        "100",
        "--deleteTableMs",
        "100",
    ]);
    let profile = app
        .create_profile(endpoint(
            "dynalite",
            &format!("http://127.0.0.1:{}", dynalite.port),
            false,
        ))
        .await
        .unwrap();
    let mut table = trips("Trips");
    table.ttl_attribute = None;
    table.stream_view_type = None;
    app.create_table(&profile.id, table).await.unwrap();
    let created = settled(&app, &profile.id, "Trips").await;
    assert_eq!(created.indexes[0].name, "ByDepot");
    assert_eq!(created.indexes[0].projection.attributes, ["distanceKm"]);

    let changed = app
        .change_table(
            &profile.id,
            "Trips",
            TableChange::Billing {
                billing: Billing::Provisioned {
                    read_units: 4,
                    write_units: 3,
                },
            },
        )
        .await
        .unwrap();
    assert_eq!(changed.provisioned, Some((4.0, 3.0)));
    // (dynalite's UpdateTable only changes a GSI's throughput: a GSI added or deleted is left to
    // the embedded engine and dynotable-local above.)
    let settled_table = settled(&app, &profile.id, "Trips").await;
    assert_eq!(settled_table.billing_mode, "PROVISIONED");

    app.change_table(
        &profile.id,
        "Trips",
        TableChange::Tags {
            set: vec![TableTag {
                key: "env".into(),
                value: "test".into(),
            }],
            remove: vec!["team".into()],
        },
    )
    .await
    .unwrap();
    assert_eq!(
        app.table_tags(&profile.id, "Trips").await.unwrap(),
        [TableTag {
            key: "env".into(),
            value: "test".into()
        }]
    );

    let err = app.delete_table(&profile.id, "Trips", "Trips").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotConfirmed);
    let token = app.issue_delete_token(&profile.id, "Trips").await.unwrap();
    app.delete_table(&profile.id, "Trips", &token.token)
        .await
        .unwrap();
}
