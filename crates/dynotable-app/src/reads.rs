//! Read commands: a Query of one item collection (of the table or of an index) page by page, and
//! GetItem. Every request asks for ConsumedCapacity (INDEXES), so each page shows its cost.
//!
//! The Query is built with placeholders for every name and value (rule B.6: reserved words and
//! odd names need `#name`; values are always `:value`), so what the user types is never parsed as
//! expression syntax except the filter, which is sent as written.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::{
    AttributeValue as Sdk, ConsumedCapacity as SdkCapacity, ReturnConsumedCapacity,
};

use crate::dto::attribute::{item_from_sdk, item_to_sdk};
use crate::dto::{
    AttributeValue, CapacityFigure, ConsumedCapacity, Item, PageStop, QueryInput, QueryPage, SortKeyCondition,
};
use crate::history::HistoryRequest;
use crate::{App, CommandError, ErrorCode};

/// The placeholders the key condition uses; a filter may not define the same ones.
const PK_NAME: &str = "#dtPk";
const SK_NAME: &str = "#dtSk";
const PK_VALUE: &str = ":dtPk";
const SK_VALUE: &str = ":dtSk";
const SK_HIGH: &str = ":dtSkHigh";

impl App {
    /// One page of a Query of one collection.
    pub async fn query(&self, profile_id: &str, input: QueryInput) -> Result<QueryPage, CommandError> {
        let session = self.session(profile_id).await?;
        let keys = self
            .key_names(profile_id, &input.table, input.index.as_deref())
            .await?;
        let request = QueryRequest::build(&input, &keys.0, keys.1.as_deref())?;
        let mut call = session
            .client
            .query()
            .table_name(&input.table)
            .set_index_name(input.index.clone())
            .key_condition_expression(request.key_condition)
            .set_filter_expression(input.filter.clone().filter(|f| !f.trim().is_empty()))
            .set_projection_expression(request.projection)
            .set_expression_attribute_names(Some(request.names))
            .set_expression_attribute_values(Some(request.values))
            .scan_index_forward(input.scan_index_forward)
            .consistent_read(input.consistent_read)
            .set_limit(input.limit.map(|l| l.min(i32::MAX as u32) as i32))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes);
        if let Some(start) = &input.exclusive_start_key {
            call = call.set_exclusive_start_key(Some(item_to_sdk(start).map_err(validation)?));
        }
        let output = call.send().await.map_err(|err| CommandError::from_sdk(&err))?;
        let last_evaluated_key = output.last_evaluated_key().map(item_from_sdk);
        let scanned_count = u32::try_from(output.scanned_count()).unwrap_or(0);
        let consumed = output.consumed_capacity().map(consumed_capacity);
        if input.exclusive_start_key.is_none() {
            let count = u32::try_from(output.count()).unwrap_or(0);
            let units = consumed.as_ref().map_or(0.0, |c| c.total);
            // History is a convenience: a failure to record it must not fail the query.
            let ran = HistoryRequest::Collection {
                request: input.clone(),
            };
            if let Err(err) = self.record_query(profile_id, &ran, count, units).await {
                tracing::warn!(%err, "the query could not be added to the history");
            }
        }
        Ok(QueryPage {
            items: output.items().iter().map(item_from_sdk).collect(),
            count: u32::try_from(output.count()).unwrap_or(0),
            scanned_count,
            stop: page_stop(last_evaluated_key.is_some(), input.limit, scanned_count),
            last_evaluated_key,
            consumed_capacity: consumed,
        })
    }

    /// GetItem of `key`; `None` when there is no such item.
    pub async fn get_item(
        &self,
        profile_id: &str,
        table: &str,
        key: Item,
        consistent_read: bool,
    ) -> Result<(Option<Item>, Option<ConsumedCapacity>), CommandError> {
        let session = self.session(profile_id).await?;
        let output = session
            .client
            .get_item()
            .table_name(table)
            .set_key(Some(item_to_sdk(&key).map_err(validation)?))
            .consistent_read(consistent_read)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok((
            output.item().map(item_from_sdk),
            output.consumed_capacity().map(consumed_capacity),
        ))
    }

    /// The partition- and sort-key names of a table or one of its indexes.
    async fn key_names(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<(String, Option<String>), CommandError> {
        let keys = self.key_schema_of(profile_id, table, index).await?;
        Ok((keys.partition_key.name, keys.sort_key.map(|k| k.name)))
    }
}

/// Why a page ended (rule B.4): no LastEvaluatedKey means the end; otherwise the Limit when as
/// many items were evaluated as it allowed, else the 1 MB a page reads at most.
pub fn page_stop(has_last_key: bool, limit: Option<u32>, scanned_count: u32) -> PageStop {
    if !has_last_key {
        PageStop::End
    } else if limit.is_some_and(|l| scanned_count >= l) {
        PageStop::Limit
    } else {
        PageStop::Size
    }
}

