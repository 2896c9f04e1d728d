//! Query: one item collection of the table or of an index — or the slice of it a sort-key
//! condition selects — in sort-key order, a page at a time (rules B.2, B.4, B.5). The key
//! condition, filter and projection come from expressions or from the legacy KeyConditions,
//! QueryFilter and AttributesToGet (see `crate::legacy`). On a GSI with a multi-attribute key
//! (rule B.18) the collection is one combination of all partition-key values, and the sort
//! conditions, left to right, narrow it to a byte range of the composite sort key.

use dynotable_expr::{ExpressionKind, KeyElement, Projection, SortKeyRange};
use dynotable_types::{KeyValue, encode_key_tuple, encode_prefix_into, prefix_successor};

use crate::api::item::{QueryInput, ReadPageOutput};
use crate::capacity::{self, ReadKind};
use crate::catalog::{IndexKind, ProjectionSchema};
use crate::entry::{self, StorageKey};
use crate::legacy;
use crate::params::{self, CapacityReport, Charge};
use crate::read::{self, Bound, PageRules, Range, Rows};
use crate::read::{
    ReadTarget, Reader, check_select, projection_parameter, shape_select, shape_target, start_key,
    start_key_invalid,
};
use crate::shape::Shape;
use crate::{ApiError, Engine, ErrorKind, eventual_lag};

/// A Query whose items the caller reads (PartiQL).
pub async fn run(engine: &Engine, input: QueryInput) -> Result<ReadPageOutput, ApiError> {
    query(engine, input, false).await
}

/// A Query answered on the wire: items nothing reads are returned as stored (see `read::page`, "Stored items").
pub async fn respond(engine: &Engine, input: QueryInput) -> Result<ReadPageOutput, ApiError> {
    query(engine, input, true).await
}

