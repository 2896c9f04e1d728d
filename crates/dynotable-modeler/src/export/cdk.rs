//! An AWS CDK (TypeScript, `aws-cdk-lib` v2) stack with one `dynamodb.Table` per table.
//!
//! Keys map to `partitionKey` / `sortKey` with `dynamodb.AttributeType.STRING | NUMBER |
//! BINARY`; billing to `dynamodb.BillingMode.PAY_PER_REQUEST` or `PROVISIONED` with
//! `readCapacity` / `writeCapacity`; each GSI to `addGlobalSecondaryIndex` and each LSI to
//! `addLocalSecondaryIndex` (an LSI names only its sort key: it shares the table's partition
//! key, rule B.7), with `projectionType` and, for INCLUDE, `nonKeyAttributes`.

use dynotable_types::ScalarAttributeType;

use super::{camel, pascal};
use crate::Model;
use crate::model::{Billing, IndexModel, KeyAttr, Projection};

fn key(attr: &KeyAttr) -> String {
    let ty = match attr.ty {
        ScalarAttributeType::S => "STRING",
        ScalarAttributeType::N => "NUMBER",
        ScalarAttributeType::B => "BINARY",
    };
    format!(
        "{{ name: {}, type: dynamodb.AttributeType.{ty} }}",
        quoted(&attr.name)
    )
}

/// A TypeScript string literal (JSON's escapes are TypeScript's).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

fn projection(projection: &Projection, pad: &str, out: &mut String) {
    let (ty, names) = match projection {
        Projection::All => ("ALL", None),
        Projection::KeysOnly => ("KEYS_ONLY", None),
        Projection::Include(names) => ("INCLUDE", Some(names)),
    };
    out.push_str(&format!("{pad}projectionType: dynamodb.ProjectionType.{ty},\n"));
    if let Some(names) = names {
        let list: Vec<String> = names.iter().map(|n| quoted(n)).collect();
        out.push_str(&format!("{pad}nonKeyAttributes: [{}],\n", list.join(", ")));
    }
}

fn capacity(billing: Billing, pad: &str, out: &mut String) {
    if let Billing::Provisioned {
        read_units,
        write_units,
    } = billing
    {
        out.push_str(&format!(
            "{pad}readCapacity: {read_units},\n{pad}writeCapacity: {write_units},\n"
        ));
    }
}

fn index(variable: &str, method: &str, index: &IndexModel, billing: Option<Billing>, out: &mut String) {
    let pad = "      ";
    out.push_str(&format!(
        "    {variable}.{method}({{\n{pad}indexName: {},\n",
        quoted(&index.name)
    ));
    if method == "addGlobalSecondaryIndex" {
        out.push_str(&format!("{pad}partitionKey: {},\n", key(&index.partition_key)));
    }
    if let Some(sort) = &index.sort_key {
        out.push_str(&format!("{pad}sortKey: {},\n", key(sort)));
    }
    projection(&index.projection, pad, out);
    if let Some(billing) = billing {
        capacity(billing, pad, out);
    }
    out.push_str("    });\n");
}

pub fn cdk(model: &Model) -> String {
    let mut out = String::from(
        "import * as cdk from 'aws-cdk-lib';\nimport * as dynamodb from 'aws-cdk-lib/aws-dynamodb';\nimport { Construct } from 'constructs';\n\n",
    );
    out.push_str(&format!(
        "/** The DynamoDB tables of the data model {}. */\n",
        model.name
    ));
    out.push_str(&format!(
        "export class {}Stack extends cdk.Stack {{\n  constructor(scope: Construct, id: string, props?: cdk.StackProps) {{\n    super(scope, id, props);\n",
        pascal(&model.name)
    ));
    for table in &model.tables {
        let variable = camel(&table.name);
        let pad = "      ";
        out.push_str(&format!(
            "\n    const {variable} = new dynamodb.Table(this, {}, {{\n{pad}tableName: {},\n{pad}partitionKey: {},\n",
            quoted(&pascal(&table.name)),
            quoted(&table.name),
            key(&table.partition_key)
        ));
        if let Some(sort) = &table.sort_key {
            out.push_str(&format!("{pad}sortKey: {},\n", key(sort)));
        }
        match table.billing {
            Billing::OnDemand => out.push_str(&format!(
                "{pad}billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,\n"
            )),
            Billing::Provisioned { .. } => {
                out.push_str(&format!("{pad}billingMode: dynamodb.BillingMode.PROVISIONED,\n"));
                capacity(table.billing, pad, &mut out);
            }
        }
        out.push_str("    });\n");
        for gsi in &table.global_indexes {
            index(
                &variable,
                "addGlobalSecondaryIndex",
                gsi,
                Some(table.billing),
                &mut out,
            );
        }
        for lsi in &table.local_indexes {
            index(&variable, "addLocalSecondaryIndex", lsi, None, &mut out);
        }
    }
    out.push_str("  }\n}\n");
    out
}
