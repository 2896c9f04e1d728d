"""The simulations of issue 18.7 as boto3 meets them on a real dynotable-local:

- `--enforce-capacity`: a provisioned table throttles with ProvisionedThroughputExceededException
  once its burst (300 s of its units) is spent, and botocore's own retry loop retries the
  throttled request until it succeeds, or gives up with the exception when its attempts run
  out; an on-demand table throttles one hot partition-key value past 1,000 write units a second.
- `--eventual-lag MS --seed N`: eventually consistent reads (GetItem, BatchGetItem, Query, Scan,
  and PartiQL SELECTs, which run as these) may miss a write just made; strongly consistent ones
  never do.

The throttling tests run the server with `--clock-step S` (a test aid): its clock moves S seconds
as each request arrives and not otherwise, so the token buckets refill by the number of requests
made, never by how fast the machine served them, and each test can say which request is the first
one throttled. botocore's retry loop is the real one (its back-off sleeps are real; each attempt
is a request, so moves the server's clock a step). The eventual-lag tests keep the real clock: a
lag of ten minutes makes a read soon after a write stale on any machine.
Rule B.19 and B.20 in docs/dynamodb-rules.md.
"""

import botocore.config
import pytest
from botocore.exceptions import ClientError

from conftest import CLIENT_CONFIG, Server, session

TABLE_MESSAGE = ("The level of configured provisioned throughput for the table was exceeded. "
                 "Consider increasing your provisioning level with the UpdateTable API.")
# The eventual lag of the reads below: ten minutes, far longer than a test runs on the slowest
# machine, so the reads made soon after the writes are drawn stale whatever the machine's speed.
LAG_MS = "600000"
KEY_RANGE_MESSAGE = ("Throughput exceeds the current capacity of your table or index. DynamoDB is "
                     "automatically scaling your table or index so please try again shortly. If "
                     "exceptions persist, check if you have a hot key: "
                     "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html")


@pytest.fixture
def start(tmp_path):
    """Starts a `dynotable-local --in-memory` with more arguments; stopped when the test ends."""
    servers = []

    def started(*args):
        servers.append(Server(["--in-memory", *args], tmp_path / f"dynotable-local-{len(servers)}.stderr"))
        return servers[-1]

    try:
        yield started
    finally:
        for server in servers:
            server.stop()


def client_of(server, max_attempts):
    """A client making at most `max_attempts` attempts per call (botocore's `max_attempts` counts
    retries, `total_max_attempts` attempts)."""
    config = CLIENT_CONFIG.merge(botocore.config.Config(
        retries={"mode": "standard", "total_max_attempts": max_attempts}))
    return session().client("dynamodb", endpoint_url=server.endpoint, config=config)


def create_table(client, **billing):
    client.create_table(
        TableName="Tbl",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        **billing,
    )


