"""boto3's low-level client against dynotable-local: every implemented operation, paginators,
waiters, and the service's errors as botocore raises them. botocore also verifies the
`x-amz-crc32` header of every response, so each passing call checks it too."""

import http.client
import json
import urllib.parse
import zlib

import pytest
from botocore.exceptions import ClientError

from conftest import PETS

TELEMETRY = dict(
    TableName="Telemetry",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "vehicleId", "AttributeType": "S"},
                          {"AttributeName": "recordedAt", "AttributeType": "S"},
                          {"AttributeName": "depotCode", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "vehicleId", "KeyType": "HASH"},
               {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
    GlobalSecondaryIndexes=[{
        "IndexName": "ByDepot",
        "KeySchema": [{"AttributeName": "depotCode", "KeyType": "HASH"},
                      {"AttributeName": "recordedAt", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"},
    }],
)

FIDO_KEY = {"AnimalType": {"S": "Dog"}, "Name": {"S": "Fido"}}
FIDO = {
    **FIDO_KEY,
    "Age": {"N": "3"},
    "Weight": {"N": "12.5"},
    "Photo": {"B": b"\x00\x01\x02\xff"},
    "Vaccinated": {"BOOL": True},
    "Guardian": {"NULL": True},
    "Address": {"M": {"City": {"S": "Oslo"}, "Zip": {"N": "150"}}},
    "Toys": {"L": [{"S": "ball"}, {"N": "2"}, {"BOOL": False}]},
    "Tags": {"SS": ["good", "loud"]},
    "Scores": {"NS": ["1", "2.5"]},
    "Chips": {"BS": [b"a", b"b"]},
}


def normalised(item):
    """Sets compared as sets: their order on the wire is the server's business."""
    def value(v):
        (kind, inner), = v.items()
        if kind in ("SS", "NS", "BS"):
            return {kind: sorted(inner)}
        if kind == "M":
            return {"M": {k: value(x) for k, x in inner.items()}}
        if kind == "L":
            return {"L": [value(x) for x in inner]}
        return v
    return {k: value(v) for k, v in item.items()}


def test_tables_are_created_waited_for_listed_described_and_deleted(client):
    created = client.create_table(**TELEMETRY)["TableDescription"]
    assert created["TableName"] == "Telemetry"
    assert created["TableArn"].endswith(":table/Telemetry")
    assert created["KeySchema"] == TELEMETRY["KeySchema"]

    client.get_waiter("table_exists").wait(TableName="Telemetry", WaiterConfig={"Delay": 1, "MaxAttempts": 5})
    table = client.describe_table(TableName="Telemetry")["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["ItemCount"] == 0
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert [(i["IndexName"], i["IndexStatus"], i["Projection"]["ProjectionType"])
            for i in table["GlobalSecondaryIndexes"]] == [("ByDepot", "ACTIVE", "KEYS_ONLY")]

    for name in ("Alpha", "Beta"):
        client.create_table(**{**PETS, "TableName": name})
    assert client.list_tables()["TableNames"] == ["Alpha", "Beta", "Telemetry"]
    pages = list(client.get_paginator("list_tables").paginate(PaginationConfig={"PageSize": 1}))
    assert [name for page in pages for name in page["TableNames"]] == ["Alpha", "Beta", "Telemetry"]
    assert len(pages) >= 3

    deleted = client.delete_table(TableName="Beta")["TableDescription"]
    assert deleted["TableName"] == "Beta"
    client.get_waiter("table_not_exists").wait(TableName="Beta", WaiterConfig={"Delay": 1, "MaxAttempts": 5})
    assert client.list_tables()["TableNames"] == ["Alpha", "Telemetry"]


def test_items_of_every_type_round_trip(pets):
    assert "Attributes" not in pets.put_item(TableName="Pets", Item=FIDO)
    got = pets.get_item(TableName="Pets", Key=FIDO_KEY, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert normalised(got["Item"]) == normalised(FIDO)
    assert got["ConsumedCapacity"] == {"TableName": "Pets", "CapacityUnits": 1.0}

    replaced = pets.put_item(TableName="Pets", Item=FIDO, ReturnValues="ALL_OLD")
    assert normalised(replaced["Attributes"]) == normalised(FIDO)

    projected = pets.get_item(TableName="Pets", Key=FIDO_KEY, ProjectionExpression="Address.City, Toys[0], #n",
                              ExpressionAttributeNames={"#n": "Name"})
    assert projected["Item"] == {"Address": {"M": {"City": {"S": "Oslo"}}}, "Toys": {"L": [{"S": "ball"}]},
                                 "Name": {"S": "Fido"}}

    missing = pets.get_item(TableName="Pets", Key={"AnimalType": {"S": "Dog"}, "Name": {"S": "Nobody"}})
    assert "Item" not in missing


def test_update_and_delete_return_what_was_asked(pets):
    pets.put_item(TableName="Pets", Item=FIDO)
    updated = pets.update_item(
        TableName="Pets", Key=FIDO_KEY,
        UpdateExpression="SET Age = Age + :one, Address.City = :city REMOVE Guardian ADD Tags :tag",
        ExpressionAttributeValues={":one": {"N": "1"}, ":city": {"S": "Bergen"}, ":tag": {"SS": ["fluffy"]}},
        ReturnValues="ALL_NEW",
    )["Attributes"]
    assert updated["Age"] == {"N": "4"}
    assert updated["Address"] == {"M": {"City": {"S": "Bergen"}, "Zip": {"N": "150"}}}
    assert "Guardian" not in updated
    assert sorted(updated["Tags"]["SS"]) == ["fluffy", "good", "loud"]

    old = pets.update_item(TableName="Pets", Key=FIDO_KEY, UpdateExpression="SET Age = :a",
                           ExpressionAttributeValues={":a": {"N": "9"}}, ReturnValues="UPDATED_OLD")
    assert old["Attributes"] == {"Age": {"N": "4"}}
    whole_old = pets.update_item(TableName="Pets", Key=FIDO_KEY, UpdateExpression="SET Age = :a",
                                 ExpressionAttributeValues={":a": {"N": "9"}}, ReturnValues="ALL_OLD")
    assert whole_old["Attributes"] == {**updated, "Age": {"N": "9"}}

    deleted = pets.delete_item(TableName="Pets", Key=FIDO_KEY, ReturnValues="ALL_OLD")
    assert deleted["Attributes"]["Age"] == {"N": "9"}
    assert "Item" not in pets.get_item(TableName="Pets", Key=FIDO_KEY)


def test_updated_values_of_a_nested_path_are_that_path_alone(pets):
    """DynamoDB returns the updated paths projected, as a ProjectionExpression of them would (the
    Developer Guide's Movies example: `SET info.rating = :r` answers `{"info": {"rating": ...}}`
    without the rest of `info`)."""
    pets.put_item(TableName="Pets", Item={**FIDO_KEY, "Address": {"M": {"City": {"S": "Oslo"}, "Zip": {"N": "150"}}}})
    update = dict(TableName="Pets", Key=FIDO_KEY, UpdateExpression="SET Address.City = :c")
    new = pets.update_item(**update, ExpressionAttributeValues={":c": {"S": "Bergen"}}, ReturnValues="UPDATED_NEW")
    assert new["Attributes"] == {"Address": {"M": {"City": {"S": "Bergen"}}}}
    old = pets.update_item(**update, ExpressionAttributeValues={":c": {"S": "Molde"}}, ReturnValues="UPDATED_OLD")
    assert old["Attributes"] == {"Address": {"M": {"City": {"S": "Bergen"}}}}


def load_telemetry(client):
    client.create_table(**TELEMETRY)
    for vehicle, readings in (("VEH#1", 25), ("VEH#2", 4)):
        client.put_item(TableName="Telemetry", Item={"vehicleId": {"S": vehicle}, "recordedAt": {"S": "META"},
                                                     "depotCode": {"S": "DEP-N"}, "plate": {"S": f"PL-{vehicle}"}})
        for i in range(readings):
            client.put_item(TableName="Telemetry", Item={
                "vehicleId": {"S": vehicle}, "recordedAt": {"S": f"TS#2025-03-14T{i:02}:00:00Z"},
                "depotCode": {"S": "DEP-N" if i % 2 == 0 else "DEP-S"}, "speedKph": {"N": str(40 + i)},
            })


def test_query_pages_through_a_collection_in_order(client):
    load_telemetry(client)
    whole = client.query(TableName="Telemetry", KeyConditionExpression="vehicleId = :v",
                         ExpressionAttributeValues={":v": {"S": "VEH#1"}})
    keys = [i["recordedAt"]["S"] for i in whole["Items"]]
    assert (whole["Count"], whole["ScannedCount"], keys[0]) == (26, 26, "META")
    assert keys == sorted(keys)

    window = client.query(
        TableName="Telemetry",
        KeyConditionExpression="vehicleId = :v AND recordedAt BETWEEN :a AND :b",
        ExpressionAttributeValues={":v": {"S": "VEH#1"}, ":a": {"S": "TS#2025-03-14T10:00:00Z"},
                                   ":b": {"S": "TS#2025-03-14T13:00:00Z"}},
        ScanIndexForward=False, ProjectionExpression="speedKph",
    )
    assert window["Items"] == [{"speedKph": {"N": str(40 + h)}} for h in (13, 12, 11, 10)]

    pages = list(client.get_paginator("query").paginate(
        TableName="Telemetry", KeyConditionExpression="vehicleId = :v AND begins_with(recordedAt, :p)",
        ExpressionAttributeValues={":v": {"S": "VEH#1"}, ":p": {"S": "TS#"}},
        PaginationConfig={"PageSize": 4},
    ))
    assert [p["Count"] for p in pages] == [4, 4, 4, 4, 4, 4, 1]
    assert all("LastEvaluatedKey" in p for p in pages[:-1]) and "LastEvaluatedKey" not in pages[-1]
    assert [i["recordedAt"]["S"] for p in pages for i in p["Items"]] == keys[1:]

    filtered = client.query(TableName="Telemetry", KeyConditionExpression="vehicleId = :v",
                            FilterExpression="speedKph >= :fast",
                            ExpressionAttributeValues={":v": {"S": "VEH#1"}, ":fast": {"N": "60"}})
    assert (filtered["Count"], filtered["ScannedCount"]) == (5, 26)

    depot = client.query(TableName="Telemetry", IndexName="ByDepot", KeyConditionExpression="depotCode = :d",
                         ExpressionAttributeValues={":d": {"S": "DEP-S"}})
    assert depot["Count"] == 14
    # Keys only: the table's and the index's key attributes, nothing else.
    assert all(set(i) == {"vehicleId", "recordedAt", "depotCode"} for i in depot["Items"])


def test_scan_paginates_and_segments(client):
    load_telemetry(client)
    pages = list(client.get_paginator("scan").paginate(TableName="Telemetry", PaginationConfig={"PageSize": 7}))
    items = [(i["vehicleId"]["S"], i["recordedAt"]["S"]) for p in pages for i in p["Items"]]
    assert len(items) == len(set(items)) == 31
    assert len(pages) == 5

    # build_full_result follows the pages too, and MaxItems stops it with a NextToken.
    limited = client.get_paginator("scan").paginate(
        TableName="Telemetry", PaginationConfig={"PageSize": 4, "MaxItems": 10}).build_full_result()
    assert len(limited["Items"]) == 10 and "NextToken" in limited

    segments = [client.scan(TableName="Telemetry", Segment=s, TotalSegments=2)["Items"] for s in (0, 1)]
    keys = [(i["vehicleId"]["S"], i["recordedAt"]["S"]) for segment in segments for i in segment]
    assert sorted(keys) == sorted(items)

    counted = client.scan(TableName="Telemetry", Select="COUNT", FilterExpression="attribute_exists(plate)")
    assert (counted["Count"], counted["ScannedCount"], "Items" in counted) == (2, 31, False)


def test_batches_write_and_read(pets):
    requests = [{"PutRequest": {"Item": {"AnimalType": {"S": "Dog"}, "Name": {"S": f"dog-{i:02}"},
                                         "Age": {"N": str(i)}}}} for i in range(25)]
    written = pets.batch_write_item(RequestItems={"Pets": requests})
    assert written["UnprocessedItems"] == {}

    pets.batch_write_item(RequestItems={"Pets": [
        {"DeleteRequest": {"Key": {"AnimalType": {"S": "Dog"}, "Name": {"S": "dog-00"}}}},
        {"PutRequest": {"Item": {"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}}}},
    ]})

    keys = [{"AnimalType": {"S": "Dog"}, "Name": {"S": f"dog-{i:02}"}} for i in range(25)]
    keys.append({"AnimalType": {"S": "Cat"}, "Name": {"S": "Tom"}})
    got = pets.batch_get_item(RequestItems={"Pets": {"Keys": keys, "ProjectionExpression": "#n",
                                                     "ExpressionAttributeNames": {"#n": "Name"}}},
                              ReturnConsumedCapacity="TOTAL")
    assert got["UnprocessedKeys"] == {}
    names = sorted(i["Name"]["S"] for i in got["Responses"]["Pets"])
    assert names == ["Tom"] + [f"dog-{i:02}" for i in range(1, 25)]
    assert got["ConsumedCapacity"][0]["TableName"] == "Pets"


def test_a_batch_get_past_16_mb_returns_the_rest_as_unprocessed_keys(pets):
    """BatchGetItem answers at most 16 MB (rules B.7); the keys it did not read come back in
    UnprocessedKeys, and asking for those reads them."""
    keys = [{"AnimalType": {"S": "Big"}, "Name": {"S": f"big-{i:02}"}} for i in range(50)]
    for key in keys:
        pets.put_item(TableName="Pets", Item={**key, "payload": {"B": b"x" * (390 * 1024)}})
    first = pets.batch_get_item(RequestItems={"Pets": {"Keys": keys}})
    returned = [i["Name"]["S"] for i in first["Responses"]["Pets"]]
    unprocessed = [k["Name"]["S"] for k in first["UnprocessedKeys"]["Pets"]["Keys"]]
    assert 0 < len(returned) < 50 and sorted(returned + unprocessed) == [k["Name"]["S"] for k in keys]
    # 16 MB of 390 KB items is 42: the 43rd would cross the line and is left for the next call.
    assert len(returned) == 42
    rest = pets.batch_get_item(RequestItems=first["UnprocessedKeys"])
    assert rest["UnprocessedKeys"] == {}
    assert sorted(i["Name"]["S"] for i in rest["Responses"]["Pets"]) == sorted(unprocessed)


def test_failed_condition_carries_the_item(pets):
    pets.put_item(TableName="Pets", Item={**FIDO_KEY, "Age": {"N": "3"}})
    with pytest.raises(pets.exceptions.ConditionalCheckFailedException) as failed:
        pets.put_item(TableName="Pets", Item=FIDO_KEY, ConditionExpression="attribute_not_exists(AnimalType)",
                      ReturnValuesOnConditionCheckFailure="ALL_OLD")
    response = failed.value.response
    assert response["Error"] == {"Code": "ConditionalCheckFailedException",
                                 "Message": "The conditional request failed"}
    assert response["Item"] == {**FIDO_KEY, "Age": {"N": "3"}}
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400

    with pytest.raises(pets.exceptions.ConditionalCheckFailedException) as failed:
        pets.update_item(TableName="Pets", Key=FIDO_KEY, UpdateExpression="SET Age = :a",
                         ConditionExpression="Age = :old",
                         ExpressionAttributeValues={":a": {"N": "5"}, ":old": {"N": "4"}})
    assert "Item" not in failed.value.response

    with pytest.raises(pets.exceptions.ConditionalCheckFailedException) as failed:
        pets.delete_item(TableName="Pets", Key=FIDO_KEY, ConditionExpression="attribute_exists(Guardian)",
                         ReturnValuesOnConditionCheckFailure="ALL_OLD")
    assert failed.value.response["Item"] == {**FIDO_KEY, "Age": {"N": "3"}}
    assert pets.get_item(TableName="Pets", Key=FIDO_KEY)["Item"]["Age"] == {"N": "3"}


def test_missing_and_existing_tables(pets):
    with pytest.raises(pets.exceptions.ResourceNotFoundException) as missing:
        pets.describe_table(TableName="Nope")
    assert missing.value.response["Error"]["Message"] == "Requested resource not found: Table: Nope not found"

    with pytest.raises(pets.exceptions.ResourceNotFoundException) as missing:
        pets.get_item(TableName="Nope", Key={"k": {"S": "v"}})
    assert missing.value.response["Error"]["Message"] == "Requested resource not found"

    with pytest.raises(pets.exceptions.ResourceNotFoundException):
        pets.delete_table(TableName="Nope")

    with pytest.raises(pets.exceptions.ResourceInUseException) as in_use:
        pets.create_table(**PETS)
    assert in_use.value.response["Error"]["Message"] == "Table already exists: Pets"


def nested_maps(levels):
    """A map `levels` deep (the attribute itself is level 1)."""
    value = {"S": "leaf"}
    for _ in range(levels - 1):
        value = {"M": {"n": value}}
    return value


@pytest.mark.parametrize("call, message", [
    (lambda c: c.put_item(TableName="Pets", Item={"AnimalType": {"S": "Dog"}}),
     "One or more parameter values were invalid: Missing the key Name in the item"),
    (lambda c: c.get_item(TableName="Pets", Key={"AnimalType": {"S": "Dog"}}),
     "The provided key element does not match the schema"),
    (lambda c: c.put_item(TableName="Pets", Item={**FIDO_KEY, "n": {"N": "1e999"}}),
     "1 validation error detected: "
     "Number overflow. Attempting to store a number with magnitude larger than supported range"),
    (lambda c: c.query(TableName="Pets", KeyConditionExpression="AnimalType = :a AND Name = :n",
                       ExpressionAttributeValues={":a": {"S": "Dog"}, ":n": {"S": "Fido"}}),
     "Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: Name"),
    (lambda c: c.batch_write_item(RequestItems={"Pets": [{"DeleteRequest": {"Key": FIDO_KEY}}] * 2}),
     "Provided list of item keys contains duplicates"),
    (lambda c: c.put_item(TableName="Pets", Item={**FIDO_KEY, "blob": {"S": "x" * (400 * 1024)}}),
     "Item size has exceeded the maximum allowed size"),
    (lambda c: c.update_item(TableName="Pets", Key=FIDO_KEY, UpdateExpression="SET payload = :b",
                             ExpressionAttributeValues={":b": {"B": b"x" * (400 * 1024)}}),
     "Item size to update has exceeded the maximum allowed size"),
    (lambda c: c.put_item(TableName="Pets", Item={"AnimalType": {"S": "x" * 2049}, "Name": {"S": "Fido"}}),
     "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"),
    (lambda c: c.put_item(TableName="Pets", Item={"AnimalType": {"S": "Dog"}, "Name": {"S": "x" * 1025}}),
     "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit "
     "of 1024 bytes"),
    (lambda c: c.put_item(TableName="Pets", Item={**FIDO_KEY, "deep": nested_maps(33)}),
     "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported "
     "limit"),
    (lambda c: c.query(TableName="Pets", KeyConditionExpression="AnimalType = :a OR AnimalType = :b",
                       ExpressionAttributeValues={":a": {"S": "Dog"}, ":b": {"S": "Cat"}}),
     "Invalid operator used in KeyConditionExpression: OR"),
    (lambda c: c.query(TableName="Pets", KeyConditionExpression="AnimalType = :a", FilterExpression="#n = :n",
                       ExpressionAttributeNames={"#n": "Name"},
                       ExpressionAttributeValues={":a": {"S": "Dog"}, ":n": {"S": "Fido"}}),
     "Filter Expression can only contain non-primary key attributes: Primary key attribute: Name"),
    (lambda c: c.scan(TableName="Pets", Segment=2, TotalSegments=2),
     "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 2 is not less "
     "than TotalSegments: 2"),
    (lambda c: c.scan(TableName="Pets", Segment=0),
     "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"),
])
def test_validation_errors_carry_the_services_message(pets, call, message):
    with pytest.raises(ClientError) as error:
        call(pets)
    assert error.value.response["Error"] == {"Code": "ValidationException", "Message": message}


def test_an_operation_the_engine_lacks_is_unknown(client):
    # ListGlobalTables (global tables version 2017) is not planned for the local engine.
    with pytest.raises(ClientError) as error:
        client.list_global_tables()
    assert error.value.response["Error"]["Code"] == "UnknownOperationException"
    assert client.list_tables()["TableNames"] == []


def test_the_wire_seen_raw(server):
    """What the SDKs rely on: health on GET /, the error body, the CRC32 and the request id, all
    on one kept-alive connection."""
    url = urllib.parse.urlsplit(server.endpoint)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.request("GET", "/")
        health = connection.getresponse()
        assert (health.status, health.read().decode().startswith("healthy")) == (200, True)

        seen_ids = set()
        for target, body, status, error_type in [
            (None, b"{}", 400, "com.amazon.coral.service#UnknownOperationException"),
            ("DynamoDB_20120810.ListTables", b"{", 400, "com.amazon.coral.service#SerializationException"),
            ("DynamoDB_20120810.DescribeTable", b'{"TableName":"Nope"}', 400,
             "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"),
            ("DynamoDB_20120810.ListTables", b"{}", 200, None),
        ]:
            headers = {"Content-Type": "application/x-amz-json-1.0"}
            if target:
                headers["X-Amz-Target"] = target
            connection.request("POST", "/", body=body, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            assert response.status == status
            assert response.getheader("Content-Type") == "application/x-amz-json-1.0"
            assert int(response.getheader("x-amz-crc32")) == zlib.crc32(payload)
            request_id = response.getheader("x-amzn-RequestId")
            assert request_id and request_id not in seen_ids
            seen_ids.add(request_id)
            if error_type:
                assert json.loads(payload)["__type"] == error_type
            else:
                assert json.loads(payload) == {"TableNames": []}
    finally:
        connection.close()
