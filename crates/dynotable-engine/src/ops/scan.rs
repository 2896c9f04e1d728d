//! Scan: every item of the table or of an index, in storage order, a page at a time, optionally
//! one segment of a parallel scan (rules B.2, B.4). Also what Query and Scan share: the table or
//! index read, `Select`, `ExclusiveStartKey` and `LastEvaluatedKey`.

use dynotable_expr::ExpressionKind;
use dynotable_types::{Item, KeyRole};

use crate::api::item::{ReadPageOutput, ScanInput};
use crate::capacity::{self, ReadKind};
use crate::catalog::{IndexKind, IndexSchema, KeyAttribute, KeySchema, ProjectionSchema, TableSchema};
use crate::items::key_of;
use crate::legacy;
use crate::ops::read_page::{self, Bound, EntryPosition, PageRules, Range};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// Rule B.4: TotalSegments 1–1,000,000.
const MAX_TOTAL_SEGMENTS: i64 = 1_000_000;

/// A Scan whose items the caller reads (PartiQL).
pub async fn run(engine: &Engine, input: ScanInput) -> Result<ReadPageOutput, ApiError> {
    scan(engine, input, false).await
}

/// A Scan answered on the wire: items nothing reads are returned as stored (see `read_page`).
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

    let expressions = [
        ("FilterExpression", input.filter_expression.is_some()),
        ("ProjectionExpression", input.projection_expression.is_some()),
    ];
    legacy::refuse_mixing(
        &[
            ("ScanFilter", input.scan_filter.is_some()),
            ("AttributesToGet", input.attributes_to_get.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
        ],
        &expressions,
    )?;
    params::values_without_expression(input.expression_attribute_values.is_some(), &expressions[..1])?;
    params::names_without_expression(input.expression_attribute_names.is_some(), &expressions)?;
    let start = input
        .exclusive_start_key
        .map(|c| c.into_result())
        .transpose()
        .map_err(start_key_invalid)?;
    let mut placeholders = params::placeholders(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values,
    )?;
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
    let count_only = check_select(input.select.as_deref(), &target, projection_parameter)?;
    let start_after = start
        .as_ref()
        .map(|s| start_key(&table, &target, s))
        .transpose()?;
    // Rule B.4: in a parallel scan, the start key must be one of the segment's own.
    if let (Some(start), Some((segment, total))) = (&start_after, segment)
        && read_page::segment_of(&start.pk, total) != segment
    {
        return Err(ApiError::validation(
            "The provided Exclusive start key does not map to the provided segment",
        ));
    }
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
    let page = {
        let mut conn = engine.reader().await?;
        read_page::read_page(&mut conn, &range, &rules).await?
    };

    // Rule B.2: a Scan is charged for the items evaluated, not those returned.
    Ok(target.page_output(
        report,
        page,
        ReadKind::of_consistent_read(consistent),
        None,
        count_only,
    ))
}

/// The TableName and IndexName constraints of a Query or Scan.
pub(crate) fn shape_target(shape: &mut Shape, table_name: Option<&String>, index_name: Option<&String>) {
    shape.table("tableName", table_name);
    if let Some(index) = index_name {
        shape.name("indexName", Some(index));
    }
}

/// The `Select` enumeration of a Query or Scan.
pub(crate) fn shape_select(shape: &mut Shape, select: Option<&String>) {
    shape.one_of(
        "select",
        select,
        // Rule B.15: the order the service lists them in, not the API model's.
        &[
            "SPECIFIC_ATTRIBUTES",
            "COUNT",
            "ALL_ATTRIBUTES",
            "ALL_PROJECTED_ATTRIBUTES",
        ],
    );
}

/// The table, or one of its indexes, that a Query or Scan reads.
pub(crate) struct ReadTarget<'a> {
    pub table: &'a TableSchema,
    pub index: Option<&'a IndexSchema>,
    /// The index's position in `table.indexes`.
    pub position: Option<usize>,
}

impl<'a> ReadTarget<'a> {
    pub fn of(table: &'a TableSchema, index_name: Option<&str>) -> Result<ReadTarget<'a>, ApiError> {
        match index_name {
            None => Ok(ReadTarget {
                table,
                index: None,
                position: None,
            }),
            Some(name) => {
                let position = table.indexes.iter().position(|i| i.name == name).ok_or_else(|| {
                    ApiError::validation(format!("The table does not have the specified index: {name}"))
                })?;
                Ok(ReadTarget {
                    table,
                    index: Some(&table.indexes[position]),
                    position: Some(position),
                })
            }
        }
    }

    pub fn keyspace(&self) -> i64 {
        self.index.map_or(self.table.keyspace, |i| i.keyspace)
    }

    /// The key the read is ordered by: the index's, or the table's.
    pub fn key(&self) -> &'a KeySchema {
        self.index.map_or(&self.table.key, |i| &i.key)
    }

    /// `LastEvaluatedKey` for an entry: the table's key, plus the index's key on an index.
    pub fn last_evaluated_key(&self, table: &TableSchema, item: &Item) -> Item {
        let mut key = key_of(&table.key, item);
        if let Some(index) = self.index {
            key.extend(key_of(&index.key, item));
        }
        key
    }
}

