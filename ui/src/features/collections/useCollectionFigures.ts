/**
 * The figures of one collection, for the card beside the box a Query read: its item count and
 * size, its share of the table (or index), its rank among the largest, and, on a table with an
 * LSI, the size the 10 GB item-collection limit counts (rule B.7, docs/dynamodb-rules.md: the limit holds only with an LSI, and never for a GSI).
 *
 * Three calls, none of which reads an item: the statistics of the whole table or index (its
 * totals and the largest collections), the collection's place in the key-ordered run, and that
 * one place of the run. On the embedded engine they come from the statistics it keeps with every
 * write; elsewhere from the statistics a Scan gathered (`NOT_FOUND` until one has: the card is
 * then not drawn).
 *
 * An LSI's collection is the table's collection of the same partition-key value (the limit counts
 * the two together), so an LSI read is measured against the table's statistics.
 */
import { useEffect, useState } from "react";
import type { AttributeValue, CollectionStat, CollectionStats, TableDescription } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { collectionKey } from "../../shared/collectionValue";

export type CollectionFigures = {
  /** The collection's own statistics. */
  stat: CollectionStat;
  /** The whole table's (or index's) statistics: its totals, the largest collections, the limit. */
  totals: CollectionStats;
  /** Whether the statistics are of the table (an LSI read) or of the GSI read. */
  measured: "table" | "index";
  /** 1 for the largest collection; null when it is not among those the statistics list. */
  rank: number | null;
};

export function useCollectionFigures(
  profileId: string,
  table: TableDescription,
  index: string | null,
  value: AttributeValue | null,
): Loadable<CollectionFigures, UiError> | null {
  const source = useCommands();
  const [figures, setFigures] = useState<Loadable<CollectionFigures, UiError> | null>(null);
  const local = index !== null && table.indexes.find((i) => i.name === index)?.kind === "local";
  const statsIndex = local ? null : index;
  const key = value === null ? null : collectionKey(value);
  useEffect(() => {
    if (value === null) {
      setFigures(null);
      return;
    }
    let live = true;
    setFigures({ status: "loading" });
    void (async () => {
      const [totals, position] = await Promise.all([
        unwrap(source.collectionStats(profileId, table.name, statsIndex)),
        unwrap(source.collectionPosition(profileId, table.name, statsIndex, value)),
      ]);
      if (!live) return;
      if (totals.status !== "ok") return setFigures(totals);
      if (position.status !== "ok") return setFigures(position);
      if (position.data === null) return setFigures(null);
      const range = await unwrap(source.collectionRange(profileId, table.name, statsIndex, position.data, 1));
      if (!live) return;
      if (range.status !== "ok") return setFigures(range);
      const stat = range.data.collections[0];
      if (stat === undefined) return setFigures(null);
      const at = totals.data.collections.findIndex((c) => collectionKey(c.partitionValue) === key);
      setFigures({
        status: "ok",
        data: { stat, totals: totals.data, measured: statsIndex === null ? "table" : "index", rank: at < 0 ? null : at + 1 },
      });
    })();
    return () => {
      live = false;
    };
    // `value` is compared by its key.
  }, [profileId, table.name, statsIndex, key, source]);
  return figures;
}
