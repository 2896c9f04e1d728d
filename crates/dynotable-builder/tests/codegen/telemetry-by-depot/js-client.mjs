import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({});

const input = {
  TableName: "Telemetry",
  IndexName: "ByDepot",
  KeyConditionExpression: "depotCode = :depotCode AND recordedAt >= :recordedAt",
  ExpressionAttributeValues: {
    ":depotCode": { S: "BER-1" },
    ":recordedAt": { S: "TS#2024-03-01T12:00:00Z" },
  },
  ReturnConsumedCapacity: "INDEXES",
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
