//! What Query and Scan share above the page reader: the table or index a read targets
//! ([`ReadTarget`], its keyspace, its key and the `LastEvaluatedKey` of an entry), `Select`
//! against the target and the projection, `ExclusiveStartKey` encoded as the position to resume
//! after (rule B.4), and a page's response with its ConsumedCapacity (rule B.2).

use dynotable_types::{Item, KeyRole};

use super::{EntryPosition, Page};
use crate::ApiError;
use crate::api::item::ReadPageOutput;
use crate::capacity::{self, ReadKind};
use crate::catalog::{IndexKind, IndexSchema, KeyAttribute, KeySchema, ProjectionSchema, TableSchema};
use crate::entry::key_of;
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;

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
    /// once, at least one block; charged to the index read, plus `table_fetches` of base items),
    /// its ConsumedCapacity naming the table as the request did (`named`, rule B.2).
    pub fn page_output(
        &self,
        report: CapacityReport,
        named: &str,
        page: Page,
        kind: ReadKind,
        table_fetches: Option<Charge>,
        count_only: bool,
    ) -> ReadPageOutput {
        let charge = Charge::Read(capacity::range_read(page.bytes_read, kind));
        let consumed = match self.position {
            Some(position) => {
                params::consumed_capacity(report, self.table, named, table_fetches, &[(position, charge)])
            }
            None => params::consumed_capacity(report, self.table, named, Some(charge), &[]),
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
///
/// Rule B.15 (a start key of another shape), in the service's order (dynalite's tests against
/// it; floci-io/floci#1443 and ExtendDB/extenddb#86 checked the first two against it in 2026):
/// - a Scan of the table: `The provided starting key is invalid: <why>`, whatever is wrong;
/// - a Query, or a Scan of an index: another number of attributes than the keys of the table
///   and the index is `The provided starting key is invalid` alone; then each key attribute of
///   the key read (the index's, else the table's): missing, the same sentence; of another type,
///   `The provided key element does not match the schema` alone; then the table's key
///   attributes an index key leaves out, `The provided starting key is invalid: <why>`.
pub(crate) fn start_key(
    table: &TableSchema,
    target: &ReadTarget<'_>,
    start: &Item,
    query: bool,
) -> Result<EntryPosition, ApiError> {
    use dynotable_types::ValidationError;
    let prefixed = |err: ValidationError| {
        ApiError::validation(format!("The provided starting key is invalid: {}", err.message()))
    };
    let bare_shape = query || target.index.is_some();
    let expected = table.key.attributes().count()
        + target.index.map_or(0, |index| {
            index
                .key
                .attributes()
                .filter(|a| !table.key.contains(&a.name))
                .count()
        });
    if start.len() != expected {
        return Err(if bare_shape {
            ApiError::validation("The provided starting key is invalid")
        } else {
            prefixed(ValidationError::KeyElementMismatch)
        });
    }
    let read_key = target.index.map_or(&table.key, |index| &index.key);
    if bare_shape {
        if read_key.attributes().any(|a| !start.contains_key(&a.name)) {
            return Err(ApiError::validation("The provided starting key is invalid"));
        }
        let own = |err: ValidationError| match err {
            ValidationError::KeyElementMismatch => ApiError::validation(err.message()),
            err => prefixed(err),
        };
        encode_key_part(read_key.partition_attributes(), KeyRole::Partition, start).map_err(own)?;
        encode_key_part(read_key.sort_attributes(), KeyRole::Sort, start).map_err(own)?;
    }
    // Every key attribute in key-schema order (a multi-attribute GSI key is the attributes'
    // encodings one after the other, rule B.18.3).
    let encode = |key: &KeySchema| -> Result<(Vec<u8>, Vec<u8>), ApiError> {
        let pk = encode_key_part(key.partition_attributes(), KeyRole::Partition, start).map_err(prefixed)?;
        let sk = encode_key_part(key.sort_attributes(), KeyRole::Sort, start).map_err(prefixed)?;
        Ok((pk, sk))
    };
    let (table_pk, table_sk) = encode(&table.key)?;
    Ok(match target.index {
        None => EntryPosition {
            pk: table_pk,
            sk: table_sk,
            tail: Vec::new(),
        },
        Some(index) => {
            let (pk, sk) = encode(&index.key)?;
            EntryPosition {
                pk,
                sk,
                tail: [table_pk, table_sk].concat(),
            }
        }
    })
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

/// The operation that reads, where Query and Scan word a check apart.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reader {
    Query,
    Scan,
}

/// Checks `Select` against the target and the projection (`projection` names the parameter
/// that gives one); returns whether only a count is asked.
///
/// The sentences are the service's (moto's `test_dynamodb_select.py`, run against it): the
/// checks of `Select` against the projection parameters and the IndexName are the same for
/// both operations, but a Query sends them inside the one-error envelope (`1 validation error
/// detected: ...`) and a Scan bare; the check against a GSI's projection is bare for both.
pub(crate) fn check_select(
    reader: Reader,
    select: Option<&str>,
    target: &ReadTarget<'_>,
    projection: Option<&str>,
) -> Result<bool, ApiError> {
    let has_projection = projection.is_some();
    let projection = projection.unwrap_or_default();
    let refuse = |sentence: String| {
        let error = ApiError::validation(sentence);
        Err(match reader {
            Reader::Query => error.enveloped(),
            Reader::Scan => error,
        })
    };
    match select {
        Some("COUNT") if has_projection => refuse(format!(
            "Cannot specify the {projection} when choosing to get only the Count"
        )),
        Some("COUNT") => Ok(true),
        Some("SPECIFIC_ATTRIBUTES") if !has_projection => refuse(
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"
                .to_owned(),
        ),
        Some(select @ ("ALL_ATTRIBUTES" | "ALL_PROJECTED_ATTRIBUTES")) if has_projection => refuse(format!(
            "Cannot specify the {projection} when choosing to get {select}"
        )),
        Some("ALL_PROJECTED_ATTRIBUTES") if target.index.is_none() => refuse(
            "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName".to_owned(),
        ),
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
