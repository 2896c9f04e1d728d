//! Access patterns resolved to the request that serves them, with their cost.
//!
//! The life of a pattern ("a depot's readings, newest first": entity Reading, given
//! `depotCode`, ordered by `recordedAt`):
//!
//! 1. Every target of the entity's table is tried — the table, then its GSIs and LSIs. A
//!    target serves the pattern with a Query when the entity fills its partition key from a
//!    template whose fields are all given (rule B.5: a Query names one partition-key value
//!    with `=`), and, when the pattern has a range or an order, the entity fills the target's
//!    sort key from a template that ends with that field after known text (`TS#{recordedAt}`),
//!    so the range becomes `BETWEEN`, `>=`, `<=` or `begins_with` on the key (rule B.5's
//!    sort-key operators) and the order is the sort key's (`ScanIndexForward`). With neither,
//!    the known head of the sort template (`TS#`) keeps the Query to the entity's own items.
//!    A given field that is in neither key would need a filter: such a target still serves,
//!    ranked after one that needs none, since a filter does not lower the read cost (rule B.2).
//! 2. The Query is built as data and written by `dynotable-builder` (its placeholders, its
//!    JSON body), the same request the query builder would send.
//! 3. Its cost is measured on the sample: the entries the key condition selects on that
//!    target, in key order, cut at the pattern's `Limit`, summed and rounded once to 4 KB
//!    (rule B.2, `dynotable_engine::capacity::range_read`); a GSI reads eventually consistent
//!    only (rule B.2). A month is 730 hours of calls at the pattern's rate, priced at the
//!    engine's on-demand read price (rule B.12, `capacity::pricing`).
//! 4. With no target, the pattern needs a Scan: flagged, costed as a Scan of the whole sample
//!    table (rule B.2: every item evaluated is read), and given a suggested GSI
//!    ([`crate::suggest`]).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use dynotable_builder::{
    Comparator, Direction, KeyConditionState, ReadOperation, ReadRequest, SortKeyCondition,
};
use dynotable_engine::capacity::pricing::{HOURS_PER_MONTH, PriceTable};
use dynotable_engine::capacity::{ReadKind, range_read};
use dynotable_types::{AttributeValue, ScalarAttributeType};
use serde::Serialize;

use crate::ModelError;
use crate::collections::entries;
use crate::generate::Sample;
use crate::model::{AccessPattern, FieldRange, Model, Target, TargetKey, TargetKind};
use crate::suggest::{Suggestion, suggest};
use crate::template::Template;

/// The price region of the costs (the engine's default price table).
pub const PRICE_REGION: &str = "us-east-1";

/// What one pattern resolves to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Resolution {
    pub pattern: String,
    /// `Query` or `Scan`.
    pub operation: String,
    pub target: Target,
    pub kind: TargetKind,
    /// The key condition in words (`depotCode = "DEP-N" AND begins_with(recordedAt, "TS#")`).
    pub key_condition: Option<String>,
    /// The request body as sent (DynamoDB JSON, pretty-printed), written by the query builder.
    pub request: String,
    /// The same request as the query builder's state: what the app loads into a table's query
    /// bar to run the pattern on the sample data.
    pub read: ReadRequest,
    /// Given fields the key condition does not cover (a filter would be needed).
    pub filter_fields: Vec<String>,
    /// What the call reads on the sample data.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub items_read: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub bytes_read: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub read_units_per_call: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub read_units_per_month: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub cost_per_month: f64,
    pub currency: String,
    pub notes: Vec<String>,
    /// For a pattern that needs a Scan, the GSI that would serve it.
    pub suggestion: Option<Suggestion>,
}

struct Candidate<'a> {
    target: TargetKey<'a>,
    partition: AttributeValue,
    sort: Option<SortKeyCondition>,
    filter_fields: Vec<String>,
}

/// Resolves every pattern of the model against its sample data.
pub fn resolve_all(model: &Model, sample: &Sample) -> Result<Vec<Resolution>, ModelError> {
    model
        .patterns
        .iter()
        .map(|p| {
            // A problem found while resolving is the pattern's, unless it names a part itself.
            resolve(model, sample, p).map_err(|e| match e.at {
                Some(_) => e,
                None => e.at(crate::ModelPart::Pattern, &p.name, None),
            })
        })
        .collect()
}

