/**
 * The items a filter dropped from a Query's page, as the query bar reads them back
 * (features/query/useDroppedItems.ts) and the Collections view draws them (ReadRows): a filter
 * runs after the read (rule B.4, docs/dynamodb-rules.md), so the page evaluated `ScannedCount`
 * items and returned `Count` of them.
 */
import type { AttributeValue, QueryPage } from "../ipc/bindings.gen";

type Item = { [name: string]: AttributeValue };

/** One row of a page as it was read: returned, or read and dropped by the filter. */
export type ReadRow = { item: Item; dropped: boolean };

/** The dropped items of one page: being read, laid among the returned ones, or not readable. */
export type DroppedPage = { status: "loading" } | { status: "ok"; rows: ReadRow[] } | { status: "error"; message: string };

/** How many items of a page the filter dropped. */
export function droppedCount(page: QueryPage): number {
  return Math.max(0, page.scannedCount - page.count);
}

/**
 * Lays a page's returned items among everything it evaluated (both in read order): each
 * returned item is the next evaluated one holding all its attributes with the same values (a
 * projection returns a part of the item), and every evaluated item left between is one the
 * filter dropped. Null when the returned items cannot all be found in order: the table changed
 * between the two reads.
 */
export function mergeDropped(returned: Item[], evaluated: Item[]): ReadRow[] | null {
  const rows: ReadRow[] = [];
  let next = 0;
  for (const item of evaluated) {
    const candidate = returned[next];
    if (candidate !== undefined && holds(item, candidate)) {
      rows.push({ item: candidate, dropped: false });
      next += 1;
    } else {
      rows.push({ item, dropped: true });
    }
  }
  return next === returned.length ? rows : null;
}

function holds(whole: Item, part: Item): boolean {
  for (const [name, value] of Object.entries(part)) {
    const other = whole[name];
    if (other === undefined || JSON.stringify(other) !== JSON.stringify(value)) return false;
  }
  return true;
}
