/**
 * The data of the Collections view: the item collections of a table, or of one of its indexes,
 * in key order (DynamoDB's order of partition-key values, rule B.9), and the first items of the
 * boxes the user can see.
 *
 * The life of a scroll:
 * 1. The view says which positions of the run are in sight (`want`).
 * 2. Positions not listed yet are listed a page at a time (`collectionRange`: each collection's
 *    partition-key value, item count and bytes, from the statistics the embedded engine keeps
 *    with every write, or a gathered Scan elsewhere), so a table of 10,000 collections opens
 *    like one of 10.
 * 3. Each listed box in sight is read with one Query (sort-key order, eventually consistent,
 *    `Limit` = rows per box), at most `concurrency` at a time; a box that scrolled out of sight
 *    before its turn is not read. What each Query reported in ConsumedCapacity goes to the
 *    capacity ledger (the status bar's "used since start").
 *
 * 4. Items of the table written from the app (saved in the editor, pasted, deleted, imported,
 *    bulk-edited: `written`) make what is shown stale: the listing pages and the boxes in sight
 *    are read again, each box showing its old rows until its new answer comes (no flash, no jump
 *    of the scroll); boxes out of sight are forgotten and read when they come back. An answer
 *    asked before the write is dropped when it comes.
 *
 * Regrouping by an index is the same run on the index: its collections are its own partition-key
 * values, items without the index's keys are not in it (a sparse index), and a box holds what the
 * index projects.
 */
import type { Item } from "../../shared/attributeValue";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AttributeValue, CollectionStat, KeySchema, QueryInput } from "../../ipc/bindings.gen";
import { collectionKey, collectionPartition } from "../../shared/collectionValue";
import { unwrap, type UiError } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import { useCommands, type Commands } from "../../ipc/CommandsContext";


/** The commands the hook calls (all a stand-in backend needs, as the perf page's). */
export type CollectionsSource = Pick<Commands, "collectionPage" | "collectionRange" | "collectionPosition">;

/** One collection of the run: its statistics and a stable key for React and for the box state. */
export type CollectionEntry = CollectionStat & { key: string };

export type BoxState =
  | { status: "loading" }
  | {
      status: "ok";
      items: Item[];
      more: boolean;
      consumedUnits: number | null;
      /** Where the next page starts (the last LastEvaluatedKey); `null` once the collection is read to its end. */
      lastKey?: Item | null;
      /** Why the last page after the first failed. */
      readOnError?: UiError | null;
      /**
       * The first rows were not read but came from what a statistics scan kept (AWS, any
       * endpoint): when it read them, in seconds since the epoch. No Query was sent for them.
       */
      keptFromScan?: number;
    }
  | { status: "error"; error: UiError };

export type Collections = {
  /** The index the run is grouped by; `null`: the table itself. */
  index: string | null;
  /** How many collections the run has; `null` until its first page is listed. */
  total: number | null;
  /** The collection at a position of the run; `undefined` while it is not listed yet. */
  at: (position: number) => CollectionEntry | undefined;
  /** Why the run could not be listed (the first page failed). */
  listError: UiError | null;
  /** What was read of each box, by `CollectionEntry.key`; absent: not asked for yet. */
  boxes: ReadonlyMap<string, BoxState>;
  /** The positions now in sight: list those not listed, read the boxes not read. */
  want: (positions: number[]) => void;
  /** Read a box again (after an error). */
  retry: (key: string) => void;
  /**
   * Read a box on, page after page (Query with ExclusiveStartKey), until it holds the item at
   * position `upTo` or the collection's end: a box shown whole reads what comes into sight.
   */
  readOn: (key: string, upTo: number) => void;
  /** Where the collection of a partition-key value stands in the run; `null`: there is none. */
  locate: (value: AttributeValue) => Promise<number | null>;
  /** What the box Queries of this run have cost so far (a box read again is counted again). */
  spent: BoxReads;
};

const EMPTY_BOXES: ReadonlyMap<string, BoxState> = new Map();

/** What reading the boxes has cost: the Queries answered and the read units they reported. */
export type BoxReads = { queries: number; units: number };
const NOTHING_SPENT: BoxReads = { queries: 0, units: 0 };

/** Collections listed per `collectionRange` call. */
export const LIST_PAGE = 200;

