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


def test_cli_updates_a_table_and_reads_batches(aws, tmp_path):
    aws("create-table", "--table-name", "Music",
        "--provisioned-throughput", "ReadCapacityUnits=5,WriteCapacityUnits=5",
        "--attribute-definitions", "AttributeName=Artist,AttributeType=S", "AttributeName=SongTitle,AttributeType=S",
        "--key-schema", "AttributeName=Artist,KeyType=HASH", "AttributeName=SongTitle,KeyType=RANGE")
    songs = [("Acme Band", "Happy Day", "Rock"), ("Acme Band", "Real Fun", "Pop"), ("No One You Know", "Call Me", "Rock")]
    batch = {"Music": [{"PutRequest": {"Item": {"Artist": {"S": a}, "SongTitle": {"S": t}, "Genre": {"S": g}}}}
                       for a, t, g in songs]}
    (tmp_path / "songs.json").write_text(json.dumps(batch))
    aws("batch-write-item", "--request-items", "file://songs.json")

    throughput = aws.json("update-table", "--table-name", "Music",
                          "--provisioned-throughput", "ReadCapacityUnits=10,WriteCapacityUnits=8")
    assert throughput["TableDescription"]["ProvisionedThroughput"]["ReadCapacityUnits"] == 10
    # A GSI added to a table with items is built from them.
    aws("update-table", "--table-name", "Music",
        "--attribute-definitions", "AttributeName=Genre,AttributeType=S",
        "--global-secondary-index-updates",
        json.dumps([{"Create": {"IndexName": "ByGenre", "KeySchema": [{"AttributeName": "Genre", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "KEYS_ONLY"},
                                "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]))
    aws("wait", "table-exists", "--table-name", "Music")
    status = aws("describe-table", "--table-name", "Music", "--query",
                 "Table.GlobalSecondaryIndexes[0].[IndexName,IndexStatus,ItemCount]", "--output", "text")
    assert status.stdout.split() == ["ByGenre", "ACTIVE", "3"]
    rock = aws.json("query", "--table-name", "Music", "--index-name", "ByGenre",
                    "--key-condition-expression", "Genre = :g", "--expression-attribute-values", '{":g": {"S": "Rock"}}')
    assert sorted(i["SongTitle"]["S"] for i in rock["Items"]) == ["Call Me", "Happy Day"]
    on_demand = aws.json("update-table", "--table-name", "Music", "--billing-mode", "PAY_PER_REQUEST")
    assert on_demand["TableDescription"]["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"

    keys = {"Music": {"Keys": [{"Artist": {"S": a}, "SongTitle": {"S": t}} for a, t, _ in songs]
                      + [{"Artist": {"S": "Nobody"}, "SongTitle": {"S": "Silence"}}],
                      "ProjectionExpression": "SongTitle, Genre"}}
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    got = aws.json("batch-get-item", "--request-items", "file://keys.json")
    assert got["UnprocessedKeys"] == {}
    assert sorted((i["SongTitle"]["S"], i["Genre"]["S"]) for i in got["Responses"]["Music"]) == [
        ("Call Me", "Rock"), ("Happy Day", "Rock"), ("Real Fun", "Pop")]

    too_many = {"Music": {"Keys": [{"Artist": {"S": "A"}, "SongTitle": {"S": str(n)}} for n in range(101)]}}
    (tmp_path / "too-many.json").write_text(json.dumps(too_many))
    refused = aws("batch-get-item", "--request-items", "file://too-many.json", ok=False)
    assert refused.returncode != 0 and "(ValidationException)" in refused.stderr
    assert "Member must have length less than or equal to 100" in refused.stderr
