//! The GSI that would serve a pattern no key serves, and what it adds to every write.
//!
//! The index is keyed by the first given field (its partition key: the Query's `=`, rule
//! B.5) and by the range or order field (its sort key). A key attribute the entity already
//! fills from that field alone after constant text (`recordedAt` = `TS#{recordedAt}`) is
//! reused as it is; otherwise the field fills a new attribute straight (`{depotCode}`), named
//! after it, or `<field>Key` when the name is taken by a key already. The projection is `INCLUDE` of
//! the fields the pattern reads when it names them, else `ALL`. Its name is `By<Field>`.
//!
//! Its write cost follows rule B.3 (index write amplification): every new item of the entity
//! that carries the index keys writes one index entry, sized on the entry (keys and
//! projection, `dynotable_engine::capacity::index_entry_image`) and rounded up to 1 KB — the
//! sample's average, times the entity's writes per second, over a 730-hour month at the
//! engine's on-demand write price (rule B.12).

use dynotable_engine::capacity::index_entry_image;
use dynotable_engine::capacity::pricing::{HOURS_PER_MONTH, PriceTable};
use dynotable_engine::capacity::write_blocks;
use dynotable_types::ScalarAttributeType;
use serde::{Deserialize, Serialize};

use crate::ModelError;
use crate::collections::{key_schema, projection_schema};
use crate::export::pascal;
use crate::generate::Sample;
use crate::model::{AccessPattern, FieldType, IndexModel, KeyAttr, KeyFill, Model, Projection};
use crate::patterns::PRICE_REGION;
use crate::template::Template;

/// A suggested GSI and what it costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub table: String,
    pub entity: String,
    pub index: IndexModel,
    /// The key attributes the entity must fill for its items to be in the index.
    pub fills: Vec<KeyFill>,
    /// The sample's average index entry, and the write units one entity write adds (rule B.3).
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub entry_bytes: u64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_units_per_write: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_units_per_month: f64,
    #[cfg_attr(feature = "specta", specta(type = specta_typescript::Number))]
    pub write_cost_per_month: f64,
    pub currency: String,
}

