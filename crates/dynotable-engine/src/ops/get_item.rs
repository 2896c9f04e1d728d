//! GetItem: read one item by its key, optionally projected (ProjectionExpression or the legacy
//! AttributesToGet). Every read here is strongly consistent, unless the engine lets
//! eventually consistent reads lag (`eventual_lag`, rule B.20); an eventually consistent read
//! is charged half (rule B.2) either way.

use crate::api::ConsumedCapacity;
use crate::api::item::{GetItemInput, GetItemOutput};
use crate::capacity::{self, ReadKind};
use crate::entry::{self, StorageKey};
use crate::item_cache::Cached;
use crate::legacy;
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// A GetItem whose item the caller reads (PartiQL).
pub async fn run(engine: &Engine, input: GetItemInput) -> Result<GetItemOutput, ApiError> {
    match get_item(engine, input, false).await? {
        Answer::Decoded(output) => Ok(output),
        // Not asked for: without `keep_stored` every answer is decoded.
        Answer::Stored(..) => Err(ApiError::internal(
            "GetItem kept a stored item it was not asked to",
        )),
    }
}

/// A GetItem answered on the wire, as an output: without a projection the item is returned as
/// stored, not decoded and encoded again (see `read::page`, "Stored items"). The wire uses
/// [`respond_body`]; this is the reference the tests check its bytes against.
#[cfg(test)]
pub async fn respond(engine: &Engine, input: GetItemInput) -> Result<GetItemOutput, ApiError> {
    match get_item(engine, input, true).await? {
        Answer::Decoded(output) => Ok(output),
        Answer::Stored(stored, consumed_capacity) => Ok(GetItemOutput {
            stored_item: stored.map(|s| s.raw()).transpose()?,
            consumed_capacity,
            ..Default::default()
        }),
    }
}

/// [`respond`], serialised: the response body. A stored item goes into it as stored, copied
/// once, without the `RawValue` that [`respond`] builds (a copy and a JSON validation of the
/// item on every cache hit); the bytes are those `serde_json` writes for [`respond`]'s output.
pub async fn respond_body(engine: &Engine, input: GetItemInput) -> Result<Vec<u8>, ApiError> {
    match get_item(engine, input, true).await? {
        Answer::Decoded(output) => serde_json::to_vec(&output).map_err(ApiError::internal),
        Answer::Stored(stored, consumed_capacity) => {
            let capacity = match &consumed_capacity {
                Some(c) => Some(serde_json::to_vec(c).map_err(ApiError::internal)?),
                None => None,
            };
            let item_len = stored.as_ref().map_or(0, |s| s.body.len());
            let mut body = Vec::with_capacity(item_len + capacity.as_ref().map_or(0, Vec::len) + 32);
            body.push(b'{');
            if let Some(stored) = &stored {
                body.extend_from_slice(b"\"Item\":");
                body.extend_from_slice(stored.body.as_bytes());
            }
            if let Some(capacity) = capacity {
                if stored.is_some() {
                    body.push(b',');
                }
                body.extend_from_slice(b"\"ConsumedCapacity\":");
                body.extend_from_slice(&capacity);
            }
            body.push(b'}');
            Ok(body)
        }
    }
}

/// What a GetItem found: an output to serialise, or (on the wire, without a projection) the
/// item as stored and the capacity report.
enum Answer {
    Decoded(GetItemOutput),
    Stored(Cached, Option<ConsumedCapacity>),
}

