"""boto3 against dynotable-local: tables with local and global secondary indexes, provisioned
capacity, projections, Select, item collections and UpdateTable — what a real client sees.

The rules are those of docs/dynamodb-rules.md (B.1 sizes, B.3 capacity, B.7 limits
and item collections); the messages are the service's (the same the engine goldens pin)."""

import botocore.exceptions
import pytest

from conftest import CLIENT_CONFIG, Server, session

# Readings: deviceId / readingTs, provisioned; an LSI on sensor projecting `unit`, a KEYS_ONLY
# GSI on site with its own throughput.
READINGS = dict(
    TableName="Readings",
    BillingMode="PROVISIONED",
    ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 4},
    AttributeDefinitions=[{"AttributeName": "deviceId", "AttributeType": "S"},
                          {"AttributeName": "readingTs", "AttributeType": "N"},
                          {"AttributeName": "sensor", "AttributeType": "S"},
                          {"AttributeName": "site", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "deviceId", "KeyType": "HASH"},
               {"AttributeName": "readingTs", "KeyType": "RANGE"}],
    LocalSecondaryIndexes=[{
        "IndexName": "BySensor",
        "KeySchema": [{"AttributeName": "deviceId", "KeyType": "HASH"},
                      {"AttributeName": "sensor", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["unit"]},
    }],
    GlobalSecondaryIndexes=[{
        "IndexName": "BySite",
        "KeySchema": [{"AttributeName": "site", "KeyType": "HASH"}],
        "Projection": {"ProjectionType": "KEYS_ONLY"},
        "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 2},
    }],
)


def reading(device, ts, sensor="temp", **extra):
    item = {"deviceId": {"S": device}, "readingTs": {"N": str(ts)}, "sensor": {"S": sensor},
            "site": {"S": "SITE#1"}, "unit": {"S": "C"}, "value": {"N": str(ts * 10)},
            "note": {"S": "calibrated"}}
    item.update(extra)
    return item


def on_demand_readings():
    """READINGS, on demand (no throughput for the table or its GSI)."""
    gsi = {k: v for k, v in READINGS["GlobalSecondaryIndexes"][0].items() if k != "ProvisionedThroughput"}
    table = {k: v for k, v in READINGS.items() if k != "ProvisionedThroughput"}
    return {**table, "BillingMode": "PAY_PER_REQUEST", "GlobalSecondaryIndexes": [gsi]}


@pytest.fixture
def readings(client):
    client.create_table(**READINGS)
    for ts in range(3):
        client.put_item(TableName="Readings", Item=reading("DEV#1", ts, sensor=f"s{2 - ts}"))
    return client


def error_of(call):
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        call()
    return caught.value.response["Error"]["Code"], caught.value.response["Error"]["Message"]


def test_a_provisioned_table_with_both_kinds_of_index_is_described_with_them(readings):
    table = readings.describe_table(TableName="Readings")["Table"]
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 4
    assert table.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == "PROVISIONED"
    [lsi] = table["LocalSecondaryIndexes"]
    assert lsi["IndexName"] == "BySensor"
    assert lsi["Projection"] == {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["unit"]}
    [gsi] = table["GlobalSecondaryIndexes"]
    assert (gsi["IndexName"], gsi["IndexStatus"]) == ("BySite", "ACTIVE")
    assert gsi["Projection"] == {"ProjectionType": "KEYS_ONLY"}
    assert (gsi["ProvisionedThroughput"]["ReadCapacityUnits"],
            gsi["ProvisionedThroughput"]["WriteCapacityUnits"]) == (3, 2)
    # Counts and sizes: three items, each with one entry in each index.
    assert table["ItemCount"] == 3 and table["TableSizeBytes"] > 0
    assert lsi["ItemCount"] == 3 and gsi["ItemCount"] == 3
    # An index entry holds less than the item (rule B.1: keys + projected attributes).
    assert 0 < gsi["IndexSizeBytes"] < lsi["IndexSizeBytes"] < table["TableSizeBytes"]


