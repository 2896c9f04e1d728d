//! Staged bulk edits through the commands (issue 20, point 7): the dry run's changes and costs
//! (index writes included), the commit in batches and in transactions, the report of each failure
//! with its exception, cancel, and the undo of the last commit — on the embedded engine, on
//! `dynotable-local` as an endpoint connection (where a read-only connection is refused whatever
//! is sent), and on dynalite for the batch path.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::support;
use support::Dynalite;

use dynotable_app::Expectation;
use dynotable_app::bulk::{BulkEdit, BulkMode, BulkProgress};
use dynotable_app::dto::{
    AttributeValue, Billing, IndexKind, Item, KeyAttribute, KeySchema, NewIndex, NewTable, Projection,
    ProjectionType, ScalarType,
};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    (dir, app)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.into())
}

/// Vehicles by id and trip number, a GSI by depot (keys only).
fn vehicles(name: &str, with_index: bool) -> NewTable {
    NewTable {
        name: name.into(),
        keys: KeySchema {
            partition_key: KeyAttribute {
                name: "vehicleId".into(),
                ty: ScalarType::S,
            },
            sort_key: Some(KeyAttribute {
                name: "trip".into(),
                ty: ScalarType::N,
            }),
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        },
        billing: Billing::OnDemand,
        indexes: if with_index {
            vec![NewIndex {
                name: "ByDepot".into(),
                kind: IndexKind::Global,
                keys: KeySchema {
                    partition_key: KeyAttribute {
                        name: "depot".into(),
                        ty: ScalarType::S,
                    },
                    sort_key: None,
                    more_partition_keys: Vec::new(),
                    more_sort_keys: Vec::new(),
                },
                projection: Projection {
                    ty: ProjectionType::KeysOnly,
                    attributes: vec![],
                },
            }]
        } else {
            vec![]
        },
        stream_view_type: None,
        ttl_attribute: None,
        tags: vec![],
    }
}

fn trip(i: u32) -> Item {
    let mut item = Item::new();
    item.insert("vehicleId".into(), s("VEH#1"));
    item.insert("trip".into(), n(&i.to_string()));
    item.insert("status".into(), s("open"));
    item.insert("note".into(), s("check tyres"));
    // More digits than a double holds: the commit and the undo must keep them.
    item.insert("odometer".into(), n("12345678901234567890.0000001"));
    item
}

