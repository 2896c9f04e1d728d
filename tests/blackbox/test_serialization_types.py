"""Issue 18, item 4: a request member of the wrong JSON type is a SerializationException with the
service's sentence (rule B.22 in docs/dynamodb-rules.md), not serde_json's. Each case is sent as
raw JSON (the SDKs refuse to send most of these) to a table that does not exist: the wrong type
is reported before any other check."""

import json

import pytest

from conftest import Server, post_body

MODEL = "com.amazonaws.dynamodb.v20120810"
OBJECT = "Start of structure or map found where not expected"
FIELD = "Unexpected field type"
VALUE = "Unexpected value type in payload"
CAST = ("class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class java.lang.Class "
        "(sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and java.lang.Class are in module java.base "
        "of loader 'bootstrap')")
KEY = {"pk": {"S": "a"}}


def collection(java):
    return f"Unrecognized collection type class {java}"


def map_of(java):
    return f"Unrecognized collection type java.util.Map<java.lang.String, {java}>"


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory):
    server = Server(["--in-memory"], tmp_path_factory.mktemp("serialization-types") / "stderr")
    try:
        yield server.endpoint
    finally:
        server.stop()


def post(endpoint, operation, body):
    return post_body(endpoint, operation, json.dumps(body).encode())


def item(**attributes):
    return {"pk": {"S": "a"}, **attributes}


CREATE = dict(TableName="Made", AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
              KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], BillingMode="PAY_PER_REQUEST")

