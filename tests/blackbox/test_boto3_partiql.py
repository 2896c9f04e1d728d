"""PartiQL (execute_statement with parameters and paging, batch_execute_statement,
execute_transaction) and tags with boto3's client."""

import pytest
from botocore.exceptions import ClientError

from conftest import PETS


@pytest.fixture
def pets(client):
    client.create_table(**PETS)
    return client


INSERT = "INSERT INTO Pets VALUE {'AnimalType': ?, 'Name': ?, 'Age': ?}"


def test_execute_statement_with_parameters(pets):
    for name, age in [("Fido", "3"), ("Rex", "7"), ("Spot", "1")]:
        assert pets.execute_statement(Statement=INSERT, Parameters=[{"S": "Dog"}, {"S": name}, {"N": age}])[
            "Items"] == []
    with pytest.raises(pets.exceptions.DuplicateItemException):
        pets.execute_statement(Statement=INSERT, Parameters=[{"S": "Dog"}, {"S": "Fido"}, {"N": "9"}])

    dogs = pets.execute_statement(Statement="SELECT Name, Age FROM Pets WHERE AnimalType = ? AND Age > ?",
                                  Parameters=[{"S": "Dog"}, {"N": "2"}])
    assert dogs["Items"] == [{"Name": {"S": "Fido"}, "Age": {"N": "3"}}, {"Name": {"S": "Rex"}, "Age": {"N": "7"}}]

    updated = pets.execute_statement(
        Statement="UPDATE Pets SET Age = Age + ? WHERE AnimalType = 'Dog' AND Name = ? RETURNING ALL NEW *",
        Parameters=[{"N": "1"}, {"S": "Fido"}])
    assert updated["Items"] == [{"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}, "Age": {"N": "4"}}]
    with pytest.raises(pets.exceptions.ConditionalCheckFailedException):
        pets.execute_statement(Statement="UPDATE Pets SET Age = 0 WHERE AnimalType = 'Dog' AND Name = 'Fido' AND Age > 9")

    pets.execute_statement(Statement="DELETE FROM Pets WHERE AnimalType = 'Dog' AND Name = ?", Parameters=[{"S": "Rex"}])
    names = pets.execute_statement(Statement="SELECT Name FROM Pets WHERE AnimalType = 'Dog'")["Items"]
    assert names == [{"Name": {"S": "Fido"}}, {"Name": {"S": "Spot"}}]

    with pytest.raises(ClientError) as raised:
        pets.execute_statement(Statement="UPDATE Pets SET Age = 1 WHERE AnimalType = 'Dog'")
    assert raised.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Where clause does not contain a mandatory equality on all key attributes"}


def test_execute_statement_pages_with_next_token(pets):
    for i in range(7):
        pets.execute_statement(Statement=INSERT, Parameters=[{"S": "Dog" if i % 2 else "Cat"}, {"S": f"pet-{i}"},
                                                             {"N": str(i)}])
    names, token, pages = [], None, 0
    while True:
        page = pets.execute_statement(Statement="SELECT Name FROM Pets WHERE Age >= 1", Limit=2,
                                      **({"NextToken": token} if token else {}))
        pages += 1
        assert len(page["Items"]) <= 2
        names += [i["Name"]["S"] for i in page["Items"]]
        token = page.get("NextToken")
        if not token:
            break
        assert pages < 10
    assert pages >= 4
    assert sorted(names) == [f"pet-{i}" for i in range(1, 7)]

    with pytest.raises(ClientError) as raised:
        pets.execute_statement(Statement="SELECT Name FROM Pets", NextToken="not-a-token")
    assert raised.value.response["Error"] == {"Code": "ValidationException", "Message": "Invalid NextToken"}


def test_batch_execute_statement_and_execute_transaction(pets):
    written = pets.batch_execute_statement(Statements=[
        {"Statement": INSERT, "Parameters": [{"S": "Dog"}, {"S": "Fido"}, {"N": "3"}]},
        {"Statement": "INSERT INTO Pets VALUE {'AnimalType': 'Cat', 'Name': 'Tom', 'Age': 5}"},
    ])
    assert written["Responses"] == [{"TableName": "Pets"}, {"TableName": "Pets"}]
    mixed = pets.batch_execute_statement(Statements=[
        {"Statement": "INSERT INTO Pets VALUE {'AnimalType': 'Dog', 'Name': 'Fido'}"},
        {"Statement": "UPDATE Pets SET Age = 0 WHERE AnimalType = 'Cat' AND Name = 'Tom' AND Age > 10",
         "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
    ])
    assert [r["Error"]["Code"] for r in mixed["Responses"]] == ["DuplicateItem", "ConditionalCheckFailed"]
    assert mixed["Responses"][1]["Error"]["Item"] == {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"},
                                                      "Age": {"N": "5"}}
    read = pets.batch_execute_statement(Statements=[
        {"Statement": "SELECT Age FROM Pets WHERE AnimalType = ? AND Name = ?",
         "Parameters": [{"S": "Dog"}, {"S": "Fido"}]},
        {"Statement": "SELECT * FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Nobody'"},
    ])
    assert read["Responses"] == [{"TableName": "Pets", "Item": {"Age": {"N": "3"}}}, {"TableName": "Pets"}]

    with pytest.raises(pets.exceptions.TransactionCanceledException) as raised:
        pets.execute_transaction(TransactStatements=[
            {"Statement": "UPDATE Pets SET Age = 10 WHERE AnimalType = 'Dog' AND Name = 'Fido'"},
            {"Statement": "INSERT INTO Pets VALUE {'AnimalType': 'Cat', 'Name': 'Tom'}"},
        ])
    assert [r["Code"] for r in raised.value.response["CancellationReasons"]] == ["None", "DuplicateItem"]
    done = pets.execute_transaction(TransactStatements=[
        {"Statement": "UPDATE Pets SET Age = Age + 1 WHERE AnimalType = 'Dog' AND Name = 'Fido'"},
        {"Statement": "DELETE FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Tom'"},
    ])
    assert len(done["Responses"]) == 2
    got = pets.execute_transaction(TransactStatements=[
        {"Statement": "SELECT Age FROM Pets WHERE AnimalType = 'Dog' AND Name = 'Fido'"},
        {"Statement": "SELECT * FROM Pets WHERE AnimalType = 'Cat' AND Name = 'Tom'"},
    ])
    assert got["Responses"] == [{"Item": {"Age": {"N": "4"}}}, {}]


def test_tags(pets):
    arn = pets.describe_table(TableName="Pets")["Table"]["TableArn"]
    assert pets.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    pets.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "data"}, {"Key": "env", "Value": "dev"}])
    pets.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "prod"}])
    assert sorted(map(tuple, (t.values() for t in pets.list_tags_of_resource(ResourceArn=arn)["Tags"]))) == [
        ("env", "prod"), ("team", "data")]
    pets.untag_resource(ResourceArn=arn, TagKeys=["team", "absent"])
    assert pets.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "env", "Value": "prod"}]
    with pytest.raises(pets.exceptions.ResourceNotFoundException):
        pets.list_tags_of_resource(ResourceArn=arn.replace("table/Pets", "table/Nope"))
