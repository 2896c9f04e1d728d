//! TagResource, UntagResource and ListTagsOfResource: key-value tags on a table, named by its
//! ARN. Rules (DG `Tagging.html`, "Tagging restrictions in DynamoDB"): at most 50 tags per
//! resource; keys 1–128 Unicode characters, values 0–256; letters, numbers and white space of
//! any script and `+ - = . _ : / @`; no key prefixed `aws:`; a key given again replaces its value.
//!
//! The service answers every broken rule with a ValidationException of its own wording, not the
//! "N validation errors detected" list (observed with client-side validation off: a 129-character
//! key is "The Tag Key provided is invalid, Key: <key>", a missing value "The Tag Value provided
//! is invalid, Value: null", and the whole request is refused, no tag of it applied).

use std::collections::BTreeMap;

use crate::api::Tag;
use crate::api::table::{
    ListTagsOfResourceInput, ListTagsOfResourceOutput, TagResourceInput, UntagResourceInput,
};
use crate::identity;
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind, begin_write, storage};

const MAX_TAGS: usize = 50;
const MAX_KEY_CHARS: usize = 128;
const MAX_VALUE_CHARS: usize = 256;
const TOO_MANY_TAGS: &str = "Number of Tags exceed the current limit for the provided ResourceArn";

/// A character of the AWS tag pattern `^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$`: a letter, a separator
/// (white space that is not a control character) or a number of any script, or one of
/// `_ . : / = + - @`. `char::is_alphabetic` is Unicode's Alphabetic property, a little wider
/// than `\p{L}` (it adds letter-like marks and letter numbers).
fn allowed(c: char) -> bool {
    c.is_alphabetic() || c.is_numeric() || (c.is_whitespace() && !c.is_control()) || "_.:/=+-@".contains(c)
}

/// A tag key the service accepts, or its message. The `aws:` prefix is refused where a tag is
/// set (`setting`); UntagResource's keys are checked for their length and characters only.
fn check_key(key: Option<&str>, setting: bool) -> Result<&str, ApiError> {
    let invalid =
        |shown: &str| ApiError::validation(format!("The Tag Key provided is invalid, Key: {shown}"));
    let key = key.ok_or_else(|| invalid("null"))?;
    let chars = key.chars().count();
    if chars == 0 || chars > MAX_KEY_CHARS || !key.chars().all(allowed) {
        return Err(invalid(key));
    }
    if setting && key.starts_with("aws:") {
        return Err(ApiError::validation(format!(
            "Tag Key cannot be prefixed with aws:, Key: {key}"
        )));
    }
    Ok(key)
}

/// A tag value the service accepts, or its message.
fn check_value(value: Option<&str>) -> Result<&str, ApiError> {
    let invalid =
        |shown: &str| ApiError::validation(format!("The Tag Value provided is invalid, Value: {shown}"));
    let value = value.ok_or_else(|| invalid("null"))?;
    if value.chars().count() > MAX_VALUE_CHARS || !value.chars().all(allowed) {
        return Err(invalid(value));
    }
    Ok(value)
}

/// The tags of a CreateTable or TagResource request, checked in the order given: each key, then
/// its value; a key twice in one request; more than 50 tags.
pub(crate) fn tags_of(tags: &[Tag]) -> Result<BTreeMap<String, String>, ApiError> {
    let mut checked = BTreeMap::new();
    for tag in tags {
        let key = check_key(tag.key.as_deref(), true)?;
        let value = check_value(tag.value.as_deref())?;
        if checked.insert(key.to_owned(), value.to_owned()).is_some() {
            return Err(ApiError::validation(format!(
                "Duplicate Tag Keys provided as input: Duplicate Tag Key found {key}"
            )));
        }
    }
    if checked.len() > MAX_TAGS {
        return Err(ApiError::validation(TOO_MANY_TAGS));
    }
    Ok(checked)
}

/// Rule B.15 (the tag operations' order): the ResourceArn is checked after the member list and
/// before the tags or tag keys (dynalite's tests, run against the service: an ARN that is not a
/// table's is refused even with an empty Tags list). The messages are the service's of 2026
/// (live probes of ListTagsOfResource and TagResource, rule B.15): a value that is not an ARN, an
/// ARN of another service, an index's ARN, then any other ARN that is not one of this region's
/// tables; a table of another account is AccessDeniedException (the caller may not touch it
/// without a resource-based policy, and DynoTable has none).
fn check_arn(arn: &str, operation: &str) -> Result<(), ApiError> {
    let invalid = |message: String| {
        ApiError::validation(format!("One or more parameter values were invalid: {message}"))
    };
    if !arn.starts_with("arn:") {
        return Err(invalid(format!("ARNs must start with 'arn:': {arn}")));
    }
    let parts: Vec<&str> = arn.splitn(6, ':').collect();
    if parts.get(2) != Some(&"dynamodb") {
        return Err(invalid(format!(
            "Provided Arn is not a DynamoDB resource arn: {arn}"
        )));
    }
    let resource = parts.get(5).copied().unwrap_or_default();
    if resource.starts_with("table/") && resource.contains("/index/") {
        return Err(invalid(format!(
            "Invalid resource arn provided, only table or stream is accepted. Provided resource arn: {arn}"
        )));
    }
    // A table ARN's name follows the table-name rules (rule B.8): `table/ab` is not a table's.
    let table_name = resource.strip_prefix("table/").filter(|name| {
        (3..=255).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    });
    let caller = crate::identity::current();
    if table_name.is_none() || parts.get(3) != Some(&caller.region.as_str()) {
        return Err(ApiError::validation(format!(
            "Invalid TableArn: Invalid ResourceArn provided as input {arn}"
        )));
    }
    if identity::account_of_arn(arn).is_some_and(|account| account != caller.account) {
        // The IAM wording (`User: <principal> is not authorized to perform: <action> on
        // resource: <arn> because no resource-based policy allows the <action> action`); the
        // principal is the account's root, as requests are not authenticated here.
        return Err(ApiError::new(
            ErrorKind::AccessDeniedException,
            format!(
                "User: arn:aws:iam::{}:root is not authorized to perform: dynamodb:{operation} on resource: {arn} because no resource-based policy allows the dynamodb:{operation} action",
                caller.account
            ),
        ));
    }
    Ok(())
}

