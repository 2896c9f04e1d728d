/**
 * The partition-key value that names a collection, as a Query's key values. A collection of a
 * global secondary index with a multi-attribute partition key (rule B.18.3,
 * docs/dynamodb-rules.md) is named by the list (`L`) of its values in key-schema order — the
 * engine's collection statistics and the gathered AWS statistics both report it so — while a
 * Query asks for an equality on each attribute: the first as `partitionValue`, the others as
 * `morePartitionValues`.
 */
import type { AttributeValue, KeySchema } from "../ipc/bindings.gen";

export type CollectionPartition = { partitionValue: AttributeValue; morePartitionValues?: AttributeValue[] };

export function collectionPartition(keys: KeySchema, value: AttributeValue): CollectionPartition {
  const more = keys.morePartitionKeys?.length ?? 0;
  if (more > 0 && "L" in value && value.L.length === more + 1) {
    return { partitionValue: value.L[0]!, morePartitionValues: value.L.slice(1) };
  }
  return { partitionValue: value };
}
