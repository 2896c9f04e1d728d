//! The demo data the embedded engine opens with on first launch: the tables of the seed
//! articles (`shared/DESIGN.md`, "Demo data"), big enough that paging, the 1 MB page, a sparse
//! index, a hot collection and the LSI collection-size gauge all have something to show.
//!
//! | Table | Key | Indexes | What it shows |
//! |---|---|---|---|
//! | Telemetry | vehicleId / recordedAt (`META`, `TS#<ISO-8601>`) | GSI ByDepot (depotCode / recordedAt) | item collections, META before TS#, time windows, a hot vehicle, a sparse GSI |
//! | SensorReadings | deviceId / readingTs (N) | — | ~2 KB items: one collection spans several 1 MB pages |
//! | Pets | AnimalType / Name | — | the Developer Guide's small example |
//! | Music | Artist / SongTitle | GSI GenreAlbumTitle (keys only) | keys-only projection, songs without a genre |
//! | People | PersonID (N) | — | a simple key, nested Address maps |
//! | CustomerOrders | customerId / orderId | LSI ByOrderDate | the 10 GB item-collection gauge, one big customer |
//!
//! Everything is generated from a fixed seed, so every first launch shows the same data. Items
//! are written with BatchWriteItem through the engine's own API, as any client would.

use dynotable_engine::{ApiError, Engine};
use serde_json::{Value, json};

/// A small deterministic generator (SplitMix64): the same demo data on every machine.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len() as u64) as usize]
    }
}

/// The names of the demo tables, in the order they are created.
pub const TABLES: &[&str] = &[
    "Telemetry",
    "SensorReadings",
    "Pets",
    "Music",
    "People",
    "CustomerOrders",
];

const DEPOTS: &[&str] = &[
    "DEP-N", "DEP-S", "DEP-E", "DEP-W", "DEP-C", "DEP-H", "DEP-R", "DEP-X",
];
const MODELS: &[&str] = &["e-Sprinter", "Transit", "Ducato", "Master", "Crafter"];

fn s(value: impl Into<String>) -> Value {
    json!({ "S": value.into() })
}

fn n(value: impl ToString) -> Value {
    json!({ "N": value.to_string() })
}

/// `2025-03-14T08:00:00Z` plus `minutes`, as an ISO-8601 UTC timestamp.
fn timestamp(minutes: u64) -> String {
    let total = 8 * 60 + minutes;
    let (day, minute_of_day) = (14 + total / (24 * 60), total % (24 * 60));
    format!(
        "2025-03-{day:02}T{:02}:{:02}:00Z",
        minute_of_day / 60,
        minute_of_day % 60
    )
}

fn key(name: &str, kind: &str) -> Value {
    json!({ "AttributeName": name, "KeyType": kind })
}

fn attribute(name: &str, ty: &str) -> Value {
    json!({ "AttributeName": name, "AttributeType": ty })
}

/// The CreateTable requests.
fn table_definitions() -> Vec<Value> {
    vec![
        json!({
            "TableName": "Telemetry", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [attribute("vehicleId", "S"), attribute("recordedAt", "S"), attribute("depotCode", "S")],
            "KeySchema": [key("vehicleId", "HASH"), key("recordedAt", "RANGE")],
            "GlobalSecondaryIndexes": [{ "IndexName": "ByDepot",
                "KeySchema": [key("depotCode", "HASH"), key("recordedAt", "RANGE")], "Projection": { "ProjectionType": "ALL" } }]
        }),
        json!({
            "TableName": "SensorReadings", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [attribute("deviceId", "S"), attribute("readingTs", "N")],
            "KeySchema": [key("deviceId", "HASH"), key("readingTs", "RANGE")]
        }),
        json!({
            "TableName": "Pets", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [attribute("AnimalType", "S"), attribute("Name", "S")],
            "KeySchema": [key("AnimalType", "HASH"), key("Name", "RANGE")]
        }),
        json!({
            "TableName": "Music", "ProvisionedThroughput": { "ReadCapacityUnits": 5, "WriteCapacityUnits": 5 },
            "AttributeDefinitions": [attribute("Artist", "S"), attribute("SongTitle", "S"), attribute("Genre", "S"), attribute("AlbumTitle", "S")],
            "KeySchema": [key("Artist", "HASH"), key("SongTitle", "RANGE")],
            "GlobalSecondaryIndexes": [{ "IndexName": "GenreAlbumTitle",
                "KeySchema": [key("Genre", "HASH"), key("AlbumTitle", "RANGE")], "Projection": { "ProjectionType": "KEYS_ONLY" },
                "ProvisionedThroughput": { "ReadCapacityUnits": 5, "WriteCapacityUnits": 5 } }]
        }),
        json!({
            "TableName": "People", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [attribute("PersonID", "N")],
            "KeySchema": [key("PersonID", "HASH")]
        }),
        json!({
            "TableName": "CustomerOrders", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [attribute("customerId", "S"), attribute("orderId", "S"), attribute("orderDate", "S")],
            "KeySchema": [key("customerId", "HASH"), key("orderId", "RANGE")],
            "LocalSecondaryIndexes": [{ "IndexName": "ByOrderDate",
                "KeySchema": [key("customerId", "HASH"), key("orderDate", "RANGE")],
                "Projection": { "ProjectionType": "INCLUDE", "NonKeyAttributes": ["total"] } }]
        }),
    ]
}

