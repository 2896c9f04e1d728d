//! The member constraints of a table's definition (attribute definitions, key schemas, index
//! projections, throughput, table class), which CreateTable and UpdateTable list before anything
//! else (rules B.15, B.21).

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
    projection_shape(shape, &format!("{prefix}.projection"), projection);
}

/// An index's Projection: required, its type one of the enumeration, and at most
/// [`MAX_NON_KEY_ATTRIBUTES`] NonKeyAttributes of 1–255 characters each (rule B.21.3). An empty
/// list keeps its own sentence, after the list (`projection_of`; docs/compatibility.md).
pub(crate) fn projection_shape(shape: &mut Shape, field: &str, projection: Option<&Projection>) {
    let Some(p) = projection else {
        shape.required::<()>(field, None);
        return;
    };
    shape.one_of(
        &format!("{field}.projectionType"),
        p.projection_type.as_ref(),
        &["ALL", "INCLUDE", "KEYS_ONLY"],
    );
    if let Some(names) = &p.non_key_attributes {
        let list = format!("{field}.nonKeyAttributes");
        for (i, name) in names.iter().enumerate() {
            shape.length(&format!("{list}.{}.member", i + 1), name, 1, 255);
        }
        let rendered = format!("[{}]", names.join(", "));
        shape.list_length(&list, &rendered, names.len(), 0, MAX_NON_KEY_ATTRIBUTES);
    }
}

/// The most NonKeyAttributes one index's Projection lists (API model; rule B.7 bounds the sum
/// over a table's indexes at 100).
const MAX_NON_KEY_ATTRIBUTES: usize = 20;

/// A table class of the enumeration (rule B.21.3), listed in the API model's order: the
/// service's is not recorded (docs/compatibility.md).
pub(crate) fn table_class_shape(shape: &mut Shape, table_class: Option<&String>) {
    shape.one_of(
        "tableClass",
        table_class,
        &["STANDARD", "STANDARD_INFREQUENT_ACCESS"],
    );
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
