//! A crash inside a transaction load: `kill -9` while clients run TransactWriteItems (two items
//! in two item collections each) on a table with a stream, then a new process on the same file.
//! Every acknowledged transaction has both items, no transaction has one item without the other,
//! and the stream holds exactly one INSERT per stored item: no gap, no record without its item.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{Put, StreamSpecification, StreamViewType, TransactWriteItem};
use aws_sdk_dynamodbstreams::types::{OperationType, ShardIteratorType};

use crate::server::Server;
use crate::{Item, create_pets, item, s};

/// Concurrent writers, each with its own client (and so its own connection).
const WRITERS: usize = 4;
/// The two item collections every transaction writes to.
const COLLECTIONS: [&str; 2] = ["TxA", "TxB"];

fn put(collection: &str, name: &str) -> TransactWriteItem {
    TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name("Pets")
                .set_item(Some(item([
                    ("AnimalType", s(collection)),
                    ("Name", s(name)),
                    ("payload", s(&format!("{collection}/{name}"))),
                ])))
                .build()
                .unwrap(),
        )
        .build()
}

/// The names stored in one collection.
async fn names_in(client: &Client, collection: &str) -> BTreeSet<String> {
    let items: Vec<Item> = client
        .query()
        .table_name("Pets")
        .key_condition_expression("AnimalType = :c")
        .expression_attribute_values(":c", s(collection))
        .consistent_read(true)
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .expect("the database reopens after kill -9");
    items
        .iter()
        .map(|i| {
            assert_eq!(
                i["payload"].as_s().unwrap(),
                &format!("{collection}/{}", i["Name"].as_s().unwrap()),
                "stored as written"
            );
            i["Name"].as_s().unwrap().clone()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_leaves_no_half_transaction_and_no_stream_gap() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash/transactions.db");
    let mut server = Server::on_file(&db);
    let client = server.client();
    create_pets(&client).await;
    // The stream is enabled on the existing table (UpdateTable), before any write.
    let updated = client
        .update_table()
        .table_name("Pets")
        .stream_specification(
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(StreamViewType::NewImage)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("UpdateTable enables a stream");
    let stream_arn = updated
        .table_description()
        .and_then(|t| t.latest_stream_arn())
        .expect("LatestStreamArn")
        .to_owned();

    let acknowledged: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let killed = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let client = server.client();
        let acknowledged = acknowledged.clone();
        let killed = killed.clone();
        writers.push(tokio::spawn(async move {
            for i in 0..20_000 {
                let name = format!("w{writer}-{i:05}");
                let written = client
                    .transact_write_items()
                    .transact_items(put(COLLECTIONS[0], &name))
                    .transact_items(put(COLLECTIONS[1], &name))
                    .send()
                    .await;
                match written {
                    Ok(_) => {
                        acknowledged.lock().unwrap().insert(name);
                    }
                    Err(err) => {
                        assert!(
                            killed.load(Ordering::SeqCst),
                            "a transaction failed before the kill: {}",
                            aws_sdk_dynamodb::error::DisplayErrorContext(&err)
                        );
                        return;
                    }
                }
            }
            panic!("writer {writer} finished its bounded load before the kill");
        }));
    }

    // Kill in the middle of the load, once 300 transactions are acknowledged.
    crate::server::kill_mid_load(
        &mut server,
        writers,
        &killed,
        300,
        Duration::from_secs(90),
        || acknowledged.lock().unwrap().len(),
    )
    .await;
    let acknowledged = acknowledged.lock().unwrap().clone();

    let server = Server::on_file(&db);
    let client = server.client();
    let a = names_in(&client, COLLECTIONS[0]).await;
    let b = names_in(&client, COLLECTIONS[1]).await;
    let lost: Vec<&String> = acknowledged
        .iter()
        .filter(|name| !a.contains(*name) || !b.contains(*name))
        .collect();
    assert!(
        lost.is_empty(),
        "{} of {} acknowledged transactions not whole, e.g. {:?}",
        lost.len(),
        acknowledged.len(),
        &lost[..lost.len().min(5)]
    );
    let halves: Vec<&String> = a.symmetric_difference(&b).collect();
    assert!(halves.is_empty(), "half transactions: {halves:?}");
    let unacknowledged = a.len() - acknowledged.len();
    assert!(
        unacknowledged <= WRITERS,
        "{unacknowledged} transactions stored that nobody was told about"
    );

    // The stream, read whole from TRIM_HORIZON after the restart.
    let streams = server.streams_client();
    let listed = streams.list_streams().table_name("Pets").send().await.unwrap();
    let arns: Vec<&str> = listed.streams().iter().filter_map(|s| s.stream_arn()).collect();
    assert_eq!(arns, [stream_arn.as_str()], "the stream survives the crash");
    let description = streams
        .describe_stream()
        .stream_arn(&stream_arn)
        .send()
        .await
        .unwrap()
        .stream_description
        .unwrap();
    assert_eq!(description.shards().len(), 1);
    let mut iterator = streams
        .get_shard_iterator()
        .stream_arn(&stream_arn)
        .shard_id(description.shards()[0].shard_id().unwrap())
        .shard_iterator_type(ShardIteratorType::TrimHorizon)
        .send()
        .await
        .unwrap()
        .shard_iterator
        .unwrap();
    let mut records = Vec::new();
    loop {
        let page = streams
            .get_records()
            .shard_iterator(&iterator)
            .send()
            .await
            .unwrap();
        if page.records().is_empty() {
            break;
        }
        records.extend(page.records().iter().cloned());
        iterator = page.next_shard_iterator().unwrap().to_owned();
    }

    let mut per_item: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut last_sequence = 0u128;
    for record in &records {
        assert_eq!(record.event_name(), Some(&OperationType::Insert), "{record:?}");
        let change = record.dynamodb().unwrap();
        let sequence: u128 = change.sequence_number().unwrap().parse().unwrap();
        assert!(sequence > last_sequence, "sequence numbers strictly increase");
        last_sequence = sequence;
        let keys = change.keys().unwrap();
        let key = (
            keys["AnimalType"].as_s().unwrap().clone(),
            keys["Name"].as_s().unwrap().clone(),
        );
        *per_item.entry(key).or_default() += 1;
    }
    let twice: Vec<_> = per_item.iter().filter(|(_, count)| **count > 1).collect();
    assert!(twice.is_empty(), "items recorded more than once: {twice:?}");
    let recorded: BTreeSet<(String, String)> = per_item.into_keys().collect();
    let stored: BTreeSet<(String, String)> = COLLECTIONS
        .iter()
        .zip([&a, &b])
        .flat_map(|(collection, names)| names.iter().map(|n| (collection.to_string(), n.clone())))
        .collect();
    let missing: Vec<_> = stored.difference(&recorded).take(5).collect();
    let orphans: Vec<_> = recorded.difference(&stored).take(5).collect();
    assert!(
        missing.is_empty() && orphans.is_empty(),
        "{} items without a record (e.g. {missing:?}), {} records without an item (e.g. {orphans:?})",
        stored.difference(&recorded).count(),
        recorded.difference(&stored).count()
    );
    assert_eq!(records.len(), stored.len());
}
