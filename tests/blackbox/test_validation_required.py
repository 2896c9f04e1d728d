"""Issue 18, group 4: required parameters (docs/dynamodb-rules.md B.15). CreateTable alone says
"The parameter 'TableName' is required but was not present in the request"; every other
operation lists a missing member as null, and an empty list or map is not a missing one."""

import json
import urllib.request

import pytest
from botocore.exceptions import ClientError


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


def null(*members):
    noun = "error" if len(members) == 1 else "errors"
    return f"{len(members)} validation {noun} detected: " + "; ".join(
        f"Value null at '{m}' failed to satisfy constraint: Member must not be null" for m in members)


def test_create_table_says_the_table_name_is_required(raw):
    assert refused(raw.create_table) == "The parameter 'TableName' is required but was not present in the request"


CASES = [
    ("describe_table", {}, null("tableName")),
    ("delete_table", {}, null("tableName")),
    ("update_table", {}, null("tableName")),
    ("describe_time_to_live", {}, null("tableName")),
    ("update_time_to_live", dict(TableName="Missing"), null("timeToLiveSpecification")),
    ("get_item", {}, null("tableName", "key")),
    ("put_item", dict(TableName="Missing"), null("item")),
    ("update_item", dict(TableName="Missing"), null("key")),
    ("delete_item", {}, null("tableName", "key")),
    ("query", {}, null("tableName")),
    ("scan", {}, null("tableName")),
    ("transact_write_items", {}, null("transactItems")),
    ("transact_get_items", {}, null("transactItems")),
    ("tag_resource", {}, null("resourceArn", "tags")),
    ("list_tags_of_resource", {}, null("resourceArn")),
]


@pytest.mark.parametrize("call, params, message", CASES, ids=[c[0] for c in CASES])
def test_a_missing_member_is_listed_as_null(raw, call, params, message):
    assert refused(getattr(raw, call), **params) == message


@pytest.mark.parametrize("target", ["BatchGetItem", "BatchWriteItem"])
def test_a_batch_without_request_items_lists_them_as_null(server, target):
    # boto3 cannot send a batch without RequestItems (its endpoint rules read the map), so the
    # request is posted as an SDK would sign it.
    request = urllib.request.Request(server.endpoint, data=b"{}", method="POST", headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": f"DynamoDB_20120810.{target}",
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/aws4_request, "
                         "SignedHeaders=host, Signature=0"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    answer = json.loads(caught.value.read())
    assert caught.value.code == 400
    assert answer["__type"].endswith("#ValidationException")
    assert answer["message"] == null("requestItems")


def test_a_missing_get_is_found_before_an_earlier_actions_unknown_table(raw):
    message = refused(raw.transact_get_items, TransactItems=[
        {"Get": {"TableName": "Missing", "Key": {"pk": {"S": "a"}}}}, {}])
    assert message == null("transactItems.2.member.get")


@pytest.mark.parametrize("call, params, message", [
    ("transact_write_items", dict(TransactItems=[]),
     "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: "
     "Member must have length greater than or equal to 1"),
    ("batch_write_item", dict(RequestItems={}), "The requestItems parameter is required for BatchWriteItem"),
    ("batch_get_item", dict(RequestItems={}), "The requestItems parameter is required for BatchGetItem"),
], ids=["transact_write_items", "batch_write_item", "batch_get_item"])
def test_an_empty_list_or_map_is_not_a_missing_one(raw, call, params, message):
    assert refused(getattr(raw, call), **params) == message


def test_a_batch_put_without_item_and_delete_without_key_are_null(raw):
    message = refused(raw.batch_write_item, RequestItems={"Missing": [{"PutRequest": {}}, {"DeleteRequest": {}}]})
    assert message == null("requestItems.Missing.member.1.member.putRequest.item",
                           "requestItems.Missing.member.2.member.deleteRequest.key")
