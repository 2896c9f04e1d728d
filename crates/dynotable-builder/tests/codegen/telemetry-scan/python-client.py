import base64
import json

import boto3

client = boto3.client("dynamodb")

params = {
    "TableName": "Telemetry",
    "FilterExpression": "fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer",
    "ExpressionAttributeValues": {
        ":checksum": {"B": base64.b64decode("3q2+7w==")},
        ":flags": {"M": {"codes": {"L": [{"N": "1"}, {"S": "two"}]}, "note": {"NULL": True}, "ok": {"BOOL": True}}},
        ":fuelPct": {"N": "12.5"},
        ":odometer": {"N": "12345678901234567890"},
        ":tags_element": {"S": "service-due"},
        ":zones": {"NS": ["1", "3"]},
    },
    "Limit": 4,
}
while True:
    page = client.scan(**params)
    for item in page["Items"]:
        print(json.dumps(item, default=lambda b: base64.b64encode(b).decode()))
    if "LastEvaluatedKey" not in page:
        break
    params["ExclusiveStartKey"] = page["LastEvaluatedKey"]