async fn query(engine: &Engine, input: QueryInput, keep_stored: bool) -> Result<ReadPageOutput, ApiError> {
    // Member constraints, in the order the service lists them (rule B.15).
    let mut shape = Shape::new();
    shape.at_least("limit", input.limit, 1);
    let report = CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    legacy::shape_attributes_to_get(&mut shape, "attributesToGet", input.attributes_to_get.as_ref());
    legacy::condition::shape_conditions(&mut shape, "queryFilter", input.query_filter.as_ref());
    shape_select(&mut shape, input.select.as_ref());
    legacy::shape_conditional_operator(&mut shape, input.conditional_operator.as_ref());
    legacy::condition::shape_conditions(&mut shape, "keyConditions", input.key_conditions.as_ref());
    shape_target(&mut shape, input.table_name.as_ref(), input.index_name.as_ref());
    shape.finish()?;

    // Rule B.6: the mixing sentence lists both kinds in the service's order (dynalite's
    // test/query.js: `{AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions}` and
    // `{ProjectionExpression, FilterExpression, KeyConditionExpression}`).
    let expressions = [
        ("ProjectionExpression", input.projection_expression.is_some()),
        ("FilterExpression", input.filter_expression.is_some()),
        ("KeyConditionExpression", input.key_condition_expression.is_some()),
    ];
    // KeyConditions count as mixed only beside a KeyConditionExpression: the service takes them
    // with a FilterExpression or ProjectionExpression (as dynalite reproduces it).
    // The ConditionalOperator check comes before the missing key condition, as tests against
    // the service record it.
    params::ParameterUse {
        legacy: &[
            ("AttributesToGet", input.attributes_to_get.is_some()),
            ("QueryFilter", input.query_filter.is_some()),
            ("ConditionalOperator", input.conditional_operator.is_some()),
            (
                "KeyConditions",
                input.key_conditions.is_some() && input.key_condition_expression.is_some(),
            ),
        ],
        expressions: &expressions,
        // The values sentence names them in the order dynalite recorded.
        value_expressions: &[
            ("FilterExpression", input.filter_expression.is_some()),
            ("KeyConditionExpression", input.key_condition_expression.is_some()),
        ],
        names: input.expression_attribute_names.is_some(),
        values: input.expression_attribute_values.is_some(),
        conditional_operator: input.conditional_operator.as_deref(),
        joined_entries: input.query_filter.as_ref().map(|f| f.len()),
    }
    .check()?;
    // Rule B.15: the legacy parameters are checked on their own before the table is looked up,
    // in the service's order (dynalite's test/query.js, run against it): the whole QueryFilter,
    // AttributesToGet's duplicates, ExclusiveStartKey's values, then (after the expressions) the
    // KeyConditions.
    let legacy_filter = input
        .query_filter
        .map(|conditions| legacy::condition::filter(conditions, input.conditional_operator.as_deref()))
        .transpose()?;
    let legacy_projection = input
        .attributes_to_get
        .as_deref()
        .map(legacy::attributes_to_get)
        .transpose()?;
    let start = input
        .exclusive_start_key
        .map(|c| c.into_result())
        .transpose()
        .map_err(start_key_invalid)?;
    if input.key_condition_expression.is_none() && input.key_conditions.is_none() {
        return Err(ApiError::validation(
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.",
        ));
    }
    let mut placeholders = params::placeholders(
        input.expression_attribute_names.as_ref(),
        input.expression_attribute_values,
    )?;

    // Rule B.15: what the expressions say on their own (syntax, placeholders, the key
    // condition's operators) is checked before the table is looked up, as dynalite records it.
    if let Some(text) = input.key_condition_expression.as_deref() {
        placeholders.key_condition_shape(text)?;
    }
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
    let key_comparisons = input
        .key_conditions
        .map(legacy::condition::key_comparisons)
        .transpose()?;

    let table = match engine.table(input.table_name.as_deref().unwrap_or_default()) {
        Ok(table) => table,
        // Rule B.15: an empty KeyConditions map fits no key schema, and the service refuses it
        // before it finds the table missing (dynalite's test/query.js, "empty conditions", run
        // against DynamoDB on a table that does not exist). How many conditions are too many
        // depends on the key schema (multi-attribute keys take up to eight), so that count is
        // checked once the table is found; the message for an empty map on an existing table
        // names its own key's length (`dynotable_expr::key_condition`).
        Err(error)
            if error.kind == ErrorKind::ResourceNotFoundException
                && key_comparisons.as_ref().is_some_and(|c| c.is_empty()) =>
        {
            return Err(ApiError::validation("Conditions can be of length 1 or 2 only"));
        }
        Err(other) => return Err(other),
    };
    let target = ReadTarget::of(&table, input.index_name.as_deref())?;
    let consistent = input.consistent_read.unwrap_or(false);
    if consistent && target.index.is_some_and(|i| i.kind == IndexKind::Global) {
        return Err(ApiError::validation(
            "Consistent reads are not supported on global secondary indexes",
        ));
    }
    let key = target.key();
    let elements = KeyElements::of(key);
    let schema = elements.schema();
    let key_condition = match (input.key_condition_expression.as_deref(), key_comparisons) {
        (Some(text), _) => placeholders.key_condition(text, &schema)?,
        (None, Some(comparisons)) => legacy::condition::key_condition_of(comparisons, &schema)?,
        (None, None) => return Err(ApiError::internal("Query without a key condition")),
    };
    // The legacy parameters, translated onto the same trees (see `crate::legacy`).
    let filter_parameter = match legacy_filter {
        Some(legacy_filter) => {
            filter = legacy_filter;
            // Rule B.4: the service's wording, as dynalite's tests and DynamoDB Local record it.
            "QueryFilter can only contain non-primary key attributes"
        }
        None => "Filter Expression can only contain non-primary key attributes",
    };
    let projection_parameter = projection_parameter(input.attributes_to_get.is_some(), projection.is_some());
    if legacy_projection.is_some() {
        projection = legacy_projection;
    }
    // Rule B.6.1: the projection's paths, then (after the filter's key attributes and Select)
    // the filter's (dynalite's query, as its tests record the service's order).
    params::check_projection_key_paths(&table, projection.as_ref())?;
    if let Some(filter) = &filter {
        // Rule B.4: a filter may not read key attributes of the table or the index queried.
        if let Some(name) = filter.key_attribute_read(|name| key.contains(name)) {
            return Err(ApiError::validation(format!(
                "{filter_parameter}: Primary key attribute: {name}"
            )));
        }
    }
    let count_only = check_select(
        Reader::Query,
        input.select.as_deref(),
        &target,
        projection_parameter,
    )?;
    params::check_condition_key_paths(&table, ExpressionKind::Filter, filter.as_ref())?;

    let start_after = start
        .as_ref()
        .map(|s| start_key(&table, &target, s, true))
        .transpose()?;
    // Rule B.18.3: a multi-attribute partition key is its values' encodings in key-schema order.
    let pk = encode_key_tuple(
        std::iter::once(&key_condition.partition_value)
            .chain(key_condition.more_partition.iter().map(|(_, v)| v))
            .map(KeyValue::as_key_ref),
    );
    let (lower, upper) = if key.more_sort.is_empty() {
        match &key_condition.sort {
            Some((_, range)) => sort_bounds(range),
            None => (Bound::Unbounded, Bound::Unbounded),
        }
    } else {
        composite_sort_bounds(
            &key_condition.sort_equal,
            key_condition.sort.as_ref().map(|(_, r)| r),
        )
    };
    if let Some(start) = &start_after {
        let has_sort_condition = key_condition.sort.is_some() || !key_condition.sort_equal.is_empty();
        check_start_key_bounds(start, &pk, has_sort_condition, (&lower, &upper))?;
    }
    let range = Range {
        keyspace: target.keyspace(),
        pk: Some(pk),
        lower,
        upper,
        forward: input.scan_index_forward.unwrap_or(true),
        start_after,
        segment: None,
    };
    // An LSI that does not project what the read asks for sends DynamoDB back to the table for
    // each item it returns (rule B.2, "LSI query").
    let fetch_from_table =
        !count_only && lsi_lacks_attributes(&target, input.select.as_deref(), projection.as_ref());
    let rules = PageRules {
        limit: input.limit.map(|l| l as usize),
        filter: filter.as_ref(),
        projection: if fetch_from_table {
            None
        } else {
            projection.as_ref()
        },
        count_only,
        keep_stored: keep_stored && !fetch_from_table,
        buffers: engine.page_buffers(),
    };
    let kind = ReadKind::of_consistent_read(consistent);
    // A table's collection (not an index's) may be in the item cache: read from memory.
    let mut reader = None;
    let collection = match (engine.unseen_writes(&table, kind), target.index) {
        // Rule B.20: an eventually consistent Query may see the collection as it was, when
        // reads lag (`eventual_lag`), of the table or of an index alike.
        (Some(changed), index) => {
            let conn = reader.insert(engine.reader().await?);
            let (rows, saw_older) =
                eventual_lag::collection_as_of(conn, &table, index, pk_of(&range), &changed).await?;
            if saw_older {
                engine.count_lagged_query(&table);
            }
            Some(std::sync::Arc::new(rows))
        }
        (None, None) => engine.read_collection(&mut reader, &table, pk_of(&range)).await?,
        (None, Some(_)) => None,
    };
    let mut page = match &collection {
        Some(rows) => read::read_page_from(Rows::Collection(rows), &range, &rules).await?,
        None => {
            let conn = match &mut reader {
                Some(conn) => conn,
                None => reader.insert(engine.reader().await?),
            };
            read::read_page(conn, &range, &rules).await?
        }
    };
    let mut table_units = None;
    if fetch_from_table {
        let conn = match &mut reader {
            Some(conn) => conn,
            None => reader.insert(engine.reader().await?),
        };
        let mut fetched = capacity::ReadUnits(0);
        for item in &mut page.items {
            let key = StorageKey::of_key(&table, &entry::key_of(&table.key, item))?;
            if let Some(stored) = entry::load_item(conn, &table, &key).await? {
                // Rule B.2: each base-table fetch is rounded up to 4 KB on its own.
                fetched += capacity::item_read(Some(stored.size), kind);
                *item = match &projection {
                    Some(projection) => projection.apply(&stored.item),
                    None => stored.item,
                };
            }
        }
        table_units = Some(Charge::Read(fetched));
    }
    drop(reader);

    let named = input.table_name.as_deref().unwrap_or_default();
    Ok(target.page_output(report, named, page, kind, table_units, count_only))
}

