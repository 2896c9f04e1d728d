import base64
import json

import boto3

client = boto3.client("dynamodb")

params = {
    "TableName": "Telemetry",
    "KeyConditionExpression": "vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)",
    "FilterExpression": "speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))",
    "ProjectionExpression": "vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]",
    "ExpressionAttributeNames": {
        "#data": "data",
        "#status": "status",
    },
    "ExpressionAttributeValues": {
        ":recordedAt_prefix": {"S": "TS#"},
        ":speedKph": {"N": "60"},
        ":status_1": {"S": "OK"},
        ":status_2": {"S": "WARN"},
        ":vehicleId": {"S": "VEH#V-7741"},
    },
    "Limit": 2,
    "ConsistentRead": True,
    "ReturnConsumedCapacity": "TOTAL",
}
while True:
    page = client.query(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=lambda b: base64.b64encode(b).decode()))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
