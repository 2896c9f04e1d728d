"""The legacy (pre-expression) API with boto3's low-level client: AttributesToGet, Expected with
ConditionalOperator, KeyConditions, QueryFilter, ScanFilter, AttributeUpdates and ReturnValues
with them, on GetItem, BatchGetItem, PutItem, DeleteItem, UpdateItem, Query and Scan; every
comparison operator, the number of values each takes, and the refusal of mixed legacy and
expression parameters (AWS API Reference: "Condition", "ExpectedAttributeValue",
"AttributeValueUpdate")."""

import pytest
from botocore.exceptions import ClientError

INVALID = "One or more parameter values were invalid: "
# PutItem, UpdateItem and DeleteItem word their request checks inside the one-error envelope
# (docs/dynamodb-rules.md B.16); reads send them bare.
WRITE = "1 validation error detected: "

MUSIC = dict(
    TableName="Music",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"},
                          {"AttributeName": "Song", "AttributeType": "S"}],
    KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"},
               {"AttributeName": "Song", "KeyType": "RANGE"}],
)

ITEMS = [
    {"Artist": {"S": "Acme"}, "Song": {"S": "A"}, "Plays": {"N": "10"},
     "Tags": {"SS": ["rock", "pop"]}, "Title": {"S": "Hello World"}},
    {"Artist": {"S": "Acme"}, "Song": {"S": "B"}, "Plays": {"N": "3"}, "Title": {"S": "Goodbye"}},
    {"Artist": {"S": "Acme"}, "Song": {"S": "C"}, "Plays": {"N": "7"}, "Year": {"N": "1999"},
     "Title": {"S": "Hello Again"}},
]


def key(song, artist="Acme"):
    return {"Artist": {"S": artist}, "Song": {"S": song}}


@pytest.fixture
def music(client):
    """A client, with the table Music (Artist / Song) holding songs A, B and C."""
    client.create_table(**MUSIC)
    for item in ITEMS:
        client.put_item(TableName="Music", Item=item)
    return client


def refused(call, message, code="ValidationException", **params):
    with pytest.raises(ClientError) as caught:
        call(**params)
    error = caught.value.response["Error"]
    assert (error["Code"], error["Message"]) == (code, message)


def songs(items):
    return sorted(item["Song"]["S"] for item in items)


def mixing(legacy, expressions):
    return ("Can not use both expression and non-expression parameters in the same request: "
            f"Non-expression parameters: {{{legacy}}} Expression parameters: {{{expressions}}}")


# ---- AttributesToGet: GetItem and BatchGetItem ------------------------------------------------

def test_get_item_attributes_to_get_returns_only_those_attributes(music):
    item = music.get_item(TableName="Music", Key=key("A"), AttributesToGet=["Plays", "Missing"])["Item"]
    assert item == {"Plays": {"N": "10"}}


def test_get_item_attributes_to_get_refuses_a_duplicate_name(music):
    refused(music.get_item, INVALID + "Duplicate value in attribute name: Plays",
            TableName="Music", Key=key("A"), AttributesToGet=["Plays", "Plays"])


def test_get_item_attributes_to_get_with_projection_expression_is_refused(music):
    refused(music.get_item, mixing("AttributesToGet", "ProjectionExpression"),
            TableName="Music", Key=key("A"), AttributesToGet=["Plays"], ProjectionExpression="Plays")


def test_batch_get_item_attributes_to_get(music):
    response = music.batch_get_item(RequestItems={"Music": {
        "Keys": [key("A"), key("B")], "AttributesToGet": ["Song", "Plays"]}})
    items = sorted(response["Responses"]["Music"], key=lambda i: i["Song"]["S"])
    assert items == [{"Song": {"S": "A"}, "Plays": {"N": "10"}}, {"Song": {"S": "B"}, "Plays": {"N": "3"}}]


