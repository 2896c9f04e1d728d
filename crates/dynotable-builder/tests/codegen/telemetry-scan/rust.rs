use std::collections::HashMap;
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
        .filter_expression("fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer")
        .expression_attribute_values(":checksum", AttributeValue::B(Blob::new(vec![0xde, 0xad, 0xbe, 0xef])))
        .expression_attribute_values(":flags", AttributeValue::M(HashMap::from([("codes".to_string(), AttributeValue::L(vec![AttributeValue::N("1".to_string()), AttributeValue::S("two".to_string())])), ("note".to_string(), AttributeValue::Null(true)), ("ok".to_string(), AttributeValue::Bool(true))])))
        .expression_attribute_values(":fuelPct", AttributeValue::N("12.5".to_string()))
        .expression_attribute_values(":odometer", AttributeValue::N("12345678901234567890".to_string()))
        .expression_attribute_values(":tags_element", AttributeValue::S("service-due".to_string()))
        .expression_attribute_values(":zones", AttributeValue::Ns(vec!["1".to_string(), "3".to_string()]))
        .limit(4)
        .into_paginator()
        .items()
        .send();
    while let Some(item) = items.next().await {
        println!("{:?}", item?);
    }
    Ok(())
}
