//! Every implemented operation through the SDK, with paginators and waiters.

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use aws_sdk_dynamodb::client::Waiters;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeValue, BillingMode, DeleteRequest, IndexStatus, KeyType, KeysAndAttributes, PutRequest,
    ReturnConsumedCapacity, ReturnValue, Select, TableStatus, WriteRequest,
};

use crate::server::Server;
use crate::{Item, create_counters, create_pets, create_telemetry, item, n, s};

#[tokio::test]
async fn tables_are_created_waited_for_listed_described_and_deleted() {
    let server = Server::in_memory();
    let client = server.client();

    let created = create_telemetry(&client).await;
    let table = created.table_description().expect("TableDescription");
    assert_eq!(table.table_name(), Some("Telemetry"));
    assert!(
        table.table_arn().unwrap().ends_with(":table/Telemetry"),
        "{:?}",
        table.table_arn()
    );
    assert_eq!(table.key_schema()[0].attribute_name(), "vehicleId");
    assert_eq!(table.key_schema()[0].key_type(), &KeyType::Hash);
    assert_eq!(table.key_schema()[1].attribute_name(), "recordedAt");
    assert_eq!(
        table.billing_mode_summary().and_then(|b| b.billing_mode()),
        Some(&BillingMode::PayPerRequest)
    );

    // The waiter polls DescribeTable until ACTIVE; the first poll must already see it.
    let waited = client
        .wait_until_table_exists()
        .table_name("Telemetry")
        .wait(Duration::from_secs(15))
        .await
        .expect("table_exists waiter");
    let described = waited.as_result().expect("DescribeTable").table().unwrap();
    assert_eq!(described.table_status(), Some(&TableStatus::Active));
    assert_eq!(described.item_count(), Some(0));
    let gsi = &described.global_secondary_indexes()[0];
    assert_eq!(gsi.index_name(), Some("ByDepot"));
    assert_eq!(gsi.index_status(), Some(&IndexStatus::Active));

    create_pets(&client).await;
    create_counters(&client).await;
    let listed = client.list_tables().send().await.unwrap();
    assert_eq!(listed.table_names(), ["Counters", "Pets", "Telemetry"]);
    assert_eq!(listed.last_evaluated_table_name(), None);

    // One name a page: the paginator follows LastEvaluatedTableName.
    let pages: Vec<_> = client
        .list_tables()
        .limit(1)
        .into_paginator()
        .send()
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    let names: Vec<String> = pages.iter().flat_map(|p| p.table_names().to_vec()).collect();
    assert_eq!(names, ["Counters", "Pets", "Telemetry"]);
    assert!(pages.len() >= 3, "{} pages", pages.len());

    let deleted = client.delete_table().table_name("Pets").send().await.unwrap();
    assert_eq!(
        deleted.table_description().and_then(|t| t.table_name()),
        Some("Pets")
    );
    client
        .wait_until_table_not_exists()
        .table_name("Pets")
        .wait(Duration::from_secs(15))
        .await
        .expect("table_not_exists waiter");
    let listed = client.list_tables().send().await.unwrap();
    assert_eq!(listed.table_names(), ["Counters", "Telemetry"]);
}

fn fido() -> Item {
    item([
        ("AnimalType", s("Dog")),
        ("Name", s("Fido")),
        ("Age", n(3)),
        ("Weight", n("12.5")),
        ("Photo", AttributeValue::B(Blob::new(vec![0u8, 1, 2, 255]))),
        ("Vaccinated", AttributeValue::Bool(true)),
        ("Guardian", AttributeValue::Null(true)),
        (
            "Address",
            AttributeValue::M(item([("City", s("Oslo")), ("Zip", n(150))])),
        ),
        (
            "Toys",
            AttributeValue::L(vec![s("ball"), n(2), AttributeValue::Bool(false)]),
        ),
        ("Tags", AttributeValue::Ss(vec!["good".into(), "loud".into()])),
        ("Scores", AttributeValue::Ns(vec!["1".into(), "2.5".into()])),
        (
            "Chips",
            AttributeValue::Bs(vec![Blob::new(*b"a"), Blob::new(*b"b")]),
        ),
    ])
}

fn fido_key() -> Item {
    item([("AnimalType", s("Dog")), ("Name", s("Fido"))])
}