CASES = [
    # String members: the token read, or the collection found.
    ("GetItem", dict(TableName=5, Key=KEY), "NUMBER_VALUE cannot be converted to String"),
    ("GetItem", dict(TableName=5.5, Key=KEY), "DECIMAL_VALUE cannot be converted to String"),
    ("GetItem", dict(TableName=True, Key=KEY), "TRUE_VALUE cannot be converted to String"),
    ("GetItem", dict(TableName=False, Key=KEY), "FALSE_VALUE cannot be converted to String"),
    ("CreateTable", {**CREATE, "TableName": []}, collection("java.lang.String")),
    ("UpdateItem", dict(TableName="Missing", Key=KEY, UpdateExpression={}), OBJECT),
    ("PutItem", dict(TableName="Missing", Item=item(), ConditionExpression=7),
     "NUMBER_VALUE cannot be converted to String"),
    ("Query", dict(TableName="Missing", KeyConditionExpression=True), "TRUE_VALUE cannot be converted to String"),
    ("Scan", dict(TableName="Missing", FilterExpression=[]), collection("java.lang.String")),
    ("DeleteItem", dict(TableName="Missing", Key=KEY, ReturnValues=1), "NUMBER_VALUE cannot be converted to String"),
    ("CreateTable", {**CREATE, "KeySchema": [{"AttributeName": 5, "KeyType": "HASH"}]},
     "NUMBER_VALUE cannot be converted to String"),
    ("GetItem", dict(TableName="Missing", Key=KEY, AttributesToGet=["a", False]),
     "FALSE_VALUE cannot be converted to String"),
    ("PutItem", dict(TableName="Missing", Item=item(s={"S": 5})), "NUMBER_VALUE cannot be converted to String"),
    ("PutItem", dict(TableName="Missing", Item=item(n={"N": 5})), "NUMBER_VALUE cannot be converted to String"),
    ("PutItem", dict(TableName="Missing", Item=item(ss={"SS": ["a", {}]})), OBJECT),
    ("PutItem", dict(TableName="Missing", Item=item(ns={"NS": [1]})), "NUMBER_VALUE cannot be converted to String"),
    # Integer members.
    ("Query", dict(TableName="Missing", Limit="5"), "STRING_VALUE cannot be converted to Integer"),
    ("Scan", dict(TableName="Missing", Limit=True), "TRUE_VALUE cannot be converted to Integer"),
    ("Scan", dict(TableName="Missing", Segment=False, TotalSegments=2), "FALSE_VALUE cannot be converted to Integer"),
    ("Scan", dict(TableName="Missing", Segment=0, TotalSegments=[2]), collection("java.lang.Integer")),
    ("Query", dict(TableName="Missing", Limit={}), OBJECT),
    ("ListTables", dict(Limit="10"), "STRING_VALUE cannot be converted to Integer"),
    # Long members.
    ("CreateTable", {**CREATE, "BillingMode": "PROVISIONED",
                     "ProvisionedThroughput": {"ReadCapacityUnits": "5", "WriteCapacityUnits": 5}},
     "STRING_VALUE cannot be converted to Long"),
    ("CreateTable", {**CREATE, "BillingMode": "PROVISIONED",
                     "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": True}},
     "TRUE_VALUE cannot be converted to Long"),
    ("UpdateTable", dict(TableName="Missing", ProvisionedThroughput={"ReadCapacityUnits": [5], "WriteCapacityUnits": 5}),
     collection("java.lang.Long")),
    ("UpdateTable", dict(TableName="Missing", ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": {}}),
     OBJECT),
    # Boolean members.
    ("GetItem", dict(TableName="Missing", Key=KEY, ConsistentRead=5), "NUMBER_VALUE cannot be converted to Boolean"),
    ("Query", dict(TableName="Missing", ScanIndexForward=1.5), "DECIMAL_VALUE cannot be converted to Boolean"),
    ("Scan", dict(TableName="Missing", ConsistentRead=[]), collection("java.lang.Boolean")),
    ("GetItem", dict(TableName="Missing", Key=KEY, ConsistentRead={}), OBJECT),
    ("Scan", dict(TableName="Missing", ConsistentRead="dog"), "Unexpected token received from parser"),
    ("PutItem", dict(TableName="Missing", Item=item(b={"BOOL": 1})), "NUMBER_VALUE cannot be converted to Boolean"),
    ("PutItem", dict(TableName="Missing", Item=item(b={"BOOL": "23"})), "Unexpected token received from parser"),
    # Blob members (B, BS elements).
    ("PutItem", dict(TableName="Missing", Item=item(b={"B": 5})), "only base-64-encoded strings are convertible to bytes"),
    ("PutItem", dict(TableName="Missing", Item=item(b={"B": True})), "only base-64-encoded strings are convertible to bytes"),
    ("PutItem", dict(TableName="Missing", Item=item(b={"BS": ["YQ==", 1.5]})),
     "only base-64-encoded strings are convertible to bytes"),
    ("PutItem", dict(TableName="Missing", Item=item(b={"B": []})), collection("java.nio.ByteBuffer")),
    ("PutItem", dict(TableName="Missing", Item=item(b={"B": {}})), OBJECT),
    # List members.
    ("CreateTable", {**CREATE, "KeySchema": "pk"}, FIELD),
    ("CreateTable", {**CREATE, "AttributeDefinitions": 5}, FIELD),
    ("CreateTable", {**CREATE, "AttributeDefinitions": {}}, OBJECT),
    ("GetItem", dict(TableName="Missing", Key=KEY, AttributesToGet=True), FIELD),
    ("PutItem", dict(TableName="Missing", Item=item(ss={"SS": "a"})), FIELD),
    ("PutItem", dict(TableName="Missing", Item=item(l={"L": 5})), FIELD),
    ("PutItem", dict(TableName="Missing", Item=item(l={"L": {}})), OBJECT),
    ("TransactWriteItems", dict(TransactItems=7), FIELD),
    # Map members: the class of their values when given a list.
    ("GetItem", dict(TableName="Missing", Key=5), FIELD),
    ("GetItem", dict(TableName="Missing", Key=[]), map_of(f"{MODEL}.AttributeValue")),
    ("PutItem", dict(TableName="Missing", Item="x"), FIELD),
    ("PutItem", dict(TableName="Missing", Item=item(m={"M": []})), map_of(f"{MODEL}.AttributeValue")),
    ("Query", dict(TableName="Missing", ExpressionAttributeValues=[]), map_of(f"{MODEL}.AttributeValue")),
    ("Scan", dict(TableName="Missing", ExpressionAttributeValues=[]), map_of(f"{MODEL}.AttributeValue")),
    ("Scan", dict(TableName="Missing", ExpressionAttributeNames=[]), map_of("java.lang.String")),
    ("Scan", dict(TableName="Missing", ExpressionAttributeNames={"#a": 5}), "NUMBER_VALUE cannot be converted to String"),
    ("PutItem", dict(TableName="Missing", Item=item(), Expected=[]), map_of(f"{MODEL}.ExpectedAttributeValue")),
    ("Query", dict(TableName="Missing", KeyConditions=[]), map_of(f"{MODEL}.Condition")),
    ("Scan", dict(TableName="Missing", ScanFilter=True), FIELD),
    ("UpdateItem", dict(TableName="Missing", Key=KEY, AttributeUpdates=[]), map_of(f"{MODEL}.AttributeValueUpdate")),
    ("BatchGetItem", dict(RequestItems=[]), map_of(f"{MODEL}.KeysAndAttributes")),
    ("BatchWriteItem", dict(RequestItems=[]), map_of(f"java.util.List<{MODEL}.WriteRequest>")),
    ("BatchWriteItem", dict(RequestItems=5), FIELD),
    # Structures: a member of a structure, or an element of a list or a value of a map.
    ("CreateTable", {**CREATE, "BillingMode": "PROVISIONED", "ProvisionedThroughput": 5}, FIELD),
    ("CreateTable", {**CREATE, "StreamSpecification": "on"}, FIELD),
    ("CreateTable", {**CREATE, "KeySchema": ["pk"]}, VALUE),
    ("CreateTable", {**CREATE, "AttributeDefinitions": [True]}, VALUE),
    ("PutItem", dict(TableName="Missing", Item=item(a="x")), VALUE),
    ("PutItem", dict(TableName="Missing", Item=item(a=[])), collection(f"{MODEL}.AttributeValue")),
    ("PutItem", dict(TableName="Missing", Item=item(l={"L": [5]})), VALUE),
    ("PutItem", dict(TableName="Missing", Item=item(), Expected={"a": 5}), VALUE),
    ("PutItem", dict(TableName="Missing", Item=item(), Expected={"a": {"Value": "x"}}), FIELD),
    ("PutItem", dict(TableName="Missing", Item=item(), Expected={"a": {"Value": []}}),
     collection(f"{MODEL}.AttributeValue")),
    ("UpdateItem", dict(TableName="Missing", Key=KEY, AttributeUpdates={"a": {"Value": 5}}), FIELD),
    ("BatchWriteItem", dict(RequestItems={"Missing": [5]}), VALUE),
    ("BatchWriteItem", dict(RequestItems={"Missing": [{"PutRequest": True}]}), FIELD),
    ("BatchWriteItem", dict(RequestItems={"Missing": [{"DeleteRequest": {"Key": 1}}]}), FIELD),
    ("BatchGetItem", dict(RequestItems={"Missing": "x"}), VALUE),
    ("TransactWriteItems", dict(TransactItems=[{"Put": True}]), FIELD),
    ("TransactGetItems", dict(TransactItems=[{"Get": 1}]), FIELD),
    # A list where a structure belongs (serde would read it as the structure's members in order).
    ("CreateTable", {**CREATE, "BillingMode": "PROVISIONED", "ProvisionedThroughput": [5, 5]},
     collection(f"{MODEL}.ProvisionedThroughput")),
    ("CreateTable", {**CREATE, "KeySchema": [["pk", "HASH"]]}, collection(f"{MODEL}.KeySchemaElement")),
    ("CreateTable", {**CREATE, "AttributeDefinitions": [[]]}, collection(f"{MODEL}.AttributeDefinition")),
    ("CreateTable", {**CREATE, "StreamSpecification": []}, collection(f"{MODEL}.StreamSpecification")),
    ("CreateTable", {**CREATE, "LocalSecondaryIndexes": [{"IndexName": "i", "Projection": []}]},
     collection(f"{MODEL}.Projection")),
    ("CreateTable", {**CREATE, "Tags": [["k", "v"]]}, collection(f"{MODEL}.Tag")),
    ("UpdateTable", dict(TableName="Missing", GlobalSecondaryIndexUpdates=[{"Delete": []}]),
     collection(f"{MODEL}.DeleteGlobalSecondaryIndexAction")),
    ("PutItem", dict(TableName="Missing", Item=item(), Expected={"a": []}), collection(f"{MODEL}.ExpectedAttributeValue")),
    ("Query", dict(TableName="Missing", KeyConditions={"pk": ["EQ"]}), collection(f"{MODEL}.Condition")),
    ("UpdateItem", dict(TableName="Missing", Key=KEY, AttributeUpdates={"a": []}),
     collection(f"{MODEL}.AttributeValueUpdate")),
    ("BatchGetItem", dict(RequestItems={"Missing": []}), collection(f"{MODEL}.KeysAndAttributes")),
    ("BatchWriteItem", dict(RequestItems={"Missing": [[]]}), collection(f"{MODEL}.WriteRequest")),
    ("BatchWriteItem", dict(RequestItems={"Missing": [{"PutRequest": []}]}), collection(f"{MODEL}.PutRequest")),
    ("TransactWriteItems", dict(TransactItems=[[]]), collection(f"{MODEL}.TransactWriteItem")),
    ("TransactGetItems", dict(TransactItems=[{"Get": []}]), collection(f"{MODEL}.Get")),
    ("UpdateTimeToLive", dict(TableName="Missing", TimeToLiveSpecification=[]),
     collection(f"{MODEL}.TimeToLiveSpecification")),
    # A list that is a map value, a map that is a list element: the JVM's cast failure for a scalar.
    ("BatchWriteItem", dict(RequestItems={"Missing": 5}), CAST),
    ("BatchWriteItem", dict(RequestItems={"Missing": "x"}), CAST),
    ("BatchWriteItem", dict(RequestItems={"Missing": {}}), OBJECT),
    ("BatchGetItem", dict(RequestItems={"Missing": {"Keys": [True]}}), CAST),
    ("BatchGetItem", dict(RequestItems={"Missing": {"Keys": [{"pk": {"S": "a"}}, 2.5]}}), CAST),
    ("BatchGetItem", dict(RequestItems={"Missing": {"Keys": [[]]}}), map_of(f"{MODEL}.AttributeValue")),
    ("BatchGetItem", dict(RequestItems={"Missing": {"Keys": "k"}}), FIELD),
    ("UpdateTimeToLive", dict(TableName="Missing", TimeToLiveSpecification=5), FIELD),
    ("UpdateTimeToLive", dict(TableName="Missing", TimeToLiveSpecification={"AttributeName": "x", "Enabled": 1}),
     "NUMBER_VALUE cannot be converted to Boolean"),
    ("TagResource", dict(ResourceArn="arn:aws:dynamodb:us-east-1:000000000000:table/Missing", Tags=[5]), VALUE),
]


@pytest.mark.parametrize("operation, body, message", CASES,
                         ids=[f"{i}-{case[0]}" for i, case in enumerate(CASES)])
def test_a_member_of_the_wrong_json_type_gets_the_service_sentence(endpoint, operation, body, message):
    status, answer = post(endpoint, operation, body)
    assert status == 400
    assert answer["__type"] == "com.amazon.coral.service#SerializationException"
    # Rule B.22.1: the service's text is under `Message` here, not `message`.
    assert answer["Message"] == message and "message" not in answer


def test_the_wrong_type_comes_before_the_member_constraints(endpoint):
    # Limit 0 and a TableName of one character break constraints; the wrong Select type wins.
    status, answer = post(endpoint, "Scan", dict(TableName="a", Limit=0, Select=5))
    assert (status, answer["__type"]) == (400, "com.amazon.coral.service#SerializationException")
    assert answer["Message"] == "NUMBER_VALUE cannot be converted to String"


def test_null_is_an_absent_member(endpoint):
    status, answer = post(endpoint, "ListTables", dict(ExclusiveStartTableName=None, Limit=None))
    assert status == 200 and "TableNames" in answer
