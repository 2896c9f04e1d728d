import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { useState, type ReactNode } from "react";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { CollectionsView, FLASH_MS, columnMarks } from "./CollectionsView";
import type { Item } from "../../shared/attributeValue";
import { useCollections, type CollectionsSource } from "./useCollections";
import { GRID_ROW } from "./RowGrid";
import { renderWithCommands } from "../../ipc/testCommands";
import { CapacityProvider, useCapacityTotals } from "../../app/capacity";
import type { AttributeValue, CollectionStat, QueryInput, QueryPage, TableDescription } from "../../ipc/bindings.gen";

// jsdom lays nothing out: give the run a 600 px viewport and every box 200 px, as a browser
// would, so the virtualiser has real sizes to work with.
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("collections-run") ? 600 : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("collections-slot") ? 200 : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", {
    configurable: true,
    get(this: HTMLElement) {
      const inner = this.querySelector<HTMLElement>(":scope > .collections-run-inner");
      return inner ? parseFloat(inner.style.height || "0") : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "scrollTo", {
    configurable: true,
    value(this: HTMLElement, options?: ScrollToOptions) {
      if (options?.top !== undefined) this.scrollTop = options.top;
      this.dispatchEvent(new Event("scroll"));
    },
  });
});
afterAll(() => {
  for (const name of ["clientHeight", "offsetHeight", "scrollHeight", "scrollTo"]) {
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
});
afterEach(cleanup);

const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 0,
  sizeBytes: 0,
  indexes: [],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};

const people: TableDescription = { ...telemetry, name: "People", keys: { partitionKey: { name: "PersonID", type: "N" }, sortKey: null } };

const stat = (value: string, itemCount: number, sizeBytes: number): CollectionStat => ({
  partitionValue: { S: value },
  itemCount,
  sizeBytes,
  limitedSizeBytes: null,
});

type Source = CollectionsSource & { collectionPage: ReturnType<typeof vi.fn>; collectionRange: ReturnType<typeof vi.fn> };

/**
 * The backend's side of the run: `run` is the key-ordered list the engine keeps (its order is
 * the engine's business, tested in Rust), listed a stretch at a time.
 */
function withRun(run: CollectionStat[], query: CollectionsSource["collectionPage"]): Source {
  return {
    collectionPage: vi.fn(query),
    collectionRange: vi.fn(async (_p: string, table: string, index: string | null, offset: number, limit: number) => ({
      status: "ok" as const,
      data: { table, index, offset, total: run.length, collections: run.slice(offset, offset + limit) },
    })),
    collectionPosition: vi.fn(async (_p: string, _t: string, _i: string | null, value: AttributeValue) => {
      const at = run.findIndex((c) => JSON.stringify(c.partitionValue) === JSON.stringify(value));
      return { status: "ok" as const, data: at < 0 ? null : at };
    }),
  } as unknown as Source;
}

/** The collection VEH#V-7741: its META item first, then readings, as the engine sorts them. */
function itemsOf(vehicle: string, limit: number): Item[] {
  const meta: Item = { vehicleId: { S: vehicle }, recordedAt: { S: "META" }, plate: { S: "KX-7741" }, model: { S: "Sprinter" } };
  const readings = Array.from({ length: 40 }, (_, i) => ({
    vehicleId: { S: vehicle },
    recordedAt: { S: `TS#2025-03-14T09:${String(i).padStart(2, "0")}:00Z` },
    speedKph: { N: String(30 + i) },
  }));
  return [meta, ...readings].slice(0, limit);
}

async function readingsQuery(_profile: string, input: QueryInput) {
      const vehicle = "S" in input.partitionValue ? input.partitionValue.S : "";
      // From the item after ExclusiveStartKey, as DynamoDB pages.
      const all = itemsOf(vehicle, 1000);
      const after = input.exclusiveStartKey === null ? 0 : all.findIndex((i) => i.recordedAt!.S === (input.exclusiveStartKey!.recordedAt as { S: string }).S) + 1;
      const items = all.slice(after, after + (input.limit ?? 100));
      const page: QueryPage = {
        items,
        count: items.length,
        scannedCount: items.length,
        lastEvaluatedKey: items.length === input.limit && after + items.length < all.length ? { vehicleId: { S: vehicle }, recordedAt: items.at(-1)!.recordedAt! } : null,
        consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
        stop: items.length === input.limit && after + items.length < all.length ? "limit" : "end",
      };
      return { status: "ok" as const, data: page };
}

function fakeSource(run: CollectionStat[]): Source {
  return withRun(run, readingsQuery);
}

function Used() {
  const totals = useCapacityTotals();
  return <span data-testid="used">{totals.readUnits}</span>;
}

