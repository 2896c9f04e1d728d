import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

const input = {
  TableName: "Telemetry",
  FilterExpression: "checksum = :checksum",
  ProjectionExpression: "vehicleId, recordedAt, checksum, #data",
  ExpressionAttributeNames: {
    "#data": "data",
  },
  ExpressionAttributeValues: {
    ":checksum": Uint8Array.from(Buffer.from("3q2+7w==", "base64")),
  },
  Limit: 5,
};

// Binary values as base64 and sets as sorted arrays, so that every item prints as JSON.
const toJson = (key, value) =>
  value instanceof Uint8Array ? Buffer.from(value).toString("base64")
    : value instanceof Set ? [...value].sort()
    : typeof value === "bigint" ? value.toString()
    : value;

do {
  const page = await client.send(new ScanCommand(input));
  for (const item of page.Items ?? []) {
    console.log(JSON.stringify(item, toJson));
  }
  input.ExclusiveStartKey = page.LastEvaluatedKey;
} while (input.ExclusiveStartKey);
