//! The member constraints of a table's definition (attribute definitions, key schemas, index
//! projections, throughput), which CreateTable and UpdateTable list before anything else (rule
//! B.15).

use crate::api::{AttributeDefinition, KeySchemaElement, Projection, ProvisionedThroughput};
use crate::shape::Shape;

/// One member of AttributeDefinitions, at `attributeDefinitions.<position>.member`.
pub(crate) fn attribute_definition_shape(shape: &mut Shape, position: usize, d: &AttributeDefinition) {
    let prefix = format!("attributeDefinitions.{position}.member");
    if shape.required(&format!("{prefix}.attributeName"), d.attribute_name.as_ref())
        && let Some(name) = &d.attribute_name
    {
        shape.length(&format!("{prefix}.attributeName"), name, 1, 255);
    }
    shape.required(&format!("{prefix}.attributeType"), d.attribute_type.as_ref());
    shape.one_of(
        &format!("{prefix}.attributeType"),
        d.attribute_type.as_ref(),
        &["B", "N", "S"],
    );
}

/// The longest KeySchema of a table or LSI (one HASH, one RANGE) and of a GSI (rule B.18.1: up
/// to four of each).
pub(crate) const MAX_KEY_SCHEMA: usize = 2;
pub(crate) const MAX_GSI_KEY_SCHEMA: usize = 2 * MAX_KEY_PART;
/// Rule B.18.1: at most four attributes in a GSI's partition key, and four in its sort key.
pub(crate) const MAX_KEY_PART: usize = 4;

/// The member constraints of a KeySchema of at most `max` elements.
pub(crate) fn key_schema_shape(
    shape: &mut Shape,
    field: &str,
    key_schema: Option<&[KeySchemaElement]>,
    max: usize,
) {
    let Some(elements) = key_schema else {
        shape.required::<()>(field, None);
        return;
    };
    for (i, element) in elements.iter().enumerate() {
        let prefix = format!("{field}.{}.member", i + 1);
        if let Some(name) = &element.attribute_name {
            shape.length(&format!("{prefix}.attributeName"), name, 1, 255);
        } else {
            shape.required::<()>(&format!("{prefix}.attributeName"), None);
        }
        shape.required(&format!("{prefix}.keyType"), element.key_type.as_ref());
        shape.one_of(
            &format!("{prefix}.keyType"),
            element.key_type.as_ref(),
            &["HASH", "RANGE"],
        );
    }
    shape.list_length(field, &render_key_schema(elements), elements.len(), 1, max);
}

pub(crate) fn index_shape(
    shape: &mut Shape,
    prefix: &str,
    name: Option<&String>,
    (key_schema, max): (Option<&[KeySchemaElement]>, usize),
    projection: Option<&Projection>,
) {
    shape.name(&format!("{prefix}.indexName"), name);
    key_schema_shape(shape, &format!("{prefix}.keySchema"), key_schema, max);
    match projection {
        None => {
            shape.required::<()>(&format!("{prefix}.projection"), None);
        }
        Some(p) => shape.one_of(
            &format!("{prefix}.projection.projectionType"),
            p.projection_type.as_ref(),
            &["ALL", "INCLUDE", "KEYS_ONLY"],
        ),
    }
}

pub(crate) fn throughput_shape(shape: &mut Shape, prefix: &str, t: &ProvisionedThroughput) {
    // Rule B.15: the service lists writeCapacityUnits before readCapacityUnits (dynalite's
    // recording).
    shape.required(
        &format!("{prefix}.writeCapacityUnits"),
        t.write_capacity_units.as_ref(),
    );
    shape.at_least(&format!("{prefix}.writeCapacityUnits"), t.write_capacity_units, 1);
    shape.required(
        &format!("{prefix}.readCapacityUnits"),
        t.read_capacity_units.as_ref(),
    );
    shape.at_least(&format!("{prefix}.readCapacityUnits"), t.read_capacity_units, 1);
}

/// How the service renders a key schema in a constraint message.
fn render_key_schema(elements: &[KeySchemaElement]) -> String {
    let rendered: Vec<String> = elements
        .iter()
        .map(|e| {
            format!(
                "KeySchemaElement(attributeName={}, keyType={})",
                e.attribute_name.as_deref().unwrap_or("null"),
                e.key_type.as_deref().unwrap_or("null")
            )
        })
        .collect();
    format!("[{}]", rendered.join(", "))
}