ONE_UNIT = {"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}
# The server's clock moves one second at each request: a one-unit table banks one unit a request.
A_SECOND_A_REQUEST = ("--enforce-capacity", "--clock-step", "1")
# A tenth of a second at each request: a partition gets back 100 write or 300 read units a request.
A_TENTH_A_REQUEST = ("--enforce-capacity", "--clock-step", "0.1")


def put(client, sk, value="x", pk="a"):
    return client.put_item(TableName="Tbl", Item={"pk": {"S": pk}, "sk": {"N": str(sk)}, "v": {"S": value}},
                           ReturnConsumedCapacity="TOTAL")


def assert_throttled(error, message, reason):
    assert error.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert error.response["Error"]["Message"] == message
    assert error.response["ThrottlingReasons"][0]["reason"] == reason
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_a_throttled_write_is_retried_by_botocore_until_the_table_has_capacity(start):
    local = start(*A_SECOND_A_REQUEST)
    single = client_of(local, 1)
    create_table(single, **ONE_UNIT)
    # A 302 KB item costs 303 write units: the 300 banked ones and 3 in debt.
    units = put(single, 0, "x" * (302 * 1024))["ConsumedCapacity"]["CapacityUnits"]
    assert units == 303
    # The next request brings the bucket back to -2 units: throttled.
    with pytest.raises(ClientError) as throttled:
        put(single, 1)
    assert_throttled(throttled.value, TABLE_MESSAGE, "TableWriteProvisionedThroughputExceeded")
    assert throttled.value.response["ResponseMetadata"]["RetryAttempts"] == 0
    # botocore's standard retry mode backs off and tries again: its first attempt finds -1 unit,
    # its first retry 0, its second retry the one unit a request needs.
    retrying = client_of(local, 20)
    answer = put(retrying, 1)
    assert answer["ResponseMetadata"]["HTTPStatusCode"] == 200
    assert answer["ResponseMetadata"]["RetryAttempts"] == 2
    item = single.get_item(TableName="Tbl", Key={"pk": {"S": "a"}, "sk": {"N": "1"}}, ConsistentRead=True)
    assert item["Item"]["v"] == {"S": "x"}


def test_botocore_gives_up_with_the_exception_when_its_attempts_run_out(start):
    local = start(*A_SECOND_A_REQUEST)
    client = client_of(local, 3)
    create_table(client, **ONE_UNIT)
    # 51 units of debt: a one-unit table is throttled for the next 51 requests.
    assert put(client, 0, "x" * (350 * 1024))["ConsumedCapacity"]["CapacityUnits"] == 351
    with pytest.raises(ClientError) as gave_up:
        put(client, 1)
    assert_throttled(gave_up.value, TABLE_MESSAGE, "TableWriteProvisionedThroughputExceeded")
    assert gave_up.value.response["ResponseMetadata"]["RetryAttempts"] == 2
    assert gave_up.value.response["ThrottlingReasons"][0]["resource"].endswith(":table/Tbl")
    # The throttled write changed nothing; reads are metered apart and still served.
    missing = client.get_item(TableName="Tbl", Key={"pk": {"S": "a"}, "sk": {"N": "1"}}, ConsistentRead=True)
    assert "Item" not in missing


def test_an_on_demand_table_throttles_a_hot_partition_key(start):
    local = start(*A_TENTH_A_REQUEST)
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    # 390 KB items under one partition-key value, 391 write units each, against a partition's
    # 1,000 a second (and one second of burst), 100 of them back at each request: the partition
    # holds 1,000, then 609, 318, 27 and -264 after each put, and the fifth put finds -164.
    big = "x" * (390 * 1024)
    for sk in range(4):
        assert put(client, sk, big, pk="hot")["ConsumedCapacity"]["CapacityUnits"] == 391
    with pytest.raises(ClientError) as throttled:
        put(client, 4, big, pk="hot")
    assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableWriteKeyRangeThroughputExceeded")
    # Another partition-key value is another partition.
    put(client, 0, pk="cold")


def test_a_batch_write_returns_the_requests_on_a_throttled_table_unprocessed(start):
    local = start(*A_SECOND_A_REQUEST)
    client = client_of(local, 1)
    create_table(client, **ONE_UNIT)
    client.create_table(TableName="Other", AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
                        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}], **ONE_UNIT)
    # 51 units of debt on Tbl, a unit back at each request; Other untouched.
    put(client, 0, "x" * (350 * 1024))
    tbl_requests = [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}]
    answer = client.batch_write_item(RequestItems={
        "Tbl": tbl_requests,
        "Other": [{"PutRequest": {"Item": {"id": {"S": "o1"}}}}],
    })
    assert answer["UnprocessedItems"] == {"Tbl": tbl_requests}
    assert client.get_item(TableName="Other", Key={"id": {"S": "o1"}}, ConsistentRead=True)["Item"]
    # With only the throttled table left, the batch fails as a whole.
    with pytest.raises(ClientError) as throttled:
        client.batch_write_item(RequestItems={"Tbl": tbl_requests})
    assert_throttled(throttled.value, TABLE_MESSAGE, "TableWriteProvisionedThroughputExceeded")


