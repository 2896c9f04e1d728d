//! One expression at a time: builder state → text with its placeholder maps, and typed text →
//! builder state, and the checks DynamoDB makes before it touches data.
//!
//! Both directions and the checks go through `dynotable-expr` — the parser and rules the
//! engine runs — so what the builder accepts the engine accepts, with the same messages
//! (Rule B.6/B.7, docs/dynamodb-rules.md: 4 KB per expression, 255-byte placeholder keys, 300
//! operators, 100 IN operands, undefined and unused placeholders, overlapping update paths).

use std::collections::BTreeMap;

use dynotable_expr::Placeholders;
use dynotable_types::AttributeValue;
use serde::{Deserialize, Serialize};

use crate::attributes::ExpressionAttributes;
use crate::condition::ConditionState;
use crate::error::{BuildError, Diagnostic, ExpressionParameter};
use crate::key_condition::{KeyConditionState, KeySchemaState};
use crate::update::{ProjectionState, UpdateState};

/// The builder state of one expression, tagged with the parameter it is sent in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "parameter", content = "state")]
pub enum ExpressionState {
    KeyConditionExpression(KeyConditionState),
    FilterExpression(ConditionState),
    ConditionExpression(ConditionState),
    ProjectionExpression(ProjectionState),
    UpdateExpression(UpdateState),
}

impl ExpressionState {
    pub fn parameter(&self) -> ExpressionParameter {
        match self {
            ExpressionState::KeyConditionExpression(_) => ExpressionParameter::KeyConditionExpression,
            ExpressionState::FilterExpression(_) => ExpressionParameter::FilterExpression,
            ExpressionState::ConditionExpression(_) => ExpressionParameter::ConditionExpression,
            ExpressionState::ProjectionExpression(_) => ExpressionParameter::ProjectionExpression,
            ExpressionState::UpdateExpression(_) => ExpressionParameter::UpdateExpression,
        }
    }

    /// Writes the expression, adding its names and values to `attrs` (shared by all the
    /// expressions of one request).
    pub fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        match self {
            ExpressionState::KeyConditionExpression(s) => s.write(attrs),
            ExpressionState::FilterExpression(s) | ExpressionState::ConditionExpression(s) => s.write(attrs),
            ExpressionState::ProjectionExpression(s) => s.write(attrs),
            ExpressionState::UpdateExpression(s) => s.write(attrs),
        }
    }

    /// The same expression in normal form (AND/OR groups merged, update actions by clause).
    pub fn normalised(&self) -> ExpressionState {
        match self {
            ExpressionState::FilterExpression(s) => ExpressionState::FilterExpression(s.normalised()),
            ExpressionState::ConditionExpression(s) => ExpressionState::ConditionExpression(s.normalised()),
            ExpressionState::UpdateExpression(s) => ExpressionState::UpdateExpression(s.normalised()),
            other => other.clone(),
        }
    }
}

/// An expression as text with the maps it needs: what the builder shows and sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct GeneratedExpression {
    pub parameter: ExpressionParameter,
    pub expression: String,
    #[serde(flatten)]
    pub attributes: ExpressionAttributes,
}

/// Writes one expression with fresh placeholders.
pub fn generate(state: &ExpressionState) -> Result<GeneratedExpression, BuildError> {
    let mut attributes = ExpressionAttributes::new();
    let expression = state.write(&mut attributes)?;
    Ok(GeneratedExpression {
        parameter: state.parameter(),
        expression,
        attributes,
    })
}

