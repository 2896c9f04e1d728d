"""Issue 18, group 4: requests DynamoDB refuses (docs/dynamodb-rules.md B.4, B.15): Select with
or without a projection, ExclusiveStartKey outside the key schema, the key condition or the scan
segment, Limit, Segment and TotalSegments, and empty members."""

import pytest
from botocore.exceptions import ClientError

from conftest import session, UNCHECKED


READINGS = dict(
    TableName="Readings", BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "device", "AttributeType": "S"},
                          {"AttributeName": "at", "AttributeType": "S"},
                          {"AttributeName": "zone", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "device", "KeyType": "HASH"}, {"AttributeName": "at", "KeyType": "RANGE"}],
    GlobalSecondaryIndexes=[{"IndexName": "byZone", "KeySchema": [{"AttributeName": "zone", "KeyType": "HASH"}],
                             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
)
DEVICE = {":d": {"S": "d-1"}}
KEY = {"device": {"S": "d-1"}, "at": {"S": "t-05"}}


@pytest.fixture
def readings(server):
    raw = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    raw.create_table(**READINGS)
    for at in ("t-01", "t-05", "t-09"):
        raw.put_item(TableName="Readings", Item={"device": {"S": "d-1"}, "at": {"S": at}, "zone": {"S": "z"}})
    return raw


def refused(call, **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    return caught.value.response["Error"]["Message"]


def query(**params):
    return dict(TableName="Readings", KeyConditionExpression="device = :d", ExpressionAttributeValues=DEVICE,
                **params)


# Query words the checks of Select against the projection parameters and the IndexName inside the
# one-error envelope, Scan bare; the check against a GSI's projection is bare for both (moto's
# test_dynamodb_select.py, run against the service).
ONE = "1 validation error detected: "
SELECT_CASES = [
    ("specific-without-projection", "query", query(Select="SPECIFIC_ATTRIBUTES"),
     ONE + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ("all-projected-on-the-table", "query", query(Select="ALL_PROJECTED_ATTRIBUTES"),
     ONE + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
    ("count-with-projection", "query", query(Select="COUNT", ProjectionExpression="device"),
     ONE + "Cannot specify the ProjectionExpression when choosing to get only the Count"),
    ("all-attributes-with-projection", "query", query(Select="ALL_ATTRIBUTES", ProjectionExpression="device"),
     ONE + "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
    ("count-with-attributes-to-get", "query",
     dict(TableName="Readings", KeyConditions={"device": {"ComparisonOperator": "EQ",
                                                           "AttributeValueList": [{"S": "d-1"}]}},
          Select="COUNT", AttributesToGet=["zone"]),
     ONE + "Cannot specify the AttributesToGet when choosing to get only the Count"),
    ("all-attributes-on-a-keys-only-gsi", "query",
     dict(TableName="Readings", IndexName="byZone", KeyConditionExpression="#z = :z",
          ExpressionAttributeNames={"#z": "zone"}, ExpressionAttributeValues={":z": {"S": "z"}},
          Select="ALL_ATTRIBUTES"),
     "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global "
     "secondary index byZone because its projection type is not ALL"),
    ("scan-specific-without-projection", "scan", dict(TableName="Readings", Select="SPECIFIC_ATTRIBUTES"),
     "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"),
    ("scan-all-attributes-with-projection", "scan",
     dict(TableName="Readings", Select="ALL_ATTRIBUTES", ProjectionExpression="device"),
     "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES"),
    ("scan-all-projected-on-the-table", "scan", dict(TableName="Readings", Select="ALL_PROJECTED_ATTRIBUTES"),
     "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in SELECT_CASES], ids=[c[0] for c in SELECT_CASES])
def test_select_and_the_projection_parameters(readings, call, params, message):
    assert refused(getattr(readings, call), **params) == message


START_INVALID = "The provided starting key is invalid: "
# Rule B.15: a Query's (and an index Scan's) start key of another shape gets the bare sentence.
START_BARE = "The provided starting key is invalid"
OUTSIDE = "The provided starting key is outside query boundaries based on provided conditions"
RANGE_PREDICATE = "The provided starting key does not match the range key predicate"
ONE_ROW = "The query can return at most one row and cannot be restarted"

START_CASES = [
    ("partition-key-only", query(ExclusiveStartKey={"device": {"S": "d-1"}}),
     START_BARE),
    ("an-extra-attribute", query(ExclusiveStartKey={**KEY, "zone": {"S": "z"}}),
     START_BARE),
    ("an-empty-value", query(ExclusiveStartKey={"device": {"S": "d-1"}, "at": {}}),
     START_INVALID + "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"),
    ("below-the-key-condition",
     dict(TableName="Readings", KeyConditionExpression="device = :d AND #at > :t",
          ExpressionAttributeNames={"#at": "at"}, ExpressionAttributeValues={**DEVICE, ":t": {"S": "t-05"}},
          ExclusiveStartKey={"device": {"S": "d-1"}, "at": {"S": "t-01"}}), RANGE_PREDICATE),
    ("on-an-excluded-bound",
     dict(TableName="Readings", KeyConditionExpression="device = :d AND #at > :t",
          ExpressionAttributeNames={"#at": "at"}, ExpressionAttributeValues={**DEVICE, ":t": {"S": "t-05"}},
          ExclusiveStartKey=KEY), RANGE_PREDICATE),
    ("outside-a-prefix",
     dict(TableName="Readings", KeyConditionExpression="device = :d AND begins_with(#at, :p)",
          ExpressionAttributeNames={"#at": "at"}, ExpressionAttributeValues={**DEVICE, ":p": {"S": "t-0"}},
          ExclusiveStartKey={"device": {"S": "d-1"}, "at": {"S": "u-00"}}), RANGE_PREDICATE),
    # Rule B.15: another partition is outside the boundaries when the condition has no sort
    # key; with one, the sort key is checked first.
    ("another-partition", query(ExclusiveStartKey={"device": {"S": "d-2"}, "at": {"S": "t-05"}}), OUTSIDE),
    ("another-partition-inside-the-sort-condition",
     dict(TableName="Readings", KeyConditionExpression="device = :d AND #at > :t",
          ExpressionAttributeNames={"#at": "at"}, ExpressionAttributeValues={**DEVICE, ":t": {"S": "t-01"}},
          ExclusiveStartKey={"device": {"S": "d-2"}, "at": {"S": "t-05"}}), ONE_ROW),
    ("another-partition-outside-the-sort-condition",
     dict(TableName="Readings", KeyConditionExpression="device = :d AND #at > :t",
          ExpressionAttributeNames={"#at": "at"}, ExpressionAttributeValues={**DEVICE, ":t": {"S": "t-05"}},
          ExclusiveStartKey={"device": {"S": "d-2"}, "at": {"S": "t-01"}}), RANGE_PREDICATE),
    ("another-partition-on-an-index",
     dict(TableName="Readings", IndexName="byZone", KeyConditionExpression="#z = :z",
          ExpressionAttributeNames={"#z": "zone"}, ExpressionAttributeValues={":z": {"S": "z"}},
          ExclusiveStartKey={"zone": {"S": "y"}, **KEY}), OUTSIDE),
    # The key read, attribute by attribute: another type is the schema sentence alone; a table
    # key attribute an index key leaves out gets the starting-key prefix.
    ("a-sort-key-of-another-type", query(ExclusiveStartKey={"device": {"S": "d-1"}, "at": {"N": "1"}}),
     "The provided key element does not match the schema"),
    ("a-table-key-of-another-type-on-an-index",
     dict(TableName="Readings", IndexName="byZone", KeyConditionExpression="#z = :z",
          ExpressionAttributeNames={"#z": "zone"}, ExpressionAttributeValues={":z": {"S": "z"}},
          ExclusiveStartKey={"zone": {"S": "z"}, "device": {"N": "1"}, "at": {"S": "t-05"}}),
     START_INVALID + "The provided key element does not match the schema"),
    ("without-the-table-key-on-an-index",
     dict(TableName="Readings", IndexName="byZone", KeyConditionExpression="#z = :z",
          ExpressionAttributeNames={"#z": "zone"}, ExpressionAttributeValues={":z": {"S": "z"}},
          ExclusiveStartKey={"zone": {"S": "z"}}),
     START_BARE),
]


@pytest.mark.parametrize("params, message", [c[1:] for c in START_CASES], ids=[c[0] for c in START_CASES])
def test_a_query_start_key_outside_the_schema_or_the_key_condition(readings, params, message):
    assert refused(readings.query, **params) == message


def test_a_scan_start_key_of_another_shape_names_the_schema_on_the_table_only(readings):
    assert refused(readings.scan, TableName="Readings", ExclusiveStartKey={"device": {"S": "d-1"}}) == (
        START_INVALID + "The provided key element does not match the schema")
    assert refused(readings.scan, TableName="Readings", IndexName="byZone",
                   ExclusiveStartKey={"zone": {"S": "z"}}) == START_BARE


def test_a_start_key_inside_the_key_condition_resumes_after_it(readings):
    page = readings.query(TableName="Readings", KeyConditionExpression="device = :d AND #at BETWEEN :l AND :h",
                          ExpressionAttributeNames={"#at": "at"},
                          ExpressionAttributeValues={**DEVICE, ":l": {"S": "t-01"}, ":h": {"S": "t-09"}},
                          ExclusiveStartKey={"device": {"S": "d-1"}, "at": {"S": "t-01"}})
    assert [item["at"]["S"] for item in page["Items"]] == ["t-05", "t-09"]


def test_a_scan_start_key_of_another_segment_is_refused(readings):
    # Every reading is in one collection, so in one segment: the one the first page names.
    total = 4
    home = None
    for segment in range(total):
        page = readings.scan(TableName="Readings", Segment=segment, TotalSegments=total, Limit=1)
        if page["Items"]:
            home = segment
            start = page["LastEvaluatedKey"]
    assert home is not None
    resumed = readings.scan(TableName="Readings", Segment=home, TotalSegments=total, ExclusiveStartKey=start)
    assert len(resumed["Items"]) == 2
    for segment in set(range(total)) - {home}:
        assert refused(readings.scan, TableName="Readings", Segment=segment, TotalSegments=total,
                       ExclusiveStartKey=start) == (
                           "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                           f"ExclusiveStartKey with correct Segment. TotalSegments: {total} Segment: {segment}")


def test_a_scan_start_key_of_the_wrong_type_is_refused(readings):
    assert refused(readings.scan, TableName="Readings",
                   ExclusiveStartKey={"device": {"S": "d-1"}, "at": {"N": "1"}}) == (
        START_INVALID + "The provided key element does not match the schema")


LIMIT_CASES = [
    ("query-limit-0", "query", query(Limit=0),
     "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
     "Member must have value greater than or equal to 1"),
    ("scan-limit-negative", "scan", dict(TableName="Readings", Limit=-3),
     "1 validation error detected: Value '-3' at 'limit' failed to satisfy constraint: "
     "Member must have value greater than or equal to 1"),
    ("segment-not-below-total", "scan", dict(TableName="Readings", Segment=4, TotalSegments=4),
     "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
     "Segment: 4 is not less than TotalSegments: 4"),
    ("total-segments-over-a-million", "scan", dict(TableName="Readings", Segment=0, TotalSegments=1000001),
     "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: "
     "Member must have value less than or equal to 1000000"),
    ("segment-without-total", "scan", dict(TableName="Readings", Segment=0),
     "The TotalSegments parameter is required but was not present in the request when Segment parameter "
     "is present"),
    ("total-without-segment", "scan", dict(TableName="Readings", TotalSegments=2),
     "The Segment parameter is required but was not present in the request when parameter TotalSegments "
     "is present"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in LIMIT_CASES], ids=[c[0] for c in LIMIT_CASES])
def test_limit_segment_and_total_segments(readings, call, params, message):
    assert refused(getattr(readings, call), **params) == message


EMPTY_CASES = [
    ("get-item-empty-key", "get_item", dict(TableName="Readings", Key={}),
     "The provided key element does not match the schema"),
    ("get-item-empty-projection", "get_item", dict(TableName="Readings", Key=KEY, ProjectionExpression=""),
     "Invalid ProjectionExpression: The expression can not be empty;"),
    ("get-item-empty-names", "get_item",
     dict(TableName="Readings", Key=KEY, ProjectionExpression="zone", ExpressionAttributeNames={}),
     "ExpressionAttributeNames must not be empty"),
    ("query-empty-key-condition", "query",
     dict(TableName="Readings", KeyConditionExpression="", ExpressionAttributeValues=DEVICE),
     "Invalid KeyConditionExpression: The expression can not be empty;"),
    ("query-empty-values", "query",
     dict(TableName="Readings", KeyConditionExpression="device = :d", ExpressionAttributeValues={}),
     "ExpressionAttributeValues must not be empty"),
    ("query-empty-key-conditions", "query", dict(TableName="Readings", KeyConditions={}),
     "Conditions can be of length 1 or 2 only"),
    ("query-no-key-condition", "query", dict(TableName="Readings"),
     "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."),
    ("query-empty-attributes-to-get", "query",
     dict(TableName="Readings", KeyConditions={"device": {"ComparisonOperator": "EQ",
                                                           "AttributeValueList": [{"S": "d-1"}]}},
          AttributesToGet=[]),
     "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy constraint: "
     "Member must have length greater than or equal to 1"),
    ("scan-empty-filter", "scan", dict(TableName="Readings", FilterExpression=""),
     "Invalid FilterExpression: The expression can not be empty;"),
    ("put-item-empty-item", "put_item", dict(TableName="Readings", Item={}),
     "One or more parameter values were invalid: Missing the key device in the item"),
]


@pytest.mark.parametrize("call, params, message", [c[1:] for c in EMPTY_CASES], ids=[c[0] for c in EMPTY_CASES])
def test_empty_members(readings, call, params, message):
    assert refused(getattr(readings, call), **params) == message


# Found by a differential sweep against dynalite, whose validations were recorded from the service.

def test_attributes_to_get_holds_at_most_255_names(readings):
    names = [f"a{i}" for i in range(256)]
    assert refused(readings.get_item, TableName="Readings", Key=KEY, AttributesToGet=names) == (
        f"1 validation error detected: Value '[{', '.join(names)}]' at 'attributesToGet' failed to satisfy "
        "constraint: Member must have length less than or equal to 255")
    assert "Item" in readings.get_item(TableName="Readings", Key=KEY, AttributesToGet=names[:255])


def test_a_legacy_in_takes_its_values_in_any_order(readings):
    # Only BETWEEN has a lower and an upper bound (rule B.5); IN is a list.
    page = readings.scan(TableName="Readings", ScanFilter={
        "zone": {"ComparisonOperator": "IN", "AttributeValueList": [{"S": "z"}, {"S": "a"}]}})
    assert page["Count"] == 3
    readings.put_item(TableName="Readings", Item={**KEY, "zone": {"S": "y"}},
                      Expected={"zone": {"ComparisonOperator": "IN",
                                         "AttributeValueList": [{"S": "z"}, {"S": "a"}]}})


def test_batch_get_reports_a_bad_key_value_not_an_empty_list(readings):
    bad = {"device": {"S": "d-1"}, "at": {"N": "abc"}}
    assert refused(readings.batch_get_item, RequestItems={"Readings": {"Keys": [KEY, bad]}}) == (
        "The parameter cannot be converted to a numeric value: abc")


def test_batch_values_are_checked_before_any_table_is_looked_up(readings):
    # Rule B.15: a bad value beside an unknown table is the value's error.
    assert refused(readings.batch_get_item, RequestItems={
        "Readings": {"Keys": [KEY]}, "Missing": {"Keys": [{"device": {"SS": []}}]}}) == (
        "One or more parameter values were invalid: An string set  may not be empty")
    assert refused(readings.batch_write_item, RequestItems={
        "Readings": [{"PutRequest": {"Item": {**KEY, "n": {"N": "1"}}}}],
        "Missing": [{"PutRequest": {"Item": {"device": {"SS": []}}}}]}) == (
        "One or more parameter values were invalid: An string set  may not be empty")
    assert refused(readings.batch_write_item, RequestItems={
        "Missing": [{"DeleteRequest": {"Key": {"device": {"NULL": False}}}}]}) == (
        "One or more parameter values were invalid: Null attribute value types must have the value of true")


def test_an_index_key_attribute_is_typed_whether_or_not_the_item_has_the_others(server):
    # Rule B.18.4: the item is in the index only with every key attribute, but a key attribute it
    # has is checked on its own.
    raw = session().client("dynamodb", endpoint_url=server.endpoint, config=UNCHECKED)
    raw.create_table(TableName="Scores", BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"},
                                           {"AttributeName": "game", "AttributeType": "S"},
                                           {"AttributeName": "score", "AttributeType": "N"}],
                     KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
                     GlobalSecondaryIndexes=[{"IndexName": "byGame",
                                              "KeySchema": [{"AttributeName": "game", "KeyType": "HASH"},
                                                            {"AttributeName": "score", "KeyType": "RANGE"}],
                                              "Projection": {"ProjectionType": "ALL"}}])
    mismatch = ("One or more parameter values were invalid: Type mismatch for Index Key score Expected: N "
                "Actual: S IndexName: byGame")
    assert refused(raw.put_item, TableName="Scores", Item={"id": {"S": "1"}, "score": {"S": "high"}}) == mismatch
    raw.put_item(TableName="Scores", Item={"id": {"S": "1"}})
    assert refused(raw.update_item, TableName="Scores", Key={"id": {"S": "1"}}, UpdateExpression="SET score = :s",
                   ExpressionAttributeValues={":s": {"S": "high"}}) == mismatch
    assert "score" not in raw.get_item(TableName="Scores", Key={"id": {"S": "1"}})["Item"]
