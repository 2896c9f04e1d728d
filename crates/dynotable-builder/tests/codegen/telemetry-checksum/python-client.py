import base64
import json

import boto3

client = boto3.client("dynamodb")

params = {
    "TableName": "Telemetry",
    "FilterExpression": "checksum = :checksum",
    "ProjectionExpression": "vehicleId, recordedAt, checksum, #data",
    "ExpressionAttributeNames": {
        "#data": "data",
    },
    "ExpressionAttributeValues": {
        ":checksum": {"B": base64.b64decode("3q2+7w==")},
    },
    "Limit": 5,
}
while True:
    page = client.scan(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=lambda b: base64.b64encode(b).decode()))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
