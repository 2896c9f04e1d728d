//! Bad input gets a DynamoDB error, never a panic or an internal error: random JSON shaped like
//! requests (member names from the API, values of every JSON type, attribute values good and
//! bad) is sent to every operation against a table that exists.

use dynotable_engine::{Engine, ErrorKind, Location};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const OPERATIONS: &[&str] = &[
    "CreateTable",
    "DescribeTable",
    "ListTables",
    "DeleteTable",
    "UpdateTable",
    "PutItem",
    "GetItem",
    "UpdateItem",
    "DeleteItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "TransactGetItems",
    "ExecuteStatement",
    "BatchExecuteStatement",
    "ExecuteTransaction",
    "UpdateTimeToLive",
    "DescribeTimeToLive",
    "TagResource",
    "UntagResource",
    "ListTagsOfResource",
];

const MEMBERS: &[&str] = &[
    "TableName",
    "Item",
    "Key",
    "Keys",
    "IndexName",
    "KeyConditionExpression",
    "FilterExpression",
    "ProjectionExpression",
    "ConditionExpression",
    "UpdateExpression",
    "ExpressionAttributeNames",
    "ExpressionAttributeValues",
    "ReturnValues",
    "ReturnConsumedCapacity",
    "Limit",
    "ExclusiveStartKey",
    "Select",
    "ScanIndexForward",
    "ConsistentRead",
    "Segment",
    "TotalSegments",
    "RequestItems",
    "PutRequest",
    "DeleteRequest",
    "KeySchema",
    "AttributeDefinitions",
    "AttributeName",
    "AttributeType",
    "KeyType",
    "BillingMode",
    "ProvisionedThroughput",
    "GlobalSecondaryIndexes",
    "LocalSecondaryIndexes",
    "GlobalSecondaryIndexUpdates",
    "Projection",
    "ProjectionType",
    "pk",
    "sk",
    "S",
    "N",
    "B",
    "SS",
    "NS",
    "BS",
    "M",
    "L",
    "NULL",
    "BOOL",
    "#n",
    ":v",
    "Statement",
    "Parameters",
    "Statements",
    "TransactStatements",
    "NextToken",
    "ClientRequestToken",
    "TransactItems",
    "Put",
    "Update",
    "Delete",
    "ConditionCheck",
    "Get",
    "TimeToLiveSpecification",
    "Enabled",
    "ResourceArn",
    "Tags",
    "TagKeys",
];

const STRINGS: &[&str] = &[
    "Things",
    "pk",
    "sk",
    "pk = :v",
    "pk = :v AND sk > :v",
    "SET a = :v",
    "#n = :v",
    "attribute_exists(pk)",
    "a.b[1]",
    "1E999",
    "-0",
    "",
    "HASH",
    "RANGE",
    "ALL_OLD",
    "TOTAL",
    "INDEXES",
    "COUNT",
    "PAY_PER_REQUEST",
    "dGVzdA==",
    "not base64!",
    "((((",
    "size(a) > :v",
    ":v",
    "#n",
    "SELECT * FROM Things WHERE pk = ?",
    "INSERT INTO Things VALUE {'pk': 'a', 'sk': 1}",
    "UPDATE Things SET x = 1 WHERE pk = 'a' AND sk = 1",
    "DELETE FROM Things WHERE pk = ?",
    "SELECT * FROM \"Things\".\"nope\"",
    "arn:aws:dynamodb:local:000000000000:table/Things",
];

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..100_000).prop_map(|n| json!(n)),
        prop::sample::select(STRINGS).prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(MEMBERS), inner), 0..5).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

fn engine_with_table(runtime: &tokio::runtime::Runtime) -> Engine {
    runtime.block_on(async {
        let engine = Engine::open(Location::InMemory).await.unwrap();
        let create = json!({"TableName": "Things", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]});
        engine.call("CreateTable", create.to_string().as_bytes()).await.unwrap();
        engine
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_requests_get_dynamodb_errors_not_faults(operation in prop::sample::select(OPERATIONS),
                                                      mut body in json_value(), name_the_table in any::<bool>()) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let engine = engine_with_table(&runtime);
        if name_the_table && let Value::Object(map) = &mut body {
            map.insert("TableName".into(), json!("Things"));
        }
        let result = runtime.block_on(engine.call(operation, body.to_string().as_bytes()));
        if let Err(err) = result {
            prop_assert_ne!(err.kind, ErrorKind::InternalServerError, "{} {}: {}", operation, body, err.message);
            prop_assert!(!err.message.is_empty() || err.kind == ErrorKind::UnknownOperationException);
        }
    }
}