/// The SDK's ConsumedCapacity as the UI shows it.
pub fn consumed_capacity(capacity: &SdkCapacity) -> ConsumedCapacity {
    let mut indexes: Vec<CapacityFigure> = capacity
        .global_secondary_indexes()
        .into_iter()
        .flatten()
        .chain(capacity.local_secondary_indexes().into_iter().flatten())
        .map(|(name, c)| CapacityFigure {
            name: name.clone(),
            units: c.capacity_units().unwrap_or(0.0),
        })
        .collect();
    indexes.sort_by(|a, b| a.name.cmp(&b.name));
    ConsumedCapacity {
        total: capacity.capacity_units().unwrap_or(0.0),
        table: capacity.table().and_then(|t| t.capacity_units()),
        indexes,
    }
}

fn validation(message: String) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

/// The expression parts of a Query.
#[derive(Debug, PartialEq)]
struct QueryRequest {
    key_condition: String,
    projection: Option<String>,
    names: HashMap<String, String>,
    values: HashMap<String, Sdk>,
}

impl QueryRequest {
    fn build(
        input: &QueryInput,
        partition_key: &str,
        sort_key: Option<&str>,
    ) -> Result<QueryRequest, CommandError> {
        let mut names: HashMap<String, String> = input
            .filter_names
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect();
        let mut values: HashMap<String, Sdk> =
            item_to_sdk(&input.filter_values.clone().unwrap_or_default()).map_err(validation)?;
        for reserved in [PK_NAME, SK_NAME] {
            if names.contains_key(reserved) {
                return Err(validation(format!(
                    "The filter may not define {reserved}: the key condition uses it."
                )));
            }
        }
        for reserved in [PK_VALUE, SK_VALUE, SK_HIGH] {
            if values.contains_key(reserved) {
                return Err(validation(format!(
                    "The filter may not define {reserved}: the key condition uses it."
                )));
            }
        }
        names.insert(PK_NAME.to_owned(), partition_key.to_owned());
        values.insert(
            PK_VALUE.to_owned(),
            input.partition_value.to_sdk().map_err(validation)?,
        );
        let mut key_condition = format!("{PK_NAME} = {PK_VALUE}");
        if let Some(condition) = &input.sort_condition {
            let sort_key = sort_key.ok_or_else(|| {
                validation("The table has no sort key, so no sort-key condition can be given.".to_owned())
            })?;
            names.insert(SK_NAME.to_owned(), sort_key.to_owned());
            let (text, value, high): (String, &AttributeValue, Option<&AttributeValue>) = match condition {
                SortKeyCondition::Eq { value } => (format!("{SK_NAME} = {SK_VALUE}"), value, None),
                SortKeyCondition::Lt { value } => (format!("{SK_NAME} < {SK_VALUE}"), value, None),
                SortKeyCondition::Le { value } => (format!("{SK_NAME} <= {SK_VALUE}"), value, None),
                SortKeyCondition::Gt { value } => (format!("{SK_NAME} > {SK_VALUE}"), value, None),
                SortKeyCondition::Ge { value } => (format!("{SK_NAME} >= {SK_VALUE}"), value, None),
                SortKeyCondition::BeginsWith { value } => {
                    (format!("begins_with({SK_NAME}, {SK_VALUE})"), value, None)
                }
                SortKeyCondition::Between { low, high } => (
                    format!("{SK_NAME} BETWEEN {SK_VALUE} AND {SK_HIGH}"),
                    low,
                    Some(high),
                ),
            };
            values.insert(SK_VALUE.to_owned(), value.to_sdk().map_err(validation)?);
            if let Some(high) = high {
                values.insert(SK_HIGH.to_owned(), high.to_sdk().map_err(validation)?);
            }
            key_condition = format!("{key_condition} AND {text}");
        }
        let projection = match input.projection.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(projection_expression(text, &mut names)?),
        };
        Ok(QueryRequest {
            key_condition,
            projection,
            names,
            values,
        })
    }
}

