//! A model inferred from a live table (issue 21, point 5): its keys and indexes as
//! DescribeTable gives them (the caller's [`TableModel`]), entity types from a bounded sample of
//! its items, and access patterns from the reads run on it.
//!
//! The life of an inference:
//! 1. The sampled items are grouped by their sort key's prefix — the text before the first `#`,
//!    or the whole value when it has none (`META`); every number is one group, every binary
//!    value another — or, on a table without a sort key, by the partition key's.
//! 2. Within a prefix, items are grouped again by their attribute set, index key attributes
//!    aside: an item without an index key is the same entity left out of that index (a sparse
//!    index), which [`KeyFill::presence`] says.
//! 3. Each group is an entity: a key template per key attribute it fills, derived from the
//!    values ([`values::string_template`]: `VEH#{vehicleId}` where the part after the prefix
//!    varies, the literal `META` where it is constant); its fields with their DynamoDB types and
//!    generators read back from the values; its share of the sample scaled to the table's item
//!    count, and a sample-data count from that, at most [`MAX_SAMPLE_ITEMS`] in all.
//! 4. An entity that shares its partition-key template with an entity of a constant sort key
//!    (a reading and its vehicle's `META`) refers to that entity's values, skewed as the sample
//!    was (one vehicle that reports ten times as often); that entity comes first. A counter of
//!    partition values starts at the value the history reads most (else the sample's hottest),
//!    so the collection the user queries is one the model's sample data draws.
//! 5. Each distinct read of the history — index, key condition, order — becomes a named access
//!    pattern on the entity it reads ([`reads`]).
//!
//! The same sample gives the same model: groups, fields and patterns are ordered by name or by
//! first appearance, never by a hash.

pub mod reads;
pub mod values;

use std::collections::{BTreeMap, BTreeSet};

use dynotable_engine::capacity::estimate::counted;
use dynotable_types::{AttributeValue, Item, ScalarAttributeType};
use serde::Serialize;

use crate::generate::{Generator, Skew};
use crate::model::{Entity, Field, FieldType, KeyFill, Model, TableModel};
pub use reads::{ObservedRead, ObservedSort, SortOp, most_read_partition};

/// Most items the inferred model's sample data holds in all: the modeler generates and groups
/// the sample on every edit, so a table of millions is modelled by a sample of its shape.
pub const MAX_SAMPLE_ITEMS: u64 = 2_000;

/// One entity type found, with what it was found from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct InferredEntity {
    pub name: String,
    /// The sort-key prefix (or partition-key prefix, on a table without a sort key) its items
    /// share; `#N` for numbers, `#B` for binary values.
    pub prefix: String,
    /// Items of the sample it was found in.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub sampled: u64,
    /// Its items in the whole table, scaled from its share of the sample.
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub estimated: f64,
    /// The attributes its items hold, sorted.
    pub attributes: Vec<String>,
}

/// The inferred model, the entities it was found to hold, and what could not be modelled.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Inference {
    pub model: Model,
    pub entities: Vec<InferredEntity>,
    /// Plain sentences: attributes left out, reads not turned into patterns.
    pub notes: Vec<String>,
}

/// One group of sampled items: a prefix and an attribute set.
struct Group<'a> {
    prefix: String,
    attributes: BTreeSet<String>,
    items: Vec<&'a Item>,
}

