import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { CollectionBox } from "./CollectionBox";
import type { KeySchema, QueryPage } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";

// jsdom lays nothing out: give the scroll area a 600 px viewport and every row its CSS height,
// as a browser would, so the virtualiser has real sizes to work with.
const viewport = 600;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("collection-scroll") ? viewport : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("page-mark") ? 46 : this.classList.contains("item-row") ? 30 : 0;
    },
  });
  // The scroll area's content: the 30 px column header plus the rows' total height.
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", {
    configurable: true,
    get(this: HTMLElement) {
      const rows = this.querySelector<HTMLElement>(":scope > .collection-rows");
      return rows ? 30 + parseFloat(rows.style.height || "0") : 0;
    },
  });
  // jsdom's scrollTo does not scroll; make it move scrollTop and fire "scroll" like a browser.
  Object.defineProperty(HTMLElement.prototype, "scrollTo", {
    configurable: true,
    value(this: HTMLElement, options?: ScrollToOptions) {
      if (options?.top !== undefined) this.scrollTop = options.top;
      this.dispatchEvent(new Event("scroll"));
    },
  });
});
afterAll(() => {
  // The overrides live on HTMLElement.prototype; jsdom's own are on Element.prototype underneath.
  for (const name of ["clientHeight", "offsetHeight", "scrollHeight", "scrollTo"]) {
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
});
afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const pk = { S: "VEH#V-7741" };

const meta: Item = { vehicleId: pk, recordedAt: { S: "META" }, plate: { S: "KX26 ABC" }, model: { S: "eVan 3" }, depotCode: { S: "" } };
const reading = (t: string, speed: string): Item => ({
  vehicleId: pk,
  recordedAt: { S: `TS#2026-06-23T09:00:${t}Z` },
  speedKph: { N: speed },
  coolantC: { N: "88" },
  fuelPct: { N: "61.5" },
});

const pages: QueryPage[] = [
  {
    items: [meta, reading("01", "42")],
    count: 2,
    scannedCount: 2,
    lastEvaluatedKey: { vehicleId: pk, recordedAt: { S: "TS#2026-06-23T09:00:01Z" } },
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: "limit",
  },
  {
    items: [reading("06", "44"), reading("11", "47.25")],
    count: 2,
    scannedCount: 5,
    lastEvaluatedKey: { vehicleId: pk, recordedAt: { S: "TS#2026-06-23T09:00:30Z" } },
    consumedCapacity: { total: 1.5, table: 1, indexes: [{ name: "ByDepot", units: 0.5 }] },
    stop: "size",
  },
];

function setup(overrides: Partial<Parameters<typeof CollectionBox>[0]> = {}) {
  const props = { keys, partitionValue: pk, pages, loading: false, onLoadMore: vi.fn(), onEdit: vi.fn(), onSelect: vi.fn(), ...overrides };
  render(<CollectionBox {...props} />);
  return props;
}

const itemRows = () => screen.getAllByRole("row").filter((r) => r.classList.contains("item-row"));

describe("CollectionBox", () => {
  it("draws one box headed by the partition key, META before its readings, sort key in the margin", () => {
    setup();
    const box = screen.getByRole("region", { name: "Item collection vehicleId = VEH#V-7741" });
    expect(box.querySelector(".collection-pk-value")?.textContent).toBe("VEH#V-7741");
    expect(itemRows().map((r) => within(r).getByRole("rowheader").textContent)).toEqual([
      "META",
      "TS#2026-06-23T09:00:01Z",
      "TS#2026-06-23T09:00:06Z",
      "TS#2026-06-23T09:00:11Z",
    ]);
    expect(box.querySelector(".collection-summary")?.textContent).toBe("4 items · 2 pages");
    // Rows and page marks follow one another in the list's window: none carries a style of its own.
    for (const row of screen.getAllByRole("row")) expect(row.getAttribute("style")).toBeNull();
  });

  it("puts columns in order of first appearance and marks absent attributes apart from empty strings", () => {
    setup();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "recordedAt",
      "plate",
      "model",
      "depotCode",
      "speedKph",
      "coolantC",
      "fuelPct",
    ]);
    const [metaRow, firstReading] = itemRows();
    const metaCells = within(metaRow!).getAllByRole("gridcell");
    expect(metaCells[2]!.textContent).toBe('"" (empty string)');
    // The same mark as the Collections view's rows (shared/Absent): a dash named "absent".
    expect(within(metaCells[3]!).getByRole("img", { name: "absent" }).textContent).toBe("—");
    const readingCells = within(firstReading!).getAllByRole("gridcell");
    expect(within(readingCells[0]!).getByRole("img", { name: "absent" })).not.toBeNull();
    expect(readingCells[3]!.textContent).toBe("42");
  });

  it("sorts on a click anywhere in a column's header cell, not only on its name, and says what the next click does", () => {
    setup();
    const speeds = () => itemRows().map((r) => within(r).getAllByRole("gridcell")[3]!.textContent);
    const header = () => screen.getAllByRole("columnheader").find((h) => h.textContent?.startsWith("speedKph"))!;
    expect(within(header()).getByRole("button").getAttribute("title")).toBe("Sort the items read by speedKph, highest first");
    fireEvent.click(header());
    expect(header().getAttribute("aria-sort")).toBe("descending");
    expect(speeds()).toEqual(["47.25", "44", "42", "—"]);
    expect(within(header()).getByRole("button").getAttribute("title")).toBe("Sort the items read by speedKph, lowest first");
    // The button (the keyboard's way: Tab to it, Enter) sorts once per click, not twice.
    fireEvent.click(within(header()).getByRole("button"));
    expect(header().getAttribute("aria-sort")).toBe("ascending");
    // The margin's header (the sort key) sorts the same way.
    const margin = screen.getAllByRole("columnheader").find((h) => h.textContent?.startsWith("recordedAt"))!;
    fireEvent.click(margin);
    expect(margin.getAttribute("aria-sort")).toBe("descending");
    expect(header().getAttribute("aria-sort")).toBeNull();
  });

  it("sorts the items read by a column in the app, highest first, then lowest first, then DynamoDB's order", () => {
    setup();
    const speeds = () => itemRows().map((r) => within(r).getAllByRole("gridcell")[3]!.textContent);
    const header = () => screen.getAllByRole("columnheader").find((h) => h.textContent?.startsWith("speedKph"))!;
    fireEvent.click(itemRows()[1]!);
    fireEvent.click(within(header()).getByRole("button"));
    expect(header().getAttribute("aria-sort")).toBe("descending");
    // The selection does not jump to whatever item now stands where it was.
    expect(itemRows().filter((r) => r.getAttribute("aria-selected") === "true")).toEqual([]);
    // 47.25 > 44 > 42; META has no speed and comes last.
    expect(speeds()).toEqual(["47.25", "44", "42", "—"]);
    expect(screen.getByTestId("collection-sorted").textContent).toContain("Sorted in the app by speedKph, highest first");
    expect(screen.queryByTestId("page-mark-1")).toBeNull();
    fireEvent.click(within(header()).getByRole("button"));
    expect(header().getAttribute("aria-sort")).toBe("ascending");
    expect(speeds()).toEqual(["42", "44", "47.25", "—"]);
    fireEvent.click(within(header()).getByRole("button"));
    expect(header().getAttribute("aria-sort")).toBeNull();
    expect(speeds()).toEqual(["—", "42", "44", "47.25"]);
    expect(screen.getByTestId("page-mark-1")).not.toBeNull();
  });

  it("shows only the columns chosen", () => {
    setup();
    const chooser = screen.getByRole("group", { name: "Columns shown" });
    fireEvent.click(within(chooser).getByLabelText("coolantC"));
    fireEvent.click(within(chooser).getByLabelText("plate"));
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["recordedAt", "model", "depotCode", "speedKph", "fuelPct"]);
    expect(screen.getByText(/Columns \(4 of 6\)/)).not.toBeNull();
    fireEvent.click(within(chooser).getByLabelText("plate"));
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toContain("plate");
  });

  it("draws a Scan's items from many collections as one flat grid: the partition key in the margin, no Load more", () => {
    const other = { S: "VEH#V-1007" };
    const scanned: QueryPage[] = [
      { ...pages[0]!, items: [meta, { ...reading("02", "50"), vehicleId: other }], stop: "size" },
      { ...pages[1]!, lastEvaluatedKey: null, stop: "end" },
    ];
    setup({ partitionValue: null, title: "Items the Scan of Telemetry returned", pages: scanned, onLoadMore: null });
    expect(screen.getByRole("region", { name: "Items the Scan of Telemetry returned" })).not.toBeNull();
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent).slice(0, 2)).toEqual(["vehicleId", "recordedAt"]);
    expect(itemRows().map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["VEH#V-7741", "VEH#V-1007", "VEH#V-7741", "VEH#V-7741"]);
    // A Scan's page ends across collections: its whole LastEvaluatedKey is named.
    expect(screen.getByTestId("page-mark-1").textContent).toContain("ended at vehicleId = VEH#V-7741, recordedAt = TS#2026-06-23T09:00:01Z");
    expect(screen.getByTestId("page-mark-2").textContent).toContain("End of the scan");
    expect(screen.queryByRole("button", { name: /Load more/ })).toBeNull();
  });

  it("puts the table's keys first when an index was queried", () => {
    const byDepot: KeySchema = { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
    const item: Item = { depotCode: { S: "DEP-LON-3" }, recordedAt: { S: "TS#1" }, speedKph: { N: "1" }, vehicleId: pk };
    setup({
      keys: byDepot,
      tableKeys: keys,
      partitionValue: { S: "DEP-LON-3" },
      pages: [{ items: [item], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" }],
    });
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["recordedAt", "vehicleId", "speedKph"]);
  });

  it("marks where each page ended and why, with its counts and capacity", () => {
    setup();
    const first = screen.getByTestId("page-mark-1");
    expect(first.textContent).toContain("Page 1 · 2 items · Limit reached · ended at recordedAt = TS#2026-06-23T09:00:01Z");
    expect(first.textContent).toContain("Consumed 0.5 RCU");
    expect(first.textContent).not.toContain("filtered out");
    const second = screen.getByTestId("page-mark-2");
    expect(second.textContent).toContain("1 MB read");
    expect(second.textContent).toContain("2 returned of 5 read — the filter dropped 3");
    expect(second.textContent).toContain("Consumed 1.5 RCU (table 1, ByDepot 0.5)");
    // The page mark sits between the pages' items.
    const order = screen.getAllByRole("row").map((r) => (r.classList.contains("page-mark") ? "mark" : r.classList.contains("item-row") ? "item" : "header"));
    expect(order).toEqual(["header", "item", "item", "mark", "item", "item", "mark"]);
  });

  it("says the collection ended on a last page without LastEvaluatedKey, and offers no Load more", () => {
    const end: QueryPage = { items: [], count: 0, scannedCount: 3, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" };
    setup({ pages: [...pages, end] });
    const mark = screen.getByTestId("page-mark-3");
    expect(mark.textContent).toContain("Page 3 · 0 items · End of collection");
    expect(mark.textContent).toContain("0 returned of 3 read — the filter dropped 3");
    expect(mark.textContent).toContain("Capacity not reported");
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
  });

  it("loads more with the button or Ctrl+J, and not while loading", () => {
    const props = setup();
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(props.onLoadMore).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole("grid"), { key: "j", ctrlKey: true });
    expect(props.onLoadMore).toHaveBeenCalledTimes(2);
    cleanup();
    const loading = setup({ loading: true });
    const button = screen.getByRole("button", { name: "Loading…" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.keyDown(screen.getByRole("grid"), { key: "j", ctrlKey: true });
    expect(loading.onLoadMore).not.toHaveBeenCalled();
  });

  it("says why the next page could not be read, beside Load more", () => {
    setup({ loadError: { name: "ProvisionedThroughputExceededException", message: "The level of configured provisioned throughput for the table was exceeded." } });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe(
      "The next page could not be read: The level of configured provisioned throughput for the table was exceeded. ProvisionedThroughputExceededException",
    );
    expect(screen.getByRole("button", { name: "Load more" })).toBeTruthy();
  });

  it("selects with the arrow keys, skipping page marks, and edits the selection with Enter", () => {
    const props = setup();
    const grid = screen.getByRole("grid");
    grid.focus();
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(itemRows()[0]!.getAttribute("aria-selected")).toBe("true");
    expect(grid.getAttribute("aria-activedescendant")).toBe(itemRows()[0]!.id);
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    const selected = itemRows().filter((r) => r.getAttribute("aria-selected") === "true");
    expect(selected.map((r) => within(r).getByRole("rowheader").textContent)).toEqual(["TS#2026-06-23T09:00:06Z"]);
    expect(selected[0]!.classList.contains("selected")).toBe(true);
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(props.onEdit).toHaveBeenCalledWith(pages[1]!.items[0]);
    expect(props.onSelect).toHaveBeenLastCalledWith(pages[1]!.items[0]);
    fireEvent.keyDown(grid, { key: "End" });
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(props.onEdit).toHaveBeenLastCalledWith(pages[1]!.items[1]);
    fireEvent.keyDown(grid, { key: "Home" });
    fireEvent.keyDown(grid, { key: "ArrowUp" });
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(props.onEdit).toHaveBeenLastCalledWith(meta);
  });

  it("selects a row on click and edits it on double-click", () => {
    const props = setup();
    const row = itemRows()[1]!;
    fireEvent.click(row);
    expect(row.getAttribute("aria-selected")).toBe("true");
    fireEvent.doubleClick(row);
    expect(props.onEdit).toHaveBeenCalledWith(pages[0]!.items[1]);
  });

  it("keeps only a window of rows in the DOM for a 100,000-item collection, and follows the scroll", async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({
      vehicleId: pk,
      recordedAt: { S: `TS#${String(i).padStart(6, "0")}` },
      speedKph: { N: String(i % 130) },
    }));
    const big: QueryPage[] = [{ items, count: items.length, scannedCount: items.length, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" }];
    const props = setup({ pages: big, overscan: 5 });
    const grid = screen.getByRole("grid");
    expect(grid.getAttribute("aria-rowcount")).toBe("100002");
    const rendered = itemRows();
    // 600 px / 30 px = 20 visible rows, plus the overscan on each side.
    expect(rendered.length).toBeGreaterThanOrEqual(20);
    expect(rendered.length).toBeLessThanOrEqual(40);
    expect(within(rendered[0]!).getByRole("rowheader").textContent).toBe("TS#000000");

    act(() => {
      grid.scrollTop = 50_000 * 30;
      fireEvent.scroll(grid);
    });
    const window = itemRows().map((r) => within(r).getByRole("rowheader").textContent);
    expect(window).toContain("TS#050000");
    expect(window).not.toContain("TS#000000");
    expect(window.length).toBeLessThanOrEqual(40);

    // Keyboard selection to the very end scrolls the last row into the DOM.
    grid.focus();
    await act(async () => {
      fireEvent.keyDown(grid, { key: "End" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(props.onEdit).toHaveBeenCalledWith(items[99_999]);
    expect(itemRows().map((r) => within(r).getByRole("rowheader").textContent)).toContain("TS#099999");
  });
  it("keeps a row selected from above in sight under the sticky column header, not behind it", async () => {
    const items = Array.from({ length: 1_000 }, (_, i) => ({ vehicleId: pk, recordedAt: { S: `TS#${String(i).padStart(4, "0")}` } }));
    setup({ pages: [{ items, count: items.length, scannedCount: items.length, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" }] });
    const grid = screen.getByRole("grid");
    act(() => {
      grid.scrollTop = 500 * 30;
      fireEvent.scroll(grid);
    });
    // The first row, selected from far below: the grid scrolls back to where it starts under the
    // 30 px header (the rows start 30 px into the scroll area), not 30 px further, behind it.
    grid.focus();
    await act(async () => {
      fireEvent.keyDown(grid, { key: "ArrowDown" });
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(grid.scrollTop).toBe(0);
    // A row further on, reached going up: its top at the header's bottom edge.
    act(() => {
      grid.scrollTop = 500 * 30;
      fireEvent.scroll(grid);
    });
    await act(async () => {
      fireEvent.keyDown(grid, { key: "PageDown" }); // a screen on from nothing selected: far above the rows in sight
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const selected = itemRows().find((r) => r.getAttribute("aria-selected") === "true")!;
    const index = Number(selected.dataset.index);
    expect(30 + index * 30 - grid.scrollTop).toBe(30);
  });

  it("takes Space on a selected row without scrolling the grid, and checks the row only in a bulk edit", () => {
    setup();
    const grid = screen.getByRole("grid");
    // Nothing selected: Space is the grid's to scroll with.
    expect(fireEvent.keyDown(grid, { key: " " })).toBe(true);
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    // Selected, outside a bulk edit: Space does nothing, and does not scroll the row out of sight.
    expect(fireEvent.keyDown(grid, { key: " " })).toBe(false);
    cleanup();
    const onCheck = vi.fn();
    setup({ checked: new Set<number>(), onCheck });
    const bulk = screen.getByRole("grid");
    fireEvent.keyDown(bulk, { key: "ArrowDown" });
    expect(fireEvent.keyDown(bulk, { key: " " })).toBe(false);
    expect(onCheck).toHaveBeenCalledWith(0);
  });

  it("hands the focus to the column that was sorted when DynamoDB's order takes the sort (and its button) away", async () => {
    setup();
    const sortButton = () => within(screen.getAllByRole("columnheader").find((h) => h.textContent?.startsWith("speedKph"))!).getByRole("button");
    fireEvent.click(sortButton());
    const back = within(screen.getByTestId("collection-sorted")).getByRole("button", { name: "DynamoDB's order" });
    back.focus();
    fireEvent.click(back);
    expect(screen.queryByTestId("collection-sorted")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(sortButton()));
  });

  it("closes Columns… on Escape (the focus back on it) and when the focus leaves it for another control", () => {
    setup();
    const chooser = document.querySelector<HTMLDetailsElement>(".column-chooser")!;
    const summary = chooser.querySelector("summary")!;
    fireEvent.click(summary);
    expect(chooser.open).toBe(true);
    const plate = within(chooser).getByLabelText("plate");
    plate.focus();
    fireEvent.keyDown(plate, { key: "Escape" });
    expect(chooser.open).toBe(false);
    expect(document.activeElement).toBe(summary);

    fireEvent.click(summary);
    expect(chooser.open).toBe(true);
    plate.focus();
    // Within it, the focus moving on keeps it open; out of it (Tab to the grid), it closes.
    fireEvent.focusOut(plate, { relatedTarget: within(chooser).getByLabelText("model") });
    expect(chooser.open).toBe(true);
    fireEvent.focusOut(plate, { relatedTarget: screen.getByRole("grid") });
    expect(chooser.open).toBe(false);
  });
});
