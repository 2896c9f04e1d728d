/**
 * The preview of a key schema: example items grouped into the item collections they would form
 * on the table and on each index, as DynamoDB would store them — one collection per
 * partition-key value, its items in sort-key order (rule B.9), an index holding only the items
 * that carry its key attributes (a sparse index) and only the attributes it projects.
 */
import type { AttributeValue, KeySchema, NewTable } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { compareKeyValues } from "../../shared/attributeValue";
import { parseDynamoJson } from "../../shared/dynamoJson";

export type PreviewCollection = { partitionValue: AttributeValue; items: Item[] };

export type PreviewGroup = {
  /** The table's name, or the index's. */
  name: string;
  kind: "table" | "global" | "local";
  keys: KeySchema;
  collections: PreviewCollection[];
  /** Items not in this group, and why. */
  left: { item: Item; why: string }[];
  /** The key of this group (or the table's, for every group) that has no name yet: nothing can
   * be grouped on it, so no collection is drawn (an attribute name has at least one character,
   * docs/dynamodb-rules.md B.8). */
  unnamedKey: string | null;
};

/** Which of `keys` has an empty name ("partition key", "sort key"), or null when both are named. */
function unnamedKey(keys: KeySchema): string | null {
  if (keys.partitionKey.name === "") return "partition key";
  if (keys.sortKey !== null && keys.sortKey.name === "") return "sort key";
  return null;
}

/** Why `item` cannot have `keys` (missing, or of another type), or null when it can. */
function keyProblem(item: Item, keys: KeySchema): { missing: string } | { wrongType: string } | null {
  for (const key of [keys.partitionKey, keys.sortKey]) {
    if (key === null) continue;
    const value = item[key.name];
    if (value === undefined) return { missing: key.name };
    if (!(key.type in value)) return { wrongType: key.name };
  }
  return null;
}

function describe(item: Item, keys: KeySchema): string {
  const value = item[keys.partitionKey.name];
  return value === undefined ? "an item" : `${keys.partitionKey.name} = ${JSON.stringify(Object.values(value)[0])}`;
}

function grouped(items: Item[], keys: KeySchema): PreviewCollection[] {
  const byValue = new Map<string, PreviewCollection>();
  for (const item of items) {
    const value = item[keys.partitionKey.name]!;
    const id = JSON.stringify(value);
    const collection = byValue.get(id) ?? { partitionValue: value, items: [] };
    collection.items.push(item);
    byValue.set(id, collection);
  }
  const sortKey = keys.sortKey;
  const collections = [...byValue.values()];
  if (sortKey !== null) {
    for (const c of collections) c.items.sort((a, b) => compareKeyValues(a[sortKey.name]!, b[sortKey.name]!));
  }
  return collections.sort((a, b) => compareKeyValues(a.partitionValue, b.partitionValue));
}

/** The attributes an index entry holds: the index's and the table's keys, then what it projects. */
function projected(item: Item, table: KeySchema, index: NewTable["indexes"][number]): Item {
  if (index.projection.type === "ALL") return item;
  const names = new Set<string>();
  for (const keys of [index.keys, table]) {
    names.add(keys.partitionKey.name);
    if (keys.sortKey !== null) names.add(keys.sortKey.name);
  }
  if (index.projection.type === "INCLUDE") index.projection.attributes.forEach((a) => names.add(a));
  return Object.fromEntries(Object.entries(item).filter(([name]) => names.has(name)));
}

