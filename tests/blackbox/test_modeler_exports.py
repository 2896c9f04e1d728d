"""The data modeler's infrastructure exports, checked by the tools that consume them: each golden
case of `crates/dynotable-modeler/tests/exports/<model>/` (written by `cargo test -p
dynotable-modeler --test exports`, which fails when the output differs from the file) has its
CloudFormation template linted by `cfn-lint` and its Terraform parsed by `python-hcl2`, each
`aws_dynamodb_table` holding the arguments the provider requires and agreeing with the
CreateTable request of the same case. (There is no CloudFormation or Terraform here to deploy
them: these are the offline checks.)
"""

import json
import pathlib
import subprocess
import sys

import hcl2
import pytest

EXPORTS = pathlib.Path(__file__).resolve().parents[2] / "crates" / "dynotable-modeler" / "tests" / "exports"
# cfn-lint's command, installed beside the Python that runs the tests (tests/requirements.txt).
CFN_LINT = str(pathlib.Path(sys.executable).parent / "cfn-lint")
CASES = sorted(p.name for p in EXPORTS.iterdir() if (p / "cloudformation.json").exists())


def test_there_are_cases():
    assert len(CASES) >= 3


@pytest.mark.parametrize("case", CASES)
def test_cfn_lint_accepts_the_cloudformation_template(case):
    template = EXPORTS / case / "cloudformation.json"
    result = subprocess.run([CFN_LINT, str(template)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cfn_lint_refuses_a_broken_template(tmp_path):
    """The check can fail: a table without its key schema is an error to cfn-lint."""
    template = json.loads((EXPORTS / CASES[0] / "cloudformation.json").read_text())
    for resource in template["Resources"].values():
        del resource["Properties"]["KeySchema"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(template))
    result = subprocess.run([CFN_LINT, str(broken)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode != 0
    assert "KeySchema" in result.stdout


def unquoted(value):
    # python-hcl2 8 keeps the quotes of strings and block labels; older versions drop them.
    return value.strip('"') if isinstance(value, str) else value


def tables_of(case):
    with open(EXPORTS / case / "main.tf") as f:
        parsed = hcl2.load(f)
    tables = {}
    for block in parsed["resource"]:
        for kind, resources in block.items():
            if unquoted(kind) == "aws_dynamodb_table":
                for name, body in resources.items():
                    tables[unquoted(name)] = body
    return tables


@pytest.mark.parametrize("case", CASES)
def test_the_terraform_parses_and_has_what_aws_dynamodb_table_requires(case):
    requests = {r["TableName"]: r for r in json.loads((EXPORTS / case / "create-table.json").read_text())}
    tables = tables_of(case)
    assert len(tables) == len(requests)
    for body in tables.values():
        name = unquoted(body["name"])
        request = requests[name]
        # Required by the provider: name, hash_key, an attribute block per key attribute, and
        # billing_mode (PROVISIONED needs read_capacity and write_capacity).
        keys = {k["KeyType"]: k["AttributeName"] for k in request["KeySchema"]}
        assert unquoted(body["hash_key"]) == keys["HASH"]
        assert unquoted(body.get("range_key")) == keys.get("RANGE")
        assert unquoted(body["billing_mode"]) == request["BillingMode"]
        if request["BillingMode"] == "PROVISIONED":
            throughput = request["ProvisionedThroughput"]
            assert (body["read_capacity"], body["write_capacity"]) == (
                throughput["ReadCapacityUnits"], throughput["WriteCapacityUnits"])
        attributes = {unquoted(a["name"]): unquoted(a["type"]) for a in body["attribute"]}
        assert attributes == {d["AttributeName"]: d["AttributeType"] for d in request["AttributeDefinitions"]}
        for block, member in (("global_secondary_index", "GlobalSecondaryIndexes"),
                              ("local_secondary_index", "LocalSecondaryIndexes")):
            asked = {i["IndexName"]: i for i in request.get(member, [])}
            got = {unquoted(i["name"]): i for i in body.get(block, [])}
            assert got.keys() == asked.keys(), block
            for index_name, index in asked.items():
                index_keys = {k["KeyType"]: k["AttributeName"] for k in index["KeySchema"]}
                if block == "global_secondary_index":
                    assert unquoted(got[index_name]["hash_key"]) == index_keys["HASH"]
                assert unquoted(got[index_name].get("range_key")) == index_keys.get("RANGE")
                assert unquoted(got[index_name]["projection_type"]) == index["Projection"]["ProjectionType"]
                assert [unquoted(n) for n in got[index_name].get("non_key_attributes", [])] == \
                    index["Projection"].get("NonKeyAttributes", [])