BIG = "x" * (390 * 1024)  # about 391 write units, 98 strongly consistent read units


def big_item(pk, sk):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "v": {"S": BIG}}


def load_hot_partition(client):
    """A batch of 25 writes of 390 KB to the partition-key value `hot` of an on-demand table:
    admitted at once (the partition's bucket is full), it leaves the partition 8,775 write units
    in debt, 88 requests' refill at a step of 0.1 s."""
    requests = [{"PutRequest": {"Item": big_item("hot", sk)}} for sk in range(25)]
    assert client.batch_write_item(RequestItems={"Tbl": requests})["UnprocessedItems"] == {}


def test_a_batch_write_returns_the_requests_on_a_hot_partition_unprocessed(start):
    local = start(*A_TENTH_A_REQUEST)
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    load_hot_partition(client)
    hot = {"PutRequest": {"Item": {"pk": {"S": "hot"}, "sk": {"N": "100"}}}}
    cold = {"PutRequest": {"Item": {"pk": {"S": "cold"}, "sk": {"N": "100"}}}}
    answer = client.batch_write_item(RequestItems={"Tbl": [hot, cold]})
    assert answer["UnprocessedItems"] == {"Tbl": [hot]}
    key = {"pk": {"S": "cold"}, "sk": {"N": "100"}}
    assert client.get_item(TableName="Tbl", Key=key, ConsistentRead=True)["Item"] == key
    assert "Item" not in client.get_item(TableName="Tbl", Key={"pk": {"S": "hot"}, "sk": {"N": "100"}},
                                         ConsistentRead=True)
    # With only requests on the hot partition, the batch fails as a whole.
    with pytest.raises(ClientError) as throttled:
        client.batch_write_item(RequestItems={"Tbl": [hot]})
    assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableWriteKeyRangeThroughputExceeded")


def test_a_transaction_with_an_action_on_a_hot_partition_is_cancelled(start):
    local = start(*A_TENTH_A_REQUEST)
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    load_hot_partition(client)
    with pytest.raises(ClientError) as cancelled:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "cold"}, "sk": {"N": "1"}}}},
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "hot"}, "sk": {"N": "100"}}}},
        ])
    error = cancelled.value.response
    assert error["Error"]["Code"] == "TransactionCanceledException"
    assert error["Error"]["Message"] == "Transaction cancelled, please refer cancellation reasons for specific " \
        "reasons [None, ThrottlingError]"
    assert [(r["Code"], r.get("Message")) for r in error["CancellationReasons"]] == [
        ("None", None), ("ThrottlingError", KEY_RANGE_MESSAGE)]
    # Nothing of the transaction was written.
    assert "Item" not in client.get_item(TableName="Tbl", Key={"pk": {"S": "cold"}, "sk": {"N": "1"}},
                                         ConsistentRead=True)


def test_a_partition_is_its_canonical_key_value(start):
    local = start(*A_TENTH_A_REQUEST)
    client = client_of(local, 1)
    client.create_table(TableName="Nums", BillingMode="PAY_PER_REQUEST",
                        AttributeDefinitions=[{"AttributeName": "n", "AttributeType": "N"},
                                              {"AttributeName": "sk", "AttributeType": "N"}],
                        KeySchema=[{"AttributeName": "n", "KeyType": "HASH"},
                                   {"AttributeName": "sk", "KeyType": "RANGE"}])
    requests = [{"PutRequest": {"Item": {"n": {"N": "1"}, "sk": {"N": str(sk)}, "v": {"S": BIG}}}}
                for sk in range(25)]
    assert client.batch_write_item(RequestItems={"Nums": requests})["UnprocessedItems"] == {}
    # 1.0 and 10E-1 are the number 1: the same key, so the same hot partition.
    for spelling in ["1.0", "10E-1", "1"]:
        with pytest.raises(ClientError) as throttled:
            client.put_item(TableName="Nums", Item={"n": {"N": spelling}, "sk": {"N": "100"}})
        assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableWriteKeyRangeThroughputExceeded")
    client.put_item(TableName="Nums", Item={"n": {"N": "2"}, "sk": {"N": "100"}})


