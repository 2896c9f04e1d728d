"""The order of the request checks around the legacy parameters, against a table that does not
exist: what a request says on its own is refused before the table is looked up (rule B.15, step 2
before step 3), in the service's order. The cases are those of dynalite's test suite, which runs
against DynamoDB (test/query.js, test/scan.js, test/getItem.js, test/putItem.js, test/updateItem.js,
test/deleteItem.js); each table name here names no table."""

import pytest
from botocore.exceptions import ClientError

INVALID = "One or more parameter values were invalid: "
EMPTY_VALUE = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
KEY_EQ = {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    error = caught.value.response["Error"]
    return error["Code"], error["Message"]


# ---- Query: the legacy parameters before the table (item: KeyConditions on a missing table) ----

QUERY_CASES = [
    ("key-conditions-count", dict(KeyConditions={"a": {"ComparisonOperator": "EQ"}}),
     INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"),
    ("key-conditions-type", dict(KeyConditions={"a": {"ComparisonOperator": "LT",
                                                       "AttributeValueList": [{"BOOL": True}]}}),
     INVALID + "ComparisonOperator LT is not valid for BOOL AttributeValue type"),
    ("key-conditions-between-order",
     dict(KeyConditions={"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "5"}, {"N": "1"}]}}),
     "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"),
    ("key-conditions-empty-value",
     dict(KeyConditions={"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}, {"S": ""}]}}),
     EMPTY_VALUE),
    ("query-filter-count", dict(KeyConditions=KEY_EQ, QueryFilter={"b": {"ComparisonOperator": "NULL",
                                                                        "AttributeValueList": [{"S": "a"}]}}),
     INVALID + "Invalid number of argument(s) for the NULL ComparisonOperator"),
    ("attributes-to-get-duplicate", dict(KeyConditions=KEY_EQ, AttributesToGet=["b", "b"]),
     INVALID + "Duplicate value in attribute name: b"),
    # dynalite's "bad attribute values in QueryFilter": the filter before everything else.
    ("query-filter-first", dict(ExclusiveStartKey={"a": {}}, AttributesToGet=["a", "a"],
                                KeyConditions={"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}},
                                QueryFilter={"a": {"ComparisonOperator": "EQ",
                                                   "AttributeValueList": [{}, {"S": ""}]}}),
     EMPTY_VALUE),
    # "duplicate values in AttributesToGet": before ExclusiveStartKey.
    ("attributes-to-get-before-start-key", dict(QueryFilter={}, ExclusiveStartKey={"a": {}},
                                                AttributesToGet=["a", "a"], KeyConditions=KEY_EQ),
     INVALID + "Duplicate value in attribute name: a"),
]


@pytest.mark.parametrize("params, message", [c[1:] for c in QUERY_CASES], ids=[c[0] for c in QUERY_CASES])
def test_query_checks_its_legacy_parameters_before_the_table(raw, params, message):
    assert refused(raw.query, TableName="abc", **params) == ("ValidationException", message)

