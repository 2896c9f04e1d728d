//! Access patterns from the reads run on a table: each distinct read — the table or index it
//! reads, the key attribute and sort-key operator of its key condition, its order — becomes one
//! named pattern, on the entity it reads, with the fields its key values fill.
//!
//! A read's key values are turned back into field values through the entity's templates: the
//! partition value `VEH#V-7741` under `VEH#{vehicleId}` gives `vehicleId = V-7741`. A sort-key
//! condition (rule B.5's operators) picks the entity when it names a prefix (`begins_with
//! (recordedAt, "TS#")` reads the `TS` entity) and otherwise becomes the pattern's range or
//! given value.

use std::collections::BTreeMap;

use dynotable_types::AttributeValue;

use crate::model::{AccessPattern, Entity, FieldRange, Model};
use crate::template::{Segment, Template};

/// Most patterns taken from the history.
pub const MAX_PATTERNS: usize = 20;

/// A comparison of a sort-key condition (rule B.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// The sort-key half of a read's key condition.
#[derive(Debug, Clone, PartialEq)]
pub enum ObservedSort {
    Compare(SortOp, AttributeValue),
    BeginsWith(AttributeValue),
    Between(AttributeValue, AttributeValue),
}

/// One Query that ran (from the query history).
#[derive(Debug, Clone, PartialEq)]
pub struct ObservedRead {
    pub index: Option<String>,
    pub partition_key: String,
    pub partition_value: AttributeValue,
    /// The sort key's attribute and condition.
    pub sort: Option<(String, ObservedSort)>,
    pub descending: bool,
    pub limit: Option<u32>,
    pub consistent: bool,
}

fn text_of(value: &AttributeValue) -> Option<String> {
    match value {
        AttributeValue::S(s) => Some(s.clone()),
        AttributeValue::N(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The table partition-key value the reads (oldest first) name most, a tie going to the one read
/// last: the collection the user looks at.
pub fn most_read_partition(partition_key: &str, reads: &[ObservedRead]) -> Option<AttributeValue> {
    let mut counts: Vec<(&AttributeValue, u64, usize)> = Vec::new();
    for (at, read) in reads.iter().enumerate() {
        if read.index.is_some() || read.partition_key != partition_key {
            continue;
        }
        match counts.iter_mut().find(|(v, _, _)| **v == read.partition_value) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 = at;
            }
            None => counts.push((&read.partition_value, 1, at)),
        }
    }
    counts
        .into_iter()
        .max_by_key(|(_, n, at)| (*n, *at))
        .map(|(v, _, _)| v.clone())
}

/// The field a key template fills and the value it holds in `value`: `VEH#{vehicleId}` and
/// `VEH#V-7741` give (`vehicleId`, `V-7741`); `None` for a literal template or a value the
/// template does not make.
fn field_value(template: &str, value: &str) -> Option<(String, String)> {
    let parsed = Template::parse(template).ok()?;
    match parsed.segments.as_slice() {
        [Segment::Field(f)] => Some((f.clone(), value.to_owned())),
        [Segment::Literal(l), Segment::Field(f)] => {
            Some((f.clone(), value.strip_prefix(l.as_str())?.to_owned()))
        }
        _ => None,
    }
}

/// The literal a template starts with (`TS#` of `TS#{recordedAt}`, `META`).
fn lead(template: &str) -> String {
    match Template::parse(template)
        .ok()
        .and_then(|t| t.segments.into_iter().next())
    {
        Some(Segment::Literal(l)) => l,
        _ => String::new(),
    }
}

/// The entity a read reads: the one whose sort-key template's literal the condition names,
/// otherwise the largest that fills the read's partition key.
fn entity_for<'a>(model: &'a Model, read: &ObservedRead) -> Option<&'a Entity> {
    let fills = |e: &&Entity| e.key(&read.partition_key).is_some();
    if let Some((attribute, condition)) = &read.sort {
        let named = match condition {
            ObservedSort::BeginsWith(v) | ObservedSort::Compare(_, v) | ObservedSort::Between(v, _) => {
                text_of(v)
            }
        };
        if let Some(named) = named {
            let by_lead = model.entities.iter().filter(fills).find(|e| {
                e.key(attribute).is_some_and(|k| {
                    let lead = lead(&k.template);
                    !lead.is_empty()
                        && (named.starts_with(&lead) || lead.starts_with(&named))
                        && !named.is_empty()
                })
            });
            if by_lead.is_some() {
                return by_lead;
            }
        }
    }
    model.entities.iter().filter(fills).max_by_key(|e| e.count)
}

