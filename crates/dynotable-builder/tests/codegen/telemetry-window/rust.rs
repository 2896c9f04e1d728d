use std::error::Error;

use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
    let client = Client::new(&config);
    let mut items = client
        .query()
        .table_name("Telemetry")
        .key_condition_expression("vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to")
        .expression_attribute_values(":recordedAt_from", AttributeValue::S("TS#2024-03-01T00:00:00Z".to_string()))
        .expression_attribute_values(":recordedAt_to", AttributeValue::S("TS#2024-03-01T23:59:59Z".to_string()))
        .expression_attribute_values(":vehicleId", AttributeValue::S("VEH#V-7741".to_string()))
        .scan_index_forward(false)
        .limit(3)
        .into_paginator()
        .items()
        .send();
    while let Some(item) = items.next().await {
        println!("{:?}", item?);
    }
    Ok(())
}
