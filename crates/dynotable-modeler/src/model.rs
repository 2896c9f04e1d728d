//! The model: tables with their keys and indexes, entity types with key templates, the fields
//! their sample data is generated from, and named access patterns. Plain serde data (camelCase
//! JSON), so the app stores and sends it as it is and the UI edits it.
//!
//! A key template names entity *fields* in braces: `VEH#{vehicleId}` fills the table's
//! partition key with `VEH#` and the field `vehicleId`. A field with the name of a key
//! attribute the entity fills is not stored apart: the key attribute holds its template's
//! expansion. Every other field is stored as an attribute of the item under its own name.
//!
//! An entity lists the key attributes it fills ([`Entity::keys`]): the table's, and each index
//! key it takes part in, so sparse indexes are explicit; [`KeyFill::presence`] says what share
//! of its items carry one. As in DynamoDB, an item also lands in an index when a field it
//! stores happens to bear the index key's name (and type): the collections show it.

use std::collections::BTreeMap;

use dynotable_types::{Item, ScalarAttributeType};
use serde::{Deserialize, Serialize};

use crate::generate::Generator;

/// A whole design: tables, the entity types stored in them, and how they are read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Model {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub author: String,
    pub tables: Vec<TableModel>,
    #[serde(default)]
    pub entities: Vec<Entity>,
    #[serde(default)]
    pub patterns: Vec<AccessPattern>,
    /// What a NoSQL Workbench file imported into this model carried beyond it, kept so the
    /// file exports again unchanged ([`crate::export::workbench`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workbench: Option<crate::export::workbench::WorkbenchExtras>,
}

/// One table: its key, billing and indexes, and items typed or pasted by hand.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TableModel {
    pub name: String,
    pub partition_key: KeyAttr,
    #[serde(default)]
    pub sort_key: Option<KeyAttr>,
    #[serde(default)]
    pub billing: Billing,
    #[serde(default)]
    pub global_indexes: Vec<IndexModel>,
    #[serde(default)]
    pub local_indexes: Vec<IndexModel>,
    /// Items given as they are (DynamoDB JSON), besides the generated ones.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Vec<std::collections::BTreeMap<String, dynotable_builder::typescript::AttributeValueJson>>))]
    pub items: Vec<Item>,
}

/// A key attribute and its scalar type (rule B.7: S, N or B).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct KeyAttr {
    pub name: String,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "specta", specta(type = dynotable_builder::KeyType))]
    pub ty: ScalarAttributeType,
}

/// How a table (and its GSIs) is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
/// (Named `ModelBilling` in TypeScript, beside the app's own `Billing`; the JSON is unchanged.)
#[serde(tag = "mode", rename = "ModelBilling", rename_all = "camelCase")]
pub enum Billing {
    #[default]
    OnDemand,
    /// Provisioned read and write capacity units, the table's and each GSI's.
    #[serde(rename_all = "camelCase")]
    Provisioned {
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        read_units: u64,
        #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
        write_units: u64,
    },
}

/// A secondary index. An LSI shares the table's partition key (rule B.7), so its
/// `partition_key` must be the table's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct IndexModel {
    pub name: String,
    pub partition_key: KeyAttr,
    #[serde(default)]
    pub sort_key: Option<KeyAttr>,
    #[serde(default)]
    pub projection: Projection,
}

impl IndexModel {
    pub fn keys(&self) -> impl Iterator<Item = &KeyAttr> {
        std::iter::once(&self.partition_key).chain(self.sort_key.as_ref())
    }
}

/// What an index copies from each item besides the keys.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
/// (Named `ModelProjection` in TypeScript, beside the app's own `Projection`.)
#[serde(
    tag = "type",
    content = "attributes",
    rename = "ModelProjection",
    rename_all = "camelCase"
)]
pub enum Projection {
    #[default]
    All,
    KeysOnly,
    Include(Vec<String>),
}

/// Where a read goes: the table itself or one of its indexes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Target {
    pub table: String,
    #[serde(default)]
    pub index: Option<String>,
}

/// The key a target is read by, with the kind of index it is.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetKey<'a> {
    pub target: Target,
    pub partition: &'a KeyAttr,
    pub sort: Option<&'a KeyAttr>,
    pub kind: TargetKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum TargetKind {
    Table,
    Global,
    Local,
}

impl TableModel {
    /// The table and its indexes, table first, then GSIs and LSIs in the order given.
    pub fn targets(&self) -> Vec<TargetKey<'_>> {
        let mut out = vec![TargetKey {
            target: Target {
                table: self.name.clone(),
                index: None,
            },
            partition: &self.partition_key,
            sort: self.sort_key.as_ref(),
            kind: TargetKind::Table,
        }];
        for (indexes, kind) in [
            (&self.global_indexes, TargetKind::Global),
            (&self.local_indexes, TargetKind::Local),
        ] {
            for index in indexes {
                out.push(TargetKey {
                    target: Target {
                        table: self.name.clone(),
                        index: Some(index.name.clone()),
                    },
                    partition: &index.partition_key,
                    sort: index.sort_key.as_ref(),
                    kind,
                });
            }
        }
        out
    }

    pub fn index(&self, name: &str) -> Option<&IndexModel> {
        self.global_indexes
            .iter()
            .chain(&self.local_indexes)
            .find(|i| i.name == name)
    }

    /// Every key attribute of the table and its indexes, each once, with its type.
    pub fn key_attributes(&self) -> BTreeMap<&str, ScalarAttributeType> {
        let mut out = BTreeMap::new();
        for target in self.targets() {
            for key in std::iter::once(target.partition).chain(target.sort) {
                out.entry(key.name.as_str()).or_insert(key.ty);
            }
        }
        out
    }
}

