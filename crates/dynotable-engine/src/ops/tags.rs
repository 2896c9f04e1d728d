//! TagResource, UntagResource and ListTagsOfResource: key-value tags on a table, named by its
//! ARN. Rules (DG `Tagging.html`): at most 50 tags per resource, keys 1–128 characters, values
//! 0–256; a key given again replaces its value.

use crate::api::Tag;
use crate::api::table::{
    ListTagsOfResourceInput, ListTagsOfResourceOutput, TagResourceInput, UntagResourceInput,
};
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind, begin_write, storage};

const MAX_TAGS: usize = 50;

/// The tags of a CreateTable or TagResource request, checked.
pub(crate) fn tags_of(tags: &[Tag]) -> Result<std::collections::BTreeMap<String, String>, ApiError> {
    let mut shape = Shape::new();
    for (i, tag) in tags.iter().enumerate() {
        let prefix = format!("tags.{}.member", i + 1);
        match &tag.key {
            Some(key) => shape.length(&format!("{prefix}.key"), key, 1, 128),
            None => {
                shape.required::<()>(&format!("{prefix}.key"), None);
            }
        }
        match &tag.value {
            Some(value) => shape.length(&format!("{prefix}.value"), value, 0, 256),
            None => {
                shape.required::<()>(&format!("{prefix}.value"), None);
            }
        }
    }
    shape.finish()?;
    Ok(tags
        .iter()
        .map(|t| {
            (
                t.key.clone().unwrap_or_default(),
                t.value.clone().unwrap_or_default(),
            )
        })
        .collect())
}

/// The table an ARN names, or the service's ResourceNotFoundException (its message spells
/// "ResourcArn", sic; unverified).
fn table_of_arn(engine: &Engine, arn: &str) -> Result<std::sync::Arc<crate::catalog::TableSchema>, ApiError> {
    let not_found = || {
        ApiError::new(
            ErrorKind::ResourceNotFoundException,
            format!("Requested resource not found: ResourcArn: {arn} not found"),
        )
    };
    if !arn.starts_with("arn:") || arn.contains("/index/") || arn.contains("/stream/") {
        return Err(ApiError::validation(format!(
            "Invalid TableArn: Invalid ResourceArn provided as input {arn}"
        )));
    }
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
    let new_tags = tags_of(input.tags.as_deref().unwrap_or_default())?;
    let mut writer = engine.writer().await;
    let mut table = (*table_of_arn(engine, input.resource_arn.as_deref().unwrap_or_default())?).clone();
    table.tags.extend(new_tags);
    if table.tags.len() > MAX_TAGS {
        return Err(ApiError::new(
            ErrorKind::LimitExceededException,
            format!("The number of tags on the resource exceeds the limit of {MAX_TAGS}"),
        ));
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
    let mut writer = engine.writer().await;
    let mut table = (*table_of_arn(engine, input.resource_arn.as_deref().unwrap_or_default())?).clone();
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
    let table = table_of_arn(engine, input.resource_arn.as_deref().unwrap_or_default())?;
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