/** The collections of the table and of each of its indexes for `items`. */
export function previewGroups(table: NewTable, items: Item[]): PreviewGroup[] {
  const tableUnnamed = unnamedKey(table.keys);
  if (tableUnnamed !== null) {
    // Without the table's key nothing can be grouped, on the table or on any index.
    return [
      { name: table.name, kind: "table", keys: table.keys, collections: [], left: [], unnamedKey: tableUnnamed },
      ...table.indexes.map((index) => ({ name: index.name, kind: index.kind, keys: index.keys, collections: [], left: [], unnamedKey: tableUnnamed })),
    ];
  }
  const writable: Item[] = [];
  const refused: { item: Item; why: string }[] = [];
  const indexKeys = table.indexes.filter((i) => unnamedKey(i.keys) === null).map((i) => i.keys);
  for (const item of items) {
    const problem = keyProblem(item, table.keys);
    if (problem !== null) {
      refused.push({
        item,
        why:
          "missing" in problem
            ? `${describe(item, table.keys)}: no ${problem.missing}, so PutItem would refuse it`
            : `${describe(item, table.keys)}: ${problem.wrongType} is not of type ${table.keys.partitionKey.name === problem.wrongType ? table.keys.partitionKey.type : table.keys.sortKey?.type}, so PutItem would refuse it`,
      });
      continue;
    }
    // An index key of the wrong type makes the write itself fail.
    const wrong = indexKeys.map((k) => keyProblem(item, k)).find((p) => p !== null && "wrongType" in p);
    if (wrong !== undefined && wrong !== null && "wrongType" in wrong) {
      refused.push({ item, why: `${describe(item, table.keys)}: ${wrong.wrongType} has the wrong type for an index key, so PutItem would refuse it` });
      continue;
    }
    writable.push(item);
  }
  const groups: PreviewGroup[] = [
    { name: table.name, kind: "table", keys: table.keys, collections: grouped(writable, table.keys), left: refused, unnamedKey: null },
  ];
  for (const index of table.indexes) {
    const indexUnnamed = unnamedKey(index.keys);
    if (indexUnnamed !== null) {
      groups.push({ name: index.name, kind: index.kind, keys: index.keys, collections: [], left: [], unnamedKey: `index's ${indexUnnamed}` });
      continue;
    }
    const inIndex = writable.filter((item) => keyProblem(item, index.keys) === null);
    const sparse = writable
      .filter((item) => keyProblem(item, index.keys) !== null)
      .map((item) => ({ item, why: `${describe(item, table.keys)}: no ${(keyProblem(item, index.keys) as { missing: string }).missing}, not in this index` }));
    groups.push({
      name: index.name,
      kind: index.kind,
      keys: index.keys,
      collections: grouped(
        inIndex.map((item) => projected(item, table.keys, index)),
        index.keys,
      ),
      left: sparse,
      unnamedKey: null,
    });
  }
  return groups;
}

/** A few items of the fleet story (the demo's Telemetry): each a partition-key value, a sort-key
 * value and other attributes, named after the draft's own keys until the user edits the text. */
const EXAMPLES: { pk: string; sk: string; rest: Item }[] = [
  { pk: "VEH#V-7741", sk: "META", rest: { depot: { S: "North" }, model: { S: "eCargo 3" } } },
  { pk: "VEH#V-7741", sk: "TS#2025-03-14T09:00:00Z", rest: { speedKph: { N: "42" }, depot: { S: "North" } } },
  { pk: "VEH#V-7741", sk: "TS#2025-03-14T09:01:00Z", rest: { speedKph: { N: "47" } } },
  { pk: "VEH#V-2208", sk: "META", rest: { depot: { S: "South" }, model: { S: "eVan 2" } } },
  { pk: "VEH#V-2208", sk: "TS#2025-03-14T09:00:00Z", rest: { speedKph: { N: "0" }, depot: { S: "South" } } },
];

/** The example items as DynamoDB JSON text, with the table's key names (and no sort key when it has none). */
export function exampleItemsFor(keys: KeySchema): string {
  const items = EXAMPLES.map((e) => {
    const item: Item = { [keys.partitionKey.name || "pk"]: { S: e.pk } };
    if (keys.sortKey !== null) item[keys.sortKey.name || "sk"] = { S: e.sk };
    return { ...e.rest, ...item };
  });
  // Without a sort key, one item per vehicle (the others would overwrite it).
  const shown = keys.sortKey === null ? items.filter((_, i) => EXAMPLES[i]!.sk === "META") : items;
  return `[\n${shown.map((item) => "  " + JSON.stringify(item)).join(",\n")}\n]`;
}

/** Items from the preview's text: a JSON array of DynamoDB JSON items. */
export function parseExampleItems(text: string): { ok: true; items: Item[] } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `The example items are not valid JSON: ${err instanceof Error ? err.message : String(err)}.` };
  }
  if (!Array.isArray(raw)) return { ok: false, message: "The example items must be a JSON array of items in DynamoDB JSON." };
  const items: Item[] = [];
  for (const [at, element] of raw.entries()) {
    const parsed = parseDynamoJson(JSON.stringify(element));
    if (!parsed.ok) return { ok: false, message: `Item ${at + 1}: ${parsed.problem.message}` };
    items.push(parsed.value);
  }
  return { ok: true, items };
}
