import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({});

const input = {
  TableName: "Telemetry",
  FilterExpression: "fuelPct < :fuelPct OR contains(tags, :tags_element) OR checksum = :checksum OR flags = :flags OR zones = :zones OR odometer > :odometer",
  ExpressionAttributeValues: {
    ":checksum": { B: Uint8Array.from(Buffer.from("3q2+7w==", "base64")) },
    ":flags": { M: { codes: { L: [{ N: "1" }, { S: "two" }] }, note: { NULL: true }, ok: { BOOL: true } } },
    ":fuelPct": { N: "12.5" },
    ":odometer": { N: "12345678901234567890" },
    ":tags_element": { S: "service-due" },
    ":zones": { NS: ["1", "3"] },
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
