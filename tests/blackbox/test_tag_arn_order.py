"""Issue 18, item 4: the tag operations check the ResourceArn after the member list and before
the tags or tag keys, as the service does (docs/dynamodb-rules.md B.15)."""

import pytest

from conftest import error


def invalid_arn(arn):
    return "ValidationException", f"Invalid TableArn: Invalid ResourceArn provided as input {arn}"


def invalid(sentence):
    return "ValidationException", f"One or more parameter values were invalid: {sentence}"


TABLE_ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/Pets"
# Rule B.15: the service's answers of 2026 to ARNs that do not name one of this region's tables.
BAD_ARNS = [
    ("not-an-arn", "a:b:c:d:e:f/g", invalid("ARNs must start with 'arn:': a:b:c:d:e:f/g")),
    ("another-service", "arn:aws:s3:::bucket/x",
     invalid("Provided Arn is not a DynamoDB resource arn: arn:aws:s3:::bucket/x")),
    ("an-index", TABLE_ARN + "/index/byOwner",
     invalid("Invalid resource arn provided, only table or stream is accepted. Provided resource arn: "
             + TABLE_ARN + "/index/byOwner")),
    ("a-short-table-name", "arn:aws:dynamodb:us-east-1:000000000000:table/ab",
     invalid_arn("arn:aws:dynamodb:us-east-1:000000000000:table/ab")),
    ("another-region", "arn:aws:dynamodb:eu-west-1:000000000000:table/Pets",
     invalid_arn("arn:aws:dynamodb:eu-west-1:000000000000:table/Pets")),
]

BAD_TAGS = [
    ("no-tags", []),
    ("an-invalid-key", [{"Key": "k!", "Value": "v"}]),
    ("an-aws-prefix", [{"Key": "aws:x", "Value": "v"}]),
    ("a-key-twice", [{"Key": "k", "Value": "1"}, {"Key": "k", "Value": "2"}]),
]


@pytest.mark.parametrize("arn, answer", [c[1:] for c in BAD_ARNS], ids=[c[0] for c in BAD_ARNS])
def test_an_arn_that_names_no_table_here_gets_the_services_answer(raw, arn, answer):
    assert error(raw.list_tags_of_resource, ResourceArn=arn) == answer
    assert error(raw.tag_resource, ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}]) == answer
    assert error(raw.untag_resource, ResourceArn=arn, TagKeys=["k"]) == answer


@pytest.mark.parametrize("tags", [c[1] for c in BAD_TAGS], ids=[c[0] for c in BAD_TAGS])
def test_tag_resource_checks_the_arn_before_the_tags(raw, tags):
    for _, arn, answer in BAD_ARNS:
        assert error(raw.tag_resource, ResourceArn=arn, Tags=tags) == answer


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
