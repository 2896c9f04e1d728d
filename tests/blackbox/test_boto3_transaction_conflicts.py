"""Transaction conflicts over the wire, with boto3 (DG transaction-apis.html, "Transaction conflict
handling in DynamoDB").

A transaction is kept ongoing the way a slow commit keeps it: this process holds SQLite's write lock
on the server's database file (`BEGIN IMMEDIATE` with Python's sqlite3), so dynotable-local admits
the TransactWriteItems and then waits at its own `BEGIN IMMEDIATE`. That the transaction has been
admitted is observed through the API — a TransactGetItems of its item is cancelled with
TransactionConflict — never guessed from a sleep. Then other requests meet it, the lock is let go,
and the transaction commits.

The server waits for the lock for as long as this test holds it: its busy timeout (10 s unless
told) would otherwise make the transaction fail on a machine slow enough to take 10 s over the
requests made meanwhile. `--busy-timeout 3600` puts that out of reach; the test itself always lets
the lock go (its `finally`), so the wait ends when the test says, never at the timeout.
"""

import concurrent.futures
import sqlite3

import pytest

from conftest import PETS, Server, session, CLIENT_CONFIG

ONGOING = "Transaction is ongoing for the item"


def key(animal, name):
    return {"AnimalType": {"S": animal}, "Name": {"S": name}}


@pytest.fixture
def file_server(tmp_path):
    server = Server(["--db", str(tmp_path / "pets.sqlite"), "--busy-timeout", "3600"],
                    tmp_path / "dynotable-local.stderr")
    server.db = tmp_path / "pets.sqlite"
    try:
        yield server
    finally:
        server.stop()


def client_of(server):
    return session().client("dynamodb", endpoint_url=server.endpoint, config=CLIENT_CONFIG)


def cancelled_by_conflict(client, keys):
    """A TransactGetItems of `keys`; the ClientError if it was cancelled, else None."""
    try:
        client.transact_get_items(TransactItems=[{"Get": {"TableName": "Pets", "Key": k}} for k in keys])
        return None
    except client.exceptions.TransactionCanceledException as error:
        return error


def until_ongoing(client, item, writing):
    """Asks (TransactGetItems) until a write request holds `item`; returns the cancellation.
    `writing` is the future of that request: it cannot end while this test holds the lock, so
    its end (a failure) fails the test at once."""
    for _ in range(2000):
        error = cancelled_by_conflict(client, [key("Cat", "Nobody"), item])
        if error is not None:
            return error
        if writing.done():
            outcome = writing.exception() or writing.result()
            pytest.fail(f"the write request for {item} ended while the lock was held: {outcome!r}")
    pytest.fail(f"no write request ever held {item}")


def test_requests_meeting_an_ongoing_transaction_conflict_until_it_commits(file_server):
    client = client_of(file_server)
    client.create_table(**PETS)
    client.put_item(TableName="Pets", Item={**key("Dog", "Fido"), "Age": {"N": "3"}})
    # SQLite's write lock on the server's file, held by this process.
    conn = sqlite3.connect(file_server.db, isolation_level=None, timeout=10)
    conn.execute("BEGIN IMMEDIATE")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            ongoing = pool.submit(client_of(file_server).transact_write_items, TransactItems=[
                {"Put": {"TableName": "Pets", "Item": {**key("Dog", "Rex"), "Age": {"N": "7"}}}},
                {"Update": {"TableName": "Pets", "Key": key("Dog", "Fido"), "UpdateExpression": "SET Age = Age + :one",
                            "ExpressionAttributeValues": {":one": {"N": "1"}}}},
            ])
            error = until_ongoing(client, key("Dog", "Fido"), ongoing)
            assert error.response["Error"] == {
                "Code": "TransactionCanceledException",
                "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons "
                           "[None, TransactionConflict]"}
            assert error.response["CancellationReasons"] == [
                {"Code": "None"}, {"Code": "TransactionConflict", "Message": ONGOING}]

            # PutItem, UpdateItem and DeleteItem of an item in the transaction fail at once.
            calls = [
                lambda: client.put_item(TableName="Pets", Item={**key("Dog", "Rex"), "Age": {"N": "1"}}),
                lambda: client.update_item(TableName="Pets", Key=key("Dog", "Fido"), UpdateExpression="SET Age = :a",
                                           ExpressionAttributeValues={":a": {"N": "9"}}),
                lambda: client.delete_item(TableName="Pets", Key=key("Dog", "Rex"), ReturnConsumedCapacity="TOTAL"),
            ]
            for call in calls:
                with pytest.raises(client.exceptions.TransactionConflictException) as raised:
                    call()
                response = raised.value.response
                assert response["Error"] == {"Code": "TransactionConflictException", "Message": ONGOING}
                assert response["ResponseMetadata"]["HTTPStatusCode"] == 400
                assert "ConsumedCapacity" not in response

            # Another transaction including one of its items is cancelled, in request order (boto3
            # sends a ClientRequestToken of its own with each: tokens do not make it wait).
            with pytest.raises(client.exceptions.TransactionCanceledException) as raised:
                client.transact_write_items(TransactItems=[
                    {"Delete": {"TableName": "Pets", "Key": key("Dog", "Rex")}},
                    {"Put": {"TableName": "Pets", "Item": key("Cat", "Tom")}},
                ])
            assert raised.value.response["CancellationReasons"] == [
                {"Code": "TransactionConflict", "Message": ONGOING}, {"Code": "None"}]

            # A BatchWriteItem's request for an item in the transaction comes back unprocessed; its
            # other request waits for the writer like any write.
            batch = pool.submit(client_of(file_server).batch_write_item, RequestItems={"Pets": [
                {"PutRequest": {"Item": {**key("Bird", "Tweety"), "Age": {"N": "1"}}}},
                {"DeleteRequest": {"Key": key("Dog", "Fido")}},
            ]})
            until_ongoing(client, key("Bird", "Tweety"), batch)

            # Reads do not conflict: they see the committed state.
            assert client.get_item(TableName="Pets", Key=key("Dog", "Fido"))["Item"]["Age"] == {"N": "3"}

            conn.execute("ROLLBACK")
            ongoing.result(timeout=30)
            assert batch.result(timeout=30)["UnprocessedItems"] == {
                "Pets": [{"DeleteRequest": {"Key": key("Dog", "Fido")}}]}
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()

    items = client.scan(TableName="Pets", ConsistentRead=True)["Items"]
    assert sorted((i["AnimalType"]["S"], i["Name"]["S"], i["Age"]["N"]) for i in items) == [
        ("Bird", "Tweety", "1"), ("Dog", "Fido", "4"), ("Dog", "Rex", "7")]
    # The transaction is over: the same requests go through.
    client.put_item(TableName="Pets", Item={**key("Dog", "Rex"), "Age": {"N": "1"}})
    client.transact_get_items(TransactItems=[{"Get": {"TableName": "Pets", "Key": key("Dog", "Fido")}}])
    client.transact_write_items(TransactItems=[
        {"ConditionCheck": {"TableName": "Pets", "Key": key("Dog", "Fido"),
                            "ConditionExpression": "Age = :four", "ExpressionAttributeValues": {":four": {"N": "4"}}}},
    ])
