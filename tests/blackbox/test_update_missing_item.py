"""UpdateItem with only REMOVE / DELETE actions on an item that does not exist creates nothing
(issue 18, group 5): no item, no stream record, 1 write unit charged, no Attributes returned —
through an UpdateExpression and through the legacy AttributeUpdates."""

import pytest

from conftest import CLIENT_CONFIG, session

THINGS = dict(
    TableName="Things",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
)
KEY = {"id": {"S": "missing"}}


@pytest.fixture
def streams(server):
    return session().client("dynamodbstreams", endpoint_url=server.endpoint, config=CLIENT_CONFIG)


@pytest.fixture
def things(client):
    return client.create_table(**THINGS)["TableDescription"]["LatestStreamArn"]


def stream_records(streams, arn):
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = []
    while True:
        page = streams.get_records(ShardIterator=iterator)
        if not page["Records"]:
            return records
        records += page["Records"]
        iterator = page["NextShardIterator"]


def assert_nothing_written(client, streams, arn):
    assert "Item" not in client.get_item(TableName="Things", Key=KEY, ConsistentRead=True)
    assert client.scan(TableName="Things", Select="COUNT")["Count"] == 0
    assert stream_records(streams, arn) == []


@pytest.mark.parametrize("update", [
    dict(UpdateExpression="REMOVE x"),
    dict(UpdateExpression="REMOVE x, y.z[0]"),
    dict(UpdateExpression="DELETE tags :t", ExpressionAttributeValues={":t": {"SS": ["red"]}}),
    dict(UpdateExpression="REMOVE x DELETE tags :t", ExpressionAttributeValues={":t": {"NS": ["1"]}}),
], ids=["remove", "remove-nested", "delete-from-set", "remove-and-delete"])
@pytest.mark.parametrize("return_values", ["ALL_NEW", "UPDATED_NEW", "ALL_OLD", "NONE"])
def test_an_update_expression_of_removals_creates_nothing(client, streams, things, update, return_values):
    response = client.update_item(TableName="Things", Key=KEY, ReturnValues=return_values,
                                  ReturnConsumedCapacity="TOTAL", **update)
    assert "Attributes" not in response
    assert response["ConsumedCapacity"] == {"TableName": "Things", "CapacityUnits": 1.0}
    assert_nothing_written(client, streams, things)


def test_legacy_delete_actions_create_nothing(client, streams, things):
    response = client.update_item(
        TableName="Things", Key=KEY, ReturnValues="ALL_NEW", ReturnConsumedCapacity="TOTAL",
        AttributeUpdates={"x": {"Action": "DELETE"}, "tags": {"Action": "DELETE", "Value": {"SS": ["red"]}}})
    assert "Attributes" not in response
    assert response["ConsumedCapacity"] == {"TableName": "Things", "CapacityUnits": 1.0}
    assert_nothing_written(client, streams, things)


def test_a_transaction_of_removals_creates_nothing(client, streams, things):
    client.transact_write_items(TransactItems=[
        {"Update": {"TableName": "Things", "Key": KEY, "UpdateExpression": "REMOVE x"}}])
    assert_nothing_written(client, streams, things)


def test_a_set_beside_a_removal_creates_the_item(client, streams, things):
    response = client.update_item(TableName="Things", Key=KEY, UpdateExpression="SET a = :a REMOVE x",
                                  ExpressionAttributeValues={":a": {"S": "v"}}, ReturnValues="ALL_NEW")
    assert response["Attributes"] == {"id": {"S": "missing"}, "a": {"S": "v"}}
    records = stream_records(streams, things)
    assert [r["eventName"] for r in records] == ["INSERT"]


def test_removing_from_an_existing_item_keeps_it(client, streams, things):
    client.put_item(TableName="Things", Item={**KEY, "x": {"S": "gone"}})
    response = client.update_item(TableName="Things", Key=KEY, UpdateExpression="REMOVE x",
                                  ReturnValues="ALL_NEW")
    assert response["Attributes"] == KEY
    assert client.get_item(TableName="Things", Key=KEY)["Item"] == KEY
    assert [r["eventName"] for r in stream_records(streams, things)] == ["INSERT", "MODIFY"]
