import { describe, expect, it } from "vitest";
import { capacityLabel, collectionColumns, collectionRows, pageEndLabel } from "./collectionRows";
import type { KeySchema, QueryPage } from "./model";

const keys: KeySchema = { partitionKey: { name: "pk", type: "S" }, sortKey: { name: "sk", type: "N" } };
const page = (over: Partial<QueryPage>): QueryPage => ({
  items: [],
  count: 0,
  scannedCount: 0,
  lastEvaluatedKey: null,
  consumedCapacity: null,
  stop: "end",
  ...over,
});

describe("collection rows", () => {
  it("follows each page with its mark, empty pages included", () => {
    const rows = collectionRows([page({ items: [{ a: { S: "1" } }] }), page({}), page({ items: [{ b: { S: "2" } }] })]);
    expect(rows.map((r) => (r.kind === "item" ? `item${r.itemIndex}/p${r.pageIndex}` : `mark${r.pageIndex}${r.last ? " last" : ""}`))).toEqual([
      "item0/p0",
      "mark0",
      "mark1",
      "item1/p2",
      "mark2 last",
    ]);
  });

  it("orders columns by first appearance across pages, leaving out the keys drawn elsewhere", () => {
    const cols = collectionColumns(keys, null, [page({ items: [{ pk: { S: "a" }, sk: { N: "1" }, z: { S: "" } }] }), page({ items: [{ a: { S: "" }, z: { S: "" } }] })]);
    expect(cols).toEqual(["z", "a"]);
  });

  it("writes capacity without repeating a table-only total", () => {
    expect(capacityLabel(page({ consumedCapacity: { total: 0.5, table: 0.5, indexes: [] } }))).toBe("0.5 RCU");
    expect(capacityLabel(page({ consumedCapacity: { total: 3, table: null, indexes: [] } }))).toBe("3 RCU");
    expect(capacityLabel(page({ consumedCapacity: { total: 1 / 3, table: 1 / 3, indexes: [{ name: "G", units: 0 }] } }))).toBe(
      "0.333 RCU (table 0.333, G 0)",
    );
  });

  it("names where a page stopped by its LastEvaluatedKey's sort key", () => {
    expect(pageEndLabel(page({ lastEvaluatedKey: { pk: { S: "a" }, sk: { N: "42" } } }), keys)).toBe("sk = 42");
    expect(pageEndLabel(page({}), keys)).toBeNull();
  });
});
