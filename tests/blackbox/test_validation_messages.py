"""Issue 18, group 5, messages (docs/dynamodb-rules.md B.16): today's service words the request
checks of PutItem, UpdateItem and DeleteItem inside the one-error envelope, before the table is
looked up; checks that need the table, and the read operations, stay bare."""

import pytest
from botocore.exceptions import ClientError

from conftest import session, UNCHECKED

ONE = "1 validation error detected: "
KEY = {"pk": {"S": "a"}, "sk": {"S": "b"}}


@pytest.fixture
def raw(server):
    raw = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    raw.create_table(TableName="Notes", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                           {"AttributeName": "sk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                {"AttributeName": "sk", "KeyType": "RANGE"}])
    return raw


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


ENVELOPED = [
    ("empty-values", "put_item",
     dict(Item=KEY, ConditionExpression="attribute_exists(n)", ExpressionAttributeValues={}),
     "ExpressionAttributeValues must not be empty"),
    ("values-without-expression", "put_item", dict(Item=KEY, ExpressionAttributeValues={":v": {"S": "x"}}),
     "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"),
    ("empty-string-set", "put_item", dict(Item={**KEY, "s": {"SS": []}}),
     "One or more parameter values were invalid: An string set  may not be empty"),
    ("duplicate-set-elements", "put_item", dict(Item={**KEY, "s": {"SS": ["a", "a"]}}),
     "One or more parameter values were invalid: Input collection [a, a] contains duplicates."),
    # Rule B.10: a binary set has its own sentences; a number set names no element.
    ("empty-binary-set", "put_item", dict(Item={**KEY, "s": {"BS": []}}),
     "One or more parameter values were invalid: Binary sets should not be empty"),
    ("duplicate-binary-set-elements", "update_item",
     dict(Key=KEY, UpdateExpression="ADD s :s", ExpressionAttributeValues={":s": {"BS": [b"a", b"a"]}}),
     "One or more parameter values were invalid: Input collection [YQ==, YQ==]of type BS contains duplicates."),
    ("duplicate-number-set-elements", "delete_item", dict(Key={"pk": {"NS": ["1", "1.0"]}, "sk": {"S": "b"}}),
     "One or more parameter values were invalid: Input collection contains duplicates."),
    ("redundant-parentheses", "put_item", dict(Item=KEY, ConditionExpression="((attribute_exists(n)))"),
     "Invalid ConditionExpression: The expression has redundant parentheses;"),
    ("put-return-values", "put_item", dict(Item=KEY, ReturnValues="ALL_NEW"),
     "ReturnValues can only be ALL_OLD or NONE"),
    ("mixing", "put_item",
     dict(Item=KEY, ConditionExpression="attribute_exists(n)", Expected={"n": {"Exists": False}}),
     "Can not use both expression and non-expression parameters in the same request: "
     "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}"),
    ("empty-update-expression", "update_item", dict(Key=KEY, UpdateExpression=""),
     "Invalid UpdateExpression: The expression can not be empty;"),
    ("update-syntax", "update_item", dict(Key=KEY, UpdateExpression="INVALID SYNTAX"),
     'Invalid UpdateExpression: Syntax error; token: "INVALID", near: "INVALID SYNTAX"'),
    ("unused-value", "update_item",
     dict(Key=KEY, UpdateExpression="SET n = :v",
          ExpressionAttributeValues={":v": {"S": "x"}, ":unused": {"S": "y"}}),
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"),
    ("unused-name", "update_item",
     dict(Key=KEY, UpdateExpression="SET n = :v", ExpressionAttributeNames={"#unused": "u"},
          ExpressionAttributeValues={":v": {"S": "x"}}),
     "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}"),
    ("undefined-value", "update_item", dict(Key=KEY, UpdateExpression="SET n = :v"),
     "Invalid UpdateExpression: An expression attribute value used in expression is not defined; "
     "attribute value: :v"),
    ("delete-undefined-name", "delete_item", dict(Key=KEY, ConditionExpression="attribute_exists(#n)"),
     "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; "
     "attribute name: #n"),
    ("delete-return-values", "delete_item", dict(Key=KEY, ReturnValues="UPDATED_NEW"),
     "ReturnValues can only be ALL_OLD or NONE"),
]


@pytest.mark.parametrize("call, params, sentence", [c[1:] for c in ENVELOPED], ids=[c[0] for c in ENVELOPED])
def test_write_request_checks_come_in_the_envelope(raw, call, params, sentence):
    assert refused(getattr(raw, call), TableName="Notes", **params) == ONE + sentence


def test_the_envelope_comes_before_an_unknown_table(raw):
    assert refused(raw.put_item, TableName="Missing", Item=KEY, ConditionExpression="attribute_exists(n)",
                   ExpressionAttributeValues={}) == ONE + "ExpressionAttributeValues must not be empty"


BARE = [
    ("key-attribute-update", "update_item",
     dict(Key=KEY, UpdateExpression="SET pk = :v", ExpressionAttributeValues={":v": {"S": "x"}}),
     "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
    ("key-type", "put_item", dict(Item={"pk": {"N": "1"}, "sk": {"S": "b"}}),
     "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"),
    ("key-schema", "delete_item", dict(Key={"pk": {"S": "a"}}),
     "The provided key element does not match the schema"),
    ("get-empty-names", "get_item", dict(Key=KEY, ProjectionExpression="n", ExpressionAttributeNames={}),
     "ExpressionAttributeNames must not be empty"),
    ("query-empty-values", "query", dict(KeyConditionExpression="pk = :v", ExpressionAttributeValues={}),
     "ExpressionAttributeValues must not be empty"),
    ("get-duplicate-number-set", "get_item", dict(Key={"pk": {"NS": ["2", "1", "2"]}, "sk": {"S": "b"}}),
     "One or more parameter values were invalid: Input collection contains duplicates."),
    ("query-empty-binary-set", "query",
     dict(KeyConditionExpression="pk = :v", ExpressionAttributeValues={":v": {"BS": []}}),
     "One or more parameter values were invalid: Binary sets should not be empty"),
    # Rule B.16: Scan checks values in the older layer, which names the placeholder; Query does not.
    ("scan-bad-number-value", "scan",
     dict(FilterExpression="n = :v", ExpressionAttributeValues={":v": {"N": "abc"}}),
     "ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: "
     "abc for key :v"),
    ("scan-empty-set-value", "scan",
     dict(FilterExpression="n = :v OR n = :w", ExpressionAttributeValues={":v": {"S": "x"}, ":w": {"SS": []}}),
     "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: "
     "An string set  may not be empty for key :w"),
    ("query-bad-number-value", "query",
     dict(KeyConditionExpression="pk = :p", FilterExpression="n = :v",
          ExpressionAttributeValues={":p": {"S": "a"}, ":v": {"N": "abc"}}),
     "The parameter cannot be converted to a numeric value: abc"),
    ("scan-unused-value", "scan",
     dict(FilterExpression="n = :v", ExpressionAttributeValues={":v": {"S": "x"}, ":unused": {"S": "y"}}),
     "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in BARE], ids=[c[0] for c in BARE])
def test_table_checks_and_reads_stay_bare(raw, call, params, message):
    assert refused(getattr(raw, call), TableName="Notes", **params) == message


@pytest.mark.parametrize("call, params, message", [
    ("query", dict(KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
                   ExpressionAttributeValues={":v": {"S": "a"}}),
     "ExpressionAttributeValues can only be specified when using expressions: "
     "FilterExpression and KeyConditionExpression are null"),
    ("query", dict(KeyConditions={"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
                   ExpressionAttributeNames={"#a": "a"}),
     "ExpressionAttributeNames can only be specified when using expressions"),
    ("update_item", dict(Key=KEY, ExpressionAttributeValues={":v": {"S": "x"}}),
     ONE + "ExpressionAttributeValues can only be specified when using expressions: "
     "UpdateExpression and ConditionExpression are null"),
    ("scan", dict(ExpressionAttributeNames={"#a": "a"}),
     "ExpressionAttributeNames can only be specified when using expressions"),
], ids=["query-values", "query-names", "update-values", "scan-names"])
def test_maps_without_an_expression_that_could_use_them(raw, call, params, message):
    assert refused(getattr(raw, call), TableName="Notes", **params) == message


def test_batch_get_item_names_without_a_projection_are_refused_as_get_items_are(raw):
    for keys in [{"Keys": [KEY], "ExpressionAttributeNames": {"#a": "a"}},
                 {"Keys": [KEY], "AttributesToGet": ["a"], "ExpressionAttributeNames": {"#a": "a"}}]:
        assert refused(raw.batch_get_item, RequestItems={"Notes": keys}) == (
            "ExpressionAttributeNames can only be specified when using expressions")


# A BatchWriteItem put whose item lacks a key attribute (or is empty) is the schema mismatch, as a
# key attribute of the wrong type is (dynalite's test/batchWriteItem.js, run against the service:
# `{}`, `{b: ...}`, and an item of a range table without its sort key). PutItem names the key.
@pytest.mark.parametrize("item", [{}, {"n": {"S": "x"}}, {"pk": {"S": "a"}}, {"sk": {"S": "b"}}],
                         ids=["empty", "no-key", "no-sort-key", "no-partition-key"])
def test_batch_write_put_without_its_key_does_not_match_the_schema(raw, item):
    assert refused(raw.batch_write_item, RequestItems={"Notes": [{"PutRequest": {"Item": item}}]}) == (
        "The provided key element does not match the schema")
