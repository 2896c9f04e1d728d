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
    "FilterExpression": "checksum = :checksum",
    "ProjectionExpression": "vehicleId, recordedAt, checksum, #data",
    "ExpressionAttributeNames": {
        "#data": "data",
    },
    "ExpressionAttributeValues": {
        ":checksum": base64.b64decode("3q2+7w=="),
    },
    "Limit": 5,
}
while True:
    page = table.scan(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=to_json))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