#[tokio::test]
async fn items_of_every_type_are_put_got_updated_and_deleted() {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;

    let put = client
        .put_item()
        .table_name("Pets")
        .set_item(Some(fido()))
        .send()
        .await
        .unwrap();
    assert_eq!(put.attributes(), None);

    let got = client
        .get_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .consistent_read(true)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    assert_eq!(got.item(), Some(&fido()), "every attribute type round-trips");
    let capacity = got.consumed_capacity().expect("ConsumedCapacity");
    assert_eq!(capacity.table_name(), Some("Pets"));
    assert_eq!(
        capacity.capacity_units(),
        Some(1.0),
        "a strongly consistent read of < 4 KB"
    );

    // A second put returns what it replaced.
    let replaced = client
        .put_item()
        .table_name("Pets")
        .set_item(Some(fido()))
        .return_values(ReturnValue::AllOld)
        .send()
        .await
        .unwrap();
    assert_eq!(replaced.attributes(), Some(&fido()));

    // Projection with a nested path, a list element and a reserved word behind a placeholder.
    let projected = client
        .get_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .projection_expression("Address.City, Toys[0], #n")
        .expression_attribute_names("#n", "Name")
        .send()
        .await
        .unwrap();
    assert_eq!(
        projected.item(),
        Some(&item([
            ("Address", AttributeValue::M(item([("City", s("Oslo"))]))),
            ("Toys", AttributeValue::L(vec![s("ball")])),
            ("Name", s("Fido")),
        ]))
    );

    let updated = client
        .update_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .update_expression("SET Age = Age + :one, Address.City = :city REMOVE Guardian, Toys[1] ADD Tags :tag DELETE Scores :gone")
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":city", s("Bergen"))
        .expression_attribute_values(":tag", AttributeValue::Ss(vec!["fluffy".into()]))
        .expression_attribute_values(":gone", AttributeValue::Ns(vec!["1".into()]))
        .return_values(ReturnValue::AllNew)
        .send()
        .await
        .unwrap();
    let mut expected = fido();
    expected.insert("Age".into(), n(4));
    expected.insert(
        "Address".into(),
        AttributeValue::M(item([("City", s("Bergen")), ("Zip", n(150))])),
    );
    expected.remove("Guardian");
    expected.insert(
        "Toys".into(),
        AttributeValue::L(vec![s("ball"), AttributeValue::Bool(false)]),
    );
    expected.insert(
        "Tags".into(),
        AttributeValue::Ss(vec!["fluffy".into(), "good".into(), "loud".into()]),
    );
    expected.insert("Scores".into(), AttributeValue::Ns(vec!["2.5".into()]));
    assert_eq!(updated.attributes(), Some(&expected));

    let updated = client
        .update_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .update_expression("SET Age = :age")
        .expression_attribute_values(":age", n(5))
        .return_values(ReturnValue::UpdatedOld)
        .send()
        .await
        .unwrap();
    assert_eq!(updated.attributes(), Some(&item([("Age", n(4))])));

    // UpdateItem on a missing item creates it from the key.
    let created = client
        .update_item()
        .table_name("Pets")
        .key("AnimalType", s("Cat"))
        .key("Name", s("Tom"))
        .update_expression("SET Lives = :nine")
        .expression_attribute_values(":nine", n(9))
        .return_values(ReturnValue::AllNew)
        .send()
        .await
        .unwrap();
    assert_eq!(
        created.attributes(),
        Some(&item([
            ("AnimalType", s("Cat")),
            ("Name", s("Tom")),
            ("Lives", n(9))
        ]))
    );

    let deleted = client
        .delete_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .return_values(ReturnValue::AllOld)
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.attributes().and_then(|a| a.get("Age")), Some(&n(5)));
    let gone = client
        .get_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .send()
        .await
        .unwrap();
    assert_eq!(gone.item(), None);
    // Deleting what is not there succeeds and returns nothing.
    let again = client
        .delete_item()
        .table_name("Pets")
        .set_key(Some(fido_key()))
        .return_values(ReturnValue::AllOld)
        .send()
        .await
        .unwrap();
    assert_eq!(again.attributes(), None);
}

/// Telemetry with 25 readings of VEH#1 (plus its META item) and 4 of VEH#2 (plus META).
async fn load_telemetry(client: &aws_sdk_dynamodb::Client) {
    create_telemetry(client).await;
    for (vehicle, readings) in [("VEH#1", 25), ("VEH#2", 4)] {
        client
            .put_item()
            .table_name("Telemetry")
            .set_item(Some(item([
                ("vehicleId", s(vehicle)),
                ("recordedAt", s("META")),
                ("depotCode", s("DEP-N")),
                ("plate", s(&format!("PL-{vehicle}"))),
            ])))
            .send()
            .await
            .unwrap();
        for i in 0..readings {
            let depot = if i % 2 == 0 { "DEP-N" } else { "DEP-S" };
            client
                .put_item()
                .table_name("Telemetry")
                .set_item(Some(item([
                    ("vehicleId", s(vehicle)),
                    ("recordedAt", s(&format!("TS#2025-03-14T{i:02}:00:00Z"))),
                    ("depotCode", s(depot)),
                    ("speedKph", n(40 + i)),
                ])))
                .send()
                .await
                .unwrap();
        }
    }
}

