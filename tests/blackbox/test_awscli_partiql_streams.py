"""The AWS CLI against dynotable-local for PartiQL (`aws dynamodb execute-statement`) and DynamoDB
Streams (`aws dynamodbstreams list-streams`), configured only through its environment."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

AWS = pathlib.Path(sys.executable).parent / "aws"


@pytest.fixture
def aws(server, tmp_path):
    """Runs `aws <service> <args> --endpoint-url <server>`; returns the parsed JSON output."""
    config = tmp_path / "aws-cli-config"
    config.write_text("[default]\nregion = us-east-1\noutput = json\n")
    env = {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "AKIDBLACKBOX",
        "AWS_SECRET_ACCESS_KEY": "blackbox-secret",
        "AWS_CONFIG_FILE": str(config),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "aws-cli-credentials"),
        "AWS_MAX_ATTEMPTS": "1",
    }

    def run(service, *args):
        result = subprocess.run([str(AWS), service, *args, "--endpoint-url", server.endpoint],
                                env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"aws {service} {args[0]} failed:\n{result.stderr}"
        return json.loads(result.stdout or "{}")

    return run


def test_cli_execute_statement(aws):
    aws("dynamodb", "create-table", "--table-name", "Pets", "--billing-mode", "PAY_PER_REQUEST",
        "--attribute-definitions", "AttributeName=AnimalType,AttributeType=S", "AttributeName=Name,AttributeType=S",
        "--key-schema", "AttributeName=AnimalType,KeyType=HASH", "AttributeName=Name,KeyType=RANGE")
    aws("dynamodb", "execute-statement", "--statement", "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?, 'Age': 3}",
        "--parameters", '[{"S": "Dog"}, {"S": "Fido"}]')
    got = aws("dynamodb", "execute-statement", "--statement", "SELECT Name, Age FROM Pets WHERE AnimalType = ?",
              "--parameters", '[{"S": "Dog"}]')
    assert got["Items"] == [{"Name": {"S": "Fido"}, "Age": {"N": "3"}}]


def test_cli_list_streams(aws):
    created = aws("dynamodb", "create-table", "--table-name", "Sessions", "--billing-mode", "PAY_PER_REQUEST",
                  "--attribute-definitions", "AttributeName=id,AttributeType=S",
                  "--key-schema", "AttributeName=id,KeyType=HASH",
                  "--stream-specification", "StreamEnabled=true,StreamViewType=KEYS_ONLY")
    arn = created["TableDescription"]["LatestStreamArn"]
    listed = aws("dynamodbstreams", "list-streams")
    assert [(s["StreamArn"], s["TableName"]) for s in listed["Streams"]] == [(arn, "Sessions")]