/** Items a box reads per page after its first (a box shown whole). */
export const READ_ON_PAGE = 500;

/**
 * Boxes whose reads are kept. Past that, the boxes out of sight longest are forgotten and read
 * again if they come back into sight: a scroll through a table of 10,000 collections keeps at
 * most this many boxes' items (not 200,000 items), and each settled read copies a map of at most
 * this many boxes.
 */
export const KEPT_BOXES = 400;

type Listing = { total: number | null; pages: ReadonlyMap<number, CollectionEntry[]>; error: UiError | null };
const EMPTY_LISTING: Listing = { total: null, pages: new Map(), error: null };

export function useCollections({
  profileId,
  table,
  index = null,
  keys = null,
  rowsPerBox = 20,
  concurrency = 3,
  listPage = LIST_PAGE,
  keptBoxes = KEPT_BOXES,
  generation = 0,
  written = 0,
}: {
  profileId: string;
  table: string;
  index?: string | null;
  /**
   * The key schema of what the run reads (the table or `index`), once described: a collection
   * of a multi-attribute GSI key is read with one equality per partition-key attribute.
   */
  keys?: KeySchema | null;
  /** A new number lists the run again from the start (new statistics were gathered). */
  generation?: number;
  /**
   * A new number: items of the table were written from the app. The listing and the boxes in
   * sight are read again, in place (`useTableWritten`).
   */
  written?: number;
  rowsPerBox?: number;
  concurrency?: number;
  listPage?: number;
  keptBoxes?: number;
}): Collections {
  const source = useCommands();
  const record = useRecordCapacity();
  // What the reads belong to: another table, index or connection starts over, and late answers
  // to the old one are dropped. (Checked where it is used, not reset in an effect: the view's
  // first `want` may run before this hook's effects.)
  const token = useMemo(() => ({ profileId, table, index, generation }), [profileId, table, index, generation]);
  const [listingState, setListing] = useState<{ token: object; listing: Listing }>({ token, listing: EMPTY_LISTING });
  const listing = listingState.token === token ? listingState.listing : EMPTY_LISTING;
  const [boxState, setBoxState] = useState<{ token: object; boxes: ReadonlyMap<string, BoxState>; spent: BoxReads }>({
    token,
    boxes: new Map(),
    spent: NOTHING_SPENT,
  });
  const boxes = boxState.token === token ? boxState.boxes : EMPTY_BOXES;
  const spent = boxState.token === token ? boxState.spent : NOTHING_SPENT;

  // The queues, outside React state: they change with every scroll.
  const fresh = () => ({
    token: token as object,
    listed: new Map<number, CollectionEntry>(),
    byKey: new Map<string, CollectionEntry>(),
    pagesAsked: new Set<number>(),
    requested: new Set<string>(),
    queue: [] as string[],
    wanted: new Set<string>(),
    wantedPositions: [] as number[],
    inFlight: 0,
    /** The boxes as last settled, readable between renders (a box read on, page after page). */
    settled: new Map<string, BoxState>(),
    /** How far each box shown whole is wanted, and whether a page of it is in flight. */
    readingOn: new Map<string, { upTo: number; busy: boolean }>(),
    /** The box Queries answered so far and the read units they reported. */
    spent: NOTHING_SPENT,
    /** Grows when what was read goes stale (a write): answers to reads asked before are dropped. */
    epoch: 0,
  });
  const run = useRef(fresh());
  const current = useCallback(() => {
    if (run.current.token !== token) run.current = fresh();
    return run.current;
    // `fresh` only reads `token`.
  }, [token]);

  const settle = useCallback(
    (key: string, next: BoxState) => {
      const state = current();
      // The map's order is the order boxes were last settled in: the first are the oldest.
      state.settled.delete(key);
      state.settled.set(key, next);
      const forgotten: string[] = [];
      for (const old of state.settled.keys()) {
        if (state.settled.size <= keptBoxes) break;
        // (A box in sight stays, and so does one whose Query is in flight: its answer settles it.)
        if (old === key || state.wanted.has(old) || state.settled.get(old)?.status === "loading") continue;
        state.settled.delete(old);
        state.requested.delete(old);
        state.readingOn.delete(old);
        forgotten.push(old);
      }
      setBoxState((prev) => {
        const copy = new Map(prev.token === token ? prev.boxes : EMPTY_BOXES);
        for (const old of forgotten) copy.delete(old);
        copy.delete(key);
        copy.set(key, next);
        return { token, boxes: copy, spent: state.spent };
      });
    },
    [current, keptBoxes, token],
  );

  /** The Query of one box, in sort-key order, eventually consistent, from `start` on. */
  const boxQuery = useCallback(
    (entry: CollectionEntry, start: Item | null, limit: number): QueryInput => ({
      table,
      index,
      ...(keys === null ? { partitionValue: entry.partitionValue } : collectionPartition(keys, entry.partitionValue)),
      sortCondition: null,
      scanIndexForward: true,
      limit,
      consistentRead: false,
      projection: null,
      filter: null,
      filterNames: null,
      filterValues: null,
      exclusiveStartKey: start,
    }),
    [index, keys, table],
  );

  const pump = useCallback(() => {
    const state = current();
    while (state.inFlight < concurrency && state.queue.length > 0) {
      const key = state.queue.shift()!;
      if (!state.wanted.has(key)) {
        // Scrolled away before its turn: not read, and asked for again if it comes back.
        state.requested.delete(key);
        continue;
      }
      const entry = state.byKey.get(key);
      if (entry === undefined) continue;
      state.inFlight += 1;
      // A box read again after a write keeps its old rows until the new ones come.
      if (state.settled.get(key)?.status !== "ok") settle(key, { status: "loading" });
      const epoch = state.epoch;
      void unwrap(source.collectionPage(profileId, boxQuery(entry, null, rowsPerBox))).then((result) => {
        if (run.current !== state) return;
        state.inFlight -= 1;
        if (epoch !== state.epoch) {
          // Asked before a write: the box was asked again since (in sight) or forgotten.
        } else if (result.status === "ok") {
          const units = result.data.consumedCapacity?.total ?? null;
          const kept = result.data.keptFromScan;
          if (units !== null) record("read", units);
          // Rows a statistics scan kept cost no Query.
          if (kept === undefined) state.spent = { queries: state.spent.queries + 1, units: state.spent.units + (units ?? 0) };
          const lastKey = result.data.lastEvaluatedKey;
          settle(key, {
            status: "ok",
            items: result.data.items,
            more: lastKey !== null,
            consumedUnits: units,
            lastKey,
            ...(kept === undefined ? {} : { keptFromScan: kept }),
          });
        } else if (result.status === "error") {
          settle(key, { status: "error", error: result.error });
        }
        pump();
      });
    }
  }, [boxQuery, concurrency, current, profileId, record, rowsPerBox, settle]);

  /** Queue the reads of the listed boxes among the wanted positions. */
  const queueReads = useCallback(() => {
    const state = current();
    const keys: string[] = [];
    for (const position of state.wantedPositions) {
      const entry = state.listed.get(position);
      if (entry !== undefined) keys.push(entry.key);
    }
    state.wanted = new Set(keys);
    for (const key of keys) {
      if (state.requested.has(key)) continue;
      state.requested.add(key);
      state.queue.push(key);
    }
    pump();
  }, [current, pump]);

  const listPageAt = useCallback(
    (page: number) => {
      const state = current();
      if (state.pagesAsked.has(page)) return;
      state.pagesAsked.add(page);
      void unwrap(source.collectionRange(profileId, table, index, page * listPage, listPage)).then((result) => {
        if (run.current !== state) return;
        if (result.status === "ok") {
          const entries = result.data.collections.map((c) => ({ ...c, key: collectionKey(c.partitionValue) }));
          entries.forEach((entry, i) => {
            state.listed.set(page * listPage + i, entry);
            state.byKey.set(entry.key, entry);
          });
          setListing((prev) => {
            const base = prev.token === token ? prev.listing : EMPTY_LISTING;
            const pages = new Map(base.pages);
            pages.set(page, entries);
            return { token, listing: { total: result.data.total, pages, error: null } };
          });
          queueReads();
        } else if (result.status === "error") {
          // Asked again when the positions come into sight again.
          state.pagesAsked.delete(page);
          setListing((prev) => {
            const base = prev.token === token ? prev.listing : EMPTY_LISTING;
            return { token, listing: { ...base, error: result.error } };
          });
        }
      });
    },
    [current, index, listPage, profileId, queueReads, source, table, token],
  );

  const want = useCallback(
    (positions: number[]) => {
      const state = current();
      state.wantedPositions = positions;
      // The first page tells how long the run is.
      if (positions.length === 0 && state.listed.size === 0) listPageAt(0);
      for (const position of positions) {
        if (!state.listed.has(position)) listPageAt(Math.floor(position / listPage));
      }
      queueReads();
    },
    [current, listPage, listPageAt, queueReads],
  );

  // Items were written: what is shown is read again where it is (step 4 of the module's list).
  const firstWritten = useRef(written);
  useEffect(() => {
    if (written === firstWritten.current) return;
    firstWritten.current = written;
    const state = current();
    // (Queries in flight still count against `concurrency` until they answer.)
    state.epoch += 1;
    state.queue = [];
    state.requested = new Set();
    state.readingOn = new Map();
    const forgotten = [...state.settled.keys()].filter((key) => !state.wanted.has(key));
    for (const key of forgotten) state.settled.delete(key);
    // A box still loading from before is asked again like the others.
    for (const [key, box] of state.settled) if (box.status !== "ok") state.settled.delete(key);
    setBoxState((prev) => {
      if (prev.token !== token) return prev;
      const copy = new Map(prev.boxes);
      for (const key of copy.keys()) if (!state.settled.has(key)) copy.delete(key);
      return { ...prev, boxes: copy };
    });
    // The listing: each page in sight (and the first, which says how long the run is) again.
    state.pagesAsked.clear();
    const pages = new Set([0, ...state.wantedPositions.map((position) => Math.floor(position / listPage))]);
    for (const page of pages) listPageAt(page);
    queueReads();
    // Only a new `written` reads again; the rest is read from the state of this run.
  }, [written]);

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

  const readOn = useCallback(
    (key: string, upTo: number) => {
      const state = current();
      const entry = state.byKey.get(key);
      if (entry === undefined) return;
      const mark = state.readingOn.get(key) ?? { upTo, busy: false };
      mark.upTo = Math.max(mark.upTo, upTo);
      state.readingOn.set(key, mark);
      const step = () => {
        if (mark.busy || run.current !== state) return;
        const box = state.settled.get(key);
        if (box === undefined || box.status !== "ok" || !box.more || box.lastKey == null || box.items.length > mark.upTo) return;
        mark.busy = true;
        // Asked again after a failed page: the failure is no longer what the box says.
        if (box.readOnError) settle(key, { ...box, readOnError: null });
        const epoch = state.epoch;
        void unwrap(source.collectionPage(profileId, boxQuery(entry, box.lastKey, READ_ON_PAGE))).then((result) => {
          mark.busy = false;
          // (A page asked before a write would continue rows read again since.)
          if (run.current !== state || epoch !== state.epoch) return;
          const latest = state.settled.get(key);
          if (latest === undefined || latest.status !== "ok") return;
          if (result.status === "ok") {
            const units = result.data.consumedCapacity?.total ?? null;
            if (units !== null) record("read", units);
            state.spent = { queries: state.spent.queries + 1, units: state.spent.units + (units ?? 0) };
            const lastKey = result.data.lastEvaluatedKey;
            settle(key, {
              ...latest,
              items: latest.items.concat(result.data.items),
              more: lastKey !== null,
              lastKey,
              consumedUnits: units === null ? latest.consumedUnits : (latest.consumedUnits ?? 0) + units,
              readOnError: null,
            });
            step();
          } else if (result.status === "error") {
            settle(key, { ...latest, readOnError: result.error });
          }
        });
      };
      step();
    },
    [boxQuery, current, profileId, record, settle, source],
  );

  const at = useCallback(
    (position: number) => listing.pages.get(Math.floor(position / listPage))?.[position % listPage],
    [listing, listPage],
  );

  const locate = useCallback(
    async (value: AttributeValue) => {
      const key = collectionKey(value);
      const state = current();
      if (state.byKey.has(key)) for (const [position, entry] of state.listed) if (entry.key === key) return position;
      const result = await unwrap(source.collectionPosition(profileId, table, index, value));
      return result.status === "ok" ? result.data : null;
    },
    [current, index, profileId, source, table],
  );

  return { index, total: listing.total, at, listError: listing.total === null ? listing.error : null, boxes, want, retry, readOn, locate, spent };
}