/// Parses a typed expression with its names and values (either map absent when `None`) and
/// turns it into builder state; a KeyConditionExpression needs the key schema of the table or
/// index it queries. Fails with DynamoDB's answer, unused placeholders included.
pub fn parse(
    parameter: ExpressionParameter,
    text: &str,
    names: Option<BTreeMap<String, String>>,
    values: Option<BTreeMap<String, AttributeValue>>,
    key_schema: Option<&KeySchemaState>,
) -> Result<ExpressionState, Diagnostic> {
    let mut placeholders = Placeholders::new(names, values)?;
    let state = match parameter {
        ExpressionParameter::KeyConditionExpression => {
            let schema = key_schema.ok_or_else(|| Diagnostic {
                exception: "ValidationException".into(),
                message: "A KeyConditionExpression is checked against the key schema of a table or index"
                    .into(),
                expression: Some(parameter),
                span: None,
            })?;
            let resolved = KeyConditionState::resolve(text, &mut placeholders, schema)?;
            ExpressionState::KeyConditionExpression(KeyConditionState::from_resolved(&resolved))
        }
        ExpressionParameter::FilterExpression | ExpressionParameter::ConditionExpression => {
            let resolved = placeholders.condition(parameter.kind(), text)?;
            let state = ConditionState::from_resolved(&resolved);
            if parameter == ExpressionParameter::FilterExpression {
                ExpressionState::FilterExpression(state)
            } else {
                ExpressionState::ConditionExpression(state)
            }
        }
        ExpressionParameter::ProjectionExpression => ExpressionState::ProjectionExpression(
            ProjectionState::from_resolved(&placeholders.projection(text)?),
        ),
        ExpressionParameter::UpdateExpression => {
            ExpressionState::UpdateExpression(UpdateState::from_resolved(&placeholders.update(text)?))
        }
    };
    placeholders.check_unused()?;
    Ok(state)
}

/// One expression of a request, as text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExpressionText {
    pub parameter: ExpressionParameter,
    pub text: String,
}

/// The order in which the service resolves a request's expressions (see `dynotable_expr::resolve`).
fn service_order(parameter: ExpressionParameter) -> u8 {
    match parameter {
        ExpressionParameter::UpdateExpression => 0,
        ExpressionParameter::ConditionExpression => 1,
        ExpressionParameter::KeyConditionExpression => 2,
        ExpressionParameter::FilterExpression => 3,
        ExpressionParameter::ProjectionExpression => 4,
    }
}

/// Everything DynamoDB would object to in a request's expressions and maps, before sending it.
///
/// The maps are checked first (a bad map stops there, as in the service); then every expression
/// is resolved in the service's order and each contributes its first error, so the UI can
/// underline a problem in each of them at once; when all resolve, names then values that no
/// expression used are reported. An empty answer means the service would accept the
/// expressions (the data may still make a condition false).
pub fn check_request(
    expressions: &[ExpressionText],
    names: Option<BTreeMap<String, String>>,
    values: Option<BTreeMap<String, AttributeValue>>,
    key_schema: Option<&KeySchemaState>,
) -> Vec<Diagnostic> {
    let mut placeholders = match Placeholders::new(names, values) {
        Ok(p) => p,
        Err(error) => return vec![error.into()],
    };
    let mut ordered: Vec<&ExpressionText> = expressions.iter().collect();
    ordered.sort_by_key(|e| service_order(e.parameter));
    // A request with a key condition is a Query: its filter may read no key attribute of the
    // table or index it reads (rule B.4, docs/dynamodb-rules.md), as the engine checks too.
    let query_key = key_schema.filter(|_| {
        expressions
            .iter()
            .any(|e| e.parameter == ExpressionParameter::KeyConditionExpression)
    });
    let mut diagnostics = Vec::new();
    for expression in ordered {
        let text = expression.text.as_str();
        let result = match expression.parameter {
            ExpressionParameter::KeyConditionExpression => match key_schema {
                Some(schema) => KeyConditionState::resolve(text, &mut placeholders, schema).map(drop),
                None => placeholders
                    .condition(dynotable_expr::ExpressionKind::KeyCondition, text)
                    .map(drop),
            },
            ExpressionParameter::FilterExpression | ExpressionParameter::ConditionExpression => placeholders
                .condition(expression.parameter.kind(), text)
                .and_then(|condition| match query_key {
                    Some(key) if expression.parameter == ExpressionParameter::FilterExpression => {
                        match condition.key_attribute_read(|name| key.has_attribute(name)) {
                            Some(name) => Err(dynotable_expr::Error {
                                expression: Some(dynotable_expr::ExpressionKind::Filter),
                                ..dynotable_expr::Error::request(format!(
                                    "Filter Expression can only contain non-primary key attributes: Primary key attribute: {name}"
                                ))
                            }),
                            None => Ok(()),
                        }
                    }
                    _ => Ok(()),
                }),
            ExpressionParameter::ProjectionExpression => placeholders.projection(text).map(drop),
            ExpressionParameter::UpdateExpression => placeholders.update(text).map(drop),
        };
        if let Err(error) = result {
            diagnostics.push(error.into());
        }
    }
    if diagnostics.is_empty()
        && let Err(error) = placeholders.check_unused()
    {
        diagnostics.push(error.into());
    }
    diagnostics
}

