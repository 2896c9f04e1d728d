import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({});

const input = {
  TableName: "Telemetry",
  KeyConditionExpression: "vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to",
  ExpressionAttributeValues: {
    ":recordedAt_from": { S: "TS#2024-03-01T00:00:00Z" },
    ":recordedAt_to": { S: "TS#2024-03-01T23:59:59Z" },
    ":vehicleId": { S: "VEH#V-7741" },
  },
  ScanIndexForward: false,
  Limit: 3,
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
