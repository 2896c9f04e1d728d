"""boto3 against dynotable-local: global secondary indexes with multi-attribute keys (up to four
partition-key and four sort-key attributes, docs/dynamodb-rules.md B.18) — created with the table
or by UpdateTable, described as given, kept sparse, queried with an equality on every partition
attribute and sort conditions left to right, through the client and the resource's Key
conditions, with capacity as for any index. The messages are those the engine golden
`multi_attribute_gsi` pins (docs/compatibility.md records the ones chosen here)."""

import botocore.exceptions
import pytest
from boto3.dynamodb.conditions import Key

from conftest import CLIENT_CONFIG, session

GSI_KEY = [{"AttributeName": "tournamentId", "KeyType": "HASH"},
           {"AttributeName": "region", "KeyType": "HASH"},
           {"AttributeName": "round", "KeyType": "RANGE"},
           {"AttributeName": "bracket", "KeyType": "RANGE"}]

MATCHES = dict(
    TableName="Matches",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "matchId", "AttributeType": "S"},
                          {"AttributeName": "tournamentId", "AttributeType": "S"},
                          {"AttributeName": "region", "AttributeType": "S"},
                          {"AttributeName": "round", "AttributeType": "N"},
                          {"AttributeName": "bracket", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "matchId", "KeyType": "HASH"}],
    GlobalSecondaryIndexes=[{"IndexName": "TournamentRegion", "KeySchema": GSI_KEY,
                             "Projection": {"ProjectionType": "ALL"}}],
)

# (matchId, tournamentId, region, round, bracket)
MATCH_ROWS = [("m1", "WINTER2024", "NA-EAST", 1, "UPPER"),
              ("m2", "WINTER2024", "NA-EAST", 1, "LOWER"),
              ("m3", "WINTER2024", "NA-EAST", 2, "UPPER"),
              ("m4", "WINTER2024", "NA-EAST", 10, "UPPER"),
              ("m5", "WINTER2024", "EU-WEST", 1, "UPPER")]

NAMES = {"#region": "region", "#round": "round"}
PARTITION = "tournamentId = :t AND #region = :r"


def match(match_id, tournament, region, round_, bracket):
    return {"matchId": {"S": match_id}, "tournamentId": {"S": tournament}, "region": {"S": region},
            "round": {"N": str(round_)}, "bracket": {"S": bracket}}


@pytest.fixture
def matches(client):
    client.create_table(**MATCHES)
    for row in MATCH_ROWS:
        client.put_item(TableName="Matches", Item=match(*row))
    return client


def query_ids(client, expression, values, **extra):
    values = {":t": {"S": "WINTER2024"}, ":r": {"S": "NA-EAST"}, **values}
    text = expression + extra.get("FilterExpression", "")
    names = {name: attribute for name, attribute in NAMES.items() if name in text}
    values = {name: value for name, value in values.items() if name in text}
    if names:
        extra["ExpressionAttributeNames"] = names
    response = client.query(TableName="Matches", IndexName="TournamentRegion",
                            KeyConditionExpression=expression, ExpressionAttributeValues=values, **extra)
    return [item["matchId"]["S"] for item in response["Items"]], response


def refused(client, expression, values, **extra):
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        query_ids(client, expression, values, **extra)
    error = caught.value.response["Error"]
    assert error["Code"] == "ValidationException"
    return error["Message"]


def test_describe_table_returns_the_key_schema_as_given(matches):
    index = matches.describe_table(TableName="Matches")["Table"]["GlobalSecondaryIndexes"][0]
    assert index["KeySchema"] == GSI_KEY
    assert index["ItemCount"] == len(MATCH_ROWS)


def test_a_collection_is_ordered_attribute_by_attribute(matches):
    # round is a number: 10 sorts after 2; inside round 1, LOWER before UPPER.
    ids, _ = query_ids(matches, PARTITION, {})
    assert ids == ["m2", "m1", "m3", "m4"]
    ids, _ = query_ids(matches, PARTITION, {}, ScanIndexForward=False)
    assert ids == ["m4", "m3", "m1", "m2"]


@pytest.mark.parametrize("condition, values, expected", [
    ("#round = :a", {":a": {"N": "1"}}, ["m2", "m1"]),
    ("#round = :a AND bracket = :b", {":a": {"N": "1"}, ":b": {"S": "UPPER"}}, ["m1"]),
    ("#round > :a", {":a": {"N": "1"}}, ["m3", "m4"]),
    ("#round <= :a", {":a": {"N": "2"}}, ["m2", "m1", "m3"]),
    ("#round BETWEEN :a AND :b", {":a": {"N": "2"}, ":b": {"N": "10"}}, ["m3", "m4"]),
    ("#round = :a AND begins_with(bracket, :b)", {":a": {"N": "1"}, ":b": {"S": "LO"}}, ["m2"]),
    ("#round = :a AND bracket > :b", {":a": {"N": "1"}, ":b": {"S": "M"}}, ["m1"]),
])
def test_sort_conditions_go_left_to_right(matches, condition, values, expected):
    ids, _ = query_ids(matches, f"{PARTITION} AND {condition}", values)
    assert ids == expected


