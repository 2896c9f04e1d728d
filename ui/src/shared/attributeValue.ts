/**
 * Reading DynamoDB attribute values in the UI: which type a value is, its one-line text form,
 * the byte length of base64 binaries, and DynamoDB's ordering of key values.
 *
 * Numbers are never turned into JS numbers here. DynamoDB numbers carry up to 38 significant
 * digits (rule B.7, docs/dynamodb-rules.md), beyond a double's 15–17, so they are read and
 * compared as decimal strings: sign, digits and a power of ten.
 */
import type { AttributeValue, ScalarType } from "../ipc/bindings.gen";

export type AttributeType = "S" | "N" | "B" | "SS" | "NS" | "BS" | "M" | "L" | "NULL" | "BOOL";

export const ATTRIBUTE_TYPES: readonly AttributeType[] = ["S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "M", "L"];

/** The DynamoDB type tag of a value (the one key of its wire object). */
export function typeOf(value: AttributeValue): AttributeType {
  if ("S" in value) return "S";
  if ("N" in value) return "N";
  if ("B" in value) return "B";
  if ("SS" in value) return "SS";
  if ("NS" in value) return "NS";
  if ("BS" in value) return "BS";
  if ("M" in value) return "M";
  if ("L" in value) return "L";
  if ("NULL" in value) return "NULL";
  return "BOOL";
}

/** What each type is called in sentences. */
export function typeName(type: AttributeType): string {
  switch (type) {
    case "S":
      return "string";
    case "N":
      return "number";
    case "B":
      return "binary";
    case "SS":
      return "string set";
    case "NS":
      return "number set";
    case "BS":
      return "binary set";
    case "M":
      return "map";
    case "L":
      return "list";
    case "NULL":
      return "null";
    case "BOOL":
      return "boolean";
  }
}

/** The scalar key value as text (S, N or B), or null when the value is not a scalar key type. */
export function scalarText(value: AttributeValue): string | null {
  if ("S" in value) return value.S;
  if ("N" in value) return value.N;
  if ("B" in value) return value.B;
  return null;
}

/** Builds a scalar value of the given key type from its text (base64 for B). */
export function scalarValue(type: ScalarType, text: string): AttributeValue {
  switch (type) {
    case "S":
      return { S: text };
    case "N":
      return { N: text };
    case "B":
      return { B: text };
  }
}

/**
 * A value's one-line text form: strings and numbers as they are, binary as `base64 (n bytes)`,
 * sets as `{a, b}`, maps and lists as a short summary. Used wherever a value must fit a label.
 */
export function attributeText(value: AttributeValue): string {
  if ("S" in value) return value.S;
  if ("N" in value) return value.N;
  if ("B" in value) return `${value.B} (${byteCountLabel(base64ByteLength(value.B))})`;
  if ("SS" in value) return `{${value.SS.join(", ")}}`;
  if ("NS" in value) return `{${value.NS.join(", ")}}`;
  if ("BS" in value) return `{${value.BS.join(", ")}}`;
  if ("M" in value) return countLabel(Object.keys(value.M).length, "attribute", "attributes");
  if ("L" in value) return countLabel(value.L.length, "element", "elements");
  if ("NULL" in value) return "null";
  return value.BOOL ? "true" : "false";
}

/**
 * A value's text as a cell's tooltip: grid cells are cut to their column with an ellipsis, and a
 * long single-table key ("ORDER#2025-03-14#…") is read whole by pointing at it.
 */
export function valueTitle(value: AttributeValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = attributeText(value);
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

function countLabel(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "1 byte", "12 bytes", "3.4 KB", "2.1 MB" (1 KB = 1,024 bytes, as DynamoDB counts). */
export function byteCountLabel(bytes: number): string {
  if (bytes === 1) return "1 byte";
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${trimFraction(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${trimFraction(bytes / (1024 * 1024))} MB`;
  return `${trimFraction(bytes / (1024 * 1024 * 1024))} GB`;
}

function trimFraction(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1).replace(/\.0$/, "");
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether text is standard padded base64, the form DynamoDB JSON uses for B and BS. */
export function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/** The number of bytes a base64 text decodes to (without decoding it). */
export function base64ByteLength(text: string): number {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/** The bytes of a base64 text (which must be valid base64). */
export function base64Bytes(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * A decimal number read exactly from text: `sign × digits × 10^exponent`, with `digits` free of
 * leading and trailing zeros ("" for zero).
 */
export type Decimal = { negative: boolean; digits: string; exponent: number };

const NUMBER_SYNTAX = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Reads a DynamoDB number literal (`42`, `-3.5`, `.5`, `1E+3`, `+7`) exactly, or null when the
 * text is not a number.
 */
export function parseDecimal(text: string): Decimal | null {
  const match = NUMBER_SYNTAX.exec(text.trim());
  if (!match) return null;
  const [, sign = "", whole = "", fraction = "", exp = "0"] = match;
  if (whole === "" && fraction === "") return null;
  let digits = (whole + fraction).replace(/^0+/, "");
  let exponent = Number(exp) - fraction.length;
  const trailing = /0+$/.exec(digits);
  if (trailing) {
    digits = digits.slice(0, trailing.index);
    exponent += trailing[0].length;
  }
  if (digits === "") return { negative: false, digits: "", exponent: 0 };
  return { negative: sign === "-", digits, exponent };
}

/**
 * What keeps a decimal from being a DynamoDB number (rule B.7): more than 38 significant digits,
 * or a magnitude outside 1E-130 to 9.9999999999999999999999999999999999999E+125 (either sign);
 * null when it is one (zero is).
 */
export function numberLimit(value: Decimal): "digits" | "range" | null {
  if (value.digits === "") return null;
  // The power of ten of the leading digit.
  const order = value.digits.length + value.exponent - 1;
  if (order > 125 || order < -130) return "range";
  if (value.digits.length > 38) return "digits";
  return null;
}

/** Whether text is a number DynamoDB can read (syntax only; see `numberLimit` for its range). */
export function isNumberText(text: string): boolean {
  return parseDecimal(text) !== null;
}

/** Compares two decimals numerically: negative when a < b, 0 when equal, positive when a > b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  const signA = a.digits === "" ? 0 : a.negative ? -1 : 1;
  const signB = b.digits === "" ? 0 : b.negative ? -1 : 1;
  if (signA !== signB) return signA - signB;
  if (signA === 0) return 0;
  const magnitude = compareMagnitudes(a, b);
  return signA > 0 ? magnitude : -magnitude;
}

function compareMagnitudes(a: Decimal, b: Decimal): number {
  // The position of the most significant digit decides first, then the digits themselves.
  const orderA = a.digits.length + a.exponent;
  const orderB = b.digits.length + b.exponent;
  if (orderA !== orderB) return orderA - orderB;
  const width = Math.max(a.digits.length, b.digits.length);
  const digitsA = a.digits.padEnd(width, "0");
  const digitsB = b.digits.padEnd(width, "0");
  return digitsA < digitsB ? -1 : digitsA > digitsB ? 1 : 0;
}

/** A decimal written as a plain JSON number literal (no exponent unless it is very large or small). */
export function decimalLiteral(value: Decimal): string {
  if (value.digits === "") return "0";
  const sign = value.negative ? "-" : "";
  const { digits, exponent } = value;
  if (exponent >= 0 && exponent <= 20) return sign + digits + "0".repeat(exponent);
  const point = digits.length + exponent;
  if (exponent < 0 && point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  if (exponent < 0 && point > -20) return `${sign}0.${"0".repeat(-point)}${digits}`;
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}E${point - 1}`;
}

/**
 * A value as DynamoDB stores it, and so gives it back: a number normalised (`1E2` → `100`,
 * `+7.50` → `7.5`, `-0` → `0`), as typed numbers must be when they name what was read; any other
 * value as it is (and a number DynamoDB could not read, as typed).
 */
export function storedValue(value: AttributeValue): AttributeValue {
  if (!("N" in value)) return value;
  const decimal = parseDecimal(value.N);
  return decimal === null ? value : { N: decimalLiteral(decimal) };
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

const utf8 = new TextEncoder();

/**
 * DynamoDB's order of key values (rule B.9, docs/dynamodb-rules.md): numbers numerically,
 * strings by their UTF-8 bytes, binaries by unsigned bytes. Values of different types are ordered
 * by type (N, S, B) so a mixed list still sorts deterministically.
 */
export function compareKeyValues(a: AttributeValue, b: AttributeValue): number {
  const rank = (v: AttributeValue) => ("N" in v ? 0 : "S" in v ? 1 : "B" in v ? 2 : 3);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if ("N" in a && "N" in b) {
    const da = parseDecimal(a.N);
    const db = parseDecimal(b.N);
    if (da && db) return compareDecimals(da, db);
    return a.N < b.N ? -1 : a.N > b.N ? 1 : 0;
  }
  if ("S" in a && "S" in b) return compareBytes(utf8.encode(a.S), utf8.encode(b.S));
  if ("B" in a && "B" in b && isBase64(a.B) && isBase64(b.B)) return compareBytes(base64Bytes(a.B), base64Bytes(b.B));
  return 0;
}

/** An item (or a key): attribute name → value. */
export type Item = { [name: string]: AttributeValue };
