import { useEffect, useMemo, useState } from "react";
import type { AttributeValue, CollectionStats } from "../../ipc/bindings.gen";
import { unwrap } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/** Values offered per partition key: enough to find a collection, few enough to read. */
export const SUGGESTED_VALUES = 50;

const NONE: AttributeValue[] = [];

/**
 * The partition-key values the query bar offers as the user types, for the table or the index the
 * bar reads: the largest collections from the statistics (the table's are passed in, already
 * loaded; an index's are asked for when it is picked — free on the embedded engine, the gathered
 * ones elsewhere). None while they load, or when there are none (an AWS index not scanned yet).
 */
export function useKeySuggestions({
  profileId,
  table,
  index,
  tableStats,
}: {
  profileId: string;
  table: string;
  index: string | null;
  tableStats: CollectionStats | null;
}): AttributeValue[] {
  const source = useCommands();
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
  if (index === null) return ofTable;
  return byIndex?.index === index ? byIndex.values : NONE;
}