def no_retries(server):
    """A client that never retries (botocore's `max_attempts` counts retries)."""
    config = CLIENT_CONFIG.merge(botocore.config.Config(retries={"max_attempts": 0}))
    return session().client("dynamodb", endpoint_url=server.endpoint, config=config)


def test_a_batch_charges_each_item_its_own_units_on_its_own_partition(start):
    # Rule B.3: a batch write rounds each item up to 1 KB on its own. Seven writes of 390 KB to
    # `hot` (2,737 units) beside eighteen small ones on other partitions: `hot` alone is left
    # 1,737 units in debt, 100 back at each request, and the small items' partitions were
    # charged a unit each. (An even split of the batch's charge would have left `hot` some 230
    # units in hand.)
    local = start(*A_TENTH_A_REQUEST)
    client = no_retries(local)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    requests = ([{"PutRequest": {"Item": big_item("hot", sk)}} for sk in range(7)]
                + [{"PutRequest": {"Item": {"pk": {"S": f"cold{i}"}, "sk": {"N": "0"}}}} for i in range(18)])
    assert client.batch_write_item(RequestItems={"Tbl": requests})["UnprocessedItems"] == {}
    with pytest.raises(ClientError) as throttled:
        client.put_item(TableName="Tbl", Item={"pk": {"S": "hot"}, "sk": {"N": "100"}})
    assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableWriteKeyRangeThroughputExceeded")
    for i in range(18):
        client.put_item(TableName="Tbl", Item={"pk": {"S": f"cold{i}"}, "sk": {"N": "1"}})


def test_a_transaction_charges_each_action_its_own_units_on_its_own_partition(start):
    # Rule B.3: 2 units per KB per item. Three writes of 390 KB to `hot` (2,346 units) beside 97
    # small ones: `hot` alone is left 1,346 units in debt, 100 back at each request. (An even
    # split of the transaction's charge would have put some 80 units on it.)
    local = start(*A_TENTH_A_REQUEST)
    client = no_retries(local)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    actions = ([{"Put": {"TableName": "Tbl", "Item": big_item("hot", sk)}} for sk in range(3)]
               + [{"Put": {"TableName": "Tbl", "Item": {"pk": {"S": f"cold{i}"}, "sk": {"N": "0"}}}}
                  for i in range(97)])
    client.transact_write_items(TransactItems=actions)
    with pytest.raises(ClientError) as cancelled:
        client.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "cold0"}, "sk": {"N": "1"}}}},
            {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "hot"}, "sk": {"N": "100"}}}},
        ])
    assert [r["Code"] for r in cancelled.value.response["CancellationReasons"]] == ["None", "ThrottlingError"]
    client.transact_write_items(TransactItems=[
        {"Put": {"TableName": "Tbl", "Item": {"pk": {"S": f"cold{i}"}, "sk": {"N": "1"}}}} for i in range(97)])


def insert_without_throttling(client, items):
    """Writes `items` with PartiQL, which is charged but never throttled (docs/compatibility.md):
    a partition can hold more than a second of its read ceiling without waiting for its writes."""
    for start in range(0, len(items), 25):
        statements = [{"Statement": "INSERT INTO Tbl VALUE {'pk': ?, 'sk': ?, 'v': ?}",
                       "Parameters": [item["pk"], item["sk"], item["v"]]} for item in items[start:start + 25]]
        answers = client.batch_execute_statement(Statements=statements)["Responses"]
        assert all("Error" not in answer for answer in answers), answers


