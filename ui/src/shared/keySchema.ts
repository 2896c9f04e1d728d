/**
 * A key schema's attributes as every feature lists them: partition key first, then a
 * multi-attribute GSI key's other partition-key attributes, the sort key and its others, in the
 * schema's order (rule B.18, docs/dynamodb-rules.md). A table's key has one or two.
 */
import type { KeyAttribute, KeySchema, TableDescription } from "../ipc/bindings.gen";

/** Every attribute of a key schema, in schema order. */
export function keyAttributes(keys: KeySchema): KeyAttribute[] {
  return [keys.partitionKey, ...(keys.morePartitionKeys ?? []), ...(keys.sortKey === null ? [] : [keys.sortKey]), ...(keys.moreSortKeys ?? [])];
}

/** The names of a key schema's attributes, in schema order. */
export function keyNames(keys: KeySchema): string[] {
  return keyAttributes(keys).map((key) => key.name);
}

/** The key schema a read of the table (`index` null) or of one of its indexes uses; null: no such index. */
export function indexKeys(table: TableDescription, index: string | null): KeySchema | null {
  return index === null ? table.keys : (table.indexes.find((i) => i.name === index)?.keys ?? null);
}
