/**
 * What the create-table form checks on its own, as the user types, and says in plain words next
 * to the field it is about — before the backend's verdict (DynamoDB's own CreateTable rules,
 * `useNewTableCheck`), whose message stays available beneath. Each check cites the rule it
 * follows in docs/dynamodb-rules.md.
 */
import type { NewTable, ScalarType } from "../../ipc/bindings.gen";
import type { IndexDraft, KeyDraft, TableDraft } from "./model";
import { typedUnits } from "../../shared/capacityUnits";

/** Where a problem is shown: a field of the form ("name", "partition", "sort", …). */
export type FieldId = string;

export type FieldProblem = { field: FieldId; sentence: string };

/** The problems of the draft's keys: every key attribute has a name (B.8: at least one character). */
function keyProblems(draft: TableDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (draft.partition.name === "") problems.push({ field: "partition", sentence: "Name the partition key." });
  if (draft.sort !== null && draft.sort.name === "") problems.push({ field: "sort", sentence: "Name the sort key." });
  // B.15, CreateTable's attribute definitions: "Both the Hash Key and the Range Key element in the
  // KeySchema have the same name".
  if (draft.sort !== null && draft.sort.name !== "" && draft.sort.name === draft.partition.name) {
    problems.push({ field: "sort", sentence: "The partition key and the sort key must have different names." });
  }
  return problems;
}

const TYPE_WORDS: Record<ScalarType, string> = { S: "a String (S)", N: "a Number (N)", B: "a Binary (B)" };

/** A table or index name, per B.8: 3–255 characters of a-z A-Z 0-9 _ . - (what, "table" or "index"). */
export function nameSentence(name: string, what: "table" | "index"): string | null {
  const Name = what === "table" ? "A table name" : "An index name";
  if (name === "") return `Name the ${what}: 3 to 255 characters of letters, digits, _ . and -.`;
  const wrong = [...new Set([...name].filter((c) => !/[a-zA-Z0-9_.-]/.test(c)))];
  if (wrong.length > 0) {
    const shown = wrong.map((c) => (c === " " ? "spaces" : `“${c}”`)).join(", ");
    return `${Name} may only use letters a–z and A–Z, digits, _ . and -: this one has ${shown}.`;
  }
  if (name.length < 3 || name.length > 255) return `${Name} has 3 to 255 characters: this one has ${name.length}.`;
  return null;
}

/** An attribute's type as the definitions seen so far give it, in words. */
type Definitions = Map<string, { type: ScalarType; where: string }>;

/** A key attribute named like one already defined with another type: CreateTable answers
 * "Attribute Name is duplicated" (B.15, CreateTable's attribute definitions), said here as what it is. */
function clash(definitions: Definitions, key: KeyDraft): string | null {
  const known = definitions.get(key.name);
  if (known === undefined || known.type === key.type) return null;
  return `${key.name} is ${TYPE_WORDS[known.type]} in ${known.where}: an attribute has one type across the table and its indexes, so use ${known.type} here, or another name.`;
}

/**
 * The problems of one index: its name (B.8, and no two alike: B.10 "Duplicate index name"), its
 * keys named and distinct, and their types agreeing with the attributes defined before it
 * (`definitions`, which this adds to). `others` are the names of the indexes before it.
 */
export function indexProblems(index: Pick<IndexDraft, "kind" | "name" | "partition" | "sort">, prefix: string, others: string[], definitions: Definitions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const named = nameSentence(index.name, "index");
  if (named !== null) problems.push({ field: `${prefix}-name`, sentence: named });
  else if (others.includes(index.name)) problems.push({ field: `${prefix}-name`, sentence: `Another index is named ${index.name}: each index needs its own name.` });
  const where = `the index ${index.name || "above"}`;
  if (index.kind === "global") {
    if (index.partition.name === "") problems.push({ field: `${prefix}-pk`, sentence: "Name the index's partition key." });
    else {
      const clashing = clash(definitions, index.partition);
      if (clashing !== null) problems.push({ field: `${prefix}-pk`, sentence: clashing });
      else if (!definitions.has(index.partition.name)) definitions.set(index.partition.name, { type: index.partition.type, where });
    }
  }
  if (index.sort !== null) {
    if (index.sort.name === "") problems.push({ field: `${prefix}-sk`, sentence: "Name the index's sort key." });
    else if (index.kind === "global" && index.sort.name === index.partition.name) {
      problems.push({ field: `${prefix}-sk`, sentence: "The index's partition key and sort key must have different names." });
    } else {
      const clashing = clash(definitions, index.sort);
      if (clashing !== null) problems.push({ field: `${prefix}-sk`, sentence: clashing });
      else if (!definitions.has(index.sort.name)) definitions.set(index.sort.name, { type: index.sort.type, where });
    }
  }
  return problems;
}

/** The attributes a table's key defines, as `indexProblems` starts from. */
export function tableDefinitions(keys: { name: string; type: ScalarType }[], where = "the table's key"): Definitions {
  return new Map(keys.filter((k) => k.name !== "").map((k) => [k.name, { type: k.type, where }]));
}

function allIndexProblems(draft: TableDraft): FieldProblem[] {
  const definitions = tableDefinitions([draft.partition, ...(draft.sort === null ? [] : [draft.sort])]);
  const problems: FieldProblem[] = [];
  draft.indexes.forEach((index, at) => {
    const others = draft.indexes.slice(0, at).map((i) => i.name);
    problems.push(...indexProblems(index, `index-${index.id}`, others, definitions));
  });
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
  const named = nameSentence(draft.name, "table");
  if (named !== null) return [{ field: "name", sentence: named }];
  if (connection.tables?.has(draft.name)) {
    return [{ field: "name", sentence: `A table named ${draft.name} already exists on ${connection.name}.` }];
  }
  return [];
}

/** Every problem the form finds in `draft`, in the order of the form's fields. */
export function draftProblems(draft: TableDraft, connection: Connection): FieldProblem[] {
  return [...nameProblems(draft, connection), ...keyProblems(draft), ...capacityProblems(draft), ...allIndexProblems(draft)];
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

/**
 * DynamoDB's refusal of a draft the form's own checks let through, as a plain first sentence (its
 * message is shown beneath). Matched on the service's sentences (B.10, B.15); anything else is
 * said generally.
 */
export function plainRefusal(problem: { message: string }, table: NewTable): string {
  const m = problem.message;
  if (m.includes("does not have a range key, which is required when specifying a LocalSecondaryIndex")) {
    return "A local secondary index needs the table to have a sort key: tick Sort key, or remove the LSI.";
  }
  const duplicate = /Duplicate index name: (\S+)/.exec(m);
  if (duplicate !== null) return `Two indexes are named ${duplicate[1]}: each index needs its own name.`;
  const twice = /Attribute Name is duplicated: (\S+)/.exec(m);
  if (twice !== null) return `${twice[1]} is given two different types: an attribute has one type across the table and its indexes.`;
  if (m.includes("have the same name")) return "The partition key and the sort key must have different names.";
  if (m.includes("GlobalSecondaryIndex count exceeds")) return "A table can have at most 20 global secondary indexes.";
  if (/NonKeyAttributes/i.test(m)) return "An index's projected attributes (INCLUDE) are not as DynamoDB takes them: check the list of each INCLUDE index.";
  if (/tableName|TableName/.test(m)) return nameSentence(table.name, "table") ?? `DynamoDB would refuse the name ${table.name}.`;
  return "DynamoDB would refuse this table as it stands.";
}
