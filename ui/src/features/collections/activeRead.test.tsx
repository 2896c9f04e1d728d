import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { CollectionsView } from "./CollectionsView";
import { collectionKey } from "../../shared/collectionValue";
import type { BoxState, Collections } from "./useCollections";
import { scanReturns, type ActiveRead } from "./activeRead";
import type { QueryPage, TableDescription } from "../../ipc/bindings.gen";

// jsdom lays nothing out: a 600 px run, every box 200 px.
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
});
afterAll(() => {
  for (const name of ["clientHeight", "offsetHeight"]) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
});
afterEach(cleanup);

const table: TableDescription = {
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

const values = ["VEH#V-1007", "VEH#V-7741", "VEH#V-9001"];
const reading = (vehicle: string, minute: number) => ({
  vehicleId: { S: vehicle },
  recordedAt: { S: `TS#2025-03-14T09:0${minute}:00Z` },
  speedKph: { N: String(40 + minute) },
});

function data(): Collections {
  const boxes = new Map<string, BoxState>(
    values.map((v) => [collectionKey({ S: v }), { status: "ok", items: [reading(v, 0)], more: true, consumedUnits: 0.5 }]),
  );
  const run = values.map((v) => ({ partitionValue: { S: v }, itemCount: 30, sizeBytes: 3000, limitedSizeBytes: null, key: collectionKey({ S: v }) }));
  return {
    index: null,
    total: run.length,
    at: (position: number) => run[position],
    listError: null,
    spent: { queries: 0, units: 0 },
    boxes,
    want: () => {},
    retry: () => {},
    readOn: () => {},
    locate: async (value) => run.findIndex((c) => c.key === collectionKey(value)),
  };
}

const pages: QueryPage[] = [
  {
    items: [reading("VEH#V-7741", 9), reading("VEH#V-7741", 8)],
    count: 2,
    scannedCount: 5,
    lastEvaluatedKey: { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:05:00Z" } },
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: "limit",
  },
  { items: [reading("VEH#V-7741", 4)], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: { total: 0.5, table: 0.5, indexes: [] }, stop: "end" },
];

const boxOf = (value: string) => screen.getAllByTestId("collection-run-box").find((b) => b.getAttribute("data-key") === value)!;

describe("the active read in the Collections view", () => {
  it("highlights the one box a Query reads, fades the others, and draws its page cuts and dropped items inside it", () => {
    const active: ActiveRead = { kind: "query", key: collectionKey({ S: "VEH#V-7741" }), pages, loading: false, dropped: new Map(), showDropped: null };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(boxOf("VEH#V-7741").getAttribute("data-read")).toBe("read");
    expect(boxOf("VEH#V-7741").className).toContain("run-box-read");
    expect(boxOf("VEH#V-1007").getAttribute("data-read")).toBe("faded");
    expect(boxOf("VEH#V-9001").getAttribute("data-read")).toBe("faded");
    const box = within(boxOf("VEH#V-7741"));
    // The Query's own rows, not the box's first-items read.
    expect(box.getAllByTestId("box-row").map((r) => r.textContent?.slice(0, 23))).toEqual([
      "TS#2025-03-14T09:09:00Z",
      "TS#2025-03-14T09:08:00Z",
      "TS#2025-03-14T09:04:00Z",
    ]);
    const cuts = box.getAllByTestId("box-cut").map((c) => c.textContent);
    expect(cuts[0]).toBe(
      "Page 1 · 2 returned of 5 read · Limit reached · 0.5 RCU · LastEvaluatedKey vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:05:00Z",
    );
    expect(cuts[1]).toBe("Page 2 · 1 returned of 1 read · end of the key range · 0.5 RCU");
    expect(box.getByTestId("box-dropped").textContent).toBe(
      "3 items read but not returned: the filter dropped them after the read — this page's 0.5 RCU paid for all 5 read.",
    );
    // The faded boxes keep their own rows.
    expect(within(boxOf("VEH#V-1007")).queryByTestId("box-cut")).toBeNull();
  });

  it("dims the marks and says so once the query bar has changed since the read", () => {
    const active: ActiveRead = { kind: "query", key: collectionKey({ S: "VEH#V-7741" }), pages, loading: false, dropped: new Map(), showDropped: null };
    const { rerender } = render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(screen.queryByTestId("collections-stale-read")).toBeNull();
    rerender(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={{ ...active, stale: true }} />);
    expect(screen.getByTestId("collections-stale-read").textContent).toBe("The marked boxes show the previous request: Run the query bar to read the new one.");
    expect(screen.getByRole("region", { name: /Collections of/ }).getAttribute("data-stale-read")).toBe("true");
    // Still drawn where it was read.
    expect(boxOf("VEH#V-7741").getAttribute("data-read")).toBe("read");
  });

  it("draws the items the filter dropped, once read back, struck through in their places among the returned ones", () => {
    const rows = [9, 8, 7, 6, 5].map((minute) => ({ item: reading("VEH#V-7741", minute), dropped: minute < 8 }));
    const active: ActiveRead = {
      kind: "query",
      key: collectionKey({ S: "VEH#V-7741" }),
      pages,
      loading: false,
      dropped: new Map([[0, { status: "ok", rows }]]),
      showDropped: null,
    };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    const box = within(boxOf("VEH#V-7741"));
    const drawn = [...boxOf("VEH#V-7741").querySelectorAll<HTMLElement>('[data-testid="box-row"], [data-testid="box-row-dropped"]')];
    expect(drawn.map((r) => [r.dataset.testid, r.textContent?.slice(0, 23)])).toEqual([
      ["box-row", "TS#2025-03-14T09:09:00Z"],
      ["box-row", "TS#2025-03-14T09:08:00Z"],
      ["box-row-dropped", "Dropped by the filter: "],
      ["box-row-dropped", "Dropped by the filter: "],
      ["box-row-dropped", "Dropped by the filter: "],
      ["box-row", "TS#2025-03-14T09:04:00Z"],
    ]);
    expect(box.getAllByTestId("box-row-dropped").map((r) => r.querySelector('[role="rowheader"]')?.textContent)).toEqual([
      "Dropped by the filter: TS#2025-03-14T09:07:00Z",
      "Dropped by the filter: TS#2025-03-14T09:06:00Z",
      "Dropped by the filter: TS#2025-03-14T09:05:00Z",
    ]);
    expect(box.getByTestId("box-dropped").textContent).toBe(
      "3 items read but not returned: the filter dropped them after the read — this page's 0.5 RCU paid for all 5 read. They are drawn struck through among the returned items.",
    );
  });

  it("offers to read the dropped items back where that costs (AWS), with what it costs", () => {
    const asked: number[] = [];
    const active: ActiveRead = {
      kind: "query",
      key: collectionKey({ S: "VEH#V-7741" }),
      pages,
      loading: false,
      dropped: new Map(),
      showDropped: (n) => asked.push(n),
    };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    const button = within(boxOf("VEH#V-7741")).getByTestId("box-show-dropped");
    expect(button.textContent).toBe("Show them (reads the page again without the filter: 0.5 RCU)");
    button.click();
    expect(asked).toEqual([0]);
  });

  it("draws only the rows in sight of a 1 MB page of thousands of items, and the page's cut after the last", () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      vehicleId: { S: "VEH#V-7741" },
      recordedAt: { S: `TS#${String(i).padStart(5, "0")}` },
    }));
    const big: QueryPage = { items, count: 5000, scannedCount: 5000, lastEvaluatedKey: null, consumedCapacity: { total: 31.5, table: 31.5, indexes: [] }, stop: "size" };
    const active: ActiveRead = { kind: "query", key: collectionKey({ S: "VEH#V-7741" }), pages: [big], loading: false, dropped: new Map(), showDropped: null };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    const box = boxOf("VEH#V-7741");
    const rows = box.querySelector('[data-testid="read-rows"]')!;
    // Every line is counted (5,000 rows and the cut), few are in the document.
    expect(rows.getAttribute("aria-rowcount")).toBe("5001");
    const drawn = within(box).getAllByTestId("box-row");
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.length).toBeLessThan(100);
    expect(drawn[0]!.textContent).toBe("TS#00000");
    // The rows in sight follow one another in one element moved to the first one's place: no row
    // carries a style (a place, a template) of its own.
    for (const row of drawn) expect(row.getAttribute("style")).toBeNull();
    expect((rows.querySelector(".whole-window") as HTMLElement).style.transform).toBe("translateY(0px)");
    expect((rows as HTMLElement).style.getPropertyValue("--grid-columns")).toContain("repeat(1, minmax(5.5rem, 1fr))");
    // The rows take their full height in the run: the box is as tall as 5,000 rows.
    const height = parseFloat((rows.querySelector(".whole-rows") as HTMLElement).style.height);
    expect(height).toBeGreaterThanOrEqual(5000 * 27);
  });

  it("marks the boxes a running Scan returned items from, and leaves the others unmarked, not faded", () => {
    // A box it returned nothing from may be one it read and filtered out, or one it has not
    // reached: neither is drawn as unread.
    const active: ActiveRead = { kind: "scan", returned: new Map([[collectionKey({ S: "VEH#V-9001" }), { value: { S: "VEH#V-9001" }, items: 12 }]]), completed: false, attributed: true };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(boxOf("VEH#V-9001").getAttribute("data-read")).toBe("walked");
    expect(within(boxOf("VEH#V-9001")).getByTestId("box-walked-note").textContent).toBe("The scan returned 12 items from here.");
    expect(boxOf("VEH#V-1007").getAttribute("data-read")).toBeNull();
    expect(within(boxOf("VEH#V-1007")).queryByTestId("box-walked-note")).toBeNull();
  });

  it("marks every box read once a filtered Scan has read the whole table, those it returned nothing from too", () => {
    const active: ActiveRead = { kind: "scan", returned: new Map([[collectionKey({ S: "VEH#V-9001" }), { value: { S: "VEH#V-9001" }, items: 1 }]]), completed: true, attributed: true };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(within(boxOf("VEH#V-9001")).getByTestId("box-walked-note").textContent).toBe("The scan returned 1 item from here.");
    expect(boxOf("VEH#V-1007").getAttribute("data-read")).toBe("walked");
    expect(within(boxOf("VEH#V-1007")).getByTestId("box-walked-note").textContent).toBe("The scan read this collection; its filter returned none of it.");
  });

  it("in a box a filtered Scan walked, marks the rows its filter dropped and says which rows it returned", () => {
    // The box's rows are its own Query's, read without the filter: four of VEH#V-9001, of which the
    // scan returned the second and the fourth; of VEH#V-1007, none.
    const boxRows = [0, 1, 2, 3].map((m) => reading("VEH#V-9001", m));
    const walked = data();
    (walked.boxes as Map<string, BoxState>).set(collectionKey({ S: "VEH#V-9001" }), { status: "ok", items: boxRows, more: true, consumedUnits: 0.5 });
    const scanPages: QueryPage[] = [
      { items: [boxRows[1]!, boxRows[3]!], count: 2, scannedCount: 120, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" },
    ];
    const active: ActiveRead = {
      kind: "scan",
      returned: new Map([[collectionKey({ S: "VEH#V-9001" }), { value: { S: "VEH#V-9001" }, items: 2 }]]),
      completed: true,
      attributed: true,
      filtered: true,
      returns: scanReturns(scanPages, ["vehicleId", "recordedAt"], 0),
    };
    render(<CollectionsView table={table} data={walked} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    const box = boxOf("VEH#V-9001");
    const rows = within(box).getAllByTestId("box-row");
    expect(rows.map((r) => r.getAttribute("data-dropped") === "true")).toEqual([true, false, true, false]);
    expect(rows.map((r) => r.classList.contains("run-box-row-dropped"))).toEqual([true, false, true, false]);
    expect(rows[0]!.getAttribute("title")).toMatch(/dropped by its filter/);
    expect(within(rows[0]!).getByRole("rowheader").textContent).toContain("Dropped by the filter: ");
    expect(within(box).getByTestId("box-walked-note").textContent).toBe("The scan returned 2 items from here.");
    expect(within(box).getByTestId("box-walked-rows").textContent).toBe(
      "The rows here are this box's own, read without the scan's filter: of these 4 rows, the scan returned 2; its filter dropped 2, struck through — read and paid for, not returned.",
    );
    // A box the filter returned nothing from: its row is dropped, its note as before.
    const none = boxOf("VEH#V-1007");
    expect(within(none).getByTestId("box-walked-note").textContent).toBe("The scan read this collection; its filter returned none of it.");
    expect(within(none).getByTestId("box-row").getAttribute("data-dropped")).toBe("true");
    expect(within(none).getByTestId("box-walked-rows").textContent).toContain("the scan's filter dropped it, struck through");
  });

  it("while a filtered Scan runs, marks no row dropped and says where the box's rows come from", () => {
    const active: ActiveRead = {
      kind: "scan",
      returned: new Map([[collectionKey({ S: "VEH#V-9001" }), { value: { S: "VEH#V-9001" }, items: 12 }]]),
      completed: false,
      attributed: true,
      filtered: true,
      returns: null,
    };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    const box = boxOf("VEH#V-9001");
    expect(within(box).getByTestId("box-row").getAttribute("data-dropped")).toBeNull();
    expect(within(box).getByTestId("box-walked-rows").textContent).toBe(
      "The rows here are this box's own, read without the scan's filter: which of them the scan returned and which its filter dropped is marked once a scan has read the whole table.",
    );
  });

  it("says nothing of dropped rows for a Scan without a filter", () => {
    const active: ActiveRead = { kind: "scan", returned: new Map(), completed: true, attributed: true, filtered: false, returns: null };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(screen.queryByTestId("box-walked-rows")).toBeNull();
    expect(screen.getAllByTestId("box-row").every((r) => r.getAttribute("data-dropped") === null)).toBe(true);
  });

  it("knows which items a Scan returned only from every item it returned, each with its table key", () => {
    const page = (items: QueryPage["items"]): QueryPage => ({ items, count: items.length, scannedCount: 9, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" });
    const keys = ["vehicleId", "recordedAt"];
    const all = scanReturns([page([reading("VEH#V-1", 1)]), page([reading("VEH#V-2", 2)])], keys, 0);
    expect(all?.keys.size).toBe(2);
    // Items returned but not kept in the pages, or an item without its sort key: no claim.
    expect(scanReturns([page([reading("VEH#V-1", 1)])], keys, 3)).toBeNull();
    expect(scanReturns([page([{ vehicleId: { S: "VEH#V-1" } }])], keys, 0)).toBeNull();
  });

  it("claims no counts by box when the Scan's projection left out the partition key", () => {
    const active: ActiveRead = { kind: "scan", returned: new Map(), completed: true, attributed: false };
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} activeRead={active} />);
    expect(screen.getAllByTestId("box-walked-note").every((n) => n.textContent === "The scan read this collection.")).toBe(true);
  });

  it("draws no read marks without an active read", () => {
    render(<CollectionsView table={table} data={data()} onOpen={() => {}} rowsPerBox={20} />);
    expect(screen.getAllByTestId("collection-run-box").every((b) => b.getAttribute("data-read") === null)).toBe(true);
  });
});