def test_batch_get_item_mixing_is_refused(music):
    refused(music.batch_get_item, mixing("AttributesToGet", "ProjectionExpression"),
            RequestItems={"Music": {"Keys": [key("A")], "AttributesToGet": ["Song"],
                                    "ProjectionExpression": "Plays"}})


# ---- Expected: PutItem and DeleteItem -----------------------------------------------------------

def test_put_item_expected_value_must_match(music):
    old = music.put_item(TableName="Music", Item={**key("B"), "Plays": {"N": "4"}},
                         Expected={"Plays": {"Value": {"N": "3.0"}}}, ReturnValues="ALL_OLD")
    assert old["Attributes"]["Plays"] == {"N": "3"}
    refused(music.put_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Item={**key("B"), "Plays": {"N": "5"}},
            Expected={"Plays": {"Value": {"N": "3"}}})


def test_put_item_expected_exists_false_writes_only_a_new_item(music):
    music.put_item(TableName="Music", Item=key("D"), Expected={"Song": {"Exists": False}})
    refused(music.put_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Item=key("D"), Expected={"Song": {"Exists": False}})


def test_put_item_expected_exists_true_with_value(music):
    music.put_item(TableName="Music", Item={**key("C"), "Plays": {"N": "8"}},
                   Expected={"Year": {"Exists": True, "Value": {"N": "1999"}}})
    assert music.get_item(TableName="Music", Key=key("C"))["Item"]["Plays"] == {"N": "8"}


def test_put_item_expected_conditional_operator_and_or(music):
    expected = {"Plays": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "5"}]},
                "Year": {"ComparisonOperator": "NOT_NULL"}}
    # A has Plays 10 but no Year: AND fails, OR passes.
    refused(music.put_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Item=key("A"), Expected=expected, ConditionalOperator="AND")
    music.put_item(TableName="Music", Item=key("A"), Expected=expected, ConditionalOperator="OR")
    assert music.get_item(TableName="Music", Key=key("A"))["Item"] == key("A")


def test_put_item_expected_with_condition_expression_is_refused(music):
    refused(music.put_item, WRITE + mixing("Expected", "ConditionExpression"),
            TableName="Music", Item=key("A"), Expected={"Song": {"Exists": False}},
            ConditionExpression="attribute_not_exists(Song)")


@pytest.mark.parametrize("entry, message", [
    ({"Exists": True}, "Value must be provided when Exists is true for Attribute: Plays"),
    ({}, "Value must be provided when Exists is null for Attribute: Plays"),
    ({"Exists": False, "Value": {"N": "1"}}, "Value cannot be used when Exists is false for Attribute: Plays"),
    ({"Value": {"N": "1"}, "AttributeValueList": [{"N": "1"}]},
     "Value and AttributeValueList cannot be used together for Attribute: Plays"),
    ({"ComparisonOperator": "EQ", "Exists": True, "Value": {"N": "1"}},
     "Exists and ComparisonOperator cannot be used together for Attribute: Plays"),
    ({"ComparisonOperator": "EQ"},
     "Value or AttributeValueList must be used with ComparisonOperator: EQ for Attribute: Plays"),
    ({"AttributeValueList": [{"N": "1"}]},
     "AttributeValueList can only be used with a ComparisonOperator for Attribute: Plays"),
])
def test_put_item_expected_entry_rules(music, entry, message):
    refused(music.put_item, WRITE + INVALID + message, TableName="Music", Item=key("A"),
            Expected={"Plays": entry})


def test_delete_item_expected_and_return_values(music):
    refused(music.delete_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Key=key("B"), Expected={"Year": {"ComparisonOperator": "NOT_NULL"}})
    old = music.delete_item(TableName="Music", Key=key("B"), ReturnValues="ALL_OLD",
                            Expected={"Year": {"ComparisonOperator": "NULL"},
                                      "Plays": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "5"}]}})
    assert old["Attributes"]["Song"] == {"S": "B"}
    assert "Item" not in music.get_item(TableName="Music", Key=key("B"))


