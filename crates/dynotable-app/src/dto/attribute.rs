//! Attribute values as the UI sees them: DynamoDB JSON, exactly as on the wire
//! (`{"S":"x"}`, `{"N":"12.5"}`, `{"B":"<base64>"}`, ...), so no type is ever guessed and no
//! number passes through a JavaScript double.
//!
//! Conversions go both ways to the SDK's `AttributeValue` (every connection reads and writes
//! through aws-sdk-dynamodb) and to the engine's `dynotable_types::Item` (whose strict reading
//! applies DynamoDB's value rules, used to validate an item before it is sent).

use std::collections::BTreeMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as Sdk;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

/// One DynamoDB attribute value. `B` and `BS` hold base64 text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[allow(clippy::upper_case_acronyms)]
pub enum AttributeValue {
    S(String),
    N(String),
    B(String),
    SS(Vec<String>),
    NS(Vec<String>),
    BS(Vec<String>),
    M(BTreeMap<String, AttributeValue>),
    L(Vec<AttributeValue>),
    NULL(bool),
    BOOL(bool),
}

/// An item (or a key): attribute name → value.
pub type Item = BTreeMap<String, AttributeValue>;

impl AttributeValue {
    /// The value as the SDK sends it. Fails only on base64 that does not decode.
    pub fn to_sdk(&self) -> Result<Sdk, String> {
        let blob = |text: &str| {
            STANDARD
                .decode(text)
                .map(Blob::new)
                .map_err(|err| format!("a binary value is not valid base64: {err}"))
        };
        Ok(match self {
            AttributeValue::S(s) => Sdk::S(s.clone()),
            AttributeValue::N(n) => Sdk::N(n.clone()),
            AttributeValue::B(b) => Sdk::B(blob(b)?),
            AttributeValue::SS(v) => Sdk::Ss(v.clone()),
            AttributeValue::NS(v) => Sdk::Ns(v.clone()),
            AttributeValue::BS(v) => Sdk::Bs(v.iter().map(|b| blob(b)).collect::<Result<_, _>>()?),
            AttributeValue::M(m) => Sdk::M(item_to_sdk(m)?),
            AttributeValue::L(l) => Sdk::L(l.iter().map(AttributeValue::to_sdk).collect::<Result<_, _>>()?),
            AttributeValue::NULL(b) => Sdk::Null(*b),
            AttributeValue::BOOL(b) => Sdk::Bool(*b),
        })
    }

    /// The SDK's value as DynamoDB JSON. `None` for a kind this SDK version does not know.
    pub fn from_sdk(value: &Sdk) -> Option<AttributeValue> {
        let base64 = |blob: &Blob| STANDARD.encode(blob.as_ref());
        Some(match value {
            Sdk::S(s) => AttributeValue::S(s.clone()),
            Sdk::N(n) => AttributeValue::N(n.clone()),
            Sdk::B(b) => AttributeValue::B(base64(b)),
            Sdk::Ss(v) => AttributeValue::SS(v.clone()),
            Sdk::Ns(v) => AttributeValue::NS(v.clone()),
            Sdk::Bs(v) => AttributeValue::BS(v.iter().map(base64).collect()),
            Sdk::M(m) => AttributeValue::M(item_from_sdk(m)),
            Sdk::L(l) => AttributeValue::L(l.iter().filter_map(AttributeValue::from_sdk).collect()),
            Sdk::Null(b) => AttributeValue::NULL(*b),
            Sdk::Bool(b) => AttributeValue::BOOL(*b),
            _ => return None,
        })
    }

    /// The value as the engine's type, read by DynamoDB's value rules (rule B.10): the error is
    /// the service's message.
    pub fn to_engine(&self) -> Result<dynotable_types::AttributeValue, String> {
        let json = serde_json::to_value(self).map_err(|err| err.to_string())?;
        serde_json::from_value(json).map_err(|err| err.to_string())
    }

    /// A short text for people: the string, the number, `<binary 12 B>`, ...
    pub fn display_text(&self) -> String {
        match self {
            AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
            AttributeValue::B(b) => {
                format!("<binary {} B>", STANDARD.decode(b).map(|v| v.len()).unwrap_or(0))
            }
            AttributeValue::BOOL(b) => b.to_string(),
            AttributeValue::NULL(_) => "null".to_owned(),
            other => serde_json::to_string(other).unwrap_or_default(),
        }
    }
}

/// An item as the SDK sends it.
pub fn item_to_sdk(item: &Item) -> Result<std::collections::HashMap<String, Sdk>, String> {
    item.iter()
        .map(|(name, value)| Ok((name.clone(), value.to_sdk()?)))
        .collect()
}

/// The SDK's item as DynamoDB JSON (kinds the SDK does not know are left out).
pub fn item_from_sdk(item: &std::collections::HashMap<String, Sdk>) -> Item {
    item.iter()
        .filter_map(|(name, value)| Some((name.clone(), AttributeValue::from_sdk(value)?)))
        .collect()
}

/// An item as the engine's type, read by DynamoDB's value rules.
pub fn item_to_engine(item: &Item) -> Result<dynotable_types::Item, String> {
    let json = serde_json::to_value(item).map_err(|err| err.to_string())?;
    serde_json::from_value(json).map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Item {
        let json = r#"{"pk":{"S":"VEH#V-7741"},"n":{"N":"12345678901234567890.5"},"b":{"B":"AAEC"},
            "ss":{"SS":["a","b"]},"ns":{"NS":["1","2"]},"bs":{"BS":["AQ=="]},"nul":{"NULL":true},
            "ok":{"BOOL":false},"m":{"M":{"l":{"L":[{"S":"x"},{"N":"1"}]}}}}"#;
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn dynamodb_json_is_the_wire_shape() {
        let item = sample();
        assert_eq!(item["n"], AttributeValue::N("12345678901234567890.5".into()));
        let text = serde_json::to_string(&item["m"]).unwrap();
        assert_eq!(text, r#"{"M":{"l":{"L":[{"S":"x"},{"N":"1"}]}}}"#);
    }

    #[test]
    fn the_sdk_round_trip_keeps_every_kind_and_every_digit() {
        let item = sample();
        let sdk = item_to_sdk(&item).unwrap();
        assert_eq!(sdk["b"], Sdk::B(Blob::new(vec![0, 1, 2])));
        assert_eq!(item_from_sdk(&sdk), item);
    }

    #[test]
    fn bad_base64_and_bad_numbers_are_refused_with_a_sentence() {
        assert!(
            AttributeValue::B("*not base64*".into())
                .to_sdk()
                .unwrap_err()
                .contains("base64")
        );
        let err = AttributeValue::N("twelve".into()).to_engine().unwrap_err();
        assert!(err.contains("cannot be converted to a numeric value"), "{err}");
    }
}
