"""Issue 18, item 4: the tag operations check the ResourceArn after the member list and before
the tags or tag keys, as the service does (docs/dynamodb-rules.md B.15)."""

import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import CLIENT_CONFIG, session

UNCHECKED = CLIENT_CONFIG.merge(botocore.config.Config(parameter_validation=False))


@pytest.fixture
def raw(server):
    return session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)


def error(call, **kwargs):
    with pytest.raises(ClientError) as caught:
        call(**kwargs)
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


def invalid_arn(arn):
    return "ValidationException", f"Invalid TableArn: Invalid ResourceArn provided as input {arn}"


BAD_TAGS = [
    ("no-tags", []),
    ("an-invalid-key", [{"Key": "k!", "Value": "v"}]),
    ("an-aws-prefix", [{"Key": "aws:x", "Value": "v"}]),
    ("a-key-twice", [{"Key": "k", "Value": "1"}, {"Key": "k", "Value": "2"}]),
]


@pytest.mark.parametrize("tags", [c[1] for c in BAD_TAGS], ids=[c[0] for c in BAD_TAGS])
def test_tag_resource_checks_the_arn_before_the_tags(raw, tags):
    for arn in ["a:b:c:d:e:f/g", "arn:aws:dynamodb:us-east-1:000000000000:table/ab",
                "arn:aws:dynamodb:us-east-1:000000000000:table/Pets/index/byOwner"]:
        assert error(raw.tag_resource, ResourceArn=arn, Tags=tags) == invalid_arn(arn)


def test_untag_resource_checks_the_arn_before_the_keys(raw):
    arn = "arn:aws:dynamodb:us-east-1:000000000000:table/ab"
    assert error(raw.untag_resource, ResourceArn=arn, TagKeys=[]) == invalid_arn(arn)
    assert error(raw.untag_resource, ResourceArn=arn, TagKeys=["k!"]) == invalid_arn(arn)


def test_a_table_arn_with_tags_to_check_reaches_the_tag_rules(raw):
    arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Nothing"
    assert error(raw.tag_resource, ResourceArn=arn, Tags=[]) == (
        "ValidationException", "Atleast one Tag needs to be provided as Input.")
    assert error(raw.tag_resource, ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}]) == (
        "ResourceNotFoundException", f"Requested resource not found: ResourcArn: {arn} not found")
