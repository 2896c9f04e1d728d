//! Sample data: each entity's `count` items, made from its fields' generators and its key
//! templates, the same for the same seed on every machine.
//!
//! The life of a sample:
//! 1. Entities are generated in model order, so a [`Generator::Ref`] can pick among the values
//!    an earlier entity produced (readings pick a vehicle).
//! 2. For each item, the fields are drawn in their declared order. A `Ref` with a [`Skew`]
//!    gives its first `hot` values `factor` times the weight of the others: one vehicle that
//!    reports ten times as often. A [`Generator::Time`] counts per value of its `per` field, so
//!    each vehicle's readings step forward from the start on their own.
//! 3. The key attributes are expanded from their templates ([`crate::template`]); an index key
//!    with a presence below 1 is left out of that share of the items (a sparse index).
//! 4. The fields whose names the entity does not fill as key attributes are stored as
//!    attributes under their own names.
//!
//! Randomness is SplitMix64 on the seed: small, fast and the same everywhere.

use std::collections::BTreeMap;

use dynotable_types::{AttributeValue, Item, Number, ScalarAttributeType};
use serde::{Deserialize, Serialize};

use crate::model::{Entity, FieldType, Model};
use crate::template::Template;
use crate::{ModelError, ModelPart};

/// How a field's sample values are made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Generator {
    /// `prefix` and a counter: `V-7741`, `V-7748`, … (`start`, `step`, zero-padded to `width`).
    #[serde(rename_all = "camelCase")]
    Sequence {
        #[serde(default)]
        prefix: String,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        start: u64,
        #[serde(default = "one")]
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        step: u64,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        width: usize,
    },
    /// One of `values`, with optional relative `weights`.
    Choice {
        values: Vec<String>,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = Vec<specta_typescript::Number>))]
        weights: Vec<f64>,
    },
    /// A number between `min` and `max` with `decimals` digits after the point.
    Number {
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        min: i64,
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        max: i64,
        #[serde(default)]
        decimals: u32,
    },
    /// An ISO-8601 UTC instant: `start` (seconds since the epoch) plus `step_seconds` per item,
    /// counted per value of the field `per` if given, plus up to `jitter_seconds`.
    #[serde(rename_all = "camelCase")]
    Time {
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        start: i64,
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        step_seconds: i64,
        #[serde(default)]
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        jitter_seconds: i64,
        #[serde(default)]
        per: Option<String>,
    },
    /// Random letters and digits, `length` of them.
    Text {
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        length: usize,
    },
    /// True with probability `share`.
    Flag {
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        share: f64,
    },
    /// The same value in every item.
    Constant { value: String },
    /// A value of `field` of an entity generated earlier (a reading's vehicle).
    Ref {
        entity: String,
        field: String,
        #[serde(default)]
        skew: Option<Skew>,
    },
    /// The value of `field` in the item of `entity` whose `by` equals this item's `by` (the
    /// depot of the reading's vehicle); `by` must be drawn before this field.
    Lookup {
        entity: String,
        by: String,
        field: String,
    },
}

fn one() -> u64 {
    1
}

/// The first `hot` values picked `factor` times as often as each of the others.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Skew {
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub hot: usize,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub factor: f64,
}

/// SplitMix64: the seeded sequence every draw comes from.
#[derive(Debug, Clone)]
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index drawn with the relative `weights`.
    pub fn weighted(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut target = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        weights.len().saturating_sub(1)
    }
}

/// The generated items of one entity, with the field values each was made from.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityItems {
    pub entity: String,
    pub table: String,
    pub records: Vec<BTreeMap<String, AttributeValue>>,
    pub items: Vec<Item>,
}

/// All sample data of a model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sample {
    pub entities: Vec<EntityItems>,
}

impl Sample {
    /// Every item of `table`: the generated ones in entity order, then the table's typed items.
    pub fn table_items<'a>(&'a self, model: &'a Model, table: &str) -> Vec<&'a Item> {
        let mut out: Vec<&Item> = self
            .entities
            .iter()
            .filter(|e| e.table == table)
            .flat_map(|e| e.items.iter())
            .collect();
        if let Some(t) = model.table(table) {
            out.extend(t.items.iter());
        }
        out
    }