def test_an_lsi_query_returns_its_projection_or_fetches_the_whole_item(readings):
    # Without Select or a projection an index query returns what the index projects.
    page = readings.query(TableName="Readings", IndexName="BySensor",
                          KeyConditionExpression="deviceId = :d", ExpressionAttributeValues={":d": {"S": "DEV#1"}})
    assert [i["sensor"]["S"] for i in page["Items"]] == ["s0", "s1", "s2"]
    assert set(page["Items"][0]) == {"deviceId", "readingTs", "sensor", "unit"}
    # An LSI may fetch the rest of the item from the table (charged per item, rule B.3).
    whole = readings.query(TableName="Readings", IndexName="BySensor", Select="ALL_ATTRIBUTES",
                           KeyConditionExpression="deviceId = :d", ExpressionAttributeValues={":d": {"S": "DEV#1"}},
                           ReturnConsumedCapacity="TOTAL")
    assert whole["Items"][0] == reading("DEV#1", 2, sensor="s0")
    projected = readings.query(TableName="Readings", IndexName="BySensor", Select="ALL_PROJECTED_ATTRIBUTES",
                               KeyConditionExpression="deviceId = :d",
                               ExpressionAttributeValues={":d": {"S": "DEV#1"}}, ReturnConsumedCapacity="TOTAL")
    assert projected["Items"] == page["Items"]
    assert whole["ConsumedCapacity"]["CapacityUnits"] > projected["ConsumedCapacity"]["CapacityUnits"]
    specific = readings.query(TableName="Readings", IndexName="BySensor", Select="SPECIFIC_ATTRIBUTES",
                              ProjectionExpression="sensor, note", KeyConditionExpression="deviceId = :d",
                              ExpressionAttributeValues={":d": {"S": "DEV#1"}})
    assert specific["Items"][0] == {"sensor": {"S": "s0"}, "note": {"S": "calibrated"}}


def test_a_gsi_query_is_eventually_consistent_and_cannot_fetch_beyond_its_projection(readings):
    page = readings.query(TableName="Readings", IndexName="BySite", KeyConditionExpression="site = :s",
                          ExpressionAttributeValues={":s": {"S": "SITE#1"}})
    assert page["Count"] == 3
    assert set(page["Items"][0]) == {"deviceId", "readingTs", "site"}
    query = dict(TableName="Readings", IndexName="BySite", KeyConditionExpression="site = :s",
                 ExpressionAttributeValues={":s": {"S": "SITE#1"}})
    assert error_of(lambda: readings.query(**query, ConsistentRead=True)) == (
        "ValidationException", "Consistent reads are not supported on global secondary indexes")
    assert error_of(lambda: readings.query(**query, Select="ALL_ATTRIBUTES")) == (
        "ValidationException",
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
        "secondary index BySite because its projection type is not ALL")


