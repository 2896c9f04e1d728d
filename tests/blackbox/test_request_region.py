"""Issue 18, group 3: region and identity from the request. ARNs and stream records carry the
region the client signed for and the account `--account-id` sets; a table ARN is accepted as a
TableName; another account's ARN is AccessDeniedException for the tag operations."""

import boto3
import pytest
from botocore.exceptions import ClientError

from conftest import ACCESS_KEY, CLIENT_CONFIG, PETS, SECRET_KEY, Server

ACCOUNT = "123456789012"


@pytest.fixture
def server(tmp_path):
    server = Server(["--in-memory", "--account-id", ACCOUNT], tmp_path / "dynotable-local.stderr")
    try:
        yield server
    finally:
        server.stop()


def client_in(server, region, service="dynamodb"):
    return boto3.session.Session(aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
                                 region_name=region).client(service, endpoint_url=server.endpoint,
                                                            config=CLIENT_CONFIG)


TABLE = dict(
    **{k: v for k, v in PETS.items() if k != "AttributeDefinitions"},
    AttributeDefinitions=PETS["AttributeDefinitions"] + [{"AttributeName": "Owner", "AttributeType": "S"}],
    GlobalSecondaryIndexes=[{"IndexName": "ByOwner", "KeySchema": [{"AttributeName": "Owner", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
    StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"},
)


def arn(region, account=ACCOUNT, name="Pets"):
    return f"arn:aws:dynamodb:{region}:{account}:table/{name}"


def test_arns_carry_the_signed_region_and_the_configured_account(server):
    eu = client_in(server, "eu-west-1")
    created = eu.create_table(**TABLE)["TableDescription"]
    assert created["TableArn"] == arn("eu-west-1")
    assert created["GlobalSecondaryIndexes"][0]["IndexArn"] == arn("eu-west-1") + "/index/ByOwner"
    assert created["LatestStreamArn"] == arn("eu-west-1") + "/stream/" + created["LatestStreamLabel"]
    # One namespace: the same table, read from another region, reports that region.
    us = client_in(server, "us-west-2")
    described = us.describe_table(TableName="Pets")["Table"]
    assert described["TableArn"] == arn("us-west-2")
    assert described["GlobalSecondaryIndexes"][0]["IndexArn"] == arn("us-west-2") + "/index/ByOwner"
    assert described["LatestStreamArn"].startswith(arn("us-west-2") + "/stream/")


def test_stream_records_carry_the_reading_region(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    eu.put_item(TableName="Pets", Item={"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}})
    streams = client_in(server, "eu-west-1", "dynamodbstreams")
    listed = streams.list_streams(TableName="Pets")["Streams"]
    stream_arn = listed[0]["StreamArn"]
    assert stream_arn.startswith(arn("eu-west-1") + "/stream/")
    shard = streams.describe_stream(StreamArn=stream_arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=stream_arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator)["Records"]
    assert [r["awsRegion"] for r in records] == ["eu-west-1"]


def test_a_table_arn_is_accepted_as_a_table_name(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    table = arn("eu-west-1")
    eu.put_item(TableName=table, Item={"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}, "Owner": {"S": "ana"}})
    key = {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}}
    assert eu.get_item(TableName=table, Key=key)["Item"]["Owner"] == {"S": "ana"}
    eu.update_item(TableName=table, Key=key, UpdateExpression="SET Age = :a",
                   ExpressionAttributeValues={":a": {"N": "3"}})
    assert eu.query(TableName=table, KeyConditionExpression="AnimalType = :t",
                    ExpressionAttributeValues={":t": {"S": "Cat"}})["Count"] == 1
    assert eu.scan(TableName=table, IndexName="ByOwner")["Count"] == 1
    got = eu.batch_get_item(RequestItems={table: {"Keys": [key]}})["Responses"]
    assert [item["Age"] for item in next(iter(got.values()))] == [{"N": "3"}]
    assert eu.describe_time_to_live(TableName=table)["TimeToLiveDescription"]["TimeToLiveStatus"] == "DISABLED"
    assert eu.describe_continuous_backups(TableName=table)["ContinuousBackupsDescription"][
        "ContinuousBackupsStatus"] == "ENABLED"
    eu.delete_item(TableName=table, Key=key)
    assert eu.delete_table(TableName=table)["TableDescription"]["TableArn"] == table


def test_tags_by_arn_and_another_account_denied(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    eu.tag_resource(ResourceArn=arn("eu-west-1"), Tags=[{"Key": "team", "Value": "pets"}])
    assert eu.list_tags_of_resource(ResourceArn=arn("eu-west-1"))["Tags"] == [{"Key": "team", "Value": "pets"}]
    foreign = arn("eu-west-1", account="999999999999")
    for operation, kwargs in [("ListTagsOfResource", {}),
                              ("TagResource", {"Tags": [{"Key": "k", "Value": "v"}]}),
                              ("UntagResource", {"TagKeys": ["team"]})]:
        call = getattr(eu, {"ListTagsOfResource": "list_tags_of_resource", "TagResource": "tag_resource",
                            "UntagResource": "untag_resource"}[operation])
        with pytest.raises(ClientError) as caught:
            call(ResourceArn=foreign, **kwargs)
        error = caught.value.response["Error"]
        assert error["Code"] == "AccessDeniedException"
        assert error["Message"] == (
            f"User: arn:aws:iam::{ACCOUNT}:root is not authorized to perform: dynamodb:{operation} on resource: "
            f"{foreign} because no resource-based policy allows the dynamodb:{operation} action")
    # An ARN of this account naming no table is not found.
    with pytest.raises(ClientError) as caught:
        eu.list_tags_of_resource(ResourceArn=arn("eu-west-1", name="Nope"))
    assert caught.value.response["Error"]["Code"] == "ResourceNotFoundException"


FOREIGN_ACCOUNT = "111122223333"


def denied(operation, resource):
    return (f"User: arn:aws:iam::{ACCOUNT}:root is not authorized to perform: dynamodb:{operation} on resource: "
            f"{resource} because no resource-based policy allows the dynamodb:{operation} action")


def data_plane_calls(table):
    """One call of each data-plane operation on `table` (a name or an ARN)."""
    key = {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}}
    return [
        ("GetItem", "get_item", dict(TableName=table, Key=key)),
        ("PutItem", "put_item", dict(TableName=table, Item={**key, "Owner": {"S": "eve"}})),
        ("UpdateItem", "update_item", dict(TableName=table, Key=key, UpdateExpression="SET #o = :o",
                                           ExpressionAttributeNames={"#o": "Owner"},
                                           ExpressionAttributeValues={":o": {"S": "eve"}})),
        ("DeleteItem", "delete_item", dict(TableName=table, Key=key)),
        ("Query", "query", dict(TableName=table, KeyConditionExpression="AnimalType = :t",
                                ExpressionAttributeValues={":t": {"S": "Cat"}})),
        ("Scan", "scan", dict(TableName=table)),
        ("BatchGetItem", "batch_get_item", dict(RequestItems={table: {"Keys": [key]}})),
        ("BatchWriteItem", "batch_write_item", dict(RequestItems={table: [{"DeleteRequest": {"Key": key}}]})),
        ("TransactGetItems", "transact_get_items", dict(TransactItems=[{"Get": {"TableName": table, "Key": key}}])),
        ("TransactWriteItems", "transact_write_items",
         dict(TransactItems=[{"Delete": {"TableName": table, "Key": key}}])),
    ]


def test_another_accounts_table_arn_is_denied_on_the_data_plane(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    key = {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}}
    eu.put_item(TableName="Pets", Item={**key, "Owner": {"S": "ana"}})
    foreign = arn("eu-west-1", account=FOREIGN_ACCOUNT)
    for operation, method, kwargs in data_plane_calls(foreign):
        with pytest.raises(ClientError) as caught:
            getattr(eu, method)(**kwargs)
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == ("AccessDeniedException", denied(operation, foreign)), operation
    # Nothing was read or written through the foreign ARN.
    assert eu.get_item(TableName="Pets", Key=key)["Item"]["Owner"] == {"S": "ana"}


def test_another_regions_table_arn_is_refused_on_the_data_plane(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    key = {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}}
    eu.put_item(TableName="Pets", Item={**key, "Owner": {"S": "ana"}})
    elsewhere = arn("us-east-1")
    for operation, method, kwargs in data_plane_calls(elsewhere):
        with pytest.raises(ClientError) as caught:
            getattr(eu, method)(**kwargs)
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == (
            "ValidationException", f"1 validation error detected: Invalid AWS region in '{elsewhere}'"), operation
    assert eu.get_item(TableName="Pets", Key=key)["Item"]["Owner"] == {"S": "ana"}
    # The same table by its ARN in the caller's region is served.
    assert eu.get_item(TableName=arn("eu-west-1"), Key=key)["Item"]["Owner"] == {"S": "ana"}


def control_plane_calls(table):
    """One call of each control-plane operation that takes a TableName, on `table` (a name or an ARN)."""
    return [
        ("DescribeTable", "describe_table", dict(TableName=table)),
        ("UpdateTable", "update_table", dict(TableName=table, DeletionProtectionEnabled=False)),
        ("DescribeTimeToLive", "describe_time_to_live", dict(TableName=table)),
        ("UpdateTimeToLive", "update_time_to_live",
         dict(TableName=table, TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})),
        ("DescribeContinuousBackups", "describe_continuous_backups", dict(TableName=table)),
        ("DeleteTable", "delete_table", dict(TableName=table)),
    ]


def test_another_accounts_table_arn_is_denied_on_the_control_plane(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    foreign = arn("eu-west-1", account=FOREIGN_ACCOUNT)
    for operation, method, kwargs in control_plane_calls(foreign):
        with pytest.raises(ClientError) as caught:
            getattr(eu, method)(**kwargs)
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == ("AccessDeniedException", denied(operation, foreign)), operation
    # Nothing was changed or deleted through the foreign ARN.
    assert eu.describe_time_to_live(TableName="Pets")["TimeToLiveDescription"]["TimeToLiveStatus"] == "DISABLED"
    assert eu.describe_table(TableName="Pets")["Table"]["TableStatus"] == "ACTIVE"


def test_another_regions_table_arn_is_refused_on_the_control_plane(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    elsewhere = arn("us-east-1")
    for operation, method, kwargs in control_plane_calls(elsewhere):
        with pytest.raises(ClientError) as caught:
            getattr(eu, method)(**kwargs)
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == (
            "ValidationException", f"1 validation error detected: Invalid AWS region in '{elsewhere}'"), operation
    assert eu.describe_time_to_live(TableName="Pets")["TimeToLiveDescription"]["TimeToLiveStatus"] == "DISABLED"
    assert eu.describe_table(TableName="Pets")["Table"]["TableStatus"] == "ACTIVE"


def test_the_control_plane_serves_a_table_arn_of_the_callers_region_and_account(server):
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    table = arn("eu-west-1")
    results = {operation: getattr(eu, method)(**kwargs) for operation, method, kwargs in control_plane_calls(table)}
    assert results["DescribeTable"]["Table"]["TableArn"] == table
    assert results["UpdateTable"]["TableDescription"]["TableName"] == "Pets"
    assert results["UpdateTimeToLive"]["TimeToLiveSpecification"] == {"Enabled": True, "AttributeName": "expires"}
    assert results["DeleteTable"]["TableDescription"]["TableArn"] == table
    assert eu.list_tables()["TableNames"] == []
    # A table ARN that names no table is the operation's own not-found error, worded for the name.
    with pytest.raises(ClientError) as caught:
        eu.describe_table(TableName=table)
    assert (caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]) == (
        "ResourceNotFoundException", "Requested resource not found: Table: Pets not found")


def test_create_table_takes_a_table_arn_of_the_callers_region_and_account(server):
    # The API model gives CreateTable's TableName the `TableArn` shape, as the other operations':
    # "You can also provide the Amazon Resource Name (ARN) of the table in this parameter".
    eu = client_in(server, "eu-west-1")
    foreign = arn("eu-west-1", account=FOREIGN_ACCOUNT)
    with pytest.raises(ClientError) as caught:
        eu.create_table(**{**TABLE, "TableName": foreign})
    error = caught.value.response["Error"]
    assert (error["Code"], error["Message"]) == ("AccessDeniedException", denied("CreateTable", foreign))
    elsewhere = arn("us-east-1")
    with pytest.raises(ClientError) as caught:
        eu.create_table(**{**TABLE, "TableName": elsewhere})
    error = caught.value.response["Error"]
    assert (error["Code"], error["Message"]) == (
        "ValidationException", f"1 validation error detected: Invalid AWS region in '{elsewhere}'")
    assert eu.list_tables()["TableNames"] == []
    created = eu.create_table(**{**TABLE, "TableName": arn("eu-west-1")})["TableDescription"]
    assert (created["TableName"], created["TableArn"]) == ("Pets", arn("eu-west-1"))
    assert eu.list_tables()["TableNames"] == ["Pets"]
    # The name rules apply to the name the ARN ends in.
    with pytest.raises(ClientError) as caught:
        eu.create_table(**{**TABLE, "TableName": arn("eu-west-1", name="P!")})
    assert caught.value.response["Error"]["Code"] == "ValidationException"


def test_list_streams_takes_a_table_name_only(server):
    # The Streams API model gives ListStreams' TableName the shape `TableName` (3 to 255
    # characters of [a-zA-Z0-9_.-]), not `TableArn`: an ARN, even of the caller's own table, is
    # refused by the pattern, never matched to a table of another account or region.
    eu = client_in(server, "eu-west-1")
    eu.create_table(**TABLE)
    streams = client_in(server, "eu-west-1", "dynamodbstreams")
    assert len(streams.list_streams(TableName="Pets")["Streams"]) == 1
    for table in [arn("eu-west-1"), arn("eu-west-1", account=FOREIGN_ACCOUNT), arn("us-east-1")]:
        with pytest.raises(ClientError) as caught:
            streams.list_streams(TableName=table)
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == (
            "ValidationException",
            f"1 validation error detected: Value '{table}' at 'tableName' failed to satisfy constraint: "
            "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"), table
