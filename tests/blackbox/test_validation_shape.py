"""Issue 18, group 4: shape and constraint errors (docs/dynamodb-rules.md B.15). The member list
comes before the table is looked up, with camelCase member paths, values echoed as sent and at
most ten violations, for every operation."""

import pytest
from botocore.exceptions import ClientError


ENUM_RV = "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"
ENUM_RCC = "[INDEXES, TOTAL, NONE]"
ENUM_SELECT = "[SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"
OPERATORS = "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"


def violation(value, member, constraint):
    shown = "null" if value is None else f"'{value}'"
    return f"Value {shown} at '{member}' failed to satisfy constraint: {constraint}"


def envelope(*violations):
    noun = "error" if len(violations) == 1 else "errors"
    return f"{len(violations)} validation {noun} detected: " + "; ".join(violations)


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


KEY = {"pk": {"S": "a"}}

CASES = [
    ("get_item", dict(TableName="Missing", Key=KEY, AttributesToGet=[]),
     envelope(violation("[]", "attributesToGet", "Member must have length greater than or equal to 1"))),
    ("batch_get_item", dict(RequestItems={"Missing": {"Keys": []}}),
     envelope(violation("[]", "requestItems.Missing.member.keys",
                        "Member must have length greater than or equal to 1"))),
    ("query", dict(TableName="Missing", KeyConditions={"pk": {"ComparisonOperator": "SAME"}}),
     envelope(violation("SAME", "keyConditions.pk.member.comparisonOperator",
                        f"Member must satisfy enum value set: {OPERATORS}"))),
    ("scan", dict(TableName="Missing", ScanFilter={"a": {"ComparisonOperator": "SAME"}}, IndexName="ix"),
     envelope(violation("SAME", "scanFilter.a.member.comparisonOperator",
                        f"Member must satisfy enum value set: {OPERATORS}"),
              violation("ix", "indexName", "Member must have length greater than or equal to 3"))),
    ("describe_table", dict(TableName="ab"),
     envelope(violation("ab", "tableName", "Member must have length greater than or equal to 3"))),
    ("delete_table", dict(TableName="a b"),
     envelope(violation("a b", "tableName", "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"))),
    # (An empty AttributeName has a sentence of its own, rule B.17: tests/blackbox/test_time_to_live_answers.py.)
    ("update_time_to_live", dict(TableName="Missing", TimeToLiveSpecification={"Enabled": True, "AttributeName": "a" * 256}),
     envelope(violation("a" * 256, "timeToLiveSpecification.attributeName",
                        "Member must have length less than or equal to 255"))),
    ("transact_write_items", dict(TransactItems=[{"Put": {"TableName": "Missing", "Item": KEY,
                                                          "ReturnValuesOnConditionCheckFailure": "ALL_NEW"}}]),
     envelope(violation("ALL_NEW", "transactItems.1.member.put.returnValuesOnConditionCheckFailure",
                        "Member must satisfy enum value set: [ALL_OLD, NONE]"))),
]


@pytest.mark.parametrize("call, params, message", CASES, ids=[c[0] for c in CASES])
def test_the_member_list_comes_before_the_unknown_table(raw, call, params, message):
    assert refused(getattr(raw, call), **params) == message


def test_a_global_index_member_path_is_numbered_from_one(raw):
    message = refused(raw.create_table, TableName="New", BillingMode="PAY_PER_REQUEST",
                      AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "S"}],
                      KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}],
                      GlobalSecondaryIndexes=[
                          {"IndexName": "ok1", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "ALL"}},
                          {"IndexName": "x", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                           "Projection": {"ProjectionType": "ALL"}}])
    assert message == envelope(violation("x", "globalSecondaryIndexes.2.member.indexName",
                                         "Member must have length greater than or equal to 3"))


@pytest.mark.parametrize("call, params", [
    ("get_item", dict(Key=KEY)),
    ("query", dict(KeyConditionExpression="pk = :v", ExpressionAttributeValues={":v": {"S": "a"}})),
    ("delete_item", dict(Key=KEY)),
], ids=["get_item", "query", "delete_item"])
def test_an_empty_table_name_fails_its_length_of_one_alone(raw, call, params):
    message = refused(getattr(raw, call), TableName="", **params)
    assert message == envelope(violation("", "tableName", "Member must have length greater than or equal to 1"))


def test_a_later_transaction_actions_members_come_before_an_earlier_actions_table(raw):
    message = refused(raw.transact_write_items, TransactItems=[
        {"Delete": {"TableName": "Missing", "Key": KEY}},
        {"Update": {"TableName": "Missing", "Key": KEY}}])
    assert message == envelope(violation(None, "transactItems.2.member.update.updateExpression",
                                         "Member must not be null"))