def test_delete_item_expected_with_condition_expression_is_refused(music):
    refused(music.delete_item, WRITE + mixing("Expected", "ConditionExpression"), TableName="Music",
            Key=key("B"), Expected={"Year": {"Exists": False}}, ConditionExpression="attribute_exists(Song)")


# ---- AttributeUpdates: UpdateItem ---------------------------------------------------------------

def test_update_item_put_delete_add(music):
    music.update_item(TableName="Music", Key=key("A"), AttributeUpdates={
        "Plays": {"Action": "ADD", "Value": {"N": "-0.5"}},
        "Tags": {"Action": "ADD", "Value": {"SS": ["jazz"]}},
        "Title": {"Action": "DELETE"},
        "Genre": {"Value": {"S": "ska"}},
        "Ratings": {"Action": "PUT", "Value": {"L": [{"N": "5"}]}},
    })
    item = music.get_item(TableName="Music", Key=key("A"))["Item"]
    assert item["Plays"] == {"N": "9.5"}
    assert sorted(item["Tags"]["SS"]) == ["jazz", "pop", "rock"]
    assert "Title" not in item
    assert item["Genre"] == {"S": "ska"}
    assert item["Ratings"] == {"L": [{"N": "5"}]}


def test_update_item_add_keeps_numbers_exact(music):
    music.update_item(TableName="Music", Key=key("A"), AttributeUpdates={
        "Plays": {"Action": "ADD", "Value": {"N": "12345678901234567890123456789012345.1"}}})
    item = music.get_item(TableName="Music", Key=key("A"))["Item"]
    assert item["Plays"] == {"N": "12345678901234567890123456789012355.1"}


def test_update_item_add_on_a_missing_item_creates_it(music):
    new = music.update_item(TableName="Music", Key=key("Z"), ReturnValues="ALL_NEW", AttributeUpdates={
        "Plays": {"Action": "ADD", "Value": {"N": "1"}}, "Tags": {"Action": "ADD", "Value": {"SS": ["new"]}}})
    assert new["Attributes"] == {**key("Z"), "Plays": {"N": "1"}, "Tags": {"SS": ["new"]}}


def test_update_item_add_list_appends(music):
    music.update_item(TableName="Music", Key=key("A"),
                      AttributeUpdates={"Ratings": {"Action": "ADD", "Value": {"L": [{"N": "1"}]}}})
    music.update_item(TableName="Music", Key=key("A"),
                      AttributeUpdates={"Ratings": {"Action": "ADD", "Value": {"L": [{"N": "2"}]}}})
    item = music.get_item(TableName="Music", Key=key("A"))["Item"]
    assert item["Ratings"] == {"L": [{"N": "1"}, {"N": "2"}]}


def test_update_item_delete_removes_set_elements_and_an_emptied_set(music):
    music.update_item(TableName="Music", Key=key("A"),
                      AttributeUpdates={"Tags": {"Action": "DELETE", "Value": {"SS": ["pop", "absent"]}}})
    assert music.get_item(TableName="Music", Key=key("A"))["Item"]["Tags"] == {"SS": ["rock"]}
    music.update_item(TableName="Music", Key=key("A"),
                      AttributeUpdates={"Tags": {"Action": "DELETE", "Value": {"SS": ["rock"]}}})
    assert "Tags" not in music.get_item(TableName="Music", Key=key("A"))["Item"]


@pytest.mark.parametrize("return_values, attributes", [
    ("NONE", None),
    ("ALL_OLD", {**key("B"), "Plays": {"N": "3"}, "Title": {"S": "Goodbye"}}),
    ("ALL_NEW", {**key("B"), "Plays": {"N": "5"}, "Genre": {"S": "ska"}}),
    ("UPDATED_OLD", {"Plays": {"N": "3"}, "Title": {"S": "Goodbye"}}),
    ("UPDATED_NEW", {"Plays": {"N": "5"}, "Genre": {"S": "ska"}}),
])
def test_update_item_return_values_with_attribute_updates(music, return_values, attributes):
    response = music.update_item(TableName="Music", Key=key("B"), ReturnValues=return_values, AttributeUpdates={
        "Plays": {"Action": "ADD", "Value": {"N": "2"}},
        "Title": {"Action": "DELETE"},
        "Genre": {"Action": "PUT", "Value": {"S": "ska"}},
    })
    assert response.get("Attributes") == attributes


