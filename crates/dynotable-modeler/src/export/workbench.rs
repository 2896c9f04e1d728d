//! NoSQL Workbench's data-model JSON (format version 3.0), imported and exported.
//!
//! The format, as Workbench writes it: `ModelName`; `ModelMetadata` (`Author`, `DateCreated`,
//! `DateLastModified`, `Description`, `AWSService`, `Version`); `DataModel`, one entry per
//! table with `TableName`, `KeyAttributes` (`PartitionKey`, `SortKey`, each `AttributeName` and
//! `AttributeType`), `NonKeyAttributes` (every other attribute with its type, index keys
//! included), `TableFacets` (named views: `FacetName`, `KeyAttributeAlias` with
//! `PartitionKeyAlias` / `SortKeyAlias`, `TableData`, `NonKeyAttributes`),
//! `GlobalSecondaryIndexes` (`IndexName`, `KeyAttributes`, `Projection`), `TableData` (the
//! sample items in DynamoDB JSON: key attributes first, then in `NonKeyAttributes` order),
//! `DataAccess`, `SampleDataFormats`, `BillingMode` and `ProvisionedCapacitySettings`.
//! Members are written in that order, pretty-printed with two spaces, as Workbench does.
//!
//! Mapping: a table is a table; a facet is an entity type whose key templates are its aliases
//! (`VEH#{vehicleId}` as an alias stays that template; a plain alias `pk` is the template
//! `{pk}`); `TableData` holds the table's typed items and, on export, the generated sample.
//! What the model has no place for (dates, the format version, `DataAccess`,
//! `SampleDataFormats`, auto scaling, each facet's own lists) is kept in
//! [`WorkbenchExtras`] — the members' JSON text as it was read — so a file imported and
//! exported again comes out byte for byte the same. Local secondary indexes are written as
//! `LocalSecondaryIndexes` in the shape of `GlobalSecondaryIndexes` (the published format
//! documents none), after them.

use std::collections::BTreeMap;

use dynotable_types::{AttributeValue, Item, ScalarAttributeType};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::value::RawValue;

use crate::ModelError;
use crate::generate::{Generator, Sample};
use crate::model::{
    Billing, Entity, Field, FieldType, IndexModel, KeyAttr, KeyFill, Model, Projection, TableModel,
};
use crate::template::Template;

/// What a Workbench file carries that the model has no member for.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct WorkbenchExtras {
    pub date_created: String,
    pub date_last_modified: String,
    pub aws_service: String,
    pub version: String,
    #[serde(default)]
    pub tables: BTreeMap<String, TableExtras>,
}

