/**
 * The form's edits, as plain functions from one model to the next: each list's add, change and
 * remove, and the renames that carry through the model (a table renamed moves its entities with
 * it, an entity renamed keeps its patterns and generators pointing at it, a key attribute renamed
 * keeps the entities filling it). The form calls these; the JSON view shows their result.
 */
import type { AccessPattern, Entity, Field, IndexModel, KeyAttr, Model, TableModel } from "../../../ipc/bindings.gen";

/** A model with nothing in it: "New model". */
export const EMPTY_MODEL: Model = { name: "New model", description: "", author: "", tables: [], entities: [], patterns: [] };

/** Rule B.7: at most 20 GSIs (the default quota) and 5 LSIs per table. */
export const MAX_GSIS = 20;
export const MAX_LSIS = 5;

export const entitiesOf = (model: Model): Entity[] => model.entities ?? [];
export const patternsOf = (model: Model): AccessPattern[] => model.patterns ?? [];

/** A name not yet in `taken`: `base`, else `base2`, `base3`, … */
export function freshName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n += 1) if (!taken.includes(`${base}${n}`)) return `${base}${n}`;
}

const replaceAt = <T>(list: readonly T[], at: number, value: T): T[] => list.map((x, i) => (i === at ? value : x));
const removeAt = <T>(list: readonly T[], at: number): T[] => list.filter((_, i) => i !== at);

/** Every key attribute of a table and its indexes, each once, with the roles it plays. */
export function keyAttributes(table: TableModel): { attr: KeyAttr; roles: string[]; tableKey: boolean }[] {
  const out: { attr: KeyAttr; roles: string[]; tableKey: boolean }[] = [];
  const add = (attr: KeyAttr | null | undefined, role: string, tableKey: boolean) => {
    if (!attr || attr.name === "") return;
    const seen = out.find((k) => k.attr.name === attr.name);
    if (seen) {
      seen.roles.push(role);
      seen.tableKey ||= tableKey;
    } else out.push({ attr, roles: [role], tableKey });
  };
  add(table.partitionKey, "table partition key", true);
  add(table.sortKey, "table sort key", true);
  for (const i of table.globalIndexes ?? []) {
    add(i.partitionKey, `GSI ${i.name} partition key`, false);
    add(i.sortKey, `GSI ${i.name} sort key`, false);
  }
  for (const i of table.localIndexes ?? []) add(i.sortKey, `LSI ${i.name} sort key`, false);
  return out;
}

// Tables -------------------------------------------------------------------------------------

export function addTable(model: Model): Model {
  const name = freshName("MyTable", model.tables.map((t) => t.name));
  const table: TableModel = {
    name,
    partitionKey: { name: "pk", type: "S" },
    sortKey: null,
    billing: { mode: "onDemand" },
    globalIndexes: [],
    localIndexes: [],
    items: [],
  };
  return { ...model, tables: [...model.tables, table] };
}

/**
 * The table at `at` replaced by `next`. A rename moves the entities on it; a key attribute
 * renamed is renamed in the keys the entities fill; an LSI always has the table's partition key
 * (rule B.7).
 */
export function changeTable(model: Model, at: number, next: TableModel): Model {
  const before = model.tables[at];
  if (before === undefined) return model;
  const lsis = (next.localIndexes ?? []).map((i) => ({ ...i, partitionKey: next.partitionKey }));
  const table = { ...next, localIndexes: lsis };
  const renames = new Map<string, string>();
  const pairs: [KeyAttr | null | undefined, KeyAttr | null | undefined][] = [
    [before.partitionKey, table.partitionKey],
    [before.sortKey, table.sortKey],
    ...(before.globalIndexes ?? []).flatMap((i, n): [KeyAttr | null | undefined, KeyAttr | null | undefined][] => [
      [i.partitionKey, table.globalIndexes?.[n]?.partitionKey],
      [i.sortKey, table.globalIndexes?.[n]?.sortKey],
    ]),
    ...(before.localIndexes ?? []).map((i, n): [KeyAttr | null | undefined, KeyAttr | null | undefined] => [i.sortKey, lsis[n]?.sortKey]),
  ];
  for (const [a, b] of pairs) if (a && b && a.name !== b.name && a.name !== "") renames.set(a.name, b.name);
  const entities = entitiesOf(model).map((e) => {
    if (e.table !== before.name) return e;
    const keys = e.keys.map((k) => (renames.has(k.attribute) ? { ...k, attribute: renames.get(k.attribute) ?? k.attribute } : k));
    return { ...e, table: table.name, keys };
  });
  return { ...model, tables: replaceAt(model.tables, at, table), entities };
}