def test_get_item_lists_consumed_capacity_and_attributes_before_the_table_and_key(raw):
    message = refused(raw.get_item, TableName="ab", ReturnConsumedCapacity="ALL", AttributesToGet=[])
    assert message == envelope(
        violation("ALL", "returnConsumedCapacity", f"Member must satisfy enum value set: {ENUM_RCC}"),
        violation("[]", "attributesToGet", "Member must have length greater than or equal to 1"),
        violation("ab", "tableName", "Member must have length greater than or equal to 3"),
        violation(None, "key", "Member must not be null"))


def test_put_item_lists_return_values_first(raw):
    message = refused(raw.put_item, TableName="Missing", Item=KEY, ReturnValues="INVALID",
                      ReturnConsumedCapacity="INVALID", ReturnItemCollectionMetrics="INVALID")
    assert message == envelope(
        violation("INVALID", "returnValues", f"Member must satisfy enum value set: {ENUM_RV}"),
        violation("INVALID", "returnConsumedCapacity", f"Member must satisfy enum value set: {ENUM_RCC}"),
        violation("INVALID", "returnItemCollectionMetrics", "Member must satisfy enum value set: [SIZE, NONE]"))


def test_delete_item_lists_return_values_before_the_table_name(raw):
    message = refused(raw.delete_item, TableName="", Key=KEY, ReturnValues="INVALID")
    assert message == envelope(
        violation("INVALID", "returnValues", f"Member must satisfy enum value set: {ENUM_RV}"),
        violation("", "tableName", "Member must have length greater than or equal to 1"))


def test_update_item_lists_consumed_capacity_first(raw):
    message = refused(raw.update_item, TableName="Missing", Key=KEY, ReturnValues="INVALID",
                      ReturnConsumedCapacity="INVALID")
    assert message == envelope(
        violation("INVALID", "returnConsumedCapacity", f"Member must satisfy enum value set: {ENUM_RCC}"),
        violation("INVALID", "returnValues", f"Member must satisfy enum value set: {ENUM_RV}"))


def test_query_lists_limit_first_and_the_names_last(raw):
    message = refused(raw.query, TableName="x", IndexName="y", Limit=0, Select="BAD", ReturnConsumedCapacity="BAD",
                      KeyConditionExpression="pk = :v", ExpressionAttributeValues={":v": {"S": "a"}})
    assert message == envelope(
        violation("0", "limit", "Member must have value greater than or equal to 1"),
        violation("BAD", "returnConsumedCapacity", f"Member must satisfy enum value set: {ENUM_RCC}"),
        violation("BAD", "select", f"Member must satisfy enum value set: {ENUM_SELECT}"),
        violation("x", "tableName", "Member must have length greater than or equal to 3"),
        violation("y", "indexName", "Member must have length greater than or equal to 3"))


def test_scan_lists_segment_before_select_and_total_segments_after(raw):
    message = refused(raw.scan, TableName="Missing", Select="BAD", Segment=-1, TotalSegments=0)
    assert message == envelope(
        violation("-1", "segment", "Member must have value greater than or equal to 0"),
        violation("BAD", "select", f"Member must satisfy enum value set: {ENUM_SELECT}"),
        violation("0", "totalSegments", "Member must have value greater than or equal to 1"))


def test_at_most_ten_violations_are_listed(raw):
    conditions = {name: {"ComparisonOperator": f"{name}1"} for name in "abcdefgh"}
    message = refused(raw.scan, TableName="x", Limit=0, Select="BAD", ReturnConsumedCapacity="BAD",
                      ScanFilter=conditions)
    assert message.startswith("10 validation errors detected: ")
    assert message.count("failed to satisfy constraint") == 10
    # The eleventh and later (the last filter entries, the table name) are left out.
    assert "at 'tableName'" not in message


def test_list_tables_lists_limit_before_the_start_name(raw):
    # Rule B.15, the order dynalite recorded.
    message = refused(raw.list_tables, Limit=0, ExclusiveStartTableName="ab")
    assert message == envelope(
        violation("0", "limit", "Member must have value greater than or equal to 1"),
        violation("ab", "exclusiveStartTableName", "Member must have length greater than or equal to 3"))


def test_provisioned_throughput_lists_write_before_read(raw):
    # Rule B.15, the order dynalite recorded.
    message = refused(raw.update_table, TableName="Missing",
                      ProvisionedThroughput={"ReadCapacityUnits": 0, "WriteCapacityUnits": 0})
    assert message == envelope(
        violation("0", "provisionedThroughput.writeCapacityUnits", "Member must have value greater than or equal to 1"),
        violation("0", "provisionedThroughput.readCapacityUnits", "Member must have value greater than or equal to 1"))
