/**
 * Items as text: DynamoDB JSON (the wire form, `{"n": {"N": "42"}}`) and plain JSON
 * (`{"n": 42}`), and the conversion between them.
 *
 * The number rule: a number is never read into a JS number, so no digit is lost.
 * - DynamoDB JSON → plain JSON writes the N string as the JSON number literal itself. When the N
 *   string is already valid JSON number syntax it is written verbatim (`"12345678901234567890.123"`
 *   becomes `12345678901234567890.123`); otherwise (`+7`, `.5`, `5.`, `007`) the same value is
 *   written in JSON syntax (`7`, `0.5`, `5`, `7`), computed on the digits, not through a double.
 * - Plain JSON → DynamoDB JSON reads number literals with our own parser (not `JSON.parse`) and
 *   keeps the literal's text as the N string.
 *
 * The type rule: plain JSON has no sets and no binary. B becomes its base64 string, SS and BS arrays
 * of strings, NS an array of numbers. Going back, a `hints` item (the item as it was) restores those
 * types where the plain value still fits them (a base64 string where B was, an array of strings
 * where SS was, and so on); everything else maps naturally: string → S, number → N, boolean → BOOL,
 * null → NULL, array → L, object → M.
 */
import type { AttributeValue } from "../ipc/bindings.gen";
import type { Item } from "./attributeValue";
import { decimalLiteral, isBase64, parseDecimal } from "./attributeValue";

/** Where text could not be read, in a plain sentence. `path` names the attribute ("" = whole item). */
export type TextProblem = { path: string; message: string };
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: TextProblem };

// ---------------------------------------------------------------------------------------------
// DynamoDB JSON

/** An item as indented DynamoDB JSON. */
export function formatDynamoJson(item: Item): string {
  return JSON.stringify(item, null, 2);
}

/** Reads an item from DynamoDB JSON text, checking every value's shape. */
export function parseDynamoJson(text: string): Parsed<Item> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return fail("", `The text is not valid JSON: ${err instanceof Error ? err.message : String(err)}.`);
  }
  if (!isObject(raw)) return fail("", "An item must be a JSON object of attribute names to values.");
  const item: Item = {};
  for (const [name, value] of Object.entries(raw)) {
    const parsed = readDynamoValue(value, name);
    if (!parsed.ok) return parsed;
    item[name] = parsed.value;
  }
  return { ok: true, value: item };
}

/** Reads one attribute value from DynamoDB JSON text (used for nested maps and lists in the form). */
export function parseDynamoValueJson(text: string, path: string): Parsed<AttributeValue> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return fail(path, `${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}.`);
  }
  return readDynamoValue(raw, path);
}

