import { describe, expect, it } from "vitest";
import type { Item } from "../../shared/attributeValue";
import { itemAsText, shellQuoted } from "./itemCopy";

const item: Item = {
  pk: { S: "VEH#1" },
  big: { N: "12345678901234567890.123456789" },
  tags: { SS: ["a", "b"] },
  raw: { B: "AAEC" },
  nested: { M: { ok: { BOOL: true }, none: { NULL: true }, list: { L: [{ N: "0.1" }] } } },
};

describe("copying an item", () => {
  it("as plain JSON keeps the number's digits", () => {
    const text = itemAsText("T", item, "plain");
    expect(text).toContain("12345678901234567890.123456789");
    expect(text).toContain('"tags": [');
  });

  it("as DynamoDB JSON is the wire form", () => {
    expect(JSON.parse(itemAsText("T", item, "dynamo"))).toEqual(item);
  });

  it("as an AWS CLI put-item with the item single-quoted", () => {
    const text = itemAsText("it's", { pk: { S: "o'clock" } }, "aws-cli");
    expect(text).toBe(`aws dynamodb put-item \\\n  --table-name 'it'\\''s' \\\n  --item '{"pk":{"S":"o'\\''clock"}}'\n`);
    expect(shellQuoted("a'b")).toBe(`'a'\\''b'`);
  });

  it("as a JavaScript PutItemCommand with numbers as strings and binary as bytes", () => {
    const text = itemAsText("Telemetry", item, "js-client");
    expect(text).toContain('new PutItemCommand({');
    expect(text).toContain('TableName: "Telemetry"');
    expect(text).toContain('big: { N: "12345678901234567890.123456789" },');
    expect(text).toContain('raw: { B: Buffer.from("AAEC", "base64") },');
    expect(text).toContain('ok: { BOOL: true },');
  });

  it("as a boto3 put_item, importing base64 only when the item has binary", () => {
    const text = itemAsText("Telemetry", item, "python-client");
    expect(text.startsWith("import base64\n")).toBe(true);
    expect(text).toContain('"raw": { "B": base64.b64decode("AAEC") },');
    expect(text).toContain('"none": { "NULL": True },');
    expect(text).toContain('"big": { "N": "12345678901234567890.123456789" },');
    expect(itemAsText("T", { pk: { S: "x" } }, "python-client").startsWith("import boto3")).toBe(true);
  });
});