impl ReadTarget<'_> {
    /// The response of a Query or Scan page (rule B.2: the bytes read summed, rounded up to 4 KB
    /// once, at least one block; charged to the index read, plus `table_fetches` of base items).
    pub fn page_output(
        &self,
        report: CapacityReport,
        page: read_page::Page,
        kind: ReadKind,
        table_fetches: Option<Charge>,
        count_only: bool,
    ) -> ReadPageOutput {
        let charge = Charge::Read(capacity::range_read(page.bytes_read, kind));
        let consumed = match self.position {
            Some(position) => {
                params::consumed_capacity(report, self.table, table_fetches, &[(position, charge)])
            }
            None => params::consumed_capacity(report, self.table, Some(charge), &[]),
        };
        let (items, stored_items) = match page.stored {
            Some(stored) => (None, Some(stored)),
            None => ((!count_only).then_some(page.items), None),
        };
        ReadPageOutput {
            items,
            stored_items,
            count: page.count as i64,
            scanned_count: page.scanned as i64,
            last_evaluated_key: page
                .stopped_at
                .as_ref()
                .map(|item| self.last_evaluated_key(self.table, item)),
            consumed_capacity: consumed,
        }
    }
}

/// Where to resume after `ExclusiveStartKey`: the encoded `(pk, sk, tail)` of that entry.
pub(crate) fn start_key(
    table: &TableSchema,
    target: &ReadTarget<'_>,
    start: &Item,
) -> Result<EntryPosition, ApiError> {
    let invalid = |err: dynotable_types::ValidationError| {
        ApiError::validation(format!("The provided starting key is invalid: {}", err.message()))
    };
    // Every key attribute in key-schema order (a multi-attribute GSI key is the attributes'
    // encodings one after the other, rule B.18.3).
    let encode = |key: &KeySchema| -> Result<(Vec<u8>, Vec<u8>), ApiError> {
        let pk = encode_key_part(key.partition_attributes(), KeyRole::Partition, start).map_err(&invalid)?;
        let sk = encode_key_part(key.sort_attributes(), KeyRole::Sort, start).map_err(&invalid)?;
        Ok((pk, sk))
    };
    let (table_pk, table_sk) = encode(&table.key)?;
    let mut expected = table.key.attributes().count();
    let result = match target.index {
        None => EntryPosition {
            pk: table_pk,
            sk: table_sk,
            tail: Vec::new(),
        },
        Some(index) => {
            expected += index
                .key
                .attributes()
                .filter(|a| !table.key.contains(&a.name))
                .count();
            let (pk, sk) = encode(&index.key)?;
            EntryPosition {
                pk,
                sk,
                tail: [table_pk, table_sk].concat(),
            }
        }
    };
    if start.len() != expected {
        return Err(invalid(dynotable_types::ValidationError::KeyElementMismatch));
    }
    Ok(result)
}

/// The encoding of one part of a key (its partition or its sort attributes) in `key`, each
/// attribute checked as a `Key` parameter's.
fn encode_key_part<'a>(
    attributes: impl Iterator<Item = &'a KeyAttribute>,
    role: KeyRole,
    key: &Item,
) -> Result<Vec<u8>, dynotable_types::ValidationError> {
    let mut out = Vec::new();
    for attribute in attributes {
        dynotable_types::KeyAttribute::new(&attribute.name, attribute.ty, role)
            .check_in_key(key)?
            .encode_into(&mut out);
    }
    Ok(out)
}

/// A value error inside ExclusiveStartKey, as the service words it (rule B.4): `The provided
/// starting key is invalid: Supplied AttributeValue is empty, ...`. Number errors, an empty
/// number set and duplicate set elements keep their own sentence, as the service sends them
/// (recorded by dynalite).
pub(crate) fn start_key_invalid(err: dynotable_types::ValidationError) -> ApiError {
    use dynotable_types::ValidationError as E;
    match err {
        E::EmptySet(dynotable_types::SetKind::Number) | E::DuplicateSetElements { .. } => {
            ApiError::validation(err.message())
        }
        err if err.is_number_error() => ApiError::validation(err.message()),
        err => ApiError::validation(format!("The provided starting key is invalid: {}", err.message())),
    }
}

/// Which projection parameter a Query or Scan gives, by name, for `Select`'s messages.
pub(crate) fn projection_parameter(
    attributes_to_get: bool,
    projection_expression: bool,
) -> Option<&'static str> {
    if attributes_to_get {
        Some("AttributesToGet")
    } else if projection_expression {
        Some("ProjectionExpression")
    } else {
        None
    }
}

/// Checks `Select` against the target and the projection (`projection` names the parameter
/// that gives one); returns whether only a count is asked.
pub(crate) fn check_select(
    select: Option<&str>,
    target: &ReadTarget<'_>,
    projection: Option<&str>,
) -> Result<bool, ApiError> {
    let has_projection = projection.is_some();
    let projection = projection.unwrap_or_default();
    // Unverified wordings below follow dynalite's.
    match select {
        Some("COUNT") if has_projection => Err(ApiError::validation(format!(
            "Cannot specify the {projection} when choosing to get only the Count"
        ))),
        Some("COUNT") => Ok(true),
        Some("SPECIFIC_ATTRIBUTES") if !has_projection => Err(ApiError::validation(
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES",
        )),
        Some(select @ ("ALL_ATTRIBUTES" | "ALL_PROJECTED_ATTRIBUTES")) if has_projection => {
            Err(ApiError::validation(format!(
                "Cannot specify the {projection} when choosing to get {select}"
            )))
        }
        Some("ALL_PROJECTED_ATTRIBUTES") if target.index.is_none() => Err(ApiError::validation(
            "One or more parameter values were invalid: Select type ALL_PROJECTED_ATTRIBUTES is not supported for non-index query",
        )),
        Some("ALL_ATTRIBUTES") => match target.index {
            Some(index) if index.kind == IndexKind::Global && index.projection != ProjectionSchema::All => {
                Err(ApiError::validation(format!(
                    "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index {} because its projection type is not ALL",
                    index.name
                )))
            }
            _ => Ok(false),
        },
        _ => Ok(false),
    }
}
