//! Go, AWS SDK for Go v2: `config.LoadDefaultConfig`, a `QueryInput`/`ScanInput` literal, and
//! the SDK's `NewQueryPaginator`/`NewScanPaginator` over every page, printing each item.
//!
//! Modules of the program: github.com/aws/aws-sdk-go-v2 (aws, config,
//! service/dynamodb, service/dynamodb/types).

use dynotable_types::AttributeValue;

use super::quoted;
use crate::request::GeneratedRequest;

fn bytes(b: &[u8]) -> String {
    let parts: Vec<String> = b.iter().map(|byte| format!("0x{byte:02x}")).collect();
    format!("[]byte{{{}}}", parts.join(", "))
}

fn strings(items: impl Iterator<Item = String>) -> String {
    format!(
        "[]string{{{}}}",
        items.map(|s| quoted(&s)).collect::<Vec<_>>().join(", ")
    )
}

fn value(v: &AttributeValue, indent: &str) -> String {
    match v {
        AttributeValue::S(s) => format!("&types.AttributeValueMemberS{{Value: {}}}", quoted(s)),
        AttributeValue::N(n) => format!(
            "&types.AttributeValueMemberN{{Value: {}}}",
            quoted(&n.to_string())
        ),
        AttributeValue::B(b) => format!("&types.AttributeValueMemberB{{Value: {}}}", bytes(b)),
        AttributeValue::BOOL(b) => format!("&types.AttributeValueMemberBOOL{{Value: {b}}}"),
        AttributeValue::NULL => "&types.AttributeValueMemberNULL{Value: true}".into(),
        AttributeValue::M(map) => {
            let inner = format!("{indent}\t");
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{inner}{}: {},\n", quoted(k), value(v, &inner)))
                .collect();
            format!(
                "&types.AttributeValueMemberM{{Value: map[string]types.AttributeValue{{\n{}{indent}}}}}",
                parts.concat()
            )
        }
        AttributeValue::L(list) => {
            let parts: Vec<String> = list.iter().map(|v| value(v, indent)).collect();
            format!(
                "&types.AttributeValueMemberL{{Value: []types.AttributeValue{{{}}}}}",
                parts.join(", ")
            )
        }
        AttributeValue::SS(set) => format!(
            "&types.AttributeValueMemberSS{{Value: {}}}",
            strings(set.iter().cloned())
        ),
        AttributeValue::NS(set) => format!(
            "&types.AttributeValueMemberNS{{Value: {}}}",
            strings(set.iter().map(|n| n.to_string()))
        ),
        AttributeValue::BS(set) => {
            let parts: Vec<String> = set.iter().map(|b| bytes(b)).collect();
            format!(
                "&types.AttributeValueMemberBS{{Value: [][]byte{{{}}}}}",
                parts.join(", ")
            )
        }
    }
}

pub(crate) fn export(request: &GeneratedRequest) -> String {
    let operation = request.operation.name();
    let needs_types =
        request.expression_attribute_values.is_some() || request.return_consumed_capacity.is_some();
    let mut out = String::from("package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"log\"\n\n");
    out.push_str("\t\"github.com/aws/aws-sdk-go-v2/aws\"\n");
    out.push_str("\t\"github.com/aws/aws-sdk-go-v2/config\"\n");
    out.push_str("\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n");
    if needs_types {
        out.push_str("\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n");
    }
    out.push_str(")\n\nfunc main() {\n\tctx := context.Background()\n");
    out.push_str("\tcfg, err := config.LoadDefaultConfig(ctx)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n");
    out.push_str("\tclient := dynamodb.NewFromConfig(cfg)\n");
    out.push_str(&format!(
        "\tpaginator := dynamodb.New{operation}Paginator(client, &dynamodb.{operation}Input{{\n"
    ));
    let mut field = |name: &str, value: String| out.push_str(&format!("\t\t{name}: {value},\n"));
    field(
        "TableName",
        format!("aws.String({})", quoted(&request.table_name)),
    );
    for (name, value) in [
        ("IndexName", &request.index_name),
        ("KeyConditionExpression", &request.key_condition_expression),
        ("FilterExpression", &request.filter_expression),
        ("ProjectionExpression", &request.projection_expression),
    ] {
        if let Some(value) = value {
            field(name, format!("aws.String({})", quoted(value)));
        }
    }
    if let Some(names) = &request.expression_attribute_names {
        let parts: Vec<String> = names
            .iter()
            .map(|(k, v)| format!("\t\t\t{}: {},\n", quoted(k), quoted(v)))
            .collect();
        field(
            "ExpressionAttributeNames",
            format!("map[string]string{{\n{}\t\t}}", parts.concat()),
        );
    }
    if let Some(values) = &request.expression_attribute_values {
        let parts: Vec<String> = values
            .iter()
            .map(|(k, v)| format!("\t\t\t{}: {},\n", quoted(k), value(v, "\t\t\t")))
            .collect();
        field(
            "ExpressionAttributeValues",
            format!("map[string]types.AttributeValue{{\n{}\t\t}}", parts.concat()),
        );
    }
    if let Some(forward) = request.scan_index_forward {
        field("ScanIndexForward", format!("aws.Bool({forward})"));
    }
    if let Some(limit) = request.limit {
        field("Limit", format!("aws.Int32({limit})"));
    }
    if request.consistent_read == Some(true) {
        field("ConsistentRead", "aws.Bool(true)".into());
    }
    if let Some(capacity) = request.return_consumed_capacity {
        let constant = match capacity.as_str() {
            "INDEXES" => "Indexes",
            "TOTAL" => "Total",
            _ => "None",
        };
        field(
            "ReturnConsumedCapacity",
            format!("types.ReturnConsumedCapacity{constant}"),
        );
    }
    out.push_str("\t})\n");
    out.push_str(concat!(
        "\tfor paginator.HasMorePages() {\n",
        "\t\tpage, err := paginator.NextPage(ctx)\n",
        "\t\tif err != nil {\n\t\t\tlog.Fatal(err)\n\t\t}\n",
        "\t\tfor _, item := range page.Items {\n\t\t\tfmt.Println(item)\n\t\t}\n",
        "\t}\n}\n",
    ));
    out
}