def test_reads_draw_on_the_partition_they_read(start):
    local = start(*A_TENTH_A_REQUEST)
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    insert_without_throttling(client, [big_item("hot", sk) for sk in range(40)])
    client.put_item(TableName="Tbl", Item={"pk": {"S": "cold"}, "sk": {"N": "0"}})
    hot_keys = [{"pk": {"S": "hot"}, "sk": {"N": str(sk)}} for sk in range(40)]
    cold_key = {"pk": {"S": "cold"}, "sk": {"N": "0"}}

    def batch_get(keys):
        # A projection does not lower the cost, and keeps the answer small.
        return client.batch_get_item(RequestItems={"Tbl": {"Keys": keys, "ConsistentRead": True,
                                                           "ProjectionExpression": "pk, sk"}},
                                     ReturnConsumedCapacity="TOTAL")

    # A strongly consistent read of the forty items costs 40 × 98 units, more than the
    # partition's 3,000 a second: admitted on a full bucket, it leaves the partition 920 units in
    # debt, 300 back at each request.
    first = batch_get(hot_keys)
    assert first["ConsumedCapacity"][0]["CapacityUnits"] == 3920
    assert first["UnprocessedKeys"] == {}

    # At -620, a batch whose every key is on the hot partition fails as a whole.
    with pytest.raises(ClientError) as throttled:
        batch_get(hot_keys)
    assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableReadKeyRangeThroughputExceeded")

    # At -320, one with a key elsewhere returns the hot keys unprocessed.
    answer = batch_get(hot_keys + [cold_key])
    assert answer["UnprocessedKeys"]["Tbl"]["Keys"] == hot_keys
    assert answer["UnprocessedKeys"]["Tbl"]["ConsistentRead"] is True
    assert answer["Responses"]["Tbl"] == [cold_key]

    # At -20, a Query reads one partition, and draws on it.
    with pytest.raises(ClientError) as throttled:
        client.query(TableName="Tbl", KeyConditionExpression="pk = :p", ConsistentRead=True,
                     ExpressionAttributeValues={":p": {"S": "hot"}}, Select="COUNT")
    assert_throttled(throttled.value, KEY_RANGE_MESSAGE, "TableReadKeyRangeThroughputExceeded")
    # Another partition of the same table is served.
    cold = client.query(TableName="Tbl", KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": {"S": "cold"}})
    assert cold["Count"] == 1


def test_without_the_switch_nothing_is_throttled(start):
    local = start()
    client = client_of(local, 1)
    create_table(client, **ONE_UNIT)
    put(client, 0, "x" * (350 * 1024))
    for sk in range(1, 20):
        put(client, sk)


def test_eventually_consistent_reads_may_miss_a_fresh_write_and_consistent_reads_never(start):
    local = start("--eventual-lag", LAG_MS, "--seed", "11")
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    put(client, 1, "one")
    put(client, 1, "two")
    key = {"pk": {"S": "a"}, "sk": {"N": "1"}}
    # Reads soon after the writes, each drawn up to ten minutes stale: most of them see the
    # table before the second write, or before both.
    seen = [client.get_item(TableName="Tbl", Key=key).get("Item", {}).get("v", {}).get("S") for _ in range(40)]
    assert any(value != "two" for value in seen), seen
    assert set(seen) <= {None, "one", "two"}
    for _ in range(40):
        assert client.get_item(TableName="Tbl", Key=key, ConsistentRead=True)["Item"]["v"] == {"S": "two"}
    batch = client.batch_get_item(RequestItems={"Tbl": {"Keys": [key], "ConsistentRead": True}})
    assert batch["Responses"]["Tbl"][0]["v"] == {"S": "two"}


def test_an_eventually_consistent_gsi_query_may_miss_a_fresh_write(start):
    local = start("--eventual-lag", LAG_MS, "--seed", "12")
    client = client_of(local, 1)
    client.create_table(
        TableName="Tbl",
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}],
    )
    client.put_item(TableName="Tbl", Item={"pk": {"S": "p1"}, "g": {"S": "x"}})

    def members(**consistency):
        answer = client.query(TableName="Tbl", IndexName="ByG", KeyConditionExpression="g = :g",
                              ExpressionAttributeValues={":g": {"S": "x"}}, **consistency)
        return [item["pk"]["S"] for item in answer["Items"]]

    # Soon after the write, each query drawn up to ten minutes stale.
    seen = [members() for _ in range(40)]
    assert [] in seen, seen
    assert all(m in ([], ["p1"]) for m in seen), seen
    # A strongly consistent read of the table sees it; a GSI refuses ConsistentRead.
    table = client.query(TableName="Tbl", KeyConditionExpression="pk = :p",
                         ExpressionAttributeValues={":p": {"S": "p1"}}, ConsistentRead=True)
    assert [item["pk"]["S"] for item in table["Items"]] == ["p1"]
    with pytest.raises(ClientError) as refused:
        members(ConsistentRead=True)
    assert refused.value.response["Error"]["Code"] == "ValidationException"


