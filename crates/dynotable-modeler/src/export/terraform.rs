//! Terraform (HCL) `aws_dynamodb_table` resources, one per table of the model.
//!
//! The provider's arguments: `name`, `billing_mode` (`PAY_PER_REQUEST` or `PROVISIONED` with
//! `read_capacity` / `write_capacity`), `hash_key`, `range_key`, one `attribute { name type }`
//! block per key attribute of the table and its indexes (rule B.7: exactly those),
//! `global_secondary_index` blocks (`name`, `hash_key`, `range_key`, `projection_type`,
//! `non_key_attributes`, capacity when provisioned) and `local_secondary_index` blocks (`name`,
//! `range_key`, `projection_type`, `non_key_attributes`).

use super::snake;
use crate::Model;
use crate::model::{Billing, IndexModel, KeyAttr, Projection};

/// An HCL string: JSON's escapes, and `${` / `%{` kept literal.
fn quoted(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace("${", "$${")
        .replace("%{", "%%{")
}

fn projection(projection: &Projection, pad: &str, out: &mut String) {
    let (ty, names) = match projection {
        Projection::All => ("ALL", None),
        Projection::KeysOnly => ("KEYS_ONLY", None),
        Projection::Include(names) => ("INCLUDE", Some(names)),
    };
    out.push_str(&format!("{pad}projection_type = \"{ty}\"\n"));
    if let Some(names) = names {
        let list: Vec<String> = names.iter().map(|n| quoted(n)).collect();
        out.push_str(&format!("{pad}non_key_attributes = [{}]\n", list.join(", ")));
    }
}

fn capacity(billing: Billing, pad: &str, out: &mut String) {
    if let Billing::Provisioned {
        read_units,
        write_units,
    } = billing
    {
        out.push_str(&format!(
            "{pad}read_capacity = {read_units}\n{pad}write_capacity = {write_units}\n"
        ));
    }
}

fn index(block: &str, index: &IndexModel, billing: Option<Billing>, out: &mut String) {
    let pad = "    ";
    out.push_str(&format!("\n  {block} {{\n{pad}name = {}\n", quoted(&index.name)));
    if block == "global_secondary_index" {
        out.push_str(&format!(
            "{pad}hash_key = {}\n",
            quoted(&index.partition_key.name)
        ));
    }
    if let Some(sort) = &index.sort_key {
        out.push_str(&format!("{pad}range_key = {}\n", quoted(&sort.name)));
    }
    projection(&index.projection, pad, out);
    if let Some(billing) = billing {
        capacity(billing, pad, out);
    }
    out.push_str("  }\n");
}

pub fn terraform(model: &Model) -> String {
    let mut out = format!(
        "# The DynamoDB tables of the data model {}.\n",
        model.name.replace('\n', " ")
    );
    for table in &model.tables {
        out.push_str(&format!(
            "\nresource \"aws_dynamodb_table\" \"{}\" {{\n  name = {}\n",
            snake(&table.name),
            quoted(&table.name)
        ));
        match table.billing {
            Billing::OnDemand => out.push_str("  billing_mode = \"PAY_PER_REQUEST\"\n"),
            Billing::Provisioned { .. } => {
                out.push_str("  billing_mode = \"PROVISIONED\"\n");
                capacity(table.billing, "  ", &mut out);
            }
        }
        out.push_str(&format!("  hash_key = {}\n", quoted(&table.partition_key.name)));
        if let Some(sort) = &table.sort_key {
            out.push_str(&format!("  range_key = {}\n", quoted(&sort.name)));
        }
        let mut seen: Vec<&KeyAttr> = Vec::new();
        for target in table.targets() {
            for key in std::iter::once(target.partition).chain(target.sort) {
                if !seen.iter().any(|k| k.name == key.name) {
                    seen.push(key);
                }
            }
        }
        for key in seen {
            out.push_str(&format!(
                "\n  attribute {{\n    name = {}\n    type = \"{}\"\n  }}\n",
                quoted(&key.name),
                key.ty.as_str()
            ));
        }
        for gsi in &table.global_indexes {
            index("global_secondary_index", gsi, Some(table.billing), &mut out);
        }
        for lsi in &table.local_indexes {
            index("local_secondary_index", lsi, None, &mut out);
        }
        out.push_str("}\n");
    }
    out
}