def test_update_item_expected_guards_attribute_updates(music):
    refused(music.update_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Key=key("B"), AttributeUpdates={"Plays": {"Value": {"N": "0"}}},
            Expected={"Plays": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "3"}]}})
    music.update_item(TableName="Music", Key=key("B"), AttributeUpdates={"Plays": {"Value": {"N": "0"}}},
                      Expected={"Plays": {"ComparisonOperator": "GE", "AttributeValueList": [{"N": "3"}]}})
    assert music.get_item(TableName="Music", Key=key("B"))["Item"]["Plays"] == {"N": "0"}


def test_update_item_type_mismatch(music):
    refused(music.update_item, "Type mismatch for attribute to update", TableName="Music", Key=key("A"),
            AttributeUpdates={"Tags": {"Action": "ADD", "Value": {"N": "1"}}})
    refused(music.update_item, "Type mismatch for attribute to update", TableName="Music", Key=key("A"),
            AttributeUpdates={"Tags": {"Action": "DELETE", "Value": {"NS": ["1"]}}})


def test_update_item_attribute_updates_on_a_key_attribute(music):
    refused(music.update_item, INVALID + "Cannot update attribute Song. This attribute is part of the key",
            TableName="Music", Key=key("A"), AttributeUpdates={"Song": {"Value": {"S": "X"}}})


@pytest.mark.parametrize("update, message", [
    ({"Action": "PUT"}, "Only DELETE action is allowed when no attribute value is specified"),
    ({"Action": "ADD"}, "Only DELETE action is allowed when no attribute value is specified"),
    ({"Action": "DELETE", "Value": {"S": "x"}}, "DELETE action with value is not supported for the type S"),
    ({"Action": "ADD", "Value": {"S": "x"}}, "ADD action is not supported for the type S"),
])
def test_update_item_attribute_update_rules(music, update, message):
    refused(music.update_item, WRITE + INVALID + message, TableName="Music", Key=key("A"),
            AttributeUpdates={"Plays": update})


def test_update_item_attribute_updates_with_update_expression_is_refused(music):
    refused(music.update_item, WRITE + mixing("AttributeUpdates", "UpdateExpression"), TableName="Music",
            Key=key("A"), AttributeUpdates={"Plays": {"Value": {"N": "1"}}},
            UpdateExpression="SET Plays = :p", ExpressionAttributeValues={":p": {"N": "1"}})


def test_update_item_expected_with_condition_expression_is_refused(music):
    refused(music.update_item, WRITE + mixing("Expected", "UpdateExpression, ConditionExpression"),
            TableName="Music",
            Key=key("A"), Expected={"Plays": {"Exists": False}}, ConditionExpression="attribute_exists(Song)",
            UpdateExpression="SET Plays = :p", ExpressionAttributeValues={":p": {"N": "1"}})


# ---- KeyConditions, QueryFilter, AttributesToGet: Query -----------------------------------------

ACME = {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "Acme"}]}


@pytest.mark.parametrize("operator, values, expected", [
    ("EQ", ["B"], ["B"]),
    ("LE", ["B"], ["A", "B"]),
    ("LT", ["B"], ["A"]),
    ("GE", ["B"], ["B", "C"]),
    ("GT", ["B"], ["C"]),
    ("BEGINS_WITH", ["C"], ["C"]),
    ("BETWEEN", ["A", "B"], ["A", "B"]),
])
def test_query_key_conditions_on_the_sort_key(music, operator, values, expected):
    response = music.query(TableName="Music", KeyConditions={
        "Artist": ACME,
        "Song": {"ComparisonOperator": operator, "AttributeValueList": [{"S": v} for v in values]}})
    assert songs(response["Items"]) == expected


