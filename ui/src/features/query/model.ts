/**
 * The one query model of a table's tab, as plain data: what the query bar shows (operation, table
 * or index, the key values as typed, the sort-key operator, filter, projection, order, Limit,
 * consistency) and the pure functions that turn it into the builder's `ReadRequest` — the request
 * every Query and Scan of the bar is generated, shown, exported and run from — and back.
 *
 * DynamoDB's rules applied here, before anything is sent (docs/dynamodb-rules.md):
 * - B.5: the partition key takes `=` with a value of its type; a string or binary key value is not
 *   empty; the sort-key operators are the ones the backend lists for the key's type;
 * - B.18.5: on a global secondary index whose key has several attributes, every partition-key
 *   attribute takes `=` with a value (`morePartition`, in key-schema order), and the sort-key
 *   attributes go left to right: the leading ones held equal (`sortEqual`), the sort condition on
 *   the next one;
 * - B.4: Limit is a whole number of at least 1, the items evaluated per page;
 * - a global secondary index supports only eventually consistent reads (ConsistentRead is dropped
 *   from the request, and the bar disables it).
 */
import type {
  AttributeValue,
  AttributeValueJson,
  BuiltRequest,
  ConditionState,
  Direction,
  BuilderKeyEquality as KeyEquality,
  KeyConditionState,
  KeySchemaState,
  ProjectionState,
  QueryInput,
  ReadOperation,
  ReadRequest,
  SortKeyCondition,
  SortKeyOperator,
  TableDescription,
} from "../../ipc/bindings.gen";
import { formatPath, keySchemaOf, parsePath } from "../builder/model";
import { compareKeyValues, numberLimit, parseDecimal } from "../../shared/attributeValue";

export type SortChoice = SortKeyOperator | "none";

/** The bar's fields. Key values are kept as typed, so a half-typed number survives an edit. */
export type QueryForm = {
  operation: ReadOperation;
  index: string | null;
  partition: string;
  /** The values of a multi-attribute partition key's other attributes, in key-schema order. */
  morePartition: string[];
  /** The values the leading sort-key attributes are held equal to; `sortOp` is on the next one. */
  sortEqual: string[];
  sortOp: SortChoice;
  sort: string;
  sortHigh: string;
  filter: ConditionState | null;
  projection: ProjectionState | null;
  direction: Direction;
  limit: string;
  consistentRead: boolean;
};

export const EMPTY_FORM: QueryForm = {
  operation: "Query",
  index: null,
  partition: "",
  morePartition: [],
  sortEqual: [],
  sortOp: "none",
  sort: "",
  sortHigh: "",
  filter: null,
  projection: null,
  direction: "ascending",
  limit: "",
  consistentRead: false,
};

/** A field of the bar that can be wrong on its own. */
export type FieldName =
  | "partition"
  | "sort"
  | "sortHigh"
  | "limit"
  | `morePartition.${number}`
  | `sortEqual.${number}`
  /** The filter or projection typed as text, while the text cannot be used as it is. */
  | "filter"
  | "projection"
  /** A Scan's capacity budget ("Stop after (RCU)"). */
  | "budget";

/** The sort-key attributes of a key schema, in key-schema order. */
export function sortKeysOf(schema: KeySchemaState | null): KeySchemaState["partitionKey"][] {
  return schema?.sortKey ? [schema.sortKey, ...(schema.moreSortKeys ?? [])] : [];
}

/** The names of every key attribute of a key schema (partition and sort, all of a multi-attribute key's). */
export function keyNamesOf(schema: KeySchemaState | null): string[] {
  if (schema === null) return [];
  return [schema.partitionKey, ...(schema.morePartitionKeys ?? []), ...sortKeysOf(schema)].map((k) => k.name);
}

