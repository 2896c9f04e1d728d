import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

const input = {
  TableName: "Telemetry",
  KeyConditionExpression: "vehicleId = :vehicleId AND begins_with(recordedAt, :recordedAt_prefix)",
  FilterExpression: "speedKph > :speedKph AND (attribute_not_exists(#status) OR #status IN (:status_1, :status_2))",
  ProjectionExpression: "vehicleId, recordedAt, speedKph, #status, #data.coolant, readings[0]",
  ExpressionAttributeNames: {
    "#data": "data",
    "#status": "status",
  },
  ExpressionAttributeValues: {
    ":recordedAt_prefix": "TS#",
    ":speedKph": 60,
    ":status_1": "OK",
    ":status_2": "WARN",
    ":vehicleId": "VEH#V-7741",
  },
  Limit: 2,
  ConsistentRead: true,
  ReturnConsumedCapacity: "TOTAL",
};

// Binary values as base64 and sets as sorted arrays, so that every item prints as JSON.
const toJson = (key, value) =>
  value instanceof Uint8Array ? Buffer.from(value).toString("base64")
    : value instanceof Set ? [...value].sort()
    : typeof value === "bigint" ? value.toString()
    : value;

do {
  const page = await client.send(new QueryCommand(input));
  for (const item of page.Items ?? []) {
    console.log(JSON.stringify(item, toJson));
  }
  input.ExclusiveStartKey = page.LastEvaluatedKey;
} while (input.ExclusiveStartKey);
