import { useEffect, useMemo, useState } from "react";
import { useDebounced } from "../../shared/useDebounced";
import type { AttributeValue, CollectionStats } from "../../ipc/bindings.gen";
import { unwrap } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/** Values offered per partition key: enough to find a collection, few enough to read. */
export const SUGGESTED_VALUES = 50;

const NONE: AttributeValue[] = [];

/**
 * The partition-key values the query bar offers as the user types, for the table or the index the
 * bar reads. Before anything is typed: the largest collections from the statistics (the table's
 * are passed in, already loaded; an index's are asked for when it is picked — free on the
 * embedded engine, the gathered ones elsewhere). Once the start of a string key is typed: the keys
 * that start with it, in key order, from anywhere in the run (`collectionsFrom`), not only among
 * the largest. None while they load, or when there are none (an AWS index not scanned yet).
 */
export function useKeySuggestions({
  profileId,
  table,
  index,
  tableStats,
  typed = "",
  stringKey = false,
}: {
  profileId: string;
  table: string;
  index: string | null;
  tableStats: CollectionStats | null;
  /** What is typed in the partition-key field. */
  typed?: string;
  /** Whether the partition key is one string attribute (the keys a typed start completes). */
  stringKey?: boolean;
}): AttributeValue[] {
  const source = useCommands();
  const start = useDebounced(stringKey ? typed : "", 150);
  const [byStart, setByStart] = useState<{ key: string; values: AttributeValue[] } | null>(null);
  const startKey = `${table}\u0000${index ?? ""}\u0000${start}`;
  useEffect(() => {
    if (start === "") return;
    let stale = false;
    void unwrap(source.collectionsFrom(profileId, table, index, { S: start }, SUGGESTED_VALUES)).then((result) => {
      if (stale) return;
      // The stretch from the first key at or after the typed start: those that begin with it.
      const values = result.status === "ok" ? result.data.collections.map((c) => c.partitionValue).filter((v) => "S" in v && v.S.startsWith(start)) : [];
      setByStart({ key: startKey, values });
    });
    return () => {
      stale = true;
    };
  }, [profileId, startKey, source]);
  const [byIndex, setByIndex] = useState<{ index: string; values: AttributeValue[] } | null>(null);
  useEffect(() => {
    if (index === null) return;
    let stale = false;
    void unwrap(source.collectionStats(profileId, table, index)).then((result) => {
      if (stale) return;
      const values = result.status === "ok" ? result.data.collections.slice(0, SUGGESTED_VALUES).map((c) => c.partitionValue) : [];
      setByIndex({ index, values });
    });
    return () => {
      stale = true;
    };
  }, [profileId, table, index, source]);
  const ofTable = useMemo(
    () => (tableStats === null ? [] : tableStats.collections.slice(0, SUGGESTED_VALUES).map((c) => c.partitionValue)),
    [tableStats],
  );
  if (start !== "" && byStart?.key === startKey) return byStart.values;
  if (index === null) return ofTable;
  return byIndex?.index === index ? byIndex.values : NONE;
}