function Harness({
  table = telemetry,
  onOpen = () => {},
  reveal = null,
  initialIndex = null,
  onOpenItem,
  onCopyItem,
  aside,
}: {
  aside?: ReactNode;
  table?: TableDescription;
  onOpen?: (value: unknown) => void;
  onOpenItem?: (item: unknown) => void;
  onCopyItem?: (item: unknown) => void;
  reveal?: { value: AttributeValue; n: number } | null;
  initialIndex?: string | null;
}) {
  const [index, setIndex] = useState<string | null>(initialIndex);
  const data = useCollections({ profileId: "embedded", table: table.name, index, rowsPerBox: 5, listPage: 50 });
  return (
    <CollectionsView
      table={table}
      data={data}
      onOpen={onOpen}
      onGroupBy={setIndex}
      reveal={reveal}
      rowsPerBox={5}
      onOpenItem={onOpenItem}
      onCopyItem={onCopyItem}
      aside={aside}
    />
  );
}

function renderHarness({ source, ...props }: Parameters<typeof Harness>[0] & { source: CollectionsSource }) {
  return renderWithCommands(
    <CapacityProvider>
      <Harness {...props} />
      <Used />
    </CapacityProvider>,
    source,
  );
}

const boxes = () => screen.queryAllByTestId("collection-run-box");