/// The access patterns of `reads`, each distinct read once, in the order first seen.
pub fn patterns(model: &Model, reads: &[ObservedRead], notes: &mut Vec<String>) -> Vec<AccessPattern> {
    // Each distinct read once, in the order first seen. Its example values are those of the
    // read of the collection the history reads most when one of its runs read it, otherwise
    // of its latest run (reads are oldest first).
    let focus = model
        .tables
        .first()
        .and_then(|t| most_read_partition(&t.partition_key.name, reads));
    let mut distinct: Vec<(String, &ObservedRead)> = Vec::new();
    for read in reads {
        let operator = match &read.sort {
            None => "none".to_owned(),
            Some((a, ObservedSort::Compare(op, _))) => format!("{a} {op:?}"),
            Some((a, ObservedSort::BeginsWith(v))) => format!("{a} begins_with {v:?}"),
            Some((a, ObservedSort::Between(..))) => format!("{a} between"),
        };
        let signature = format!(
            "{:?} {} {operator} {}",
            read.index, read.partition_key, read.descending
        );
        let is_focus = |r: &ObservedRead| r.index.is_none() && Some(&r.partition_value) == focus.as_ref();
        match distinct.iter_mut().find(|(s, _)| *s == signature) {
            Some((_, kept)) => {
                if is_focus(read) || !is_focus(kept) {
                    *kept = read;
                }
            }
            None => distinct.push((signature, read)),
        }
    }
    let mut out: Vec<AccessPattern> = Vec::new();
    let mut names: BTreeMap<String, u32> = BTreeMap::new();
    for (_, read) in distinct {
        if out.len() == MAX_PATTERNS {
            notes.push(format!(
                "Only the first {MAX_PATTERNS} distinct reads of the history became patterns."
            ));
            break;
        }
        let Some(entity) = entity_for(model, read) else {
            notes.push(format!(
                "A read by {} was not turned into a pattern: no entity of the sample fills {}.",
                read.partition_key, read.partition_key
            ));
            continue;
        };
        let Some((partition_field, partition_value)) = entity
            .key(&read.partition_key)
            .zip(text_of(&read.partition_value))
            .and_then(|(k, v)| field_value(&k.template, &v))
        else {
            notes.push(format!(
                "A read by {} was not turned into a pattern: its value is not one {}'s key template makes.",
                read.partition_key, entity.name
            ));
            continue;
        };
        let mut given = BTreeMap::from([(partition_field.clone(), partition_value)]);
        let mut range = None;
        let sort_field = read
            .sort
            .as_ref()
            .map(|(a, _)| a.clone())
            .or_else(|| {
                let table = model.table(&entity.table)?;
                match &read.index {
                    None => table.sort_key.as_ref().map(|k| k.name.clone()),
                    Some(i) => table.index(i)?.sort_key.as_ref().map(|k| k.name.clone()),
                }
            })
            .and_then(|attribute| {
                let template = &entity.key(&attribute)?.template;
                let parsed = Template::parse(template).ok()?;
                let field = parsed.segments.iter().find_map(|s| match s {
                    Segment::Field(f) => Some(f.clone()),
                    Segment::Literal(_) => None,
                })?;
                Some((field, template.clone()))
            });
        if let (Some((_, condition)), Some((field, template))) = (&read.sort, &sort_field) {
            let value =
                |v: &AttributeValue| text_of(v).and_then(|t| field_value(template, &t)).map(|(_, v)| v);
            match condition {
                ObservedSort::Compare(SortOp::Eq, v) => {
                    if let Some(v) = value(v) {
                        given.insert(field.clone(), v);
                    }
                }
                ObservedSort::Compare(SortOp::Lt | SortOp::Le, v) => {
                    range = value(v).map(|value| FieldRange::AtMost {
                        field: field.clone(),
                        value,
                    });
                }
                ObservedSort::Compare(SortOp::Gt | SortOp::Ge, v) => {
                    range = value(v).map(|value| FieldRange::AtLeast {
                        field: field.clone(),
                        value,
                    });
                }
                ObservedSort::Between(low, high) => {
                    range = value(low)
                        .zip(value(high))
                        .map(|(low, high)| FieldRange::Between {
                            field: field.clone(),
                            low,
                            high,
                        });
                }
                // A prefix no longer than the template's literal only names the entity.
                ObservedSort::BeginsWith(v) => {
                    range = value(v)
                        .filter(|p| !p.is_empty())
                        .map(|prefix| FieldRange::BeginsWith {
                            field: field.clone(),
                            prefix,
                        });
                }
            }
        }
        let order_by = sort_field
            .as_ref()
            .filter(|_| read.descending)
            .map(|(f, _)| f.clone());
        let mut name = format!("{} by {partition_field}", entity.name);
        if let Some(r) = &range {
            name.push_str(&format!(" and a range of {}", r.field()));
        }
        if let Some(index) = &read.index {
            name.push_str(&format!(" on {index}"));
        }
        if read.descending {
            name.push_str(", newest first");
        }
        let n = names.entry(name.clone()).or_default();
        *n += 1;
        if *n > 1 {
            name = format!("{name} ({n})");
        }
        out.push(AccessPattern {
            name,
            entity: entity.name.clone(),
            given,
            range,
            order_by,
            descending: read.descending,
            limit: read.limit,
            reads: Vec::new(),
            rate_per_second: 1.0,
            consistent: read.consistent && read.index.is_none(),
        });
    }
    out
}
