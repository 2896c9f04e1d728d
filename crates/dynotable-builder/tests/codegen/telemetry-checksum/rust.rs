use std::error::Error;

use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let config = aws_config::load_defaults(BehaviorVersion::latest()).await;
    let client = Client::new(&config);
    let mut items = client
        .scan()
        .table_name("Telemetry")
        .filter_expression("checksum = :checksum")
        .projection_expression("vehicleId, recordedAt, checksum, #data")
        .expression_attribute_names("#data", "data")
        .expression_attribute_values(":checksum", AttributeValue::B(Blob::new(vec![0xde, 0xad, 0xbe, 0xef])))
        .limit(5)
        .into_paginator()
        .items()
        .send();
    while let Some(item) = items.next().await {
        println!("{:?}", item?);
    }
    Ok(())
}
