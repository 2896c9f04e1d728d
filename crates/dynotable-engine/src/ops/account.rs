//! DescribeLimits and DescribeEndpoints: what the account may use and where to reach it.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::{ApiError, Engine};

/// Neither operation takes parameters; unknown members are ignored, as everywhere.
#[derive(Debug, Default, Deserialize)]
pub struct NoInput {}

/// DescribeLimits: the default throughput quotas (rule B.7: 40,000 RCU/WCU per table, 80,000
/// per account for provisioned capacity). Nothing is throttled locally.
pub async fn describe_limits(_engine: &Engine, _input: NoInput) -> Result<Value, ApiError> {
    Ok(json!({
        "AccountMaxReadCapacityUnits": 80000,
        "AccountMaxWriteCapacityUnits": 80000,
        "TableMaxReadCapacityUnits": 40000,
        "TableMaxWriteCapacityUnits": 40000
    }))
}

/// DescribeEndpoints: this endpoint itself, cached for a day as the service answers.
pub async fn describe_endpoints(engine: &Engine, _input: NoInput) -> Result<Value, ApiError> {
    Ok(json!({
        "Endpoints": [{ "Address": engine.inner.options.endpoint_address, "CachePeriodInMinutes": 1440 }]
    }))
}