    pub fn entity(&self, name: &str) -> Option<&EntityItems> {
        self.entities.iter().find(|e| e.entity == name)
    }
}

/// Generates the model's sample data from `seed`.
pub fn generate(model: &Model, seed: u64) -> Result<Sample, ModelError> {
    let mut dice = Dice::new(seed);
    let mut sample = Sample::default();
    for entity in &model.entities {
        let made = generate_entity(model, entity, &sample, &mut dice)?;
        sample.entities.push(made);
    }
    Ok(sample)
}

fn generate_entity(
    model: &Model,
    entity: &Entity,
    earlier: &Sample,
    dice: &mut Dice,
) -> Result<EntityItems, ModelError> {
    let table = model
        .table(&entity.table)
        .ok_or_else(|| ModelError::model(format!("entity {}: no table {}", entity.name, entity.table)))?;
    let key_types = table.key_attributes();
    let templates: Vec<(String, ScalarAttributeType, Template, f64)> = entity
        .keys
        .iter()
        .map(|k| {
            let ty = *key_types.get(k.attribute.as_str()).ok_or_else(|| {
                ModelError::model(format!(
                    "entity {}: {} is not a key attribute of {} or its indexes",
                    entity.name, k.attribute, table.name
                ))
            })?;
            Ok((k.attribute.clone(), ty, Template::parse(&k.template)?, k.presence))
        })
        .collect::<Result<_, ModelError>>()?;
    let mut counters: BTreeMap<(String, String), i64> = BTreeMap::new();
    let mut out = EntityItems {
        entity: entity.name.clone(),
        table: entity.table.clone(),
        records: Vec::new(),
        items: Vec::new(),
    };
    for n in 0..entity.count {
        let mut record: BTreeMap<String, AttributeValue> = BTreeMap::new();
        for field in &entity.fields {
            let value = draw(entity, field, n, &record, earlier, &mut counters, dice)?;
            record.insert(field.name.clone(), value);
        }
        let mut item = Item::new();
        for (attribute, ty, template, presence) in &templates {
            if *presence < 1.0 && dice.unit() >= *presence {
                continue;
            }
            let value =
                template.expand(*ty, &record).map_err(|e| {
                    ModelError::template(format!("entity {}, key {attribute}: {}", entity.name, e.message))
                        .at(ModelPart::Entity, &entity.name, Some(format!("key:{attribute}")))
                })?;
            item.insert(attribute.clone(), value);
        }
        for (name, value) in &record {
            if entity.key(name).is_none() {
                item.insert(name.clone(), value.clone());
            }
        }
        out.records.push(record);
        out.items.push(item);
    }
    Ok(out)
}

