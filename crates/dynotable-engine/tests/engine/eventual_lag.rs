//! Eventually consistent reads that see writes late under a seed (`Options::eventual_lag`, rule
//! B.20), on the engine with a manual clock: GetItem, BatchGetItem, Query and a GSI's Query may
//! see the version before the last write within the lag; strongly consistent reads stay exact.

use std::sync::Arc;

use dynotable_engine::{Engine, ManualClock};
use serde_json::json;

use crate::simulations::{START, call, create, get, lag, open};

/// The `v` an eventually (or strongly) consistent GetItem of `a`/1 sees; `None` when it finds
/// no item.
async fn seen_v(engine: &Engine, consistent: bool) -> Option<String> {
    let answer = get(engine, "a", 1, consistent).await.unwrap();
    answer["Item"]["v"]["S"].as_str().map(str::to_owned)
}

async fn put_v(engine: &Engine, v: &str) {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": v}}}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_eventually_consistent_read_may_see_the_previous_version_within_the_lag() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(1)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    // Half the lag later: a read drawn more than half the lag back sees the first version.
    clock.advance(0.5);
    let mut seen = Vec::new();
    for _ in 0..200 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(seen.contains(&Some("one".into())), "{seen:?}");
    assert!(seen.contains(&Some("two".into())), "{seen:?}");
    assert!(seen.iter().all(|v| v.is_some()));
    // Past the lag every read sees the last write.
    clock.advance(0.5);
    for _ in 0..200 {
        assert_eq!(seen_v(&engine, false).await.as_deref(), Some("two"));
    }
}

#[tokio::test]
async fn strongly_consistent_reads_stay_exact() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(1)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    put_v(&engine, "two").await;
    for _ in 0..200 {
        assert_eq!(seen_v(&engine, true).await.as_deref(), Some("two"));
    }
}

#[tokio::test]
async fn a_new_item_may_be_missing_and_a_deleted_one_still_there() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(2)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(0.25);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(
        seen.contains(&None) && seen.contains(&Some("one".into())),
        "{seen:?}"
    );
    clock.advance(5.0);
    call(
        &engine,
        "DeleteItem",
        json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}),
    )
    .await
    .unwrap();
    clock.advance(0.25);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    assert!(
        seen.contains(&None) && seen.contains(&Some("one".into())),
        "{seen:?}"
    );
}

#[tokio::test]
async fn batch_get_item_reads_lag_too_unless_consistent() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(3)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    clock.advance(0.5);
    let batch = |consistent: bool| {
        call(
            &engine,
            "BatchGetItem",
            json!({"RequestItems": {"Tbl": {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1"}}],
                                          "ConsistentRead": consistent}}}),
        )
    };
    let mut seen = Vec::new();
    for _ in 0..200 {
        let answer = batch(false).await.unwrap();
        seen.push(
            answer["Responses"]["Tbl"][0]["v"]["S"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    assert!(
        seen.iter().any(|v| v == "one") && seen.iter().any(|v| v == "two"),
        "{seen:?}"
    );
    for _ in 0..100 {
        let answer = batch(true).await.unwrap();
        assert_eq!(answer["Responses"]["Tbl"][0]["v"]["S"], "two");
    }
}

/// The versions 100 eventually consistent reads see, on a fresh engine with `seed`.
async fn hundred_reads(seed: u64) -> Vec<Option<String>> {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(seed)).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    clock.advance(10.0);
    put_v(&engine, "two").await;
    clock.advance(0.5);
    let mut seen = Vec::new();
    for _ in 0..100 {
        seen.push(seen_v(&engine, false).await);
    }
    seen
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answers() {
    let first = hundred_reads(42).await;
    assert_eq!(first, hundred_reads(42).await);
    assert_ne!(first, hundred_reads(43).await);
}

#[tokio::test]
async fn without_a_lag_every_read_sees_the_last_write() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, None).await;
    create(&engine, 0, 0).await;
    put_v(&engine, "one").await;
    put_v(&engine, "two").await;
    for _ in 0..100 {
        assert_eq!(seen_v(&engine, false).await.as_deref(), Some("two"));
    }
}

