/**
 * What the create-table form checks on its own, as the user types, and says in plain words next
 * to the field it is about — before the backend's verdict (DynamoDB's own CreateTable rules,
 * `useNewTableCheck`), whose message stays available beneath. Each check cites the rule it
 * follows in docs/dynamodb-rules.md.
 */
import type { TableDraft } from "./model";
import { typedUnits } from "../../shared/capacityUnits";

/** Where a problem is shown: a field of the form ("name", "partition", "sort", …). */
export type FieldId = string;

export type FieldProblem = { field: FieldId; sentence: string };

/** The problems of the draft's keys: every key attribute has a name (B.8: at least one character). */
function keyProblems(draft: TableDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (draft.partition.name === "") problems.push({ field: "partition", sentence: "Name the partition key." });
  if (draft.sort !== null && draft.sort.name === "") problems.push({ field: "sort", sentence: "Name the sort key." });
  return problems;
}

/** A provisioned table's units: whole numbers from 1 to 40,000 (B.7). */
function capacityProblems(draft: TableDraft): FieldProblem[] {
  if (draft.billing !== "PROVISIONED") return [];
  const problems: FieldProblem[] = [];
  for (const [field, text] of [
    ["rcu", draft.readUnits],
    ["wcu", draft.writeUnits],
  ] as const) {
    const typed = typedUnits(text);
    if (!typed.ok) problems.push({ field, sentence: typed.sentence });
  }
  return problems;
}

/** What the form knows of the connection: its name and its tables' names (`null` until read). */
export type Connection = { name: string; tables: Set<string> | null };

/** A name another table of the connection has: CreateTable would answer ResourceInUseException
 * (B.10), said before it is sent. Names are case-sensitive (B.8). */
function nameProblems(draft: TableDraft, connection: Connection): FieldProblem[] {
  if (connection.tables?.has(draft.name)) {
    return [{ field: "name", sentence: `A table named ${draft.name} already exists on ${connection.name}.` }];
  }
  return [];
}

/** Every problem the form finds in `draft`, in the order of the form's fields. */
export function draftProblems(draft: TableDraft, connection: Connection): FieldProblem[] {
  return [...nameProblems(draft, connection), ...keyProblems(draft), ...capacityProblems(draft)];
}

/** Whether the backend's check was given a stand-in for what the user typed (its message would
 * quote a value the user never typed). */
export function checkedWithStandIn(problems: FieldProblem[]): boolean {
  return problems.some((p) => p.field === "rcu" || p.field === "wcu");
}

/** The first problem about `field`, if any. */
export function problemOf(problems: FieldProblem[], field: FieldId): string | null {
  return problems.find((p) => p.field === field)?.sentence ?? null;
}