describe("CollectionsView", () => {
  it("draws one box per collection of the run, in its order, headed by the full key, count, size and whole-read RCU", async () => {
    const source = fakeSource([stat("VEH#V-100", 36, 3400), stat("VEH#V-139", 36, 3500), stat("VEH#V-7741", 1441, 130 * 1024)]);
    renderHarness({ source });
    await waitFor(() => expect(boxes()).toHaveLength(3));
    expect(boxes().map((b) => b.getAttribute("data-key"))).toEqual(["VEH#V-100", "VEH#V-139", "VEH#V-7741"]);
    const big = boxes()[2]!;
    expect(within(big).getByRole("heading").textContent).toBe("vehicleId = VEH#V-7741");
    expect(within(big).getByTestId("box-figures").textContent).toBe("1,441 items · 130 KB");
    expect(within(big).getByTestId("box-cost").textContent).toBe("whole: 16.5 RCU eventual · 33 strong");
    expect(within(boxes()[0]!).getByTestId("box-cost").textContent).toBe("whole: 0.5 RCU eventual · 1 strong");
    expect(screen.getByTestId("collections-summary").textContent).toContain("3 collections in key order of vehicleId");
  });

  it("reads each box in sight with one Query, its items in sort-key order with their attributes as columns", async () => {
    const source = fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)]);
    renderHarness({ source });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(5));
    // One Query per box in sight, no more.
    await waitFor(() => expect(source.collectionPage).toHaveBeenCalledTimes(2));
    expect(source.collectionPage).toHaveBeenCalledWith(
      "embedded",
      expect.objectContaining({ table: "Telemetry", index: null, partitionValue: { S: "VEH#V-7741" }, scanIndexForward: true, limit: 5 }),
    );
    const rows = within(box).getAllByTestId("box-row");
    // META sorts before every TS# reading.
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual([
      "META",
      "TS#2025-03-14T09:00:00Z",
      "TS#2025-03-14T09:01:00Z",
      "TS#2025-03-14T09:02:00Z",
      "TS#2025-03-14T09:03:00Z",
    ]);
    expect(within(box).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["recordedAt", "plate", "model", "speedKph"]);
    // An attribute an item does not have is marked, not left blank.
    expect(within(rows[0]!).getAllByRole("cell").map((c) => c.textContent)).toEqual(["KX-7741", "Sprinter", "—"]);
    // Typed values: the number is drawn as a number.
    expect(rows[1]!.querySelector(".tv-n")?.textContent).toBe("30");
    expect(within(box).getByTestId("box-more").textContent).toContain("36 more items in this collection");
    // The Queries' consumed capacity is counted as used, and the view says what reading its boxes cost.
    await waitFor(() => expect(screen.getByTestId("used").textContent).toBe("1"));
    expect(screen.getByTestId("collections-spent").textContent).toBe("boxes read: 2 Queries · 1 RCU");
  });

  it("says in a box's head when its rows came from the statistics scan, and counts no Query or read unit for them", async () => {
    const read = Date.UTC(2026, 11, 7, 7, 42) / 1000;
    const source = withRun([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)], async (profile: string, input: QueryInput) => {
      const answer = await readingsQuery(profile, input);
      // The first box's rows were kept by the scan: no read, no capacity.
      if ("S" in input.partitionValue && input.partitionValue.S === "VEH#V-7741") {
        return { status: "ok" as const, data: { ...answer.data, consumedCapacity: null, keptFromScan: read } };
      }
      return answer;
    });
    renderHarness({ source });
    await waitFor(() => expect(boxes()).toHaveLength(2));
    await waitFor(() => expect(within(boxes()[0]!).getAllByTestId("box-row")).toHaveLength(5));
    await waitFor(() => expect(within(boxes()[1]!).getAllByTestId("box-row")).toHaveLength(5));
    const kept = within(boxes()[0]!).getByTestId("box-kept");
    expect(kept.textContent).toBe("rows from the statistics scan · no Query");
    // When they were read is in its title.
    expect(kept.getAttribute("title")).toContain(`read these rows on ${new Date(read * 1000).toLocaleString()}`);
    expect(within(boxes()[1]!).queryByTestId("box-kept")).toBeNull();
    // Only the second box's Query is counted, in the ledger and in the view's head.
    await waitFor(() => expect(screen.getByTestId("collections-spent").textContent).toBe("boxes read: 1 Query · 0.5 RCU"));
    expect(screen.getByTestId("used").textContent).toBe("0.5");
  });

  it("opens a box in the Items view with its button or Enter, and moves between boxes with the arrow keys", async () => {
    const onOpen = vi.fn();
    renderHarness({ source: fakeSource([stat("VEH#V-1", 3, 300), stat("VEH#V-2", 3, 300), stat("VEH#V-3", 3, 300)]), onOpen });
    await waitFor(() => expect(boxes()).toHaveLength(3));
    fireEvent.click(within(boxes()[1]!).getByRole("button", { name: "Open vehicleId = VEH#V-2 in Items" }));
    expect(onOpen).toHaveBeenLastCalledWith({ S: "VEH#V-2" });
    const first = boxes()[0]!;
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowDown" });
    await waitFor(() => expect(document.activeElement?.getAttribute("data-key")).toBe("VEH#V-2"));
    fireEvent.keyDown(document.activeElement!, { key: "Enter" });
    expect(onOpen).toHaveBeenLastCalledWith({ S: "VEH#V-2" });
    expect(first.getAttribute("aria-setsize")).toBe("3");
  });

  it("is one Tab stop, the box last focused with its buttons, kept while that box scrolls out of the DOM and back", async () => {
    const many = Array.from({ length: 200 }, (_, i) => stat(`VEH#V-${String(i).padStart(3, "0")}`, 36, 3400));
    renderHarness({ source: fakeSource(many) });
    await waitFor(() => expect(boxes().length).toBeGreaterThan(3));
    // What Tab stops at in the run: one box, and its buttons.
    const stops = () => [...screen.getByTestId("collections-run").querySelectorAll<HTMLElement>("[tabindex]")].filter((el) => el.tabIndex >= 0);
    const stopKeys = () => [...new Set(stops().map((el) => el.closest<HTMLElement>('[data-testid="collection-run-box"]')!.getAttribute("data-key")))];
    expect(stopKeys()).toEqual(["VEH#V-000"]);
    expect(stops()[0]).toBe(boxes()[0]);
    const first = boxes()[0]!;
    expect(within(first).getByRole("button", { name: "Open vehicleId = VEH#V-000 in Items" }).tabIndex).toBe(0);
    expect(within(boxes()[1]!).getByRole("button", { name: "Open vehicleId = VEH#V-001 in Items" }).tabIndex).toBe(-1);
    // The arrows move the stop with the focus.
    first.focus();
    fireEvent.keyDown(first, { key: "ArrowDown" });
    await waitFor(() => expect(document.activeElement?.getAttribute("data-key")).toBe("VEH#V-001"));
    expect(stopKeys()).toEqual(["VEH#V-001"]);
    expect(first.tabIndex).toBe(-1);
    // Scrolled far away, the box is gone from the DOM: the run itself is the one stop (no box
    // stands in: that would draw boxes again all through a scroll).
    const run = screen.getByTestId("collections-run");
    const scrollTo = (top: number) =>
      act(() => {
        run.scrollTop = top;
        fireEvent.scroll(run);
      });
    scrollTo(100 * 200);
    await waitFor(() => expect(boxes().map((b) => b.getAttribute("data-key"))).not.toContain("VEH#V-001"));
    await waitFor(() => expect(run.tabIndex).toBe(0));
    expect(stopKeys()).toEqual([]);
    // Scrolled back, the box last focused is the stop again, and the run is not focusable at all.
    scrollTo(0);
    await waitFor(() => expect(boxes().map((b) => b.getAttribute("data-key"))).toContain("VEH#V-001"));
    await waitFor(() => expect(stopKeys()).toEqual(["VEH#V-001"]));
    expect(run.hasAttribute("tabindex")).toBe(false);
    // Tabbing to the run while its stop is out of the DOM hands the focus to the first box in sight.
    scrollTo(100 * 200);
    await waitFor(() => expect(run.tabIndex).toBe(0));
    act(() => run.focus());
    const inSight = document.activeElement as HTMLElement;
    expect(inSight.getAttribute("data-testid")).toBe("collection-run-box");
    expect(boxes()).toContain(inSight);
    await waitFor(() => expect(stopKeys()).toEqual([inSight.getAttribute("data-key")]));
  });

  it("moves into a box's rows with ArrowRight, between them with the arrows, opens a row's item with Enter and goes back with Escape", async () => {
    const onOpen = vi.fn();
    const onOpenItem = vi.fn();
    renderHarness({ source: fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)]), onOpen, onOpenItem });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(5));
    const rows = within(box).getAllByTestId("box-row");
    box.focus();
    fireEvent.keyDown(box, { key: "ArrowRight" });
    expect(document.activeElement).toBe(rows[0]);
    fireEvent.keyDown(rows[0]!, { key: "ArrowDown" });
    fireEvent.keyDown(rows[1]!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(rows[2]);
    fireEvent.keyDown(rows[2]!, { key: "ArrowUp" });
    expect(document.activeElement).toBe(rows[1]);
    fireEvent.keyDown(rows[1]!, { key: "End" });
    expect(document.activeElement).toBe(rows[4]);
    // Past the last row it stays there: the box's items end with what was drawn.
    fireEvent.keyDown(rows[4]!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(rows[4]);
    fireEvent.keyDown(rows[4]!, { key: "Home" });
    fireEvent.keyDown(rows[0]!, { key: "ArrowDown" });
    fireEvent.keyDown(rows[1]!, { key: "Enter" });
    expect(onOpenItem).toHaveBeenCalledTimes(1);
    expect(onOpenItem.mock.calls[0]![0]).toMatchObject({ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:00:00Z" } });
    expect(onOpen).not.toHaveBeenCalled();
    fireEvent.keyDown(rows[1]!, { key: "Escape" });
    expect(document.activeElement).toBe(box);
  });

  it("shows a run of one collection whole, reading it on with ExclusiveStartKey as its rows come into sight", async () => {
    const source = fakeSource([stat("VEH#V-7741", 41, 4000)]);
    renderHarness({ source });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    // The first Query drew 5; the rows in sight (and a few beyond) asked for the rest.
    await waitFor(() => expect(within(box).getByTestId("whole-status").textContent).toBe("All 41 items read."));
    expect(source.collectionPage).toHaveBeenCalledTimes(2);
    expect(source.collectionPage.mock.calls[1]![1]).toMatchObject({
      partitionValue: { S: "VEH#V-7741" },
      exclusiveStartKey: { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:03:00Z" } },
      limit: 500,
    });
    // Rows are drawn in sort-key order, every attribute a column (META's and the readings').
    const rows = within(box).getAllByTestId("box-row");
    expect(rows[5]!.getAttribute("data-row")).toBe("5");
    expect(within(rows[5]!).getByRole("rowheader").textContent).toBe("TS#2025-03-14T09:04:00Z");
    expect(within(box).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["recordedAt", "plate", "model", "speedKph"]);
    // The whole collection is the whole run: nothing to fold back to.
    expect(within(box).queryByTestId("box-show-first")).toBeNull();
  });

  it("shows one box of a run whole on request, and folds it back to its first rows", async () => {
    const source = fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)]);
    renderHarness({ source });
    await waitFor(() => expect(within(boxes()[0]!).getAllByTestId("box-row")).toHaveLength(5));
    fireEvent.click(within(boxes()[0]!).getByTestId("box-show-whole"));
    await waitFor(() => expect(within(boxes()[0]!).getByTestId("whole-status").textContent).toBe("All 41 items read."));
    // The other box keeps its first rows.
    expect(within(boxes()[1]!).queryByTestId("whole-rows")).toBeNull();
    fireEvent.click(within(boxes()[0]!).getByTestId("box-show-first"));
    await waitFor(() => expect(within(boxes()[0]!).queryByTestId("whole-rows")).toBeNull());
    expect(within(boxes()[0]!).getByTestId("box-more").textContent).toContain("36 more items");
  });

  it("shows the focused box whole with W, and its first rows again with W", async () => {
    const source = fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)]);
    renderHarness({ source });
    await waitFor(() => expect(within(boxes()[1]!).getAllByTestId("box-row")).toHaveLength(5));
    fireEvent.keyDown(boxes()[1]!, { key: "w" });
    await waitFor(() => expect(within(boxes()[1]!).getByTestId("whole-status").textContent).toBe("All 41 items read."));
    expect(within(boxes()[0]!).queryByTestId("whole-rows")).toBeNull();
    fireEvent.keyDown(boxes()[1]!, { key: "w" });
    await waitFor(() => expect(within(boxes()[1]!).queryByTestId("whole-rows")).toBeNull());
    // With a modifier it is not the shortcut.
    fireEvent.keyDown(boxes()[1]!, { key: "w", ctrlKey: true });
    expect(within(boxes()[1]!).queryByTestId("whole-rows")).toBeNull();
  });

  it("keeps the run where it is when a box far down is shown whole", async () => {
    const source = fakeSource(Array.from({ length: 100 }, (_, i) => stat(`VEH#V-${String(i).padStart(3, "0")}`, 41, 4000)));
    renderHarness({ source });
    await waitFor(() => expect(boxes().length).toBeGreaterThan(0));
    const run = screen.getByTestId("collections-run");
    act(() => {
      run.scrollTop = 50 * 200;
      fireEvent.scroll(run);
    });
    await waitFor(() => expect(Number(boxes()[0]!.getAttribute("aria-posinset"))).toBeGreaterThan(30));
    const key = boxes()[0]!.getAttribute("data-key")!;
    const at = run.scrollTop;
    fireEvent.keyDown(boxes()[0]!, { key: "w" });
    const box = () => boxes().find((b) => b.getAttribute("data-key") === key);
    await waitFor(() => expect(box() && within(box()!).queryByTestId("whole-rows")).not.toBeNull());
    // The box's own rows scroll in the run's scroll: they must not move it (to the top, say).
    expect(run.scrollTop).toBe(at);
    await waitFor(() => expect(within(box()!).getByTestId("whole-status").textContent).toBe("All 41 items read."));
    expect(run.scrollTop).toBe(at);
  });

  it("gives a box's rows its columns from the box's grid, so no row carries a style of its own", async () => {
    // (A style per row made WebKit keep a computed style, grid tracks and all, for every row
    // drawn: ~15–30 MB more in the web process as a long scroll ended. bench/app/views.md.)
    renderHarness({ source: fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 41, 4000)]) });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(5));
    const grid = box.querySelector<HTMLElement>(".run-box-grid")!;
    expect(grid.style.getPropertyValue("--grid-columns")).toMatch(/^\d+em repeat\(3, minmax\(5\.5rem, 1fr\)\)$/);
    for (const row of within(box).getAllByTestId("box-row")) expect(row.getAttribute("style")).toBeNull();
    expect(box.querySelector(".grid-head")!.getAttribute("style")).toBeNull();
  });

  it("draws a box shown whole as rows one after another in one moved element, none with a style of its own", async () => {
    // A lone collection is shown whole.
    renderHarness({ source: fakeSource([stat("VEH#V-7741", 41, 4000)]) });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getByTestId("whole-status").textContent).toBe("All 41 items read."));
    const whole = within(box).getByTestId("whole-rows");
    expect(whole.style.getPropertyValue("--grid-columns")).toMatch(/repeat\(3, minmax\(5\.5rem, 1fr\)\)$/);
    expect(whole.querySelector<HTMLElement>(".whole-window")!.style.transform).toBe("translateY(0px)");
    const rows = within(box).getAllByTestId("box-row");
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) expect(row.getAttribute("style")).toBeNull();
  });

  it("lets the keyboard into the cards beside the run, which scroll when they outgrow the view", async () => {
    renderHarness({ source: fakeSource([stat("VEH#V-7741", 41, 4000)]), aside: <p>This read</p> });
    const aside = await screen.findByRole("region", { name: "Figures of the last read" });
    expect(aside.tabIndex).toBe(0);
    expect(aside.textContent).toBe("This read");
  });

  it("copies the focused row's item with Mod+C", async () => {
    const onCopyItem = vi.fn();
    renderHarness({ source: fakeSource([stat("VEH#V-7741", 41, 4000)]), onCopyItem });
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(5));
    const rows = within(box).getAllByTestId("box-row");
    fireEvent.keyDown(rows[2]!, { key: "c", ctrlKey: true });
    expect(onCopyItem).toHaveBeenCalledTimes(1);
    expect(onCopyItem.mock.calls[0]![0]).toMatchObject({ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:01:00Z" } });
    // A plain "c" is not a copy.
    fireEvent.keyDown(rows[2]!, { key: "c" });
    expect(onCopyItem).toHaveBeenCalledTimes(1);
  });

  it("keeps only the boxes in sight in the DOM, and lists and reads only those, for 10,000 collections", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => stat(`VEH#V-${String(i).padStart(5, "0")}`, 36, 3400));
    const source = fakeSource(many);
    const started = performance.now();
    renderHarness({ source });
    await waitFor(() => expect(boxes().length).toBeGreaterThan(0));
    // Generous: a loaded 2-core machine; the real-window figure is for bench/app.
    expect(performance.now() - started).toBeLessThan(5000);
    // 600 px / 200 px = 3 boxes in sight, plus the overscan of 3 after them.
    expect(boxes().length).toBeLessThanOrEqual(8);
    expect(boxes()[0]!.getAttribute("data-key")).toBe("VEH#V-00000");
    await waitFor(() => expect(source.collectionPage.mock.calls.length).toBe(boxes().length));
    const run = screen.getByTestId("collections-run");
    act(() => {
      run.scrollTop = 5_000 * 200;
      fireEvent.scroll(run);
    });
    // Boxes not drawn yet count at their estimated height, so the run lands a little before the 5,000th.
    await waitFor(() => expect(Number(boxes()[0]!.getAttribute("aria-posinset"))).toBeGreaterThan(3000));
    expect(boxes().map((b) => b.getAttribute("data-key"))).not.toContain("VEH#V-00000");
    expect(boxes().length).toBeLessThanOrEqual(10);
    // Read as they came into sight, never all 10,000.
    const inSight = boxes()[0]!.getAttribute("data-key");
    await waitFor(() => expect(source.collectionPage.mock.calls.some((c) => "S" in (c[1] as QueryInput).partitionValue && (c[1] as QueryInput).partitionValue.S === inSight)).toBe(true));
    expect(source.collectionPage.mock.calls.length).toBeLessThan(30);
    // Listed a page at a time around what was in sight: the first page, then the one scrolled to.
    expect(source.collectionRange.mock.calls.length).toBeLessThanOrEqual(4);
    expect(source.collectionRange.mock.calls.every((c) => c[4] === 50)).toBe(true);
  });

  it("says why a table without a sort key has no collections, one item per key", async () => {
    const run = [
      { partitionValue: { N: "9" }, itemCount: 1, sizeBytes: 40, limitedSizeBytes: null },
      { partitionValue: { N: "10" }, itemCount: 1, sizeBytes: 40, limitedSizeBytes: null },
    ];
    const source = withRun(run, async (_p: string, input: QueryInput) => ({
      status: "ok" as const,
      data: {
        items: [{ PersonID: input.partitionValue, Name: { S: "Ada" } }],
        count: 1,
        scannedCount: 1,
        lastEvaluatedKey: null,
        consumedCapacity: null,
        stop: "end" as const,
      },
    }));
    renderHarness({ table: people, source });
    expect(screen.getByTestId("collections-simple-key").textContent).toContain("People has no sort key");
    await waitFor(() => expect(boxes()).toHaveLength(2));
    expect(boxes().map((b) => b.getAttribute("data-key"))).toEqual(["9", "10"]);
    await waitFor(() => expect(within(boxes()[0]!).getAllByTestId("box-row")).toHaveLength(1));
    expect(within(boxes()[0]!).queryByTestId("box-more")).toBeNull();
  });

  it("says when the table is empty, and when the run cannot be listed", async () => {
    renderHarness({ source: fakeSource([]) });
    expect((await screen.findByTestId("collections-empty")).textContent).toContain("Telemetry has no items yet");
    cleanup();
    const failing = fakeSource([stat("VEH#V-1", 3, 300)]);
    failing.collectionRange.mockImplementation(async () => ({
      status: "error" as const,
      error: { code: "NOT_FOUND" as const, message: "No statistics of Telemetry yet.", exception: null },
    }));
    renderHarness({ source: failing });
    expect((await screen.findByTestId("collections-list-error")).textContent).toContain("No statistics of Telemetry yet.");
    // Once the statistics are there, Try again lists the run.
    failing.collectionRange.mockReset();
    failing.collectionRange.mockImplementation(fakeSource([stat("VEH#V-1", 3, 300)]).collectionRange);
    fireEvent.click(screen.getByTestId("collections-list-retry"));
    await waitFor(() => expect(boxes()).toHaveLength(1));
    expect(screen.queryByTestId("collections-list-error")).toBeNull();
  });

  it("shows a box's read error inside it, and reads it again on request", async () => {
    let fail = true;
    const source = withRun([stat("VEH#V-7741", 41, 4000)], async (_p: string, input: QueryInput) => {
      if (fail) {
        fail = false;
        return { status: "error" as const, error: { code: "THROTTLED" as const, message: "Rate exceeded", exception: "ProvisionedThroughputExceededException" } };
      }
      return readingsQuery("embedded", input);
    });
    renderHarness({ source });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Rate exceeded");
    expect(alert.textContent).toContain("ProvisionedThroughputExceededException");
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.getAllByTestId("box-row")).toHaveLength(5));
  });

  it("keeps the room a box's first rows will take while it reads them (its rows and its more line)", async () => {
    // VEH#V-7741 (41 items) will draw 5 rows (rowsPerBox) and a "more" line; VEH#V-7742 (2 items) two rows.
    const source = withRun([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 2, 200)], () => new Promise(() => {}));
    renderHarness({ source });
    const loading = await screen.findAllByTestId("box-loading");
    expect(loading.map((line) => line.style.minHeight)).toEqual([`${GRID_ROW + 5 * GRID_ROW + 25}px`, `${GRID_ROW + 2 * GRID_ROW}px`]);
  });

  it("brings a box asked for from the map into view and marks it, though it was not listed yet", async () => {
    const many = Array.from({ length: 200 }, (_, i) => stat(`VEH#V-${String(i).padStart(3, "0")}`, 36, 3400));
    const source = fakeSource(many);
    const { rerender } = renderHarness({ source });
    await waitFor(() => expect(boxes().length).toBeGreaterThan(0));
    rerender(
      <CapacityProvider>
        <Harness reveal={{ value: { S: "VEH#V-150" }, n: 1 }} />
      </CapacityProvider>,
    );
    await waitFor(() => expect(boxes().map((b) => b.getAttribute("data-key"))).toContain("VEH#V-150"));
    const marked = boxes().find((b) => b.getAttribute("data-key") === "VEH#V-150")!;
    expect(marked.className).toContain("run-box-marked");
    // Its place came from the backend: the box was on a page not listed yet.
    expect(source.collectionPosition).toHaveBeenCalledWith("embedded", "Telemetry", null, { S: "VEH#V-150" });
  });

  it("brings a box clicked on the map into the window too, focused and marked for a moment, when the run is below it", async () => {
    // The panel the view scrolls in: where the map above the run fills it, the run is out of the window.
    const scrolledIntoView: Element[] = [];
    Object.defineProperty(HTMLElement.prototype, "scrollIntoView", {
      configurable: true,
      value(this: HTMLElement) {
        scrolledIntoView.push(this);
      },
    });
    try {
      const many = Array.from({ length: 200 }, (_, i) => stat(`VEH#V-${String(i).padStart(3, "0")}`, 36, 3400));
      const { rerender } = renderHarness({ source: fakeSource(many) });
      await waitFor(() => expect(boxes().length).toBeGreaterThan(0));
      rerender(
        <CapacityProvider>
          <Harness reveal={{ value: { S: "VEH#V-150" }, n: 1 }} />
        </CapacityProvider>,
      );
      await waitFor(() => expect(document.activeElement?.getAttribute("data-key")).toBe("VEH#V-150"), { timeout: 3000 });
      const box = document.activeElement as HTMLElement;
      // The run's own scroll holds the box; the run is brought into the window's sight.
      expect(scrolledIntoView).toContain(screen.getByTestId("collections-run"));
      expect(box.className).toContain("run-box-flash");
      // For a moment: the mark that catches the eye goes; the box stays marked as the one asked for.
      await waitFor(() => expect(box.className).not.toContain("run-box-flash"), { timeout: FLASH_MS + 2000 });
      expect(box.className).toContain("run-box-marked");
    } finally {
      delete (HTMLElement.prototype as unknown as Record<string, unknown>).scrollIntoView;
    }
  });

  it("says so when the key asked for holds no collection, rather than only fading every box", async () => {
    const source = fakeSource([stat("VEH#V-7741", 41, 4000), stat("VEH#V-7742", 2, 200)]);
    const { rerender } = renderHarness({ source });
    await waitFor(() => expect(boxes().length).toBe(2));
    expect(screen.queryByTestId("collections-not-found")).toBeNull();
    rerender(
      <CapacityProvider>
        <Harness reveal={{ value: { S: "VEH#V-0000" }, n: 1 }} />
      </CapacityProvider>,
    );
    const note = await screen.findByTestId("collections-not-found");
    expect(note.textContent).toBe("No collection vehicleId = VEH#V-0000: no item of Telemetry has this key, so a Query for it returns nothing.");
    // A key that is there takes the note away.
    rerender(
      <CapacityProvider>
        <Harness reveal={{ value: { S: "VEH#V-7742" }, n: 2 }} />
      </CapacityProvider>,
    );
    await waitFor(() => expect(screen.queryByTestId("collections-not-found")).toBeNull());
  });

  it("regroups the same items by a GSI: its own collections, sparse items absent, projected columns marked", async () => {
    const fleet: TableDescription = {
      ...telemetry,
      itemCount: 5,
      indexes: [
        {
          name: "ByDepot",
          kind: "global",
          keys: { partitionKey: { name: "depotId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
          projection: { type: "INCLUDE", attributes: ["speedKph"] },
          itemCount: 2,
          sizeBytes: 200,
          status: "ACTIVE",
          backfilling: null,
        },
      ],
    };
    const tableRun = [stat("VEH#V-100", 2, 200), stat("VEH#V-7741", 3, 300)];
    const depotRun = [{ partitionValue: { S: "DEPOT#7" }, itemCount: 2, sizeBytes: 200, limitedSizeBytes: null }];
    const source = {
      collectionPage: vi.fn(async (_p: string, input: QueryInput) => {
        const items: Item[] =
          input.index === "ByDepot"
            ? [
                { depotId: { S: "DEPOT#7" }, recordedAt: { S: "TS#1" }, vehicleId: { S: "VEH#V-100" }, speedKph: { N: "40" } },
                { depotId: { S: "DEPOT#7" }, recordedAt: { S: "TS#2" }, vehicleId: { S: "VEH#V-7741" }, speedKph: { N: "41" } },
              ]
            : itemsOf("S" in input.partitionValue ? input.partitionValue.S : "", 2);
        return { status: "ok" as const, data: { items, count: items.length, scannedCount: items.length, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" as const } };
      }),
      collectionRange: vi.fn(async (_p: string, table: string, index: string | null, offset: number, limit: number) => {
        const run = index === "ByDepot" ? depotRun : tableRun;
        return { status: "ok" as const, data: { table, index, offset, total: run.length, collections: run.slice(offset, offset + limit) } };
      }),
      collectionPosition: vi.fn(async () => ({ status: "ok" as const, data: null })),
    } as unknown as Source;
    renderHarness({ table: fleet, source });
    await waitFor(() => expect(boxes()).toHaveLength(2));
    expect(screen.queryByTestId("collections-index-note")).toBeNull();
    fireEvent.change(screen.getByTestId("collections-group-by"), { target: { value: "ByDepot" } });
    await waitFor(() => expect(boxes()).toHaveLength(1));
    expect(source.collectionRange).toHaveBeenLastCalledWith("embedded", "Telemetry", "ByDepot", 0, 50);
    const box = boxes()[0]!;
    expect(within(box).getByRole("heading").textContent).toBe("depotId = DEPOT#7");
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(2));
    expect(source.collectionPage).toHaveBeenLastCalledWith("embedded", expect.objectContaining({ index: "ByDepot", partitionValue: { S: "DEPOT#7" } }));
    // The table's key is in every index entry; speedKph is there because INCLUDE names it.
    const headers = within(box).getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent)).toEqual(["recordedAt", "vehicleIdtable key", "speedKphprojected"]);
    expect(headers[2]!.getAttribute("title")).toContain("ByDepot projects speedKph (INCLUDE)");
    const note = screen.getByTestId("collections-index-note").textContent!;
    expect(note).toContain("re-collected by the global secondary index ByDepot");
    // recordedAt is the table's own sort key, which every item has: only depotId leaves items out.
    expect(note).toContain("Items without depotId are not in it (a sparse index)");
    expect(screen.getByTestId("collections-summary").textContent).toContain("1 collection in key order of depotId · 2 items · in ByDepot");
    // And back to the table.
    fireEvent.change(screen.getByTestId("collections-group-by"), { target: { value: "" } });
    await waitFor(() => expect(boxes().map((b) => b.getAttribute("data-key"))).toEqual(["VEH#V-100", "VEH#V-7741"]));
  });

  it("says when an index holds nothing yet", async () => {
    const withIndex: TableDescription = {
      ...telemetry,
      indexes: [
        {
          name: "ByDepot",
          kind: "global",
          keys: { partitionKey: { name: "depotId", type: "S" }, sortKey: null },
          projection: { type: "KEYS_ONLY", attributes: [] },
          itemCount: 0,
          sizeBytes: 0,
          status: "ACTIVE",
          backfilling: null,
        },
      ],
    };
    const source = fakeSource([]);
    renderWithCommands(
      <CapacityProvider>
        <Harness table={withIndex} initialIndex="ByDepot" />
      </CapacityProvider>,
      source,
    );
    expect((await screen.findByTestId("collections-empty")).textContent).toContain("No item of Telemetry has ByDepot's keys (depotId (S))");
    expect(screen.getByTestId("collections-index-note").textContent).toContain("Projection: Keys only (KEYS_ONLY).");
  });
  it("marks projected columns only where an index picks its attributes: nothing to mark under ALL", () => {
    const table = {
      name: "Telemetry",
      keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
    } as TableDescription;
    const index = (projection: { type: "ALL" | "KEYS_ONLY" | "INCLUDE"; attributes: string[] }) =>
      ({ name: "ByDepot", kind: "global", keys: { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } }, projection }) as TableDescription["indexes"][number];
    const all = columnMarks(table, index({ type: "ALL", attributes: [] }));
    expect(all("vehicleId")?.label).toBe("table key");
    expect(all("speedKph")).toBeNull();
    const include = columnMarks(table, index({ type: "INCLUDE", attributes: ["speedKph"] }));
    expect(include("speedKph")?.label).toBe("projected");
    expect(include("depotCode")).toBeNull();
    expect(columnMarks(table, index({ type: "KEYS_ONLY", attributes: [] }))("depotCode")).toBeNull();
  });
});