fn key(item: &Item) -> Item {
    item.iter()
        .filter(|(k, _)| *k == "vehicleId" || *k == "trip")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

async fn seed(app: &App, profile: &str, table: &str, count: u32) -> Vec<Item> {
    let items: Vec<Item> = (0..count).map(trip).collect();
    for item in &items {
        app.put_item(profile, table, item.clone(), Expectation::Anything)
            .await
            .unwrap();
    }
    items
}

async fn get(app: &App, profile: &str, table: &str, item: &Item) -> Option<Item> {
    app.get_item(profile, table, key(item), true).await.unwrap().0
}

fn close_and_depot() -> BulkEdit {
    BulkEdit::Update {
        set: BTreeMap::from([("status".into(), s("closed")), ("depot".into(), s("North"))]),
        remove: vec!["note".into()],
    }
}

fn no_progress() -> impl Fn(BulkProgress) + Send + Sync {
    |_| {}
}

/// Dry run, commit in batches, undo, on `profile`.
async fn update_commit_undo(app: &App, profile: &str) {
    app.create_table(profile, vehicles("Trips", true)).await.unwrap();
    let items = seed(app, profile, "Trips", 30).await;

    let plan = app
        .bulk_dry_run(
            profile,
            "Trips",
            items.clone(),
            close_and_depot(),
            BulkMode::Batches,
        )
        .await
        .unwrap();
    assert_eq!(plan.changes.len(), 30);
    assert_eq!(plan.requests, 30, "UpdateItem is one request an item");
    let first = &plan.changes[0];
    assert_eq!(first.changed, ["depot", "note", "status"]);
    let after = first.after.as_ref().unwrap();
    assert_eq!(after.get("status"), Some(&s("closed")));
    assert!(!after.contains_key("note"));
    // Setting the GSI's key attribute puts the item into the index: one index write.
    assert_eq!(first.estimate.indexes.len(), 1);
    assert_eq!(first.estimate.indexes[0].writes, 1);
    assert_eq!(
        first.estimate.cost.total, 2.0,
        "1 WCU on the table, 1 on the index"
    );
    assert_eq!(plan.total_units, 60.0);
    // Nothing was written by the dry run.
    assert_eq!(
        get(app, profile, "Trips", &items[0]).await.as_ref(),
        Some(&items[0])
    );

    let seen = Arc::new(Mutex::new(Vec::new()));
    let heard = seen.clone();
    let report = app
        .bulk_commit(
            profile,
            "Trips",
            "bulk-1",
            items.clone(),
            close_and_depot(),
            BulkMode::Batches,
            &move |p| heard.lock().unwrap().push(p),
        )
        .await
        .unwrap();
    assert_eq!((report.total, report.written, report.failures.len()), (30, 30, 0));
    assert!(!report.cancelled);
    assert_eq!(report.undoable, 30);
    let progress = seen.lock().unwrap().clone();
    assert_eq!(progress.len(), 30);
    assert_eq!(
        progress.last().copied(),
        Some(BulkProgress { done: 30, total: 30 })
    );
    let now = get(app, profile, "Trips", &items[7]).await.unwrap();
    assert_eq!(now.get("status"), Some(&s("closed")));
    assert_eq!(now.get("depot"), Some(&s("North")));
    assert_eq!(now.get("odometer"), Some(&n("12345678901234567890.0000001")));
    assert!(!now.contains_key("note"));

    let undone = app
        .bulk_undo(profile, "Trips", "undo-1", &no_progress())
        .await
        .unwrap();
    assert_eq!(
        (undone.written, undone.failures.len(), undone.undoable),
        (30, 0, 0)
    );
    for item in &items {
        assert_eq!(get(app, profile, "Trips", item).await.as_ref(), Some(item));
    }
    // One undo per commit.
    let again = app
        .bulk_undo(profile, "Trips", "undo-2", &no_progress())
        .await
        .unwrap_err();
    assert_eq!(again.code, ErrorCode::Validation);
}

#[tokio::test]
async fn an_update_is_tried_dry_committed_item_by_item_and_undone_on_the_embedded_engine() {
    let (_dir, app) = app();
    update_commit_undo(&app, EMBEDDED_ID).await;
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
async fn an_update_is_committed_and_undone_on_dynotable_local_as_an_endpoint_connection() {
    let (_dir, app) = app();
    let (_data, url) = local_server().await;
    let profile = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    update_commit_undo(&app, &profile.id).await;
}

#[tokio::test]
async fn deletes_go_in_batches_of_25_and_the_undo_puts_the_items_back() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, EMBEDDED_ID, "Trips", 60).await;
    let plan = app
        .bulk_dry_run(
            EMBEDDED_ID,
            "Trips",
            items.clone(),
            BulkEdit::Delete,
            BulkMode::Batches,
        )
        .await
        .unwrap();
    assert_eq!(plan.requests, 3, "60 deletes in batches of 25");
    assert!(plan.changes.iter().all(|c| c.after.is_none()));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let heard = seen.clone();
    let report = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "del",
            items.clone(),
            BulkEdit::Delete,
            BulkMode::Batches,
            &move |p| heard.lock().unwrap().push(p.done),
        )
        .await
        .unwrap();
    assert_eq!((report.written, report.failures.len()), (60, 0));
    assert_eq!(*seen.lock().unwrap(), [25, 50, 60]);
    assert_eq!(get(&app, EMBEDDED_ID, "Trips", &items[42]).await, None);
    let undone = app
        .bulk_undo(EMBEDDED_ID, "Trips", "undo", &no_progress())
        .await
        .unwrap();
    assert_eq!(undone.written, 60);
    assert_eq!(
        get(&app, EMBEDDED_ID, "Trips", &items[42]).await.as_ref(),
        Some(&items[42])
    );
}

