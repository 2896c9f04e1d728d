/**
 * The bulk edit form's state as the backend's `BulkEdit` (issue 20, point 7): SET rows (a name,
 * a type and the value's text) and REMOVE names, or a delete. Values are built from their text
 * (an N keeps its digits as typed; a DynamoDB JSON value is read by `dynamoJson.ts`); the key
 * rules are the backend's (it answers with DynamoDB's message).
 */
import type { AttributeValue, BulkEdit } from "../../ipc/bindings.gen";
import { isNumberText } from "../../shared/attributeValue";
import { parseDynamoValueJson } from "../../shared/dynamoJson";

export type SetType = "S" | "N" | "BOOL" | "NULL" | "JSON";
export type SetRow = { name: string; type: SetType; text: string };
export type StagedForm = { kind: "update"; set: SetRow[]; remove: string } | { kind: "delete" };

export type Staged = { ok: true; edit: BulkEdit } | { ok: false; problem: string };

function valueOf(row: SetRow): AttributeValue | string {
  switch (row.type) {
    case "S":
      return { S: row.text };
    case "N":
      return isNumberText(row.text) ? { N: row.text.trim() } : `${row.name}: "${row.text}" is not a number.`;
    case "BOOL":
      return row.text === "true" || row.text === "false" ? { BOOL: row.text === "true" } : `${row.name}: write true or false.`;
    case "NULL":
      return { NULL: true };
    case "JSON": {
      const parsed = parseDynamoValueJson(row.text, row.name);
      return parsed.ok ? parsed.value : parsed.problem.message;
    }
  }
}

/** The form as the edit to send, or what is wrong with it. */
export function stagedEdit(form: StagedForm): Staged {
  if (form.kind === "delete") return { ok: true, edit: { kind: "delete" } };
  const set: { [key in string]: AttributeValue } = {};
  for (const row of form.set) {
    const name = row.name.trim();
    if (name === "" && row.text === "") continue;
    if (name === "") return { ok: false, problem: "A SET row has no attribute name." };
    if (name in set) return { ok: false, problem: `${name} is set twice.` };
    const value = valueOf({ ...row, name });
    if (typeof value === "string") return { ok: false, problem: value };
    set[name] = value;
  }
  const remove = form.remove
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  if (Object.keys(set).length === 0 && remove.length === 0) return { ok: false, problem: "Set or remove at least one attribute." };
  return { ok: true, edit: { kind: "update", set, remove } };
}
