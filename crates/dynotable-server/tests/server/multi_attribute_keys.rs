//! The AWS SDK for Rust against the real `dynotable-local`: a global secondary index with a
//! multi-attribute key (issue 18.2, docs/dynamodb-rules.md B.18) is created, described as given,
//! queried left to right and refused outside the rules, as a Rust program meets it.

use crate::local;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    Projection, ProjectionType, ScalarAttributeType,
};
use local::{Server, sdk};

fn element(name: &str, key_type: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(key_type)
        .build()
        .unwrap()
}

fn definition(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ty)
        .build()
        .unwrap()
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_multi_attribute_index_is_created_described_and_queried_left_to_right() {
    let server = Server::start(&[]);
    let client = sdk(&server.url(), "AKIDLOCAL", "local-secret");
    let gsi_key = vec![
        element("tournamentId", KeyType::Hash),
        element("region", KeyType::Hash),
        element("round", KeyType::Range),
        element("bracket", KeyType::Range),
    ];
    client
        .create_table()
        .table_name("Matches")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(definition("matchId", ScalarAttributeType::S))
        .attribute_definitions(definition("tournamentId", ScalarAttributeType::S))
        .attribute_definitions(definition("region", ScalarAttributeType::S))
        .attribute_definitions(definition("round", ScalarAttributeType::N))
        .attribute_definitions(definition("bracket", ScalarAttributeType::S))
        .key_schema(element("matchId", KeyType::Hash))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("TournamentRegion")
                .set_key_schema(Some(gsi_key.clone()))
                .projection(Projection::builder().projection_type(ProjectionType::All).build())
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();

    let described = client
        .describe_table()
        .table_name("Matches")
        .send()
        .await
        .unwrap();
    let index = &described.table().unwrap().global_secondary_indexes()[0];
    assert_eq!(index.key_schema(), gsi_key.as_slice());

    for (id, region, round, bracket) in [
        ("m1", "NA-EAST", "1", "UPPER"),
        ("m2", "NA-EAST", "1", "LOWER"),
        ("m3", "NA-EAST", "2", "UPPER"),
        ("m4", "NA-EAST", "10", "UPPER"),
        ("m5", "EU-WEST", "1", "UPPER"),
    ] {
        client
            .put_item()
            .table_name("Matches")
            .item("matchId", s(id))
            .item("tournamentId", s("WINTER2024"))
            .item("region", s(region))
            .item("round", n(round))
            .item("bracket", s(bracket))
            .send()
            .await
            .unwrap();
    }

    let query = |expression: &str| {
        client
            .query()
            .table_name("Matches")
            .index_name("TournamentRegion")
            .key_condition_expression(expression)
            .expression_attribute_names("#region", "region")
            .expression_attribute_values(":t", s("WINTER2024"))
            .expression_attribute_values(":r", s("NA-EAST"))
    };
    let ids = |items: &[std::collections::HashMap<String, AttributeValue>]| -> Vec<String> {
        items
            .iter()
            .map(|item| item["matchId"].as_s().unwrap().clone())
            .collect()
    };

    // The collection in key order: round numerically, then bracket.
    let all = query("tournamentId = :t AND #region = :r").send().await.unwrap();
    assert_eq!(ids(all.items()), ["m2", "m1", "m3", "m4"]);

    let ranged = query("tournamentId = :t AND #region = :r AND #round > :one")
        .expression_attribute_names("#round", "round")
        .expression_attribute_values(":one", n("1"))
        .send()
        .await
        .unwrap();
    assert_eq!(ids(ranged.items()), ["m3", "m4"]);

    let prefixed = query("tournamentId = :t AND #region = :r AND #round = :one AND begins_with(bracket, :b)")
        .expression_attribute_names("#round", "round")
        .expression_attribute_values(":one", n("1"))
        .expression_attribute_values(":b", s("UP"))
        .send()
        .await
        .unwrap();
    assert_eq!(ids(prefixed.items()), ["m1"]);

    // Refused: a skipped sort attribute, a range before the last sort condition, a partition
    // attribute missing.
    for (request, message) in [
        (
            query("tournamentId = :t AND #region = :r AND bracket = :b")
                .expression_attribute_values(":b", s("UPPER")),
            "Query condition missed key schema element: round",
        ),
        (
            query("tournamentId = :t AND #region = :r AND #round > :one AND bracket = :b")
                .expression_attribute_names("#round", "round")
                .expression_attribute_values(":one", n("1"))
                .expression_attribute_values(":b", s("UPPER")),
            "Query key condition not supported",
        ),
    ] {
        let err = request.send().await.unwrap_err().into_service_error();
        let meta = aws_sdk_dynamodb::error::ProvideErrorMetadata::meta(&err);
        assert_eq!(meta.code(), Some("ValidationException"));
        assert_eq!(meta.message(), Some(message));
    }
    let err = client
        .query()
        .table_name("Matches")
        .index_name("TournamentRegion")
        .key_condition_expression("tournamentId = :t")
        .expression_attribute_values(":t", s("WINTER2024"))
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    let meta = aws_sdk_dynamodb::error::ProvideErrorMetadata::meta(&err);
    assert_eq!(
        meta.message(),
        Some("Query condition missed key schema element: region")
    );
}