#[tokio::test]
async fn an_item_deleted_meanwhile_fails_with_its_exception_and_is_not_created_again() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, EMBEDDED_ID, "Trips", 3).await;
    app.delete_item(EMBEDDED_ID, "Trips", key(&items[1]), Expectation::Anything)
        .await
        .unwrap();
    let report = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "b",
            items.clone(),
            close_and_depot(),
            BulkMode::Batches,
            &no_progress(),
        )
        .await
        .unwrap();
    assert_eq!(report.written, 2);
    assert_eq!(report.failures.len(), 1);
    assert_eq!(report.failures[0].key, key(&items[1]));
    assert_eq!(report.failures[0].exception, "ConditionalCheckFailedException");
    assert_eq!(get(&app, EMBEDDED_ID, "Trips", &items[1]).await, None);
}

#[tokio::test]
async fn all_or_nothing_writes_no_item_of_a_transaction_when_one_fails() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, EMBEDDED_ID, "Trips", 5).await;
    app.delete_item(EMBEDDED_ID, "Trips", key(&items[3]), Expectation::Anything)
        .await
        .unwrap();
    let plan = app
        .bulk_dry_run(
            EMBEDDED_ID,
            "Trips",
            items.clone(),
            close_and_depot(),
            BulkMode::AllOrNothing,
        )
        .await
        .unwrap();
    assert_eq!(plan.requests, 1);
    // Transactional writes cost twice (rule B.3).
    assert_eq!(plan.changes[0].estimate.cost.total, 2.0);
    let report = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "t",
            items.clone(),
            close_and_depot(),
            BulkMode::AllOrNothing,
            &no_progress(),
        )
        .await
        .unwrap();
    assert_eq!(report.written, 0);
    assert_eq!(report.failures.len(), 5);
    assert_eq!(
        report.failures[3].exception, "ConditionalCheckFailed",
        "the reason of the item that stopped it"
    );
    assert!(
        report
            .failures
            .iter()
            .enumerate()
            .all(|(i, f)| i == 3 || f.exception != "ConditionalCheckFailed")
    );
    assert_eq!(
        get(&app, EMBEDDED_ID, "Trips", &items[0]).await.as_ref(),
        Some(&items[0])
    );
    // Without the failing item the transaction goes through.
    let rest: Vec<Item> = items
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, it)| it.clone())
        .collect();
    let report = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "t2",
            rest,
            close_and_depot(),
            BulkMode::AllOrNothing,
            &no_progress(),
        )
        .await
        .unwrap();
    assert_eq!((report.written, report.failures.len()), (4, 0));
    assert_eq!(
        get(&app, EMBEDDED_ID, "Trips", &items[0])
            .await
            .unwrap()
            .get("status"),
        Some(&s("closed"))
    );
}

#[tokio::test]
async fn a_key_attribute_cannot_be_set_or_removed() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, EMBEDDED_ID, "Trips", 1).await;
    let edit = BulkEdit::Update {
        set: BTreeMap::from([("trip".into(), n("9"))]),
        remove: vec![],
    };
    let err = app
        .bulk_dry_run(
            EMBEDDED_ID,
            "Trips",
            items.clone(),
            edit.clone(),
            BulkMode::Batches,
        )
        .await
        .unwrap_err();
    assert_eq!(
        err.message,
        "One or more parameter values were invalid: Cannot update attribute trip. This attribute is part of the key"
    );
    let err = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "k",
            items,
            edit,
            BulkMode::Batches,
            &no_progress(),
        )
        .await
        .unwrap_err();
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
}

