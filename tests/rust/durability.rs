//! What a client was told must hold: an acknowledged write survives `kill -9`, and of many
//! clients racing a conditional write to one key exactly one wins.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::types::ReturnValue;

use crate::server::Server;
use crate::{Item, create_counters, create_herds, create_pets, item, n, s};

/// Concurrent writers, each with its own client (and so its own connection).
const WRITERS: usize = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_writes_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash/local.db");
    let mut server = Server::on_file(&db);
    create_pets(&server.client()).await;

    // Writers put items in a loop and record each acknowledged key with its payload. The load is
    // bounded in count and time; the kill comes well before either bound.
    let acknowledged: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let killed = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let client = server.client();
        let acknowledged = acknowledged.clone();
        let killed = killed.clone();
        writers.push(tokio::spawn(async move {
            for i in 0..20_000 {
                let name = format!("w{writer}-{i:05}");
                let payload = format!("writer {writer}, write {i}: {}", "x".repeat(i % 300));
                let put = client
                    .put_item()
                    .table_name("Pets")
                    .set_item(Some(item([
                        ("AnimalType", s("Load")),
                        ("Name", s(&name)),
                        ("payload", s(&payload)),
                    ])))
                    .send()
                    .await;
                match put {
                    Ok(_) => {
                        acknowledged.lock().unwrap().insert(name, payload);
                    }
                    Err(err) => {
                        // Only the kill may fail a write.
                        assert!(
                            killed.load(Ordering::SeqCst),
                            "a write failed before the kill: {}",
                            aws_sdk_dynamodb::error::DisplayErrorContext(&err)
                        );
                        return;
                    }
                }
            }
            panic!("writer {writer} finished its bounded load before the kill");
        }));
    }

    // Kill in the middle of the load, once 400 writes are acknowledged.
    crate::server::kill_mid_load(
        &mut server,
        writers,
        &killed,
        400,
        Duration::from_secs(60),
        || acknowledged.lock().unwrap().len(),
    )
    .await;
    let acknowledged = acknowledged.lock().unwrap().clone();

    // The same file, a new process: every acknowledged write is there, byte for byte.
    let server = Server::on_file(&db);
    let client = server.client();
    let stored: Vec<Item> = client
        .query()
        .table_name("Pets")
        .key_condition_expression("AnimalType = :load")
        .expression_attribute_values(":load", s("Load"))
        .consistent_read(true)
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .expect("the database reopens after kill -9");
    let stored = every_acknowledged_write_stored(&stored, &acknowledged);
    // At most one write per writer was in flight, unacknowledged, when the process died.
    let unacknowledged = stored.len() - acknowledged.len();
    assert!(
        unacknowledged <= WRITERS,
        "{unacknowledged} writes stored that nobody was told about"
    );
}

