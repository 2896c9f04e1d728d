//! `NextToken`: where the next page of a SELECT starts, opaque to the client.
//!
//! A token is the hex of a small JSON document: a fingerprint of the statement and its
//! parameters, which item collection to continue with, and the `LastEvaluatedKey` to continue
//! after in it. A token handed back with another statement is refused, as the service refuses it
//! (`NextToken does not match request`); one that does not decode is `Invalid NextToken`.

use dynotable_types::{AttributeValue, Item};
use serde::{Deserialize, Serialize};

use super::error;
use crate::ApiError;

/// Where a SELECT continues: the index of the read (one per item collection; 0 for a Scan) and
/// the key to continue after in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Resume {
    #[serde(rename = "p")]
    pub partition: usize,
    #[serde(rename = "k", default, skip_serializing_if = "Option::is_none")]
    pub key: Option<Item>,
}

#[derive(Serialize, Deserialize)]
struct Token {
    #[serde(rename = "f")]
    fingerprint: String,
    #[serde(flatten)]
    resume: Resume,
}

/// A stable fingerprint (FNV-1a, 64 bits) of a statement and its parameters.
pub(crate) fn fingerprint(statement: &str, parameters: &[AttributeValue]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let parameters = serde_json::to_string(parameters).unwrap_or_default();
    for byte in statement.bytes().chain([0]).chain(parameters.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

pub(crate) fn encode(fingerprint: &str, resume: Resume) -> String {
    let token = Token {
        fingerprint: fingerprint.to_owned(),
        resume,
    };
    let json = serde_json::to_vec(&token).unwrap_or_default();
    json.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn decode(token: &str, fingerprint: &str) -> Result<Resume, ApiError> {
    let invalid = || ApiError::validation(error::INVALID_NEXT_TOKEN);
    if !token.len().is_multiple_of(2) || !token.is_ascii() {
        return Err(invalid());
    }
    let bytes = (0..token.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&token[i..i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| invalid())?;
    let token: Token = serde_json::from_slice(&bytes).map_err(|_| invalid())?;
    if token.fingerprint != fingerprint {
        return Err(ApiError::validation(error::NEXT_TOKEN_MISMATCH));
    }
    Ok(token.resume)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_mismatch() {
        let print = fingerprint("SELECT * FROM t", &[AttributeValue::S("a".into())]);
        let resume = Resume {
            partition: 2,
            key: Some(Item::from([("pk".to_owned(), AttributeValue::S("x".into()))])),
        };
        let token = encode(&print, resume.clone());
        assert_eq!(decode(&token, &print).unwrap(), resume);
        let other = fingerprint("SELECT * FROM t", &[AttributeValue::S("b".into())]);
        assert_eq!(
            decode(&token, &other).unwrap_err().message,
            error::NEXT_TOKEN_MISMATCH
        );
        assert_eq!(
            decode("zz", &print).unwrap_err().message,
            error::INVALID_NEXT_TOKEN
        );
    }
}
