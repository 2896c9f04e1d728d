import { describe, expect, it } from "vitest";
import { capacityLabel, collectionColumns, collectionRows, pageEndLabel, sortedItemRows } from "./collectionRows";
import type { KeySchema, QueryPage } from "../../ipc/bindings.gen";

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

  it("sorts the items read by an attribute in the app: numbers exactly, strings by UTF-8 bytes, absent last, ties in read order", () => {
    const items = [
      { id: { S: "a" }, n: { N: "9" }, s: { S: "é" } },
      { id: { S: "b" }, n: { N: "10" }, s: { S: "z" } },
      { id: { S: "c" } },
      { id: { S: "d" }, n: { N: "-0.5" }, s: { S: "Z" } },
      { id: { S: "e" }, n: { N: "99999999999999999999999999999999999999" }, s: { S: "z" } },
      { id: { S: "f" }, n: { N: "99999999999999999999999999999999999998" } },
      { id: { S: "g" }, n: { N: "10.0" } },
    ];
    const ids = (name: string, descending: boolean) =>
      sortedItemRows([page({ items: items.slice(0, 3) }), page({ items: items.slice(3) })], { name, descending }).map((r) =>
        r.kind === "item" ? (r.item.id as { S: string }).S : `mark${r.pageIndex}`,
      );
    // 38 digits compared exactly (a float would call them equal); 10 and 10.0 tie and keep their order.
    expect(ids("n", true)).toEqual(["e", "f", "b", "g", "a", "d", "c"]);
    expect(ids("n", false)).toEqual(["d", "a", "b", "g", "f", "e", "c"]);
    // "Z" (0x5A) < "z" (0x7A) < "é" (0xC3 0xA9): byte order, not the locale's.
    expect(ids("s", false)).toEqual(["d", "b", "e", "a", "c", "f", "g"]);
  });
});
