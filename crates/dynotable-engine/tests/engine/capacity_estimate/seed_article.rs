//! The seed articles' example end to end: ten 2 KB telemetry readings in one collection cost
//! what the article says, estimated from the collection's statistics and reported by the engine.

use dynotable_engine::capacity::ReadKind;
use dynotable_engine::capacity::estimate::SizeProfile;
use dynotable_engine::capacity::estimate::read::{QueryInput, estimate_query};
use dynotable_engine::{Engine, Location, Options};
use dynotable_types::{Item, item_size};
use serde_json::{Value, json};

use super::{consumed, s, wire};

/// The seed articles' table: vehicle telemetry, one collection per vehicle, and a GSI on
/// `depotCode`/`recordedAt` projecting only the keys.
async fn telemetry(engine: &Engine) {
    let body = json!({
        "TableName": "Telemetry", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "vehicleId", "AttributeType": "S"},
            {"AttributeName": "recordedAt", "AttributeType": "S"},
            {"AttributeName": "depotCode", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "vehicleId", "KeyType": "HASH"}, {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{"IndexName": "ByDepot",
            "KeySchema": [{"AttributeName": "depotCode", "KeyType": "HASH"}, {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    });
    engine
        .call("CreateTable", body.to_string().as_bytes())
        .await
        .unwrap();
}

/// A telemetry reading of exactly `size` bytes by rule B.1.
fn reading(second: u32, size: usize) -> Item {
    let mut item: Item = [
        ("vehicleId".to_owned(), s("VEH#V-7741")),
        (
            "recordedAt".to_owned(),
            s(&format!("TS#2026-06-23T09:00:{second:02}Z")),
        ),
        ("depotCode".to_owned(), s("DEP-LON-3")),
    ]
    .into_iter()
    .collect();
    let without = item_size(&item) + "fill".len();
    item.insert("fill".into(), s(&"x".repeat(size - without)));
    assert_eq!(item_size(&item), size);
    item
}

#[tokio::test]
async fn ten_two_kilobyte_readings_cost_what_the_seed_article_says_end_to_end() {
    let mut options = Options::new(Location::InMemory);
    options.sweep_interval = None;
    let engine = Engine::open_with(options).await.unwrap();
    telemetry(&engine).await;
    let readings: Vec<Item> = (0..10).map(|i| reading(i, 2048)).collect();
    for item in &readings {
        let body = json!({"TableName": "Telemetry", "Item": wire(item)});
        engine.call("PutItem", body.to_string().as_bytes()).await.unwrap();
    }

    // The estimate, from the collection's statistics alone.
    let summary = engine
        .collection_summary("Telemetry", None, &s("VEH#V-7741"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((summary.item_count, summary.size_bytes), (10, 20 * 1024));
    let shape = engine.table_shape("Telemetry").unwrap();
    let estimate = estimate_query(&QueryInput {
        table: shape.clone(),
        index: None,
        selected: SizeProfile::Summary {
            item_count: summary.item_count,
            total_bytes: summary.size_bytes,
        },
        base_items: None,
        limit: None,
        fetch_from_table: false,
        scanned: None,
        partitions: 1,
    })
    .unwrap();
    let units = |kind| {
        estimate
            .query
            .iter()
            .find(|q| q.kind == kind)
            .unwrap()
            .capacity_units
    };
    assert_eq!((units(ReadKind::Eventual), units(ReadKind::Strong)), (2.5, 5.0));
    let gets = estimate
        .alternatives
        .iter()
        .find(|w| w.way == dynotable_engine::capacity::estimate::read::Way::GetItems)
        .unwrap();
    assert_eq!((gets.eventual, gets.strong), (Some(5.0), Some(10.0)));
    // From statistics alone the per-item rounding is a range: 10 to 15 blocks.
    assert_eq!(gets.blocks_range, Some([10, 15]));

    // What the engine then reports: the Query, and ten GetItems.
    for (consistent, query_units, get_units) in [(false, 2.5, 5.0), (true, 5.0, 10.0)] {
        let body = json!({"TableName": "Telemetry", "KeyConditionExpression": "vehicleId = :v",
            "ExpressionAttributeValues": {":v": {"S": "VEH#V-7741"}}, "ConsistentRead": consistent,
            "ReturnConsumedCapacity": "TOTAL"});
        let (_, actual) = consumed(&engine, "Query", body).await;
        assert_eq!(actual.capacity_units, query_units);
        let mut total = 0.0;
        for item in &readings {
            let key: Item = ["vehicleId", "recordedAt"]
                .iter()
                .map(|k| ((*k).to_owned(), item[*k].clone()))
                .collect();
            let body = json!({"TableName": "Telemetry", "Key": wire(&key), "ConsistentRead": consistent,
                "ReturnConsumedCapacity": "TOTAL"});
            total += consumed(&engine, "GetItem", body).await.1.capacity_units;
        }
        assert_eq!(total, get_units);
    }
}

#[tokio::test]
async fn the_shape_of_a_described_table_is_the_shape_of_the_embedded_one() {
    let mut options = Options::new(Location::InMemory);
    options.sweep_interval = None;
    let engine = Engine::open_with(options).await.unwrap();
    telemetry(&engine).await;
    let bytes = engine
        .call(
            "DescribeTable",
            json!({"TableName": "Telemetry"}).to_string().as_bytes(),
        )
        .await
        .unwrap();
    let described: Value = serde_json::from_slice(&bytes).unwrap();
    let description: dynotable_engine::api::table::TableDescription =
        serde_json::from_value(described["Table"].clone()).unwrap();
    let shape = dynotable_engine::capacity::estimate::TableShape::from_description(&description).unwrap();
    assert_eq!(shape, engine.table_shape("Telemetry").unwrap());
    assert!(
        engine
            .collection_summary("Telemetry", None, &s("nobody"))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        engine
            .collection_summary("Telemetry", Some("Missing"), &s("x"))
            .await
            .is_err()
    );
}
