//! A global secondary index with a multi-attribute key (issue 18.2, docs/dynamodb-rules.md B.18)
//! as the app meets it on the embedded engine: DescribeTable's key schema carries every key
//! attribute, and the collection view's Query gives a value for each partition-key attribute,
//! written by `dynotable-builder` with an equality on every one.

use std::sync::Arc;

use dynotable_app::dto::{
    AttributeValue, Billing, IndexKind, KeyAttribute, KeySchema, NewIndex, NewTable, Projection,
    ProjectionType, QueryInput, ScalarType, SortKeyCondition,
};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

async fn app_with_matches() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let engine = app.engine().await.unwrap();
    let create = serde_json::json!({
        "TableName": "Matches",
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "matchId", "AttributeType": "S"},
            {"AttributeName": "tournamentId", "AttributeType": "S"},
            {"AttributeName": "region", "AttributeType": "S"},
            {"AttributeName": "round", "AttributeType": "N"},
            {"AttributeName": "bracket", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "matchId", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "TournamentRegion",
            "KeySchema": [
                {"AttributeName": "tournamentId", "KeyType": "HASH"},
                {"AttributeName": "region", "KeyType": "HASH"},
                {"AttributeName": "round", "KeyType": "RANGE"},
                {"AttributeName": "bracket", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}]
    });
    engine
        .call("CreateTable", create.to_string().as_bytes())
        .await
        .unwrap();
    for (id, region, round, bracket) in [
        ("m1", "NA-EAST", "1", "UPPER"),
        ("m2", "NA-EAST", "2", "LOWER"),
        ("m3", "EU-WEST", "1", "UPPER"),
    ] {
        let put = serde_json::json!({"TableName": "Matches", "Item": {
            "matchId": {"S": id}, "tournamentId": {"S": "WINTER2024"}, "region": {"S": region},
            "round": {"N": round}, "bracket": {"S": bracket}}});
        engine.call("PutItem", put.to_string().as_bytes()).await.unwrap();
    }
    (dir, app)
}