def test_query_key_conditions_on_the_partition_key_alone(music):
    response = music.query(TableName="Music", KeyConditions={"Artist": ACME}, ScanIndexForward=False)
    assert [i["Song"]["S"] for i in response["Items"]] == ["C", "B", "A"]


@pytest.mark.parametrize("conditions, message", [
    # Rule B.5: an operator no index can serve, on a key attribute (dynalite's tests against the
    # service and DynamoDB Local's error list agree); a range operator on the partition key.
    ({"Artist": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "Acme"}]}},
     "Attempted conditional constraint is not an indexable operation"),
    ({"Artist": ACME, "Song": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "A"}]}},
     "Attempted conditional constraint is not an indexable operation"),
    ({"Artist": {"ComparisonOperator": "NULL"}}, "Attempted conditional constraint is not an indexable operation"),
    ({"Artist": {"ComparisonOperator": "GT", "AttributeValueList": [{"S": "Acme"}]}},
     "Query key condition not supported"),
    ({"Song": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "A"}]}},
     "Query condition missed key schema element: Artist"),
    ({"Artist": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}},
     INVALID + "Condition parameter type does not match schema type"),
    ({"Artist": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}, {"S": "b"}]}},
     INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"),
])
def test_query_key_conditions_refused(music, conditions, message):
    refused(music.query, message, TableName="Music", KeyConditions=conditions)


def test_query_filter_attributes_to_get_and_conditional_operator(music):
    response = music.query(
        TableName="Music", KeyConditions={"Artist": ACME}, AttributesToGet=["Song", "Plays"],
        QueryFilter={"Plays": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "5"}]},
                     "Year": {"ComparisonOperator": "NOT_NULL"}},
        ConditionalOperator="OR")
    assert response["Items"] == [{"Song": {"S": "B"}, "Plays": {"N": "3"}},
                                 {"Song": {"S": "C"}, "Plays": {"N": "7"}}]
    assert (response["Count"], response["ScannedCount"]) == (2, 3)


def test_query_filter_on_a_key_attribute_is_refused(music):
    # The service's wording (dynalite's tests against it, DynamoDB Local's error list).
    refused(music.query, "QueryFilter can only contain non-primary key attributes: Primary key attribute: Song",
            TableName="Music", KeyConditions={"Artist": ACME},
            QueryFilter={"Song": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "A"}]}})


def test_query_key_conditions_with_key_condition_expression_is_refused(music):
    refused(music.query, mixing("KeyConditions", "KeyConditionExpression"), TableName="Music",
            KeyConditions={"Artist": ACME}, KeyConditionExpression="Artist = :a",
            ExpressionAttributeValues={":a": {"S": "Acme"}})


def test_query_filter_with_filter_expression_is_refused(music):
    refused(music.query, mixing("QueryFilter", "FilterExpression"), TableName="Music",
            KeyConditions={"Artist": ACME}, FilterExpression="Plays > :p",
            ExpressionAttributeValues={":p": {"N": "1"}},
            QueryFilter={"Plays": {"ComparisonOperator": "NOT_NULL"}})


def test_query_key_conditions_with_a_filter_expression_is_served(music):
    response = music.query(TableName="Music", KeyConditions={"Artist": ACME}, FilterExpression="Plays > :p",
                           ExpressionAttributeValues={":p": {"N": "5"}})
    assert songs(response["Items"]) == ["A", "C"]


def test_query_attributes_to_get_with_select_count_is_refused(music):
    refused(music.query, "1 validation error detected: "
            "Cannot specify the AttributesToGet when choosing to get only the Count",
            TableName="Music", KeyConditions={"Artist": ACME}, AttributesToGet=["Song"], Select="COUNT")


