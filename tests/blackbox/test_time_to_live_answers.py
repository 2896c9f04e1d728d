"""UpdateTimeToLive and DescribeTimeToLive answer as dynalite's tests recorded the service
(test/updateTimeToLive.js, test/describeTimeToLive.js; docs/dynamodb-rules.md B.17): a missing
table in the control plane's words, an empty AttributeName in a sentence of its own after the
member list, and enabling or disabling twice refused."""

from conftest import error

SPEC = {"AttributeName": "expires", "Enabled": True}


def not_found(name):
    return ("ResourceNotFoundException", f"Requested resource not found: Table: {name} not found")


def test_a_missing_table_is_named(client):
    assert error(client.describe_time_to_live, TableName="Missing") == not_found("Missing")
    assert error(client.update_time_to_live, TableName="Missing", TimeToLiveSpecification=SPEC) \
        == not_found("Missing")


def test_an_empty_attribute_name_has_its_own_sentence(raw):
    # Before the table is looked up (the table does not exist), after the member list.
    assert error(raw.update_time_to_live, TableName="Missing",
                 TimeToLiveSpecification={"AttributeName": "", "Enabled": True}) \
        == ("ValidationException", "TimeToLiveSpecification.AttributeName must be non empty")
    assert error(raw.update_time_to_live, TableName="abc;",
                 TimeToLiveSpecification={"AttributeName": "", "Enabled": True}) == (
        "ValidationException", "1 validation error detected: Value 'abc;' at 'tableName' failed to satisfy "
        "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+")


def test_enabling_or_disabling_twice_is_refused(pets):
    off = {"AttributeName": "expires", "Enabled": False}
    assert error(pets.update_time_to_live, TableName="Pets", TimeToLiveSpecification=off) \
        == ("ValidationException", "TimeToLive is already disabled")
    assert pets.update_time_to_live(TableName="Pets", TimeToLiveSpecification=SPEC)["TimeToLiveSpecification"] == SPEC
    assert error(pets.update_time_to_live, TableName="Pets", TimeToLiveSpecification=SPEC) \
        == ("ValidationException", "TimeToLive is already enabled")
    assert pets.describe_time_to_live(TableName="Pets")["TimeToLiveDescription"] \
        == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}
