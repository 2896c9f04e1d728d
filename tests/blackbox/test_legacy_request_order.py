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
    # dynalite's "empty conditions": no key schema takes none, so the table is not looked up.
    ("key-conditions-empty-map", dict(KeyConditions={}), "Conditions can be of length 1 or 2 only"),
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



# ---- Which parameters are given, before any value is decoded -------------------------------

def mixing(legacy, expressions):
    return ("Can not use both expression and non-expression parameters in the same request: "
            f"Non-expression parameters: {{{legacy}}} Expression parameters: {{{expressions}}}")


NAMES = "ExpressionAttributeNames can only be specified when using expressions"
# PutItem, UpdateItem and DeleteItem word these inside the one-error envelope (rule B.16).
WRITE = "1 validation error detected: "
EMPTY = {"a": {}}

BEFORE_VALUES_CASES = [
    # dynalite's getItem.js: an empty key value beside both projection parameters.
    ("get-item-mixing", "get_item",
     dict(Key=EMPTY, AttributesToGet=["a"], ProjectionExpression="a"),
     mixing("AttributesToGet", "ProjectionExpression")),
    ("get-item-names", "get_item", dict(Key=EMPTY, AttributesToGet=["a"], ExpressionAttributeNames={}), NAMES),
    ("put-item-mixing", "put_item",
     dict(Item=EMPTY, Expected=EMPTY, ExpressionAttributeNames={}, ExpressionAttributeValues={},
          ConditionExpression=""),
     WRITE + mixing("Expected", "ConditionExpression")),
    ("delete-item-mixing", "delete_item",
     dict(Key=EMPTY, Expected=EMPTY, ExpressionAttributeNames={}, ExpressionAttributeValues={},
          ConditionExpression=""),
     WRITE + mixing("Expected", "ConditionExpression")),
    ("update-item-mixing", "update_item",
     dict(Key=EMPTY, Expected=EMPTY, AttributeUpdates={}, ExpressionAttributeNames={}, ExpressionAttributeValues={},
          ConditionExpression="", UpdateExpression=""),
     WRITE + mixing("AttributeUpdates, Expected", "UpdateExpression, ConditionExpression")),
    ("update-item-names", "update_item",
     dict(Key=EMPTY, Expected=EMPTY, ExpressionAttributeNames={}, ExpressionAttributeValues={}),
     WRITE + NAMES),
    ("update-item-values", "update_item", dict(Key=EMPTY, Expected=EMPTY, ExpressionAttributeValues={}),
     WRITE + "ExpressionAttributeValues can only be specified when using expressions: "
             "UpdateExpression and ConditionExpression are null"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in BEFORE_VALUES_CASES],
                         ids=[c[0] for c in BEFORE_VALUES_CASES])
def test_parameter_checks_come_before_the_values(raw, call, params, message):
    assert refused(getattr(raw, call), TableName="abc", **params) == ("ValidationException", message)


# ---- Names before values, and both before ConditionalOperator ------------------------------

NAMES_FIRST_CASES = [
    # dynalite's query.js "ExpressionAttributeNames but no expressions".
    ("query", "query",
     dict(QueryFilter={"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}, AttributesToGet=["a", "a"],
          ExclusiveStartKey=EMPTY, ConditionalOperator="OR", Select="SPECIFIC_ATTRIBUTES",
          ExpressionAttributeNames={}, ExpressionAttributeValues={}),
     NAMES),
    ("scan", "scan",
     dict(ScanFilter={"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}, AttributesToGet=["a", "a"],
          ExclusiveStartKey=EMPTY, ConditionalOperator="OR", Select="SPECIFIC_ATTRIBUTES",
          ExpressionAttributeNames={}, ExpressionAttributeValues={}),
     NAMES),
    ("put-item", "put_item",
     dict(Item={"a": {"S": "x"}}, ExpressionAttributeNames={"#a": "a"}, ExpressionAttributeValues={":a": {"S": "x"}}),
     WRITE + NAMES),
    ("delete-item", "delete_item",
     dict(Key={"a": {"S": "x"}}, ExpressionAttributeNames={"#a": "a"}, ExpressionAttributeValues={":a": {"S": "x"}}),
     WRITE + NAMES),
    # dynalite's query.js "ExpressionAttributeValues but no expressions": before ConditionalOperator.
    ("query-values-before-conditional-operator", "query",
     dict(QueryFilter={"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}, AttributesToGet=["a", "a"],
          ExclusiveStartKey=EMPTY, ConditionalOperator="OR", Select="SPECIFIC_ATTRIBUTES",
          ExpressionAttributeValues={}),
     "ExpressionAttributeValues can only be specified when using expressions: "
     "FilterExpression and KeyConditionExpression are null"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in NAMES_FIRST_CASES],
                         ids=[c[0] for c in NAMES_FIRST_CASES])
def test_names_without_an_expression_come_first(raw, call, params, message):
    assert refused(getattr(raw, call), TableName="abc", **params) == ("ValidationException", message)


# ---- The mixing sentence lists both kinds in the service's order ---------------------------

BAD_FILTER = {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}
ALL_EXPRESSIONS = dict(ProjectionExpression="", FilterExpression="", ExpressionAttributeNames={},
                       ExpressionAttributeValues={})

MIXING_ORDER_CASES = [
    # dynalite's query.js "all expressions and non-expression" (and its two variants).
    ("query", "query",
     dict(ExclusiveStartKey=EMPTY, Select="SPECIFIC_ATTRIBUTES", AttributesToGet=["a", "a"], QueryFilter=BAD_FILTER,
          ConditionalOperator="OR", KeyConditions=BAD_FILTER, KeyConditionExpression="", **ALL_EXPRESSIONS),
     mixing("AttributesToGet, QueryFilter, ConditionalOperator, KeyConditions",
            "ProjectionExpression, FilterExpression, KeyConditionExpression")),
    ("query-without-key-condition-expression", "query",
     dict(QueryFilter=BAD_FILTER, AttributesToGet=["a", "a"], ExclusiveStartKey=EMPTY, KeyConditions=BAD_FILTER,
          ConditionalOperator="OR", Select="SPECIFIC_ATTRIBUTES", **ALL_EXPRESSIONS),
     mixing("AttributesToGet, QueryFilter, ConditionalOperator", "ProjectionExpression, FilterExpression")),
    ("query-without-key-conditions", "query",
     dict(QueryFilter=BAD_FILTER, AttributesToGet=["a", "a"], ExclusiveStartKey=EMPTY, ConditionalOperator="OR",
          Select="SPECIFIC_ATTRIBUTES", KeyConditionExpression="", **ALL_EXPRESSIONS),
     mixing("AttributesToGet, QueryFilter, ConditionalOperator",
            "ProjectionExpression, FilterExpression, KeyConditionExpression")),
    # dynalite's scan.js "all expressions and non-expression".
    ("scan", "scan",
     dict(ExclusiveStartKey=EMPTY, AttributesToGet=["a", "a"], ScanFilter=BAD_FILTER, ConditionalOperator="OR",
          Select="SPECIFIC_ATTRIBUTES", **ALL_EXPRESSIONS),
     mixing("AttributesToGet, ScanFilter, ConditionalOperator", "ProjectionExpression, FilterExpression")),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in MIXING_ORDER_CASES],
                         ids=[c[0] for c in MIXING_ORDER_CASES])
def test_mixing_lists_the_parameters_in_the_service_order(raw, call, params, message):
    assert refused(getattr(raw, call), TableName="abc", **params) == ("ValidationException", message)
