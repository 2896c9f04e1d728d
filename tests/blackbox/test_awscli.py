"""The AWS CLI (`aws dynamodb ... --endpoint-url`) against dynotable-local, configured only through
its environment: static keys, and AWS_CONFIG_FILE pointing to a temporary file."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

AWS = pathlib.Path(sys.executable).parent / "aws"


@pytest.fixture
def aws(server, tmp_path):
    """Runs `aws dynamodb <args> --endpoint-url <server>`; returns the completed process."""
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

    def run(*args, ok=True):
        result = subprocess.run([str(AWS), "dynamodb", *args, "--endpoint-url", server.endpoint],
                                env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        if ok:
            assert result.returncode == 0, f"aws dynamodb {args[0]} failed:\n{result.stderr}"
        return result

    def json_of(*args):
        return json.loads(run(*args).stdout or "{}")

    run.json = json_of
    return run


def test_cli_creates_writes_reads_and_pages(aws, tmp_path):
    created = aws.json("create-table", "--table-name", "Pets", "--billing-mode", "PAY_PER_REQUEST",
                       "--attribute-definitions", "AttributeName=AnimalType,AttributeType=S",
                       "AttributeName=Name,AttributeType=S",
                       "--key-schema", "AttributeName=AnimalType,KeyType=HASH", "AttributeName=Name,KeyType=RANGE")
    assert created["TableDescription"]["TableName"] == "Pets"
    aws("wait", "table-exists", "--table-name", "Pets")
    status = aws("describe-table", "--table-name", "Pets", "--query", "Table.TableStatus", "--output", "text")
    assert status.stdout.strip() == "ACTIVE"
    assert aws.json("list-tables") == {"TableNames": ["Pets"]}

    aws("put-item", "--table-name", "Pets",
        "--item", '{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}, "Age": {"N": "3"}}')
    batch = {"Pets": [{"PutRequest": {"Item": {"AnimalType": {"S": "Dog"}, "Name": {"S": f"pet-{i:02}"}}}}
                      for i in range(10)]}
    (tmp_path / "batch.json").write_text(json.dumps(batch))
    assert aws.json("batch-write-item", "--request-items", "file://batch.json") == {"UnprocessedItems": {}}

    dogs = aws.json("query", "--table-name", "Pets", "--key-condition-expression", "AnimalType = :a",
                    "--expression-attribute-values", '{":a": {"S": "Dog"}}')
    assert dogs["Count"] == 11
    assert dogs["Items"][0]["Name"] == {"S": "Fido"}  # "F" sorts before "p"

    # The CLI follows LastEvaluatedKey itself: pages of 3 come back as one result...
    everything = aws.json("scan", "--table-name", "Pets", "--page-size", "3")
    assert len(everything["Items"]) == 11 and everything["Count"] == 11
    # ...and --max-items stops early with a token to resume from.
    first = aws.json("scan", "--table-name", "Pets", "--page-size", "3", "--max-items", "4")
    assert len(first["Items"]) == 4 and "NextToken" in first
    rest = aws.json("scan", "--table-name", "Pets", "--page-size", "3", "--starting-token", first["NextToken"])
    names = [i["Name"]["S"] for i in first["Items"] + rest["Items"]]
    assert sorted(names) == sorted(set(names)) and len(names) == 11

    got = aws.json("get-item", "--table-name", "Pets", "--key", '{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}',
                   "--projection-expression", "Age")
    assert got == {"Item": {"Age": {"N": "3"}}}
    updated = aws.json("update-item", "--table-name", "Pets",
                       "--key", '{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}',
                       "--update-expression", "SET Age = Age + :one",
                       "--expression-attribute-values", '{":one": {"N": "1"}}', "--return-values", "UPDATED_NEW")
    assert updated == {"Attributes": {"Age": {"N": "4"}}}
    aws("delete-item", "--table-name", "Pets", "--key", '{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}')
    assert aws.json("get-item", "--table-name", "Pets",
                    "--key", '{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}') == {}
    aws("delete-table", "--table-name", "Pets")
    assert aws.json("list-tables") == {"TableNames": []}


def test_cli_reports_the_services_errors(aws):
    missing = aws("describe-table", "--table-name", "Nope", ok=False)
    assert missing.returncode == 255, missing
    assert ("An error occurred (ResourceNotFoundException) when calling the DescribeTable operation: "
            "Requested resource not found: Table: Nope not found") in missing.stderr

    aws("create-table", "--table-name", "Pets", "--billing-mode", "PAY_PER_REQUEST",
        "--attribute-definitions", "AttributeName=AnimalType,AttributeType=S",
        "--key-schema", "AttributeName=AnimalType,KeyType=HASH")
    again = aws("create-table", "--table-name", "Pets", "--billing-mode", "PAY_PER_REQUEST",
                "--attribute-definitions", "AttributeName=AnimalType,AttributeType=S",
                "--key-schema", "AttributeName=AnimalType,KeyType=HASH", ok=False)
    assert ("An error occurred (ResourceInUseException) when calling the CreateTable operation: "
            "Table already exists: Pets") in again.stderr

    aws("put-item", "--table-name", "Pets", "--item", '{"AnimalType": {"S": "Dog"}}')
    failed = aws("put-item", "--table-name", "Pets", "--item", '{"AnimalType": {"S": "Dog"}}',
                 "--condition-expression", "attribute_not_exists(AnimalType)", ok=False)
    assert failed.returncode == 255
    assert ("An error occurred (ConditionalCheckFailedException) when calling the PutItem operation: "
            "The conditional request failed") in failed.stderr

    invalid = aws("put-item", "--table-name", "Pets", "--item", '{"Name": {"S": "Fido"}}', ok=False)
    assert ("An error occurred (ValidationException) when calling the PutItem operation: "
            "One or more parameter values were invalid: Missing the key AnimalType in the item") in invalid.stderr
    assert failed.stdout == invalid.stdout == ""