# ---- ScanFilter, AttributesToGet: Scan; every comparison operator -------------------------------

@pytest.mark.parametrize("attribute, operator, values, expected", [
    ("Plays", "EQ", [{"N": "7"}], ["C"]),
    ("Plays", "NE", [{"N": "7"}], ["A", "B"]),
    ("Year", "NE", [{"N": "1999"}], ["A", "B"]),
    ("Plays", "LE", [{"N": "7"}], ["B", "C"]),
    ("Plays", "LT", [{"N": "7"}], ["B"]),
    ("Plays", "GE", [{"N": "7"}], ["A", "C"]),
    ("Plays", "GT", [{"N": "7"}], ["A"]),
    ("Year", "NOT_NULL", [], ["C"]),
    ("Year", "NULL", [], ["A", "B"]),
    ("Tags", "CONTAINS", [{"S": "rock"}], ["A"]),
    ("Title", "CONTAINS", [{"S": "Hello"}], ["A", "C"]),
    ("Title", "NOT_CONTAINS", [{"S": "Hello"}], ["B"]),
    ("Tags", "NOT_CONTAINS", [{"S": "jazz"}], ["A"]),
    ("Title", "BEGINS_WITH", [{"S": "Good"}], ["B"]),
    ("Plays", "IN", [{"N": "3"}, {"N": "10"}], ["A", "B"]),
    ("Plays", "BETWEEN", [{"N": "5"}, {"N": "10"}], ["A", "C"]),
    ("Title", "GT", [{"N": "1"}], []),
])
def test_scan_filter_comparison_operators(music, attribute, operator, values, expected):
    condition = {"ComparisonOperator": operator}
    if values:
        condition["AttributeValueList"] = values
    response = music.scan(TableName="Music", ScanFilter={attribute: condition})
    assert songs(response["Items"]) == expected
    assert response["ScannedCount"] == 3


@pytest.mark.parametrize("operator, count", [
    ("EQ", 0), ("NE", 2), ("LE", 0), ("LT", 2), ("GE", 0), ("GT", 2), ("NOT_NULL", 1), ("NULL", 1),
    ("CONTAINS", 0), ("NOT_CONTAINS", 2), ("BEGINS_WITH", 0), ("IN", 0), ("BETWEEN", 1), ("BETWEEN", 3),
])
def test_scan_filter_argument_counts(music, operator, count):
    values = [{"S": str(i)} for i in range(count)]
    refused(music.scan, INVALID + f"Invalid number of argument(s) for the {operator} ComparisonOperator",
            TableName="Music", ScanFilter={"Plays": {"ComparisonOperator": operator, "AttributeValueList": values}})