/// An entity type of single-table design: what it is keyed by, what it holds, how many there
/// are and how fast they are written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Entity {
    pub name: String,
    pub table: String,
    /// The key attributes the entity fills: the table's key, then each index key it carries.
    pub keys: Vec<KeyFill>,
    /// The entity's fields: key-template inputs and stored attributes.
    #[serde(default)]
    pub fields: Vec<Field>,
    /// How many items the sample data holds.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub count: u64,
    /// New items written per second in production (for index write costs and growth).
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub writes_per_second: f64,
    /// How long an item is kept (Time to Live), in days; `None` keeps it for ever.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Number>))]
    pub retention_days: Option<f64>,
}

/// One key attribute an entity fills, from a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyFill {
    pub attribute: String,
    pub template: String,
    /// The share of the entity's items that carry this attribute (1 = all). Only index keys
    /// may be partial: a table key attribute is in every item (rule B.7).
    #[serde(default = "always")]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub presence: f64,
}

fn always() -> f64 {
    1.0
}

/// A field of an entity, its type and how sample values are made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: FieldType,
    pub generator: Generator,
}

/// An attribute's type, as DynamoDB names it (rule B.7: the ten types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[allow(clippy::upper_case_acronyms)]
pub enum FieldType {
    S,
    N,
    B,
    BOOL,
    NULL,
    L,
    M,
    SS,
    NS,
    BS,
}

impl FieldType {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::S => "S",
            FieldType::N => "N",
            FieldType::B => "B",
            FieldType::BOOL => "BOOL",
            FieldType::NULL => "NULL",
            FieldType::L => "L",
            FieldType::M => "M",
            FieldType::SS => "SS",
            FieldType::NS => "NS",
            FieldType::BS => "BS",
        }
    }

    pub fn from_descriptor(text: &str) -> Option<FieldType> {
        Some(match text {
            "S" => FieldType::S,
            "N" => FieldType::N,
            "B" => FieldType::B,
            "BOOL" => FieldType::BOOL,
            "NULL" => FieldType::NULL,
            "L" => FieldType::L,
            "M" => FieldType::M,
            "SS" => FieldType::SS,
            "NS" => FieldType::NS,
            "BS" => FieldType::BS,
            _ => return None,
        })
    }
}

/// A named read: which entity, found by which fields, in which order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AccessPattern {
    pub name: String,
    pub entity: String,
    /// The fields the caller knows, with an example value each (text, as typed).
    #[serde(default)]
    pub given: BTreeMap<String, String>,
    /// A range on one field (`recordedAt` between two instants).
    #[serde(default)]
    pub range: Option<FieldRange>,
    /// The field the results are ordered by, if the order matters.
    #[serde(default)]
    pub order_by: Option<String>,
    #[serde(default)]
    pub descending: bool,
    /// Items per call (`Limit`).
    #[serde(default)]
    pub limit: Option<u32>,
    /// Fields the caller reads (for a suggested index's projection); empty means all.
    #[serde(default)]
    pub reads: Vec<String>,
    /// Calls per second in production.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub rate_per_second: f64,
    #[serde(default)]
    pub consistent: bool,
}

/// A condition on one field's values (rule B.5's sort-key operators).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum FieldRange {
    Between {
        field: String,
        low: String,
        high: String,
    },
    BeginsWith {
        field: String,
        prefix: String,
    },
    AtLeast {
        field: String,
        value: String,
    },
    AtMost {
        field: String,
        value: String,
    },
}

impl FieldRange {
    pub fn field(&self) -> &str {
        match self {
            FieldRange::Between { field, .. }
            | FieldRange::BeginsWith { field, .. }
            | FieldRange::AtLeast { field, .. }
            | FieldRange::AtMost { field, .. } => field,
        }
    }
}

impl Model {
    pub fn table(&self, name: &str) -> Option<&TableModel> {
        self.tables.iter().find(|t| t.name == name)
    }

    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    /// Parses a model from its JSON.
    pub fn from_json(text: &str) -> Result<Model, crate::ModelError> {
        serde_json::from_str(text)
            .map_err(|e| crate::ModelError::model(format!("the model is not valid JSON: {e}")))
    }

    /// The model's JSON, pretty-printed, ending with a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

impl Entity {
    pub fn key(&self, attribute: &str) -> Option<&KeyFill> {
        self.keys.iter().find(|k| k.attribute == attribute)
    }

    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}
