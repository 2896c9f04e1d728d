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
        .key_condition_expression("vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)")
        .filter_expression("speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))")
        .projection_expression("vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]")
        .expression_attribute_names("#data", "data")
        .expression_attribute_names("#status", "status")
        .expression_attribute_values(":recordedAt_prefix", AttributeValue::S("TS#".to_string()))
        .expression_attribute_values(":speedKph", AttributeValue::N("60".to_string()))
        .expression_attribute_values(":status_1", AttributeValue::S("OK".to_string()))
        .expression_attribute_values(":status_2", AttributeValue::S("WARN".to_string()))
        .expression_attribute_values(":vehicleId", AttributeValue::S("VEH#V-7741".to_string()))
        .limit(2)
        .consistent_read(true)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .into_paginator()
        .items()
        .send();
    while let Some(item) = items.next().await {
        println!("{:?}", item?);
    }
    Ok(())
}
