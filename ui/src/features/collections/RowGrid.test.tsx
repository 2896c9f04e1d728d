import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import type { KeySchema } from "../../ipc/bindings.gen";
import { GridCells, gridOf } from "./RowGrid";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };

describe("a box's grid", () => {
  it("makes the sort-key column as wide as its longest value", () => {
    // "TS#2025-03-14T09:59:00Z": 23 characters × 0.62 em + 1 em of padding.
    expect(gridOf(keys, ["speedKph"], 23).template).toBe("16em repeat(1, minmax(5.5rem, 1fr))");
  });

  it("never makes the sort-key column narrower than its name", () => {
    // Values of 5 characters ("TS#00"); the name "recordedAt" has 10: 10 × 0.62 + 1 → 8em.
    expect(gridOf(keys, ["depot"], 5).template).toBe("8em repeat(1, minmax(5.5rem, 1fr))");
  });

  it("has no sort-key column on a table without a sort key", () => {
    const simple: KeySchema = { partitionKey: keys.partitionKey, sortKey: null };
    expect(gridOf(simple, ["a", "b"], 30).template).toBe("repeat(2, minmax(5.5rem, 1fr))");
  });

  it("gives every cell its whole value as a tooltip: a cell cut to its column can still be read", () => {
    const key = "TS#2025-03-14T09:09:00Z#" + "x".repeat(60);
    const { container } = render(
      <div>
        <GridCells keys={keys} grid={gridOf(keys, ["note", "speedKph", "missing"], 23)} item={{ recordedAt: { S: key }, note: { S: "a long note" }, speedKph: { N: "90" } }} />
      </div>,
    );
    const titles = [...container.querySelectorAll("[role=rowheader], [role=cell]")].map((c) => c.getAttribute("title"));
    // (An absent attribute's cell has no tooltip of its own: its dash says why.)
    expect(titles).toEqual([key, "a long note", "90", null]);
  });

  it("draws a scalar as the cell's own text, one element, and a map, a set or an empty string inside it", () => {
    const { container } = render(
      <div>
        <GridCells
          keys={keys}
          grid={gridOf(keys, ["speedKph", "moving", "gone", "tags", "where", "note"], 23)}
          item={{ recordedAt: { S: "TS#00" }, speedKph: { N: "90.50" }, moving: { BOOL: true }, gone: { NULL: true }, tags: { SS: ["a", "b"] }, where: { M: { lat: { N: "1" } } }, note: { S: "" } }}
          rowHeaderPrefix="Dropped by the filter: "
        />
      </div>,
    );
    const cells = [...container.querySelectorAll("[role=rowheader], [role=cell]")];
    // The sort key keeps its column's class, its type's look and the words read before it.
    expect(cells[0]!.className).toBe("run-box-sk tv tv-s");
    expect(cells[0]!.textContent).toBe("Dropped by the filter: TS#00");
    expect(cells.slice(1, 4).map((c) => [c.className, c.textContent, c.children.length])).toEqual([
      ["tv tv-n", "90.50", 0],
      ["tv tv-bool", "true", 0],
      ["tv tv-null", "null", 0],
    ]);
    expect(cells[4]!.querySelector(".tv-set")).not.toBeNull();
    expect(cells[5]!.querySelector(".tv-nested")).not.toBeNull();
    expect(cells[6]!.querySelector(".tv-empty")?.textContent).toBe('"" (empty string)');
  });
});
