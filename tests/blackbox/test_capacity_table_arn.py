"""ConsumedCapacity names the table as the request did: "If you had specified the Amazon Resource
Name (ARN) of a table in the input, you'll see the table ARN in the response" (API Reference,
ConsumedCapacity.TableName; docs/dynamodb-rules.md B.2). Every data-plane operation that reports
capacity, by name and by ARN; the batch and transaction operations key each table's entry by
what RequestItems or the action gave."""

import pytest

from conftest import PETS

ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/Pets"
KEY = {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}
ITEM = {**KEY, "Age": {"N": "3"}}


def single(client, operation, table):
    """One single-table call naming `table`; the ConsumedCapacity it answers."""
    calls = {
        "get_item": dict(Key=KEY),
        "put_item": dict(Item=ITEM),
        "update_item": dict(Key=KEY, UpdateExpression="SET Age = :a",
                            ExpressionAttributeValues={":a": {"N": "4"}}),
        "delete_item": dict(Key=KEY),
        "query": dict(KeyConditionExpression="AnimalType = :t", ExpressionAttributeValues={":t": {"S": "Dog"}}),
        "scan": dict(),
    }
    answer = getattr(client, operation)(TableName=table, ReturnConsumedCapacity="TOTAL", **calls[operation])
    return answer["ConsumedCapacity"]


OPERATIONS = ["get_item", "put_item", "update_item", "delete_item", "query", "scan"]


@pytest.mark.parametrize("operation", OPERATIONS)
def test_single_table_operations_echo_the_arn_they_were_given(pets, operation):
    pets.put_item(TableName="Pets", Item=ITEM)
    assert single(pets, operation, ARN)["TableName"] == ARN


@pytest.mark.parametrize("operation", OPERATIONS)
def test_single_table_operations_given_the_name_report_the_name(pets, operation):
    pets.put_item(TableName="Pets", Item=ITEM)
    assert single(pets, operation, "Pets")["TableName"] == "Pets"


def test_query_of_an_index_by_arn_reports_the_arn(client):
    client.create_table(**{**PETS, "LocalSecondaryIndexes": [{
        "IndexName": "ByAnimal", "KeySchema": [{"AttributeName": "AnimalType", "KeyType": "HASH"},
                                               {"AttributeName": "Name", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"}}]})
    client.put_item(TableName="Pets", Item=ITEM)
    consumed = client.query(TableName=ARN, IndexName="ByAnimal", KeyConditionExpression="AnimalType = :t",
                            ExpressionAttributeValues={":t": {"S": "Dog"}}, Select="ALL_ATTRIBUTES",
                            ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]
    assert consumed["TableName"] == ARN
    assert "ByAnimal" in consumed["LocalSecondaryIndexes"]


def test_batch_get_item_keyed_by_arn_reports_the_arn(pets):
    pets.put_item(TableName="Pets", Item=ITEM)
    answer = pets.batch_get_item(RequestItems={ARN: {"Keys": [KEY]}}, ReturnConsumedCapacity="TOTAL")
    assert [c["TableName"] for c in answer["ConsumedCapacity"]] == [ARN]
    assert list(answer["Responses"]) == [ARN]


def test_batch_write_item_keyed_by_arn_reports_the_arn(pets):
    answer = pets.batch_write_item(RequestItems={ARN: [{"PutRequest": {"Item": ITEM}}]},
                                   ReturnConsumedCapacity="TOTAL")
    assert [c["TableName"] for c in answer["ConsumedCapacity"]] == [ARN]


def test_batch_write_item_keyed_by_name_and_arn_of_two_tables(pets):
    pets.create_table(**{**PETS, "TableName": "Cats"})
    answer = pets.batch_write_item(RequestItems={ARN: [{"PutRequest": {"Item": ITEM}}],
                                                 "Cats": [{"PutRequest": {"Item": ITEM}}]},
                                   ReturnConsumedCapacity="TOTAL")
    assert sorted(c["TableName"] for c in answer["ConsumedCapacity"]) == sorted([ARN, "Cats"])


def test_transact_get_items_by_arn_reports_the_arn(pets):
    pets.put_item(TableName="Pets", Item=ITEM)
    answer = pets.transact_get_items(TransactItems=[{"Get": {"TableName": ARN, "Key": KEY}}],
                                     ReturnConsumedCapacity="TOTAL")
    assert [c["TableName"] for c in answer["ConsumedCapacity"]] == [ARN]


def test_transact_write_items_by_arn_reports_the_arn(pets):
    answer = pets.transact_write_items(TransactItems=[{"Put": {"TableName": ARN, "Item": ITEM}}],
                                       ReturnConsumedCapacity="TOTAL")
    assert [c["TableName"] for c in answer["ConsumedCapacity"]] == [ARN]