/// BatchWriteItems of 25 items over many collections, long enough that the write-ahead log is
/// checkpointed in the background and restarted under the load (`checkpoint` in the engine):
/// every acknowledged item survives a `kill -9` that comes in the middle of it, and the table's
/// index and statistics say exactly what its items say (an item and its index entries change
/// together or not at all).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn acknowledged_batches_survive_kill_9_across_checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash/batches.db");
    let mut server = Server::on_file(&db);
    create_herds(&server.client()).await;
    let created = std::fs::metadata(&db).unwrap().len();

    let acknowledged: Arc<Mutex<HashMap<String, String>>> = Arc::default();
    let killed = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let client = server.client();
        let acknowledged = acknowledged.clone();
        let killed = killed.clone();
        writers.push(tokio::spawn(async move {
            for batch in 0..20_000 {
                let items: Vec<(String, String, String, String)> = (0..25)
                    .map(|i| {
                        let n = batch * 25 + i;
                        let herd = format!("Herd{:03}", n % 400);
                        let name = format!("w{writer}-{n:06}");
                        let breed = format!("Breed{}", n % 7);
                        let payload = format!("{name}: {}", "y".repeat(150 + n % 100));
                        (herd, name, payload, breed)
                    })
                    .collect();
                let requests = items
                    .iter()
                    .map(|(herd, name, payload, breed)| {
                        let put = aws_sdk_dynamodb::types::PutRequest::builder()
                            .set_item(Some(item([
                                ("AnimalType", s(herd)),
                                ("Name", s(name)),
                                ("payload", s(payload)),
                                ("breed", s(breed)),
                            ])))
                            .build()
                            .unwrap();
                        aws_sdk_dynamodb::types::WriteRequest::builder()
                            .put_request(put)
                            .build()
                    })
                    .collect();
                let written = client
                    .batch_write_item()
                    .request_items("Herds", requests)
                    .send()
                    .await;
                match written {
                    Ok(out) => {
                        assert!(
                            out.unprocessed_items().is_none_or(|u| u.is_empty()),
                            "nothing else writes these items"
                        );
                        let mut acknowledged = acknowledged.lock().unwrap();
                        for (_, name, payload, _) in items {
                            acknowledged.insert(name, payload);
                        }
                    }
                    Err(err) => {
                        assert!(
                            killed.load(Ordering::SeqCst),
                            "a batch failed before the kill: {}",
                            aws_sdk_dynamodb::error::DisplayErrorContext(&err)
                        );
                        return;
                    }
                }
            }
            panic!("writer {writer} finished its bounded load before the kill");
        }));
    }

    // 12,000 items (~40 pages of log per commit): several background checkpoints' worth.
    crate::server::kill_mid_load(
        &mut server,
        writers,
        &killed,
        12_000,
        Duration::from_secs(120),
        || acknowledged.lock().unwrap().len(),
    )
    .await;
    let acknowledged = acknowledged.lock().unwrap().clone();
    // Only a checkpoint writes pages into the database file itself (WAL mode).
    assert!(
        std::fs::metadata(&db).unwrap().len() > created,
        "the log was checkpointed during the load"
    );

    let server = Server::on_file(&db);
    let client = server.client();
    let stored: Vec<Item> = client
        .scan()
        .table_name("Herds")
        .consistent_read(true)
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .expect("the database reopens after kill -9");
    let items = stored.clone();
    let stored = every_acknowledged_write_stored(&stored, &acknowledged);
    // At most one batch per writer was in flight, unacknowledged, when the process died.
    assert!(stored.len() - acknowledged.len() <= WRITERS * 25);

    // The index holds one entry per stored item, with its key, and no other.
    let entries: Vec<Item> = client
        .scan()
        .table_name("Herds")
        .index_name("ByBreed")
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    let keys = |items: &[Item]| -> std::collections::BTreeSet<(String, String, String)> {
        items
            .iter()
            .map(|i| {
                let text = |name: &str| i[name].as_s().unwrap().clone();
                (text("breed"), text("AnimalType"), text("Name"))
            })
            .collect()
    };
    assert_eq!(entries.len(), items.len(), "one index entry per item");
    assert_eq!(keys(&entries), keys(&items));
    // And the statistics count them all, no more.
    let table = client.describe_table().table_name("Herds").send().await.unwrap();
    let table = table.table().unwrap();
    assert_eq!(table.item_count(), Some(items.len() as i64));
    let index = &table.global_secondary_indexes()[0];
    assert_eq!(index.item_count(), Some(items.len() as i64));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_racing_conditional_puts_exactly_one_wins() {
    const CLIENTS: usize = 16;
    const ROUNDS: usize = 10;
    let dir = tempfile::tempdir().unwrap();
    let server = Server::on_file(&dir.path().join("race.db"));
    create_pets(&server.client()).await;
    let clients: Vec<_> = (0..CLIENTS).map(|_| server.client()).collect();

    for round in 0..ROUNDS {
        let start = Arc::new(tokio::sync::Barrier::new(CLIENTS));
        let racers: Vec<_> = clients
            .iter()
            .enumerate()
            .map(|(racer, client)| {
                let client = client.clone();
                let start = start.clone();
                tokio::spawn(async move {
                    start.wait().await;
                    let result = client
                        .put_item()
                        .table_name("Pets")
                        .set_item(Some(item([
                            ("AnimalType", s("Race")),
                            ("Name", s(&format!("key-{round}"))),
                            ("owner", n(racer)),
                        ])))
                        .condition_expression("attribute_not_exists(AnimalType)")
                        .send()
                        .await;
                    (racer, result)
                })
            })
            .collect();
        let mut winners = Vec::new();
        for racer in racers {
            let (racer, result) = racer.await.unwrap();
            match result {
                Ok(_) => winners.push(racer),
                Err(err) => {
                    let err = err.into_service_error();
                    assert!(
                        matches!(err, PutItemError::ConditionalCheckFailedException(_)),
                        "a loser fails its condition, not {err:?}"
                    );
                }
            }
        }
        assert_eq!(winners.len(), 1, "round {round}: winners {winners:?}");
        let stored = clients[0]
            .get_item()
            .table_name("Pets")
            .key("AnimalType", s("Race"))
            .key("Name", s(&format!("key-{round}")))
            .consistent_read(true)
            .send()
            .await
            .unwrap();
        assert_eq!(
            stored.item().and_then(|i| i.get("owner")),
            Some(&n(winners[0])),
            "the winner's item is stored"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_atomic_counters_lose_no_increment() {
    const CLIENTS: usize = 8;
    const INCREMENTS: usize = 25;
    let server = Server::in_memory();
    create_counters(&server.client()).await;
    let tasks: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let client = server.client();
            tokio::spawn(async move {
                for _ in 0..INCREMENTS {
                    client
                        .update_item()
                        .table_name("Counters")
                        .key("id", n(1))
                        .update_expression("ADD hits :one")
                        .expression_attribute_values(":one", n(1))
                        .return_values(ReturnValue::UpdatedNew)
                        .send()
                        .await
                        .unwrap();
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let got = server
        .client()
        .get_item()
        .table_name("Counters")
        .key("id", n(1))
        .send()
        .await
        .unwrap();
    assert_eq!(
        got.item(),
        Some(&item([("id", n(1)), ("hits", n(CLIENTS * INCREMENTS))]))
    );
}

/// The stored items as name → payload, after asserting that every acknowledged write is among
/// them with the payload it was written with.
fn every_acknowledged_write_stored(
    stored: &[Item],
    acknowledged: &HashMap<String, String>,
) -> HashMap<String, String> {
    let stored: HashMap<String, String> = stored
        .iter()
        .map(|i| {
            (
                i["Name"].as_s().unwrap().clone(),
                i["payload"].as_s().unwrap().clone(),
            )
        })
        .collect();
    let lost: Vec<&String> = acknowledged.keys().filter(|k| !stored.contains_key(*k)).collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged writes lost, e.g. {:?}",
        lost.len(),
        acknowledged.len(),
        &lost[..lost.len().min(5)]
    );
    for (name, payload) in acknowledged {
        assert_eq!(&stored[name], payload, "{name} stored as written");
    }
    stored
}