/** The sort-key attribute the form's sort condition is on: the one after those held equal. */
export function activeSortKey(form: QueryForm, schema: KeySchemaState | null): KeySchemaState["partitionKey"] | null {
  return sortKeysOf(schema)[form.sortEqual.length] ?? null;
}
export type Problems = Partial<Record<FieldName, string>>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A key value typed as text, as a typed value of the key's type, or why it is not one. */
export function keyValue(type: "S" | "N" | "B", name: string, text: string): { value: AttributeValueJson } | { problem: string } {
  if (text === "") return { problem: `Enter a value for ${name}.` };
  if (type === "N") {
    const decimal = parseDecimal(text);
    if (decimal === null) return { problem: `${name} is a number: "${text}" is not one. Write it like 42 or -3.5.` };
    const limit = numberLimit(decimal);
    if (limit === "range") return { problem: `${name} is outside DynamoDB's number range (about ±1E-130 to ±9.99E+125).` };
    if (limit === "digits") return { problem: `${name} has more than 38 significant digits: DynamoDB keeps 38 at most.` };
    return { value: { N: text.trim() } };
  }
  if (type === "B") return BASE64.test(text) ? { value: { B: text } } : { problem: `${name} is binary: write it as base64, like AAEC or SGVsbG8=.` };
  return { value: { S: text } };
}

/**
 * A Scan's capacity budget as typed: `null` when the field is empty (no budget), or why the text
 * is not one. Never "no budget" for a text that is wrong: on AWS a Scan without one reads (and
 * bills) the whole table.
 */
export function budgetOf(text: string): { budget: number | null } | { problem: string } {
  const t = text.trim();
  if (t === "") return { budget: null };
  const n = Number(t);
  return /^(\d+\.?\d*|\.\d+)$/.test(t) && Number.isFinite(n) && n > 0
    ? { budget: n }
    : { problem: "The budget is a number of read units above 0, like 50." };
}

/** Whether the index read is a global secondary index (no strongly consistent reads). */
export function isGlobalIndex(table: TableDescription, index: string | null): boolean {
  return index !== null && table.indexes.find((i) => i.name === index)?.kind === "global";
}

/** What is wrong with the fields, field by field (empty when the request can be built). */
export function problemsOf(form: QueryForm, schema: KeySchemaState | null): Problems {
  const problems: Problems = {};
  if (form.limit !== "" && !(/^\d+$/.test(form.limit) && Number(form.limit) >= 1)) {
    problems.limit = "Limit is a whole number of at least 1: the items evaluated per page.";
  }
  if (form.operation === "Scan" || schema === null) return problems;
  const pk = keyValue(schema.partitionKey.type, schema.partitionKey.name, form.partition);
  if ("problem" in pk) problems.partition = pk.problem;
  (schema.morePartitionKeys ?? []).forEach((key, i) => {
    const value = keyValue(key.type, key.name, form.morePartition[i] ?? "");
    if ("problem" in value) problems[`morePartition.${i}`] = value.problem;
  });
  sortKeysOf(schema)
    .slice(0, form.sortEqual.length)
    .forEach((key, i) => {
      const value = keyValue(key.type, key.name, form.sortEqual[i] ?? "");
      if ("problem" in value) problems[`sortEqual.${i}`] = value.problem;
    });
  const sortKey = activeSortKey(form, schema);
  if (sortKey !== null && form.sortOp !== "none") {
    const low = keyValue(sortKey.type, sortKey.name, form.sort);
    if ("problem" in low) problems.sort = low.problem;
    if (form.sortOp === "BETWEEN") {
      const high = keyValue(sortKey.type, sortKey.name, form.sortHigh);
      if ("problem" in high) problems.sortHigh = high.problem;
      // DynamoDB refuses a BETWEEN whose first value is above the second (in its order of key values).
      else if ("value" in low && compareKeyValues(low.value as AttributeValue, high.value as AttributeValue) > 0) {
        problems.sortHigh = `The range of ${sortKey.name} is reversed: the first value must not be greater than the second.`;
      }
    }
  }
  return problems;
}