#[tokio::test]
async fn a_cancelled_commit_sends_nothing_more() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, EMBEDDED_ID, "Trips", 10).await;
    let app2 = app.clone();
    // The first progress report cancels the operation: the other nine are not sent.
    let report = app
        .bulk_commit(
            EMBEDDED_ID,
            "Trips",
            "c",
            items.clone(),
            close_and_depot(),
            BulkMode::Batches,
            &move |_| {
                app2.cancel_operation("c");
            },
        )
        .await
        .unwrap();
    assert_eq!(report.written, 1);
    assert!(report.cancelled);
    assert_eq!(
        get(&app, EMBEDDED_ID, "Trips", &items[9]).await.as_ref(),
        Some(&items[9])
    );
    assert_eq!(report.undoable, 1);
}

#[tokio::test]
async fn a_read_only_connection_refuses_commit_and_undo_whatever_is_sent() {
    let (_dir, app) = app();
    let (_data, url) = local_server().await;
    let writer = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    app.create_table(&writer.id, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, &writer.id, "Trips", 2).await;
    let watcher = app
        .create_profile(endpoint("watch only", &url, true))
        .await
        .unwrap();
    // The dry run reads only.
    app.bulk_dry_run(
        &watcher.id,
        "Trips",
        items.clone(),
        BulkEdit::Delete,
        BulkMode::Batches,
    )
    .await
    .unwrap();
    for mode in [BulkMode::Batches, BulkMode::AllOrNothing] {
        for edit in [BulkEdit::Delete, close_and_depot()] {
            let err = app
                .bulk_commit(
                    &watcher.id,
                    "Trips",
                    "ro",
                    items.clone(),
                    edit,
                    mode,
                    &no_progress(),
                )
                .await
                .unwrap_err();
            assert_eq!(err.code, ErrorCode::ReadOnly);
        }
    }
    // The writer's commit leaves an undo; the read-only connection cannot run it either.
    app.bulk_commit(
        &writer.id,
        "Trips",
        "w",
        items.clone(),
        BulkEdit::Delete,
        BulkMode::Batches,
        &no_progress(),
    )
    .await
    .unwrap();
    let err = app
        .bulk_undo(&watcher.id, "Trips", "ro-undo", &no_progress())
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    assert_eq!(get(&app, &writer.id, "Trips", &items[0]).await, None);
}

#[tokio::test]
async fn deletes_and_updates_in_batches_and_the_undo_on_dynalite() {
    let (_dir, app) = app();
    let dynalite = Dynalite::start_with(&["--createTableMs", "0"]);
    let profile = app
        .create_profile(endpoint(
            "dynalite",
            &format!("http://127.0.0.1:{}", dynalite.port),
            false,
        ))
        .await
        .unwrap();
    app.create_table(&profile.id, vehicles("Trips", false))
        .await
        .unwrap();
    let items = seed(&app, &profile.id, "Trips", 30).await;
    let report = app
        .bulk_commit(
            &profile.id,
            "Trips",
            "u",
            items.clone(),
            close_and_depot(),
            BulkMode::Batches,
            &no_progress(),
        )
        .await
        .unwrap();
    assert_eq!((report.written, report.failures.len()), (30, 0));
    assert_eq!(
        get(&app, &profile.id, "Trips", &items[3])
            .await
            .unwrap()
            .get("status"),
        Some(&s("closed"))
    );
    let undone = app
        .bulk_undo(&profile.id, "Trips", "undo", &no_progress())
        .await
        .unwrap();
    assert_eq!(undone.written, 30);
    assert_eq!(
        get(&app, &profile.id, "Trips", &items[3]).await.as_ref(),
        Some(&items[3])
    );
    let report = app
        .bulk_commit(
            &profile.id,
            "Trips",
            "d",
            items.clone(),
            BulkEdit::Delete,
            BulkMode::Batches,
            &no_progress(),
        )
        .await
        .unwrap();
    assert_eq!(report.written, 30);
    assert_eq!(get(&app, &profile.id, "Trips", &items[29]).await, None);
}
