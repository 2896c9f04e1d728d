/**
 * The typed form's model: one row per attribute (name, type, value as text), and the conversion
 * between rows and an item. Value text by type: S as is; N as the number's text; B as base64;
 * BOOL "true"/"false"; NULL has no text; SS, NS and BS one value per line; M and L as DynamoDB
 * JSON of their contents (`{"city": {"S": "Leeds"}}` for a map, `[{"N": "1"}]` for a list).
 *
 * Set rules (rule B.7, docs/dynamodb-rules.md): a set is not empty and holds no duplicates.
 */
import type { AttributeValue } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { isBase64, isNumberText, parseDecimal, compareDecimals, typeOf, type AttributeType } from "../../shared/attributeValue";
import { readDynamoValue, type TextProblem } from "../../shared/dynamoJson";

export type FormRow = { id: number; name: string; type: AttributeType; text: string };

let nextRowId = 1;
/** A fresh row id (rows keep their identity while their name is edited). */
export function newRowId(): number {
  return nextRowId++;
}

/** The text a value is edited as in its row. */
export function valueText(value: AttributeValue): string {
  if ("S" in value) return value.S;
  if ("N" in value) return value.N;
  if ("B" in value) return value.B;
  if ("BOOL" in value) return value.BOOL ? "true" : "false";
  if ("NULL" in value) return "";
  if ("SS" in value) return value.SS.join("\n");
  if ("NS" in value) return value.NS.join("\n");
  if ("BS" in value) return value.BS.join("\n");
  if ("M" in value) return JSON.stringify(value.M, null, 2);
  return JSON.stringify(value.L, null, 2);
}

export function itemToRows(item: Item, leading: string[] = []): FormRow[] {
  const names = [...leading.filter((n) => n in item), ...Object.keys(item).filter((n) => !leading.includes(n))];
  return names.map((name) => {
    const value = item[name] as AttributeValue;
    return { id: newRowId(), name, type: typeOf(value), text: valueText(value) };
  });
}

/** The text a row keeps when its type is changed: what still makes sense, else a neutral start. */
export function retypeText(row: FormRow, type: AttributeType): string {
  const scalar = (t: AttributeType) => t === "S" || t === "N" || t === "B";
  const set = (t: AttributeType) => t === "SS" || t === "NS" || t === "BS";
  if ((scalar(row.type) && scalar(type)) || (set(row.type) && set(type)) || (scalar(row.type) && set(type))) return row.text;
  if (type === "BOOL") return row.text === "true" ? "true" : "false";
  if (type === "M") return "{}";
  if (type === "L") return "[]";
  return "";
}

/** One row's value, or what is wrong with it. */
export function rowValue(row: FormRow): { value: AttributeValue } | { problem: string } {
  const lines = () => row.text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  switch (row.type) {
    case "S":
      return { value: { S: row.text } };
    case "N":
      return isNumberText(row.text) ? { value: { N: row.text.trim() } } : { problem: `"${row.text}" is not a number. Write it like 42 or -3.5.` };
    case "B":
      return isBase64(row.text) ? { value: { B: row.text } } : { problem: "Binary must be written as base64, like AAEC or SGVsbG8=." };
    case "BOOL":
      return { value: { BOOL: row.text === "true" } };
    case "NULL":
      return { value: { NULL: true } };
    case "SS":
    case "NS":
    case "BS": {
      const values = lines();
      if (values.length === 0) return { problem: "A set cannot be empty: write one value per line." };
      if (row.type === "NS") {
        const bad = values.find((v) => !isNumberText(v));
        if (bad !== undefined) return { problem: `"${bad}" in the number set is not a number.` };
      }
      if (row.type === "BS") {
        const bad = values.find((v) => !isBase64(v));
        if (bad !== undefined) return { problem: `"${bad}" in the binary set is not base64.` };
      }
      const duplicate = findDuplicate(values, row.type === "NS");
      if (duplicate !== null) return { problem: `"${duplicate}" appears twice; a set holds each value once.` };
      return { value: row.type === "SS" ? { SS: values } : row.type === "NS" ? { NS: values } : { BS: values } };
    }
    case "M":
    case "L": {
      let raw: unknown;
      try {
        raw = JSON.parse(row.text);
      } catch {
        return { problem: `The ${row.type === "M" ? "map" : "list"} is not valid JSON. Write it as DynamoDB JSON, like ${row.type === "M" ? '{"city": {"S": "Leeds"}}' : '[{"N": "1"}]'}.` };
      }
      const parsed = readDynamoValue(row.type === "M" ? { M: raw } : { L: raw }, row.name);
      return parsed.ok ? { value: parsed.value } : { problem: parsed.problem.message };
    }
  }
}

/** Numbers are duplicates when numerically equal (1 and 1.0), strings and binaries when identical. */
function findDuplicate(values: string[], numeric: boolean): string | null {
  for (let i = 0; i < values.length; i++) {
    for (let j = 0; j < i; j++) {
      const a = values[i] as string;
      const b = values[j] as string;
      if (numeric ? compareDecimals(parseDecimal(a)!, parseDecimal(b)!) === 0 : a === b) return a;
    }
  }
  return null;
}

/** The item the rows describe, or the problems keyed by row id (plus the name problems). */
export function rowsToItem(rows: FormRow[]): { item: Item; problems: Map<number, string> } {
  const item: Item = {};
  const problems = new Map<number, string>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.name === "") {
      problems.set(row.id, "Give the attribute a name.");
      continue;
    }
    if (seen.has(row.name)) {
      problems.set(row.id, `Another attribute is already named ${row.name}.`);
      continue;
    }
    seen.add(row.name);
    const result = rowValue(row);
    if ("problem" in result) problems.set(row.id, result.problem);
    else item[row.name] = result.value;
  }
  return { item, problems };
}

/** Problems of a form as path + message (the row's attribute name as the path). */
export function rowProblems(rows: FormRow[], problems: Map<number, string>): TextProblem[] {
  return rows.flatMap((row) => {
    const message = problems.get(row.id);
    return message === undefined ? [] : [{ path: row.name, message }];
  });
}
