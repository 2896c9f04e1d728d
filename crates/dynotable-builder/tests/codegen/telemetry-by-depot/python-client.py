import base64
import json

import boto3

client = boto3.client("dynamodb")

params = {
    "TableName": "Telemetry",
    "IndexName": "ByDepot",
    "KeyConditionExpression": "depotCode = :depotCode AND recordedAt >= :recordedAt",
    "ExpressionAttributeValues": {
        ":depotCode": {"S": "BER-1"},
        ":recordedAt": {"S": "TS#2024-03-01T12:00:00Z"},
    },
    "ReturnConsumedCapacity": "INDEXES",
}
while True:
    page = client.query(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=lambda b: base64.b64encode(b).decode()))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