/// Infers a model of `table` from `sample` (items of the table), which has `item_count` items
/// in all as DescribeTable counts them, and from `reads` (the history's reads of it).
pub fn infer(table: &TableModel, sample: &[Item], item_count: u64, reads: &[ObservedRead]) -> Inference {
    let mut notes = Vec::new();
    let grouping_key = table
        .sort_key
        .as_ref()
        .unwrap_or(&table.partition_key)
        .name
        .clone();
    let table_keys: BTreeSet<&str> = std::iter::once(table.partition_key.name.as_str())
        .chain(table.sort_key.as_ref().map(|k| k.name.as_str()))
        .collect();
    let key_types = table.key_attributes();
    // Index key attributes that are not the table's: an item may lack them (a sparse index).
    let index_keys: Vec<&str> = key_types
        .keys()
        .copied()
        .filter(|k| !table_keys.contains(k))
        .collect();

    let mut groups: Vec<Group> = Vec::new();
    for item in sample {
        let Some(prefix) = item.get(&grouping_key).and_then(values::group_of) else {
            continue;
        };
        let attributes: BTreeSet<String> = item
            .keys()
            .filter(|a| !index_keys.contains(&a.as_str()))
            .cloned()
            .collect();
        match groups
            .iter_mut()
            .find(|g| g.prefix == prefix && g.attributes == attributes)
        {
            Some(group) => group.items.push(item),
            None => groups.push(Group {
                prefix,
                attributes,
                items: vec![item],
            }),
        }
    }
    // By prefix, then the larger attribute set group first; names follow that order.
    groups.sort_by(|a, b| {
        a.prefix
            .cmp(&b.prefix)
            .then(b.items.len().cmp(&a.items.len()))
            .then(a.attributes.cmp(&b.attributes))
    });

    let sampled_total = groups.iter().map(|g| g.items.len() as u64).sum::<u64>();
    // DescribeTable's count lags on AWS (about six hours) and stays 0 on some emulators: the
    // table holds at least what was sampled.
    let table_total = item_count.max(sampled_total);
    let scale_down = (MAX_SAMPLE_ITEMS as f64 / table_total.max(1) as f64).min(1.0);

    // The hottest partition-key value of the sample: a counter starts at it.
    let mut per_partition: BTreeMap<String, u64> = BTreeMap::new();
    for group in &groups {
        for item in &group.items {
            if let Some(AttributeValue::S(v)) = item.get(&table.partition_key.name) {
                *per_partition.entry(v.clone()).or_default() += 1;
            }
        }
    }
    // The partition value the history reads most, else the sample's hottest: a counter starts
    // at it, so the collection the user looks at is in the model's sample data.
    let read_most = match reads::most_read_partition(&table.partition_key.name, reads) {
        Some(AttributeValue::S(v)) => Some(v),
        _ => None,
    };
    let hottest = read_most.or_else(|| {
        per_partition
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
            .map(|(v, _)| v.clone())
    });

    let mut entities = Vec::new();
    let mut found = Vec::new();
    let mut taken: BTreeMap<String, u32> = BTreeMap::new();
    for group in &groups {
        let base = match group.prefix.as_str() {
            "#N" | "#B" => table.name.clone(),
            "" => "Item".to_owned(),
            p => p.to_owned(),
        };
        let n = taken.entry(base.clone()).or_default();
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}_{n}") };
        let share = group.items.len() as f64 / sampled_total.max(1) as f64;
        let estimated = (share * table_total as f64).round();
        let count = ((estimated * scale_down).round() as u64).max(1);
        let entity = entity_of(
            table,
            &name,
            group,
            &grouping_key,
            count,
            hottest.as_deref(),
            &mut notes,
        );
        let mut attributes: BTreeSet<String> = group.attributes.clone();
        for item in &group.items {
            attributes.extend(item.keys().cloned());
        }
        found.push(InferredEntity {
            name: name.clone(),
            prefix: group.prefix.clone(),
            sampled: group.items.len() as u64,
            estimated,
            attributes: attributes.into_iter().collect(),
        });
        entities.push((entity, group));
    }
    link_references(table, &mut entities);
    // Entities with a constant sort key (`META`) first: the others refer to their values.
    let constant_sort = |e: &Entity| {
        table
            .sort_key
            .as_ref()
            .and_then(|k| e.key(&k.name))
            .is_some_and(|k| !k.template.contains('{') || k.template.contains("{{"))
    };
    let mut ordered: Vec<Entity> = entities.iter().map(|(e, _)| e.clone()).collect();
    ordered.sort_by_key(|e| !constant_sort(e));
    let order: Vec<String> = ordered.iter().map(|e| e.name.clone()).collect();
    found.sort_by_key(|f| order.iter().position(|n| *n == f.name));

    let mut model = Model {
        name: format!("{} (inferred)", table.name),
        description: format!(
            "Inferred from {} of {} ({} in the table, as DescribeTable counts them)",
            counted(sampled_total, "sampled item", "sampled items"),
            table.name,
            counted(item_count, "item", "items")
        ),
        author: String::new(),
        tables: vec![table.clone()],
        entities: ordered,
        patterns: Vec::new(),
        workbench: None,
    };
    model.patterns = reads::patterns(&model, reads, &mut notes);
    Inference {
        model,
        entities: found,
        notes,
    }
}

