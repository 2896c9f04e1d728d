import base64
import json

import boto3

client = boto3.client("dynamodb")

params = {
    "TableName": "Telemetry",
    "KeyConditionExpression": "vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to",
    "ExpressionAttributeValues": {
        ":recordedAt_from": {"S": "TS#2024-03-01T00:00:00Z"},
        ":recordedAt_to": {"S": "TS#2024-03-01T23:59:59Z"},
        ":vehicleId": {"S": "VEH#V-7741"},
    },
    "ScanIndexForward": False,
    "Limit": 3,
}
while True:
    page = client.query(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=lambda b: base64.b64encode(b).decode()))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