/// Items as they are made, each kept as its JSON text: ~15,000 items as `serde_json::Value`s
/// were ~70 MB of heap at the first launch (a map per attribute value), as text ~7 MB.
struct ItemTexts(Vec<(&'static str, String)>);

impl ItemTexts {
    fn push(&mut self, (table, item): (&'static str, Value)) {
        self.0.push((table, item.to_string()));
    }
}

/// The items of every table, as `(table, item as JSON text)`.
fn items() -> Vec<(&'static str, String)> {
    let mut dice = Dice(0x0D1D_7AB1_E000_0001);
    let mut out = ItemTexts(Vec::new());

    // Telemetry: 300 vehicles with a META item and 30 readings each; VEH#V-7741, the seed
    // articles' vehicle, reports every minute for a day — a hot collection. Readings taken in the
    // yard carry no depotCode, so the ByDepot GSI is sparse.
    for v in 0..300u64 {
        let vehicle = if v == 0 {
            "VEH#V-7741".to_owned()
        } else {
            format!("VEH#V-{:04}", 1000 + v * 7)
        };
        let depot = dice.pick(DEPOTS);
        out.push((
            "Telemetry",
            json!({
                "vehicleId": s(&vehicle), "recordedAt": s("META"), "plate": s(format!("KX-{}", 1000 + v * 7)),
                "model": s(dice.pick(MODELS)), "depotCode": s(depot), "commissioned": n(2018 + dice.below(7)),
            }),
        ));
        let readings = if v == 0 { 1440 } else { 30 };
        for r in 0..readings {
            let minutes = if v == 0 { r } else { r * 45 + dice.below(30) };
            let mut item = json!({
                "vehicleId": s(&vehicle), "recordedAt": s(format!("TS#{}", timestamp(minutes))),
                "speedKph": n(dice.below(110)), "coolantC": n(format!("{}.{}", 70 + dice.below(30), dice.below(10))),
                "fuelPct": n(100 - (r * 100 / readings.max(1)).min(95)),
            });
            if dice.below(4) != 0 {
                item["depotCode"] = s(depot);
            }
            out.push(("Telemetry", item));
        }
    }

    // SensorReadings: ~2 KB readings; DEV#a1b2 holds 700 of them (~1.4 MB: two 1 MB pages).
    for d in 0..12u64 {
        let device = if d == 0 {
            "DEV#a1b2".to_owned()
        } else {
            format!("DEV#{:04x}", 0xc000 + d * 97)
        };
        let count = if d == 0 { 700 } else { 40 };
        for r in 0..count {
            let samples: Vec<String> = (0..500).map(|_| format!("{:03}", dice.below(1000))).collect();
            out.push((
                "SensorReadings",
                json!({
                    "deviceId": s(&device), "readingTs": n(1_741_939_200 + r * 60),
                    "unit": s("mV"), "samples": s(samples.join(",")), "firmware": s("2.4.1"),
                }),
            ));
        }
    }

    // Pets: the Developer Guide's example.
    for (animal, name, age) in [
        ("Dog", "Fido", 7),
        ("Dog", "Rover", 3),
        ("Dog", "Spot", 11),
        ("Dog", "Bella", 2),
        ("Cat", "Whiskers", 4),
        ("Cat", "Luna", 1),
        ("Cat", "Tom", 9),
        ("Bird", "Tweety", 2),
        ("Fish", "Nemo", 1),
        ("Rabbit", "Thumper", 5),
    ] {
        out.push((
            "Pets",
            json!({ "AnimalType": s(animal), "Name": s(name), "Age": n(age) }),
        ));
    }

    // Music: songs with genre and album (in the keys-only GSI) and a few singles without.
    let artists = [
        "No One You Know",
        "The Acme Band",
        "Solo Artist",
        "The Lone Wolves",
        "Blue Static",
    ];
    let genres = ["Country", "Rock", "Jazz", "Pop"];
    for (a, artist) in artists.iter().enumerate() {
        for t in 0..12u64 {
            let mut song = json!({ "Artist": s(*artist), "SongTitle": s(format!("Song {} of {}", t + 1, artist)),
                "Year": n(1990 + dice.below(35)), "Price": n(format!("{}.99", dice.below(3))) });
            if t % 5 != 4 {
                song["Genre"] = s(genres[(a + t as usize) % genres.len()]);
                song["AlbumTitle"] = s(format!("Album {}", t / 4 + 1));
            }
            out.push(("Music", song));
        }
    }

    // People: a simple key and nested maps.
    let cities = [
        ("Lisbon", "PT"),
        ("Porto", "PT"),
        ("Seattle", "US"),
        ("Berlin", "DE"),
        ("Osaka", "JP"),
    ];
    for p in 1..=200u64 {
        let (city, country) = cities[dice.below(cities.len() as u64) as usize];
        out.push(("People", json!({
            "PersonID": n(p), "FirstName": s(format!("Person{p}")),
            "Address": { "M": { "Street": s(format!("{} Main St", dice.below(900) + 1)), "City": s(city), "Country": s(country) } },
            "Phones": { "L": [s(format!("+1-555-{:04}", dice.below(10_000)))] },
        })));
    }

    // CustomerOrders: one big customer (the collection-size gauge) and many small ones.
    for c in 0..100u64 {
        let customer = if c == 0 {
            "CUST#big".to_owned()
        } else {
            format!("CUST#{c:03}")
        };
        let orders = if c == 0 { 800 } else { 10 };
        for o in 0..orders {
            out.push(("CustomerOrders", json!({
                "customerId": s(&customer), "orderId": s(format!("ORD#{:06}", o)),
                "orderDate": s(timestamp(o * 97 % 20_000)), "total": n(format!("{}.{:02}", dice.below(500), dice.below(100))),
                "status": s(["PLACED", "SHIPPED", "DELIVERED"][dice.below(3) as usize]),
                "lines": { "L": (0..1 + dice.below(4)).map(|i| json!({ "M": { "sku": s(format!("SKU-{i}")), "qty": n(1 + dice.below(3)) } })).collect::<Vec<_>>() },
            })));
        }
    }
    out.0
}

/// How much demo data was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub tables: usize,
    pub items: usize,
}

/// Creates the demo tables (skipping any that exist) and writes their items.
pub async fn load(engine: &Engine) -> Result<Loaded, ApiError> {
    for definition in table_definitions() {
        match engine
            .call("CreateTable", definition.to_string().as_bytes())
            .await
        {
            Ok(_) => {}
            Err(err) if err.kind == dynotable_engine::ErrorKind::ResourceInUseException => {}
            Err(err) => return Err(err),
        }
    }
    let items = items();
    let count = items.len();
    // BatchWriteItem takes at most 25 requests (rule B.7).
    let mut batch: Vec<(&str, String)> = Vec::with_capacity(25);
    for item in items {
        batch.push(item);
        if batch.len() == 25 {
            write_batch(engine, &mut batch).await?;
        }
    }
    write_batch(engine, &mut batch).await?;
    Ok(Loaded {
        tables: TABLES.len(),
        items: count,
    })
}

async fn write_batch(engine: &Engine, batch: &mut Vec<(&str, String)>) -> Result<(), ApiError> {
    if batch.is_empty() {
        return Ok(());
    }
    // {"RequestItems":{"Table":[{"PutRequest":{"Item":…}},…],…}}, the items spliced in as the
    // JSON text they were kept as.
    let mut tables: Vec<(&str, Vec<String>)> = Vec::new();
    for (table, item) in batch.drain(..) {
        let put = format!(r#"{{"PutRequest":{{"Item":{item}}}}}"#);
        match tables.iter_mut().find(|(name, _)| *name == table) {
            Some((_, puts)) => puts.push(put),
            None => tables.push((table, vec![put])),
        }
    }
    let request_items = tables
        .iter()
        .map(|(table, puts)| format!("{}:[{}]", Value::from(*table), puts.join(",")))
        .collect::<Vec<_>>()
        .join(",");
    let body = format!(r#"{{"RequestItems":{{{request_items}}}}}"#);
    engine.call("BatchWriteItem", body.as_bytes()).await.map(|_| ())
}

/// Deletes the demo tables and loads them again.
pub async fn reset(engine: &Engine) -> Result<Loaded, ApiError> {
    for table in TABLES {
        let body = json!({ "TableName": table }).to_string();
        match engine.call("DeleteTable", body.as_bytes()).await {
            Ok(_) => {}
            Err(err) if err.kind == dynotable_engine::ErrorKind::ResourceNotFoundException => {}
            Err(err) => return Err(err),
        }
    }
    load(engine).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynotable_engine::Location;

    async fn call(engine: &Engine, op: &str, body: Value) -> Value {
        serde_json::from_slice(&engine.call(op, body.to_string().as_bytes()).await.unwrap()).unwrap()
    }

    #[tokio::test]
    async fn loads_the_seed_articles_tables_with_what_the_ui_must_show() {
        let engine = Engine::open(Location::InMemory).await.unwrap();
        let loaded = load(&engine).await.unwrap();
        assert_eq!(loaded.tables, 6);
        assert!(loaded.items > 10_000, "thousands, not tens: {}", loaded.items);

        // VEH#V-7741: META sorts before its TS# readings.
        let page = call(
            &engine,
            "Query",
            json!({"TableName": "Telemetry", "KeyConditionExpression": "vehicleId = :v",
            "ExpressionAttributeValues": {":v": {"S": "VEH#V-7741"}}, "Limit": 2}),
        )
        .await;
        assert_eq!(page["Items"][0]["recordedAt"]["S"], "META");
        assert!(
            page["Items"][1]["recordedAt"]["S"]
                .as_str()
                .unwrap()
                .starts_with("TS#2025-03-14T08:00")
        );

        // DEV#a1b2's collection does not fit in one 1 MB page.
        let page = call(
            &engine,
            "Query",
            json!({"TableName": "SensorReadings", "KeyConditionExpression": "deviceId = :d",
            "ExpressionAttributeValues": {":d": {"S": "DEV#a1b2"}}, "Select": "COUNT"}),
        )
        .await;
        assert!(page.get("LastEvaluatedKey").is_some(), "{page}");
        assert!(page["Count"].as_i64().unwrap() < 700);

        // The GSIs are sparse: some items lack their keys.
        let music = call(&engine, "DescribeTable", json!({"TableName": "Music"})).await;
        let gsi_count = music["Table"]["GlobalSecondaryIndexes"][0]["ItemCount"]
            .as_i64()
            .unwrap();
        assert!(gsi_count < music["Table"]["ItemCount"].as_i64().unwrap());

        // The LSI table's biggest collection is the big customer.
        let stats = engine.collection_stats("CustomerOrders", None, 1).await.unwrap();
        assert_eq!(
            stats.largest[0].partition_key,
            dynotable_types::AttributeValue::S("CUST#big".into())
        );
        assert!(stats.collection_size_limit.is_some());
    }

    #[tokio::test]
    async fn reset_restores_the_demo_tables() {
        let engine = Engine::open(Location::InMemory).await.unwrap();
        load(&engine).await.unwrap();
        call(
            &engine,
            "DeleteItem",
            json!({"TableName": "Pets", "Key": {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}}),
        )
        .await;
        call(&engine, "DeleteTable", json!({"TableName": "People"})).await;
        reset(&engine).await.unwrap();
        assert_eq!(engine.table_count(), 6);
        let fido = call(
            &engine,
            "GetItem",
            json!({"TableName": "Pets", "Key": {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}}),
        )
        .await;
        assert_eq!(fido["Item"]["Age"]["N"], "7");
    }

    #[test]
    fn the_data_is_the_same_every_time() {
        assert_eq!(items(), items());
    }
}
