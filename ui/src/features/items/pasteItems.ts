/**
 * Pasted text as items to put (issue 20, point 8): DynamoDB JSON or plain JSON, one item or
 * several.
 *
 * Accepted shapes, in either form: one item object; an array of them; the output of the CLI or an
 * SDK (`{"Item": {…}}`, `{"Items": [...]}`); JSON Lines (one item a line, as the export writes).
 * The form is DynamoDB JSON when every attribute of every item is a one-member object named by a
 * type descriptor (`{"N": "42"}`), plain JSON otherwise. Plain JSON numbers are read by our own
 * reader, keeping their literal text (never through a JavaScript number).
 *
 * Then each item's key is checked against the table's key schema (rules B.7 and B.9,
 * docs/dynamodb-rules.md), and two pasted items with the same key are refused: one put would
 * silently replace the other.
 */
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { parseDynamoJson, parsePlainJsonItems, type TextProblem } from "../../shared/dynamoJson";
import { describeKey, keyProblems } from "../../shared/itemKey";
import { keyAttributes } from "../../shared/keySchema";
import { decimalLiteral, parseDecimal } from "../../shared/attributeValue";

export type PasteFormat = "dynamo" | "plain";

export type PastedItems =
  | { ok: true; format: PasteFormat; items: Item[] }
  /** `item` is the 0-based entry the problems are about, null for the whole text. */
  | { ok: false; item: number | null; problems: TextProblem[] };

const DESCRIPTORS = new Set(["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"]);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function looksDynamo(raw: Record<string, unknown>): boolean {
  const values = Object.values(raw);
  return (
    values.length > 0 &&
    values.every((v) => isObject(v) && Object.keys(v).length === 1 && DESCRIPTORS.has(Object.keys(v)[0] as string))
  );
}

/** The entries of the text, as JSON texts of single objects (for JSON Lines and wrappers). */
type Entries = { texts: string[]; raw: Record<string, unknown>[]; wrapped?: boolean };

function entries(text: string): Entries | TextProblem {
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // JSON Lines: every non-empty line one object.
    const lines = text.split("\n").filter((l) => l.trim() !== "");
    const raw: Record<string, unknown>[] = [];
    for (const [i, line] of lines.entries()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (err) {
        if (lines.length === 1 || i === 0) {
          return { path: "", message: `The text is not valid JSON: ${err instanceof Error ? err.message : String(err)}.` };
        }
        return { path: "", message: `Line ${i + 1} is not valid JSON: ${err instanceof Error ? err.message : String(err)}.` };
      }
      if (!isObject(parsed)) return { path: "", message: `Line ${i + 1} is not a JSON object of attribute names to values.` };
      raw.push(parsed);
    }
    return { texts: lines, raw };
  }
  if (isObject(whole) && Object.keys(whole).length === 1 && isObject(whole.Item)) {
    return { texts: [JSON.stringify(whole.Item)], raw: [whole.Item] };
  }
  if (isObject(whole) && Array.isArray(whole.Items) && !looksDynamo(whole)) {
    // Only the wrapper's text can carry exact plain numbers; the wrapper is read as a whole below.
    return { texts: [text], raw: whole.Items.filter(isObject), wrapped: true };
  }
  if (Array.isArray(whole)) return { texts: [text], raw: whole.filter(isObject) };
  if (isObject(whole)) return { texts: [text], raw: [whole] };
  return { path: "", message: "Paste an item (a JSON object) or a list of items." };
}

/** Reads pasted text as the items to put into a table keyed by `keys`. */
export function readPastedItems(text: string, keys: KeySchema): PastedItems {
  if (text.trim() === "") return { ok: false, item: null, problems: [{ path: "", message: "Paste one item or several." }] };
  const found = entries(text);
  if (!("texts" in found)) return { ok: false, item: null, problems: [found] };
  if (found.raw.length === 0) return { ok: false, item: null, problems: [{ path: "", message: "The text holds no item." }] };
  const format: PasteFormat = found.raw.every(looksDynamo) ? "dynamo" : "plain";
  let items: Item[] = [];
  if (format === "dynamo") {
    for (const [i, raw] of found.raw.entries()) {
      const parsed = parseDynamoJson(JSON.stringify(raw));
      if (!parsed.ok) return { ok: false, item: i, problems: [parsed.problem] };
      items.push(parsed.value);
    }
  } else {
    for (const entry of found.texts) {
      // A wrapper ({"Items": [...]}) is unwrapped after the exact read.
      const parsed = parsePlainJsonItems(entry);
      if (!parsed.ok) return { ok: false, item: null, problems: [parsed.problem] };
      const read = parsed.value;
      const first = read[0];
      if (found.wrapped && first !== undefined && first.Items !== undefined && "L" in first.Items) {
        items = first.Items.L.flatMap((v) => ("M" in v ? [v.M] : []));
      } else {
        items.push(...read);
      }
    }
  }
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const problems = keyProblems(keys, item);
    if (problems.length > 0) return { ok: false, item: i, problems };
    // Numbers by value (1 and 1.0 are one key, rule B.9), strings and binaries by their text.
    const key = JSON.stringify(
      keyAttributes(keys).map((k) => {
        const v = item[k.name];
        const n = v !== undefined && "N" in v ? parseDecimal(v.N) : null;
        return n === null ? v : { N: decimalLiteral(n) };
      }),
    );
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      return {
        ok: false,
        item: i,
        problems: [{ path: "", message: `Items ${earlier + 1} and ${i + 1} have the same key (${describeKey(keys, item)}): one would replace the other.` }],
      };
    }
    seen.set(key, i);
  }
  return { ok: true, format, items };
}