def test_conditions_may_be_written_in_any_order(matches):
    ids, _ = query_ids(matches, "bracket = :b AND #round = :a AND #region = :r AND tournamentId = :t",
                       {":a": {"N": "1"}, ":b": {"S": "UPPER"}})
    assert ids == ["m1"]


def test_pages_resume_from_a_key_with_every_index_and_table_attribute(matches):
    first_ids, first = query_ids(matches, PARTITION, {}, Limit=2)
    assert first_ids == ["m2", "m1"]
    assert set(first["LastEvaluatedKey"]) == {"matchId", "tournamentId", "region", "round", "bracket"}
    rest_ids, rest = query_ids(matches, PARTITION, {}, ExclusiveStartKey=first["LastEvaluatedKey"])
    assert rest_ids == ["m3", "m4"]
    assert "LastEvaluatedKey" not in rest


def test_the_index_is_sparse_and_follows_every_key_attribute(matches):
    # No bracket: not in the index; adding it puts the item in, removing region takes it out.
    matches.put_item(TableName="Matches", Item={
        "matchId": {"S": "m6"}, "tournamentId": {"S": "WINTER2024"}, "region": {"S": "NA-EAST"},
        "round": {"N": "3"}})
    assert query_ids(matches, PARTITION, {})[0] == ["m2", "m1", "m3", "m4"]
    matches.update_item(TableName="Matches", Key={"matchId": {"S": "m6"}},
                        UpdateExpression="SET bracket = :b", ExpressionAttributeValues={":b": {"S": "UPPER"}})
    assert query_ids(matches, PARTITION, {})[0] == ["m2", "m1", "m3", "m6", "m4"]
    matches.update_item(TableName="Matches", Key={"matchId": {"S": "m6"}}, UpdateExpression="REMOVE #region",
                        ExpressionAttributeNames={"#region": "region"})
    assert query_ids(matches, PARTITION, {})[0] == ["m2", "m1", "m3", "m4"]


def test_a_key_attribute_of_the_wrong_type_fails_the_write(matches):
    item = match("m9", "WINTER2024", "NA-EAST", 1, "UPPER")
    item["region"] = {"N": "7"}
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        matches.put_item(TableName="Matches", Item=item)
    assert caught.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: Type mismatch for Index Key region Expected: S "
        "Actual: N IndexName: TournamentRegion")


@pytest.mark.parametrize("expression, values, message", [
    ("tournamentId = :t", {}, "Query condition missed key schema element: region"),
    ("#region = :r", {}, "Query condition missed key schema element: tournamentId"),
    ("tournamentId = :t AND #region > :r", {}, "Query key condition not supported"),
    (f"{PARTITION} AND bracket = :b", {":b": {"S": "UPPER"}},
     "Query condition missed key schema element: round"),
    (f"{PARTITION} AND #round > :a AND bracket = :b", {":a": {"N": "1"}, ":b": {"S": "UPPER"}},
     "Query key condition not supported"),
    (f"{PARTITION} AND #round = :a AND matchId = :m", {":a": {"N": "1"}, ":m": {"S": "m1"}},
     "Query condition missed key schema element: bracket"),
    (f"{PARTITION} AND #round = :a AND bracket = :b AND matchId = :m",
     {":a": {"N": "1"}, ":b": {"S": "UPPER"}, ":m": {"S": "m1"}},
     "Conditions can be of length 1 to 4 only"),
])
def test_queries_outside_the_rules_are_refused(matches, expression, values, message):
    assert refused(matches, expression, values) == message


def test_a_filter_may_not_read_any_key_attribute_of_the_index(matches):
    message = refused(matches, PARTITION, {":a": {"N": "1"}}, FilterExpression="#round = :a")
    assert message == "Filter Expression can only contain non-primary key attributes: Primary key attribute: round"


def test_consumed_capacity_is_charged_to_the_index(matches):
    _, response = query_ids(matches, PARTITION, {}, ReturnConsumedCapacity="INDEXES")
    consumed = response["ConsumedCapacity"]
    assert consumed["GlobalSecondaryIndexes"]["TournamentRegion"]["CapacityUnits"] == 0.5
    assert consumed["CapacityUnits"] == 0.5