/// Resolves one pattern.
pub fn resolve(model: &Model, sample: &Sample, pattern: &AccessPattern) -> Result<Resolution, ModelError> {
    let entity = model.entity(&pattern.entity).ok_or_else(|| {
        ModelError::pattern(format!(
            "pattern {:?}: no entity {}",
            pattern.name, pattern.entity
        ))
    })?;
    let table = model
        .table(&entity.table)
        .ok_or_else(|| ModelError::pattern(format!("entity {}: no table {}", entity.name, entity.table)))?;
    let prices = PriceTable::default();
    let region = prices
        .region(PRICE_REGION)
        .expect("the default price table has us-east-1");
    let month_seconds = HOURS_PER_MONTH * 3600.0;

    let mut candidates = Vec::new();
    for target in table.targets() {
        if let Some(candidate) = candidate(entity, pattern, target)? {
            candidates.push(candidate);
        }
    }
    // Fewest filtered fields first; among equals, the model's order (table, GSIs, LSIs).
    candidates.sort_by_key(|c| c.filter_fields.len());

    let Some(best) = candidates.into_iter().next() else {
        // A Scan of the table: every item is evaluated, so every byte is read (rule B.2).
        let target = Target {
            table: table.name.clone(),
            index: None,
        };
        let all = entries(sample, table, &target)?;
        let bytes: u64 = all.iter().map(|e| e.bytes).sum();
        let units = range_read(bytes, ReadKind::of_consistent_read(pattern.consistent)).as_f64();
        let read = ReadRequest {
            operation: ReadOperation::Scan,
            table_name: table.name.clone(),
            index_name: None,
            key_condition: None,
            filter: None,
            projection: None,
            direction: Direction::Ascending,
            // A Scan's Limit counts items evaluated, before any filter (rule B.4): it does not
            // bound the items found, so the Scan pages through the table.
            limit: None,
            consistent_read: pattern.consistent,
            return_consumed_capacity: None,
        };
        let request = read.generate().map_err(|e| ModelError::pattern(e.message))?;
        let per_month = units * pattern.rate_per_second * month_seconds;
        return Ok(Resolution {
            pattern: pattern.name.clone(),
            operation: "Scan".into(),
            target,
            kind: TargetKind::Table,
            key_condition: None,
            request: body(&request),
            read,
            filter_fields: pattern.given.keys().cloned().collect(),
            items_read: all.len() as u64,
            bytes_read: bytes,
            read_units_per_call: units,
            read_units_per_month: per_month,
            cost_per_month: per_month / 1e6 * region.on_demand_read_per_million,
            currency: region.currency.clone(),
            notes: vec![format!(
                "no key of {} or its indexes is filled from the given fields: a Scan reads the whole table, every page (rule B.2)",
                table.name
            )],
            suggestion: Some(suggest(model, sample, pattern)?),
        });
    };

    let kind = if best.target.kind == TargetKind::Global {
        // Rule B.2: a GSI is read eventually consistent only.
        ReadKind::Eventual
    } else {
        ReadKind::of_consistent_read(pattern.consistent)
    };
    let mut notes = Vec::new();
    if pattern.consistent && best.target.kind == TargetKind::Global {
        notes.push(
            "a GSI serves eventually consistent reads only (rule B.2): the read is priced as one".to_owned(),
        );
    }
    if let Some(fill) = entity
        .key(&best.target.partition.name)
        .filter(|f| f.presence < 1.0)
    {
        notes.push(format!(
            "sparse: only {:.0}% of {} items carry {}, so only they are in this index",
            fill.presence * 100.0,
            entity.name,
            fill.attribute
        ));
    }
    if !best.filter_fields.is_empty() {
        notes.push(format!(
            "{} would need a FilterExpression: filtered items are still read and paid for (rule B.2)",
            best.filter_fields.join(", ")
        ));
    }

    // The entries the key condition selects on the sample, in key order, cut at the limit.
    let mut selected: Vec<_> = entries(sample, table, &best.target.target)?
        .into_iter()
        .filter(|e| e.partition == best.partition)
        .filter(|e| {
            best.sort
                .as_ref()
                .is_none_or(|c| e.sort.as_ref().is_some_and(|s| matches(c, s)))
        })
        .collect();
    selected.sort_by(|a, b| compare(a.sort.as_ref(), b.sort.as_ref()));
    if pattern.descending {
        selected.reverse();
    }
    if let Some(limit) = pattern.limit {
        selected.truncate(limit as usize);
    }
    let bytes: u64 = selected.iter().map(|e| e.bytes).sum();
    let units = range_read(bytes, kind).as_f64();

    let request = ReadRequest {
        operation: ReadOperation::Query,
        table_name: table.name.clone(),
        index_name: best.target.target.index.clone(),
        key_condition: Some(KeyConditionState {
            partition_key: best.target.partition.name.clone(),
            partition_value: best.partition.clone(),
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            sort: best.sort.clone(),
        }),
        filter: None,
        projection: None,
        direction: if pattern.descending {
            Direction::Descending
        } else {
            Direction::Ascending
        },
        limit: pattern.limit,
        consistent_read: pattern.consistent && best.target.kind != TargetKind::Global,
        return_consumed_capacity: None,
    };
    let generated = request.generate().map_err(|e| ModelError::pattern(e.message))?;
    let per_month = units * pattern.rate_per_second * month_seconds;
    Ok(Resolution {
        pattern: pattern.name.clone(),
        operation: "Query".into(),
        target: best.target.target.clone(),
        kind: best.target.kind,
        key_condition: Some(describe(
            &best.target.partition.name,
            &best.partition,
            best.sort.as_ref(),
        )),
        request: body(&generated),
        read: request,
        filter_fields: best.filter_fields,
        items_read: selected.len() as u64,
        bytes_read: bytes,
        read_units_per_call: units,
        read_units_per_month: per_month,
        cost_per_month: per_month / 1e6 * region.on_demand_read_per_million,
        currency: region.currency.clone(),
        notes,
        suggestion: None,
    })
}

