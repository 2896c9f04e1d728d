//! Property tests of the engine through its API: Query returns a collection in DynamoDB's
//! sort-key order (numbers numerically, strings by UTF-8 bytes, binary by unsigned bytes) in
//! both directions, and paging with any Limit returns exactly the same items as one page; and the
//! engine lists a table's item collections in the order of their partition-key values, page by
//! page, each at the position it reports.

use std::collections::BTreeSet;

use dynotable_engine::{Engine, Location};
use proptest::prelude::*;
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

async fn call(engine: &Engine, op: &str, body: Value) -> Value {
    let bytes = engine
        .call(op, body.to_string().as_bytes())
        .await
        .unwrap_or_else(|e| panic!("{op}: {e}"));
    serde_json::from_slice(&bytes).unwrap()
}

async fn table_with_sort_key(engine: &Engine, ty: &str) {
    call(
        engine,
        "CreateTable",
        json!({"TableName": "Ordered", "BillingMode": "PAY_PER_REQUEST",
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": ty}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}),
    )
    .await;
}

/// All items of the collection, following LastEvaluatedKey with `limit` items a page.
async fn query_all(engine: &Engine, forward: bool, limit: Option<usize>) -> Vec<Value> {
    let mut items = Vec::new();
    let mut start: Option<Value> = None;
    loop {
        let mut body = json!({"TableName": "Ordered", "KeyConditionExpression": "pk = :p",
                              "ExpressionAttributeValues": {":p": {"S": "c"}}, "ScanIndexForward": forward});
        if let Some(limit) = limit {
            body["Limit"] = json!(limit);
        }
        if let Some(start) = start.take() {
            body["ExclusiveStartKey"] = start;
        }
        let page = call(engine, "Query", body).await;
        items.extend(page["Items"].as_array().unwrap().iter().map(|i| i["sk"].clone()));
        match page.get("LastEvaluatedKey") {
            Some(key) => start = Some(key.clone()),
            None => return items,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn numbers_come_back_in_numeric_order(values in prop::collection::btree_set(-1_000_000i64..1_000_000, 1..40),
                                          scale in 0u32..6, limit in 1usize..7) {
        runtime().block_on(async {
            let engine = Engine::open(Location::InMemory).await.unwrap();
            table_with_sort_key(&engine, "N").await;
            // Spell each number with `scale` decimals and two trailing zeros (`-911.7100`), so
            // storage must normalise it; compare by value.
            let spell = |v: i64| {
                let digits = format!("{:0>width$}", v.unsigned_abs(), width = scale as usize + 1);
                let (int, frac) = digits.split_at(digits.len() - scale as usize);
                format!("{}{int}.{frac}00", if v < 0 { "-" } else { "" })
            };
            for v in &values {
                call(&engine, "PutItem", json!({"TableName": "Ordered", "Item": {"pk": {"S": "c"}, "sk": {"N": spell(*v)}}})).await;
            }
            let got: Vec<f64> = query_all(&engine, true, None).await.iter().map(|n| n["N"].as_str().unwrap().parse().unwrap()).collect();
            // Distinct integers keep distinct, ordered values after scaling; f64 represents these exactly enough to compare.
            let expected: Vec<f64> = values.iter().map(|v| spell(*v).parse().unwrap()).collect();
            prop_assert_eq!(&got, &expected);

            let paged: Vec<f64> = query_all(&engine, true, Some(limit)).await.iter().map(|n| n["N"].as_str().unwrap().parse().unwrap()).collect();
            prop_assert_eq!(&paged, &expected);
            let mut backwards: Vec<f64> = query_all(&engine, false, Some(limit)).await.iter().map(|n| n["N"].as_str().unwrap().parse().unwrap()).collect();
            backwards.reverse();
            prop_assert_eq!(&backwards, &expected);
            Ok(())
        })?;
    }

    #[test]
    fn strings_come_back_in_utf8_byte_order(values in prop::collection::btree_set("\\PC{1,12}", 1..30), limit in 1usize..5) {
        runtime().block_on(async {
            let engine = Engine::open(Location::InMemory).await.unwrap();
            table_with_sort_key(&engine, "S").await;
            for v in &values {
                call(&engine, "PutItem", json!({"TableName": "Ordered", "Item": {"pk": {"S": "c"}, "sk": {"S": v}}})).await;
            }
            // BTreeSet<String> orders by bytes of the UTF-8 encoding: DynamoDB's order (rule B.9).
            let expected: Vec<String> = values.iter().cloned().collect();
            let got: Vec<String> = query_all(&engine, true, Some(limit)).await.iter().map(|s| s["S"].as_str().unwrap().to_owned()).collect();
            prop_assert_eq!(got, expected);
            Ok(())
        })?;
    }

    #[test]
    fn binaries_come_back_in_unsigned_byte_order(values in prop::collection::btree_set(prop::collection::vec(any::<u8>(), 1..8), 1..30)) {
        use base64::Engine as _;
        runtime().block_on(async {
            let engine = Engine::open(Location::InMemory).await.unwrap();
            table_with_sort_key(&engine, "B").await;
            let b64 = base64::engine::general_purpose::STANDARD;
            for v in &values {
                call(&engine, "PutItem", json!({"TableName": "Ordered", "Item": {"pk": {"S": "c"}, "sk": {"B": b64.encode(v)}}})).await;
            }
            let expected: Vec<Vec<u8>> = values.iter().cloned().collect::<BTreeSet<_>>().into_iter().collect();
            let got: Vec<Vec<u8>> = query_all(&engine, true, Some(3)).await.iter().map(|b| b64.decode(b["B"].as_str().unwrap()).unwrap()).collect();
            prop_assert_eq!(got, expected);
            Ok(())
        })?;
    }

    #[test]
    fn collections_are_listed_in_partition_key_order_page_by_page(
        values in prop::collection::btree_set(-1_000_000i64..1_000_000, 1..40),
        scale in 0u32..4,
        page in 1usize..9,
    ) {
        runtime().block_on(async {
            let engine = Engine::open(Location::InMemory).await.unwrap();
            call(&engine, "CreateTable", json!({"TableName": "Keyed", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "N"}, {"AttributeName": "sk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]})).await;
            // `v / 10^scale`, so negative numbers, fractions and magnitudes mix.
            let spell = |v: i64| {
                let digits = format!("{:0>width$}", v.unsigned_abs(), width = scale as usize + 1);
                let (int, frac) = digits.split_at(digits.len() - scale as usize);
                let sign = if v < 0 { "-" } else { "" };
                if frac.is_empty() { format!("{sign}{int}") } else { format!("{sign}{int}.{frac}") }
            };
            for v in &values {
                for sk in ["A", "B"] {
                    call(&engine, "PutItem", json!({"TableName": "Keyed", "Item": {"pk": {"N": spell(*v)}, "sk": {"S": sk}}})).await;
                }
            }
            let mut listed: Vec<f64> = Vec::new();
            let mut offset = 0u64;
            loop {
                let run = engine.collection_range("Keyed", None, offset, page).await.unwrap();
                prop_assert!(run.len() <= page);
                for summary in &run {
                    prop_assert_eq!(summary.item_count, 2);
                    let n: f64 = serde_json::to_value(&summary.partition_key).unwrap()["N"].as_str().unwrap().parse().unwrap();
                    listed.push(n);
                }
                if run.len() < page { break; }
                offset += page as u64;
            }
            let expected: Vec<f64> = values.iter().map(|v| spell(*v).parse().unwrap()).collect();
            prop_assert_eq!(&listed, &expected);
            for (position, v) in values.iter().enumerate() {
                let key: dynotable_types::AttributeValue = serde_json::from_value(json!({"N": spell(*v)})).unwrap();
                let at = engine.collection_position("Keyed", None, &key).await.unwrap();
                prop_assert_eq!(at, Some(position as u64));
            }
            let absent: dynotable_types::AttributeValue = serde_json::from_value(json!({"N": "1000001"})).unwrap();
            prop_assert_eq!(engine.collection_position("Keyed", None, &absent).await.unwrap(), None);
            Ok(())
        })?;
    }
}
