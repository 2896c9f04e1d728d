"""Issue 18, group 5 (the quick rest), through boto3: DeleteTable's description without the schema
members the service leaves out, tag rules with the service's messages, the Limit bounds of the
Streams API, and DescribeContinuousBackups."""

import re

import pytest

from conftest import error, PETS, session, UNCHECKED

# Client-side validation off, so that the server's own answers are what the tests see.


@pytest.fixture
def streams(server):
    return session().client("dynamodbstreams", endpoint_url=server.endpoint, config=UNCHECKED)


def test_delete_table_leaves_out_the_schema(client):
    client.create_table(
        **{**PETS, "AttributeDefinitions": PETS["AttributeDefinitions"] + [
            {"AttributeName": "Owner", "AttributeType": "S"}]},
        GlobalSecondaryIndexes=[{"IndexName": "ByOwner", "KeySchema": [{"AttributeName": "Owner", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    deleted = client.delete_table(TableName="Pets")["TableDescription"]
    for member in ["KeySchema", "AttributeDefinitions", "CreationDateTime", "GlobalSecondaryIndexes",
                   "LocalSecondaryIndexes"]:
        assert member not in deleted
    assert deleted["TableName"] == "Pets"
    assert deleted["TableStatus"] == "DELETING"
    assert deleted["TableArn"].endswith(":table/Pets")
    assert "TableId" in deleted
    assert deleted["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert deleted["ProvisionedThroughput"]["ReadCapacityUnits"] == 0
    assert deleted["ItemCount"] == 0 and deleted["TableSizeBytes"] == 0


def test_delete_table_of_a_provisioned_table_with_both_kinds_of_index(client):
    # The members ScyllaDB's Alternator tests (test_delete_table_description*, run against the
    # service) check: DescribeTable has the schema and both index lists, DeleteTable none of them;
    # the rest of the description is there, counts included.
    client.create_table(
        TableName="Pets",
        AttributeDefinitions=PETS["AttributeDefinitions"] + [{"AttributeName": "Owner", "AttributeType": "S"}],
        KeySchema=PETS["KeySchema"],
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 3},
        GlobalSecondaryIndexes=[{"IndexName": "ByOwner", "KeySchema": [{"AttributeName": "Owner", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"},
                                 "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}],
        LocalSecondaryIndexes=[{"IndexName": "ByTypeOwner",
                                "KeySchema": [{"AttributeName": "AnimalType", "KeyType": "HASH"},
                                              {"AttributeName": "Owner", "KeyType": "RANGE"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    client.put_item(TableName="Pets", Item={"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}, "Owner": {"S": "ana"}})
    described = client.describe_table(TableName="Pets")["Table"]
    deleted = client.delete_table(TableName="Pets")["TableDescription"]
    for member in ["KeySchema", "AttributeDefinitions", "CreationDateTime", "GlobalSecondaryIndexes",
                   "LocalSecondaryIndexes"]:
        assert member in described
        assert member not in deleted
    assert deleted["TableStatus"] == "DELETING"
    assert deleted["TableId"] == described["TableId"]
    assert re.fullmatch("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", deleted["TableId"])
    assert deleted["TableArn"] == described["TableArn"]
    throughput = deleted["ProvisionedThroughput"]
    assert (throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"],
            throughput["NumberOfDecreasesToday"]) == (5, 3, 0)
    assert deleted["ItemCount"] == 1 and deleted["TableSizeBytes"] == described["TableSizeBytes"] > 0


def test_delete_table_of_an_on_demand_table_keeps_its_billing_summary(client):
    client.create_table(**PETS)
    deleted = client.delete_table(TableName="Pets")["TableDescription"]
    assert deleted["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert deleted["BillingModeSummary"]["LastUpdateToPayPerRequestDateTime"] is not None
    assert deleted["ProvisionedThroughput"] == {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                                                "WriteCapacityUnits": 0}


@pytest.fixture
def pets_arn(pets):
    return pets.describe_table(TableName="Pets")["Table"]["TableArn"]


def test_tags_at_the_limits_and_of_any_script_are_accepted(raw, pets_arn):
    tags = [{"Key": "k" * 128, "Value": "v" * 256}, {"Key": "ключ café 表", "Value": "a+b-c=d.e_f:g/h@i"},
            {"Key": "empty", "Value": ""}]
    raw.tag_resource(ResourceArn=pets_arn, Tags=tags)
    listed = raw.list_tags_of_resource(ResourceArn=pets_arn)["Tags"]
    assert sorted(listed, key=lambda t: t["Key"]) == sorted(tags, key=lambda t: t["Key"])


@pytest.mark.parametrize("tag, message", [
    ({"Key": "k" * 129, "Value": "x"}, "The Tag Key provided is invalid, Key: " + "k" * 129),
    ({"Key": "ok", "Value": "v" * 257}, "The Tag Value provided is invalid, Value: " + "v" * 257),
    ({"Key": "", "Value": "x"}, "The Tag Key provided is invalid, Key: "),
    ({"Key": "ok", "Value": "100%"}, "The Tag Value provided is invalid, Value: 100%"),
    ({"Key": "a,b", "Value": "x"}, "The Tag Key provided is invalid, Key: a,b"),
    ({"Key": "🔑", "Value": "x"}, "The Tag Key provided is invalid, Key: 🔑"),
    ({"Key": "ok", "Value": "<a>"}, "The Tag Value provided is invalid, Value: <a>"),
    ({"Value": "x"}, "The Tag Key provided is invalid, Key: null"),
    ({"Key": "ok"}, "The Tag Value provided is invalid, Value: null"),
    ({"Key": "aws:zzz", "Value": "x"}, "Tag Key cannot be prefixed with aws:, Key: aws:zzz"),
], ids=["key-129", "value-257", "empty-key", "percent", "comma", "emoji", "angle-brackets", "no-key",
        "no-value", "aws-prefix"])
def test_a_broken_tag_refuses_the_whole_request(raw, pets_arn, tag, message):
    code, text = error(raw.tag_resource, ResourceArn=pets_arn, Tags=[{"Key": "good", "Value": "1"}, tag])
    assert (code, text) == ("ValidationException", message)
    assert raw.list_tags_of_resource(ResourceArn=pets_arn)["Tags"] == []


def test_tag_counts_and_duplicates(raw, pets_arn):
    assert error(raw.tag_resource, ResourceArn=pets_arn, Tags=[]) == (
        "ValidationException", "Atleast one Tag needs to be provided as Input.")
    assert error(raw.tag_resource, ResourceArn=pets_arn,
                 Tags=[{"Key": "dup", "Value": "1"}, {"Key": "dup", "Value": "2"}]) == (
        "ValidationException", "Duplicate Tag Keys provided as input: Duplicate Tag Key found dup")
    too_many = ("ValidationException", "Number of Tags exceed the current limit for the provided ResourceArn")
    raw.tag_resource(ResourceArn=pets_arn, Tags=[{"Key": f"k{i}", "Value": "v"} for i in range(40)])
    assert error(raw.tag_resource, ResourceArn=pets_arn,
                 Tags=[{"Key": f"j{i}", "Value": "v"} for i in range(11)]) == too_many
    assert len(raw.list_tags_of_resource(ResourceArn=pets_arn)["Tags"]) == 40
    assert error(raw.untag_resource, ResourceArn=pets_arn, TagKeys=[]) == (
        "ValidationException", "Atleast one Tag Key needs to be provided as Input.")
    assert error(raw.untag_resource, ResourceArn=pets_arn, TagKeys=[f"k{i}" for i in range(51)]) == too_many


def test_create_table_refuses_a_broken_tag_and_creates_nothing(raw):
    assert error(raw.create_table, **PETS, Tags=[{"Key": "x", "Value": "a;b"}]) == (
        "ValidationException", "The Tag Value provided is invalid, Value: a;b")
    assert error(raw.describe_table, TableName="Pets")[0] == "ResourceNotFoundException"


@pytest.mark.parametrize("call, kwargs, bound", [
    ("list_streams", {"Limit": 101}, "less than or equal to 100"),
    ("list_streams", {"Limit": 0}, "greater than or equal to 1"),
    # A StreamArn of the model's length (37 to 1,024 characters), so that Limit alone is listed.
    ("describe_stream", {"StreamArn": "arn:aws:dynamodb:us-east-1:000000000000:table/Pets/stream/x", "Limit": 101},
     "less than or equal to 100"),
    ("get_records", {"ShardIterator": "x", "Limit": 1001}, "less than or equal to 1000"),
    ("get_records", {"ShardIterator": "x", "Limit": 0}, "greater than or equal to 1"),
])
def test_streams_limit_bounds(streams, call, kwargs, bound):
    code, text = error(getattr(streams, call), **kwargs)
    assert code == "ValidationException"
    assert text == (f"1 validation error detected: Value '{kwargs['Limit']}' at 'limit' failed to satisfy "
                    f"constraint: Member must have value {bound}")


def test_streams_limits_at_the_bounds_are_served(client, streams):
    client.create_table(**PETS, StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    client.put_item(TableName="Pets", Item={"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}})
    arn = streams.list_streams(Limit=100)["Streams"][0]["StreamArn"]
    shard = streams.describe_stream(StreamArn=arn, Limit=100)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    assert len(streams.get_records(ShardIterator=iterator, Limit=1000)["Records"]) == 1


def test_describe_continuous_backups(pets, raw):
    arn = pets.describe_table(TableName="Pets")["Table"]["TableArn"]
    expected = {"ContinuousBackupsStatus": "ENABLED",
                "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}
    assert pets.describe_continuous_backups(TableName="Pets")["ContinuousBackupsDescription"] == expected
    assert pets.describe_continuous_backups(TableName=arn)["ContinuousBackupsDescription"] == expected
    assert error(pets.describe_continuous_backups, TableName="Nope") == (
        "TableNotFoundException", "Table not found: Nope")
