"""Issue 18, group 4: enumerations are listed in the order the service lists them
(docs/dynamodb-rules.md B.15), which is not the API model's order."""

import pytest
from botocore.exceptions import ClientError

KEY = {"pk": {"S": "a"}}


def enum_error(value, member, values):
    return (f"1 validation error detected: Value '{value}' at '{member}' failed to satisfy constraint: "
            f"Member must satisfy enum value set: [{values}]")


CASES = [
    ("query-select", "query", dict(TableName="Missing", KeyConditionExpression="pk = :v",
                                   ExpressionAttributeValues={":v": {"S": "a"}}, Select="SOME"),
     enum_error("SOME", "select", "SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES")),
    ("scan-select", "scan", dict(TableName="Missing", Select="SOME"),
     enum_error("SOME", "select", "SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES")),
    ("return-values", "update_item", dict(TableName="Missing", Key=KEY, ReturnValues="EVERYTHING"),
     enum_error("EVERYTHING", "returnValues", "ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW")),
    ("return-consumed-capacity", "get_item", dict(TableName="Missing", Key=KEY, ReturnConsumedCapacity="ALL"),
     enum_error("ALL", "returnConsumedCapacity", "INDEXES, TOTAL, NONE")),
    ("return-item-collection-metrics", "put_item",
     dict(TableName="Missing", Item=KEY, ReturnItemCollectionMetrics="ALL"),
     enum_error("ALL", "returnItemCollectionMetrics", "SIZE, NONE")),
    ("conditional-operator", "scan",
     dict(TableName="Missing", ConditionalOperator="XOR",
          ScanFilter={"a": {"ComparisonOperator": "NOT_NULL"}, "b": {"ComparisonOperator": "NULL"}}),
     enum_error("XOR", "conditionalOperator", "OR, AND")),
    ("comparison-operator", "scan", dict(TableName="Missing", ScanFilter={"a": {"ComparisonOperator": "SAME"}}),
     enum_error("SAME", "scanFilter.a.member.comparisonOperator",
                "IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS")),
    ("attribute-action", "update_item",
     dict(TableName="Missing", Key=KEY, AttributeUpdates={"n": {"Action": "MULTIPLY", "Value": {"N": "2"}}}),
     enum_error("MULTIPLY", "attributeUpdates.n.member.action", "ADD, DELETE, PUT")),
    ("projection-type", "create_table",
     dict(TableName="New", BillingMode="PAY_PER_REQUEST",
          AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "S"}],
          KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}],
          GlobalSecondaryIndexes=[{"IndexName": "ix1", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                                   "Projection": {"ProjectionType": "SOME"}}]),
     enum_error("SOME", "globalSecondaryIndexes.1.member.projection.projectionType", "ALL, INCLUDE, KEYS_ONLY")),
    ("billing-mode", "update_table", dict(TableName="Missing", BillingMode="FREE"),
     enum_error("FREE", "billingMode", "PROVISIONED, PAY_PER_REQUEST")),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_an_enumeration_is_listed_in_the_services_order(raw, call, params, message):
    with pytest.raises(ClientError) as caught:
        getattr(raw, call)(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == message


def test_create_table_types_and_key_types(raw):
    with pytest.raises(ClientError) as caught:
        raw.create_table(TableName="New", BillingMode="PAY_PER_REQUEST",
                         AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "X"}],
                         KeySchema=[{"AttributeName": "a", "KeyType": "SORT"}])
    assert caught.value.response["Error"]["Message"] == (
        "2 validation errors detected: Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to "
        "satisfy constraint: Member must satisfy enum value set: [B, N, S]; Value 'SORT' at "
        "'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: "
        "[HASH, RANGE]")
