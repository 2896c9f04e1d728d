/**
 * The partition-key value that names a collection, as a Query's key values. A collection of a
 * global secondary index with a multi-attribute partition key (rule B.18.3,
 * docs/dynamodb-rules.md) is named by the list (`L`) of its values in key-schema order — the
 * engine's collection statistics and the gathered AWS statistics both report it so — while a
 * Query asks for an equality on each attribute: the first as `partitionValue`, the others as
 * `morePartitionValues`.
 */
import type { AttributeValue, KeySchema } from "../ipc/bindings.gen";
import type { Item } from "./attributeValue";

export type CollectionPartition = { partitionValue: AttributeValue; morePartitionValues?: AttributeValue[] };

export function collectionPartition(keys: KeySchema, value: AttributeValue): CollectionPartition {
  const more = keys.morePartitionKeys?.length ?? 0;
  if (more > 0 && "L" in value && value.L.length === more + 1) {
    return { partitionValue: value.L[0]!, morePartitionValues: value.L.slice(1) };
  }
  return { partitionValue: value };
}

/** The key a collection's partition-key value is known by in the app's maps and box state. */
export function collectionKey(value: AttributeValue): string {
  return JSON.stringify(value);
}

/**
 * The value naming the collection an item belongs to under a key schema: its partition-key value,
 * or the list of its values for a multi-attribute key; `undefined` when the item lacks one (a
 * projection left it out).
 */
export function collectionOfItem(keys: KeySchema, item: Item): AttributeValue | undefined {
  const first = item[keys.partitionKey.name];
  const more = keys.morePartitionKeys ?? [];
  if (first === undefined || more.length === 0) return first;
  const rest = more.map((k) => item[k.name]);
  return rest.every((v) => v !== undefined) ? { L: [first, ...(rest as AttributeValue[])] } : undefined;
}

/** A collection a Scan met: the value naming it and how many of its items the Scan returned. */
export type MetCollection = { value: AttributeValue; items: number };

/**
 * Counts items into the collections they belong to (`met`, by `collectionKey`, in the order first
 * met); false when an item names none (no key schema, or a projection left the key out).
 */
export function countByCollection(met: Map<string, MetCollection>, items: readonly Item[], keys: KeySchema | null): boolean {
  let attributed = true;
  for (const item of items) {
    const value = keys === null ? undefined : collectionOfItem(keys, item);
    if (value === undefined) {
      attributed = false;
      continue;
    }
    const key = collectionKey(value);
    const entry = met.get(key);
    if (entry === undefined) met.set(key, { value, items: 1 });
    else entry.items += 1;
  }
  return attributed;
}
