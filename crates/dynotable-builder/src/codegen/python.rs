//! Python, boto3: the low-level client (typed AttributeValues, `{"S": "..."}`) or the resource's
//! `Table` (native values: `str`, `Decimal`, `bytes`, `bool`, `None`, `list`, `dict`, `set`).
//!
//! Both loop on `LastEvaluatedKey` → `ExclusiveStartKey` and print each item as one line of
//! JSON: the client's items in DynamoDB JSON (binary as base64, as on the wire), the resource's
//! with numbers as JSON numbers, binary as base64 and sets as sorted lists.

use dynotable_types::AttributeValue;

use super::{base64, quoted};
use crate::request::{GeneratedRequest, ReadOperation};

/// A Python expression for an attribute value in the low-level client's form.
fn typed(value: &AttributeValue) -> String {
    let one = |tag: &str, inner: String| format!("{{{}: {inner}}}", quoted(tag));
    match value {
        AttributeValue::S(s) => one("S", quoted(s)),
        AttributeValue::N(n) => one("N", quoted(&n.to_string())),
        AttributeValue::B(b) => one("B", bytes(b)),
        AttributeValue::BOOL(b) => one("BOOL", if *b { "True" } else { "False" }.into()),
        AttributeValue::NULL => one("NULL", "True".into()),
        AttributeValue::M(map) => one("M", dict(map.iter().map(|(k, v)| (quoted(k), typed(v))))),
        AttributeValue::L(list) => one("L", format!("[{}]", join(list.iter().map(typed)))),
        AttributeValue::SS(set) => one("SS", format!("[{}]", join(set.iter().map(|s| quoted(s))))),
        AttributeValue::NS(set) => one(
            "NS",
            format!("[{}]", join(set.iter().map(|n| quoted(&n.to_string())))),
        ),
        AttributeValue::BS(set) => one("BS", format!("[{}]", join(set.iter().map(|b| bytes(b))))),
    }
}

/// A Python expression for an attribute value in the resource's native form.
fn native(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => quoted(s),
        AttributeValue::N(n) => format!("Decimal({})", quoted(&n.to_string())),
        AttributeValue::B(b) => bytes(b),
        AttributeValue::BOOL(b) => if *b { "True" } else { "False" }.into(),
        AttributeValue::NULL => "None".into(),
        AttributeValue::M(map) => dict(map.iter().map(|(k, v)| (quoted(k), native(v)))),
        AttributeValue::L(list) => format!("[{}]", join(list.iter().map(native))),
        AttributeValue::SS(set) => format!("{{{}}}", join(set.iter().map(|s| quoted(s)))),
        AttributeValue::NS(set) => format!(
            "{{{}}}",
            join(set.iter().map(|n| format!("Decimal({})", quoted(&n.to_string()))))
        ),
        AttributeValue::BS(set) => format!("{{{}}}", join(set.iter().map(|b| bytes(b)))),
    }
}

fn bytes(b: &[u8]) -> String {
    format!("base64.b64decode({})", quoted(&base64(b)))
}

fn join(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(", ")
}

fn dict(entries: impl Iterator<Item = (String, String)>) -> String {
    format!("{{{}}}", join(entries.map(|(k, v)| format!("{k}: {v}"))))
}

/// `name: value` lines of the request's parameters, indented for a dict literal.
fn parameters(request: &GeneratedRequest, resource: bool) -> Vec<(String, String)> {
    let mut params = Vec::new();
    if !resource {
        params.push(("TableName".into(), quoted(&request.table_name)));
    }
    let mut text = |name: &str, value: &Option<String>| {
        if let Some(value) = value {
            params.push((name.to_string(), quoted(value)));
        }
    };
    text("IndexName", &request.index_name);
    text("KeyConditionExpression", &request.key_condition_expression);
    text("FilterExpression", &request.filter_expression);
    text("ProjectionExpression", &request.projection_expression);
    if let Some(names) = &request.expression_attribute_names {
        let lines: Vec<String> = names
            .iter()
            .map(|(k, v)| format!("        {}: {},\n", quoted(k), quoted(v)))
            .collect();
        params.push((
            "ExpressionAttributeNames".into(),
            format!("{{\n{}    }}", lines.concat()),
        ));
    }
    if let Some(values) = &request.expression_attribute_values {
        let render = if resource { native } else { typed };
        let lines: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("        {}: {},\n", quoted(k), render(v)))
            .collect();
        params.push((
            "ExpressionAttributeValues".into(),
            format!("{{\n{}    }}", lines.concat()),
        ));
    }
    if let Some(forward) = request.scan_index_forward {
        params.push((
            "ScanIndexForward".into(),
            if forward { "True" } else { "False" }.into(),
        ));
    }
    if let Some(limit) = request.limit {
        params.push(("Limit".into(), limit.to_string()));
    }
    if request.consistent_read == Some(true) {
        params.push(("ConsistentRead".into(), "True".into()));
    }
    if let Some(capacity) = request.return_consumed_capacity {
        params.push(("ReturnConsumedCapacity".into(), quoted(capacity.as_str())));
    }
    params
}

pub(crate) fn export(request: &GeneratedRequest, resource: bool) -> String {
    let method = match request.operation {
        ReadOperation::Query => "query",
        ReadOperation::Scan => "scan",
    };
    let mut out = String::new();
    out.push_str("import base64\nimport json\n");
    if resource {
        out.push_str("from decimal import Decimal\n");
    }
    out.push_str("\nimport boto3\n");
    if resource {
        out.push_str("from boto3.dynamodb.types import Binary\n");
    }
    out.push('\n');
    if resource {
        out.push_str(&format!(
            "table = boto3.resource(\"dynamodb\").Table({})\n\n",
            quoted(&request.table_name)
        ));
        out.push_str(concat!(
            "\n",
            "def to_json(value):\n",
            "    \"\"\"Numbers as JSON numbers, binary as base64, sets as sorted lists.\"\"\"\n",
            "    if isinstance(value, Decimal):\n",
            "        return int(value) if value == value.to_integral_value() else float(value)\n",
            "    if isinstance(value, Binary):\n",
            "        return base64.b64encode(value.value).decode()\n",
            "    if isinstance(value, (bytes, bytearray)):\n",
            "        return base64.b64encode(value).decode()\n",
            "    if isinstance(value, set):\n",
            "        return sorted(v if isinstance(v, str) else to_json(v) for v in value)\n",
            "    raise TypeError(f\"not JSON: {value!r}\")\n",
            "\n\n",
        ));
    } else {
        out.push_str("client = boto3.client(\"dynamodb\")\n\n");
    }
    out.push_str("params = {\n");
    for (name, value) in parameters(request, resource) {
        out.push_str(&format!("    {}: {value},\n", quoted(&name)));
    }
    out.push_str("}\n");
    let (call, dump) = if resource {
        (
            format!("table.{method}(**params)"),
            "json.dumps(item, default=to_json)",
        )
    } else {
        (
            format!("client.{method}(**params)"),
            // The client gives binary values as bytes: printed as base64, as on the wire.
            "json.dumps(item, default=lambda b: base64.b64encode(b).decode())",
        )
    };
    out.push_str(&format!(
        "while True:\n    page = {call}\n    for item in page[\"Items\"]:\n        print({dump})\n"
    ));
    out.push_str(concat!(
        "    if \"LastEvaluatedKey\" not in page:\n",
        "        break\n",
        "    params[\"ExclusiveStartKey\"] = page[\"LastEvaluatedKey\"]\n",
    ));
    out
}
