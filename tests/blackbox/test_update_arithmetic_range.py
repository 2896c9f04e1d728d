"""Update arithmetic whose exact result is no DynamoDB number (docs/dynamodb-rules.md B.10,
"arithmetic results"): the service answers a result of more than 38 significant digits as it
answers one above the range, ValidationException `Number overflow. ...`, bare (not in the
one-error envelope: the check needs the item). Sources: ExtendDB/extenddb#94 (a capture of
`SET n = n + :v` past 9.99…9E+125) and the ScyllaDB Alternator tests run against the service
(`1E50 + 1`, `1E50 - 1`, `9E125 + 9E125`). The item is left as it was."""

from decimal import Decimal

import pytest

from conftest import error

OVERFLOW = "Number overflow. Attempting to store a number with magnitude larger than supported range"
UNDERFLOW = "Number underflow. Attempting to store a number with magnitude smaller than supported range"
MAX = "9.9999999999999999999999999999999999999E+125"
KEY = {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}


@pytest.fixture
def fido(pets):
    pets.put_item(TableName="Pets", Item={**KEY, "n": {"N": MAX}, "e50": {"N": "1E50"}})
    return pets


def update(client, expression, values, **extra):
    return error(client.update_item, TableName="Pets", Key=KEY, UpdateExpression=expression,
                 ExpressionAttributeValues=values, **extra)


def number(client, name):
    return client.get_item(TableName="Pets", Key=KEY, ConsistentRead=True)["Item"][name]["N"]


def test_a_sum_past_the_range_with_39_digits_is_an_overflow(fido):
    # ExtendDB/extenddb#94: the exact sum, 1.09…9E+126, has 39 digits and is above the range.
    assert update(fido, "SET n = n + :v", {":v": {"N": "1E+125"}}, ReturnValues="ALL_NEW") \
        == ("ValidationException", OVERFLOW)
    assert Decimal(number(fido, "n")) == Decimal(MAX)


@pytest.mark.parametrize("expression", ["SET e = e50 + :one", "SET e = e50 - :one", "ADD e50 :one"])
def test_a_result_of_more_than_38_digits_is_an_overflow(fido, expression):
    assert update(fido, expression, {":one": {"N": "1"}}) == ("ValidationException", OVERFLOW)
    assert Decimal(number(fido, "e50")) == Decimal("1E50")


def test_a_result_above_the_range_is_an_overflow(fido):
    assert update(fido, "SET e = :a + :b", {":a": {"N": "9E125"}, ":b": {"N": "9E125"}}) \
        == ("ValidationException", OVERFLOW)
    assert update(fido, "SET e = :a - :b", {":a": {"N": "9E125"}, ":b": {"N": "-9E125"}}) \
        == ("ValidationException", OVERFLOW)


def test_the_legacy_add_and_a_partiql_update_answer_alike(fido):
    assert error(fido.update_item, TableName="Pets", Key=KEY,
                 AttributeUpdates={"e50": {"Action": "ADD", "Value": {"N": "1"}}}) \
        == ("ValidationException", OVERFLOW)
    assert error(fido.execute_statement,
                 Statement="UPDATE Pets SET e50 = e50 + 1 WHERE AnimalType = 'Dog' AND Name = 'Fido'") \
        == ("ValidationException", OVERFLOW)


def test_a_result_below_the_range_is_an_underflow(fido):
    # Inferred (no capture of it is known): 1.5E-130 - 1.4E-130 = 1E-131.
    assert update(fido, "SET e = :a - :b", {":a": {"N": "1.5E-130"}, ":b": {"N": "1.4E-130"}}) \
        == ("ValidationException", UNDERFLOW)


def test_a_result_of_38_digits_in_range_is_stored_exactly(fido):
    fido.update_item(TableName="Pets", Key=KEY, UpdateExpression="SET e = :a + :b",
                     ExpressionAttributeValues={":a": {"N": "1E37"}, ":b": {"N": "1"}})
    assert number(fido, "e") == "10000000000000000000000000000000000001"
