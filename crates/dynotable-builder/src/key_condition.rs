//! KeyConditionExpression: the partition-key equality and at most one sort-key condition — or,
//! on a global secondary index with a multi-attribute key (rule B.18.5), an equality on every
//! partition-key attribute and sort-key conditions left to right: equalities on the leading sort
//! attributes ([`KeyConditionState::sort_equal`]), then one condition on the next.
//!
//! Rule B.5 (docs/dynamodb-rules.md): the partition key takes `=` only; the sort key `=`, `<`, `<=`,
//! `>`, `>=`, `BETWEEN` or `begins_with`, the last on S and B keys only. [`sort_key_operators`]
//! is what the UI offers for a key of a given type. The state can still hold what DynamoDB
//! refuses — a `<>` on the sort key, a condition naming a non-key attribute, a value of the
//! wrong type — because the user may type it in text mode; [`KeyConditionState::check`] writes
//! the expression and runs it through `dynotable-expr`'s key-condition checks against the key
//! schema of the table or index, which answer with the service's own messages
//! (`Query key condition not supported`, `Query condition missed key schema element: sk`, ...).

use dynotable_expr::{KeyCondition, KeyElement, KeySchema, Placeholders, SortKeyRange};
use dynotable_types::{AttributeValue, ScalarAttributeType};
use serde::{Deserialize, Serialize};

use crate::attributes::{ExpressionAttributes, hint};
use crate::condition::Comparator;
use crate::error::{BuildError, Diagnostic};
use crate::path::AttributePath;

/// The type of a key attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum KeyType {
    S,
    N,
    B,
}

impl KeyType {
    pub fn scalar(self) -> ScalarAttributeType {
        match self {
            KeyType::S => ScalarAttributeType::S,
            KeyType::N => ScalarAttributeType::N,
            KeyType::B => ScalarAttributeType::B,
        }
    }
}

/// One key attribute of a table or index.
///
/// The container rename only names the TypeScript type (the app already has a `KeyAttribute`);
/// the JSON form is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename = "BuilderKeyAttribute")]
pub struct KeyAttribute {
    pub name: String,
    #[serde(rename = "type")]
    pub key_type: KeyType,
}

/// The key schema of the table or of the index a query reads. A multi-attribute GSI key (rule
/// B.18) lists its other attributes, in key-schema order, in `more_partition_keys` and
/// `more_sort_keys` (left out when empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeySchemaState {
    pub partition_key: KeyAttribute,
    pub sort_key: Option<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub more_partition_keys: Vec<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub more_sort_keys: Vec<KeyAttribute>,
}

fn key_element(key: &KeyAttribute) -> KeyElement<'_> {
    KeyElement {
        name: key.name.as_str(),
        scalar_type: key.key_type.scalar(),
    }
}

impl KeySchemaState {
    /// A key of one partition-key attribute and at most one sort-key attribute.
    pub fn simple(partition_key: KeyAttribute, sort_key: Option<KeyAttribute>) -> KeySchemaState {
        KeySchemaState {
            partition_key,
            sort_key,
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        }
    }

    /// Whether `name` is one of the key's attributes (partition or sort, any of a
    /// multi-attribute key's).
    pub fn has_attribute(&self, name: &str) -> bool {
        std::iter::once(&self.partition_key)
            .chain(self.sort_key.as_ref())
            .chain(&self.more_partition_keys)
            .chain(&self.more_sort_keys)
            .any(|key| key.name == name)
    }
}

/// One equality of a key condition on a multi-attribute key (`name = :value`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename = "BuilderKeyEquality")]
pub struct KeyEquality {
    pub name: String,
    #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
    pub value: AttributeValue,
}

/// An operator of a sort-key condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum SortKeyOperator {
    #[serde(rename = "=")]
    Eq,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = "BETWEEN")]
    Between,
    #[serde(rename = "begins_with")]
    BeginsWith,
}

/// Rule B.5: what DynamoDB allows on a sort key of type `key_type`.
pub fn sort_key_operators(key_type: KeyType) -> Vec<SortKeyOperator> {
    let mut operators = vec![
        SortKeyOperator::Eq,
        SortKeyOperator::Lt,
        SortKeyOperator::Le,
        SortKeyOperator::Gt,
        SortKeyOperator::Ge,
        SortKeyOperator::Between,
    ];
    if key_type != KeyType::N {
        operators.push(SortKeyOperator::BeginsWith);
    }
    operators
}

/// The sort-key half of a key condition (`BuilderSortKeyCondition` in TypeScript, beside the
/// app's own `SortKeyCondition`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "type", rename = "BuilderSortKeyCondition", rename_all = "camelCase")]
pub enum SortKeyCondition {
    /// `sk <op> :v`
    Compare {
        name: String,
        op: Comparator,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        value: AttributeValue,
    },
    /// `sk BETWEEN :from AND :to`
    Between {
        name: String,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        low: AttributeValue,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        high: AttributeValue,
    },
    /// `begins_with(sk, :prefix)`
    BeginsWith {
        name: String,
        #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
        prefix: AttributeValue,
    },
}

/// A key condition: the item collection (`pk = :v`) and optionally a slice of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct KeyConditionState {
    pub partition_key: String,
    #[cfg_attr(feature = "specta", specta(type = crate::typescript::AttributeValueJson))]
    pub partition_value: AttributeValue,
    /// Rule B.18.5: the equalities on a multi-attribute partition key's other attributes, in
    /// key-schema order (left out when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub more_partition: Vec<KeyEquality>,
    /// Rule B.18.5: the leading sort-key attributes held equal, in key-schema order, before the
    /// one `sort` names (left out when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "specta", specta(optional))]
    pub sort_equal: Vec<KeyEquality>,
    pub sort: Option<SortKeyCondition>,
}

