import base64
import json
from decimal import Decimal

import boto3
from boto3.dynamodb.types import Binary

table = boto3.resource("dynamodb").Table("Telemetry")


def to_json(value):
    """Numbers as JSON numbers, binary as base64, sets as sorted lists."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Binary):
        return base64.b64encode(value.value).decode()
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, set):
        return sorted(v if isinstance(v, str) else to_json(v) for v in value)
    raise TypeError(f"not JSON: {value!r}")


params = {
    "KeyConditionExpression": "vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to",
    "ExpressionAttributeValues": {
        ":recordedAt_from": "TS#2024-03-01T00:00:00Z",
        ":recordedAt_to": "TS#2024-03-01T23:59:59Z",
        ":vehicleId": "VEH#V-7741",
    },
    "ScanIndexForward": False,
    "Limit": 3,
}
while True:
    page = table.query(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=to_json))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