@pytest.mark.parametrize("operator, values, message", [
    ("IN", [{"S": "a"}, {"N": "1"}], INVALID + "AttributeValues inside AttributeValueList must be of same type"),
    # Each value's type against the operator before "same type" (dynalite's test/scan.js, against the service).
    ("BETWEEN", [{"S": "a"}, {"SS": ["a"]}], INVALID + "ComparisonOperator BETWEEN is not valid for SS AttributeValue type"),
    ("IN", [{"N": "1"}, {"BOOL": True}], INVALID + "ComparisonOperator IN is not valid for BOOL AttributeValue type"),
    ("LT", [{"SS": ["a"]}], INVALID + "ComparisonOperator LT is not valid for SS AttributeValue type"),
    ("BEGINS_WITH", [{"N": "1"}], INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"),
    ("BETWEEN", [{"N": "9"}, {"N": "1"}],
     "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"),
])
def test_scan_filter_value_types(music, operator, values, message):
    refused(music.scan, message, TableName="Music",
            ScanFilter={"Plays": {"ComparisonOperator": operator, "AttributeValueList": values}})


# CONTAINS and NOT_CONTAINS take BOOL and NULL values (the service refuses only SS, NS, BS, M and L:
# dynalite's test/query.js, run against it): an element of a list.
@pytest.mark.parametrize("operator, value, expected", [
    ("CONTAINS", {"BOOL": True}, ["D"]),
    ("CONTAINS", {"NULL": True}, ["E"]),
    ("NOT_CONTAINS", {"BOOL": True}, ["E"]),
    ("NOT_CONTAINS", {"NULL": True}, ["D"]),
])
def test_scan_filter_contains_takes_bool_and_null(music, operator, value, expected):
    music.put_item(TableName="Music", Item={**key("D"), "Flags": {"L": [{"BOOL": True}, {"S": "x"}]}})
    music.put_item(TableName="Music", Item={**key("E"), "Flags": {"L": [{"NULL": True}]}})
    response = music.scan(TableName="Music",
                          ScanFilter={"Flags": {"ComparisonOperator": operator, "AttributeValueList": [value]}})
    assert songs(response["Items"]) == expected


def test_expected_contains_a_bool(music):
    music.put_item(TableName="Music", Item={**key("D"), "Flags": {"L": [{"BOOL": False}]}})
    music.put_item(TableName="Music", Item={**key("D"), "Plays": {"N": "1"}},
                   Expected={"Flags": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"BOOL": False}]}})
    refused(music.put_item, "The conditional request failed", code="ConditionalCheckFailedException",
            TableName="Music", Item=key("D"),
            Expected={"Flags": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"BOOL": True}]}})


def test_scan_filter_conditional_operator_and_attributes_to_get(music):
    scan_filter = {"Plays": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "8"}]},
                   "Year": {"ComparisonOperator": "NOT_NULL"}}
    both = music.scan(TableName="Music", ScanFilter=scan_filter, AttributesToGet=["Song"])
    either = music.scan(TableName="Music", ScanFilter=scan_filter, ConditionalOperator="OR",
                        AttributesToGet=["Song"])
    assert both["Items"] == []
    assert sorted(either["Items"], key=lambda i: i["Song"]["S"]) == [{"Song": {"S": "A"}}, {"Song": {"S": "C"}}]


def test_scan_attributes_to_get(music):
    items = music.scan(TableName="Music", AttributesToGet=["Title"])["Items"]
    assert sorted(i["Title"]["S"] for i in items) == ["Goodbye", "Hello Again", "Hello World"]
    assert all(list(i) == ["Title"] for i in items)


def test_scan_filter_with_filter_expression_is_refused(music):
    refused(music.scan, mixing("ScanFilter", "FilterExpression"), TableName="Music",
            ScanFilter={"Plays": {"ComparisonOperator": "NOT_NULL"}}, FilterExpression="attribute_exists(Plays)")


def test_scan_attributes_to_get_with_projection_expression_is_refused(music):
    refused(music.scan, mixing("AttributesToGet", "ProjectionExpression"), TableName="Music",
            AttributesToGet=["Song"], ProjectionExpression="Song")


def test_query_key_conditions_on_a_global_secondary_index(client):
    client.create_table(
        TableName="Plays", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"},
                              {"AttributeName": "Song", "AttributeType": "S"},
                              {"AttributeName": "Genre", "AttributeType": "S"},
                              {"AttributeName": "Plays", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"},
                   {"AttributeName": "Song", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByGenre",
            "KeySchema": [{"AttributeName": "Genre", "KeyType": "HASH"},
                          {"AttributeName": "Plays", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"},
        }])
    for song, plays in [("A", "10"), ("B", "3"), ("C", "7")]:
        client.put_item(TableName="Plays", Item={**key(song), "Genre": {"S": "ska"}, "Plays": {"N": plays}})
    response = client.query(TableName="Plays", IndexName="ByGenre", AttributesToGet=["Song"], KeyConditions={
        "Genre": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "ska"}]},
        "Plays": {"ComparisonOperator": "GE", "AttributeValueList": [{"N": "5"}]}})
    assert response["Items"] == [{"Song": {"S": "C"}}, {"Song": {"S": "A"}}]


