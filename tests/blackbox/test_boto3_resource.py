"""boto3's resource API against dynotable-local: Python values in and out (Decimal, sets,
Binary, None, nested dicts and lists), condition builders, the batch writer, and errors."""

from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from boto3.dynamodb.types import Binary

from conftest import PETS


@pytest.fixture
def table(resource):
    table = resource.create_table(**PETS)
    table.wait_until_exists()
    return table


def test_python_values_round_trip(table):
    fido = {
        "AnimalType": "Dog", "Name": "Fido",
        "Age": Decimal("3"), "Weight": Decimal("12.5"), "Big": Decimal("12345678901234567890123456789012345678"),
        "Photo": Binary(b"\x00\xff"), "Vaccinated": True, "Guardian": None,
        "Address": {"City": "Oslo", "Zip": Decimal(150)},
        "Toys": ["ball", Decimal(2), False],
        "Tags": {"good", "loud"}, "Scores": {Decimal(1), Decimal("2.5")},
    }
    table.put_item(Item=fido)
    got = table.get_item(Key={"AnimalType": "Dog", "Name": "Fido"}, ConsistentRead=True)["Item"]
    assert got == fido
    table.reload()  # DescribeTable again
    assert table.item_count == 1
    assert table.table_status == "ACTIVE"


def test_conditions_queries_and_scans(table):
    with table.batch_writer() as batch:
        # More than one batch's worth: the writer splits into BatchWriteItem calls of 25.
        for i in range(60):
            batch.put_item(Item={"AnimalType": "Dog" if i % 3 else "Cat", "Name": f"pet-{i:02}", "Age": i})
    dogs = table.query(KeyConditionExpression=Key("AnimalType").eq("Dog") & Key("Name").begins_with("pet-1"))
    assert [d["Name"] for d in dogs["Items"]] == [f"pet-{i}" for i in range(10, 20) if i % 3]

    old_cats = table.query(KeyConditionExpression=Key("AnimalType").eq("Cat"),
                           FilterExpression=Attr("Age").gte(30), ScanIndexForward=False)
    assert [c["Age"] for c in old_cats["Items"]] == [57, 54, 51, 48, 45, 42, 39, 36, 33, 30]
    assert old_cats["ScannedCount"] == 20

    between = table.scan(FilterExpression=Attr("Age").between(10, 12) | Attr("Name").eq("pet-59"))
    assert sorted(i["Name"] for i in between["Items"]) == ["pet-10", "pet-11", "pet-12", "pet-59"]

    # Paging by hand, as applications do with the resource API.
    seen, start = [], None
    while True:
        kwargs = {"Limit": 13, **({"ExclusiveStartKey": start} if start else {})}
        page = table.scan(**kwargs)
        seen += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert len(seen) == len({(i["AnimalType"], i["Name"]) for i in seen}) == 60


def test_updates_deletes_and_conditional_failures(table):
    table.put_item(Item={"AnimalType": "Dog", "Name": "Rex", "Visits": 0})
    updated = table.update_item(Key={"AnimalType": "Dog", "Name": "Rex"},
                                UpdateExpression="ADD Visits :one SET Tricks = list_append(if_not_exists(Tricks, :none), :t)",
                                ExpressionAttributeValues={":one": 1, ":none": [], ":t": ["sit"]},
                                ReturnValues="ALL_NEW")["Attributes"]
    assert updated == {"AnimalType": "Dog", "Name": "Rex", "Visits": 1, "Tricks": ["sit"]}

    errors = table.meta.client.exceptions
    with pytest.raises(errors.ConditionalCheckFailedException) as failed:
        table.put_item(Item={"AnimalType": "Dog", "Name": "Rex"}, ConditionExpression=Attr("Name").not_exists(),
                       ReturnValuesOnConditionCheckFailure="ALL_OLD")
    # The error's Item is the raw wire form: boto3 deserialises outputs, not errors.
    assert failed.value.response["Item"]["Visits"] == {"N": "1"}

    with pytest.raises(errors.ConditionalCheckFailedException):
        table.delete_item(Key={"AnimalType": "Dog", "Name": "Rex"}, ConditionExpression=Attr("Visits").gt(5))
    gone = table.delete_item(Key={"AnimalType": "Dog", "Name": "Rex"}, ReturnValues="ALL_OLD")
    assert gone["Attributes"]["Visits"] == 1
    assert "Item" not in table.get_item(Key={"AnimalType": "Dog", "Name": "Rex"})

    table.delete()
    table.wait_until_not_exists()
    with pytest.raises(errors.ResourceNotFoundException):
        table.load()