/// Whether `target` can serve `pattern` with a Query, and how.
fn candidate<'a>(
    entity: &crate::model::Entity,
    pattern: &AccessPattern,
    target: TargetKey<'a>,
) -> Result<Option<Candidate<'a>>, ModelError> {
    let Some(pk_fill) = entity.key(&target.partition.name) else {
        return Ok(None);
    };
    let pk_template = Template::parse(&pk_fill.template)?;
    if !pk_template.fields().all(|f| pattern.given.contains_key(f)) {
        return Ok(None);
    }
    let partition = pk_template.expand_text(target.partition.ty, &pattern.given)?;
    let mut covered: Vec<&str> = pk_template.fields().collect();
    let sort_template = match target.sort.and_then(|s| entity.key(&s.name)) {
        Some(fill) => Some(Template::parse(&fill.template)?),
        None => None,
    };
    // A sort-key attribute the entity does not fill: its items are not on this target.
    if target.sort.is_some() && sort_template.is_none() {
        return Ok(None);
    }
    let sort_name = target.sort.map(|s| s.name.clone()).unwrap_or_default();
    let sort_ty = target.sort.map(|s| s.ty);
    let text = |t: String| AttributeValue::S(t);
    let sort = match (&pattern.range, &pattern.order_by, &sort_template) {
        (Some(range), _, Some(template)) => {
            let Some(head) = template.head_before(range.field(), &pattern.given) else {
                return Ok(None);
            };
            if sort_ty != Some(ScalarAttributeType::S) && !head.is_empty() {
                return Ok(None);
            }
            covered.extend(template.fields());
            let value = |v: &str| -> Result<AttributeValue, ModelError> {
                match sort_ty {
                    Some(ScalarAttributeType::S) | None => Ok(text(format!("{head}{v}"))),
                    Some(ty) => Template::parse(&format!("{{{}}}", range.field()))?
                        .expand_text(ty, &BTreeMap::from([(range.field().to_owned(), v.to_owned())])),
                }
            };
            Some(match range {
                FieldRange::Between { low, high, .. } => SortKeyCondition::Between {
                    name: sort_name,
                    low: value(low)?,
                    high: value(high)?,
                },
                FieldRange::BeginsWith { prefix, .. } => SortKeyCondition::BeginsWith {
                    name: sort_name,
                    prefix: value(prefix)?,
                },
                FieldRange::AtLeast { value: v, .. } => SortKeyCondition::Compare {
                    name: sort_name,
                    op: Comparator::Ge,
                    value: value(v)?,
                },
                FieldRange::AtMost { value: v, .. } => SortKeyCondition::Compare {
                    name: sort_name,
                    op: Comparator::Le,
                    value: value(v)?,
                },
            })
        }
        (Some(_), _, None) => return Ok(None),
        (None, Some(order), Some(template)) => {
            let Some(head) = template.head_before(order, &pattern.given) else {
                return Ok(None);
            };
            covered.extend(template.fields());
            (!head.is_empty()).then(|| SortKeyCondition::BeginsWith {
                name: sort_name,
                prefix: text(head),
            })
        }
        (None, Some(_), None) => return Ok(None),
        (None, None, Some(template)) => {
            if template.fields().all(|f| pattern.given.contains_key(f)) {
                covered.extend(template.fields());
                Some(SortKeyCondition::Compare {
                    name: sort_name,
                    op: Comparator::Eq,
                    value: template.expand_text(sort_ty.unwrap_or(ScalarAttributeType::S), &pattern.given)?,
                })
            } else {
                // The known head of the template (literal text and given fields up to the
                // first unknown one) keeps the Query to this entity's items.
                let mut head = String::new();
                for segment in &template.segments {
                    match segment {
                        crate::template::Segment::Literal(t) => head.push_str(t),
                        crate::template::Segment::Field(f) => match pattern.given.get(f) {
                            Some(v) => {
                                covered.push(f);
                                head.push_str(v);
                            }
                            None => break,
                        },
                    }
                }
                (sort_ty == Some(ScalarAttributeType::S) && !head.is_empty()).then(|| {
                    SortKeyCondition::BeginsWith {
                        name: sort_name,
                        prefix: text(head),
                    }
                })
            }
        }
        (None, None, None) => None,
    };
    let filter_fields = pattern
        .given
        .keys()
        .filter(|f| !covered.contains(&f.as_str()))
        .cloned()
        .collect();
    Ok(Some(Candidate {
        target,
        partition,
        sort,
        filter_fields,
    }))
}

