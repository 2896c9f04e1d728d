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
    "KeyConditionExpression": "vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)",
    "FilterExpression": "speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))",
    "ProjectionExpression": "vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]",
    "ExpressionAttributeNames": {
        "#data": "data",
        "#status": "status",
    },
    "ExpressionAttributeValues": {
        ":recordedAt_prefix": "TS#",
        ":speedKph": Decimal("60"),
        ":status_1": "OK",
        ":status_2": "WARN",
        ":vehicleId": "VEH#V-7741",
    },
    "Limit": 2,
    "ConsistentRead": True,
    "ReturnConsumedCapacity": "TOTAL",
}
while True:
    page = table.query(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=to_json))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