/** Checks that `raw` is one DynamoDB JSON value, like `{"S": "x"}`. */
export function readDynamoValue(raw: unknown, path: string): Parsed<AttributeValue> {
  if (!isObject(raw)) return fail(path, `${path} must be an object with one type key, like {"S": "text"}.`);
  const keys = Object.keys(raw);
  if (keys.length !== 1) {
    return fail(path, `${path} must have exactly one type key (S, N, B, SS, NS, BS, M, L, NULL or BOOL); it has ${keys.length}.`);
  }
  const type = keys[0] as string;
  const inner = raw[type];
  switch (type) {
    case "S":
      return typeof inner === "string" ? ok({ S: inner }) : fail(path, `${path}: a string (S) must be written as a JSON string.`);
    case "N":
      if (typeof inner === "number") return fail(path, `${path}: numbers in DynamoDB JSON are strings; write "${String(inner)}".`);
      if (typeof inner !== "string" || parseDecimal(inner) === null) return fail(path, `${path}: "${String(inner)}" is not a number.`);
      return ok({ N: inner });
    case "B":
      return typeof inner === "string" && isBase64(inner) ? ok({ B: inner }) : fail(path, `${path}: binary (B) must be a base64 string.`);
    case "SS":
      return stringArray(inner) ? ok({ SS: inner }) : fail(path, `${path}: a string set (SS) must be an array of strings.`);
    case "NS":
      if (!stringArray(inner)) return fail(path, `${path}: a number set (NS) must be an array of number strings, like ["1", "2.5"].`);
      for (const n of inner) if (parseDecimal(n) === null) return fail(path, `${path}: "${n}" in the number set is not a number.`);
      return ok({ NS: inner });
    case "BS":
      return stringArray(inner) && inner.every(isBase64) ? ok({ BS: inner }) : fail(path, `${path}: a binary set (BS) must be an array of base64 strings.`);
    case "BOOL":
      return typeof inner === "boolean" ? ok({ BOOL: inner }) : fail(path, `${path}: BOOL must be true or false.`);
    case "NULL":
      return inner === true ? ok({ NULL: true }) : fail(path, `${path}: NULL must be written as {"NULL": true}.`);
    case "M": {
      if (!isObject(inner)) return fail(path, `${path}: a map (M) must be a JSON object.`);
      const map: { [key in string]: AttributeValue } = {};
      for (const [name, value] of Object.entries(inner)) {
        const parsed = readDynamoValue(value, `${path}.${name}`);
        if (!parsed.ok) return parsed;
        map[name] = parsed.value;
      }
      return ok({ M: map });
    }
    case "L": {
      if (!Array.isArray(inner)) return fail(path, `${path}: a list (L) must be a JSON array.`);
      const list: AttributeValue[] = [];
      for (const [i, value] of inner.entries()) {
        const parsed = readDynamoValue(value, `${path}[${i}]`);
        if (!parsed.ok) return parsed;
        list.push(parsed.value);
      }
      return ok({ L: list });
    }
    default:
      return fail(path, `${path}: "${type}" is not a DynamoDB type; use S, N, B, SS, NS, BS, M, L, NULL or BOOL.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Plain JSON

/** An item as indented plain JSON, numbers written exactly (see the number rule above). */
export function formatPlainJson(item: Item): string {
  return writePlain({ M: item }, "");
}

/** A single value as plain JSON on one line (for labels and copying). */
export function plainJsonOf(value: AttributeValue): string {
  return writePlain(value, null);
}

/** `indent` null writes one line; a string writes nested lines indented from it. */
function writePlain(value: AttributeValue, indent: string | null): string {
  if ("S" in value) return JSON.stringify(value.S);
  if ("N" in value) return numberLiteral(value.N);
  if ("B" in value) return JSON.stringify(value.B);
  if ("BOOL" in value) return value.BOOL ? "true" : "false";
  if ("NULL" in value) return "null";
  if ("SS" in value) return writeArray(value.SS.map((s) => JSON.stringify(s)), indent);
  if ("NS" in value) return writeArray(value.NS.map(numberLiteral), indent);
  if ("BS" in value) return writeArray(value.BS.map((s) => JSON.stringify(s)), indent);
  const inner = indent === null ? null : indent + "  ";
  if ("L" in value) return writeArray(value.L.map((v) => writePlain(v, inner)), indent);
  const entries = Object.entries(value.M).map(([k, v]) => `${JSON.stringify(k)}: ${writePlain(v, inner)}`);
  if (entries.length === 0) return "{}";
  if (indent === null) return `{${entries.join(", ")}}`;
  return `{\n${entries.map((e) => inner + e).join(",\n")}\n${indent}}`;
}

function writeArray(parts: string[], indent: string | null): string {
  if (parts.length === 0) return "[]";
  if (indent === null) return `[${parts.join(", ")}]`;
  const inner = indent + "  ";
  return `[\n${parts.map((p) => inner + p).join(",\n")}\n${indent}]`;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The JSON number literal for an N string: verbatim when it is JSON syntax, else the same value. */
export function numberLiteral(n: string): string {
  if (JSON_NUMBER.test(n)) return n;
  const decimal = parseDecimal(n);
  return decimal === null ? JSON.stringify(n) : decimalLiteral(decimal);
}

/** Reads an item from plain JSON text; `hints` restores B, SS, NS and BS (see the type rule above). */
export function parsePlainJson(text: string, hints: Item | null = null): Parsed<Item> {
  const reader = new PlainReader(text);
  let tree: PlainNode;
  try {
    tree = reader.document();
  } catch (err) {
    if (err instanceof PlainSyntaxError) return fail("", err.message);
    throw err;
  }
  if (tree.kind !== "object") return fail("", "An item must be a JSON object of attribute names to values.");
  const hint: AttributeValue | null = hints === null ? null : { M: hints };
  const value = fromPlain(tree, hint);
  return "M" in value ? ok(value.M) : fail("", "An item must be a JSON object.");
}

/**
 * Reads one or several items from plain JSON text: an object, or an array of objects. Numbers
 * keep their literal text (the type rule above, without hints).
 */
export function parsePlainJsonItems(text: string): Parsed<Item[]> {
  let tree: PlainNode;
  try {
    tree = new PlainReader(text).document();
  } catch (err) {
    if (err instanceof PlainSyntaxError) return fail("", err.message);
    throw err;
  }
  const nodes = tree.kind === "array" ? tree.items : [tree];
  const items: Item[] = [];
  for (const [i, node] of nodes.entries()) {
    if (node.kind !== "object") {
      return fail("", `${tree.kind === "array" ? `Entry ${i + 1}` : "The text"} is not a JSON object of attribute names to values.`);
    }
    const value = fromPlain(node, null);
    if ("M" in value) items.push(value.M);
  }
  return ok(items);
}

/** A plain JSON value as read, with number literals kept as text. */
type PlainNode =
  | { kind: "string"; value: string }
  | { kind: "number"; text: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "null" }
  | { kind: "array"; items: PlainNode[] }
  | { kind: "object"; entries: [string, PlainNode][] };

function fromPlain(node: PlainNode, hint: AttributeValue | null | undefined): AttributeValue {
  switch (node.kind) {
    case "string":
      if (hint && "B" in hint && isBase64(node.value)) return { B: node.value };
      return { S: node.value };
    case "number":
      return { N: node.text };
    case "boolean":
      return { BOOL: node.value };
    case "null":
      return { NULL: true };
    case "array": {
      const items = node.items;
      if (hint && items.length > 0) {
        if ("SS" in hint && items.every((i) => i.kind === "string")) return { SS: items.map((i) => (i as { value: string }).value) };
        if ("NS" in hint && items.every((i) => i.kind === "number")) return { NS: items.map((i) => (i as { text: string }).text) };
        if ("BS" in hint && items.every((i) => i.kind === "string" && isBase64(i.value))) {
          return { BS: items.map((i) => (i as { value: string }).value) };
        }
      }
      const hinted = hint && "L" in hint ? hint.L : [];
      return { L: items.map((item, i) => fromPlain(item, hinted[i])) };
    }
    case "object": {
      const hinted = hint && "M" in hint ? hint.M : {};
      const map: { [key in string]: AttributeValue } = {};
      for (const [name, value] of node.entries) map[name] = fromPlain(value, hinted[name]);
      return { M: map };
    }
  }
}

class PlainSyntaxError extends Error {}

/** A small JSON reader that keeps number literals as text and reports line and column. */
class PlainReader {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): PlainNode {
    const node = this.value();
    this.space();
    if (this.at < this.text.length) this.error("there is more text after the end of the JSON value");
    return node;
  }

  private value(): PlainNode {
    this.space();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return { kind: "string", value: this.string() };
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    if (this.text.startsWith("true", this.at)) return this.word(4, { kind: "boolean", value: true });
    if (this.text.startsWith("false", this.at)) return this.word(5, { kind: "boolean", value: false });
    if (this.text.startsWith("null", this.at)) return this.word(4, { kind: "null" });
    return this.error(c === undefined ? "the JSON ends too early" : `unexpected ${JSON.stringify(c)}`);
  }

  private word(length: number, node: PlainNode): PlainNode {
    this.at += length;
    return node;
  }

  private object(): PlainNode {
    this.at++;
    const entries: [string, PlainNode][] = [];
    const seen = new Set<string>();
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return { kind: "object", entries };
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.error("expected an attribute name in double quotes");
      const name = this.string();
      if (seen.has(name)) this.error(`the name ${JSON.stringify(name)} appears twice in the same object`);
      seen.add(name);
      this.space();
      if (this.text[this.at] !== ":") this.error("expected ':' after the name");
      this.at++;
      entries.push([name, this.value()]);
      this.space();
      const c = this.text[this.at++];
      if (c === "}") return { kind: "object", entries };
      if (c !== ",") this.error("expected ',' or '}'", -1);
    }
  }

  private array(): PlainNode {
    this.at++;
    const items: PlainNode[] = [];
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return { kind: "array", items };
    }
    for (;;) {
      items.push(this.value());
      this.space();
      const c = this.text[this.at++];
      if (c === "]") return { kind: "array", items };
      if (c !== ",") this.error("expected ',' or ']'", -1);
    }
  }

  private string(): string {
    const match = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/.exec(this.text.slice(this.at));
    if (!match) return this.error("a string is not closed or has a bad escape");
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  private number(): PlainNode {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    if (!match) return this.error("a number is not written correctly");
    this.at += match[0].length;
    return { kind: "number", text: match[0] };
  }

  private space() {
    while (this.at < this.text.length && " \t\r\n".includes(this.text[this.at] as string)) this.at++;
  }

  private error(what: string, shift = 0): never {
    const upTo = this.text.slice(0, Math.max(0, this.at + shift));
    const line = upTo.split("\n").length;
    const column = upTo.length - upTo.lastIndexOf("\n");
    throw new PlainSyntaxError(`The JSON is not valid at line ${line}, column ${column}: ${what}.`);
  }
}

// ---------------------------------------------------------------------------------------------

function ok<T>(value: T): Parsed<T> {
  return { ok: true, value };
}

function fail<T>(path: string, message: string): Parsed<T> {
  return { ok: false, problem: { path, message } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === "string");
}