/// A key attribute as the key-condition checks name it.
/// The encoded partition-key value a Query of `table`, or of one of its local secondary indexes
/// (which share the table's partitions), reads: what the per-partition throttling draws on
/// (`crate::throttling`). `None` for a global secondary index and for a request the Query
/// would refuse (it is refused when it runs).
pub(crate) fn partition_read(table: &crate::catalog::TableSchema, input: QueryInput) -> Option<Vec<u8>> {
    let target = ReadTarget::of(table, input.index_name.as_deref()).ok()?;
    if target.index.is_some_and(|i| i.kind == IndexKind::Global) {
        return None;
    }
    let elements = KeyElements::of(target.key());
    let schema = elements.schema();
    let condition = match (input.key_condition_expression.as_deref(), input.key_conditions) {
        (Some(text), _) => params::placeholders(
            input.expression_attribute_names.as_ref(),
            input.expression_attribute_values,
        )
        .ok()?
        .key_condition(text, &schema)
        .ok()?,
        (None, Some(conditions)) => legacy::condition::key_condition(conditions, &schema).ok()?,
        (None, None) => return None,
    };
    Some(condition.partition_value.as_key_ref().encode())
}

/// A read target's key as the key-condition checker takes it. Rule B.18.5: a multi-attribute GSI
/// key names its other attributes too, which the checker borrows as slices.
struct KeyElements<'a> {
    partition: KeyElement<'a>,
    sort: Option<KeyElement<'a>>,
    more_partition: Vec<KeyElement<'a>>,
    more_sort: Vec<KeyElement<'a>>,
}