fn draw(
    entity: &Entity,
    field: &crate::model::Field,
    n: u64,
    record: &BTreeMap<String, AttributeValue>,
    earlier: &Sample,
    counters: &mut BTreeMap<(String, String), i64>,
    dice: &mut Dice,
) -> Result<AttributeValue, ModelError> {
    let fail = |why: &str| {
        ModelError::generator(format!("entity {}, field {}: {why}", entity.name, field.name)).at(
            ModelPart::Entity,
            &entity.name,
            Some(format!("field:{}", field.name)),
        )
    };
    let text = match &field.generator {
        Generator::Sequence {
            prefix,
            start,
            step,
            width,
        } => format!("{prefix}{:0width$}", start + n * step, width = *width),
        Generator::Choice { values, weights } => {
            if values.is_empty() {
                return Err(fail("a choice needs at least one value"));
            }
            let i = if weights.is_empty() {
                dice.below(values.len() as u64) as usize
            } else if weights.len() == values.len() && weights.iter().all(|w| w.is_finite() && *w >= 0.0) {
                dice.weighted(weights)
            } else {
                return Err(fail("a choice needs one weight (finite, not negative) per value"));
            };
            values[i].clone()
        }
        Generator::Number { min, max, decimals } => {
            if max < min || *decimals > 10 {
                return Err(fail("a number needs min ≤ max and at most 10 decimals"));
            }
            let whole = *min + dice.below((max - min + 1) as u64) as i64;
            if *decimals == 0 {
                whole.to_string()
            } else {
                let fraction = dice.below(10u64.pow(*decimals));
                let (sign, magnitude) = if whole < 0 { ("-", -whole) } else { ("", whole) };
                format!("{sign}{magnitude}.{fraction:0width$}", width = *decimals as usize)
            }
        }
        Generator::Time {
            start,
            step_seconds,
            jitter_seconds,
            per,
        } => {
            let group = match per {
                Some(other) => {
                    let value = record.get(other).ok_or_else(|| {
                        fail(&format!(
                            "`per` names {other}, which is not drawn before this field"
                        ))
                    })?;
                    serde_json::to_string(value).unwrap_or_default()
                }
                None => String::new(),
            };
            let counter = counters.entry((field.name.clone(), group)).or_insert(0);
            let ordinal = *counter;
            *counter += 1;
            let jitter = if *jitter_seconds > 0 {
                dice.below(*jitter_seconds as u64 + 1) as i64
            } else {
                0
            };
            iso8601(start + ordinal * step_seconds + jitter)
        }
        Generator::Text { length } => {
            const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
            (0..*length)
                .map(|_| ALPHABET[dice.below(ALPHABET.len() as u64) as usize] as char)
                .collect()
        }
        Generator::Flag { share } => return Ok(AttributeValue::BOOL(dice.unit() < *share)),
        Generator::Constant { value } => value.clone(),
        Generator::Ref {
            entity: source,
            field: source_field,
            skew,
        } => {
            let made = earlier
                .entity(source)
                .ok_or_else(|| fail(&format!("no entity {source} is generated before this one")))?;
            if made.records.is_empty() {
                return Err(fail(&format!("entity {source} has no items to refer to")));
            }
            let weights: Vec<f64> = (0..made.records.len())
                .map(|i| match skew {
                    Some(Skew { hot, factor }) if i < *hot => factor.max(0.0),
                    _ => 1.0,
                })
                .collect();
            let pick = dice.weighted(&weights);
            return made.records[pick]
                .get(source_field)
                .cloned()
                .ok_or_else(|| fail(&format!("entity {source} has no field {source_field}")));
        }
        Generator::Lookup {
            entity: source,
            by,
            field: source_field,
        } => {
            let made = earlier
                .entity(source)
                .ok_or_else(|| fail(&format!("no entity {source} is generated before this one")))?;
            let key = record
                .get(by)
                .ok_or_else(|| fail(&format!("`by` names {by}, which is not drawn before this field")))?;
            return made
                .records
                .iter()
                .find(|r| r.get(by) == Some(key))
                .and_then(|r| r.get(source_field))
                .cloned()
                .ok_or_else(|| {
                    fail(&format!(
                        "no item of {source} has {by} = {}",
                        serde_json::to_string(key).unwrap_or_default()
                    ))
                });
        }
    };
    typed(field.ty, text).map_err(|why| fail(&why))
}

fn typed(ty: FieldType, text: String) -> Result<AttributeValue, String> {
    match ty {
        FieldType::S => Ok(AttributeValue::S(text)),
        FieldType::N => Number::parse(&text)
            .map(AttributeValue::N)
            .map_err(|e| e.to_string()),
        FieldType::B => Ok(AttributeValue::B(text.into_bytes())),
        FieldType::BOOL => Ok(AttributeValue::BOOL(matches!(text.as_str(), "true" | "1"))),
        FieldType::NULL => Ok(AttributeValue::NULL),
        other => Err(format!(
            "sample values of type {} are not generated; give them as typed items",
            other.as_str()
        )),
    }
}

/// Seconds since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (proleptic Gregorian, UTC).
pub fn iso8601(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let secs = seconds.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}
