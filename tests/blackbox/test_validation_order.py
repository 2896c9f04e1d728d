"""Issue 18, group 4 (what was done of it): shape and constraint errors come before
ResourceNotFoundException, and a body that is not JSON is a SerializationException with no
message, as the service answers."""

import pytest
from botocore.exceptions import ClientError

from conftest import post_body




@pytest.mark.parametrize("body", [b"not json", b'{"TableName":', b"{]", b'{"TableName":"T"} trailing'],
                         ids=["word", "truncated", "broken", "trailing"])
def test_a_body_that_is_not_json_is_a_serialization_exception_without_message(server, body):
    status, answer = post_body(server.endpoint, "GetItem", body)
    assert status == 400
    assert answer == {"__type": "com.amazon.coral.service#SerializationException"}


@pytest.mark.parametrize("call, kwargs, message", [
    ("get_item", dict(Key={"id": {"S": "a"}}, ReturnConsumedCapacity="ALL"),
     "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: "
     "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"),
    ("query", dict(KeyConditionExpression="id = :v", ExpressionAttributeValues={":v": {"S": "a"}}, Limit=0),
     "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
     "Member must have value greater than or equal to 1"),
    ("scan", dict(Segment=-1, TotalSegments=2),
     "1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: "
     "Member must have value greater than or equal to 0"),
    ("update_item", dict(Key={"id": {"S": "a"}}, ReturnValues="EVERYTHING"),
     "1 validation error detected: Value 'EVERYTHING' at 'returnValues' failed to satisfy constraint: "
     "Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"),
], ids=["get_item", "query", "scan", "update_item"])
def test_shape_errors_come_before_resource_not_found(raw, call, kwargs, message):
    with pytest.raises(ClientError) as caught:
        getattr(raw, call)(TableName="Missing", **kwargs)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == message


def test_an_empty_batch_write_echoes_the_map(raw):
    with pytest.raises(ClientError) as caught:
        raw.batch_write_item(RequestItems={"Missing": []})
    assert caught.value.response["Error"]["Message"] == (
        "1 validation error detected: Value '{Missing=[]}' at 'requestItems' failed to satisfy constraint: "
        "Map value must satisfy constraint: [Member must have length less than or equal to 25, "
        "Member must have length greater than or equal to 1]")


@pytest.mark.parametrize("kwargs, message", [
    ({}, "The parameter 'TableName' is required but was not present in the request"),
    ({"TableName": "ab"}, "TableName must be at least 3 characters long and at most 255 characters long"),
    ({"TableName": "a" * 256}, "TableName must be at least 3 characters long and at most 255 characters long"),
    ({"TableName": "abc;"},
     "3 validation errors detected: Value null at 'attributeDefinitions' failed to satisfy constraint: Member must "
     "not be null; Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression "
     "pattern: [a-zA-Z0-9_.-]+; Value null at 'keySchema' failed to satisfy constraint: Member must not be null"),
], ids=["missing", "short", "long", "pattern-in-the-list"])
def test_create_table_checks_the_table_name_first(raw, kwargs, message):
    with pytest.raises(ClientError) as caught:
        raw.create_table(**kwargs)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == message


# Rule B.15, step 2 before step 3: what a request says on its own is checked before the table is
# looked up (found by a differential sweep against dynalite, whose validations run before it).
@pytest.mark.parametrize("call, kwargs, message", [
    ("query", dict(KeyConditionExpression="id = :v OR id = :v", ExpressionAttributeValues={":v": {"S": "a"}}),
     "Invalid operator used in KeyConditionExpression: OR"),
    ("query", dict(KeyConditionExpression="id = :v AND", ExpressionAttributeValues={":v": {"S": "a"}}),
     'Invalid KeyConditionExpression: Syntax error; token: "<EOF>", near: "AND"'),
    ("query", dict(KeyConditionExpression="id = :v AND begins_with(id, :v) AND id = :v",
                   ExpressionAttributeValues={":v": {"S": "a"}}),
     "KeyConditionExpressions must only contain one condition per key"),
    ("query", dict(KeyConditionExpression="id = :v", FilterExpression="n =",
                   ExpressionAttributeValues={":v": {"S": "a"}}),
     'Invalid FilterExpression: Syntax error; token: "<EOF>", near: "="'),
    ("query", dict(KeyConditionExpression="id = :v", ExpressionAttributeValues={":v": {"S": "a"}, ":w": {"S": "b"}}),
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"),
    ("update_table", dict(),
     "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or "
     "SSESpecification or ReplicaUpdates is required"),
    ("update_table", dict(BillingMode="PROVISIONED"),
     "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is "
     "PROVISIONED"),
], ids=["key-condition-or", "key-condition-syntax", "two-conditions-on-a-key", "filter-syntax", "unused-value",
        "update-table-without-a-change", "update-table-provisioned-without-throughput"])
def test_request_checks_come_before_resource_not_found(raw, call, kwargs, message):
    with pytest.raises(ClientError) as caught:
        getattr(raw, call)(TableName="Missing", **kwargs)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == message


@pytest.mark.parametrize("billing", ["PROVISIONED", "PAY_PER_REQUEST"])
def test_update_table_to_provisioned_names_its_throughput(raw, billing):
    # A 2026-10 live probe: the same answer on a table already provisioned.
    throughput = {"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}} \
        if billing == "PROVISIONED" else {}
    raw.create_table(TableName="Billed", BillingMode=billing, **throughput,
                     AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
    with pytest.raises(ClientError) as caught:
        raw.update_table(TableName="Billed", BillingMode="PROVISIONED")
    assert caught.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is "
        "PROVISIONED")


# Rule B.7: an item over 400 KB is a check of the request alone, made before the table is looked
# up (dynalite's test/putItem.js and test/batchWriteItem.js, run against the service, meet the
# limit at 409,601 bytes against a table that does not exist; PutItem's, beside an Expected entry
# that is itself invalid, which the size check precedes).
def too_big_item():
    key = "k" * 10
    return {"a": {"S": key}, "b": {"S": "x" * (400 * 1024 - len(key) - 1)}}


@pytest.mark.parametrize("call, kwargs", [
    ("put_item", dict(TableName="Missing", Item=too_big_item(), Expected={"a": {}})),
    ("batch_write_item", dict(RequestItems={"Missing": [{"PutRequest": {"Item": too_big_item()}}]})),
], ids=["put_item", "batch_write_item"])
def test_an_item_over_400_kb_is_refused_before_resource_not_found(raw, call, kwargs):
    with pytest.raises(ClientError) as caught:
        getattr(raw, call)(**kwargs)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == "Item size has exceeded the maximum allowed size"
