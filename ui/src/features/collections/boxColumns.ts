import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";

/** The columns of a box: every attribute its items have, in order of first appearance, less the keys. */
export function boxColumns(keys: KeySchema, items: Item[]): string[] {
  const skip = new Set([keys.partitionKey.name, keys.sortKey?.name]);
  const seen = new Set<string>();
  const columns: string[] = [];
  for (const item of items) {
    for (const name of Object.keys(item)) {
      if (skip.has(name) || seen.has(name)) continue;
      seen.add(name);
      columns.push(name);
    }
  }
  return columns;
}
