//! Every Query and Scan the app sends, on one road: a `dynotable-builder` [`ReadRequest`] is
//! generated into a [`GeneratedRequest`] (expressions written with the placeholders the builder
//! chooses: `#name` for reserved words and odd names, a `:value` for every value — rule B.6,
//! docs/dynamodb-rules.md), and that request goes to the SDK's Query or Scan unchanged.
//!
//! The life of a read: a command's input (the collection view's [`QueryInput`], a [`ScanInput`]
//! page, the builder's own request) becomes builder state here — key values as typed values,
//! a projection typed as `a, b.c[2]` as document paths, a filter typed as text parsed by
//! `dynotable-expr` (the engine's parser) into a condition state, so a filter DynamoDB would refuse
//! is refused with its ValidationException before anything is sent — then [`send`] writes and sends
//! it and reads one page back as a [`QueryPage`]. No expression text is written anywhere else.
//!
//! [`ScanInput`]: crate::scans::ScanInput

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types::{AttributeValue as Sdk, ReturnConsumedCapacity as SdkCapacity};
use dynotable_builder::condition::{Comparator, ConditionState};
use dynotable_builder::error::ExpressionParameter;
use dynotable_builder::{
    AttributePath, Direction, ExpressionState, GeneratedRequest, KeyConditionState, KeyEquality, PathStep,
    ProjectionState, ReadOperation, ReadRequest, ReturnConsumedCapacity, SortKeyCondition as BuilderSort,
};

use crate::dto::attribute::{item_from_sdk, item_to_sdk};
use crate::dto::{AttributeValue, Item, KeyAttribute, KeySchema, QueryInput, QueryPage, SortKeyCondition};
use crate::reads::{consumed_capacity, page_stop};
use crate::{CommandError, ErrorCode};

