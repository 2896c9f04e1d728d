"""boto3 against dynotable-local: UpdateItem giving a secondary-index key attribute a value of
another type (docs/dynamodb-rules.md B.6.2). Known from the expression, it is PutItem's Type mismatch
sentence, before the item is read; known only from the item, a sentence of its own. dynalite's
testRangeTable and its tests' requests, recorded against the service."""

import re

import pytest
from botocore.exceptions import ClientError

from conftest import UNCHECKED, session
from test_key_attribute_paths import KEY, RANGE

MISMATCH = re.compile(r"^One or more parameter values were invalid: Type mismatch for Index Key c Expected: S "
                      r"Actual: N IndexName: index\d$")
UNSUPPORTED = "The update expression attempted to update the secondary index key to unsupported type"


@pytest.fixture
def raw(server):
    client = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    client.create_table(**RANGE)
    return client


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


@pytest.mark.parametrize("expression", ["set d.a = a add c :a", "set e = c[1], c = a + :a"],
                         ids=["add-a-number", "arithmetic"])
def test_a_type_the_expression_shows_is_a_type_mismatch(raw, expression):
    # Before the item is read, and before the paths below d and c (rule B.6.1).
    assert MISMATCH.match(refused(raw.update_item, TableName="range1", Key=KEY, UpdateExpression=expression,
                                  ExpressionAttributeValues={":a": {"N": "1"}}))


@pytest.mark.parametrize("target", ["c", "d"])
def test_a_type_only_the_item_shows_is_an_unsupported_type(raw, target):
    raw.update_item(TableName="range1", Key=KEY, UpdateExpression="set e = :a",
                    ExpressionAttributeValues={":a": {"N": "1"}})
    assert refused(raw.update_item, TableName="range1", Key=KEY, UpdateExpression=f"set {target} = e") == UNSUPPORTED
    assert raw.get_item(TableName="range1", Key=KEY)["Item"] == {**KEY, "e": {"N": "1"}}
    # PutItem and AttributeUpdates, whose values are in the request, keep the Type mismatch sentence.
    assert MISMATCH.match(refused(raw.put_item, TableName="range1", Item={**KEY, "c": {"N": "1"}}))
    assert MISMATCH.match(refused(raw.update_item, TableName="range1", Key=KEY,
                                  AttributeUpdates={"d": {"Value": {"N": "1"}}, "c": {"Value": {"N": "2"}}}))
