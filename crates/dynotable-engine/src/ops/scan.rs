//! Scan: every item of the table or of an index, in storage order, a page at a time, optionally
//! one segment of a parallel scan (rules B.2, B.4). What Query and Scan share — the table or
//! index read, `Select`, `ExclusiveStartKey` and `LastEvaluatedKey` — is in `read`.

use dynotable_expr::ExpressionKind;

use crate::api::item::{ReadPageOutput, ScanInput};
use crate::capacity::ReadKind;
use crate::catalog::IndexKind;
use crate::legacy;
use crate::params::{self, CapacityReport};
use crate::read::Rows;
use crate::read::{
    self, Bound, PageRules, Range, ReadTarget, Reader, check_select, projection_parameter, shape_select,
    shape_target, start_key, start_key_invalid,
};
use crate::shape::Shape;
use crate::{ApiError, Engine, eventual_lag};

/// Rule B.4: TotalSegments 1–1,000,000.
const MAX_TOTAL_SEGMENTS: i64 = 1_000_000;

/// A Scan whose items the caller reads (PartiQL).
pub async fn run(engine: &Engine, input: ScanInput) -> Result<ReadPageOutput, ApiError> {
    scan(engine, input, false).await
}

/// A Scan answered on the wire: items nothing reads are returned as stored (see `read::page`, "Stored items").
pub async fn respond(engine: &Engine, input: ScanInput) -> Result<ReadPageOutput, ApiError> {
    scan(engine, input, true).await
}

