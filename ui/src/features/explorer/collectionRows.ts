/**
 * What the collection box draws, worked out without React: the rows (items in the order the
 * query returned them, with a page mark after each page), the attribute columns, and the sentences
 * of a page mark.
 *
 * Paging facts come from the Query rules (rule B.4, docs/dynamodb-rules.md): a page ends when
 * `Limit` items were evaluated or 1 MB was read, `Limit` and the 1 MB count items before the
 * filter, so `ScannedCount` (read) can exceed `Count` (returned), and a page may hold no item at all.
 */
import type { AttributeValue, KeySchema, QueryPage } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { attributeText } from "../../shared/attributeValue";
import { compareKeyValues } from "../../shared/attributeValue";
import { formatCountOf } from "../../shared/format";

export type CollectionRow =
  | { kind: "item"; item: Item; itemIndex: number; pageIndex: number }
  | { kind: "page"; page: QueryPage; pageIndex: number; last: boolean };

/** Items of every page in order, each page followed by its page mark. */
export function collectionRows(pages: QueryPage[]): CollectionRow[] {
  const rows: CollectionRow[] = [];
  let itemIndex = 0;
  pages.forEach((page, pageIndex) => {
    for (const item of page.items) rows.push({ kind: "item", item, itemIndex: itemIndex++, pageIndex });
    rows.push({ kind: "page", page, pageIndex, last: pageIndex === pages.length - 1 });
  });
  return rows;
}

/** A sort the user chose on one column of the grid (in the app, not DynamoDB's). */
export type ColumnSort = { name: string; descending: boolean };

/**
 * The items read, sorted in the app by one attribute: numbers numerically, strings by their UTF-8
 * bytes and binaries by their bytes, as DynamoDB orders key values (rule B.9,
 * docs/dynamodb-rules.md); values of other types after those (false before true, then by their
 * text). Items without the attribute come last whichever the direction, and items that compare
 * equal keep the order the Query returned them in. No page marks: a page is a run of DynamoDB's
 * order, which a sort by another attribute does not keep.
 */
export function sortedItemRows(pages: QueryPage[], sort: ColumnSort): CollectionRow[] {
  const present: Extract<CollectionRow, { kind: "item" }>[] = [];
  const absent: Extract<CollectionRow, { kind: "item" }>[] = [];
  for (const row of collectionRows(pages)) {
    if (row.kind !== "item") continue;
    (row.item[sort.name] === undefined ? absent : present).push(row);
  }
  const direction = sort.descending ? -1 : 1;
  // Array.prototype.sort is stable: ties keep their order.
  present.sort((a, b) => direction * compareForSort(a.item[sort.name]!, b.item[sort.name]!));
  return [...present, ...absent];
}

function compareForSort(a: AttributeValue, b: AttributeValue): number {
  const scalar = (v: AttributeValue) => "N" in v || "S" in v || "B" in v;
  if (scalar(a) || scalar(b)) return scalar(a) && scalar(b) ? compareKeyValues(a, b) : scalar(a) ? -1 : 1;
  if ("BOOL" in a && "BOOL" in b) return Number(a.BOOL) - Number(b.BOOL);
  if ("BOOL" in a || "BOOL" in b) return "BOOL" in a ? -1 : 1;
  const ta = attributeText(a);
  const tb = attributeText(b);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}

/** Key attribute names in the order they are shown: the queried keys, then the table's. */
export function keyNames(keys: KeySchema, tableKeys: KeySchema | null): string[] {
  const names = [keys.partitionKey.name, keys.sortKey?.name, tableKeys?.partitionKey.name, tableKeys?.sortKey?.name];
  return [...new Set(names.filter((n): n is string => n !== undefined))];
}

/**
 * The attribute columns: key attributes first (less the partition key, which heads the box, and the
 * sort key, which sits in the margin), then every other attribute in the order it first appears.
 * In a `flat` grid of items from many collections (a Scan) the partition key sits in the margin
 * and the sort key is the first column.
 */
export function collectionColumns(keys: KeySchema, tableKeys: KeySchema | null, pages: QueryPage[], flat = false): string[] {
  const shownElsewhere = new Set(flat ? [keys.partitionKey.name] : [keys.partitionKey.name, keys.sortKey?.name]);
  const keyColumns = keyNames(keys, tableKeys).filter((name) => !shownElsewhere.has(name));
  const seen = new Set<string>([...shownElsewhere].filter((n): n is string => n !== undefined));
  const columns = [...keyColumns];
  for (const name of keyColumns) seen.add(name);
  for (const page of pages) {
    for (const item of page.items) {
      for (const name of Object.keys(item)) {
        if (!seen.has(name)) {
          seen.add(name);
          columns.push(name);
        }
      }
    }
  }
  return columns;
}

/** Why the page ended, in words. */
export function stopLabel(page: QueryPage, flat = false): string {
  switch (page.stop) {
    case "limit":
      return "Limit reached";
    case "size":
      return "1 MB read";
    case "end":
      return flat ? "End of the scan" : "End of collection";
  }
}

/** "25 returned of 30 read — the filter dropped 5" when a filter dropped items, else null (the bar's and the boxes' words). */
export function filteredLabel(page: QueryPage): string | null {
  if (page.scannedCount === page.count) return null;
  return `${page.count} returned of ${page.scannedCount} read — the filter dropped ${page.scannedCount - page.count}`;
}

/** "2.5 RCU (table 2, ByDepot 0.5)", or a sentence when the service did not report it. */
export function capacityLabel(page: QueryPage): string {
  const consumed = page.consumedCapacity;
  if (consumed === null) return "Capacity not reported";
  const parts: string[] = [];
  if (consumed.table !== null) parts.push(`table ${units(consumed.table)}`);
  for (const index of consumed.indexes) parts.push(`${index.name} ${units(index.units)}`);
  const detail = parts.length > 0 && !(parts.length === 1 && consumed.table === consumed.total) ? ` (${parts.join(", ")})` : "";
  return `${units(consumed.total)} RCU${detail}`;
}

function units(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000);
}

/**
 * Where the page stopped: the sort key (or partition key) of its LastEvaluatedKey; in a `flat`
 * grid (a Scan, across collections) the whole key.
 */
export function pageEndLabel(page: QueryPage, keys: KeySchema, flat = false): string | null {
  const lek = page.lastEvaluatedKey;
  if (lek === null) return null;
  const names = flat ? [keys.partitionKey.name, keys.sortKey?.name] : [keys.sortKey?.name ?? keys.partitionKey.name];
  const parts = names.flatMap((name) => {
    const value: AttributeValue | undefined = name === undefined ? undefined : lek[name];
    return value === undefined ? [] : [`${name} = ${attributeText(value)}`];
  });
  return parts.length === 0 ? null : parts.join(", ");
}

/** "1 item", "25 items". */
export function itemCountLabel(n: number): string {
  return formatCountOf(n, "item");
}