fn query(more_partition_values: Vec<AttributeValue>, sort_condition: Option<SortKeyCondition>) -> QueryInput {
    QueryInput {
        table: "Matches".into(),
        index: Some("TournamentRegion".into()),
        partition_value: s("WINTER2024"),
        more_partition_values,
        sort_equal_values: Vec::new(),
        sort_condition,
        scan_index_forward: true,
        limit: None,
        consistent_read: false,
        projection: Some("matchId".into()),
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

fn ids(page: &dynotable_app::dto::QueryPage) -> Vec<String> {
    page.items
        .iter()
        .map(|item| match &item["matchId"] {
            AttributeValue::S(id) => id.clone(),
            other => panic!("matchId is {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn the_index_key_schema_lists_every_attribute() {
    let (_dir, app) = app_with_matches().await;
    let table = app.describe_table(EMBEDDED_ID, "Matches").await.unwrap();
    let index = table
        .indexes
        .iter()
        .find(|i| i.name == "TournamentRegion")
        .unwrap();
    let attribute = |name: &str, ty| KeyAttribute {
        name: name.into(),
        ty,
    };
    assert_eq!(index.keys.partition_key, attribute("tournamentId", ScalarType::S));
    assert_eq!(
        index.keys.more_partition_keys,
        [attribute("region", ScalarType::S)]
    );
    assert_eq!(index.keys.sort_key, Some(attribute("round", ScalarType::N)));
    assert_eq!(index.keys.more_sort_keys, [attribute("bracket", ScalarType::S)]);
    // The table's own key stays one attribute.
    assert!(table.keys.more_partition_keys.is_empty() && table.keys.more_sort_keys.is_empty());
}

#[tokio::test]
async fn the_collection_query_gives_every_partition_attribute() {
    let (_dir, app) = app_with_matches().await;
    let page = app
        .query(EMBEDDED_ID, query(vec![s("NA-EAST")], None))
        .await
        .unwrap();
    assert_eq!(ids(&page), ["m1", "m2"]);
    let first_round = SortKeyCondition::Eq {
        value: AttributeValue::N("1".into()),
    };
    let page = app
        .query(EMBEDDED_ID, query(vec![s("EU-WEST")], Some(first_round)))
        .await
        .unwrap();
    assert_eq!(ids(&page), ["m3"]);

    // Round held equal, the condition is on the bracket (the next sort-key attribute).
    let mut held = query(
        vec![s("NA-EAST")],
        Some(SortKeyCondition::BeginsWith { value: s("UP") }),
    );
    held.sort_equal_values = vec![AttributeValue::N("1".into())];
    assert_eq!(ids(&app.query(EMBEDDED_ID, held.clone()).await.unwrap()), ["m1"]);
    held.sort_equal_values = vec![AttributeValue::N("2".into())];
    assert!(app.query(EMBEDDED_ID, held).await.unwrap().items.is_empty());

    // Without the region, DynamoDB's objection comes back.
    let err = app.query(EMBEDDED_ID, query(Vec::new(), None)).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert_eq!(err.message, "Query condition missed key schema element: region");
}

#[tokio::test]
async fn the_cost_estimate_reads_the_collection_of_every_partition_attribute() {
    let (_dir, app) = app_with_matches().await;
    // NA-EAST holds two matches, EU-WEST one: the estimate counts the collection of both values.
    let estimate = app
        .estimate_query(EMBEDDED_ID, query(vec![s("NA-EAST")], None))
        .await
        .unwrap();
    assert_eq!(estimate.item_count, 2.0);
    let estimate = app
        .estimate_query(EMBEDDED_ID, query(vec![s("EU-WEST")], None))
        .await
        .unwrap();
    assert_eq!(estimate.item_count, 1.0);
    // Under a sort-key condition the selected entries are sized one by one on the engine.
    let first_round = SortKeyCondition::Eq {
        value: AttributeValue::N("1".into()),
    };
    let estimate = app
        .estimate_query(EMBEDDED_ID, query(vec![s("NA-EAST")], Some(first_round)))
        .await
        .unwrap();
    assert_eq!(estimate.item_count, 1.0);
    // The leading sort-key attribute held equal, the condition on the next.
    let mut held = query(
        vec![s("NA-EAST")],
        Some(SortKeyCondition::BeginsWith { value: s("LO") }),
    );
    held.sort_equal_values = vec![AttributeValue::N("2".into())];
    assert_eq!(
        app.estimate_query(EMBEDDED_ID, held.clone())
            .await
            .unwrap()
            .item_count,
        1.0
    );
    held.sort_equal_values = vec![AttributeValue::N("1".into())];
    assert_eq!(
        app.estimate_query(EMBEDDED_ID, held).await.unwrap().item_count,
        0.0
    );
}

#[tokio::test]
async fn the_create_table_command_sends_every_key_attribute_of_an_index() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let attribute = |name: &str, ty| KeyAttribute {
        name: name.into(),
        ty,
    };
    let index_keys = KeySchema {
        partition_key: attribute("tournamentId", ScalarType::S),
        sort_key: Some(attribute("round", ScalarType::N)),
        more_partition_keys: vec![attribute("region", ScalarType::S)],
        more_sort_keys: vec![attribute("bracket", ScalarType::S)],
    };
    let table = NewTable {
        name: "Matches".into(),
        keys: KeySchema {
            partition_key: attribute("matchId", ScalarType::S),
            sort_key: None,
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        },
        billing: Billing::OnDemand,
        indexes: vec![NewIndex {
            name: "TournamentRegion".into(),
            kind: IndexKind::Global,
            keys: index_keys.clone(),
            projection: Projection {
                ty: ProjectionType::All,
                attributes: vec![],
            },
        }],
        stream_view_type: None,
        ttl_attribute: None,
        tags: vec![],
    };
    assert!(app.check_new_table(&table).problem.is_none());
    let created = app.create_table(EMBEDDED_ID, table).await.unwrap();
    assert_eq!(created.indexes[0].keys, index_keys);
}