/// The table a checked ARN names, or ResourceNotFoundException (its message spells
/// "ResourcArn", sic; dynalite's tests) for no such table here.
fn table_of_arn(engine: &Engine, arn: &str) -> Result<std::sync::Arc<crate::catalog::TableSchema>, ApiError> {
    let not_found = || {
        ApiError::new(
            ErrorKind::ResourceNotFoundException,
            format!("Requested resource not found: ResourcArn: {arn} not found"),
        )
    };
    let table = engine.table(arn).map_err(|_| not_found())?;
    if table.arn() != arn {
        return Err(not_found());
    }
    Ok(table)
}

pub async fn tag_resource(engine: &Engine, input: TagResourceInput) -> Result<serde_json::Value, ApiError> {
    let mut shape = Shape::new();
    shape.required("resourceArn", input.resource_arn.as_ref());
    shape.required("tags", input.tags.as_ref());
    shape.finish()?;
    let arn = input.resource_arn.as_deref().unwrap_or_default();
    check_arn(arn, "TagResource")?;
    let tags = input.tags.as_deref().unwrap_or_default();
    if tags.is_empty() {
        return Err(ApiError::validation(
            "Atleast one Tag needs to be provided as Input.",
        ));
    }
    let new_tags = tags_of(tags)?;
    let mut writer = engine.writer().await;
    let mut table = (*table_of_arn(engine, arn)?).clone();
    table.tags.extend(new_tags);
    if table.tags.len() > MAX_TAGS {
        return Err(ApiError::validation(TOO_MANY_TAGS));
    }
    let mut tx = begin_write(&mut writer).await?;
    storage::save_table(&mut tx, &table).await?;
    tx.commit().await?;
    engine
        .catalog_mut()
        .insert(table.name.clone(), std::sync::Arc::new(table));
    Ok(serde_json::json!({}))
}

pub async fn untag_resource(
    engine: &Engine,
    input: UntagResourceInput,
) -> Result<serde_json::Value, ApiError> {
    let mut shape = Shape::new();
    shape.required("resourceArn", input.resource_arn.as_ref());
    shape.required("tagKeys", input.tag_keys.as_ref());
    shape.finish()?;
    let arn = input.resource_arn.as_deref().unwrap_or_default();
    check_arn(arn, "UntagResource")?;
    let keys = input.tag_keys.as_deref().unwrap_or_default();
    if keys.is_empty() {
        return Err(ApiError::validation(
            "Atleast one Tag Key needs to be provided as Input.",
        ));
    }
    for key in keys {
        check_key(Some(key), false)?;
    }
    if keys.len() > MAX_TAGS {
        return Err(ApiError::validation(TOO_MANY_TAGS));
    }
    let mut writer = engine.writer().await;
    let mut table = (*table_of_arn(engine, arn)?).clone();
    for key in input.tag_keys.iter().flatten() {
        table.tags.remove(key);
    }
    let mut tx = begin_write(&mut writer).await?;
    storage::save_table(&mut tx, &table).await?;
    tx.commit().await?;
    engine
        .catalog_mut()
        .insert(table.name.clone(), std::sync::Arc::new(table));
    Ok(serde_json::json!({}))
}

pub async fn list_tags_of_resource(
    engine: &Engine,
    input: ListTagsOfResourceInput,
) -> Result<ListTagsOfResourceOutput, ApiError> {
    let mut shape = Shape::new();
    shape.required("resourceArn", input.resource_arn.as_ref());
    shape.finish()?;
    let arn = input.resource_arn.as_deref().unwrap_or_default();
    check_arn(arn, "ListTagsOfResource")?;
    let table = table_of_arn(engine, arn)?;
    // All tags fit in one page (at most 50); NextToken is accepted and ignored.
    let tags = table
        .tags
        .iter()
        .map(|(k, v)| Tag {
            key: Some(k.clone()),
            value: Some(v.clone()),
        })
        .collect();
    Ok(ListTagsOfResourceOutput {
        tags,
        next_token: None,
    })
}