/// Rule B.9: S compares by UTF-8 bytes, N by value, B by bytes.
fn compare(a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> Ordering {
    match (a, b) {
        (Some(AttributeValue::S(a)), Some(AttributeValue::S(b))) => a.as_bytes().cmp(b.as_bytes()),
        (Some(AttributeValue::N(a)), Some(AttributeValue::N(b))) => a.cmp(b),
        (Some(AttributeValue::B(a)), Some(AttributeValue::B(b))) => a.cmp(b),
        _ => Ordering::Equal,
    }
}

fn matches(condition: &SortKeyCondition, value: &AttributeValue) -> bool {
    match condition {
        SortKeyCondition::Compare { op, value: v, .. } => {
            let order = compare(Some(value), Some(v));
            match op {
                Comparator::Eq => order == Ordering::Equal,
                Comparator::Lt => order == Ordering::Less,
                Comparator::Le => order != Ordering::Greater,
                Comparator::Gt => order == Ordering::Greater,
                Comparator::Ge => order != Ordering::Less,
                _ => false,
            }
        }
        SortKeyCondition::Between { low, high, .. } => {
            compare(Some(value), Some(low)) != Ordering::Less
                && compare(Some(value), Some(high)) != Ordering::Greater
        }
        SortKeyCondition::BeginsWith { prefix, .. } => match (value, prefix) {
            (AttributeValue::S(v), AttributeValue::S(p)) => v.starts_with(p.as_str()),
            (AttributeValue::B(v), AttributeValue::B(p)) => v.starts_with(p),
            _ => false,
        },
    }
}

fn body(request: &dynotable_builder::GeneratedRequest) -> String {
    serde_json::to_string_pretty(&request.to_json()).unwrap_or_default()
}

fn literal(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => serde_json::to_string(s).unwrap_or_default(),
        AttributeValue::N(n) => n.to_string(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn describe(partition_key: &str, partition: &AttributeValue, sort: Option<&SortKeyCondition>) -> String {
    let mut out = format!("{partition_key} = {}", literal(partition));
    if let Some(sort) = sort {
        out.push_str(" AND ");
        out.push_str(&match sort {
            SortKeyCondition::Compare { name, op, value } => {
                let op = serde_json::to_value(op)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                format!("{name} {op} {}", literal(value))
            }
            SortKeyCondition::Between { name, low, high } => {
                format!("{name} BETWEEN {} AND {}", literal(low), literal(high))
            }
            SortKeyCondition::BeginsWith { name, prefix } => {
                format!("begins_with({name}, {})", literal(prefix))
            }
        });
    }
    out
}