fn validation(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

/// A value of the app's model as the builder (the engine's type) holds it.
fn engine_value(value: &AttributeValue) -> Result<dynotable_types::AttributeValue, CommandError> {
    value.to_engine().map_err(validation)
}

/// The collection view's Query as builder state, reading the key `keys` of the table or index it
/// queries. On an index with a multi-attribute key (rule B.18.5) the input gives the values of
/// the other partition-key attributes and of the leading sort-key attributes held equal, in
/// key-schema order, and its sort condition is on the next sort-key attribute (a value left out
/// is a condition DynamoDB refuses, with its message).
pub(crate) fn query_request(input: &QueryInput, keys: &KeySchema) -> Result<ReadRequest, CommandError> {
    let equalities =
        |names: &[KeyAttribute], values: &[AttributeValue]| -> Result<Vec<KeyEquality>, CommandError> {
            names
                .iter()
                .zip(values)
                .map(|(key, value)| {
                    Ok(KeyEquality {
                        name: key.name.clone(),
                        value: engine_value(value)?,
                    })
                })
                .collect()
        };
    let sort_keys: Vec<KeyAttribute> = keys
        .sort_key
        .iter()
        .chain(&keys.more_sort_keys)
        .cloned()
        .collect();
    let sort_equal = equalities(&sort_keys, &input.sort_equal_values)?;
    let sort = match &input.sort_condition {
        None => None,
        Some(condition) => {
            let name = sort_keys
                .get(sort_equal.len())
                .map(|k| k.name.clone())
                .ok_or_else(|| match sort_keys.len() {
                    0 => validation("The table has no sort key, so no sort-key condition can be given."),
                    _ => validation("Every sort-key attribute is held equal: no attribute is left for the sort-key condition."),
                })?;
            let compare = |op, value: &AttributeValue| -> Result<BuilderSort, CommandError> {
                Ok(BuilderSort::Compare {
                    name: name.clone(),
                    op,
                    value: engine_value(value)?,
                })
            };
            Some(match condition {
                SortKeyCondition::Eq { value } => compare(Comparator::Eq, value)?,
                SortKeyCondition::Lt { value } => compare(Comparator::Lt, value)?,
                SortKeyCondition::Le { value } => compare(Comparator::Le, value)?,
                SortKeyCondition::Gt { value } => compare(Comparator::Gt, value)?,
                SortKeyCondition::Ge { value } => compare(Comparator::Ge, value)?,
                SortKeyCondition::BeginsWith { value } => BuilderSort::BeginsWith {
                    name: name.clone(),
                    prefix: engine_value(value)?,
                },
                SortKeyCondition::Between { low, high } => BuilderSort::Between {
                    name: name.clone(),
                    low: engine_value(low)?,
                    high: engine_value(high)?,
                },
            })
        }
    };
    Ok(ReadRequest {
        operation: ReadOperation::Query,
        table_name: input.table.clone(),
        index_name: input.index.clone(),
        key_condition: Some(KeyConditionState {
            partition_key: keys.partition_key.name.clone(),
            partition_value: engine_value(&input.partition_value)?,
            more_partition: equalities(&keys.more_partition_keys, &input.more_partition_values)?,
            sort_equal,
            sort,
        }),
        filter: filter_state(
            input.filter.as_deref(),
            input.filter_names.as_ref(),
            input.filter_values.as_ref(),
        )?,
        projection: projection_state(input.projection.as_deref())?,
        direction: if input.scan_index_forward {
            Direction::Ascending
        } else {
            Direction::Descending
        },
        limit: input.limit,
        consistent_read: input.consistent_read,
        return_consumed_capacity: Some(ReturnConsumedCapacity::INDEXES),
    })
}

/// A filter typed as text, with its names and values, as the builder's condition state: parsed
/// by the engine's expression parser, so DynamoDB's objection (a reserved word used bare, an
/// undefined or unused placeholder) comes back as its ValidationException. Blank means none.
pub(crate) fn filter_state(
    text: Option<&str>,
    names: Option<&BTreeMap<String, String>>,
    values: Option<&Item>,
) -> Result<Option<ConditionState>, CommandError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(None);
    };
    let values = values
        .map(|values| {
            values
                .iter()
                .map(|(k, v)| Ok((k.clone(), engine_value(v)?)))
                .collect::<Result<BTreeMap<_, _>, CommandError>>()
        })
        .transpose()?
        .filter(|values| !values.is_empty());
    let names = names.cloned().filter(|names| !names.is_empty());
    match dynotable_builder::parse(ExpressionParameter::FilterExpression, text, names, values, None) {
        Ok(ExpressionState::FilterExpression(state)) => Ok(Some(state)),
        Ok(_) => Err(validation("The filter is not a condition.")),
        Err(diagnostic) => Err(CommandError {
            code: ErrorCode::Validation,
            message: diagnostic.message,
            exception: Some(diagnostic.exception),
        }),
    }
}

/// `a, b.c[2]` → the document paths `a`, `b.c[2]`; names are taken as written (the builder
/// gives each a `#placeholder` when DynamoDB needs one). Blank means every attribute.
pub(crate) fn projection_state(text: Option<&str>) -> Result<Option<ProjectionState>, CommandError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let mut paths = Vec::new();
    for path in text.split(',').map(str::trim) {
        if path.is_empty() {
            return Err(validation(format!(
                "The projection \u{201c}{text}\u{201d} has an empty attribute name."
            )));
        }
        let mut steps = Vec::new();
        for segment in path.split('.') {
            let (name, indexes) = match segment.find('[') {
                Some(at) => segment.split_at(at),
                None => (segment, ""),
            };
            let name = name.trim();
            let indexes: Option<Vec<u32>> = if indexes.is_empty() {
                Some(Vec::new())
            } else {
                indexes
                    .split_inclusive(']')
                    .map(|i| {
                        i.strip_prefix('[')
                            .and_then(|i| i.strip_suffix(']'))
                            .and_then(|n| n.parse::<u32>().ok())
                    })
                    .collect()
            };
            let (false, Some(indexes)) = (name.is_empty(), indexes) else {
                return Err(validation(format!(
                    "\u{201c}{path}\u{201d} is not an attribute path: use names separated by dots, with [n] for list elements."
                )));
            };
            steps.push(PathStep::Key(name.to_owned()));
            steps.extend(indexes.into_iter().map(PathStep::Index));
        }
        paths.push(AttributePath(steps));
    }
    Ok(Some(ProjectionState { paths }))
}

