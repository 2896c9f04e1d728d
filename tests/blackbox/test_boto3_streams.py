"""DynamoDB Streams with `boto3.client("dynamodbstreams")` on the server's endpoint: one record per
real change, in order, from TRIM_HORIZON and LATEST; and Time to Live through the dynamodb client."""

import time

import pytest

from conftest import CLIENT_CONFIG, UNCHECKED, error, session

SESSIONS = dict(
    TableName="Sessions",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
    StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
)


@pytest.fixture
def streams(server):
    return session().client("dynamodbstreams", endpoint_url=server.endpoint, config=CLIENT_CONFIG)


def drain(streams, iterator):
    records = []
    while True:
        page = streams.get_records(ShardIterator=iterator)
        if not page["Records"]:
            return records, page["NextShardIterator"]
        records += page["Records"]
        iterator = page["NextShardIterator"]


def summary(records):
    return [(r["eventName"], r["dynamodb"]["Keys"]["id"]["S"], r["dynamodb"].get("OldImage"),
             r["dynamodb"].get("NewImage")) for r in records]


def test_a_stream_records_each_real_change_in_order(client, streams):
    table = client.create_table(**SESSIONS)["TableDescription"]
    arn = table["LatestStreamArn"]
    assert arn.endswith("/stream/" + table["LatestStreamLabel"])

    client.put_item(TableName="Sessions", Item={"id": {"S": "s1"}, "user": {"S": "ana"}})
    client.update_item(TableName="Sessions", Key={"id": {"S": "s1"}}, UpdateExpression="SET #u = :u",
                       ExpressionAttributeNames={"#u": "user"}, ExpressionAttributeValues={":u": {"S": "bea"}})
    client.put_item(TableName="Sessions", Item={"id": {"S": "s1"}, "user": {"S": "bea"}})  # no change
    client.delete_item(TableName="Sessions", Key={"id": {"S": "s1"}})
    client.delete_item(TableName="Sessions", Key={"id": {"S": "nobody"}})  # no change

    listed = streams.list_streams(TableName="Sessions")["Streams"]
    assert [(s["StreamArn"], s["TableName"]) for s in listed] == [(arn, "Sessions")]
    description = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert description["StreamStatus"] == "ENABLED"
    assert description["StreamViewType"] == "NEW_AND_OLD_IMAGES"
    assert len(description["Shards"]) == 1
    shard = description["Shards"][0]["ShardId"]

    def iterator(kind):
        return streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType=kind)["ShardIterator"]

    records, _ = drain(streams, iterator("TRIM_HORIZON"))
    ana = {"id": {"S": "s1"}, "user": {"S": "ana"}}
    bea = {"id": {"S": "s1"}, "user": {"S": "bea"}}
    assert summary(records) == [("INSERT", "s1", None, ana), ("MODIFY", "s1", ana, bea), ("REMOVE", "s1", bea, None)]
    sequence = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert sequence == sorted(set(sequence))
    assert all(r["eventSource"] == "aws:dynamodb" and r["dynamodb"]["SizeBytes"] > 0 for r in records)

    latest, next_iterator = drain(streams, iterator("LATEST"))
    assert latest == []
    client.put_item(TableName="Sessions", Item={"id": {"S": "s2"}})
    new, _ = drain(streams, next_iterator)
    assert summary(new) == [("INSERT", "s2", None, {"id": {"S": "s2"}})]


def test_stream_errors(client, streams):
    client.create_table(**SESSIONS)
    with pytest.raises(streams.exceptions.ResourceNotFoundException):
        streams.describe_stream(StreamArn="arn:aws:dynamodb:local:000000000000:table/Sessions/stream/nope")
    with pytest.raises(streams.exceptions.ClientError) as raised:
        streams.get_records(ShardIterator="bm90IGFuIGl0ZXJhdG9y")
    assert raised.value.response["Error"] == {"Code": "ValidationException", "Message": "Invalid ShardIterator"}