/// The GSI for `pattern`.
pub fn suggest(model: &Model, sample: &Sample, pattern: &AccessPattern) -> Result<Suggestion, ModelError> {
    let entity = model.entity(&pattern.entity).ok_or_else(|| {
        ModelError::pattern(format!(
            "pattern {:?}: no entity {}",
            pattern.name, pattern.entity
        ))
    })?;
    let table = model
        .table(&entity.table)
        .ok_or_else(|| ModelError::pattern(format!("entity {}: no table {}", entity.name, entity.table)))?;
    let existing = table.key_attributes();
    let key_for = |field: &str| -> Result<(KeyAttr, KeyFill), ModelError> {
        let declared = entity.field(field).ok_or_else(|| {
            ModelError::pattern(format!(
                "pattern {:?}: {field} is not a field of {}",
                pattern.name, entity.name
            ))
        })?;
        let ty = match declared.ty {
            FieldType::N => ScalarAttributeType::N,
            FieldType::B => ScalarAttributeType::B,
            _ => ScalarAttributeType::S,
        };
        // A key attribute the entity already fills from this field alone, after constant text
        // (`recordedAt` from `TS#{recordedAt}`), serves as it is: same order, nothing added to
        // the item.
        let reused = entity.keys.iter().find(|k| {
            Template::parse(&k.template)
                .is_ok_and(|t| t.fields().eq([field]) && t.head_before(field, &Default::default()).is_some())
        });
        if let Some(fill) = reused
            && let Some(ty) = existing.get(fill.attribute.as_str())
        {
            return Ok((
                KeyAttr {
                    name: fill.attribute.clone(),
                    ty: *ty,
                },
                fill.clone(),
            ));
        }
        // A field spelled into another key (vehicleId in `VEH#{vehicleId}#…`) is not stored
        // on its own under a key's name, so the index key gets a name of its own.
        let name = if existing.contains_key(field) {
            format!("{field}Key")
        } else {
            field.to_owned()
        };
        let fill = KeyFill {
            attribute: name.clone(),
            template: format!("{{{field}}}"),
            presence: 1.0,
        };
        Ok((KeyAttr { name, ty }, fill))
    };
    let Some(partition_field) = pattern.given.keys().next() else {
        return Err(ModelError::pattern(format!(
            "pattern {:?} gives no field to look items up by: only a Scan can serve it",
            pattern.name
        )));
    };
    let (partition_key, partition_fill) = key_for(partition_field)?;
    let sort_field = pattern
        .range
        .as_ref()
        .map(|r| r.field().to_owned())
        .or_else(|| pattern.order_by.clone())
        .filter(|f| f != partition_field);
    let sort = sort_field.as_deref().map(key_for).transpose()?;
    let projection = if pattern.reads.is_empty() {
        Projection::All
    } else {
        Projection::Include(pattern.reads.clone())
    };
    let mut name = format!("By{}", pascal(partition_field));
    while table.index(&name).is_some() {
        name.push('2');
    }
    let index = IndexModel {
        name,
        partition_key,
        sort_key: sort.as_ref().map(|(k, _)| k.clone()),
        projection,
    };
    let mut fills = vec![partition_fill];
    fills.extend(sort.map(|(_, f)| f));
    fills.retain(|f| entity.key(&f.attribute).is_none());

    // The entries the entity's sample items would make in the index.
    let made = sample.entity(&entity.name);
    let table_key = key_schema(&table.partition_key, table.sort_key.as_ref());
    let index_key = key_schema(&index.partition_key, index.sort_key.as_ref());
    let mut sizes = Vec::new();
    for (record, item) in made.iter().flat_map(|m| m.records.iter().zip(&m.items)) {
        let mut item = item.clone();
        for fill in &fills {
            let key = if fill.attribute == index.partition_key.name {
                &index.partition_key
            } else {
                index.sort_key.as_ref().unwrap_or(&index.partition_key)
            };
            item.insert(
                fill.attribute.clone(),
                Template::parse(&fill.template)?.expand(key.ty, record)?,
            );
        }
        if let Some(image) = index_entry_image(
            &table_key,
            &index.name,
            &index_key,
            &projection_schema(&index.projection),
            &item,
        )
        .map_err(|e| ModelError::pattern(e.to_string()))?
        {
            sizes.push(image.size);
        }
    }
    let entry_bytes = if sizes.is_empty() {
        0
    } else {
        sizes.iter().sum::<u64>() / sizes.len() as u64
    };
    let write_units_per_write = if sizes.is_empty() {
        1.0
    } else {
        sizes.iter().map(|s| write_blocks(*s)).sum::<u64>() as f64 / sizes.len() as f64
    };
    let prices = PriceTable::default();
    let region = prices
        .region(PRICE_REGION)
        .expect("the default price table has us-east-1");
    let write_units_per_month = write_units_per_write * entity.writes_per_second * HOURS_PER_MONTH * 3600.0;
    Ok(Suggestion {
        table: table.name.clone(),
        entity: entity.name.clone(),
        index,
        fills,
        entry_bytes,
        write_units_per_write,
        write_units_per_month,
        write_cost_per_month: write_units_per_month / 1e6 * region.on_demand_write_per_million,
        currency: region.currency.clone(),
    })
}

/// The model with `suggestion` taken: the GSI added to its table and the fills to its entity.
pub fn apply(model: &Model, suggestion: &Suggestion) -> Result<Model, ModelError> {
    let mut model = model.clone();
    let table = model
        .tables
        .iter_mut()
        .find(|t| t.name == suggestion.table)
        .ok_or_else(|| ModelError::model(format!("the model has no table {}", suggestion.table)))?;
    if table.index(&suggestion.index.name).is_some() {
        return Err(ModelError::model(format!(
            "the table {} already has an index {}",
            suggestion.table, suggestion.index.name
        )));
    }
    table.global_indexes.push(suggestion.index.clone());
    let entity = model
        .entities
        .iter_mut()
        .find(|e| e.name == suggestion.entity)
        .ok_or_else(|| ModelError::model(format!("the model has no entity {}", suggestion.entity)))?;
    entity.keys.extend(suggestion.fills.iter().cloned());
    crate::validate::validate(&model)?;
    Ok(model)
}
