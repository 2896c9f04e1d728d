"""Issue 18, items 4 and 5: CreateTable's attribute definitions against its key schemas, and the
throughput quota of CreateTable and UpdateTable, in the service's order and words
(docs/dynamodb-rules.md B.7, B.15)."""

import pytest

from conftest import error

INVALID = "One or more parameter values were invalid: "
NO_DEFINITION = "Invalid KeySchema: Some index key attribute have no definition"
COUNT_MISMATCH = (INVALID + "Number of attributes in KeySchema does not exactly match number of attributes "
                  "defined in AttributeDefinitions")


def defs(*names):
    return [{"AttributeName": n, "AttributeType": "S"} for n in names]


def keys(*pairs):
    return [{"AttributeName": n, "KeyType": t} for n, t in pairs]


def gsi(name, *pairs):
    return {"IndexName": name, "KeySchema": keys(*pairs), "Projection": {"ProjectionType": "ALL"}}


DEFINITION_CASES = [
    # More key elements than definitions, before their names or roles are looked at.
    ("more-keys-than-definitions", defs("b"), keys(("a", "HASH"), ("b", "RANGE")), {}, NO_DEFINITION),
    ("the-same-key-twice-one-definition", defs("a"), keys(("a", "HASH"), ("a", "HASH")), {}, NO_DEFINITION),
    ("two-hash-keys-one-definition", defs("a"), keys(("a", "HASH"), ("b", "HASH")), {}, NO_DEFINITION),
    ("a-key-of-another-name", defs("b"), keys(("a", "HASH")), {},
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [a], "
     "AttributeDefinitions: [b]"),
    ("a-key-of-another-case", defs("pk"), keys(("PK", "HASH")), {},
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [PK], "
     "AttributeDefinitions: [pk]"),
    ("the-same-key-twice", defs("a", "b"), keys(("a", "HASH"), ("a", "RANGE")), {},
     "Both the Hash Key and the Range Key element in the KeySchema have the same name"),
    ("two-hash-keys", defs("a", "b"), keys(("a", "HASH"), ("b", "HASH")), {},
     "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"),
    # Without indexes, an extra definition is a count mismatch.
    ("an-unused-definition", defs("a", "b"), keys(("a", "HASH")), {}, COUNT_MISMATCH),
    ("an-unused-definition-with-a-range-key", defs("a", "c", "b"), keys(("a", "HASH"), ("b", "RANGE")), {},
     COUNT_MISMATCH),
    ("a-definition-twice", [{"AttributeName": "a", "AttributeType": "S"}, {"AttributeName": "a", "AttributeType": "N"}],
     keys(("a", "HASH")), {}, "Attribute Name is duplicated: a"),
    # With indexes: an index's undefined key attributes are named before its roles are checked,
    # and an unused definition is named with the keys used.
    ("an-index-key-without-definition", defs("a"), keys(("a", "HASH")),
     {"GlobalSecondaryIndexes": [gsi("byC", ("c", "RANGE"))]},
     INVALID + "Some index key attributes are not defined in AttributeDefinitions. Keys: [c], "
     "AttributeDefinitions: [a]"),
    ("an-unused-definition-with-an-index", defs("a", "c", "x"), keys(("a", "HASH")),
     {"GlobalSecondaryIndexes": [gsi("byC", ("c", "HASH"))]},
     INVALID + "Some AttributeDefinitions are not used. AttributeDefinitions: [a, c, x], keys used: [a, c]"),
]


@pytest.mark.parametrize("definitions, key_schema, more, message", [c[1:] for c in DEFINITION_CASES],
                         ids=[c[0] for c in DEFINITION_CASES])
def test_attribute_definitions_against_the_key_schemas(raw, definitions, key_schema, more, message):
    assert error(raw.create_table, TableName="Defs", BillingMode="PAY_PER_REQUEST",
                 AttributeDefinitions=definitions, KeySchema=key_schema, **more) == ("ValidationException", message)


def per_table(units, value):
    return (f"The requested {units}, {value}, is above the per table maximum for the account in us-east-1. "
            "Per table maximum: 40000. Refer to the Amazon DynamoDB Developer Guide for current limits and how "
            "to request higher limits.")


def provisioned(read, write, **more):
    return dict(TableName="Quota", AttributeDefinitions=defs("a"), KeySchema=keys(("a", "HASH")),
                ProvisionedThroughput={"ReadCapacityUnits": read, "WriteCapacityUnits": write}, **more)


def test_create_table_above_the_per_table_maximum_is_a_limit_exceeded(raw):
    assert error(raw.create_table, **provisioned(40001, 5)) == (
        "LimitExceededException", per_table("ReadCapacityUnits", 40001))
    assert error(raw.create_table, **provisioned(5, 50000)) == (
        "LimitExceededException", per_table("WriteCapacityUnits", 50000))
    # At the maximum the table is created.
    raw.create_table(**provisioned(40000, 40000))


def test_create_table_out_of_bounds_units_are_a_validation_error_first(raw):
    assert error(raw.create_table, **provisioned(1000000000001, 1000000000001)) == (
        "ValidationException", "Given value 1000000000001 for ReadCapacityUnits is out of bounds")
    assert error(raw.create_table, **provisioned(1000000000000, 1000000000001)) == (
        "ValidationException", "Given value 1000000000001 for WriteCapacityUnits is out of bounds")


def test_a_gsi_above_the_per_index_maximum_is_a_limit_exceeded(raw):
    index = {**gsi("byB", ("b", "HASH")), "ProvisionedThroughput": {"ReadCapacityUnits": 5,
                                                                      "WriteCapacityUnits": 40001}}
    request = provisioned(5, 5, GlobalSecondaryIndexes=[index])
    request["AttributeDefinitions"] = defs("a", "b")
    code, message = error(raw.create_table, **request)
    assert code == "LimitExceededException"
    assert message.startswith("The requested WriteCapacityUnits for index byB, 40001, is above the per index maximum")


def test_update_table_above_the_per_table_maximum_is_a_limit_exceeded(raw):
    raw.create_table(**provisioned(5, 5))
    assert error(raw.update_table, TableName="Quota",
                 ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 40001}) == (
        "LimitExceededException", per_table("WriteCapacityUnits", 40001))
    throughput = raw.describe_table(TableName="Quota")["Table"]["ProvisionedThroughput"]
    assert (throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"]) == (5, 5)