impl<'a> KeyElements<'a> {
    fn of(key: &'a crate::catalog::KeySchema) -> Self {
        KeyElements {
            partition: key_element(&key.partition),
            sort: key.sort.as_ref().map(key_element),
            more_partition: key.more_partition.iter().map(key_element).collect(),
            more_sort: key.more_sort.iter().map(key_element).collect(),
        }
    }

    fn schema(&self) -> dynotable_expr::KeySchema<'_> {
        dynotable_expr::KeySchema {
            partition: self.partition,
            sort: self.sort,
            more_partition: &self.more_partition,
            more_sort: &self.more_sort,
        }
    }
}

fn key_element(attribute: &crate::catalog::KeyAttribute) -> KeyElement<'_> {
    KeyElement {
        name: &attribute.name,
        scalar_type: attribute.ty,
    }
}

/// The partition key a Query's range is in.
fn pk_of(range: &Range) -> &[u8] {
    range.pk.as_deref().unwrap_or_default()
}

/// Whether a read of an LSI asks for attributes the index does not project: all attributes, or a
/// projection naming an attribute outside the index's projection.
fn lsi_lacks_attributes(
    target: &ReadTarget<'_>,
    select: Option<&str>,
    projection: Option<&Projection>,
) -> bool {
    let Some(index) = target.index.filter(|i| i.kind == IndexKind::Local) else {
        return false;
    };
    if index.projection == ProjectionSchema::All {
        return false;
    }
    match projection {
        Some(projection) => projection
            .paths
            .iter()
            .any(|p| !index.projects(p.top_level(), &target.table.key)),
        None => select == Some("ALL_ATTRIBUTES"),
    }
}

/// Whether an encoded sort key lies between two bounds.
/// Rule B.4 (the ExclusiveStartKey of a Query): without a sort-key condition, a start key of
/// another partition is outside the query's boundaries; with one, the start key's sort key is
/// checked first, then its partition (a start key of another partition that the sort condition
/// admits can only name a row the query cannot return).
fn check_start_key_bounds(
    start: &read::EntryPosition,
    pk: &[u8],
    has_sort_condition: bool,
    (lower, upper): (&Bound, &Bound),
) -> Result<(), ApiError> {
    if !has_sort_condition {
        if start.pk != pk {
            return Err(ApiError::validation(
                "The provided starting key is outside query boundaries based on provided conditions",
            ));
        }
        return Ok(());
    }
    if !within(&start.sk, lower, upper) {
        return Err(ApiError::validation(
            "The provided starting key does not match the range key predicate",
        ));
    }
    if start.pk != pk {
        return Err(ApiError::validation(
            "The query can return at most one row and cannot be restarted",
        ));
    }
    Ok(())
}

