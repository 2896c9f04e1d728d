/**
 * An item as text to copy (issue 20, point 8): plain JSON, DynamoDB JSON, or a PutItem of it as
 * code for the AWS CLI, the JavaScript SDK v3 client and the boto3 client.
 *
 * Numbers stay exact: every form writes an N value from its string (DynamoDB JSON and the
 * low-level SDK clients carry numbers as strings; plain JSON writes the literal itself, see
 * `dynamoJson.ts`), never through a JavaScript number. Binary values are base64 in the JSON forms
 * and decoded to bytes in the programs (`Buffer.from(…, "base64")`, `base64.b64decode(…)`), as
 * the SDKs want them.
 */
import type { AttributeValue } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { formatDynamoJson, formatPlainJson } from "../../shared/dynamoJson";

export type CopyFormat = "plain" | "dynamo" | "aws-cli" | "js-client" | "python-client";

export const COPY_FORMATS: { format: CopyFormat; label: string }[] = [
  { format: "plain", label: "JSON" },
  { format: "dynamo", label: "DynamoDB JSON" },
  { format: "aws-cli", label: "AWS CLI put-item" },
  { format: "js-client", label: "JavaScript SDK v3 PutItem" },
  { format: "python-client", label: "Python boto3 put_item" },
];

/** The item of `table` as text in `format`. */
export function itemAsText(table: string, item: Item, format: CopyFormat): string {
  switch (format) {
    case "plain":
      return formatPlainJson(item);
    case "dynamo":
      return formatDynamoJson(item);
    case "aws-cli":
      return awsCli(table, item);
    case "js-client":
      return javascript(table, item);
    case "python-client":
      return python(table, item);
  }
}

/** A POSIX shell word in single quotes (a quote inside becomes `'\''`). */
export function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function awsCli(table: string, item: Item): string {
  // The CLI reads --item as DynamoDB JSON, with B values in base64 (CLI v2's default).
  return `aws dynamodb put-item \\\n  --table-name ${shellQuoted(table)} \\\n  --item ${shellQuoted(JSON.stringify(item))}\n`;
}

function pad(depth: number, unit: string): string {
  return unit.repeat(depth);
}

/** A string literal valid in JavaScript and in Python (JSON's escapes are a subset of both). */
function literal(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

type Syntax = {
  unit: string;
  key: (name: string) => string;
  bytes: (base64: string) => string;
  boolean: (b: boolean) => string;
};

const JS: Syntax = {
  unit: "  ",
  key: (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name)),
  bytes: (b64) => `Buffer.from(${literal(b64)}, "base64")`,
  boolean: (b) => (b ? "true" : "false"),
};

const PY: Syntax = {
  unit: "    ",
  key: literal,
  bytes: (b64) => `base64.b64decode(${literal(b64)})`,
  boolean: (b) => (b ? "True" : "False"),
};

function list(items: string[], depth: number, s: Syntax): string {
  if (items.length === 0) return "[]";
  return `[\n${items.map((i) => `${pad(depth + 1, s.unit)}${i},`).join("\n")}\n${pad(depth, s.unit)}]`;
}

function map(entries: [string, string][], depth: number, s: Syntax): string {
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${pad(depth + 1, s.unit)}${k}: ${v},`).join("\n")}\n${pad(depth, s.unit)}}`;
}

/** One AttributeValue as the low-level client's literal: `{ N: "42" }`. */
function value(v: AttributeValue, depth: number, s: Syntax): string {
  const typed = (tag: string, body: string) => `{ ${s.key(tag)}: ${body} }`;
  if ("S" in v) return typed("S", literal(v.S));
  if ("N" in v) return typed("N", literal(v.N));
  if ("B" in v) return typed("B", s.bytes(v.B));
  if ("BOOL" in v) return typed("BOOL", s.boolean(v.BOOL));
  if ("NULL" in v) return typed("NULL", s.boolean(true));
  if ("SS" in v) return typed("SS", list(v.SS.map(literal), depth, s));
  if ("NS" in v) return typed("NS", list(v.NS.map(literal), depth, s));
  if ("BS" in v) return typed("BS", list(v.BS.map(s.bytes), depth, s));
  if ("L" in v) return typed("L", list(v.L.map((e) => value(e, depth + 1, s)), depth, s));
  if ("M" in v) return typed("M", itemLiteral(v.M, depth, s));
  throw new Error("unknown attribute value");
}

function itemLiteral(item: Item, depth: number, s: Syntax): string {
  return map(
    Object.entries(item).map(([name, v]) => [s.key(name), value(v, depth + 1, s)]),
    depth,
    s,
  );
}

function usesBinary(item: Item): boolean {
  const binary = (v: AttributeValue): boolean =>
    "B" in v || "BS" in v || ("L" in v && v.L.some(binary)) || ("M" in v && Object.values(v.M).some(binary));
  return Object.values(item).some(binary);
}

function javascript(table: string, item: Item): string {
  return [
    `import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";`,
    ``,
    `const client = new DynamoDBClient({});`,
    `await client.send(`,
    `  new PutItemCommand({`,
    `    TableName: ${literal(table)},`,
    `    Item: ${itemLiteral(item, 2, JS)},`,
    `  }),`,
    `);`,
    ``,
  ].join("\n");
}

function python(table: string, item: Item): string {
  return [
    ...(usesBinary(item) ? ["import base64", ""] : []),
    `import boto3`,
    ``,
    `client = boto3.client("dynamodb")`,
    `client.put_item(`,
    `    TableName=${literal(table)},`,
    `    Item=${itemLiteral(item, 1, PY)},`,
    `)`,
    ``,
  ].join("\n");
}
