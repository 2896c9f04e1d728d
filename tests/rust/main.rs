//! Black-box tests of `dynotable-local` with the AWS SDK for Rust: each test starts the real
//! binary on an ephemeral loopback port ([`server`]) and talks to it only through
//! `aws_sdk_dynamodb::Client`, the way an application would.
//!
//! - [`operations`]: every implemented operation, paginators and waiters.
//! - [`errors`]: the service's errors as the SDK surfaces them (typed where the model has a type).
//! - [`durability`]: `kill -9` in the middle of a write load, and racing conditional writes.
//! - [`transactions`]: TransactWriteItems / TransactGetItems, cancellation reasons, idempotency.
//! - [`streams`]: DynamoDB Streams through `aws_sdk_dynamodbstreams::Client`, and Time to Live.
//! - [`partiql`]: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction.
//! - [`metadata`]: tags, DescribeLimits, DescribeEndpoints.
//! - [`transaction_durability`]: `kill -9` in the middle of a transaction load with a stream.

mod durability;
mod errors;
mod metadata;
mod operations;
mod partiql;
mod server;
mod streams;
mod transaction_durability;
mod transactions;

use std::collections::HashMap;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::create_table::CreateTableOutput;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    Projection, ProjectionType, ScalarAttributeType, StreamSpecification, StreamViewType,
};

pub type Item = HashMap<String, AttributeValue>;

pub fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

pub fn n(value: impl ToString) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

/// An item from `(name, value)` pairs.
pub fn item<const N: usize>(attributes: [(&str, AttributeValue); N]) -> Item {
    attributes.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

fn attribute(name: &str, kind: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(kind)
        .build()
        .unwrap()
}

fn key_element(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .unwrap()
}

/// `Pets`: AnimalType (S) / Name (S), on demand.
pub async fn create_pets(client: &Client) -> CreateTableOutput {
    client
        .create_table()
        .table_name("Pets")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("AnimalType", ScalarAttributeType::S))
        .attribute_definitions(attribute("Name", ScalarAttributeType::S))
        .key_schema(key_element("AnimalType", KeyType::Hash))
        .key_schema(key_element("Name", KeyType::Range))
        .send()
        .await
        .expect("CreateTable Pets")
}

/// `Telemetry`: vehicleId (S) / recordedAt (S), GSI `ByDepot` on depotCode / recordedAt (ALL).
pub async fn create_telemetry(client: &Client) -> CreateTableOutput {
    client
        .create_table()
        .table_name("Telemetry")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("vehicleId", ScalarAttributeType::S))
        .attribute_definitions(attribute("recordedAt", ScalarAttributeType::S))
        .attribute_definitions(attribute("depotCode", ScalarAttributeType::S))
        .key_schema(key_element("vehicleId", KeyType::Hash))
        .key_schema(key_element("recordedAt", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByDepot")
                .key_schema(key_element("depotCode", KeyType::Hash))
                .key_schema(key_element("recordedAt", KeyType::Range))
                .projection(Projection::builder().projection_type(ProjectionType::All).build())
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("CreateTable Telemetry")
}

/// `Herds`: AnimalType (S) / Name (S), on demand, GSI `ByBreed` on breed / Name (KEYS_ONLY).
pub async fn create_herds(client: &Client) -> CreateTableOutput {
    client
        .create_table()
        .table_name("Herds")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("AnimalType", ScalarAttributeType::S))
        .attribute_definitions(attribute("Name", ScalarAttributeType::S))
        .attribute_definitions(attribute("breed", ScalarAttributeType::S))
        .key_schema(key_element("AnimalType", KeyType::Hash))
        .key_schema(key_element("Name", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByBreed")
                .key_schema(key_element("breed", KeyType::Hash))
                .key_schema(key_element("Name", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::KeysOnly)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .send()
        .await
        .expect("CreateTable Herds")
}

/// `Counters`: a simple numeric key `id` (N).
pub async fn create_counters(client: &Client) -> CreateTableOutput {
    client
        .create_table()
        .table_name("Counters")
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("id", ScalarAttributeType::N))
        .key_schema(key_element("id", KeyType::Hash))
        .send()
        .await
        .expect("CreateTable Counters")
}

/// `name`: a simple string key `id` (S), on demand, with a stream of `view` enabled.
pub async fn create_with_stream(client: &Client, name: &str, view: StreamViewType) -> CreateTableOutput {
    client
        .create_table()
        .table_name(name)
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(attribute("id", ScalarAttributeType::S))
        .key_schema(key_element("id", KeyType::Hash))
        .stream_specification(
            StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(view)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap_or_else(|err| panic!("CreateTable {name}: {err:?}"))
}

/// The service error of a call that must fail (a transport or parse failure fails the test).
/// Works for both clients: the DynamoDB and the DynamoDB Streams SDK share `SdkError`.
pub fn service_error<O, E, R>(result: Result<O, aws_sdk_dynamodb::error::SdkError<E, R>>) -> E
where
    O: std::fmt::Debug,
    E: std::error::Error + 'static,
    R: std::fmt::Debug,
{
    match result {
        Ok(output) => panic!("expected an error, got {output:?}"),
        Err(aws_sdk_dynamodb::error::SdkError::ServiceError(context)) => context.into_err(),
        Err(err) => panic!(
            "not a service error: {}",
            aws_sdk_dynamodb::error::DisplayErrorContext(&err)
        ),
    }
}