# A Query words these inside the one-error envelope (moto's test_dynamodb_select.py, against the service).
@pytest.mark.parametrize("select, projection, message", [
    ("COUNT", "sensor",
     "1 validation error detected: Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ("SPECIFIC_ATTRIBUTES", None,
     "1 validation error detected: "
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ("ALL_ATTRIBUTES", "sensor",
     "1 validation error detected: Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
    ("ALL_PROJECTED_ATTRIBUTES", None,
     "1 validation error detected: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
])
def test_select_is_checked_against_the_projection_and_the_target(readings, select, projection, message):
    request = dict(TableName="Readings", KeyConditionExpression="deviceId = :d",
                   ExpressionAttributeValues={":d": {"S": "DEV#1"}}, Select=select)
    if projection:
        request["ProjectionExpression"] = projection
    assert error_of(lambda: readings.query(**request)) == ("ValidationException", message)
    counted = readings.query(TableName="Readings", KeyConditionExpression="deviceId = :d",
                             ExpressionAttributeValues={":d": {"S": "DEV#1"}}, Select="COUNT")
    assert (counted["Count"], "Items" in counted) == (3, False)


def test_a_starting_key_of_another_collection_or_shape_is_refused(readings):
    request = dict(TableName="Readings", KeyConditionExpression="deviceId = :d",
                   ExpressionAttributeValues={":d": {"S": "DEV#1"}})
    other = {"deviceId": {"S": "DEV#2"}, "readingTs": {"N": "1"}}
    assert error_of(lambda: readings.query(**request, ExclusiveStartKey=other)) == (
        "ValidationException",
        "The provided starting key is outside query boundaries based on provided conditions")
    code, message = error_of(lambda: readings.scan(TableName="Readings",
                                                   ExclusiveStartKey={"deviceId": {"S": "DEV#1"}}))
    assert code == "ValidationException" and message.startswith("The provided starting key is invalid")


def test_an_index_key_of_the_wrong_type_or_empty_is_refused_and_a_missing_one_is_sparse(readings):
    assert error_of(lambda: readings.put_item(TableName="Readings", Item=reading("DEV#1", 7, site={"N": "1"}))) == (
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key site Expected: S Actual: N "
        "IndexName: BySite")
    assert error_of(lambda: readings.put_item(TableName="Readings", Item=reading("DEV#1", 7, sensor=""))) == (
        "ValidationException",
        "One or more parameter values are not valid. A value specified for a secondary index key is not "
        "supported. The AttributeValue for a key attribute cannot contain an empty string value. "
        "IndexName: BySensor, IndexKey: sensor")
    # Without `site` the item has no BySite entry (a sparse index), and is still in BySensor.
    sparse = {k: v for k, v in reading("DEV#1", 7).items() if k != "site"}
    readings.put_item(TableName="Readings", Item=sparse)
    by_site = readings.query(TableName="Readings", IndexName="BySite", KeyConditionExpression="site = :s",
                             ExpressionAttributeValues={":s": {"S": "SITE#1"}})
    assert sorted(int(i["readingTs"]["N"]) for i in by_site["Items"]) == [0, 1, 2]
    by_sensor = readings.query(TableName="Readings", IndexName="BySensor", Select="COUNT",
                               KeyConditionExpression="deviceId = :d", ExpressionAttributeValues={":d": {"S": "DEV#1"}})
    assert by_sensor["Count"] == 4


def test_capacity_by_index_and_item_collection_metrics_come_back_on_writes(readings):
    put = readings.put_item(TableName="Readings", Item=reading("DEV#1", 9), ReturnConsumedCapacity="INDEXES",
                            ReturnItemCollectionMetrics="SIZE")
    consumed = put["ConsumedCapacity"]
    # A new item: 1 unit for the table, 1 for each index it gets an entry in (rule B.3).
    assert consumed["Table"]["CapacityUnits"] == 1.0
    assert consumed["LocalSecondaryIndexes"]["BySensor"]["CapacityUnits"] == 1.0
    assert consumed["GlobalSecondaryIndexes"]["BySite"]["CapacityUnits"] == 1.0
    assert consumed["CapacityUnits"] == 3.0
    metrics = put["ItemCollectionMetrics"]
    assert metrics["ItemCollectionKey"] == {"deviceId": {"S": "DEV#1"}}
    assert metrics["SizeEstimateRangeGB"] == [0.0, 1.0]
    updated = readings.update_item(TableName="Readings", Key={"deviceId": {"S": "DEV#1"}, "readingTs": {"N": "9"}},
                                   UpdateExpression="SET sensor = :s", ExpressionAttributeValues={":s": {"S": "s9"}},
                                   ReturnItemCollectionMetrics="SIZE", ReturnConsumedCapacity="INDEXES")
    assert updated["ItemCollectionMetrics"]["ItemCollectionKey"] == {"deviceId": {"S": "DEV#1"}}
    # The LSI key moved: the old entry is deleted and a new one written (2 index writes).
    assert updated["ConsumedCapacity"]["LocalSecondaryIndexes"]["BySensor"]["CapacityUnits"] == 2.0
    deleted = readings.delete_item(TableName="Readings", Key={"deviceId": {"S": "DEV#1"}, "readingTs": {"N": "9"}},
                                   ReturnItemCollectionMetrics="SIZE")
    assert deleted["ItemCollectionMetrics"]["ItemCollectionKey"] == {"deviceId": {"S": "DEV#1"}}
    # Without an LSI there are no item collection metrics.
    readings.create_table(TableName="Plain", BillingMode="PAY_PER_REQUEST",
                          AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                          KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}])
    plain = readings.put_item(TableName="Plain", Item={"id": {"S": "a"}}, ReturnItemCollectionMetrics="SIZE")
    assert "ItemCollectionMetrics" not in plain


def test_with_an_lsi_the_400_kb_counts_the_items_index_entries_too(client):
    """Rule B.7: on a table with LSIs the item plus its LSI entries must fit in 400 KB."""
    def table(name, projection):
        client.create_table(**{**READINGS, "TableName": name, "GlobalSecondaryIndexes": [{
            **READINGS["GlobalSecondaryIndexes"][0], "Projection": {"ProjectionType": "KEYS_ONLY"}}],
            "LocalSecondaryIndexes": [{**READINGS["LocalSecondaryIndexes"][0], "Projection": projection}]})
    table("Copies", {"ProjectionType": "ALL"})
    table("KeysOnly", {"ProjectionType": "KEYS_ONLY"})
    big = reading("DEV#1", 1, blob={"S": "x" * 250_000})
    # 250 KB fits as an item and with a keys-only entry, not with a full copy beside it.
    client.put_item(TableName="KeysOnly", Item=big)
    assert error_of(lambda: client.put_item(TableName="Copies", Item=big)) == (
        "ValidationException", "Item size has exceeded the maximum allowed size")
    # An update that grows the item past it is refused with the update's wording.
    client.put_item(TableName="Copies", Item=reading("DEV#1", 1, blob={"S": "x" * 150_000}))
    assert error_of(lambda: client.update_item(
        TableName="Copies", Key={"deviceId": {"S": "DEV#1"}, "readingTs": {"N": "1"}},
        UpdateExpression="SET more = :m", ExpressionAttributeValues={":m": {"S": "y" * 100_000}})) == (
        "ValidationException", "Item size to update has exceeded the maximum allowed size")
    # An item without the LSI's key has no entry there, and only its own size counts.
    sparse = {k: v for k, v in big.items() if k != "sensor"}
    client.put_item(TableName="Copies", Item=sparse)


def test_update_table_changes_billing_and_throughput_and_builds_and_drops_an_index(readings):
    readings.update_table(TableName="Readings", ProvisionedThroughput={"ReadCapacityUnits": 7, "WriteCapacityUnits": 6})
    table = readings.describe_table(TableName="Readings")["Table"]
    assert (table["ProvisionedThroughput"]["ReadCapacityUnits"],
            table["ProvisionedThroughput"]["WriteCapacityUnits"]) == (7, 6)
    readings.update_table(TableName="Readings", BillingMode="PAY_PER_REQUEST")
    table = readings.describe_table(TableName="Readings")["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    # A new GSI is built from the items already there (backfill) before it is ACTIVE.
    readings.update_table(
        TableName="Readings",
        AttributeDefinitions=[{"AttributeName": "unit", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "ByUnit", "KeySchema": [{"AttributeName": "unit", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}])
    readings.get_waiter("table_exists").wait(TableName="Readings")
    indexes = {i["IndexName"]: i for i in readings.describe_table(TableName="Readings")["Table"]["GlobalSecondaryIndexes"]}
    assert indexes["ByUnit"]["IndexStatus"] == "ACTIVE" and indexes["ByUnit"]["ItemCount"] == 3
    by_unit = readings.query(TableName="Readings", IndexName="ByUnit", KeyConditionExpression="#u = :u",
                             ExpressionAttributeNames={"#u": "unit"}, ExpressionAttributeValues={":u": {"S": "C"}})
    assert sorted(int(i["readingTs"]["N"]) for i in by_unit["Items"]) == [0, 1, 2]
    assert by_unit["Items"][0]["note"] == {"S": "calibrated"}
    # Later writes reach it too.
    readings.put_item(TableName="Readings", Item=reading("DEV#2", 5))
    assert readings.query(TableName="Readings", IndexName="ByUnit", KeyConditionExpression="#u = :u",
                          ExpressionAttributeNames={"#u": "unit"}, Select="COUNT",
                          ExpressionAttributeValues={":u": {"S": "C"}})["Count"] == 4
    readings.update_table(TableName="Readings", GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "BySite"}}])
    remaining = readings.describe_table(TableName="Readings")["Table"]["GlobalSecondaryIndexes"]
    assert [i["IndexName"] for i in remaining] == ["ByUnit"]
    assert error_of(lambda: readings.query(TableName="Readings", IndexName="BySite", KeyConditionExpression="site = :s",
                                           ExpressionAttributeValues={":s": {"S": "SITE#1"}})) == (
        "ValidationException", "The table does not have the specified index: BySite")
    assert error_of(lambda: readings.update_table(TableName="Readings")) == (
        "ValidationException", "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required")


def test_update_table_moves_an_on_demand_table_with_an_index_to_provisioned_and_back(client):
    client.create_table(**on_demand_readings())
    # To provisioned: the table's throughput and each GSI's own, in one call.
    client.update_table(TableName="Readings", BillingMode="PROVISIONED",
                        ProvisionedThroughput={"ReadCapacityUnits": 4, "WriteCapacityUnits": 3},
                        GlobalSecondaryIndexUpdates=[{"Update": {
                            "IndexName": "BySite",
                            "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 1}}}])
    table = client.describe_table(TableName="Readings")["Table"]
    assert table.get("BillingModeSummary", {}).get("BillingMode", "PROVISIONED") == "PROVISIONED"
    assert (table["ProvisionedThroughput"]["ReadCapacityUnits"], table["ProvisionedThroughput"]["WriteCapacityUnits"]) == (4, 3)
    [gsi] = table["GlobalSecondaryIndexes"]
    assert (gsi["ProvisionedThroughput"]["ReadCapacityUnits"], gsi["ProvisionedThroughput"]["WriteCapacityUnits"]) == (2, 1)
    # A GSI's throughput alone.
    client.update_table(TableName="Readings", GlobalSecondaryIndexUpdates=[{"Update": {
        "IndexName": "BySite", "ProvisionedThroughput": {"ReadCapacityUnits": 6, "WriteCapacityUnits": 5}}}])
    [gsi] = client.describe_table(TableName="Readings")["Table"]["GlobalSecondaryIndexes"]
    assert (gsi["ProvisionedThroughput"]["ReadCapacityUnits"], gsi["ProvisionedThroughput"]["WriteCapacityUnits"]) == (6, 5)
    # Two index creations or deletions in one call are over the service's limit.
    code, message = error_of(lambda: client.update_table(
        TableName="Readings", AttributeDefinitions=[{"AttributeName": "unit", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[
            {"Delete": {"IndexName": "BySite"}},
            {"Create": {"IndexName": "ByUnit", "KeySchema": [{"AttributeName": "unit", "KeyType": "HASH"}],
                        "Projection": {"ProjectionType": "KEYS_ONLY"},
                        "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]))
    assert (code, message) == ("LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be "
                               "created or deleted simultaneously per table")
    client.update_table(TableName="Readings", BillingMode="PAY_PER_REQUEST")
    table = client.describe_table(TableName="Readings")["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_index_count_limits_at_creation(client):
    def gsi(n):
        return {"IndexName": f"Global{n:02}", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}

    def lsi(n):
        return {"IndexName": f"Local{n}", "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"},
                                                     {"AttributeName": "l", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}
    base = dict(TableName="Many", BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("id", "sk", "g", "l")],
                KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}])
    code, message = error_of(lambda: client.create_table(**base, GlobalSecondaryIndexes=[gsi(n) for n in range(21)]))
    assert code == "ValidationException"
    assert message.endswith("GlobalSecondaryIndex count exceeds the per-table limit of 20")
    code, message = error_of(lambda: client.create_table(**base, LocalSecondaryIndexes=[lsi(n) for n in range(6)]))
    assert code == "ValidationException"
    assert message.endswith("Number of LocalSecondaryIndexes exceeds per-table limit of 5")
    # INCLUDE projections name at most 100 attributes across all of a table's indexes (rules B.7),
    # and at most 20 in one index (rule B.21.3): six indexes of 17.
    def include(n, names):
        return {**gsi(n), "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": names}}
    code, message = error_of(lambda: client.create_table(**base, GlobalSecondaryIndexes=[
        include(n, [f"a{n}_{i}" for i in range(17)]) for n in range(6)]))
    assert code == "ValidationException"
    assert message.endswith("Number of projected attributes in all indexes exceeds limit of 100")
    # At the limits the table is created.
    client.create_table(**base, GlobalSecondaryIndexes=[gsi(n) for n in range(20)],
                        LocalSecondaryIndexes=[lsi(n) for n in range(5)])
    table = client.describe_table(TableName="Many")["Table"]
    assert (len(table["GlobalSecondaryIndexes"]), len(table["LocalSecondaryIndexes"])) == (20, 5)


def test_a_lowered_collection_size_limit_is_reached_through_the_wire(tmp_path):
    """`dynotable-local --collection-size-limit` lowers the 10 GB of rule B.7 so it can be reached."""
    server = Server(["--in-memory", "--collection-size-limit", "6144"], tmp_path / "limited.stderr")
    try:
        client = session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)
        client.create_table(**READINGS)
        # ~2.5 KB per item with its BySensor entry (keys and `unit`, ~40 bytes): two fit in 6 KB.
        payload = {"S": "x" * 2400}
        written = 0
        with pytest.raises(botocore.exceptions.ClientError) as caught:
            for ts in range(10):
                client.put_item(TableName="Readings", Item=reading("DEV#hot", ts, payload=payload))
                written += 1
        error = caught.value.response["Error"]
        assert (error["Code"], error["Message"]) == ("ItemCollectionSizeLimitExceededException",
                                                      "Collection size exceeded")
        assert written == 2
        count = client.query(TableName="Readings", KeyConditionExpression="deviceId = :d", Select="COUNT",
                             ExpressionAttributeValues={":d": {"S": "DEV#hot"}}, ConsistentRead=True)["Count"]
        assert count == written
        # Another partition key is not affected.
        client.put_item(TableName="Readings", Item=reading("DEV#cold", 0, payload=payload))
    finally:
        server.stop()
