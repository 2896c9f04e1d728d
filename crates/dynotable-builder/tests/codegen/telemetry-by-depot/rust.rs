use std::error::Error;

use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnConsumedCapacity};

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
    let client = Client::new(&config);
    let mut items = client
        .query()
        .table_name("Telemetry")
        .index_name("ByDepot")
        .key_condition_expression("depotCode = :depotCode AND recordedAt >= :recordedAt")
        .expression_attribute_values(":depotCode", AttributeValue::S("BER-1".to_string()))
        .expression_attribute_values(":recordedAt", AttributeValue::S("TS#2024-03-01T12:00:00Z".to_string()))
        .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
        .into_paginator()
        .items()
        .send();
    while let Some(item) = items.next().await {
        println!("{:?}", item?);
    }
    Ok(())
}