/// The entity one group of items makes.
fn entity_of(
    table: &TableModel,
    name: &str,
    group: &Group,
    grouping_key: &str,
    count: u64,
    hottest: Option<&str>,
    notes: &mut Vec<String>,
) -> Entity {
    let key_types = table.key_attributes();
    let partition_field = &table.partition_key.name;
    // The table's keys first, then each index key the entity's items carry, once each.
    let mut key_names: Vec<&str> = vec![table.partition_key.name.as_str()];
    key_names.extend(table.sort_key.as_ref().map(|k| k.name.as_str()));
    for target in table.targets() {
        for key in std::iter::once(target.partition).chain(target.sort) {
            if !key_names.contains(&key.name.as_str()) {
                key_names.push(&key.name);
            }
        }
    }
    let mut keys = Vec::new();
    let mut fields = Vec::new();
    for attribute in key_names {
        let ty = key_types[attribute];
        let present: Vec<&AttributeValue> = group.items.iter().filter_map(|i| i.get(attribute)).collect();
        if present.is_empty() {
            continue;
        }
        // A table key is in every item (rule B.7); an index key may be in some (a sparse index).
        let presence = (present.len() as f64 / group.items.len() as f64 * 100.0).round() / 100.0;
        let template = match ty {
            ScalarAttributeType::S => {
                let texts: Vec<&str> = present
                    .iter()
                    .filter_map(|v| match v {
                        AttributeValue::S(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                let is_partition = attribute == partition_field.as_str();
                let (template, rest) =
                    values::string_template(attribute, &texts, attribute == grouping_key, !is_partition);
                if let Some(rest) = rest {
                    let first = is_partition
                        .then(|| {
                            let (_, hot) = values::string_template(attribute, &[hottest?], false, false);
                            hot?.into_iter().next()
                        })
                        .flatten();
                    // A table sort key steps per collection: the partition value of each item
                    // that has this attribute.
                    let owners: Vec<String> = group
                        .items
                        .iter()
                        .filter(|i| i.contains_key(attribute))
                        .map(|i| {
                            i.get(partition_field)
                                .map(|v| format!("{v:?}"))
                                .unwrap_or_default()
                        })
                        .collect();
                    let per = (!is_partition && table.sort_key.as_ref().is_some_and(|k| k.name == attribute))
                        .then_some((partition_field.as_str(), owners.as_slice()));
                    fields.push(Field {
                        name: attribute.to_owned(),
                        ty: FieldType::S,
                        generator: values::string_generator(&rest, first.as_deref(), per),
                    });
                }
                template
            }
            ScalarAttributeType::N => {
                let texts: Vec<String> = present
                    .iter()
                    .filter_map(|v| match v {
                        AttributeValue::N(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect();
                fields.push(Field {
                    name: attribute.to_owned(),
                    ty: FieldType::N,
                    generator: values::number_generator(&texts),
                });
                format!("{{{attribute}}}")
            }
            ScalarAttributeType::B => {
                let lengths: usize = present
                    .iter()
                    .map(|v| match v {
                        AttributeValue::B(b) => b.len(),
                        _ => 0,
                    })
                    .sum();
                fields.push(Field {
                    name: attribute.to_owned(),
                    ty: FieldType::B,
                    generator: Generator::Text {
                        length: (lengths / present.len()).max(1),
                    },
                });
                format!("{{{attribute}}}")
            }
        };
        keys.push(KeyFill {
            attribute: attribute.to_owned(),
            template,
            presence: if table_keys_of(table).contains(&attribute) {
                1.0
            } else {
                presence
            },
        });
    }
    for attribute in &group.attributes {
        if key_types.contains_key(attribute.as_str()) {
            continue;
        }
        let present: Vec<&AttributeValue> = group.items.iter().filter_map(|i| i.get(attribute)).collect();
        let mut types: BTreeMap<&str, (FieldType, usize)> = BTreeMap::new();
        for value in &present {
            let ty = values::field_type(value);
            types.entry(ty.as_str()).or_insert((ty, 0)).1 += 1;
        }
        let Some((ty, _)) = types.values().max_by_key(|(_, n)| *n).copied() else {
            continue;
        };
        let of_type: Vec<&AttributeValue> = present
            .into_iter()
            .filter(|v| values::field_type(v) == ty)
            .collect();
        match values::attribute_generator(ty, &of_type) {
            Some(generator) => fields.push(Field {
                name: attribute.clone(),
                ty,
                generator,
            }),
            None => notes.push(format!(
                "{name}: the attribute {attribute} ({}) is left out; the modeler generates scalar values only",
                ty.as_str()
            )),
        }
    }
    Entity {
        name: name.to_owned(),
        table: table.name.clone(),
        keys,
        fields,
        count,
        writes_per_second: 0.0,
        retention_days: None,
    }
}

fn table_keys_of(table: &TableModel) -> Vec<&str> {
    std::iter::once(table.partition_key.name.as_str())
        .chain(table.sort_key.as_ref().map(|k| k.name.as_str()))
        .collect()
}

/// Step 4: an entity whose partition-key template is that of an entity with a constant sort
/// key takes its partition field from that entity's values, skewed as the sample was.
fn link_references(table: &TableModel, entities: &mut [(Entity, &Group)]) {
    let Some(sort) = &table.sort_key else {
        return;
    };
    let pk = &table.partition_key.name;
    let owners: Vec<(String, String)> = entities
        .iter()
        .filter(|(e, _)| e.key(&sort.name).is_some_and(|k| !k.template.contains('{')))
        .filter_map(|(e, _)| Some((e.key(pk)?.template.clone(), e.name.clone())))
        .filter(|(template, _)| template.contains(&format!("{{{pk}}}")))
        .collect();
    for (entity, group) in entities.iter_mut() {
        let Some(template) = entity.key(pk).map(|k| k.template.clone()) else {
            continue;
        };
        let Some((_, owner)) = owners.iter().find(|(t, o)| *t == template && *o != entity.name) else {
            continue;
        };
        let mut per_value: BTreeMap<String, u64> = BTreeMap::new();
        for item in &group.items {
            if let Some(v) = item.get(pk) {
                *per_value.entry(format!("{v:?}")).or_default() += 1;
            }
        }
        let mut counts: Vec<u64> = per_value.values().copied().collect();
        counts.sort_unstable();
        let skew = match (counts.last(), counts.get(counts.len() / 2)) {
            (Some(max), Some(median)) if counts.len() > 1 && *max >= 2 * median => Some(Skew {
                hot: 1,
                factor: (*max as f64 / *median as f64).round(),
            }),
            _ => None,
        };
        if let Some(field) = entity.fields.iter_mut().find(|f| f.name == *pk) {
            field.generator = Generator::Ref {
                entity: owner.clone(),
                field: pk.clone(),
                skew,
            };
        }
    }
}