/// The request written out: DynamoDB's rules on the expressions are the builder's to apply.
pub(crate) fn generate(request: &ReadRequest) -> Result<GeneratedRequest, CommandError> {
    request.generate().map_err(|err| validation(err.message))
}

/// The builder's values (the engine's type) as the SDK sends them.
pub(crate) fn sdk_values(
    values: &BTreeMap<String, dynotable_types::AttributeValue>,
) -> Result<HashMap<String, Sdk>, CommandError> {
    let json = serde_json::to_value(values).map_err(|err| validation(err.to_string()))?;
    let item: Item = serde_json::from_value(json).map_err(|err| validation(err.to_string()))?;
    item_to_sdk(&item).map_err(validation)
}

fn sdk_capacity(capacity: ReturnConsumedCapacity) -> SdkCapacity {
    match capacity {
        ReturnConsumedCapacity::INDEXES => SdkCapacity::Indexes,
        ReturnConsumedCapacity::TOTAL => SdkCapacity::Total,
        ReturnConsumedCapacity::NONE => SdkCapacity::None,
    }
}

/// One segment of a parallel scan (rule B.4: `Segment` of `TotalSegments`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Segment {
    pub segment: u32,
    pub total: u32,
}

/// Sends one page of `generated` from `start` (the first page when `None`) and reads it back.
pub(crate) async fn send(
    client: &aws_sdk_dynamodb::Client,
    generated: &GeneratedRequest,
    start: Option<&Item>,
    segment: Option<Segment>,
) -> Result<QueryPage, CommandError> {
    let names: Option<HashMap<String, String>> = generated
        .expression_attribute_names
        .clone()
        .map(|names| names.into_iter().collect());
    let values = generated
        .expression_attribute_values
        .as_ref()
        .map(sdk_values)
        .transpose()?;
    let start = start.map(item_to_sdk).transpose().map_err(validation)?;
    let limit = generated.limit.map(|l| l.min(i32::MAX as u32) as i32);
    let capacity = generated.return_consumed_capacity.map(sdk_capacity);
    let (items, count, scanned, last_key, consumed) = match generated.operation {
        ReadOperation::Query => {
            let output = client
                .query()
                .table_name(&generated.table_name)
                .set_index_name(generated.index_name.clone())
                .set_key_condition_expression(generated.key_condition_expression.clone())
                .set_filter_expression(generated.filter_expression.clone())
                .set_projection_expression(generated.projection_expression.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_scan_index_forward(generated.scan_index_forward)
                .set_limit(limit)
                .set_consistent_read(generated.consistent_read)
                .set_return_consumed_capacity(capacity)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(|err| CommandError::from_sdk(&err))?;
            let mut output = output;
            (
                page_from_sdk(output.items.take()),
                output.count(),
                output.scanned_count(),
                output.last_evaluated_key().map(item_from_sdk),
                output.consumed_capacity().map(consumed_capacity),
            )
        }
        ReadOperation::Scan => {
            let mut call = client
                .scan()
                .table_name(&generated.table_name)
                .set_index_name(generated.index_name.clone())
                .set_filter_expression(generated.filter_expression.clone())
                .set_projection_expression(generated.projection_expression.clone())
                .set_expression_attribute_names(names)
                .set_expression_attribute_values(values)
                .set_limit(limit)
                .set_consistent_read(generated.consistent_read)
                .set_return_consumed_capacity(capacity)
                .set_exclusive_start_key(start);
            if let Some(Segment { segment, total }) = segment.filter(|s| s.total > 1) {
                call = call.segment(segment as i32).total_segments(total as i32);
            }
            let output = call.send().await.map_err(|err| CommandError::from_sdk(&err))?;
            let mut output = output;
            (
                page_from_sdk(output.items.take()),
                output.count(),
                output.scanned_count(),
                output.last_evaluated_key().map(item_from_sdk),
                output.consumed_capacity().map(consumed_capacity),
            )
        }
    };
    let scanned_count = u32::try_from(scanned).unwrap_or(0);
    Ok(QueryPage {
        items,
        count: u32::try_from(count).unwrap_or(0),
        scanned_count,
        stop: page_stop(last_key.is_some(), generated.limit, scanned_count),
        last_evaluated_key: last_key,
        consumed_capacity: consumed,
        kept_from_scan: None,
    })
}

/// A page's items from the SDK's answer, each SDK item dropped once converted: a 1 MB page is
/// held once, not twice, while it is converted (an export's memory is a few pages at most).
fn page_from_sdk(items: Option<Vec<HashMap<String, Sdk>>>) -> Vec<Item> {
    items
        .unwrap_or_default()
        .into_iter()
        .map(|item| item_from_sdk(&item))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(partition: &str, sort: Option<&str>) -> KeySchema {
        let key = |name: &str| KeyAttribute {
            name: name.into(),
            ty: crate::dto::ScalarType::S,
        };
        KeySchema {
            partition_key: key(partition),
            sort_key: sort.map(key),
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        }
    }

    fn input(sort_condition: Option<SortKeyCondition>) -> QueryInput {
        QueryInput {
            more_partition_values: Vec::new(),
            sort_equal_values: Vec::new(),
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
    fn a_between_window_is_written_by_the_builder_with_placeholders() {
        let condition = SortKeyCondition::Between {
            low: AttributeValue::S("TS#2025-01-01".into()),
            high: AttributeValue::S("TS#2025-01-02".into()),
        };
        let request = query_request(&input(Some(condition)), &keys("vehicleId", Some("recordedAt"))).unwrap();
        let generated = generate(&request).unwrap();
        let key = generated.key_condition_expression.clone().unwrap();
        assert!(key.contains(" BETWEEN "), "{key}");
        let values = generated.expression_attribute_values.clone().unwrap();
        assert!(
            values
                .values()
                .any(|v| *v == dynotable_types::AttributeValue::S("TS#2025-01-02".into()))
        );
        // Reserved words (status, data) are names behind placeholders; plain names stay bare.
        let names = generated.expression_attribute_names.clone().unwrap();
        assert!(names.values().any(|n| n == "status"));
        assert!(names.values().any(|n| n == "data"));
        let projection = generated.projection_expression.clone().unwrap();
        assert!(
            !projection
                .split([',', ' ', '.'])
                .any(|w| w == "status" || w == "data"),
            "{projection}"
        );
        assert!(projection.contains("[0]"), "{projection}");
        assert_eq!(generated.scan_index_forward, Some(false));
    }

    #[test]
    fn a_sort_condition_on_a_table_without_sort_key_is_refused() {
        let condition = SortKeyCondition::Eq {
            value: AttributeValue::S("x".into()),
        };
        let err = query_request(&input(Some(condition)), &keys("id", None)).unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
    }

    #[test]
    fn a_typed_filter_becomes_condition_state_and_a_bad_one_gets_dynamodbs_exception() {
        let names = BTreeMap::from([("#s".to_owned(), "status".to_owned())]);
        let values = BTreeMap::from([(":v".to_owned(), AttributeValue::S("ALERT".into()))]);
        let state = filter_state(Some("#s = :v"), Some(&names), Some(&values)).unwrap();
        assert!(state.is_some());
        // A reserved word used bare is what the service refuses, with its exception.
        let err = filter_state(Some("status = :v"), None, Some(&values)).unwrap_err();
        assert_eq!(err.exception.as_deref(), Some("ValidationException"));
        assert!(err.message.contains("reserved keyword"), "{}", err.message);
        assert_eq!(filter_state(Some("  "), None, None).unwrap(), None);
    }

    #[test]
    fn malformed_projection_paths_are_refused_in_plain_words() {
        for bad in ["a,,b", "a.[0]", "a[x]", "a[1"] {
            let err = projection_state(Some(bad)).unwrap_err();
            assert_eq!(err.code, ErrorCode::Validation, "{bad}");
        }
        let paths = projection_state(Some("a.b[2][3], c")).unwrap().unwrap().paths;
        assert_eq!(
            paths[0].0,
            vec![
                PathStep::Key("a".into()),
                PathStep::Key("b".into()),
                PathStep::Index(2),
                PathStep::Index(3)
            ]
        );
    }
}