/** The key condition of the form, or null while a key value is missing or of the wrong type. */
export function keyConditionOf(form: QueryForm, schema: KeySchemaState): KeyConditionState | null {
  const pk = keyValue(schema.partitionKey.type, schema.partitionKey.name, form.partition);
  if ("problem" in pk) return null;
  const morePartition: KeyEquality[] = [];
  for (const [i, key] of (schema.morePartitionKeys ?? []).entries()) {
    const value = keyValue(key.type, key.name, form.morePartition[i] ?? "");
    if ("problem" in value) return null;
    morePartition.push({ name: key.name, value: value.value });
  }
  const sortEqual: KeyEquality[] = [];
  for (const [i, key] of sortKeysOf(schema).slice(0, form.sortEqual.length).entries()) {
    const value = keyValue(key.type, key.name, form.sortEqual[i] ?? "");
    if ("problem" in value) return null;
    sortEqual.push({ name: key.name, value: value.value });
  }
  const sortKey = activeSortKey(form, schema);
  let sort: KeyConditionState["sort"] = null;
  if (sortKey !== null && form.sortOp !== "none") {
    const low = keyValue(sortKey.type, sortKey.name, form.sort);
    if ("problem" in low) return null;
    if (form.sortOp === "BETWEEN") {
      const high = keyValue(sortKey.type, sortKey.name, form.sortHigh);
      if ("problem" in high) return null;
      sort = { type: "between", name: sortKey.name, low: low.value, high: high.value };
    } else if (form.sortOp === "begins_with") {
      sort = { type: "beginsWith", name: sortKey.name, prefix: low.value };
    } else {
      sort = { type: "compare", name: sortKey.name, op: form.sortOp, value: low.value };
    }
  }
  const condition: KeyConditionState = { partitionKey: schema.partitionKey.name, partitionValue: pk.value, sort };
  if (morePartition.length > 0) condition.morePartition = morePartition;
  if (sortEqual.length > 0) condition.sortEqual = sortEqual;
  return condition;
}

/**
 * The builder's request of the form; `null` while the fields cannot make one (see
 * [`problemsOf`]). ReturnConsumedCapacity is INDEXES: every read shows what it cost, per index.
 */
export function requestOf(form: QueryForm, table: TableDescription): ReadRequest | null {
  const schema = keySchemaOf(table, form.index);
  if (Object.keys(problemsOf(form, schema)).length > 0) return null;
  const keyCondition = form.operation === "Query" && schema !== null ? keyConditionOf(form, schema) : null;
  if (form.operation === "Query" && keyCondition === null) return null;
  return {
    operation: form.operation,
    tableName: table.name,
    indexName: form.index,
    keyCondition,
    filter: form.filter,
    projection: form.projection,
    direction: form.operation === "Query" ? form.direction : "ascending",
    limit: form.limit === "" ? null : Number(form.limit),
    consistentRead: form.consistentRead && !isGlobalIndex(table, form.index),
    returnConsumedCapacity: "INDEXES",
  };
}