/// Per table: raw JSON text of the members kept as they were, and the lists' order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct TableExtras {
    /// `NonKeyAttributes` as imported: names and types, in order.
    pub non_key_attributes: Vec<(String, String)>,
    pub has_facets: bool,
    pub has_indexes: bool,
    pub has_data: bool,
    pub data_access: Option<String>,
    pub sample_data_formats: Option<String>,
    pub provisioned_capacity_settings: Option<String>,
    /// Per facet: its `NonKeyAttributes` and its `TableData` text.
    pub facets: BTreeMap<String, (Vec<String>, String)>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct File {
    model_name: String,
    model_metadata: Metadata,
    data_model: Vec<WbTable>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Metadata {
    #[serde(default)]
    author: String,
    #[serde(default)]
    date_created: String,
    #[serde(default)]
    date_last_modified: String,
    #[serde(default)]
    description: String,
    #[serde(rename = "AWSService", default)]
    aws_service: String,
    #[serde(default)]
    version: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbAttr {
    attribute_name: String,
    attribute_type: String,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbKeys {
    partition_key: WbAttr,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    sort_key: Option<WbAttr>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbAlias {
    partition_key_alias: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    sort_key_alias: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbFacet {
    facet_name: String,
    key_attribute_alias: WbAlias,
    #[serde(default = "empty_list")]
    table_data: Box<RawValue>,
    #[serde(default)]
    non_key_attributes: Vec<String>,
}

fn empty_list() -> Box<RawValue> {
    RawValue::from_string("[]".into()).expect("[] is JSON")
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbProjection {
    projection_type: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    non_key_attributes: Option<Vec<String>>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbIndex {
    index_name: String,
    key_attributes: WbKeys,
    projection: WbProjection,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct WbTable {
    table_name: String,
    key_attributes: WbKeys,
    #[serde(default)]
    non_key_attributes: Vec<WbAttr>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    table_facets: Option<Vec<WbFacet>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    global_secondary_indexes: Option<Vec<WbIndex>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    local_secondary_indexes: Option<Vec<WbIndex>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    table_data: Option<Vec<WbItem>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    data_access: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    sample_data_formats: Option<Box<RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    billing_mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    provisioned_capacity_settings: Option<Box<RawValue>>,
}

/// An item with its attributes in a chosen order.
struct WbItem(Vec<(String, AttributeValue)>);

impl Serialize for WbItem {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for WbItem {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<WbItem, D::Error> {
        let item = Item::deserialize(deserializer)?;
        Ok(WbItem(item.into_iter().collect()))
    }
}

fn raw(text: &str) -> Result<Box<RawValue>, ModelError> {
    RawValue::from_string(text.to_owned())
        .map_err(|e| ModelError::import(format!("kept JSON is not JSON: {e}")))
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Throughput {
    read_capacity_units: u64,
    write_capacity_units: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Capacity {
    provisioned_throughput: Option<Throughput>,
}

fn scalar(attr: &WbAttr, what: &str) -> Result<KeyAttr, ModelError> {
    // Rule B.7: key attributes are S, N or B.
    let ty = ScalarAttributeType::from_descriptor(&attr.attribute_type).ok_or_else(|| {
        ModelError::import(format!(
            "{what} {} has type {}; a key attribute is S, N or B",
            attr.attribute_name, attr.attribute_type
        ))
    })?;
    Ok(KeyAttr {
        name: attr.attribute_name.clone(),
        ty,
    })
}

fn projection_of(p: &WbProjection) -> Result<Projection, ModelError> {
    match p.projection_type.as_str() {
        "ALL" => Ok(Projection::All),
        "KEYS_ONLY" => Ok(Projection::KeysOnly),
        "INCLUDE" => Ok(Projection::Include(
            p.non_key_attributes.clone().unwrap_or_default(),
        )),
        other => Err(ModelError::import(format!(
            "projection type {other}: one of ALL, INCLUDE, KEYS_ONLY"
        ))),
    }
}

fn alias_template(alias: &str) -> String {
    if alias.contains('{') && Template::parse(alias).is_ok() {
        alias.to_owned()
    } else {
        format!("{{{}}}", alias.replace('{', "{{").replace('}', "}}"))
    }
}

fn placeholder_generator(ty: FieldType) -> Generator {
    match ty {
        FieldType::N => Generator::Number {
            min: 0,
            max: 1000,
            decimals: 0,
        },
        FieldType::BOOL => Generator::Flag { share: 0.5 },
        _ => Generator::Text { length: 8 },
    }
}

/// Reads a Workbench data-model file.
pub fn import(text: &str) -> Result<Model, ModelError> {
    let file: File = serde_json::from_str(text)
        .map_err(|e| ModelError::import(format!("not a NoSQL Workbench model: {e}")))?;
    let mut extras = WorkbenchExtras {
        date_created: file.model_metadata.date_created,
        date_last_modified: file.model_metadata.date_last_modified,
        aws_service: file.model_metadata.aws_service,
        version: file.model_metadata.version,
        tables: BTreeMap::new(),
    };
    let mut tables = Vec::new();
    let mut entities = Vec::new();
    for t in file.data_model {
        let partition_key = scalar(&t.key_attributes.partition_key, "the partition key")?;
        let sort_key = t
            .key_attributes
            .sort_key
            .as_ref()
            .map(|k| scalar(k, "the sort key"))
            .transpose()?;
        let index = |i: &WbIndex| -> Result<IndexModel, ModelError> {
            Ok(IndexModel {
                name: i.index_name.clone(),
                partition_key: scalar(&i.key_attributes.partition_key, "an index partition key")?,
                sort_key: i
                    .key_attributes
                    .sort_key
                    .as_ref()
                    .map(|k| scalar(k, "an index sort key"))
                    .transpose()?,
                projection: projection_of(&i.projection)?,
            })
        };
        let global_indexes = t
            .global_secondary_indexes
            .iter()
            .flatten()
            .map(index)
            .collect::<Result<Vec<_>, _>>()?;
        let local_indexes = t
            .local_secondary_indexes
            .iter()
            .flatten()
            .map(index)
            .collect::<Result<Vec<_>, _>>()?;
        let billing = match (t.billing_mode.as_deref(), &t.provisioned_capacity_settings) {
            (Some("PROVISIONED") | None, Some(settings)) => {
                let capacity: Capacity = serde_json::from_str(settings.get())
                    .map_err(|e| ModelError::import(format!("ProvisionedCapacitySettings: {e}")))?;
                match capacity.provisioned_throughput {
                    Some(t) => Billing::Provisioned {
                        read_units: t.read_capacity_units,
                        write_units: t.write_capacity_units,
                    },
                    None => Billing::OnDemand,
                }
            }
            _ => Billing::OnDemand,
        };
        let types: BTreeMap<&str, &str> = t
            .non_key_attributes
            .iter()
            .map(|a| (a.attribute_name.as_str(), a.attribute_type.as_str()))
            .collect();
        let table = TableModel {
            name: t.table_name.clone(),
            partition_key,
            sort_key,
            billing,
            global_indexes,
            local_indexes,
            items: t
                .table_data
                .iter()
                .flatten()
                .map(|i| i.0.iter().cloned().collect())
                .collect(),
        };
        let key_types = table.key_attributes();
        let mut facets = BTreeMap::new();
        for facet in t.table_facets.iter().flatten() {
            let mut fields: Vec<Field> = Vec::new();
            let add = |name: &str, ty: FieldType, fields: &mut Vec<Field>| {
                if !fields.iter().any(|f| f.name == name) {
                    fields.push(Field {
                        name: name.to_owned(),
                        ty,
                        generator: placeholder_generator(ty),
                    });
                }
            };
            let mut keys = Vec::new();
            let aliases = [
                Some((
                    &table.partition_key,
                    &facet.key_attribute_alias.partition_key_alias,
                )),
                table
                    .sort_key
                    .as_ref()
                    .zip(facet.key_attribute_alias.sort_key_alias.as_ref()),
            ];
            for (key, alias) in aliases.into_iter().flatten() {
                let template = alias_template(alias);
                let parsed = Template::parse(&template)?;
                let ty = match (key.ty, parsed.single_field()) {
                    (ScalarAttributeType::N, Some(_)) => FieldType::N,
                    (ScalarAttributeType::B, Some(_)) => FieldType::B,
                    _ => FieldType::S,
                };
                for name in parsed.fields() {
                    add(name, ty, &mut fields);
                }
                keys.push(KeyFill {
                    attribute: key.name.clone(),
                    template,
                    presence: 1.0,
                });
            }
            for name in &facet.non_key_attributes {
                let ty = types
                    .get(name.as_str())
                    .and_then(|t| FieldType::from_descriptor(t))
                    .unwrap_or(FieldType::S);
                add(name, ty, &mut fields);
                if key_types.contains_key(name.as_str())
                    && !keys.iter().any(|k: &KeyFill| &k.attribute == name)
                {
                    keys.push(KeyFill {
                        attribute: name.clone(),
                        template: format!("{{{name}}}"),
                        presence: 1.0,
                    });
                }
            }
            facets.insert(
                facet.facet_name.clone(),
                (
                    facet.non_key_attributes.clone(),
                    facet.table_data.get().to_owned(),
                ),
            );
            entities.push(Entity {
                name: facet.facet_name.clone(),
                table: table.name.clone(),
                keys,
                fields,
                count: 0,
                writes_per_second: 0.0,
                retention_days: None,
            });
        }
        extras.tables.insert(
            t.table_name.clone(),
            TableExtras {
                non_key_attributes: t
                    .non_key_attributes
                    .iter()
                    .map(|a| (a.attribute_name.clone(), a.attribute_type.clone()))
                    .collect(),
                has_facets: t.table_facets.is_some(),
                has_indexes: t.global_secondary_indexes.is_some(),
                has_data: t.table_data.is_some(),
                data_access: t.data_access.map(|r| r.get().to_owned()),
                sample_data_formats: t.sample_data_formats.map(|r| r.get().to_owned()),
                provisioned_capacity_settings: t.provisioned_capacity_settings.map(|r| r.get().to_owned()),
                facets,
            },
        );
        tables.push(table);
    }
    Ok(Model {
        name: file.model_name,
        description: file.model_metadata.description,
        author: file.model_metadata.author,
        tables,
        entities,
        patterns: Vec::new(),
        workbench: Some(extras),
    })
}

/// Writes the model as a Workbench file: its tables, entity types as facets, typed items and
/// `sample`'s generated items as `TableData`. `now` dates a model that was not imported.
pub fn export(model: &Model, sample: Option<&Sample>, now: &str) -> Result<String, ModelError> {
    let extras = model.workbench.clone().unwrap_or_else(|| WorkbenchExtras {
        date_created: now.to_owned(),
        date_last_modified: now.to_owned(),
        aws_service: "Amazon DynamoDB".into(),
        version: "3.0".into(),
        tables: BTreeMap::new(),
    });
    let mut data_model = Vec::new();
    for table in &model.tables {
        let kept = extras.tables.get(&table.name).cloned().unwrap_or_default();
        let entities: Vec<&Entity> = model.entities.iter().filter(|e| e.table == table.name).collect();
        let table_keys = [Some(&table.partition_key), table.sort_key.as_ref()];
        let is_table_key = |name: &str| table_keys.iter().flatten().any(|k| k.name == name);
        // NonKeyAttributes: as imported, then index keys and entity attributes not yet listed.
        let mut non_key: Vec<(String, String)> = kept.non_key_attributes.clone();
        let mut push = |name: &str, ty: &str| {
            if !is_table_key(name) && !non_key.iter().any(|(n, _)| n == name) {
                non_key.push((name.to_owned(), ty.to_owned()));
            }
        };
        for target in table.targets() {
            for key in std::iter::once(target.partition).chain(target.sort) {
                push(&key.name, key.ty.as_str());
            }
        }
        for entity in &entities {
            let in_table_key: Vec<String> = entity
                .keys
                .iter()
                .filter(|k| is_table_key(&k.attribute))
                .filter_map(|k| Template::parse(&k.template).ok())
                .flat_map(|t| t.fields().map(str::to_owned).collect::<Vec<_>>())
                .collect();
            for field in &entity.fields {
                if !in_table_key.contains(&field.name) {
                    push(&field.name, field.ty.as_str());
                }
            }
        }
        let facets: Vec<WbFacet> = entities
            .iter()
            .map(|entity| -> Result<WbFacet, ModelError> {
                let alias = |key: Option<&KeyAttr>| -> Option<String> {
                    let fill = entity.key(&key?.name)?;
                    let template = Template::parse(&fill.template).ok()?;
                    Some(
                        template
                            .single_field()
                            .map(str::to_owned)
                            .unwrap_or_else(|| fill.template.clone()),
                    )
                };
                let alias_fields: Vec<String> =
                    [alias(Some(&table.partition_key)), alias(table.sort_key.as_ref())]
                        .into_iter()
                        .flatten()
                        .flat_map(|a| {
                            Template::parse(&alias_template(&a))
                                .map(|t| t.fields().map(str::to_owned).collect::<Vec<_>>())
                                .unwrap_or_default()
                        })
                        .collect();
                let (listed, data) = kept.facets.get(&entity.name).cloned().unwrap_or_default();
                let mut names: Vec<String> =
                    listed.into_iter().filter(|n| entity.field(n).is_some()).collect();
                for field in &entity.fields {
                    if !alias_fields.contains(&field.name) && !names.contains(&field.name) {
                        names.push(field.name.clone());
                    }
                }
                Ok(WbFacet {
                    facet_name: entity.name.clone(),
                    key_attribute_alias: WbAlias {
                        partition_key_alias: alias(Some(&table.partition_key))
                            .unwrap_or_else(|| table.partition_key.name.clone()),
                        sort_key_alias: table
                            .sort_key
                            .as_ref()
                            .map(|k| alias(Some(k)).unwrap_or_else(|| k.name.clone())),
                    },
                    table_data: if data.is_empty() {
                        empty_list()
                    } else {
                        raw(&data)?
                    },
                    non_key_attributes: names,
                })
            })
            .collect::<Result<_, _>>()?;
        let index = |i: &IndexModel| WbIndex {
            index_name: i.name.clone(),
            key_attributes: WbKeys {
                partition_key: WbAttr {
                    attribute_name: i.partition_key.name.clone(),
                    attribute_type: i.partition_key.ty.as_str().into(),
                },
                sort_key: i.sort_key.as_ref().map(|k| WbAttr {
                    attribute_name: k.name.clone(),
                    attribute_type: k.ty.as_str().into(),
                }),
            },
            projection: match &i.projection {
                Projection::All => WbProjection {
                    projection_type: "ALL".into(),
                    non_key_attributes: None,
                },
                Projection::KeysOnly => WbProjection {
                    projection_type: "KEYS_ONLY".into(),
                    non_key_attributes: None,
                },
                Projection::Include(names) => WbProjection {
                    projection_type: "INCLUDE".into(),
                    non_key_attributes: Some(names.clone()),
                },
            },
        };
        // TableData: key attributes first, then NonKeyAttributes' order, then the rest.
        let order: Vec<&str> = table_keys
            .iter()
            .flatten()
            .map(|k| k.name.as_str())
            .chain(non_key.iter().map(|(n, _)| n.as_str()))
            .collect();
        let ordered = |item: &Item| {
            let mut out: Vec<(String, AttributeValue)> = order
                .iter()
                .filter_map(|n| item.get(*n).map(|v| ((*n).to_owned(), v.clone())))
                .collect();
            out.extend(
                item.iter()
                    .filter(|(n, _)| !order.contains(&n.as_str()))
                    .map(|(n, v)| (n.clone(), v.clone())),
            );
            WbItem(out)
        };
        let mut data: Vec<WbItem> = table.items.iter().map(ordered).collect();
        if let Some(sample) = sample {
            for made in sample.entities.iter().filter(|e| e.table == table.name) {
                data.extend(made.items.iter().map(ordered));
            }
        }
        let capacity = match table.billing {
            Billing::OnDemand => None,
            Billing::Provisioned {
                read_units,
                write_units,
            } => {
                let kept_matches = kept.provisioned_capacity_settings.as_ref().filter(|text| {
                    serde_json::from_str::<Capacity>(text)
                        .ok()
                        .and_then(|c| c.provisioned_throughput)
                        .is_some_and(|t| {
                            t.read_capacity_units == read_units && t.write_capacity_units == write_units
                        })
                });
                Some(match kept_matches {
                    Some(text) => raw(text)?,
                    None => raw(&format!(
                        "{{\n        \"ProvisionedThroughput\": {{\n          \"ReadCapacityUnits\": {read_units},\n          \"WriteCapacityUnits\": {write_units}\n        }}\n      }}"
                    ))?,
                })
            }
        };
        let imported = model
            .workbench
            .as_ref()
            .is_some_and(|w| w.tables.contains_key(&table.name));
        data_model.push(WbTable {
            table_name: table.name.clone(),
            key_attributes: WbKeys {
                partition_key: WbAttr {
                    attribute_name: table.partition_key.name.clone(),
                    attribute_type: table.partition_key.ty.as_str().into(),
                },
                sort_key: table.sort_key.as_ref().map(|k| WbAttr {
                    attribute_name: k.name.clone(),
                    attribute_type: k.ty.as_str().into(),
                }),
            },
            non_key_attributes: non_key
                .into_iter()
                .map(|(attribute_name, attribute_type)| WbAttr {
                    attribute_name,
                    attribute_type,
                })
                .collect(),
            table_facets: (!facets.is_empty() || kept.has_facets || !imported).then_some(facets),
            global_secondary_indexes: (!table.global_indexes.is_empty() || kept.has_indexes)
                .then(|| table.global_indexes.iter().map(index).collect()),
            local_secondary_indexes: (!table.local_indexes.is_empty())
                .then(|| table.local_indexes.iter().map(index).collect()),
            table_data: (!data.is_empty() || kept.has_data || !imported).then_some(data),
            data_access: Some(raw(kept
                .data_access
                .as_deref()
                .unwrap_or("{\n        \"MySql\": {}\n      }"))?),
            sample_data_formats: kept.sample_data_formats.as_deref().map(raw).transpose()?,
            billing_mode: Some(
                match table.billing {
                    Billing::OnDemand => "PAY_PER_REQUEST",
                    Billing::Provisioned { .. } => "PROVISIONED",
                }
                .into(),
            ),
            provisioned_capacity_settings: capacity,
        });
    }
    let file = File {
        model_name: model.name.clone(),
        model_metadata: Metadata {
            author: model.author.clone(),
            date_created: extras.date_created,
            date_last_modified: extras.date_last_modified,
            description: model.description.clone(),
            aws_service: extras.aws_service,
            version: extras.version,
        },
        data_model,
    };
    serde_json::to_string_pretty(&file)
        .map_err(|e| ModelError::import(format!("the model cannot be written: {e}")))
}
