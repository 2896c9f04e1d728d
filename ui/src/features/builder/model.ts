/**
 * The builder's plain helpers: document paths as people type them (`address.lines[0]`) and as the
 * backend holds them (`["address", "lines", 0]`), typed values in DynamoDB JSON, the key schema of
 * a table or index, and the attribute names worth suggesting.
 */
import type {
  AttributePath,
  AttributeValueJson,
  BuilderKeyAttribute,
  KeySchemaState,
  PathStep,
  TableDescription,
} from "../../ipc/bindings.gen";

/** `["a", "b", 0]` → `a.b[0]`. */
export function formatPath(path: AttributePath): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "number") out += `[${step}]`;
    else out += out === "" ? step : `.${step}`;
  }
  return out;
}

/**
 * `a.b[0]` → `["a", "b", 0]`; `null` when the text is no path (empty names, a list index first,
 * a bracket that is not `[n]`). Names are taken as they are: the backend adds `#placeholders`.
 */
export function parsePath(text: string): AttributePath | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const path: PathStep[] = [];
  for (const segment of trimmed.split(".")) {
    const match = /^([^[\]]+)((?:\[\d+\])*)$/.exec(segment);
    if (!match || match[1] === undefined) return null;
    path.push(match[1]);
    for (const index of (match[2] ?? "").matchAll(/\[(\d+)\]/g)) {
      path.push(Number(index[1]));
    }
  }
  return path;
}

/** The value kinds the value editor offers. */
export const VALUE_TYPES = ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** DynamoDB's number syntax (rule B.10: up to 38 significant digits; the backend checks that). */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The type tag of a value. */
export function valueType(value: AttributeValueJson): ValueType {
  return Object.keys(value)[0] as ValueType;
}

/** A value as the user edits it: text for scalars, one element a line for sets, JSON for L and M. */
export function valueText(value: AttributeValueJson): string {
  if ("S" in value && value.S !== undefined) return value.S;
  if ("N" in value && value.N !== undefined) return value.N;
  if ("B" in value && value.B !== undefined) return value.B;
  if ("BOOL" in value && value.BOOL !== undefined) return String(value.BOOL);
  if ("NULL" in value) return "";
  if ("SS" in value && value.SS !== undefined) return value.SS.join("\n");
  if ("NS" in value && value.NS !== undefined) return value.NS.join("\n");
  if ("BS" in value && value.BS !== undefined) return value.BS.join("\n");
  if ("L" in value && value.L !== undefined) return JSON.stringify(value.L);
  if ("M" in value && value.M !== undefined) return JSON.stringify(value.M);
  return "";
}

/** A typed value from its type and text, or the reason it is not one. */
export function parseValue(type: ValueType, text: string): { value: AttributeValueJson } | { error: string } {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  switch (type) {
    case "S":
      return { value: { S: text } };
    case "N":
      return NUMBER.test(text.trim()) ? { value: { N: text.trim() } } : { error: "A number: digits, a point, an exponent." };
    case "B":
      return isBase64(text.trim()) ? { value: { B: text.trim() } } : { error: "Binary is written in base64." };
    case "BOOL":
      if (text === "true" || text === "false") return { value: { BOOL: text === "true" } };
      return { error: "true or false." };
    case "NULL":
      return { value: { NULL: true } };
    case "SS":
      if (lines.length === 0) return { error: "A set has at least one element (one a line)." };
      if (new Set(lines).size !== lines.length) return { error: "A set has no duplicates." };
      return { value: { SS: lines } };
    case "NS":
      if (lines.length === 0) return { error: "A set has at least one element (one a line)." };
      if (!lines.every((l) => NUMBER.test(l))) return { error: "Every element of a number set is a number." };
      return { value: { NS: lines } };
    case "BS":
      if (lines.length === 0) return { error: "A set has at least one element (one a line)." };
      if (!lines.every(isBase64)) return { error: "Every element of a binary set is base64." };
      return { value: { BS: lines } };
    case "L":
    case "M": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { error: `A ${type === "L" ? "list" : "map"} is written in DynamoDB JSON.` };
      }
      if (type === "L" && Array.isArray(parsed)) return { value: { L: parsed as AttributeValueJson[] } };
      if (type === "M" && parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
        return { value: { M: parsed as { [key in string]: AttributeValueJson } } };
      }
      return { error: `A ${type === "L" ? "list is a JSON array" : "map is a JSON object"} of DynamoDB JSON values.` };
    }
  }
}

function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** An empty value of a type, to start editing from. */
export function emptyValue(type: ValueType): AttributeValueJson {
  switch (type) {
    case "S":
      return { S: "" };
    case "N":
      return { N: "0" };
    case "B":
      return { B: "" };
    case "BOOL":
      return { BOOL: true };
    case "NULL":
      return { NULL: true };
    case "SS":
      return { SS: [""] };
    case "NS":
      return { NS: ["0"] };
    case "BS":
      return { BS: [""] };
    case "L":
      return { L: [] };
    case "M":
      return { M: {} };
  }
}

function keyAttribute(key: { name: string; type: "S" | "N" | "B" }): BuilderKeyAttribute {
  return { name: key.name, type: key.type };
}

/** The key schema a Query of the table, or of its index `index`, is checked against. */
export function keySchemaOf(table: TableDescription, index: string | null): KeySchemaState | null {
  const keys = index === null ? table.keys : table.indexes.find((i) => i.name === index)?.keys;
  if (!keys) return null;
  const schema: KeySchemaState = {
    partitionKey: keyAttribute(keys.partitionKey),
    sortKey: keys.sortKey ? keyAttribute(keys.sortKey) : null,
  };
  // A multi-attribute GSI key (rule B.18): the other attributes, in key-schema order.
  if (keys.morePartitionKeys?.length) schema.morePartitionKeys = keys.morePartitionKeys.map(keyAttribute);
  if (keys.moreSortKeys?.length) schema.moreSortKeys = keys.moreSortKeys.map(keyAttribute);
  return schema;
}

/**
 * The attribute names to suggest, most useful first: the table's keys, the indexes' keys, the
 * attributes indexes project, then the attributes seen in the data; each once.
 */
export function attributeSuggestions(table: TableDescription, seen: readonly string[] = []): string[] {
  const names: string[] = [table.keys.partitionKey.name];
  if (table.keys.sortKey) names.push(table.keys.sortKey.name);
  for (const index of table.indexes) {
    names.push(index.keys.partitionKey.name);
    names.push(...(index.keys.morePartitionKeys ?? []).map((k) => k.name));
    if (index.keys.sortKey) names.push(index.keys.sortKey.name);
    names.push(...(index.keys.moreSortKeys ?? []).map((k) => k.name));
  }
  for (const index of table.indexes) names.push(...index.projection.attributes);
  names.push(...[...seen].sort());
  return [...new Set(names)];
}

/** The UTF-16 index of a UTF-8 byte offset in `text` (the backend's spans count bytes). */
export function byteToIndex(text: string, byte: number): number {
  const encoder = new TextEncoder();
  let bytes = 0;
  let index = 0;
  for (const char of text) {
    if (bytes >= byte) break;
    bytes += encoder.encode(char).length;
    index += char.length;
  }
  return index;
}
