/**
 * "The active read": what the query bar last ran, as the Collections view draws it. A Query reads
 * exactly one box (one partition-key value), so that box is highlighted with the items the Query
 * returned, its page cuts and what its filter dropped, and every other box is faded. A Scan walks
 * every box: a box it returned items from is marked with how many; once it has read the whole
 * table, every box is marked read, those its filter returned nothing from too. While it runs, a
 * box it has returned nothing from is left as it is: read and filtered out, or not read yet, the
 * items returned cannot tell.
 *
 * A walked box's rows are not the Scan's: they are the box's own first rows, read by its own
 * Query without the Scan's filter. When the Scan had a filter, each row is marked by whether the
 * Scan returned it (`ScanReturns`, matched on the table's key): once the Scan has read the whole
 * table, a row it did not return is one its filter dropped — read and paid for, not returned —
 * and is drawn struck through, as a Query's dropped rows are.
 */
import type { AttributeValue, QueryPage } from "../../ipc/bindings.gen";
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
      /** Whether the Scan had a filter: a walked box then says which of its rows it returned. */
      filtered?: boolean;
      /**
       * The items a filtered Scan returned, by their table key, once it has read the whole table
       * (null: still running, stopped before the end, or the items returned cannot be told apart).
       */
      returns?: ScanReturns | null;
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
  /**
   * `items`: how many the scan returned from the box, null when that cannot be told; `filtered`
   * and `returns`: as the active read's (which of the box's rows the scan returned).
   */
  | { role: "walked"; items: number | null; filtered: boolean; returns: ScanReturns | null; completed: boolean }
  | { role: "faded" }
  | null;

export function boxRead(active: ActiveRead | null | undefined, key: string): BoxRead {
  if (active === null || active === undefined) return null;
  if (active.kind === "query") {
    if (active.key !== key) return { role: "faded" };
    return { role: "read", pages: active.pages, loading: active.loading, dropped: active.dropped, showDropped: active.showDropped };
  }
  const items = active.returned.get(key)?.items;
  const rows = { filtered: active.filtered ?? false, returns: active.returns ?? null, completed: active.completed };
  if (items !== undefined) return { role: "walked", items, ...rows };
  if (!active.completed) return null;
  return { role: "walked", items: active.attributed ? 0 : null, ...rows };
}

/** The items a filtered Scan returned, by their table key (`keyNames`): what a walked box's rows are checked against. */
export type ScanReturns = { keyNames: string[]; keys: ReadonlySet<string> };

type Item = { [name: string]: AttributeValue };

function keyText(keyNames: string[], item: Item): string | null {
  const values = keyNames.map((name) => item[name]);
  return values.some((v) => v === undefined) ? null : JSON.stringify(values);
}

/**
 * What a Scan returned, by table key, from its pages; null when they cannot say which items it
 * returned: an item without its whole table key (a projection left it out), or `notKept` items
 * returned but not kept in the pages.
 */
export function scanReturns(pages: readonly QueryPage[], keyNames: string[], notKept: number): ScanReturns | null {
  if (notKept > 0) return null;
  const keys = new Set<string>();
  for (const page of pages) {
    for (const item of page.items) {
      const text = keyText(keyNames, item);
      if (text === null) return null;
      keys.add(text);
    }
  }
  return { keyNames, keys };
}

/** The title of a walked box's row the Scan's filter dropped. */
export const SCAN_DROPPED_TITLE = "Read and paid for by the scan, then dropped by its filter: not in its result";

/** Whether the Scan returned `item` (false: its filter dropped it). */
export function scanReturned(returns: ScanReturns, item: Item): boolean {
  const text = keyText(returns.keyNames, item);
  return text !== null && returns.keys.has(text);
}

/** Whether two box reads draw the same. */
export function sameBoxRead(a: BoxRead, b: BoxRead): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.role !== b.role) return false;
  if (a.role === "read" && b.role === "read")
    return a.pages === b.pages && a.loading === b.loading && a.dropped === b.dropped && a.showDropped === b.showDropped;
  if (a.role === "walked" && b.role === "walked") return a.items === b.items && a.filtered === b.filtered && a.returns === b.returns && a.completed === b.completed;
  return a.role === "faded";
}
