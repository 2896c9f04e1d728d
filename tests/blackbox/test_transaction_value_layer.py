"""Issue 18, item 5: TransactWriteItems checks expression values in the service's older layer,
which names the placeholder of a bad value in every action type (docs/dynamodb-rules.md B.16)."""

import pytest

from conftest import error, PETS


def wrapped(sentence, placeholder=":t"):
    return "ValidationException", f"ExpressionAttributeValues contains invalid value: {sentence} for key {placeholder}"


BAD_VALUES = [
    ("an-empty-value", {}, "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ("an-empty-string-set", {"SS": []}, "One or more parameter values were invalid: An string set  may not be empty"),
    ("a-number-that-is-not", {"N": "abc"}, "The parameter cannot be converted to a numeric value: abc"),
    ("a-duplicate-in-a-set", {"SS": ["a", "b", "b"]},
     "One or more parameter values were invalid: Input collection [a, b, b] contains duplicates."),
]

CONDITION = {"ConditionExpression": "attribute_not_exists(AnimalType) OR Owner = :t"}


def actions(value):
    key = {"AnimalType": {"S": "Dog"}, "Name": {"S": "Rex"}}
    values = {"ExpressionAttributeValues": {":t": value}}
    return [
        ("put", {"Put": {"TableName": "Pets", "Item": key, **CONDITION, **values}}),
        ("update", {"Update": {"TableName": "Pets", "Key": key, "UpdateExpression": "SET Owner = :t", **values}}),
        ("delete", {"Delete": {"TableName": "Pets", "Key": key, **CONDITION, **values}}),
        ("condition-check", {"ConditionCheck": {"TableName": "Pets", "Key": key, **CONDITION, **values}}),
    ]


@pytest.mark.parametrize("value, sentence", [c[1:] for c in BAD_VALUES], ids=[c[0] for c in BAD_VALUES])
def test_transact_write_items_names_the_placeholder_of_a_bad_value(raw, value, sentence):
    raw.create_table(**PETS)
    for which, action in actions(value):
        assert error(raw.transact_write_items, TransactItems=[action]) == wrapped(sentence), which