fn within(sk: &[u8], lower: &Bound, upper: &Bound) -> bool {
    let above = match lower {
        Bound::Unbounded => true,
        Bound::Included(low) => sk >= low.as_slice(),
        Bound::Excluded(low) => sk > low.as_slice(),
    };
    let below = match upper {
        Bound::Unbounded => true,
        Bound::Included(high) => sk <= high.as_slice(),
        Bound::Excluded(high) => sk < high.as_slice(),
    };
    above && below
}

/// The encoded sort-key bounds of a key condition's range.
fn sort_bounds(range: &SortKeyRange) -> (Bound, Bound) {
    let enc = KeyValue::encode;
    match range {
        SortKeyRange::Eq(v) => (Bound::Included(enc(v)), Bound::Included(enc(v))),
        SortKeyRange::Lt(v) => (Bound::Unbounded, Bound::Excluded(enc(v))),
        SortKeyRange::Le(v) => (Bound::Unbounded, Bound::Included(enc(v))),
        SortKeyRange::Gt(v) => (Bound::Excluded(enc(v)), Bound::Unbounded),
        SortKeyRange::Ge(v) => (Bound::Included(enc(v)), Bound::Unbounded),
        SortKeyRange::Between(low, high) => (Bound::Included(enc(low)), Bound::Included(enc(high))),
        SortKeyRange::BeginsWith(prefix) => {
            let bytes: &[u8] = match prefix {
                KeyValue::S(s) => s.as_bytes(),
                KeyValue::B(b) => b,
                KeyValue::N(_) => &[],
            };
            let mut encoded = Vec::new();
            encode_prefix_into(bytes, &mut encoded);
            let upper = prefix_successor(&encoded).map_or(Bound::Unbounded, Bound::Excluded);
            (Bound::Included(encoded), upper)
        }
    }
}

/// The encoded sort-key bounds on a multi-attribute sort key (rule B.18.5): the leading
/// attributes held equal make a byte prefix (rule B.18.3: each attribute's encoding in order, none
/// a prefix of another), and the last condition bounds the next attribute inside it. A bound
/// on that attribute's value `v` covers, through the prefix successor, every key that continues
/// after `prefix ++ encode(v)`.
fn composite_sort_bounds(equal: &[(String, KeyValue)], last: Option<&SortKeyRange>) -> (Bound, Bound) {
    let prefix = encode_key_tuple(equal.iter().map(|(_, v)| v.as_key_ref()));
    let with = |value: &KeyValue| {
        let mut bytes = prefix.clone();
        value.encode_into(&mut bytes);
        bytes
    };
    // The keys that start with `bytes`: [bytes, successor(bytes)).
    let after = |bytes: &[u8]| prefix_successor(bytes).map_or(Bound::Unbounded, Bound::Excluded);
    let from_prefix = if prefix.is_empty() {
        Bound::Unbounded
    } else {
        Bound::Included(prefix.clone())
    };
    let to_prefix_end = if prefix.is_empty() {
        Bound::Unbounded
    } else {
        after(&prefix)
    };
    match last {
        None => (from_prefix, to_prefix_end),
        Some(SortKeyRange::Eq(v)) => {
            let bytes = with(v);
            (Bound::Included(bytes.clone()), after(&bytes))
        }
        Some(SortKeyRange::Lt(v)) => (from_prefix, Bound::Excluded(with(v))),
        Some(SortKeyRange::Le(v)) => (from_prefix, after(&with(v))),
        Some(SortKeyRange::Gt(v)) => match prefix_successor(&with(v)) {
            Some(successor) => (Bound::Included(successor), to_prefix_end),
            // Nothing sorts after a key of only 0xFF bytes: an empty range.
            None => (Bound::Excluded(with(v)), Bound::Excluded(with(v))),
        },
        Some(SortKeyRange::Ge(v)) => (Bound::Included(with(v)), to_prefix_end),
        Some(SortKeyRange::Between(low, high)) => (Bound::Included(with(low)), after(&with(high))),
        Some(SortKeyRange::BeginsWith(start)) => {
            let raw: &[u8] = match start {
                KeyValue::S(s) => s.as_bytes(),
                KeyValue::B(b) => b,
                KeyValue::N(_) => &[],
            };
            let mut bytes = prefix.clone();
            encode_prefix_into(raw, &mut bytes);
            let upper = after(&bytes);
            (Bound::Included(bytes), upper)
        }
    }
}