impl KeyConditionState {
    /// The key condition of one item collection of a single-attribute partition key.
    pub fn simple(
        partition_key: String,
        partition_value: AttributeValue,
        sort: Option<SortKeyCondition>,
    ) -> Self {
        KeyConditionState {
            partition_key,
            partition_value,
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            sort,
        }
    }

    /// Writes `pk = :pk [AND pk2 = :pk2 ...] [AND sk1 = :sk1 ...] [AND <sort condition>]`, adding
    /// names and values to `attrs`.
    pub fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        let mut equal = |name: &str, value: &AttributeValue| -> Result<String, BuildError> {
            let path = AttributePath::attribute(name);
            let name = attrs.path(&path)?;
            let value = attrs.value(&hint(Some(&path), ""), value);
            Ok(format!("{name} = {value}"))
        };
        let mut text = equal(&self.partition_key, &self.partition_value)?;
        for KeyEquality { name, value } in self.more_partition.iter().chain(&self.sort_equal) {
            text.push_str(" AND ");
            text.push_str(&equal(name, value)?);
        }
        if let Some(sort) = &self.sort {
            text.push_str(" AND ");
            text.push_str(&sort.write(attrs)?);
        }
        Ok(text)
    }

    /// DynamoDB's verdict on this key condition for a table or index with `schema`: the
    /// expression is written on its own and resolved by the engine's key-condition rules.
    pub fn check(&self, schema: &KeySchemaState) -> Result<(), Diagnostic> {
        let mut attrs = ExpressionAttributes::new();
        let text = self.write(&mut attrs).map_err(|e| Diagnostic {
            exception: "ValidationException".into(),
            message: e.message,
            expression: Some(crate::error::ExpressionParameter::KeyConditionExpression),
            span: None,
        })?;
        let mut placeholders = Placeholders::new(attrs.names(), attrs.values())?;
        KeyConditionState::resolve(&text, &mut placeholders, schema)?;
        Ok(())
    }

    /// Resolves a KeyConditionExpression against `schema` with a request's placeholders.
    pub(crate) fn resolve(
        text: &str,
        placeholders: &mut Placeholders,
        schema: &KeySchemaState,
    ) -> Result<KeyCondition, dynotable_expr::Error> {
        let more_partition: Vec<KeyElement<'_>> =
            schema.more_partition_keys.iter().map(key_element).collect();
        let more_sort: Vec<KeyElement<'_>> = schema.more_sort_keys.iter().map(key_element).collect();
        let expr = KeySchema {
            partition: key_element(&schema.partition_key),
            sort: schema.sort_key.as_ref().map(key_element),
            more_partition: &more_partition,
            more_sort: &more_sort,
        };
        placeholders.key_condition(text, &expr)
    }

    pub fn from_resolved(resolved: &KeyCondition) -> KeyConditionState {
        let equalities = |pairs: &[(String, dynotable_types::KeyValue)]| -> Vec<KeyEquality> {
            pairs
                .iter()
                .map(|(name, value)| KeyEquality {
                    name: name.clone(),
                    value: value.clone().into(),
                })
                .collect()
        };
        KeyConditionState {
            partition_key: resolved.partition_key.clone(),
            partition_value: resolved.partition_value.clone().into(),
            more_partition: equalities(&resolved.more_partition),
            sort_equal: equalities(&resolved.sort_equal),
            sort: resolved.sort.as_ref().map(|(name, range)| {
                let name = name.clone();
                let compare = |op, value: &dynotable_types::KeyValue| SortKeyCondition::Compare {
                    name: name.clone(),
                    op,
                    value: value.clone().into(),
                };
                match range {
                    SortKeyRange::Eq(v) => compare(Comparator::Eq, v),
                    SortKeyRange::Lt(v) => compare(Comparator::Lt, v),
                    SortKeyRange::Le(v) => compare(Comparator::Le, v),
                    SortKeyRange::Gt(v) => compare(Comparator::Gt, v),
                    SortKeyRange::Ge(v) => compare(Comparator::Ge, v),
                    SortKeyRange::Between(low, high) => SortKeyCondition::Between {
                        name,
                        low: low.clone().into(),
                        high: high.clone().into(),
                    },
                    SortKeyRange::BeginsWith(prefix) => SortKeyCondition::BeginsWith {
                        name,
                        prefix: prefix.clone().into(),
                    },
                }
            }),
        }
    }
}

impl SortKeyCondition {
    fn write(&self, attrs: &mut ExpressionAttributes) -> Result<String, BuildError> {
        let name = match self {
            SortKeyCondition::Compare { name, .. }
            | SortKeyCondition::Between { name, .. }
            | SortKeyCondition::BeginsWith { name, .. } => name,
        };
        let path = AttributePath::attribute(name);
        let sk = attrs.path(&path)?;
        Ok(match self {
            SortKeyCondition::Compare { op, value, .. } => {
                let v = attrs.value(&hint(Some(&path), ""), value);
                format!("{sk} {} {v}", op.symbol())
            }
            SortKeyCondition::Between { low, high, .. } => {
                let low = attrs.value(&hint(Some(&path), "from"), low);
                let high = attrs.value(&hint(Some(&path), "to"), high);
                format!("{sk} BETWEEN {low} AND {high}")
            }
            SortKeyCondition::BeginsWith { prefix, .. } => {
                let p = attrs.value(&hint(Some(&path), "prefix"), prefix);
                format!("begins_with({sk}, {p})")
            }
        })
    }
}
