import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, NumberValue, ScanCommand } from "@aws-sdk/lib-dynamodb";

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

const input = {
  TableName: "Telemetry",
  FilterExpression: "fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer",
  ExpressionAttributeValues: {
    ":checksum": Uint8Array.from(Buffer.from("3q2+7w==", "base64")),
    ":flags": { codes: [1, "two"], note: null, ok: true },
    ":fuelPct": 12.5,
    ":odometer": NumberValue.from("12345678901234567890"),
    ":tags_element": "service-due",
    ":zones": new Set([1, 3]),
  },
  Limit: 4,
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
