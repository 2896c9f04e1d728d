//! JavaScript, AWS SDK v3 (ES modules for Node): the low-level `DynamoDBClient` with typed
//! AttributeValues (`{ S: "..." }`), or the `DynamoDBDocumentClient` of `@aws-sdk/lib-dynamodb`
//! with native values (numbers, `Set`s, `Uint8Array`s, `null`). A number a JavaScript double
//! cannot hold exactly is passed as `NumberValue.from("...")`, as lib-dynamodb asks.
//!
//! Both loop on `LastEvaluatedKey` → `ExclusiveStartKey` and print each item as one line of
//! JSON, binary as base64 and sets as sorted arrays.

use dynotable_types::AttributeValue;

use super::{base64, is_exact_js_number, quoted};
use crate::request::{GeneratedRequest, ReadOperation};

fn typed(value: &AttributeValue) -> String {
    let one = |tag: &str, inner: String| format!("{{ {tag}: {inner} }}");
    match value {
        AttributeValue::S(s) => one("S", quoted(s)),
        AttributeValue::N(n) => one("N", quoted(&n.to_string())),
        AttributeValue::B(b) => one("B", bytes(b)),
        AttributeValue::BOOL(b) => one("BOOL", b.to_string()),
        AttributeValue::NULL => one("NULL", "true".into()),
        AttributeValue::M(map) => one("M", object(map.iter().map(|(k, v)| (k.as_str(), typed(v))))),
        AttributeValue::L(list) => one("L", format!("[{}]", join(list.iter().map(typed)))),
        AttributeValue::SS(set) => one("SS", format!("[{}]", join(set.iter().map(|s| quoted(s))))),
        AttributeValue::NS(set) => one(
            "NS",
            format!("[{}]", join(set.iter().map(|n| quoted(&n.to_string())))),
        ),
        AttributeValue::BS(set) => one("BS", format!("[{}]", join(set.iter().map(|b| bytes(b))))),
    }
}

/// Whether the document form of `value` needs `NumberValue`.
fn needs_number_value(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::N(n) => !is_exact_js_number(&n.to_string()),
        AttributeValue::NS(set) => set.iter().any(|n| !is_exact_js_number(&n.to_string())),
        AttributeValue::M(map) => map.values().any(needs_number_value),
        AttributeValue::L(list) => list.iter().any(needs_number_value),
        _ => false,
    }
}

fn number(n: &dynotable_types::Number) -> String {
    let text = n.to_string();
    if is_exact_js_number(&text) {
        text
    } else {
        format!("NumberValue.from({})", quoted(&text))
    }
}

fn native(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => quoted(s),
        AttributeValue::N(n) => number(n),
        AttributeValue::B(b) => bytes(b),
        AttributeValue::BOOL(b) => b.to_string(),
        AttributeValue::NULL => "null".into(),
        AttributeValue::M(map) => object(map.iter().map(|(k, v)| (k.as_str(), native(v)))),
        AttributeValue::L(list) => format!("[{}]", join(list.iter().map(native))),
        AttributeValue::SS(set) => format!("new Set([{}])", join(set.iter().map(|s| quoted(s)))),
        AttributeValue::NS(set) => format!("new Set([{}])", join(set.iter().map(number))),
        AttributeValue::BS(set) => format!("new Set([{}])", join(set.iter().map(|b| bytes(b)))),
    }
}

fn bytes(b: &[u8]) -> String {
    format!("Uint8Array.from(Buffer.from({}, \"base64\"))", quoted(&base64(b)))
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(", ")
}

/// An object literal; keys that are not plain identifiers are quoted.
fn object<'a>(entries: impl Iterator<Item = (&'a str, String)>) -> String {
    let parts: Vec<String> = entries.map(|(k, v)| format!("{}: {v}", key(k))).collect();
    if parts.is_empty() {
        "{}".into()
    } else {
        format!("{{ {} }}", parts.join(", "))
    }
}

fn key(name: &str) -> String {
    let plain = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if plain { name.to_string() } else { quoted(name) }
}

pub(crate) fn export(request: &GeneratedRequest, document: bool) -> String {
    let command = match request.operation {
        ReadOperation::Query => "QueryCommand",
        ReadOperation::Scan => "ScanCommand",
    };
    let number_value = document
        && request
            .expression_attribute_values
            .iter()
            .flat_map(|values| values.values())
            .any(needs_number_value);
    let mut out = String::new();
    if document {
        out.push_str("import { DynamoDBClient } from \"@aws-sdk/client-dynamodb\";\n");
        let extra = if number_value { ", NumberValue" } else { "" };
        out.push_str(&format!(
            "import {{ DynamoDBDocumentClient{extra}, {command} }} from \"@aws-sdk/lib-dynamodb\";\n\n"
        ));
        out.push_str("const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n\n");
    } else {
        out.push_str(&format!(
            "import {{ DynamoDBClient, {command} }} from \"@aws-sdk/client-dynamodb\";\n\n"
        ));
        out.push_str("const client = new DynamoDBClient({});\n\n");
    }
    out.push_str("const input = {\n");
    let mut line = |name: &str, value: String| out.push_str(&format!("  {name}: {value},\n"));
    line("TableName", quoted(&request.table_name));
    for (name, value) in [
        ("IndexName", &request.index_name),
        ("KeyConditionExpression", &request.key_condition_expression),
        ("FilterExpression", &request.filter_expression),
        ("ProjectionExpression", &request.projection_expression),
    ] {
        if let Some(value) = value {
            line(name, quoted(value));
        }
    }
    if let Some(names) = &request.expression_attribute_names {
        let entries: Vec<String> = names
            .iter()
            .map(|(k, v)| format!("    {}: {},\n", quoted(k), quoted(v)))
            .collect();
        line(
            "ExpressionAttributeNames",
            format!("{{\n{}  }}", entries.concat()),
        );
    }
    if let Some(values) = &request.expression_attribute_values {
        let render = if document { native } else { typed };
        let entries: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("    {}: {},\n", quoted(k), render(v)))
            .collect();
        line(
            "ExpressionAttributeValues",
            format!("{{\n{}  }}", entries.concat()),
        );
    }
    if let Some(forward) = request.scan_index_forward {
        line("ScanIndexForward", forward.to_string());
    }
    if let Some(limit) = request.limit {
        line("Limit", limit.to_string());
    }
    if request.consistent_read == Some(true) {
        line("ConsistentRead", "true".into());
    }
    if let Some(capacity) = request.return_consumed_capacity {
        line("ReturnConsumedCapacity", quoted(capacity.as_str()));
    }
    out.push_str("};\n\n");
    out.push_str(concat!(
        "// Binary values as base64 and sets as sorted arrays, so that every item prints as JSON.\n",
        "const toJson = (key, value) =>\n",
        "  value instanceof Uint8Array ? Buffer.from(value).toString(\"base64\")\n",
        "    : value instanceof Set ? [...value].sort()\n",
        "    : typeof value === \"bigint\" ? value.toString()\n",
        "    : value;\n\n",
    ));
    out.push_str(&format!(
        concat!(
            "do {{\n",
            "  const page = await client.send(new {command}(input));\n",
            "  for (const item of page.Items ?? []) {{\n",
            "    console.log(JSON.stringify(item, toJson));\n",
            "  }}\n",
            "  input.ExclusiveStartKey = page.LastEvaluatedKey;\n",
            "}} while (input.ExclusiveStartKey);\n",
        ),
        command = command
    ));
    out
}
