//! Is the model one DynamoDB would take? Two steps, shape before semantics:
//!
//! 1. Each table as the CreateTable request it becomes ([`crate::export::create_table`]) goes
//!    through the engine's own CreateTable validation (`dynotable_engine::check_create_table`,
//!    rules B.7, B.8, B.10): names, key types, attribute definitions, index counts and
//!    projections are refused with the service's exception and message, the same rule set the
//!    engine and the app's create-table form use. No engine is opened.
//! 2. The model's own references: each entity's table exists; it fills the table's whole key
//!    (rule B.7: every item carries the primary key) with full presence; every key attribute it
//!    fills belongs to the table or an index; its templates parse and name its fields or, for a
//!    template of one field, a field of a matching type; each access pattern names an entity
//!    and fields it has.

use std::collections::BTreeSet;

use dynotable_types::ScalarAttributeType;

use crate::export::create_table::create_table_request;
use crate::model::{FieldType, Model};
use crate::template::Template;
use crate::{ModelError, ModelPart};

/// Checks `model`; the first problem found is the error.
pub fn validate(model: &Model) -> Result<(), ModelError> {
    let mut names = BTreeSet::new();
    for table in &model.tables {
        if !names.insert(table.name.as_str()) {
            return Err(
                ModelError::model(format!("the table {} is defined twice", table.name)).at(
                    ModelPart::Table,
                    &table.name,
                    None,
                ),
            );
        }
        let body = create_table_request(table).to_string();
        dynotable_engine::check_create_table(body.as_bytes())
            .map_err(|e| ModelError::create_table(&table.name, e))?;
    }
    let mut entity_names = BTreeSet::new();
    for entity in &model.entities {
        if !entity_names.insert(entity.name.as_str()) {
            return Err(
                ModelError::model(format!("the entity {} is defined twice", entity.name)).at(
                    ModelPart::Entity,
                    &entity.name,
                    None,
                ),
            );
        }
        let table = model.table(&entity.table).ok_or_else(|| {
            ModelError::model(format!(
                "entity {}: the model has no table {}",
                entity.name, entity.table
            ))
            .at(ModelPart::Entity, &entity.name, Some("table".into()))
        })?;
        let key_types = table.key_attributes();
        for key in std::iter::once(&table.partition_key).chain(&table.sort_key) {
            match entity.key(&key.name) {
                None => {
                    return Err(ModelError::model(format!(
                        "entity {}: every item carries the table's key (rule B.7), so it needs a template for {}",
                        entity.name, key.name
                    ))
                    .at(ModelPart::Entity, &entity.name, Some(format!("key:{}", key.name))));
                }
                Some(fill) if fill.presence < 1.0 => {
                    return Err(ModelError::model(format!(
                        "entity {}: {} is part of the table's key, so every item has it (presence 1)",
                        entity.name, key.name
                    ))
                    .at(
                        ModelPart::Entity,
                        &entity.name,
                        Some(format!("key:{}", key.name)),
                    ));
                }
                Some(_) => {}
            }
        }
        let mut filled = BTreeSet::new();
        for fill in &entity.keys {
            if !filled.insert(fill.attribute.as_str()) {
                return Err(ModelError::model(format!(
                    "entity {}: {} is filled twice",
                    entity.name, fill.attribute
                ))
                .at(
                    ModelPart::Entity,
                    &entity.name,
                    Some(format!("key:{}", fill.attribute)),
                ));
            }
            let Some(ty) = key_types.get(fill.attribute.as_str()) else {
                return Err(ModelError::model(format!(
                    "entity {}: {} is not a key attribute of {} or of its indexes",
                    entity.name, fill.attribute, table.name
                ))
                .at(
                    ModelPart::Entity,
                    &entity.name,
                    Some(format!("key:{}", fill.attribute)),
                ));
            };
            if !(0.0..=1.0).contains(&fill.presence) {
                return Err(ModelError::model(format!(
                    "entity {}: the presence of {} must be between 0 and 1",
                    entity.name, fill.attribute
                ))
                .at(
                    ModelPart::Entity,
                    &entity.name,
                    Some(format!("key:{}", fill.attribute)),
                ));
            }
            let template = Template::parse(&fill.template).map_err(|e| {
                ModelError::template(format!(
                    "entity {}, key {}: {}",
                    entity.name, fill.attribute, e.message
                ))
                .at(
                    ModelPart::Entity,
                    &entity.name,
                    Some(format!("key:{}", fill.attribute)),
                )
            })?;
            for name in template.fields() {
                let Some(field) = entity.field(name) else {
                    return Err(ModelError::template(format!(
                        "entity {}, key {}: the template names {name}, which is not a field",
                        entity.name, fill.attribute
                    ))
                    .at(
                        ModelPart::Entity,
                        &entity.name,
                        Some(format!("key:{}", fill.attribute)),
                    ));
                };
                let fits = match ty {
                    ScalarAttributeType::S => matches!(field.ty, FieldType::S | FieldType::N),
                    ScalarAttributeType::N => field.ty == FieldType::N,
                    ScalarAttributeType::B => field.ty == FieldType::B,
                };
                if !fits || (*ty != ScalarAttributeType::S && template.single_field().is_none()) {
                    return Err(ModelError::template(format!(
                        "entity {}, key {} ({ty}): the field {name} is {}; an S key takes S and N fields, an N or B key one field of its own type",
                        entity.name,
                        fill.attribute,
                        field.ty.as_str()
                    ))
                    .at(ModelPart::Entity, &entity.name, Some(format!("key:{}", fill.attribute))));
                }
            }
        }
    }
    for pattern in &model.patterns {
        let entity = model.entity(&pattern.entity).ok_or_else(|| {
            ModelError::pattern(format!(
                "pattern {:?}: the model has no entity {}",
                pattern.name, pattern.entity
            ))
            .at(ModelPart::Pattern, &pattern.name, Some("entity".into()))
        })?;
        let named = pattern
            .given
            .keys()
            .map(|name| (name.as_str(), format!("given:{name}")))
            .chain(pattern.range.as_ref().map(|r| (r.field(), "range".to_owned())))
            .chain(pattern.order_by.as_deref().map(|o| (o, "orderBy".to_owned())));
        for (name, member) in named {
            if entity.field(name).is_none() {
                return Err(ModelError::pattern(format!(
                    "pattern {:?}: {name} is not a field of {}",
                    pattern.name, entity.name
                ))
                .at(ModelPart::Pattern, &pattern.name, Some(member)));
            }
        }
        if !(pattern.rate_per_second.is_finite() && pattern.rate_per_second >= 0.0) {
            return Err(ModelError::pattern(format!(
                "pattern {:?}: the rate must be a number ≥ 0",
                pattern.name
            ))
            .at(ModelPart::Pattern, &pattern.name, Some("rate".into())));
        }
    }
    Ok(())
}
