//! The catalog: each table's validated definition, as the engine works with it.
//!
//! A [`TableSchema`] is what CreateTable leaves behind once its request passed validation: the key
//! schema with types, the billing mode, each index with its keys and projection, and the storage
//! *keyspace* ids under which the table's items and each index's entries live (see
//! `storage.rs`). It is stored as JSON in `catalog_tables.definition` and cached in memory.

use serde::{Deserialize, Serialize};

use dynotable_types::ScalarAttributeType;

use crate::api::{AttributeDefinition, KeySchemaElement, Projection};

/// One key attribute: its name and scalar type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyAttribute {
    pub name: String,
    pub ty: ScalarAttributeType,
}

/// A primary key or index key: partition key and optional sort key.
///
/// A global secondary index's key may have up to four partition-key and four sort-key attributes
/// (rule B.18): `partition` and `sort` are the first of each, `more_partition` and `more_sort` the
/// others in key-schema order (empty for tables, LSIs and single-attribute GSIs, and left out of
/// the stored JSON then, so older catalogs read unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeySchema {
    pub partition: KeyAttribute,
    pub sort: Option<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_partition: Vec<KeyAttribute>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_sort: Vec<KeyAttribute>,
}

impl KeySchema {
    /// A key of one partition-key attribute and at most one sort-key attribute.
    pub fn simple(partition: KeyAttribute, sort: Option<KeyAttribute>) -> KeySchema {
        KeySchema {
            partition,
            sort,
            more_partition: Vec::new(),
            more_sort: Vec::new(),
        }
    }

    /// The key's attributes, partition-key attributes first, each group in key-schema order.
    pub fn attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.partition_attributes().chain(self.sort_attributes())
    }

    /// The partition-key attributes, in key-schema order (one, except on a multi-attribute GSI).
    pub fn partition_attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        std::iter::once(&self.partition).chain(&self.more_partition)
    }

    /// The sort-key attributes, in key-schema order (none, one, or up to four on a GSI).
    pub fn sort_attributes(&self) -> impl Iterator<Item = &KeyAttribute> {
        self.sort.iter().chain(&self.more_sort)
    }

    /// Whether the key has more than one partition-key or sort-key attribute (rule B.18).
    pub fn is_multi_attribute(&self) -> bool {
        !self.more_partition.is_empty() || !self.more_sort.is_empty()
    }

    /// Whether `name` is one of this key's attributes.
    pub fn contains(&self, name: &str) -> bool {
        self.attributes().any(|a| a.name == name)
    }

    /// The key schema as the API spells it: every HASH element, then every RANGE element, in
    /// key-schema order (rule B.18.2: DescribeTable returns them as given).
    pub fn to_api(&self) -> Vec<KeySchemaElement> {
        let element = |a: &KeyAttribute, role: &str| KeySchemaElement {
            attribute_name: Some(a.name.clone()),
            key_type: Some(role.to_owned()),
        };
        self.partition_attributes()
            .map(|a| element(a, "HASH"))
            .chain(self.sort_attributes().map(|a| element(a, "RANGE")))
            .collect()
    }
}

/// How a table is billed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Billing {
    Provisioned(Throughput),
    PayPerRequest,
}

/// Provisioned read and write capacity units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Throughput {
    pub read: i64,
    pub write: i64,
}

/// Which attributes an index copies from the item (its projection).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProjectionSchema {
    All,
    KeysOnly,
    Include(Vec<String>),
}

impl ProjectionSchema {
    /// Whether an index with this projection and key `index_key`, on a table keyed by
    /// `table_key`, copies attribute `name` of an item into its entries. The table's and the
    /// index's key attributes are always projected.
    pub fn projects(&self, name: &str, index_key: &KeySchema, table_key: &KeySchema) -> bool {
        if index_key.contains(name) || table_key.contains(name) {
            return true;
        }
        match self {
            ProjectionSchema::All => true,
            ProjectionSchema::KeysOnly => false,
            ProjectionSchema::Include(names) => names.iter().any(|n| n == name),
        }
    }