export function removeTable(model: Model, at: number): Model {
  return { ...model, tables: removeAt(model.tables, at) };
}

export function addIndex(table: TableModel, kind: "global" | "local"): TableModel {
  const taken = [...(table.globalIndexes ?? []), ...(table.localIndexes ?? [])].map((i) => i.name);
  if (kind === "global") {
    const index: IndexModel = {
      name: freshName("GSI1", taken),
      partitionKey: { name: freshName("gsi1pk", keyAttributes(table).map((k) => k.attr.name)), type: "S" },
      sortKey: null,
      projection: { type: "all" },
    };
    return { ...table, globalIndexes: [...(table.globalIndexes ?? []), index] };
  }
  const index: IndexModel = {
    name: freshName("LSI1", taken),
    partitionKey: table.partitionKey,
    sortKey: { name: freshName("lsi1sk", keyAttributes(table).map((k) => k.attr.name)), type: "S" },
    projection: { type: "all" },
  };
  return { ...table, localIndexes: [...(table.localIndexes ?? []), index] };
}

export function changeIndex(table: TableModel, kind: "global" | "local", at: number, next: IndexModel): TableModel {
  return kind === "global"
    ? { ...table, globalIndexes: replaceAt(table.globalIndexes ?? [], at, next) }
    : { ...table, localIndexes: replaceAt(table.localIndexes ?? [], at, next) };
}

export function removeIndex(table: TableModel, kind: "global" | "local", at: number): TableModel {
  return kind === "global"
    ? { ...table, globalIndexes: removeAt(table.globalIndexes ?? [], at) }
    : { ...table, localIndexes: removeAt(table.localIndexes ?? [], at) };
}

// Entities -----------------------------------------------------------------------------------

/** A new entity on the first table, filling the table's key with templates to be written. */
export function addEntity(model: Model): Model {
  const table = model.tables[0];
  const name = freshName("Entity", entitiesOf(model).map((e) => e.name));
  const entity: Entity = {
    name,
    table: table?.name ?? "",
    keys: table ? keyAttributes(table).filter((k) => k.tableKey).map((k) => ({ attribute: k.attr.name, template: "", presence: 1 })) : [],
    fields: [],
    count: 10,
    writesPerSecond: 0,
    retentionDays: null,
  };
  return { ...model, entities: [...entitiesOf(model), entity] };
}

/** The entity at `at` replaced by `next`; a rename carries to the patterns and generators that name it. */
export function changeEntity(model: Model, at: number, next: Entity): Model {
  const before = entitiesOf(model)[at];
  if (before === undefined) return model;
  const renamed = before.name !== next.name ? { from: before.name, to: next.name } : null;
  let entities = replaceAt(entitiesOf(model), at, next);
  let patterns = patternsOf(model);
  if (renamed) {
    entities = entities.map((e) => ({
      ...e,
      fields: (e.fields ?? []).map((f): Field => {
        const g = f.generator;
        if ((g.kind === "ref" || g.kind === "lookup") && g.entity === renamed.from) return { ...f, generator: { ...g, entity: renamed.to } };
        return f;
      }),
    }));
    patterns = patterns.map((p) => (p.entity === renamed.from ? { ...p, entity: renamed.to } : p));
  }
  return { ...model, entities, patterns };
}

export function removeEntity(model: Model, at: number): Model {
  return { ...model, entities: removeAt(entitiesOf(model), at) };
}

// Patterns -----------------------------------------------------------------------------------

export function addPattern(model: Model): Model {
  const name = freshName("new pattern", patternsOf(model).map((p) => p.name));
  const pattern: AccessPattern = {
    name,
    entity: entitiesOf(model)[0]?.name ?? "",
    given: {},
    range: null,
    orderBy: null,
    descending: false,
    limit: null,
    reads: [],
    ratePerSecond: 1,
    consistent: false,
  };
  return { ...model, patterns: [...patternsOf(model), pattern] };
}

export function changePattern(model: Model, at: number, next: AccessPattern): Model {
  return { ...model, patterns: replaceAt(patternsOf(model), at, next) };
}

export function removePattern(model: Model, at: number): Model {
  return { ...model, patterns: removeAt(patternsOf(model), at) };
}

export { replaceAt, removeAt };