def test_an_eventually_consistent_scan_may_miss_a_fresh_write_and_a_consistent_one_never(start):
    local = start("--eventual-lag", LAG_MS, "--seed", "13")
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    put(client, 1, "one")
    put(client, 1, "two")
    put(client, 2, "new")
    client.delete_item(TableName="Tbl", Key={"pk": {"S": "b"}, "sk": {"N": "0"}})  # nothing to delete
    put(client, 0, "gone", pk="b")
    client.delete_item(TableName="Tbl", Key={"pk": {"S": "b"}, "sk": {"N": "0"}})

    def scanned(**params):
        items = client.scan(TableName="Tbl", **params)["Items"]
        return sorted((item["pk"]["S"], int(item["sk"]["N"]), item["v"]["S"]) for item in items)

    now = [("a", 1, "two"), ("a", 2, "new")]
    # Scans soon after the writes, each drawn up to ten minutes stale: some see the table before
    # the last writes (an older value, an item not yet there, a deleted one still
    # there), and each sees one instant of it.
    seen = [scanned() for _ in range(40)]
    assert any(s != now for s in seen), seen
    states = [[], [("a", 1, "one")], [("a", 1, "two")], [("a", 1, "two"), ("a", 2, "new")],
              [("a", 1, "two"), ("a", 2, "new"), ("b", 0, "gone")], now]
    assert all(s in states for s in seen), seen
    for _ in range(20):
        assert scanned(ConsistentRead=True) == now
    # A page at a time: each page of an eventually consistent Scan draws its own instant, and
    # goes on after the key where the last one stopped.
    for _ in range(10):
        pages, params = [], {"Limit": 1}
        while True:
            answer = client.scan(TableName="Tbl", **params)
            pages += [(i["pk"]["S"], int(i["sk"]["N"])) for i in answer["Items"]]
            if "LastEvaluatedKey" not in answer:
                break
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        assert len(pages) == len(set(pages)) and set(pages) <= {("a", 1), ("a", 2), ("b", 0)}, pages
    for _ in range(10):
        pages, params = [], {"Limit": 1, "ConsistentRead": True}
        while True:
            answer = client.scan(TableName="Tbl", **params)
            pages += [(i["pk"]["S"], int(i["sk"]["N"]), i["v"]["S"]) for i in answer["Items"]]
            if "LastEvaluatedKey" not in answer:
                break
            params["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        assert sorted(pages) == now


def test_a_partiql_select_lags_unless_consistent(start):
    local = start("--eventual-lag", LAG_MS, "--seed", "14")
    client = client_of(local, 1)
    create_table(client, BillingMode="PAY_PER_REQUEST")
    put(client, 1, "one")
    put(client, 1, "two")

    def selected(statement, **params):
        items = client.execute_statement(Statement=statement, **params)["Items"]
        return [item["v"]["S"] for item in items]

    # A whole-table SELECT runs as a Scan, one with the key as a GetItem.
    for statement in ['SELECT * FROM "Tbl"', "SELECT * FROM \"Tbl\" WHERE pk = 'a' AND sk = 1"]:
        seen = [selected(statement) for _ in range(40)]
        assert any(s != ["two"] for s in seen), (statement, seen)
        assert all(s in ([], ["one"], ["two"]) for s in seen), (statement, seen)
        for _ in range(20):
            assert selected(statement, ConsistentRead=True) == ["two"]