def test_expression_attribute_names_without_an_expression_are_refused(music):
    refused(music.get_item,
            "ExpressionAttributeNames can only be specified when using expressions",
            TableName="Music", Key=key("A"), AttributesToGet=["Plays"], ExpressionAttributeNames={"#p": "Plays"})


# ConditionalOperator with nothing to join (a map of Expected, QueryFilter or ScanFilter with two
# or more entries) is refused, right after the mixing check and before the table is looked up.
WITHOUT_FILTER = "ConditionalOperator cannot be used without Filter or Expected"
ONE_ELEMENT = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
PLAYS_LT_5 = {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "5"}]}


@pytest.mark.parametrize("operation, params, message", [
    ("scan", dict(ConditionalOperator="AND"), WITHOUT_FILTER),
    ("scan", dict(ConditionalOperator="OR", ScanFilter={}), WITHOUT_FILTER),
    ("scan", dict(ConditionalOperator="OR", AttributesToGet=["Song"]), WITHOUT_FILTER),
    ("scan", dict(ConditionalOperator="OR", ScanFilter={"Plays": PLAYS_LT_5}), ONE_ELEMENT),
    ("query", dict(ConditionalOperator="AND"), WITHOUT_FILTER),
    ("query", dict(ConditionalOperator="AND", KeyConditions={"Artist": ACME}), WITHOUT_FILTER),
    ("query", dict(ConditionalOperator="OR", KeyConditions={"Artist": ACME}, QueryFilter={"Plays": PLAYS_LT_5}),
     ONE_ELEMENT),
    ("put_item", dict(Item=key("Z"), ConditionalOperator="AND"), WRITE + WITHOUT_FILTER),
    ("put_item", dict(Item=key("Z"), ConditionalOperator="OR", Expected={}), WRITE + WITHOUT_FILTER),
    ("put_item", dict(Item=key("Z"), ConditionalOperator="AND", Expected={"Plays": PLAYS_LT_5}),
     WRITE + ONE_ELEMENT),
    ("delete_item", dict(Key=key("A"), ConditionalOperator="AND"), WRITE + WITHOUT_FILTER),
    ("delete_item", dict(Key=key("A"), ConditionalOperator="OR", Expected={"Plays": PLAYS_LT_5}),
     WRITE + ONE_ELEMENT),
    ("update_item", dict(Key=key("A"), ConditionalOperator="AND",
                         AttributeUpdates={"Plays": {"Action": "PUT", "Value": {"N": "1"}}}),
     WRITE + WITHOUT_FILTER),
    ("update_item", dict(Key=key("A"), ConditionalOperator="AND"), WRITE + WITHOUT_FILTER),
    ("update_item", dict(Key=key("A"), ConditionalOperator="OR", Expected={"Plays": PLAYS_LT_5}),
     WRITE + ONE_ELEMENT),
])
@pytest.mark.parametrize("table", ["Music", "Missing"])
def test_conditional_operator_without_two_conditions_is_refused(music, raw, operation, params, message, table):
    refused(getattr(raw, operation), message, TableName=table, **params)
    assert music.get_item(TableName="Music", Key=key("A"))["Item"]["Plays"] == {"N": "10"}
    assert "Item" not in music.get_item(TableName="Music", Key=key("Z"))


def test_conditional_operator_mixed_with_an_expression_is_refused_as_mixing(music):
    # The mixing message comes first, even with nothing for the operator to join.
    refused(music.scan, mixing("ConditionalOperator", "FilterExpression"), TableName="Music",
            ConditionalOperator="AND", FilterExpression="Plays > :p", ExpressionAttributeValues={":p": {"N": "1"}})
    refused(music.put_item, WRITE + mixing("ConditionalOperator", "ConditionExpression"), TableName="Music",
            Item=key("Z"), ConditionalOperator="AND", ConditionExpression="attribute_not_exists(Song)")
