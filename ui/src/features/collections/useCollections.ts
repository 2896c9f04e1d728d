/**
 * The data of the Collections view: the table's item collections in key order (DynamoDB's order
 * of partition-key values, rule B.9), each with what the collection statistics say of it (item
 * count, bytes), and the first items of the boxes the user can see, read with one Query per box
 * (sort-key order, eventually consistent, `Limit` = rows per box).
 *
 * A box is read only when the view says it is in sight (`want`), at most `concurrency` Queries at
 * a time; a box that scrolled out of sight before its turn is not read. What each Query reported
 * in ConsumedCapacity goes to the capacity ledger (the status bar's "used since start").
 */
import { useCallback, useMemo, useRef, useState } from "react";
import type { AttributeValue, CollectionStat, CollectionStats, commands, QueryInput } from "../../ipc/bindings.gen";
import { unwrap, type UiError } from "../../ipc/result";
import { useCapacityLedger } from "../../app/capacity";
import { compareKeyValues } from "../../shared/attributeValue";

export type Item = { [key in string]: AttributeValue };

export type CollectionsSource = Pick<typeof commands, "query">;

/** One collection of the run: its statistics and a stable key for React and for the box state. */
export type CollectionEntry = CollectionStat & { key: string };

export type BoxState =
  | { status: "loading" }
  | { status: "ok"; items: Item[]; more: boolean; consumedUnits: number | null }
  | { status: "error"; error: UiError };

export type Collections = {
  /** Every collection the statistics list, in key order. */
  collections: CollectionEntry[];
  /** Collections the table has that the statistics did not list (they list the largest only). */
  unlisted: number;
  /** What was read of each box, by `CollectionEntry.key`; absent: not asked for yet. */
  boxes: ReadonlyMap<string, BoxState>;
  /** The boxes now in sight, by key: read those not read yet. */
  want: (keys: string[]) => void;
  /** Read a box again (after an error). */
  retry: (key: string) => void;
};

/** The key a partition-key value is known by in the box state. */
const EMPTY: ReadonlyMap<string, BoxState> = new Map();

export function collectionKey(value: AttributeValue): string {
  return JSON.stringify(value);
}

export function useCollections({
  profileId,
  table,
  stats,
  source,
  rowsPerBox = 20,
  concurrency = 3,
}: {
  profileId: string;
  table: string;
  stats: CollectionStats | null;
  source: CollectionsSource;
  rowsPerBox?: number;
  concurrency?: number;
}): Collections {
  const ledger = useCapacityLedger();
  const record = ledger.record;
  const collections = useMemo(() => {
    if (stats === null) return [];
    return stats.collections
      .map((c) => ({ ...c, key: collectionKey(c.partitionValue) }))
      .sort((a, b) => compareKeyValues(a.partitionValue, b.partitionValue));
  }, [stats]);
  const byKey = useMemo(() => new Map(collections.map((c) => [c.key, c])), [collections]);
  // What the reads belong to: a new table, connection or set of statistics starts over, and late
  // answers to the old one are dropped. (Checked where it is used, not reset in an effect: the
  // view's first `want` may run before this hook's effects.)
  const token = useMemo(() => ({ profileId, table, byKey }), [profileId, table, byKey]);
  const [boxState, setBoxState] = useState<{ token: object; boxes: ReadonlyMap<string, BoxState> }>({ token, boxes: new Map() });
  const boxes = boxState.token === token ? boxState.boxes : EMPTY;

  // The queue of reads, outside React state: it changes with every scroll.
  const run = useRef({ token: token as object, requested: new Set<string>(), queue: [] as string[], wanted: new Set<string>(), inFlight: 0 });
  const current = useCallback(() => {
    if (run.current.token !== token) run.current = { token, requested: new Set(), queue: [], wanted: new Set(), inFlight: 0 };
    return run.current;
  }, [token]);

  const settle = useCallback(
    (key: string, next: BoxState) => {
      setBoxState((state) => {
        const copy = new Map(state.token === token ? state.boxes : EMPTY);
        copy.set(key, next);
        return { token, boxes: copy };
      });
    },
    [token],
  );

  const pump = useCallback(() => {
    const state = current();
    while (state.inFlight < concurrency && state.queue.length > 0) {
      const key = state.queue.shift()!;
      const entry = byKey.get(key);
      if (entry === undefined) continue;
      if (!state.wanted.has(key)) {
        // Scrolled away before its turn: not read, and asked for again if it comes back.
        state.requested.delete(key);
        continue;
      }
      state.inFlight += 1;
      settle(key, { status: "loading" });
      const input: QueryInput = {
        table,
        index: null,
        partitionValue: entry.partitionValue,
        sortCondition: null,
        scanIndexForward: true,
        limit: rowsPerBox,
        consistentRead: false,
        projection: null,
        filter: null,
        filterNames: null,
        filterValues: null,
        exclusiveStartKey: null,
      };
      void unwrap(source.query(profileId, input)).then((result) => {
        if (run.current !== state) return;
        state.inFlight -= 1;
        if (result.status === "ok") {
          const units = result.data.consumedCapacity?.total ?? null;
          if (units !== null) record("read", units);
          settle(key, { status: "ok", items: result.data.items, more: result.data.lastEvaluatedKey !== null, consumedUnits: units });
        } else if (result.status === "error") {
          settle(key, { status: "error", error: result.error });
        }
        pump();
      });
    }
  }, [byKey, concurrency, current, profileId, record, rowsPerBox, settle, source, table]);

  const want = useCallback(
    (keys: string[]) => {
      const state = current();
      state.wanted = new Set(keys);
      for (const key of keys) {
        if (state.requested.has(key) || !byKey.has(key)) continue;
        state.requested.add(key);
        state.queue.push(key);
      }
      pump();
    },
    [byKey, current, pump],
  );

  const retry = useCallback(
    (key: string) => {
      const state = current();
      state.wanted.add(key);
      state.requested.add(key);
      state.queue.unshift(key);
      pump();
    },
    [current, pump],
  );

  const unlisted = stats === null ? 0 : Math.max(0, stats.distinctPartitionKeys - stats.collections.length);
  return { collections, unlisted, boxes, want, retry };
}
