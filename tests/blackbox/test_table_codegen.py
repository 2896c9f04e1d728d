"""The create-table screen's code, run against dynotable-local: for each golden case of
`crates/dynotable-builder/tests/codegen/tables/<case>/` (written by `cargo test -p
dynotable-builder --test table_code`), the AWS CLI commands run unchanged (pointed at the server
only through AWS_ENDPOINT_URL), and the CreateTable JSON is sent as it is through boto3; either
way DescribeTable must then say what the JSON asked for — keys, billing, indexes and their
projections, stream — and, where the case enables it, DescribeTimeToLive the TTL attribute.
(The CloudFormation template is a golden file only: there is no CloudFormation here.)
"""

import json
import pathlib
import subprocess

import pytest

from conftest import CLIENT_CONFIG, session
from test_builder_codegen import program_environment

TABLES_DIR = pathlib.Path(__file__).resolve().parents[2] / "crates" / "dynotable-builder" / "tests" / "codegen" / "tables"
CASES = sorted(p.name for p in TABLES_DIR.iterdir() if (p / "create-table.json").exists())


def expected(case):
    request = json.loads((TABLES_DIR / case / "create-table.json").read_text())
    ttl_file = TABLES_DIR / case / "update-time-to-live.json"
    ttl = json.loads(ttl_file.read_text())["TimeToLiveSpecification"]["AttributeName"] if ttl_file.exists() else None
    return request, ttl


def assert_described(client, request, ttl):
    table = client.describe_table(TableName=request["TableName"])["Table"]
    assert table["KeySchema"] == request["KeySchema"]
    assert sorted(table["AttributeDefinitions"], key=lambda d: d["AttributeName"]) == sorted(
        request["AttributeDefinitions"], key=lambda d: d["AttributeName"])
    assert table.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == request["BillingMode"]
    if "ProvisionedThroughput" in request:
        got = table["ProvisionedThroughput"]
        assert (got["ReadCapacityUnits"], got["WriteCapacityUnits"]) == (
            request["ProvisionedThroughput"]["ReadCapacityUnits"], request["ProvisionedThroughput"]["WriteCapacityUnits"])
    for member in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes"):
        asked = {i["IndexName"]: i for i in request.get(member, [])}
        got = {i["IndexName"]: i for i in table.get(member, [])}
        assert got.keys() == asked.keys(), member
        for name, index in asked.items():
            assert got[name]["KeySchema"] == index["KeySchema"]
            assert got[name]["Projection"] == index["Projection"]
    stream = request.get("StreamSpecification")
    if stream is not None:
        assert table["StreamSpecification"] == stream
    if "Tags" in request:
        tags = client.list_tags_of_resource(ResourceArn=table["TableArn"])["Tags"]
        assert tags == request["Tags"]
    described = client.describe_time_to_live(TableName=request["TableName"])["TimeToLiveDescription"]
    if ttl is None:
        assert described["TimeToLiveStatus"] == "DISABLED"
    else:
        assert (described["TimeToLiveStatus"], described["AttributeName"]) == ("ENABLED", ttl)


@pytest.mark.parametrize("case", CASES)
def test_the_aws_cli_commands_create_the_table_asked_for(case, server, tmp_path):
    request, ttl = expected(case)
    result = subprocess.run(["sh", str(TABLES_DIR / case / "aws-cli.sh")], env=program_environment(server.endpoint, tmp_path),
                            cwd=tmp_path, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    client = session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)
    assert_described(client, request, ttl)


@pytest.mark.parametrize("case", CASES)
def test_the_create_table_json_is_the_request_as_sent(case, server):
    request, _ = expected(case)
    client = session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)
    client.create_table(**request)
    assert_described(client, request, None)
