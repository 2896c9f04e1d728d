/**
 * "The active read": what the query bar last ran, as the Collections view draws it. A Query reads
 * exactly one box (one partition-key value), so that box is highlighted with the items the Query
 * returned, its page cuts and what its filter dropped, and every other box is faded. A Scan walks
 * every box: a box it returned items from is marked with how many; once it has read the whole
 * table, every box is marked read, those its filter returned nothing from too. While it runs, a
 * box it has returned nothing from is left as it is: read and filtered out, or not read yet, the
 * items returned cannot tell.
 */
import type { QueryPage } from "../../ipc/bindings.gen";
import type { MetCollection } from "../../shared/collectionValue";
import type { DroppedPage } from "../../shared/droppedItems";

export type ActiveRead = (
  | {
      kind: "query";
      /** The key (`collectionKey`) of the one box the Query reads. */
      key: string;
      pages: QueryPage[];
      loading: boolean;
      /** The items the filter dropped, read back so far, by page. */
      dropped: ReadonlyMap<number, DroppedPage>;
      /** Reads a page's dropped items back; null when that happens without asking. */
      showDropped: ((page: number) => void) | null;
    }
  | {
      kind: "scan";
      /** The boxes the scan returned items from so far, with how many, by box key (`collectionKey`). */
      returned: ReadonlyMap<string, MetCollection>;
      /** Whether the scan read every item of the table (or index) to its end. */
      completed: boolean;
      /**
       * Whether every item returned named its box: false when the projection left out the
       * partition key, and the items returned cannot be counted by box.
       */
      attributed: boolean;
    }
) & {
  /** The query bar has changed since: what is drawn answers the previous request (dimmed, and said so). */
  stale?: boolean;
};

/** How one box stands in the active read. */
export type BoxRead =
  | {
      role: "read";
      pages: QueryPage[];
      loading: boolean;
      dropped: ReadonlyMap<number, DroppedPage>;
      showDropped: ((page: number) => void) | null;
    }
  /** `items`: how many the scan returned from the box, null when that cannot be told. */
  | { role: "walked"; items: number | null }
  | { role: "faded" }
  | null;

export function boxRead(active: ActiveRead | null | undefined, key: string): BoxRead {
  if (active === null || active === undefined) return null;
  if (active.kind === "query") {
    if (active.key !== key) return { role: "faded" };
    return { role: "read", pages: active.pages, loading: active.loading, dropped: active.dropped, showDropped: active.showDropped };
  }
  const items = active.returned.get(key)?.items;
  if (items !== undefined) return { role: "walked", items };
  if (!active.completed) return null;
  return { role: "walked", items: active.attributed ? 0 : null };
}

/** Whether two box reads draw the same. */
export function sameBoxRead(a: BoxRead, b: BoxRead): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.role !== b.role) return false;
  if (a.role === "read" && b.role === "read")
    return a.pages === b.pages && a.loading === b.loading && a.dropped === b.dropped && a.showDropped === b.showDropped;
  if (a.role === "walked" && b.role === "walked") return a.items === b.items;
  return a.role === "faded";
}