@pytest.fixture
def raw_streams(server):
    """A Streams client without botocore's own parameter checks."""
    return session().client("dynamodbstreams", endpoint_url=server.endpoint, config=UNCHECKED)


def shard_of(streams, arn):
    return streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]


def test_describe_stream_shard_filter_lists_the_children_of_a_shard(client, streams):
    arn = client.create_table(**SESSIONS)["TableDescription"]["LatestStreamArn"]
    shard = shard_of(streams, arn)
    # The stream's one shard is open and was split from nothing: it has no children, and no shard
    # names it as its parent.
    children = streams.describe_stream(StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS", "ShardId": shard})
    assert children["StreamDescription"]["Shards"] == []
    assert children["StreamDescription"]["StreamArn"] == arn
    unfiltered = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]
    assert [s["ShardId"] for s in unfiltered] == [shard] and "ParentShardId" not in unfiltered[0]


def enum_error(value, field, allowed):
    return (f"1 validation error detected: Value '{value}' at '{field}' failed to satisfy constraint: "
            f"Member must satisfy enum value set: [{allowed}]")


def test_describe_stream_shard_filter_is_checked(client, raw_streams):
    arn = client.create_table(**SESSIONS)["TableDescription"]["LatestStreamArn"]
    shard = shard_of(raw_streams, arn)
    assert error(raw_streams.describe_stream, StreamArn=arn, ShardFilter={"Type": "PARENT_SHARDS", "ShardId": shard}) \
        == ("ValidationException", enum_error("PARENT_SHARDS", "shardFilter.type", "CHILD_SHARDS"))
    assert error(raw_streams.describe_stream, StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS"}) == (
        "ValidationException", "1 validation error detected: Value null at 'shardFilter.shardId' failed to "
        "satisfy constraint: Member must not be null")
    assert error(raw_streams.describe_stream, StreamArn=arn, ShardFilter={"ShardId": shard}) == (
        "ValidationException", "1 validation error detected: Value null at 'shardFilter.type' failed to "
        "satisfy constraint: Member must not be null")
    code, message = error(raw_streams.describe_stream, StreamArn=arn,
                          ShardFilter={"Type": "CHILD_SHARDS", "ShardId": "shardId-1"})
    assert (code, message) == ("ValidationException", "1 validation error detected: Value 'shardId-1' at "
                               "'shardFilter.shardId' failed to satisfy constraint: Member must have length "
                               "greater than or equal to 28")
    # A well-formed id of no shard of this stream.
    other = "shardId-00000000000000000000-00000000"
    assert error(raw_streams.describe_stream, StreamArn=arn, ShardFilter={"Type": "CHILD_SHARDS", "ShardId": other}) \
        == ("ResourceNotFoundException", f"Requested resource not found: Shard: {other} in Stream: {arn} not found")


def test_exclusive_start_shard_id_is_a_position_in_the_shard_order(client, streams):
    # The service answers a well-formed id of no shard with the shards after it, none for one
    # after them all (ScyllaDB Alternator's test_describe_stream_with_nonexistent_last_shard, run
    # against the service; DynamoDB Local refuses it).
    arn = client.create_table(**SESSIONS)["TableDescription"]["LatestStreamArn"]
    shard = shard_of(streams, arn)

    def after(start):
        described = streams.describe_stream(StreamArn=arn, ExclusiveStartShardId=start)["StreamDescription"]
        return [s["ShardId"] for s in described["Shards"]]

    assert after(shard) == []
    assert after("zzzzzzzzzzzzzzzzzzzzzzzzsfasdgagadfadfgagkjsdfsfsdjfjks") == []
    assert after("shardId-00000000000000000000-00000000") == [shard]


