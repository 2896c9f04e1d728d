//! Key templates: `VEH#{vehicleId}`, `TS#{recordedAt}`, `META`.
//!
//! A template is literal text with fields in braces; `{{` and `}}` stand for a brace itself. A
//! field name is what DynamoDB allows as an attribute name here: 1–255 characters (rule B.8),
//! none of them a brace. Expanding a template puts each field's value in its place: the text
//! of an S value, the digits of an N value as the item holds them. A template for an N or B key
//! attribute must be exactly one field (`{orderTotal}`), since a number or bytes cannot be
//! spliced into text.

use std::collections::BTreeMap;

use dynotable_types::{AttributeValue, Number, ScalarAttributeType};
use serde::Serialize;

use crate::ModelError;

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "camelCase")]
pub enum Segment {
    Literal(String),
    Field(String),
}

/// A parsed key template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Template {
    pub segments: Vec<Segment>,
}

impl Template {
    pub fn parse(text: &str) -> Result<Template, ModelError> {
        let mut segments = Vec::new();
        let mut literal = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    literal.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    literal.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some('{') | None => {
                                return Err(ModelError::template(format!(
                                    "template {text:?}: a field opened with {{ is not closed"
                                )));
                            }
                            Some(c) => name.push(c),
                        }
                    }
                    // Rule B.8: attribute names are 1 to 255 characters.
                    if name.is_empty() || name.len() > 255 {
                        return Err(ModelError::template(format!(
                            "template {text:?}: a field name must have 1 to 255 characters"
                        )));
                    }
                    if !literal.is_empty() {
                        segments.push(Segment::Literal(std::mem::take(&mut literal)));
                    }
                    segments.push(Segment::Field(name));
                }
                '}' => {
                    return Err(ModelError::template(format!(
                        "template {text:?}: a }} closes no field (write }}}} for a brace)"
                    )));
                }
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            segments.push(Segment::Literal(literal));
        }
        if segments.is_empty() {
            return Err(ModelError::template(
                "a key template cannot be empty (rule B.7: key values are never empty)",
            ));
        }
        Ok(Template { segments })
    }

    /// The fields the template names, in order.
    pub fn fields(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Field(name) => Some(name.as_str()),
            Segment::Literal(_) => None,
        })
    }

    /// The literal text before the first field (all of it for a constant like `META`).
    pub fn prefix(&self) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Field(_) => break,
            }
        }
        out
    }

    /// The one field a template consists of, when it is nothing else (`{depotCode}`).
    pub fn single_field(&self) -> Option<&str> {
        match self.segments.as_slice() {
            [Segment::Field(name)] => Some(name),
            _ => None,
        }
    }

    /// The text before `field` when `field` is the template's last segment and every field
    /// before it is known in `given`: what a `begins_with` or range condition on the key can be
    /// built from (`TS#` for `TS#{recordedAt}`).
    pub fn head_before(&self, field: &str, given: &BTreeMap<String, String>) -> Option<String> {
        let (last, head) = self.segments.split_last()?;
        if *last != Segment::Field(field.to_owned()) {
            return None;
        }
        let mut out = String::new();
        for segment in head {
            match segment {
                Segment::Literal(text) => out.push_str(text),
                Segment::Field(name) => out.push_str(given.get(name)?),
            }
        }
        Some(out)
    }

    /// The key value for an attribute of type `ty`, the fields taken from `values`.
    pub fn expand(
        &self,
        ty: ScalarAttributeType,
        values: &BTreeMap<String, AttributeValue>,
    ) -> Result<AttributeValue, ModelError> {
        let value_of = |name: &str| {
            values
                .get(name)
                .ok_or_else(|| ModelError::template(format!("the field {name} has no value")))
        };
        match ty {
            ScalarAttributeType::S => {
                let mut out = String::new();
                for segment in &self.segments {
                    match segment {
                        Segment::Literal(text) => out.push_str(text),
                        Segment::Field(name) => match value_of(name)? {
                            AttributeValue::S(text) => out.push_str(text),
                            AttributeValue::N(number) => out.push_str(&number.to_string()),
                            other => {
                                return Err(ModelError::template(format!(
                                    "the field {name} is a {}; only S and N fields go into a text key",
                                    other.attribute_type().as_str()
                                )));
                            }
                        },
                    }
                }
                // Rule B.7: a key attribute's value is never empty.
                if out.is_empty() {
                    return Err(ModelError::template(
                        "the key expands to an empty string (rule B.7: key values are never empty)",
                    ));
                }
                Ok(AttributeValue::S(out))
            }
            ScalarAttributeType::N | ScalarAttributeType::B => {
                let Some(name) = self.single_field() else {
                    return Err(ModelError::template(format!(
                        "a key of type {ty} takes a template of one field alone, like {{amount}}"
                    )));
                };
                let value = value_of(name)?;
                match (ty, value) {
                    (ScalarAttributeType::N, AttributeValue::N(_))
                    | (ScalarAttributeType::B, AttributeValue::B(_)) => Ok(value.clone()),
                    (ScalarAttributeType::N, AttributeValue::S(text)) => Number::parse(text)
                        .map(AttributeValue::N)
                        .map_err(|e| ModelError::template(format!("the field {name}: {e}"))),
                    _ => Err(ModelError::template(format!(
                        "the field {name} is a {}, the key is {ty}",
                        value.attribute_type().as_str()
                    ))),
                }
            }
        }
    }

    /// Expands with example values given as text (an access pattern's `given`).
    pub fn expand_text(
        &self,
        ty: ScalarAttributeType,
        given: &BTreeMap<String, String>,
    ) -> Result<AttributeValue, ModelError> {
        let values = given
            .iter()
            .map(|(k, v)| (k.clone(), AttributeValue::S(v.clone())))
            .collect();
        self.expand(ty, &values)
    }
}