async fn scan(engine: &Engine, input: ScanInput, keep_stored: bool) -> Result<ReadPageOutput, ApiError> {
    // Member constraints, in the order the service lists them (rule B.15).
    let mut shape = Shape::new();
    shape.at_least("limit", input.limit, 1);
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    legacy::shape_attributes_to_get(&mut shape, "attributesToGet", input.attributes_to_get.as_ref());
    shape.at_least("segment", input.segment, 0);
    // Rule B.21.3: the API model bounds Segment to 0..=999999 on its own; a larger one is a member
    // error, before the semantic "less than TotalSegments" check (rule B.15).
    shape.at_most("segment", input.segment, MAX_TOTAL_SEGMENTS - 1);
    shape_select(&mut shape, input.select.as_ref());
    legacy::condition::shape_conditions(&mut shape, "scanFilter", input.scan_filter.as_ref());
    legacy::shape_conditional_operator(&mut shape, input.conditional_operator.as_ref());
    shape.at_least("totalSegments", input.total_segments, 1);
    shape.at_most("totalSegments", input.total_segments, MAX_TOTAL_SEGMENTS);
    shape_target(&mut shape, input.table_name.as_ref(), input.index_name.as_ref());
    shape.finish()?;

    let segment = match (input.segment, input.total_segments) {
        (None, None) => None,
        (Some(_), None) => {
            return Err(ApiError::validation(
                "The TotalSegments parameter is required but was not present in the request when Segment parameter is present",
            ));
        }
        (None, Some(_)) => {
            return Err(ApiError::validation(
                "The Segment parameter is required but was not present in the request when parameter TotalSegments is present",
            ));
        }
        (Some(segment), Some(total)) if segment >= total => {
            return Err(ApiError::validation(format!(
                "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: {segment} is not less than TotalSegments: {total}"
            )));
        }
        (Some(segment), Some(total)) => Some((segment as u32, total as u32)),
    };

    // Rule B.6: the mixing sentence lists both kinds in the service's order (dynalite's
    // test/scan.js: `{AttributesToGet, ScanFilter, ConditionalOperator}` and
    // `{ProjectionExpression, FilterExpression}`).
    let expressions = [
        ("ProjectionExpression", input.projection_expression.is_some()),
        ("FilterExpression", input.filter_expression.is_some()),
    ];
    params::ParameterUse {
        legacy: &[
            ("AttributesToGet", input.attributes_to_get.is_some()),
            ("ScanFilter", input.scan_filter.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        expressions: &expressions,
        value_expressions: &expressions[1..],
        names: input.expression_attribute_names.is_some(),
        values: input.expression_attribute_values.is_some(),
        conditional_operator: input.conditional_operator.as_deref(),
        joined_entries: input.scan_filter.as_ref().map(|f| f.len()),
    }
    .check()?;
    let start = input
        .exclusive_start_key
        .map(|c| c.into_result())
        .transpose()
        .map_err(start_key_invalid)?;
    let values = input
        .expression_attribute_values
        .map(params::older_layer_values)
        .transpose()?;
    let mut placeholders = params::placeholders(input.expression_attribute_names.as_ref(), values)?;
    let mut filter = input
        .filter_expression
        .as_deref()
        .map(|text| placeholders.condition(ExpressionKind::Filter, text))
        .transpose()?;
    let mut projection = input
        .projection_expression
        .as_deref()
        .map(|text| placeholders.projection(text))
        .transpose()?;
    placeholders.check_unused()?;
    // The legacy parameters, translated onto the same trees (see `crate::legacy`).
    if let Some(conditions) = input.scan_filter {
        filter = legacy::condition::filter(conditions, input.conditional_operator.as_deref())?;
    }
    let projection_parameter = projection_parameter(input.attributes_to_get.is_some(), projection.is_some());
    if let Some(names) = &input.attributes_to_get {
        projection = Some(legacy::attributes_to_get(names)?);
    }

    let table = engine.table(input.table_name.as_deref().unwrap_or_default())?;
    let target = ReadTarget::of(&table, input.index_name.as_deref())?;
    let consistent = input.consistent_read.unwrap_or(false);
    if consistent && target.index.is_some_and(|i| i.kind == IndexKind::Global) {
        return Err(ApiError::validation(
            "Consistent reads are not supported on global secondary indexes",
        ));
    }
    let count_only = check_select(
        Reader::Scan,
        input.select.as_deref(),
        &target,
        projection_parameter,
    )?;
    let start_after = start
        .as_ref()
        .map(|s| start_key(&table, &target, s, false))
        .transpose()?;
    // Rule B.15: in a parallel scan, the start key must be one of the segment's own; the
    // service names both parameters in its message.
    if let (Some(start), Some((segment, total))) = (&start_after, segment)
        && read::segment_of(&start.pk, total) != segment
    {
        return Err(ApiError::validation(format!(
            "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: {total} Segment: {segment}"
        )));
    }
    // Rule B.6.1: the projection's paths, then the filter's (dynalite's scan, as its tests
    // record the service's order).
    params::check_projection_key_paths(&table, projection.as_ref())?;
    params::check_condition_key_paths(&table, ExpressionKind::Filter, filter.as_ref())?;
    let range = Range {
        keyspace: target.keyspace(),
        pk: None,
        lower: Bound::Unbounded,
        upper: Bound::Unbounded,
        forward: true,
        start_after,
        segment,
    };
    let rules = PageRules {
        limit: input.limit.map(|l| l as usize),
        filter: filter.as_ref(),
        projection: projection.as_ref(),
        count_only,
        keep_stored,
        buffers: engine.page_buffers(),
    };
    let kind = ReadKind::of_consistent_read(consistent);
    let page = {
        let mut conn = engine.reader().await?;
        match engine.unseen_writes(&table, kind) {
            // Rule B.20: an eventually consistent Scan may see the table (or index) as it was,
            // when reads lag (`eventual_lag`), as a Query sees its collection.
            Some(changed) => {
                let (rows, saw_older) =
                    eventual_lag::keyspace_as_of(&mut conn, &table, target.index, &changed).await?;
                if saw_older {
                    engine.count_lagged_query(&table);
                }
                read::read_page_from(Rows::Collection(&rows), &range, &rules).await?
            }
            None => read::read_page(&mut conn, &range, &rules).await?,
        }
    };

    // Rule B.2: a Scan is charged for the items evaluated, not those returned.
    let named = input.table_name.as_deref().unwrap_or_default();
    Ok(target.page_output(report, named, page, kind, None, count_only))
}