/// What an eventually (or strongly) consistent Query of `a` on table `Tbl` returns, as
/// `sk=v` pairs in order.
async fn query_a(engine: &Engine, consistent: bool) -> Vec<String> {
    let answer = call(
        engine,
        "Query",
        json!({"TableName": "Tbl", "KeyConditionExpression": "pk = :a",
               "ExpressionAttributeValues": {":a": {"S": "a"}}, "ConsistentRead": consistent}),
    )
    .await
    .unwrap();
    answer["Items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            format!(
                "{}={}",
                item["sk"]["N"].as_str().unwrap(),
                item["v"]["S"].as_str().unwrap()
            )
        })
        .collect()
}

async fn put_sk(engine: &Engine, sk: u64, v: &str) {
    call(
        engine,
        "PutItem",
        json!({"TableName": "Tbl", "Item": {"pk": {"S": "a"}, "sk": {"N": sk.to_string()}, "v": {"S": v}}}),
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn an_eventually_consistent_query_may_see_the_collection_as_it_was() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(5)).await;
    create(&engine, 0, 0).await;
    put_sk(&engine, 1, "one").await;
    put_sk(&engine, 3, "three").await;
    clock.advance(10.0);
    put_sk(&engine, 1, "uno").await;
    put_sk(&engine, 2, "two").await;
    call(
        &engine,
        "DeleteItem",
        json!({"TableName": "Tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "3"}}}),
    )
    .await
    .unwrap();
    clock.advance(0.5);
    let before = vec!["1=one".to_owned(), "3=three".to_owned()];
    let after = vec!["1=uno".to_owned(), "2=two".to_owned()];
    let mut seen = Vec::new();
    for _ in 0..200 {
        seen.push(query_a(&engine, false).await);
    }
    // The three writes came at one instant: a read sees all of them or none, in key order.
    assert!(
        seen.iter().all(|page| *page == before || *page == after),
        "{seen:?}"
    );
    assert!(seen.contains(&before) && seen.contains(&after));
    for _ in 0..100 {
        assert_eq!(query_a(&engine, true).await, after);
    }
    clock.advance(0.5);
    for _ in 0..100 {
        assert_eq!(query_a(&engine, false).await, after);
    }
}

#[tokio::test]
async fn a_gsi_query_may_miss_an_item_that_moved_into_its_collection() {
    let clock = Arc::new(ManualClock::new(START));
    let engine = open(&clock, false, lag(6)).await;
    call(
        &engine,
        "CreateTable",
        json!({
            "TableName": "Tbl",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "g", "AttributeType": "S"},
            ],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "ALL"},
            }],
        }),
    )
    .await
    .unwrap();
    let put_g = |pk: &'static str, g: &'static str| {
        call(
            &engine,
            "PutItem",
            json!({"TableName": "Tbl", "Item": {"pk": {"S": pk}, "g": {"S": g}}}),
        )
    };
    put_g("p1", "x").await.unwrap();
    put_g("p2", "y").await.unwrap();
    clock.advance(10.0);
    // p2 moves from collection y to collection x.
    put_g("p2", "x").await.unwrap();
    clock.advance(0.5);
    let members = |g: &'static str| {
        let engine = engine.clone();
        async move {
            let answer = call(
                &engine,
                "Query",
                json!({"TableName": "Tbl", "IndexName": "ByG", "KeyConditionExpression": "g = :g",
                       "ExpressionAttributeValues": {":g": {"S": g}}}),
            )
            .await
            .unwrap();
            answer["Items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| item["pk"]["S"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    let mut in_x = Vec::new();
    let mut in_y = Vec::new();
    for _ in 0..100 {
        in_x.push(members("x").await);
        in_y.push(members("y").await);
    }
    assert!(
        in_x.iter().all(|m| *m == ["p1"] || *m == ["p1", "p2"]),
        "{in_x:?}"
    );
    assert!(in_x.iter().any(|m| *m == ["p1"]) && in_x.iter().any(|m| *m == ["p1", "p2"]));
    assert!(in_y.iter().all(|m| m.is_empty() || *m == ["p2"]), "{in_y:?}");
    assert!(in_y.iter().any(|m| m.is_empty()) && in_y.iter().any(|m| *m == ["p2"]));
    clock.advance(0.5);
    assert_eq!(members("x").await, ["p1", "p2"]);
    assert!(members("y").await.is_empty());
}