def test_list_streams_exclusive_start_must_be_a_listed_stream(client, streams, raw_streams):
    arn = client.create_table(**SESSIONS)["TableDescription"]["LatestStreamArn"]
    assert streams.list_streams(ExclusiveStartStreamArn=arn)["Streams"] == []
    # No stream ARN at all: a ValidationException (Alternator's
    # test_list_streams_with_nonexistent_last_stream, run against the service), in DescribeStream's
    # words for such a StreamArn.
    not_an_arn = "kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas"
    assert error(raw_streams.list_streams, TableName="Sessions", ExclusiveStartStreamArn=not_an_arn) == (
        "ValidationException", f"Invalid StreamArn: {not_an_arn}")
    # A stream ARN naming no stream: our choice (docs/compatibility.md, "Streams").
    other_stream = arn.rsplit("/stream/", 1)[0] + "/stream/2000-01-01T00:00:00.000"
    assert error(streams.list_streams, ExclusiveStartStreamArn=other_stream) == (
        "ResourceNotFoundException", f"Requested resource not found: Stream: {other_stream} not found")


def test_get_shard_iterator_takes_a_sequence_number_with_the_sequence_types_only(client, streams):
    # TRIM_HORIZON and LATEST with a SequenceNumber are a ValidationException (Alternator's
    # test_get_shard_iterator, run against the service); the sentences are ours
    # (docs/compatibility.md, "Streams").
    arn = client.create_table(**SESSIONS)["TableDescription"]["LatestStreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
    start = shard["SequenceNumberRange"]["StartingSequenceNumber"]
    for kind in ["TRIM_HORIZON", "LATEST"]:
        assert error(streams.get_shard_iterator, StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType=kind,
                     SequenceNumber=start) == (
            "ValidationException",
            "SequenceNumber can only be given with AT_SEQUENCE_NUMBER and AFTER_SEQUENCE_NUMBER")
    for kind in ["AT_SEQUENCE_NUMBER", "AFTER_SEQUENCE_NUMBER"]:
        assert streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType=kind,
                                          SequenceNumber=start)["ShardIterator"]
        assert error(streams.get_shard_iterator, StreamArn=arn, ShardId=shard["ShardId"],
                     ShardIteratorType=kind) == (
            "ValidationException", "SequenceNumber is required and must be a sequence number for "
                                   "AT_SEQUENCE_NUMBER and AFTER_SEQUENCE_NUMBER")
    # A check of the request alone: made before the stream is looked up (rule B.15).
    gone = arn.rsplit("/stream/", 1)[0] + "/stream/2000-01-01T00:00:00.000"
    assert error(streams.get_shard_iterator, StreamArn=gone, ShardId=shard["ShardId"],
                 ShardIteratorType="LATEST", SequenceNumber=start)[0] == "ValidationException"
    assert error(streams.get_shard_iterator, StreamArn=gone, ShardId=shard["ShardId"],
                 ShardIteratorType="AT_SEQUENCE_NUMBER")[0] == "ValidationException"


def test_time_to_live_is_enabled_and_expired_items_stay_readable_until_swept(client):
    client.create_table(**SESSIONS)
    assert client.describe_time_to_live(TableName="Sessions")["TimeToLiveDescription"]["TimeToLiveStatus"] == "DISABLED"
    spec = {"Enabled": True, "AttributeName": "expiresAt"}
    assert client.update_time_to_live(TableName="Sessions", TimeToLiveSpecification=spec)[
        "TimeToLiveSpecification"] == spec
    assert client.describe_time_to_live(TableName="Sessions")["TimeToLiveDescription"] == {
        "AttributeName": "expiresAt", "TimeToLiveStatus": "ENABLED"}
    # Expired an hour ago; the sweep runs every 30 s (first after 30 s): still readable now.
    expired = {"id": {"S": "old"}, "expiresAt": {"N": str(int(time.time()) - 3600)}}
    client.put_item(TableName="Sessions", Item=expired)
    assert client.get_item(TableName="Sessions", Key={"id": {"S": "old"}})["Item"] == expired
