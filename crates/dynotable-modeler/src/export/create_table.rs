//! A table of the model as the CreateTable request that makes it (DynamoDB's JSON).
//!
//! Rule B.7: `AttributeDefinitions` lists exactly the key attributes of the table and of its
//! indexes, each once; `KeySchema` is HASH then RANGE; each index carries its `Projection`
//! (`NonKeyAttributes` only with `INCLUDE`); provisioned capacity is given for the table and
//! for each GSI, never for an LSI, and `PAY_PER_REQUEST` takes none.

use serde_json::{Value, json};

use crate::model::{Billing, IndexModel, KeyAttr, Projection, TableModel};

fn key_schema(partition: &KeyAttr, sort: Option<&KeyAttr>) -> Value {
    let mut keys = vec![json!({ "AttributeName": partition.name, "KeyType": "HASH" })];
    if let Some(sort) = sort {
        keys.push(json!({ "AttributeName": sort.name, "KeyType": "RANGE" }));
    }
    Value::Array(keys)
}

pub(crate) fn projection(projection: &Projection) -> Value {
    match projection {
        Projection::All => json!({ "ProjectionType": "ALL" }),
        Projection::KeysOnly => json!({ "ProjectionType": "KEYS_ONLY" }),
        Projection::Include(names) => json!({ "ProjectionType": "INCLUDE", "NonKeyAttributes": names }),
    }
}

fn throughput(billing: Billing) -> Option<Value> {
    match billing {
        Billing::OnDemand => None,
        Billing::Provisioned {
            read_units,
            write_units,
        } => Some(json!({ "ReadCapacityUnits": read_units, "WriteCapacityUnits": write_units })),
    }
}

fn index(index: &IndexModel, billing: Option<Billing>) -> Value {
    let mut out = json!({
        "IndexName": index.name,
        "KeySchema": key_schema(&index.partition_key, index.sort_key.as_ref()),
        "Projection": projection(&index.projection),
    });
    if let Some(throughput) = billing.and_then(throughput) {
        out["ProvisionedThroughput"] = throughput;
    }
    out
}

/// The CreateTable request body for `table`.
pub fn create_table_request(table: &TableModel) -> Value {
    let definitions: Vec<Value> = table
        .targets()
        .iter()
        .flat_map(|t| std::iter::once(t.partition).chain(t.sort))
        .fold(Vec::<&KeyAttr>::new(), |mut seen, key| {
            if !seen.iter().any(|k| k.name == key.name) {
                seen.push(key);
            }
            seen
        })
        .into_iter()
        .map(|k| json!({ "AttributeName": k.name, "AttributeType": k.ty.as_str() }))
        .collect();
    let mut body = json!({
        "TableName": table.name,
        "AttributeDefinitions": definitions,
        "KeySchema": key_schema(&table.partition_key, table.sort_key.as_ref()),
        "BillingMode": match table.billing {
            Billing::OnDemand => "PAY_PER_REQUEST",
            Billing::Provisioned { .. } => "PROVISIONED",
        },
    });
    if let Some(throughput) = throughput(table.billing) {
        body["ProvisionedThroughput"] = throughput;
    }
    if !table.global_indexes.is_empty() {
        body["GlobalSecondaryIndexes"] = table
            .global_indexes
            .iter()
            .map(|i| index(i, Some(table.billing)))
            .collect();
    }
    if !table.local_indexes.is_empty() {
        body["LocalSecondaryIndexes"] = table.local_indexes.iter().map(|i| index(i, None)).collect();
    }
    body
}

/// Every table's CreateTable request, pretty-printed: one JSON document per table in a JSON
/// array (the form `aws dynamodb create-table --cli-input-json` takes one element of).
pub fn create_table_json(model: &crate::Model) -> String {
    let all: Vec<Value> = model.tables.iter().map(create_table_request).collect();
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    text
}