async fn get_item(engine: &Engine, input: GetItemInput, keep_stored: bool) -> Result<Answer, ApiError> {
    // Member constraints, in the order the service lists them (rule B.15).
    let mut shape = Shape::new();
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    legacy::shape_attributes_to_get(&mut shape, "attributesToGet", input.attributes_to_get.as_ref());
    shape.table("tableName", input.table_name.as_ref());
    shape.required("key", input.key.as_ref());
    shape.finish()?;

    let expressions = [("ProjectionExpression", input.projection_expression.is_some())];
    params::ParameterUse {
        legacy: &[("AttributesToGet", input.attributes_to_get.is_some())],
        expressions: &expressions,
        value_expressions: &[],
        names: input.expression_attribute_names.is_some(),
        values: false,
        conditional_operator: None,
        joined_entries: None,
    }
    .check()?;
    let key_item = input
        .key
        .map(|c| c.into_result())
        .transpose()?
        .unwrap_or_default();
    let mut placeholders = params::placeholders(input.expression_attribute_names.as_ref(), None)?;
    let mut projection = input
        .projection_expression
        .as_deref()
        .map(|text| placeholders.projection(text))
        .transpose()?;
    placeholders.check_unused()?;
    if let Some(names) = &input.attributes_to_get {
        projection = Some(legacy::attributes_to_get(names)?);
    }

    let named = input.table_name.as_deref().unwrap_or_default();
    let table = engine.table(named)?;
    let key = StorageKey::of_key(&table, &key_item)?;
    // Rule B.6.1: after the key, before the read (dynalite's getItem, as its tests record it).
    params::check_projection_key_paths(&table, projection.as_ref())?;
    let kind = ReadKind::of_consistent_read(input.consistent_read.unwrap_or(false));
    let stored = engine.read_item(&mut None, &table, &key).await?;
    // Rule B.20: an eventually consistent read may see an older version when reads lag.
    let stored = engine.as_read(&table, &key, kind, stored);
    let units = capacity::item_read(stored.as_ref().map(|s| s.size), kind);
    if keep_stored && projection.is_none() {
        let capacity = params::consumed_capacity(report, &table, named, Some(Charge::Read(units)), &[]);
        return Ok(Answer::Stored(stored, capacity));
    }
    let item = stored
        .map(|s| entry::decode_entry(s.body.as_bytes(), s.size as i64))
        .transpose()?
        .map(|s| match &projection {
            Some(projection) => projection.apply(&s.item),
            None => s.item,
        });
    Ok(Answer::Decoded(GetItemOutput {
        item,
        consumed_capacity: params::consumed_capacity(report, &table, named, Some(Charge::Read(units)), &[]),
        ..Default::default()
    }))
}

#[cfg(test)]
mod tests {
    use crate::{Engine, Location};

    /// The body written straight to bytes is, byte for byte, what serde writes for the output.
    #[tokio::test]
    async fn the_response_body_is_the_serialised_output() {
        let mut options = crate::Options::new(Location::InMemory);
        options.sweep_interval = None;
        let engine = Engine::open_with(options).await.unwrap();
        let create = r#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"p","KeyType":"HASH"}],
            "AttributeDefinitions":[{"AttributeName":"p","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}"#;
        engine.call("CreateTable", create.as_bytes()).await.unwrap();
        let put = r#"{"TableName":"Tbl","Item":{"p":{"S":"a"},"n":{"N":"1.50"},"s":{"S":"x\"y"},"l":{"L":[{"BOOL":true}]}}}"#;
        engine.call("PutItem", put.as_bytes()).await.unwrap();
        for (key, capacity, projection) in [
            ("a", "", ""),
            ("a", r#","ReturnConsumedCapacity":"TOTAL""#, ""),
            ("a", r#","ReturnConsumedCapacity":"INDEXES""#, ""),
            ("b", "", ""),
            ("b", r#","ReturnConsumedCapacity":"TOTAL""#, ""),
            (
                "a",
                r#","ReturnConsumedCapacity":"TOTAL""#,
                r#","ProjectionExpression":"n""#,
            ),
        ] {
            let request =
                format!(r#"{{"TableName":"Tbl","Key":{{"p":{{"S":"{key}"}}}}{capacity}{projection}}}"#);
            let input = || serde_json::from_str(&request).unwrap();
            let body = super::respond_body(&engine, input()).await.unwrap();
            let output = super::respond(&engine, input()).await.unwrap();
            assert_eq!(
                String::from_utf8(body.clone()).unwrap(),
                serde_json::to_string(&output).unwrap(),
                "{request}"
            );
            assert_eq!(engine.call("GetItem", request.as_bytes()).await.unwrap(), body);
        }
        let body = engine
            .call("GetItem", br#"{"TableName":"Tbl","Key":{"p":{"S":"a"}}}"#)
            .await
            .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["Item"]["n"]["N"], "1.5");
        assert_eq!(value["Item"]["s"]["S"], "x\"y");
    }
}
