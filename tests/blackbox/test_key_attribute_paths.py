"""boto3 against dynotable-local: no expression may go below a key attribute, and UpdateItem's
sentences for an index key attribute given a value of another type (docs/dynamodb-rules.md B.6.1,
B.6.2). The table is dynalite's testRangeTable (key a, b; LSIs on c and d; GSIs on c and c+d), the
requests its tests', recorded against the service."""

import pytest
from botocore.exceptions import ClientError

from conftest import UNCHECKED, session

RANGE = dict(
    TableName="range1", BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in "abcd"],
    KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"}],
    LocalSecondaryIndexes=[
        {"IndexName": "index1", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                                              {"AttributeName": "c", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "ALL"}},
        {"IndexName": "index2", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"},
                                              {"AttributeName": "d", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["c"]}}],
    GlobalSecondaryIndexes=[
        {"IndexName": "index3", "KeySchema": [{"AttributeName": "c", "KeyType": "HASH"}],
         "Projection": {"ProjectionType": "ALL"}},
        {"IndexName": "index4", "KeySchema": [{"AttributeName": "c", "KeyType": "HASH"},
                                              {"AttributeName": "d", "KeyType": "RANGE"}],
         "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["e"]}}],
)
KEY = {"a": {"S": "k"}, "b": {"S": "r"}}
SCALARS = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: "


@pytest.fixture
def raw(server):
    client = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    client.create_table(**RANGE)
    client.create_table(TableName="hash1", BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}])
    return client


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


NESTED_READS = [
    ("get-table-key", "get_item",
     dict(TableName="hash1", Key={"a": {"S": "k"}}, ProjectionExpression="#a.b.c",
          ExpressionAttributeNames={"#a": "a"}), "Key: a"),
    ("get-index-key", "get_item",
     dict(TableName="range1", Key=KEY, ProjectionExpression="#d[0]", ExpressionAttributeNames={"#d": "d"}),
     "IndexKey: d"),
    ("batch-get", "batch_get_item",
     dict(RequestItems={"range1": {"Keys": [KEY], "ProjectionExpression": "c.x"}}), "IndexKey: c"),
    ("transact-get", "transact_get_items",
     dict(TransactItems=[{"Get": {"TableName": "hash1", "Key": {"a": {"S": "k"}}, "ProjectionExpression": "a[1]"}}]),
     "Key: a"),
    ("query-filter", "query",
     dict(TableName="range1", KeyConditionExpression="a = :a", FilterExpression="attribute_exists(d.c) AND c = :b",
          ExpressionAttributeValues={":a": {"S": "1"}, ":b": {"N": "1"}}), "IndexKey: d"),
    ("query-projection", "query",
     dict(TableName="range1", KeyConditionExpression="a = :a", ProjectionExpression="c[0]",
          ExpressionAttributeValues={":a": {"S": "1"}}), "IndexKey: c"),
    ("scan-filter", "scan",
     dict(TableName="hash1", FilterExpression="attribute_exists(#a[0])", ExpressionAttributeNames={"#a": "a"}),
     "Key: a"),
]


@pytest.mark.parametrize("case,operation,params,named", NESTED_READS, ids=[c[0] for c in NESTED_READS])
def test_reads_refuse_a_path_below_a_key_attribute(raw, case, operation, params, named):
    assert refused(getattr(raw, operation), **params) == SCALARS + named


def test_a_query_checks_the_projection_then_the_filters_key_attributes_then_its_paths(raw):
    # dynalite's query.js order: the projection's paths, rule B.4's sentence, the filter's paths.
    values = {":a": {"S": "1"}, ":b": {"N": "1"}}
    assert refused(raw.query, TableName="range1", KeyConditionExpression="a = :a", FilterExpression="b = :b",
                   ProjectionExpression="c.x", ExpressionAttributeValues=values) == SCALARS + "IndexKey: c"
    message = refused(raw.query, TableName="range1", KeyConditionExpression="a = :a", FilterExpression="b.x = :b",
                      ExpressionAttributeValues=values)
    assert message == "Filter Expression can only contain non-primary key attributes: Primary key attribute: b"


UPDATES = [
    ("add-into-index-key", "add d.b :a", {":a": {"N": "1"}}),
    ("set-list-element", "set d[1] = :a", {":a": {"N": "1"}}),
    ("read-on-the-right", "set e = list_append(a, b), f = d[1]", None),
    ("remove-below", "REMOVE d.x", None),
    ("if-not-exists-path", "SET f = if_not_exists(d[1], :v)", {":v": {"N": "1"}}),
]


@pytest.mark.parametrize("case,expression,values", UPDATES, ids=[c[0] for c in UPDATES])
def test_update_refuses_a_path_below_an_index_key(raw, case, expression, values):
    params = dict(TableName="range1", Key=KEY, UpdateExpression=expression)
    if values:
        params["ExpressionAttributeValues"] = values
    assert refused(raw.update_item, **params) == SCALARS + "IndexKey: d"
    assert "Item" not in raw.get_item(TableName="range1", Key=KEY)


def test_the_refused_update_leaves_an_existing_item_alone(raw):
    raw.put_item(TableName="range1", Item={**KEY, "d": {"S": "y"}})
    assert refused(raw.update_item, TableName="range1", Key=KEY, UpdateExpression="SET f = if_not_exists(d[1], :v)",
                   ExpressionAttributeValues={":v": {"N": "1"}}) == SCALARS + "IndexKey: d"
    assert raw.get_item(TableName="range1", Key=KEY)["Item"] == {**KEY, "d": {"S": "y"}}


def test_conditions_and_transactions_refuse_a_path_below_a_key_attribute(raw):
    assert refused(raw.put_item, TableName="range1", Item=KEY,
                   ConditionExpression="attribute_not_exists(c.x)") == SCALARS + "IndexKey: c"
    assert refused(raw.delete_item, TableName="hash1", Key={"a": {"S": "k"}},
                   ConditionExpression="attribute_exists(a[0])") == SCALARS + "Key: a"
    assert refused(raw.transact_write_items, TransactItems=[
        {"Update": {"TableName": "range1", "Key": KEY, "UpdateExpression": "REMOVE d.x"}}]) == SCALARS + "IndexKey: d"