    pub fn to_api(&self) -> Projection {
        match self {
            ProjectionSchema::All => Projection {
                projection_type: Some("ALL".into()),
                non_key_attributes: None,
            },
            ProjectionSchema::KeysOnly => Projection {
                projection_type: Some("KEYS_ONLY".into()),
                non_key_attributes: None,
            },
            ProjectionSchema::Include(names) => Projection {
                projection_type: Some("INCLUDE".into()),
                non_key_attributes: Some(names.clone()),
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum IndexKind {
    Global,
    Local,
}

/// A secondary index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexSchema {
    pub name: String,
    pub kind: IndexKind,
    /// Where the index's entries are stored.
    pub keyspace: i64,
    pub key: KeySchema,
    pub projection: ProjectionSchema,
    /// A GSI's own provisioned throughput (none for LSIs and on-demand tables).
    pub throughput: Option<Throughput>,
}

impl IndexSchema {
    /// Whether the index copies attribute `name` of an item into its entries. The table's and
    /// the index's key attributes are always projected.
    pub fn projects(&self, name: &str, table_key: &KeySchema) -> bool {
        self.projection.projects(name, &self.key, table_key)
    }
}

/// A table's definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableSchema {
    pub name: String,
    /// A stable random id, reported as `TableId`.
    pub table_id: String,
    /// Where the table's items are stored.
    pub keyspace: i64,
    pub key: KeySchema,
    /// The attribute definitions as given (every one is a key attribute of the table or an index).
    pub attribute_definitions: Vec<KeyAttribute>,
    pub billing: Billing,
    pub indexes: Vec<IndexSchema>,
    /// Seconds since the Unix epoch.
    pub created_at: f64,
    pub deletion_protection: bool,
    pub table_class: String,
    /// Tags, by key (TagResource; rule: at most 50 per resource).
    #[serde(default)]
    pub tags: std::collections::BTreeMap<String, String>,
    /// Time to Live, when it has ever been configured.
    #[serde(default)]
    pub ttl: Option<TtlSchema>,
    /// The table's streams, oldest first; the last is the latest (enabled or not).
    #[serde(default)]
    pub streams: Vec<StreamSchema>,
}

/// Time to Live: the attribute holding each item's expiry (epoch seconds), and whether expired
/// items are deleted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TtlSchema {
    pub attribute_name: String,
    pub enabled: bool,
    /// When TTL was last enabled or disabled (one change per hour is allowed).
    pub changed_at: f64,
}

/// One DynamoDB stream of a table. A table has at most one enabled stream; disabled streams stay
/// readable until their records expire (24 hours).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StreamSchema {
    /// Storage id of the stream's records.
    pub id: i64,
    /// The stream label: the creation time, `YYYY-MM-DDThh:mm:ss.sss`.
    pub label: String,
    /// KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES.
    pub view_type: String,
    pub created_at: f64,
    pub enabled: bool,
}

impl TableSchema {
    pub fn index(&self, name: &str) -> Option<&IndexSchema> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// Whether the table has a local secondary index — the condition for the 10 GB
    /// item-collection limit and for ItemCollectionMetrics (rules B.7).
    pub fn has_lsi(&self) -> bool {
        self.indexes.iter().any(|i| i.kind == IndexKind::Local)
    }

    pub fn attribute_definitions_api(&self) -> Vec<AttributeDefinition> {
        self.attribute_definitions
            .iter()
            .map(|a| AttributeDefinition {
                attribute_name: Some(a.name.clone()),
                attribute_type: Some(a.ty.as_str().to_owned()),
            })
            .collect()
    }

    /// The table's ARN in the region and account of the request in progress (`identity`).
    pub fn arn(&self) -> String {
        crate::identity::current().table_arn(&self.name)
    }

    /// The enabled stream, if any.
    pub fn active_stream(&self) -> Option<&StreamSchema> {
        self.streams.last().filter(|s| s.enabled)
    }

    /// The ARN of one of the table's streams.
    pub fn stream_arn(&self, stream: &StreamSchema) -> String {
        format!("{}/stream/{}", self.arn(), stream.label)
    }
}