def test_the_resource_builds_the_key_condition_from_several_attributes(server, matches):
    table = session().resource("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG).Table("Matches")
    condition = (Key("tournamentId").eq("WINTER2024") & Key("region").eq("NA-EAST")
                 & Key("round").eq(1) & Key("bracket").begins_with("UP"))
    items = table.query(IndexName="TournamentRegion", KeyConditionExpression=condition)["Items"]
    assert [item["matchId"] for item in items] == ["m1"]


def test_update_table_creates_and_backfills_such_an_index(matches):
    matches.update_table(
        TableName="Matches",
        AttributeDefinitions=[{"AttributeName": "round", "AttributeType": "N"},
                              {"AttributeName": "bracket", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "RoundBracket",
            "KeySchema": [{"AttributeName": "round", "KeyType": "HASH"},
                          {"AttributeName": "bracket", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}}])
    response = matches.query(TableName="Matches", IndexName="RoundBracket",
                             KeyConditionExpression="#round = :a AND bracket = :b",
                             ExpressionAttributeNames={"#round": "round"},
                             ExpressionAttributeValues={":a": {"N": "1"}, ":b": {"S": "UPPER"}})
    assert sorted(item["matchId"]["S"] for item in response["Items"]) == ["m1", "m5"]


def with_gsi_key(key_schema, names):
    definitions = [{"AttributeName": "pk", "AttributeType": "S"}] + [
        {"AttributeName": name, "AttributeType": "S"} for name in names]
    return dict(TableName="Limits", BillingMode="PAY_PER_REQUEST", AttributeDefinitions=definitions,
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": key_schema,
                                         "Projection": {"ProjectionType": "KEYS_ONLY"}}])


def hash_(name):
    return {"AttributeName": name, "KeyType": "HASH"}


def range_(name):
    return {"AttributeName": name, "KeyType": "RANGE"}


@pytest.mark.parametrize("key_schema, names, message", [
    ([hash_(n) for n in "abcde"], "abcde",
     "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of HASH key attributes"),
    ([hash_("a")] + [range_(n) for n in "bcdef"], "abcdef",
     "One or more parameter values were invalid: The KeySchema exceeds the maximum allowed number of RANGE key attributes"),
    ([hash_("a"), range_("b"), hash_("c")], "abc",
     "One or more parameter values were invalid: All HASH key attributes must precede RANGE key attributes in the KeySchema"),
    ([range_("a"), hash_("b"), hash_("c")], "abc",
     "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"),
    ([hash_("a"), hash_("a"), range_("b")], "ab", "The KeySchema contains multiple key attributes with the same name"),
    ([hash_("a"), hash_("b")], "a",
     "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. "
     "Keys: [b], AttributeDefinitions: [pk, a]"),
])
def test_create_table_checks_the_key_schema(client, key_schema, names, message):
    with pytest.raises(botocore.exceptions.ClientError) as caught:
        client.create_table(**with_gsi_key(key_schema, names))
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert caught.value.response["Error"]["Message"] == message


def test_the_widest_key_has_four_and_four_attributes_of_their_own_types(client):
    types = dict(zip(["h1", "h2", "h3", "h4", "r1", "r2", "r3", "r4"], "SNBSNSBN"))
    client.create_table(
        TableName="Widest", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}] + [
            {"AttributeName": name, "AttributeType": ty} for name, ty in types.items()],
        KeySchema=[hash_("pk")],
        GlobalSecondaryIndexes=[{"IndexName": "gsi", "Projection": {"ProjectionType": "KEYS_ONLY"},
                                 "KeySchema": [hash_(f"h{i}") for i in range(1, 5)]
                                 + [range_(f"r{i}") for i in range(1, 5)]}])
    partition = {"h1": {"S": "x"}, "h2": {"N": "2"}, "h3": {"B": b"\x00"}, "h4": {"S": "y"}}
    for pk, r4 in [("w1", "5"), ("w2", "-5"), ("w3", "0.5")]:
        client.put_item(TableName="Widest", Item={"pk": {"S": pk}, **partition, "r1": {"N": "1"},
                                                  "r2": {"S": "a"}, "r3": {"B": b"\x01"}, "r4": {"N": r4}})
    response = client.query(
        TableName="Widest", IndexName="gsi",
        KeyConditionExpression="h1 = :h1 AND h2 = :h2 AND h3 = :h3 AND h4 = :h4 AND r1 = :r1 AND r2 = :r2 "
                               "AND r3 = :r3 AND r4 > :r4",
        ExpressionAttributeValues={":h1": {"S": "x"}, ":h2": {"N": "2"}, ":h3": {"B": b"\x00"},
                                   ":h4": {"S": "y"}, ":r1": {"N": "1"}, ":r2": {"S": "a"},
                                   ":r3": {"B": b"\x01"}, ":r4": {"N": "-1"}})
    assert [item["pk"]["S"] for item in response["Items"]] == ["w3", "w1"]