fn sort_keys(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .map(|i| i["recordedAt"].as_s().unwrap().clone())
        .collect()
}

#[tokio::test]
async fn query_reads_one_collection_in_order_and_pages_through_it() {
    let server = Server::in_memory();
    let client = server.client();
    load_telemetry(&client).await;

    let whole = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :v")
        .expression_attribute_values(":v", s("VEH#1"))
        .send()
        .await
        .unwrap();
    assert_eq!((whole.count(), whole.scanned_count()), (26, 26));
    let keys = sort_keys(whole.items());
    assert_eq!(keys[0], "META", "META sorts before the TS# readings");
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "sort-key order");
    assert_eq!(whole.last_evaluated_key(), None);

    // A window, newest first, projected.
    let window = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :v AND recordedAt BETWEEN :a AND :b")
        .expression_attribute_values(":v", s("VEH#1"))
        .expression_attribute_values(":a", s("TS#2025-03-14T10:00:00Z"))
        .expression_attribute_values(":b", s("TS#2025-03-14T13:00:00Z"))
        .scan_index_forward(false)
        .projection_expression("recordedAt, speedKph")
        .send()
        .await
        .unwrap();
    assert_eq!(
        window.items(),
        [13, 12, 11, 10].map(|h| item([
            ("recordedAt", s(&format!("TS#2025-03-14T{h}:00:00Z"))),
            ("speedKph", n(40 + h))
        ]))
    );

    // begins_with, four a page: the paginator follows LastEvaluatedKey to the end.
    let query = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :v AND begins_with(recordedAt, :p)")
        .expression_attribute_values(":v", s("VEH#1"))
        .expression_attribute_values(":p", s("TS#"))
        .limit(4);
    let pages: Vec<_> = query
        .clone()
        .into_paginator()
        .send()
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    assert_eq!(pages.len(), 7, "25 items, 4 a page");
    for page in &pages[..6] {
        assert_eq!(page.count(), 4);
        assert!(page.last_evaluated_key().is_some());
    }
    assert_eq!((pages[6].count(), pages[6].last_evaluated_key()), (1, None));
    let items: Vec<Item> = query
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    assert_eq!(sort_keys(&items), sort_keys(&whole.items()[1..]));

    // A filter: read versus returned.
    let fast = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :v AND recordedAt > :m")
        .filter_expression("speedKph >= :fast")
        .expression_attribute_values(":v", s("VEH#1"))
        .expression_attribute_values(":m", s("META"))
        .expression_attribute_values(":fast", n(60))
        .send()
        .await
        .unwrap();
    assert_eq!((fast.count(), fast.scanned_count()), (5, 25));

    let counted = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :v")
        .expression_attribute_values(":v", s("VEH#2"))
        .select(Select::Count)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    assert_eq!(counted.count(), 5);
    assert!(counted.items().is_empty());
    assert_eq!(
        counted.consumed_capacity().and_then(|c| c.capacity_units()),
        Some(0.5)
    );

    // The GSI regroups both vehicles by depot, sorted by recordedAt.
    let depot = client
        .query()
        .table_name("Telemetry")
        .index_name("ByDepot")
        .key_condition_expression("depotCode = :d")
        .expression_attribute_values(":d", s("DEP-S"))
        .send()
        .await
        .unwrap();
    assert_eq!(depot.count(), 12 + 2);
    assert!(depot.items().iter().all(|i| i["depotCode"] == s("DEP-S")));
    let keys = sort_keys(depot.items());
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
}

#[tokio::test]
async fn scan_walks_every_collection_in_pages_and_segments() {
    let server = Server::in_memory();
    let client = server.client();
    load_telemetry(&client).await;

    let all: Vec<Item> = client
        .scan()
        .table_name("Telemetry")
        .limit(7)
        .into_paginator()
        .items()
        .send()
        .collect::<Result<_, _>>()
        .await
        .unwrap();
    assert_eq!(all.len(), 26 + 5);
    let keys: BTreeSet<(String, String)> = all
        .iter()
        .map(|i| {
            (
                i["vehicleId"].as_s().unwrap().clone(),
                i["recordedAt"].as_s().unwrap().clone(),
            )
        })
        .collect();
    assert_eq!(keys.len(), all.len(), "no item twice across pages");

    let filtered = client
        .scan()
        .table_name("Telemetry")
        .filter_expression("attribute_exists(plate)")
        .send()
        .await
        .unwrap();
    assert_eq!((filtered.count(), filtered.scanned_count()), (2, 31));

    // Three segments: disjoint, and together the whole table.
    let mut seen = BTreeSet::new();
    let mut total = 0;
    for segment in 0..3 {
        let part: Vec<Item> = client
            .scan()
            .table_name("Telemetry")
            .segment(segment)
            .total_segments(3)
            .into_paginator()
            .items()
            .send()
            .collect::<Result<_, _>>()
            .await
            .unwrap();
        total += part.len();
        seen.extend(part.iter().map(|i| {
            (
                i["vehicleId"].as_s().unwrap().clone(),
                i["recordedAt"].as_s().unwrap().clone(),
            )
        }));
    }
    assert_eq!((total, seen), (31, keys));

    let index = client
        .scan()
        .table_name("Telemetry")
        .index_name("ByDepot")
        .select(Select::Count)
        .send()
        .await
        .unwrap();
    assert_eq!(index.count(), 31, "every item has a depotCode");
}