/** The `#name` and `:value` placeholders a piece of expression text uses. */
export function placeholdersIn(text: string): Set<string> {
  return new Set(text.match(/[#:][A-Za-z0-9_]+/g) ?? []);
}

/** The generated filter with only the names and values it uses (the request's maps also serve the key condition and projection). */
export function filterPart(built: BuiltRequest | null): { text: string; names: Record<string, string> | null; values: Record<string, AttributeValue> | null } | null {
  const text = built?.request.filterExpression ?? null;
  if (built === null || text === null) return null;
  const used = placeholdersIn(text);
  const pick = <V>(map: { [key in string]: V } | null | undefined) => {
    const entries = Object.entries(map ?? {}).filter(([k]) => used.has(k));
    return entries.length === 0 ? null : Object.fromEntries(entries);
  };
  return {
    text,
    names: pick(built.request.expressionAttributeNames),
    values: pick(built.request.expressionAttributeValues) as Record<string, AttributeValue> | null,
  };
}

function appSortCondition(sort: KeyConditionState["sort"]): SortKeyCondition | null {
  if (sort === null || sort === undefined) return null;
  const v = (value: AttributeValueJson) => value as AttributeValue;
  if (sort.type === "between") return { op: "between", low: v(sort.low), high: v(sort.high) };
  if (sort.type === "beginsWith") return { op: "beginsWith", value: v(sort.prefix) };
  const op = ({ "=": "eq", "<": "lt", "<=": "le", ">": "gt", ">=": "ge" } as const)[sort.op as "=" | "<" | "<=" | ">" | ">="];
  return op === undefined ? null : { op, value: v(sort.value) };
}

/**
 * The request in the collection view's shape, for what speaks of "the current query" (the cost
 * estimate, the export of every page, the history): a Query only; its filter as the builder wrote it.
 */
export function queryInputOf(request: ReadRequest | null, built: BuiltRequest | null): QueryInput | null {
  if (request === null || request.operation !== "Query" || !request.keyCondition) return null;
  const filter = request.filter ? filterPart(built) : null;
  if (request.filter && filter === null) return null;
  const morePartitionValues = (request.keyCondition.morePartition ?? []).map((e) => e.value as AttributeValue);
  const sortEqualValues = (request.keyCondition.sortEqual ?? []).map((e) => e.value as AttributeValue);
  return {
    table: request.tableName,
    index: request.indexName ?? null,
    partitionValue: request.keyCondition.partitionValue as AttributeValue,
    ...(morePartitionValues.length > 0 ? { morePartitionValues } : {}),
    ...(sortEqualValues.length > 0 ? { sortEqualValues } : {}),
    sortCondition: appSortCondition(request.keyCondition.sort),
    scanIndexForward: request.direction !== "descending",
    limit: request.limit ?? null,
    consistentRead: request.consistentRead ?? false,
    projection: request.projection ? request.projection.paths.map(formatPath).join(", ") : null,
    filter: filter?.text ?? null,
    filterNames: filter?.names ?? null,
    filterValues: filter?.values ?? null,
    exclusiveStartKey: null,
  };
}

function keyText(value: AttributeValueJson | AttributeValue): string {
  if ("S" in value && value.S !== undefined) return value.S;
  if ("N" in value && value.N !== undefined) return value.N;
  if ("B" in value && value.B !== undefined) return value.B;
  return "";
}

/** A request in a few words, to name it in sentences: `vehicleId = VEH#V-7741 and recordedAt > TS#…`, `a Scan of Telemetry`. */
export function describeRequest(request: ReadRequest): string {
  const on = request.indexName ? ` on ${request.indexName}` : "";
  const k = request.keyCondition ?? null;
  if (request.operation === "Scan" || k === null) return `a ${request.operation} of ${request.indexName ?? request.tableName}`;
  const parts = [
    `${k.partitionKey} = ${keyText(k.partitionValue)}`,
    ...[...(k.morePartition ?? []), ...(k.sortEqual ?? [])].map((e) => `${e.name} = ${keyText(e.value)}`),
  ];
  const sort = k.sort ?? null;
  if (sort?.type === "between") parts.push(`${sort.name} between ${keyText(sort.low)} and ${keyText(sort.high)}`);
  else if (sort?.type === "beginsWith") parts.push(`${sort.name} begins with ${keyText(sort.prefix)}`);
  else if (sort?.type === "compare") parts.push(`${sort.name} ${sort.op} ${keyText(sort.value)}`);
  return parts.join(" and ") + on;
}

/**
 * The bar's request in one line, as the folded bar shows it: `Query Telemetry · vehicleId =
 * VEH#V-7741 · recordedAt BETWEEN TS#… AND TS#… · 25 per page`. Read from the form, so a request
 * still being typed reads as it stands ("…" for a value not typed yet).
 */
export function formSummary(form: QueryForm, tableName: string, schema: KeySchemaState | null): string {
  const value = (text: string) => (text.trim() === "" ? "…" : text.trim());
  const parts = [`${form.operation} ${form.index ?? tableName}`];
  if (form.operation === "Query" && schema !== null) {
    parts.push(`${schema.partitionKey.name} = ${value(form.partition)}`);
    (schema.morePartitionKeys ?? []).forEach((key, i) => parts.push(`${key.name} = ${value(form.morePartition[i] ?? "")}`));
    const sortKeys = sortKeysOf(schema);
    form.sortEqual.forEach((text, i) => parts.push(`${sortKeys[i]?.name ?? "sort key"} = ${value(text)}`));
    const sortKey = activeSortKey(form, schema);
    if (sortKey !== null && form.sortOp !== "none") {
      if (form.sortOp === "BETWEEN") parts.push(`${sortKey.name} BETWEEN ${value(form.sort)} AND ${value(form.sortHigh)}`);
      else if (form.sortOp === "begins_with") parts.push(`${sortKey.name} begins_with ${value(form.sort)}`);
      else parts.push(`${sortKey.name} ${form.sortOp} ${value(form.sort)}`);
    }
    if (form.direction === "descending") parts.push("descending");
  }
  if (form.filter) parts.push("filtered");
  if (form.projection) parts.push(`${form.projection.paths.length} ${form.projection.paths.length === 1 ? "attribute" : "attributes"}`);
  if (form.consistentRead) parts.push("strongly consistent");
  if (form.limit.trim() !== "") parts.push(`${form.limit.trim()} per page`);
  return parts.join(" · ");
}

/** The form a builder request (a recent run, a saved request) is edited in. */
export function formOfRequest(request: ReadRequest): QueryForm {
  const key = request.keyCondition ?? null;
  const sort = key?.sort ?? null;
  return {
    operation: request.operation,
    index: request.indexName ?? null,
    partition: key ? keyText(key.partitionValue) : "",
    morePartition: (key?.morePartition ?? []).map((e) => keyText(e.value)),
    sortEqual: (key?.sortEqual ?? []).map((e) => keyText(e.value)),
    sortOp: sort === null ? "none" : sort.type === "between" ? "BETWEEN" : sort.type === "beginsWith" ? "begins_with" : (sort.op as SortKeyOperator),
    sort: sort === null ? "" : keyText(sort.type === "between" ? sort.low : sort.type === "beginsWith" ? sort.prefix : sort.value),
    sortHigh: sort?.type === "between" ? keyText(sort.high) : "",
    filter: request.filter ?? null,
    projection: request.projection ?? null,
    direction: request.direction ?? "ascending",
    limit: request.limit ? String(request.limit) : "",
    consistentRead: request.consistentRead ?? false,
  };
}

const OPS: Record<Exclude<SortKeyCondition["op"], "between" | "beginsWith">, SortKeyOperator> = { eq: "=", lt: "<", le: "<=", gt: ">", ge: ">=" };

/** The form a collection-view query (from the history, or "open this collection") is edited in; its filter comes separately (it is text to parse). */
export function formOfQueryInput(input: QueryInput): QueryForm {
  const c = input.sortCondition;
  const projection = (input.projection ?? "")
    .split(",")
    .map((p) => parsePath(p))
    .filter((p): p is NonNullable<typeof p> => p !== null);
  return {
    ...EMPTY_FORM,
    index: input.index,
    partition: keyText(input.partitionValue),
    morePartition: (input.morePartitionValues ?? []).map(keyText),
    sortEqual: (input.sortEqualValues ?? []).map(keyText),
    sortOp: c === null ? "none" : c.op === "between" ? "BETWEEN" : c.op === "beginsWith" ? "begins_with" : OPS[c.op],
    sort: c === null ? "" : keyText(c.op === "between" ? c.low : c.value),
    sortHigh: c?.op === "between" ? keyText(c.high) : "",
    projection: projection.length > 0 ? { paths: projection } : null,
    direction: input.scanIndexForward ? "ascending" : "descending",
    limit: input.limit === null ? "" : String(input.limit),
    consistentRead: input.consistentRead,
  };
}

/** The form after picking another table or index: key values kept where the key is the same. */
export function withIndex(form: QueryForm, table: TableDescription, index: string | null): QueryForm {
  const before = keySchemaOf(table, form.index);
  const after = keySchemaOf(table, index);
  const samePk = before?.partitionKey.name === after?.partitionKey.name && before?.partitionKey.type === after?.partitionKey.type;
  const names = (schema: KeySchemaState | null) => (schema?.morePartitionKeys ?? []).map((k) => `${k.name}:${k.type}`).join(",");
  const sameMore = samePk && names(before) === names(after);
  const sorts = (schema: KeySchemaState | null) => sortKeysOf(schema).map((k) => `${k.name}:${k.type}`).join(",");
  const sameSk = sorts(before) === sorts(after);
  return {
    ...form,
    index,
    partition: samePk ? form.partition : "",
    morePartition: sameMore ? form.morePartition : [],
    sortEqual: sameSk ? form.sortEqual : [],
    sortOp: sameSk ? form.sortOp : "none",
    sort: sameSk ? form.sort : "",
    sortHigh: sameSk ? form.sortHigh : "",
    consistentRead: isGlobalIndex(table, index) ? false : form.consistentRead,
  };
}
