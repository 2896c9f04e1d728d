//! The vehicle-telemetry workload: its items, and the request bodies of every phase, precomputed.

use bytes::Bytes;
use serde_json::{Value, json};

#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) vehicles: u32,
    pub(crate) readings: u32,
}

pub(crate) const DEPOTS: u32 = 10;
pub(crate) const MODELS: [&str; 5] = [
    "Sprinter 316",
    "Transit Custom",
    "e-Vito 112",
    "Daily 35S14",
    "Master L3H2",
];
pub(crate) const STATUSES: [&str; 3] = ["MOVING", "IDLE", "CHARGING"];

pub(crate) fn vehicle_id(v: u32) -> String {
    format!("VEH#V-{v:05}")
}

/// Reading r of a vehicle: one a minute from 2025-01-01T00:00Z.
pub(crate) fn recorded_at(r: u32) -> String {
    let (d, h, m) = (1 + r / 1440, (r / 60) % 24, r % 60);
    format!("TS#2025-01-{d:02}T{h:02}:{m:02}:00Z")
}

pub(crate) fn depot(d: u32) -> String {
    format!("DEPOT#{d:02}")
}

/// One reading as a DynamoDB JSON item (without the outer braces' table context).
pub(crate) fn item_json(v: u32, r: u32) -> String {
    let x = v.wrapping_mul(2_654_435_761).wrapping_add(r.wrapping_mul(40_503));
    format!(
        concat!(
            r#"{{"vehicleId":{{"S":"{}"}},"recordedAt":{{"S":"{}"}},"depotCode":{{"S":"{}"}},"#,
            r#""plate":{{"S":"KX{:02}-{:04}"}},"model":{{"S":"{}"}},"driverId":{{"S":"DRV#{:04}"}},"#,
            r#""status":{{"S":"{}"}},"speedKph":{{"N":"{}"}},"coolantC":{{"N":"{}.{}"}},"#,
            r#""fuelPct":{{"N":"{}.{}"}},"odometerKm":{{"N":"{}"}},"lat":{{"N":"52.{:06}"}},"#,
            r#""lon":{{"N":"13.{:06}"}},"firmware":{{"S":"fw-2.14.{}"}}}}"#
        ),
        vehicle_id(v),
        recorded_at(r),
        depot(v % DEPOTS),
        v % 97,
        v % 10_000,
        MODELS[(v % 5) as usize],
        v % 350,
        STATUSES[(x % 3) as usize],
        x % 130,
        80 + x % 25,
        x % 10,
        5 + x % 95,
        (x >> 3) % 10,
        10_000 + v * 100 + r,
        x % 1_000_000,
        (x >> 7) % 1_000_000,
        x % 9,
    )
}

/// DynamoDB's item size (names + values; numbers ≈ 1 byte per 2 significant digits + 1).
pub(crate) fn item_size(item: &Value) -> usize {
    pub(crate) fn val(v: &Value) -> usize {
        let (t, x) = v.as_object().unwrap().iter().next().unwrap();
        match t.as_str() {
            "S" => x.as_str().unwrap().len(),
            "N" => {
                let digits = x.as_str().unwrap().chars().filter(|c| c.is_ascii_digit()).count();
                digits.div_ceil(2) + 1
            }
            _ => 0,
        }
    }
    item.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| k.len() + val(v))
        .sum()
}

pub(crate) fn create_table_body(table: &str) -> Value {
    json!({
        "TableName": table,
        "AttributeDefinitions": [
            {"AttributeName": "vehicleId", "AttributeType": "S"},
            {"AttributeName": "recordedAt", "AttributeType": "S"},
            {"AttributeName": "depotCode", "AttributeType": "S"}
        ],
        "KeySchema": [
            {"AttributeName": "vehicleId", "KeyType": "HASH"},
            {"AttributeName": "recordedAt", "KeyType": "RANGE"}
        ],
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByDepot",
            "KeySchema": [
                {"AttributeName": "depotCode", "KeyType": "HASH"},
                {"AttributeName": "recordedAt", "KeyType": "RANGE"}
            ],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "BillingMode": "PAY_PER_REQUEST"
    })
}

/// BatchWriteItem bodies of 25 puts each, in arrival order (reading-major: every vehicle's
/// reading 0, then every vehicle's reading 1, …), as a telemetry feed would write them.
pub(crate) fn batch_bodies(table: &str, shape: Shape) -> Vec<Bytes> {
    let mut out = Vec::new();
    let mut cur: Vec<String> = Vec::with_capacity(25);
    let flush = |cur: &mut Vec<String>, out: &mut Vec<Bytes>| {
        if cur.is_empty() {
            return;
        }
        let reqs: Vec<String> = cur
            .drain(..)
            .map(|i| format!(r#"{{"PutRequest":{{"Item":{i}}}}}"#))
            .collect();
        out.push(Bytes::from(format!(
            r#"{{"RequestItems":{{"{table}":[{}]}}}}"#,
            reqs.join(",")
        )));
    };
    for r in 0..shape.readings {
        for v in 0..shape.vehicles {
            cur.push(item_json(v, r));
            if cur.len() == 25 {
                flush(&mut cur, &mut out);
            }
        }
    }
    flush(&mut cur, &mut out);
    out
}

/// A small deterministic generator (xorshift64*).
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

pub(crate) const POOL: usize = 20_000;

pub(crate) fn get_bodies(table: &str, shape: Shape, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            let (v, r) = (rng.below(shape.vehicles), rng.below(shape.readings));
            Bytes::from(
                json!({"TableName": table, "Key": {"vehicleId": {"S": vehicle_id(v)}, "recordedAt": {"S": recorded_at(r)}}})
                    .to_string(),
            )
        })
        .collect()
}

/// The window query: one vehicle, 50 consecutive readings, newest first.
pub(crate) const WINDOW: u32 = 50;
pub(crate) fn window_bodies(table: &str, shape: Shape, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            let v = rng.below(shape.vehicles);
            let start = rng.below(shape.readings - WINDOW + 1);
            Bytes::from(
                json!({
                    "TableName": table,
                    "KeyConditionExpression": "vehicleId = :v AND recordedAt BETWEEN :a AND :b",
                    "ExpressionAttributeValues": {
                        ":v": {"S": vehicle_id(v)},
                        ":a": {"S": recorded_at(start)},
                        ":b": {"S": recorded_at(start + WINDOW - 1)}
                    },
                    "ScanIndexForward": false
                })
                .to_string(),
            )
        })
        .collect()
}

pub(crate) const GSI_LIMIT: u32 = 100;
pub(crate) fn gsi_bodies(table: &str, seed: u64) -> Vec<Bytes> {
    let mut rng = Rng(seed);
    (0..POOL)
        .map(|_| {
            Bytes::from(
                json!({
                    "TableName": table,
                    "IndexName": "ByDepot",
                    "KeyConditionExpression": "depotCode = :d",
                    "ExpressionAttributeValues": {":d": {"S": depot(rng.below(DEPOTS))}},
                    "Limit": GSI_LIMIT
                })
                .to_string(),
            )
        })
        .collect()
}