#[tokio::test]
async fn batches_write_and_read_across_tables() {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;
    create_counters(&client).await;

    let puts: Vec<WriteRequest> = (0..25)
        .map(|i| {
            let pet = item([
                ("AnimalType", s("Dog")),
                ("Name", s(&format!("dog-{i:02}"))),
                ("Age", n(i)),
            ]);
            WriteRequest::builder()
                .put_request(PutRequest::builder().set_item(Some(pet)).build().unwrap())
                .build()
        })
        .collect();
    let written = client
        .batch_write_item()
        .request_items("Pets", puts)
        .send()
        .await
        .unwrap();
    assert!(written.unprocessed_items().is_none_or(HashMap::is_empty));

    let mixed = vec![
        (
            "Counters",
            WriteRequest::builder()
                .put_request(
                    PutRequest::builder()
                        .set_item(Some(item([("id", n(1)), ("hits", n(10))])))
                        .build()
                        .unwrap(),
                )
                .build(),
        ),
        (
            "Counters",
            WriteRequest::builder()
                .put_request(
                    PutRequest::builder()
                        .set_item(Some(item([("id", n(2)), ("hits", n(20))])))
                        .build()
                        .unwrap(),
                )
                .build(),
        ),
        (
            "Pets",
            WriteRequest::builder()
                .delete_request(
                    DeleteRequest::builder()
                        .set_key(Some(item([("AnimalType", s("Dog")), ("Name", s("dog-00"))])))
                        .build()
                        .unwrap(),
                )
                .build(),
        ),
    ];
    let mut request = client.batch_write_item();
    let mut by_table: HashMap<&str, Vec<WriteRequest>> = HashMap::new();
    for (table, write) in mixed {
        by_table.entry(table).or_default().push(write);
    }
    for (table, writes) in by_table {
        request = request.request_items(table, writes);
    }
    request.send().await.unwrap();

    let pet_keys: Vec<Item> = (0..25)
        .map(|i| item([("AnimalType", s("Dog")), ("Name", s(&format!("dog-{i:02}")))]))
        .collect();
    let got = client
        .batch_get_item()
        .request_items(
            "Pets",
            KeysAndAttributes::builder()
                .set_keys(Some(pet_keys))
                .projection_expression("#n, Age")
                .expression_attribute_names("#n", "Name")
                .build()
                .unwrap(),
        )
        .request_items(
            "Counters",
            KeysAndAttributes::builder()
                .keys(item([("id", n(1))]))
                .keys(item([("id", n(2))]))
                .keys(item([("id", n(3))]))
                .consistent_read(true)
                .build()
                .unwrap(),
        )
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .send()
        .await
        .unwrap();
    assert!(got.unprocessed_keys().is_none_or(HashMap::is_empty));
    let responses = got.responses().unwrap();
    let mut pets: Vec<String> = responses["Pets"]
        .iter()
        .map(|p| p["Name"].as_s().unwrap().clone())
        .collect();
    pets.sort();
    assert_eq!(
        pets,
        (1..25).map(|i| format!("dog-{i:02}")).collect::<Vec<_>>(),
        "dog-00 was deleted"
    );
    assert!(
        responses["Pets"]
            .iter()
            .all(|p| p.len() == 2 && p.contains_key("Age")),
        "projected"
    );
    let mut counters: Vec<Item> = responses["Counters"].clone();
    counters.sort_by_key(|c| c["id"].as_n().unwrap().clone());
    assert_eq!(
        counters,
        vec![
            item([("id", n(1)), ("hits", n(10))]),
            item([("id", n(2)), ("hits", n(20))])
        ]
    );
    let capacity: Vec<&str> = got
        .consumed_capacity()
        .iter()
        .filter_map(|c| c.table_name())
        .collect();
    assert!(
        capacity.contains(&"Pets") && capacity.contains(&"Counters"),
        "{capacity:?}"
    );
}
