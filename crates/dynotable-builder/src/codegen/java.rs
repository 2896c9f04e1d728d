//! Java, AWS SDK for Java 2.x: a class with `main` that builds a `QueryRequest`/`ScanRequest`
//! and reads every item through the synchronous client's paginator
//! (`queryPaginator(request).items()`), printing each.
//!
//! Artifact of the program: software.amazon.awssdk:dynamodb.

use dynotable_types::AttributeValue;

use super::{base64, pascal_identifier, quoted};
use crate::request::{GeneratedRequest, ReadOperation};

fn bytes(b: &[u8]) -> String {
    format!(
        "SdkBytes.fromByteArray(Base64.getDecoder().decode({}))",
        quoted(&base64(b))
    )
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("List.of({})", items.collect::<Vec<_>>().join(", "))
}

fn value(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => format!("AttributeValue.fromS({})", quoted(s)),
        AttributeValue::N(n) => format!("AttributeValue.fromN({})", quoted(&n.to_string())),
        AttributeValue::B(b) => format!("AttributeValue.fromB({})", bytes(b)),
        AttributeValue::BOOL(b) => format!("AttributeValue.fromBool({b})"),
        AttributeValue::NULL => "AttributeValue.fromNul(true)".into(),
        AttributeValue::M(map) => format!(
            "AttributeValue.fromM(Map.ofEntries({}))",
            map.iter()
                .map(|(k, v)| format!("Map.entry({}, {})", quoted(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttributeValue::L(items) => format!("AttributeValue.fromL({})", list(items.iter().map(value))),
        AttributeValue::SS(set) => format!("AttributeValue.fromSs({})", list(set.iter().map(|s| quoted(s)))),
        AttributeValue::NS(set) => format!(
            "AttributeValue.fromNs({})",
            list(set.iter().map(|n| quoted(&n.to_string())))
        ),
        AttributeValue::BS(set) => format!("AttributeValue.fromBs({})", list(set.iter().map(|b| bytes(b)))),
    }
}

fn mentions(v: &AttributeValue, f: &dyn Fn(&AttributeValue) -> bool) -> bool {
    f(v) || match v {
        AttributeValue::M(map) => map.values().any(|v| mentions(v, f)),
        AttributeValue::L(items) => items.iter().any(|v| mentions(v, f)),
        _ => false,
    }
}

pub(crate) fn export(request: &GeneratedRequest) -> String {
    let operation = request.operation.name();
    let method = match request.operation {
        ReadOperation::Query => "queryPaginator",
        ReadOperation::Scan => "scanPaginator",
    };
    let values: Vec<&AttributeValue> = request
        .expression_attribute_values
        .iter()
        .flat_map(|v| v.values())
        .collect();
    let any = |f: &dyn Fn(&AttributeValue) -> bool| values.iter().any(|v| mentions(v, f));
    let uses_bytes = any(&|v| matches!(v, AttributeValue::B(_) | AttributeValue::BS(_)));
    let uses_list = any(&|v| {
        matches!(
            v,
            AttributeValue::L(_) | AttributeValue::SS(_) | AttributeValue::NS(_) | AttributeValue::BS(_)
        )
    });
    let mut imports = Vec::new();
    if uses_bytes {
        imports.push("java.util.Base64".to_string());
    }
    if uses_list {
        imports.push("java.util.List".to_string());
    }
    if request.expression_attribute_names.is_some() || !values.is_empty() {
        imports.push("java.util.Map".to_string());
    }
    let mut sdk = Vec::new();
    if uses_bytes {
        sdk.push("software.amazon.awssdk.core.SdkBytes".to_string());
    }
    sdk.push("software.amazon.awssdk.services.dynamodb.DynamoDbClient".to_string());
    if !values.is_empty() {
        sdk.push("software.amazon.awssdk.services.dynamodb.model.AttributeValue".to_string());
    }
    sdk.push(format!(
        "software.amazon.awssdk.services.dynamodb.model.{operation}Request"
    ));
    if request.return_consumed_capacity.is_some() {
        sdk.push("software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity".to_string());
    }
    let mut out = String::new();
    for import in &imports {
        out.push_str(&format!("import {import};\n"));
    }
    if !imports.is_empty() {
        out.push('\n');
    }
    for import in &sdk {
        out.push_str(&format!("import {import};\n"));
    }
    let class = format!("{operation}{}", pascal_identifier(&request.table_name));
    out.push_str(&format!("\npublic class {class} {{\n"));
    out.push_str("    public static void main(String[] args) {\n");
    out.push_str("        try (DynamoDbClient client = DynamoDbClient.create()) {\n");
    out.push_str(&format!(
        "            {operation}Request request = {operation}Request.builder()\n"
    ));
    let mut call = |text: String| out.push_str(&format!("                    .{text}\n"));
    call(format!("tableName({})", quoted(&request.table_name)));
    for (name, value) in [
        ("indexName", &request.index_name),
        ("keyConditionExpression", &request.key_condition_expression),
        ("filterExpression", &request.filter_expression),
        ("projectionExpression", &request.projection_expression),
    ] {
        if let Some(value) = value {
            call(format!("{name}({})", quoted(value)));
        }
    }
    let entries = |parts: Vec<String>| {
        format!(
            "Map.ofEntries(\n{})",
            parts
                .iter()
                .map(|p| format!("                            {p}"))
                .collect::<Vec<_>>()
                .join(",\n")
        )
    };
    if let Some(names) = &request.expression_attribute_names {
        let parts = names
            .iter()
            .map(|(k, v)| format!("Map.entry({}, {})", quoted(k), quoted(v)))
            .collect();
        call(format!("expressionAttributeNames({})", entries(parts)));
    }
    if let Some(values) = &request.expression_attribute_values {
        let parts = values
            .iter()
            .map(|(k, v)| format!("Map.entry({}, {})", quoted(k), value(v)))
            .collect();
        call(format!("expressionAttributeValues({})", entries(parts)));
    }
    if let Some(forward) = request.scan_index_forward {
        call(format!("scanIndexForward({forward})"));
    }
    if let Some(limit) = request.limit {
        call(format!("limit({limit})"));
    }
    if request.consistent_read == Some(true) {
        call("consistentRead(true)".into());
    }
    if let Some(capacity) = request.return_consumed_capacity {
        call(format!(
            "returnConsumedCapacity(ReturnConsumedCapacity.{})",
            capacity.as_str()
        ));
    }
    call("build();".into());
    out.push_str(&format!(
        "            client.{method}(request).items().forEach(System.out::println);\n"
    ));
    out.push_str("        }\n    }\n}\n");
    out
}