/// `a, b.c[2]` → `#dtP0, #dtP1.#dtP2[2]`, with the names added to `names`.
fn projection_expression(text: &str, names: &mut HashMap<String, String>) -> Result<String, CommandError> {
    let mut by_name: BTreeMap<String, String> = BTreeMap::new();
    let mut paths = Vec::new();
    for path in text.split(',').map(str::trim) {
        if path.is_empty() {
            return Err(validation(format!(
                "The projection \u{201c}{text}\u{201d} has an empty attribute name."
            )));
        }
        let mut parts = Vec::new();
        for segment in path.split('.') {
            let (name, indexes) = match segment.find('[') {
                Some(at) => segment.split_at(at),
                None => (segment, ""),
            };
            let name = name.trim();
            let well_formed = !name.is_empty()
                && indexes.split_inclusive(']').all(|i| {
                    i.starts_with('[') && i.ends_with(']') && i[1..i.len() - 1].parse::<u32>().is_ok()
                });
            if !well_formed {
                return Err(validation(format!(
                    "\u{201c}{path}\u{201d} is not an attribute path: use names separated by dots, with [n] for list elements."
                )));
            }
            let count = by_name.len();
            let placeholder = by_name
                .entry(name.to_owned())
                .or_insert_with(|| format!("#dtP{count}"))
                .clone();
            names.insert(placeholder.clone(), name.to_owned());
            parts.push(format!("{placeholder}{indexes}"));
        }
        paths.push(parts.join("."));
    }
    Ok(paths.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(sort_condition: Option<SortKeyCondition>) -> QueryInput {
        QueryInput {
            table: "Telemetry".into(),
            index: None,
            partition_value: AttributeValue::S("VEH#V-7741".into()),
            sort_condition,
            scan_index_forward: false,
            limit: Some(10),
            consistent_read: false,
            projection: Some("status, data.speed[0], status".into()),
            filter: None,
            filter_names: None,
            filter_values: None,
            exclusive_start_key: None,
        }
    }

    #[test]
    fn a_between_window_becomes_a_key_condition_with_placeholders() {
        let condition = SortKeyCondition::Between {
            low: AttributeValue::S("TS#2025-01-01".into()),
            high: AttributeValue::S("TS#2025-01-02".into()),
        };
        let request = QueryRequest::build(&input(Some(condition)), "vehicleId", Some("recordedAt")).unwrap();
        assert_eq!(
            request.key_condition,
            "#dtPk = :dtPk AND #dtSk BETWEEN :dtSk AND :dtSkHigh"
        );
        assert_eq!(request.names["#dtPk"], "vehicleId");
        assert_eq!(request.names["#dtSk"], "recordedAt");
        assert_eq!(request.values[":dtSkHigh"], Sdk::S("TS#2025-01-02".into()));
        // Reserved words (status, data) need no care; a repeated name reuses its placeholder.
        assert_eq!(
            request.projection.as_deref(),
            Some("#dtP0, #dtP1.#dtP2[0], #dtP0")
        );
        assert_eq!(request.names["#dtP1"], "data");
    }

    #[test]
    fn begins_with_and_comparisons_use_the_sort_key() {
        let condition = SortKeyCondition::BeginsWith {
            value: AttributeValue::S("TS#".into()),
        };
        let request = QueryRequest::build(&input(Some(condition)), "vehicleId", Some("recordedAt")).unwrap();
        assert_eq!(
            request.key_condition,
            "#dtPk = :dtPk AND begins_with(#dtSk, :dtSk)"
        );
    }

    #[test]
    fn a_sort_condition_on_a_table_without_sort_key_is_refused() {
        let condition = SortKeyCondition::Eq {
            value: AttributeValue::S("x".into()),
        };
        let err = QueryRequest::build(&input(Some(condition)), "id", None).unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
    }

    #[test]
    fn a_filter_may_not_take_the_key_condition_placeholders() {
        let mut query = input(None);
        query.filter = Some(":dtPk = :dtPk".into());
        query.filter_values = Some(BTreeMap::from([(
            ":dtPk".to_owned(),
            AttributeValue::N("1".into()),
        )]));
        let err = QueryRequest::build(&query, "vehicleId", Some("recordedAt")).unwrap_err();
        assert!(err.message.contains(":dtPk"), "{}", err.message);
    }

    #[test]
    fn malformed_projection_paths_are_refused_in_plain_words() {
        for bad in ["a,,b", "a.[0]", "a[x]", "a[1"] {
            let mut query = input(None);
            query.projection = Some(bad.into());
            let err = QueryRequest::build(&query, "vehicleId", None).unwrap_err();
            assert_eq!(err.code, ErrorCode::Validation, "{bad}");
        }
    }

    #[test]
    fn the_page_stop_says_why_a_page_ended() {
        assert_eq!(page_stop(false, Some(10), 10), PageStop::End);
        assert_eq!(page_stop(true, Some(10), 10), PageStop::Limit);
        assert_eq!(page_stop(true, Some(10), 7), PageStop::Size);
        assert_eq!(page_stop(true, None, 4000), PageStop::Size);
    }
}
