"""boto3 against dynotable-local: the size limits of the reads that return many items
(docs/dynamodb-rules.md B.7, items sized by rule B.1)."""

import pytest
from botocore.exceptions import ClientError

BIG = dict(TableName="big", BillingMode="PAY_PER_REQUEST",
           AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
           KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
TOO_LARGE = ("Collection size of items exceeded, which can also be caused by the aggregate size of the items in the "
             "transaction exceeding the 4MB limit")


def put_big(client, count, payload):
    """`count` items k000, k001, ... whose string `v` has `payload` bytes."""
    client.create_table(**BIG)
    for i in range(count):
        client.put_item(TableName="big", Item={"pk": {"S": f"k{i:03}"}, "v": {"S": "x" * payload}})
    return [{"pk": {"S": f"k{i:03}"}} for i in range(count)]


def test_transact_get_items_refuses_more_than_4_mb_of_items(client):
    # "DynamoDB rejects the entire TransactGetItems request if ... the aggregate size of the items
    # in the transaction exceeded 4 MB" (API reference); 13 items of 300 KB are 3.8 MB, 14 are 4.1 MB.
    keys = put_big(client, 14, 300 * 1024)
    gets = [{"Get": {"TableName": "big", "Key": key}} for key in keys]
    assert len(client.transact_get_items(TransactItems=gets[:13])["Responses"]) == 13
    with pytest.raises(ClientError) as caught:
        client.transact_get_items(TransactItems=gets)
    assert caught.value.response["Error"] == {"Code": "ValidationException", "Message": TOO_LARGE}
    # A read-only PartiQL transaction is a TransactGetItems.
    statements = [{"Statement": f"SELECT * FROM big WHERE pk = '{key['pk']['S']}'"} for key in keys]
    with pytest.raises(ClientError) as caught:
        client.execute_transaction(TransactStatements=statements)
    assert caught.value.response["Error"] == {"Code": "ValidationException", "Message": TOO_LARGE}


def test_batch_get_item_returns_at_most_16_mb(client):
    # The API reference's example: 100 items of 300 KB. 54 fit in 16 × 1,048,576 bytes; the item
    # that would cross is not returned, its key and the later ones are unprocessed (the reference
    # says 52: docs/compatibility.md).
    keys = put_big(client, 100, 300 * 1024)
    first = client.batch_get_item(RequestItems={"big": {"Keys": keys}})
    returned = sorted(item["pk"]["S"] for item in first["Responses"]["big"])
    unprocessed = [key["pk"]["S"] for key in first["UnprocessedKeys"]["big"]["Keys"]]
    assert returned == [f"k{i:03}" for i in range(54)]
    assert unprocessed == [f"k{i:03}" for i in range(54, 100)]
    rest = client.batch_get_item(RequestItems=first["UnprocessedKeys"])
    assert len(rest["Responses"]["big"]) == 46 and rest["UnprocessedKeys"] == {}
