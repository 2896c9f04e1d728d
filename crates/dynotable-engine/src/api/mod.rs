//! The DynamoDB API model: request and response shapes exactly as the DynamoDB JSON protocol
//! spells them (`PascalCase` members), shared by the engine and the server.
//!
//! Requests are deserialised leniently — enumerations arrive as strings and required members as
//! `Option` — because DynamoDB answers a bad enumeration or a missing member with a
//! `ValidationException` in its `N validation errors detected` envelope, not with a
//! `SerializationException`; the operation validates them (shape first, then semantics). A
//! member of the wrong JSON type is a `SerializationException`, as on the service.

pub(crate) mod body;
pub mod item;
pub(crate) mod objects;
pub mod partiql;
pub mod table;
pub mod transact;
mod wrong_type;

use serde::{Deserialize, Serialize};

/// `KeySchemaElement`: one key attribute and its role.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure KeySchemaElement")]
pub struct KeySchemaElement {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute_name: Option<String>,
    /// `HASH` or `RANGE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_type: Option<String>,
}

/// `AttributeDefinition`: a key attribute's scalar type.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure AttributeDefinition")]
pub struct AttributeDefinition {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute_name: Option<String>,
    /// `S`, `N` or `B`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attribute_type: Option<String>,
}

/// `Projection`: which attributes an index copies.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure Projection")]
pub struct Projection {
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub non_key_attributes: Option<Vec<String>>,
}

/// `ProvisionedThroughput` as a request gives it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure ProvisionedThroughput")]
pub struct ProvisionedThroughput {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::api::body::long")]
    pub read_capacity_units: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::api::body::long")]
    pub write_capacity_units: Option<i64>,
}

/// `StreamSpecification`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "field structure StreamSpecification")]
pub struct StreamSpecification {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::api::body::boolean")]
    pub stream_enabled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_view_type: Option<String>,
}

/// `Tag`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
#[serde(expecting = "value structure Tag")]
pub struct Tag {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// `ConsumedCapacity` as responses report it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct ConsumedCapacity {
    pub table_name: String,
    pub capacity_units: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_capacity_units: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_capacity_units: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Capacity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_secondary_indexes: Option<std::collections::BTreeMap<String, Capacity>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub local_secondary_indexes: Option<std::collections::BTreeMap<String, Capacity>>,
}

/// `Capacity`: units consumed by one table or index.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct Capacity {
    pub capacity_units: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_capacity_units: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_capacity_units: Option<f64>,
}