/// Generates every expression of a request with one set of placeholders, then checks the
/// result as [`check_request`] does: what the builder would send, and what DynamoDB would say.
pub fn generate_request(
    states: &[ExpressionState],
    key_schema: Option<&KeySchemaState>,
) -> Result<(Vec<ExpressionText>, ExpressionAttributes, Vec<Diagnostic>), BuildError> {
    let mut attributes = ExpressionAttributes::new();
    let mut texts = Vec::with_capacity(states.len());
    for state in states {
        texts.push(ExpressionText {
            parameter: state.parameter(),
            text: state.write(&mut attributes)?,
        });
    }
    let diagnostics = check_request(&texts, attributes.names(), attributes.values(), key_schema);
    Ok((texts, attributes, diagnostics))
}

/// Typed text with its maps, as the UI's text mode sends it (one argument for a command).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "PascalCase")]
pub struct TypedRequest {
    /// The request's expressions, each with the parameter it is sent in.
    pub expressions: Vec<ExpressionText>,
    #[serde(default)]
    pub expression_attribute_names: Option<BTreeMap<String, String>>,
    #[serde(default)]
    #[cfg_attr(
        feature = "specta",
        specta(type = Option<BTreeMap<String, crate::typescript::AttributeValueJson>>)
    )]
    pub expression_attribute_values: Option<BTreeMap<String, AttributeValue>>,
}

impl TypedRequest {
    /// [`check_request`] on this request.
    pub fn check(&self, key_schema: Option<&KeySchemaState>) -> Vec<Diagnostic> {
        check_request(
            &self.expressions,
            self.expression_attribute_names.clone(),
            self.expression_attribute_values.clone(),
            key_schema,
        )
    }

    /// [`parse`] on each expression of this request, with the request's maps: the builder
    /// states, or DynamoDB's first objection. Placeholders unused by every expression together
    /// are reported as the service does.
    pub fn parse(
        &self,
        key_schema: Option<&KeySchemaState>,
    ) -> Result<Vec<ExpressionState>, Vec<Diagnostic>> {
        let diagnostics = self.check(key_schema);
        if !diagnostics.is_empty() {
            return Err(diagnostics);
        }
        // Every expression resolves and the maps are used up; each is turned into state with
        // only the placeholders it uses.
        let mut states = Vec::with_capacity(self.expressions.len());
        for expression in &self.expressions {
            let (names, values) = self.used_by(&expression.text);
            states.push(
                parse(expression.parameter, &expression.text, names, values, key_schema)
                    .map_err(|diagnostic| vec![diagnostic])?,
            );
        }
        Ok(states)
    }

    /// The entries of the maps whose keys appear in `text` as whole placeholders.
    #[allow(clippy::type_complexity)]
    fn used_by(
        &self,
        text: &str,
    ) -> (
        Option<BTreeMap<String, String>>,
        Option<BTreeMap<String, AttributeValue>>,
    ) {
        let keys: std::collections::BTreeSet<&str> = dynotable_expr::lexer::tokenize(text)
            .iter()
            .map(|token| token.text(text))
            .filter(|t| t.starts_with('#') || t.starts_with(':'))
            .collect();
        let names: BTreeMap<String, String> = self
            .expression_attribute_names
            .iter()
            .flatten()
            .filter(|(k, _)| keys.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let values: BTreeMap<String, AttributeValue> = self
            .expression_attribute_values
            .iter()
            .flatten()
            .filter(|(k, _)| keys.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        (
            (!names.is_empty()).then_some(names),
            (!values.is_empty()).then_some(values),
        )
    }
}
