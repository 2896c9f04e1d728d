"""Transactions with boto3's client: TransactWriteItems all or nothing, TransactionCanceledException
with its CancellationReasons in e.response, ClientRequestToken idempotency, TransactGetItems."""

import pytest
from botocore.exceptions import ClientError

from conftest import PETS


def key(animal, name):
    return {"AnimalType": {"S": animal}, "Name": {"S": name}}


@pytest.fixture
def pets(client):
    client.create_table(**PETS)
    client.put_item(TableName="Pets", Item={**key("Dog", "Fido"), "Age": {"N": "3"}})
    client.put_item(TableName="Pets", Item={**key("Bird", "Tweety"), "Age": {"N": "1"}})
    return client


def transfer(fido_age):
    return [
        {"Put": {"TableName": "Pets", "Item": {**key("Dog", "Rex"), "Age": {"N": "7"}}}},
        {"ConditionCheck": {"TableName": "Pets", "Key": key("Dog", "Fido"), "ConditionExpression": "Age = :a",
                            "ExpressionAttributeValues": {":a": {"N": str(fido_age)}},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Update": {"TableName": "Pets", "Key": key("Bird", "Tweety"), "UpdateExpression": "SET Age = Age + :one",
                    "ExpressionAttributeValues": {":one": {"N": "1"}}}},
    ]


def scan(client):
    items = client.scan(TableName="Pets", ConsistentRead=True)["Items"]
    return sorted((i["AnimalType"]["S"], i["Name"]["S"], i.get("Age", {}).get("N")) for i in items)


def test_a_failing_condition_check_cancels_every_write(pets):
    before = scan(pets)
    with pytest.raises(pets.exceptions.TransactionCanceledException) as raised:
        pets.transact_write_items(TransactItems=transfer(4))
    error = raised.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    assert error["Error"]["Message"] == ("Transaction cancelled, please refer cancellation reasons for specific "
                                         "reasons [None, ConditionalCheckFailed, None]")
    assert error["CancellationReasons"] == [
        {"Code": "None"},
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
         "Item": {**key("Dog", "Fido"), "Age": {"N": "3"}}},
        {"Code": "None"},
    ]
    assert scan(pets) == before, "nothing written"

    result = pets.transact_write_items(TransactItems=transfer(3), ReturnConsumedCapacity="TOTAL")
    assert result["ConsumedCapacity"] == [{"TableName": "Pets", "CapacityUnits": 6.0, "WriteCapacityUnits": 6.0}]
    assert scan(pets) == [("Bird", "Tweety", "2"), ("Dog", "Fido", "3"), ("Dog", "Rex", "7")]


def test_a_client_request_token_replays_and_refuses_other_parameters(pets):
    items = transfer(3)
    pets.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    pets.transact_write_items(TransactItems=items, ClientRequestToken="token-1")
    assert ("Bird", "Tweety", "2") in scan(pets), "applied once"

    with pytest.raises(pets.exceptions.IdempotentParameterMismatchException) as raised:
        pets.transact_write_items(TransactItems=transfer(4), ClientRequestToken="token-1")
    assert raised.value.response["Error"]["Message"] == (
        "The request uses the same client token as a previous, but non-identical request.")
    assert ("Bird", "Tweety", "2") in scan(pets)


def test_one_item_twice_is_refused(pets):
    with pytest.raises(ClientError) as raised:
        pets.transact_write_items(TransactItems=[
            {"Delete": {"TableName": "Pets", "Key": key("Dog", "Fido")}},
            {"ConditionCheck": {"TableName": "Pets", "Key": key("Dog", "Fido"),
                                "ConditionExpression": "attribute_exists(Age)"}},
        ])
    assert raised.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Transaction request cannot include multiple operations on one item"}
    assert ("Dog", "Fido", "3") in scan(pets)


def test_transact_get_items_answers_in_request_order(pets):
    got = pets.transact_get_items(TransactItems=[
        {"Get": {"TableName": "Pets", "Key": key("Bird", "Tweety")}},
        {"Get": {"TableName": "Pets", "Key": key("Cat", "Nobody")}},
        {"Get": {"TableName": "Pets", "Key": key("Dog", "Fido"), "ProjectionExpression": "Age"}},
    ])
    assert got["Responses"] == [{"Item": {**key("Bird", "Tweety"), "Age": {"N": "1"}}}, {}, {"Item": {"Age": {"N": "3"}}}]
