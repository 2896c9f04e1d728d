import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({});

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
    ":recordedAt_prefix": { S: "TS#" },
    ":speedKph": { N: "60" },
    ":status_1": { S: "OK" },
    ":status_2": { S: "WARN" },
    ":vehicleId": { S: "VEH#V-7741" },
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
