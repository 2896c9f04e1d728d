"""Issue 18, item 4: a request's boolean member, read as the service reads it (docs/compatibility.md,
"Values"): JSON booleans, and the strings true, false, yes, no, 1 and 0 in any case; any other
string or a number is a SerializationException."""

import pytest
from botocore.exceptions import ClientError

from conftest import PETS, session, UNCHECKED


@pytest.fixture
def raw(server):
    client = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    client.create_table(**PETS)
    return client


def test_the_time_to_live_switch_takes_yes(raw):
    raw.update_time_to_live(TableName="Pets", TimeToLiveSpecification={"AttributeName": "expires", "Enabled": "yes"})
    described = raw.describe_time_to_live(TableName="Pets")["TimeToLiveDescription"]
    assert described == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}


@pytest.mark.parametrize("value", ["true", "TRUE", "Yes", "1", "false", "no", "0"])
def test_reads_take_the_words_the_service_converts(raw, value):
    assert raw.scan(TableName="Pets", ConsistentRead=value)["Count"] == 0
    assert raw.query(TableName="Pets", KeyConditionExpression="AnimalType = :t",
                     ExpressionAttributeValues={":t": {"S": "Dog"}}, ScanIndexForward=value)["Count"] == 0


@pytest.mark.parametrize("value", ["dog", "", 1])
def test_other_values_are_a_serialization_error(raw, value):
    with pytest.raises(ClientError) as caught:
        raw.scan(TableName="Pets", ConsistentRead=value)
    assert caught.value.response["Error"]["Code"] == "SerializationException"
    if isinstance(value, str):
        assert caught.value.response["Error"]["Message"].startswith("Unexpected token received from parser")
