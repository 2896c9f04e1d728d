/**
 * A map or list value opened in a row of the Collections view: its keys are its own (the box's
 * row keys do not act on them too), and in a box shown whole (virtualised rows of one height) the
 * row holding it is measured again, so its lines push the rows after it down instead of being
 * drawn over them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { CollectionsView } from "./CollectionsView";
import { useCollections, type CollectionsSource } from "./useCollections";
import { GRID_ROW } from "./RowGrid";
import { renderWithCommands } from "../../ipc/testCommands";
import { CapacityProvider } from "../../app/capacity";
import type { Item } from "../../shared/attributeValue";
import type { CollectionStat, QueryInput, QueryPage, TableDescription } from "../../ipc/bindings.gen";

/** An opened list's lines (one a value) add this much to its row, as a browser would lay it out. */
const LINE = 18;

// jsdom lays nothing out: the run has a 600 px viewport, a box slot its 200 px, and a row of a box
// its one height, or more by the lines of a value opened in it.
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
      if (this.classList.contains("collections-slot")) return 200;
      if (!this.classList.contains("grid-row")) return 0;
      const open = this.querySelectorAll('.tv-toggle[aria-expanded="true"] + .tv-entries > .tv-entry').length;
      return GRID_ROW + open * LINE;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "scrollHeight", {
    configurable: true,
    get(this: HTMLElement) {
      const inner = this.querySelector<HTMLElement>(":scope > .collections-run-inner");
      return inner ? parseFloat(inner.style.height || "0") : 0;
    },
  });
});
afterAll(() => {
  for (const name of ["clientHeight", "offsetHeight", "scrollHeight"]) {
    delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
  }
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

/** Readings with a list of four values each (the "list, 4 elements" of the review). */
const items: Item[] = Array.from({ length: 12 }, (_, i) => ({
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: `TS#${String(i).padStart(2, "0")}` },
  tyres: { L: [{ N: "2.1" }, { N: "2.2" }, { N: "2.3" }, { N: "2.4" }] },
}));

function source(collections: CollectionStat[]): CollectionsSource {
  return {
    collectionPage: vi.fn(async (_profile: string, input: QueryInput) => {
      // From the item after ExclusiveStartKey, as DynamoDB pages.
      const start = input.exclusiveStartKey?.recordedAt;
      const after = start === undefined ? 0 : items.findIndex((i) => JSON.stringify(i.recordedAt) === JSON.stringify(start)) + 1;
      const read = items.slice(after, after + (input.limit ?? 100));
      const more = after + read.length < items.length;
      const page: QueryPage = {
        items: read,
        count: read.length,
        scannedCount: read.length,
        lastEvaluatedKey: more ? { vehicleId: { S: "VEH#V-7741" }, recordedAt: read.at(-1)!.recordedAt! } : null,
        consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
        stop: more ? "limit" : "end",
      };
      return { status: "ok" as const, data: page };
    }),
    collectionRange: vi.fn(async (_p: string, name: string, index: string | null, offset: number, limit: number) => ({
      status: "ok" as const,
      data: { table: name, index, offset, total: collections.length, collections: collections.slice(offset, offset + limit) },
    })),
    collectionPosition: vi.fn(async () => ({ status: "ok" as const, data: 0 })),
  } as unknown as CollectionsSource;
}

function Harness({ onOpenItem }: { onOpenItem: (item: unknown) => void }) {
  const data = useCollections({ profileId: "embedded", table: table.name, index: null, rowsPerBox: 5, listPage: 50 });
  return <CollectionsView table={table} data={data} onOpen={() => {}} reveal={null} rowsPerBox={5} onOpenItem={onOpenItem} />;
}

const stat = (value: string): CollectionStat => ({ partitionValue: { S: value }, itemCount: items.length, sizeBytes: 4000, limitedSizeBytes: null });

function renderRun(collections: CollectionStat[], onOpenItem = vi.fn()) {
  renderWithCommands(
    <CapacityProvider>
      <Harness onOpenItem={onOpenItem} />
    </CapacityProvider>,
    source(collections),
  );
  return onOpenItem;
}

describe("a map or list value opened in a Collections row", () => {
  it("takes its own keys: ArrowLeft closes it and the focus stays on it, Enter opens it rather than the item", async () => {
    const onOpenItem = renderRun([stat("VEH#V-7741"), stat("VEH#V-7742")]);
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    await waitFor(() => expect(within(box).getAllByTestId("box-row")).toHaveLength(5));
    const toggle = within(within(box).getAllByTestId("box-row")[1]!).getByRole("button", { name: "list, 4 elements" });
    toggle.focus();
    fireEvent.keyDown(toggle, { key: "ArrowRight" });
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(document.activeElement).toBe(toggle);
    // (The box's rows take ArrowLeft and Escape back to the box: not from the value.)
    fireEvent.keyDown(toggle, { key: "ArrowLeft" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(toggle);
    // Enter presses the toggle (its click), not the row's Enter (open the item in the editor).
    const enter = fireEvent.keyDown(toggle, { key: "Enter" });
    expect(enter).toBe(true);
    expect(onOpenItem).not.toHaveBeenCalled();
  });

  it("makes its row taller in a box shown whole, the rows after it moved down by its lines", async () => {
    renderRun([stat("VEH#V-7741")]);
    const box = (await screen.findAllByTestId("collection-run-box"))[0]!;
    const rows = await within(box).findByTestId("whole-rows");
    await waitFor(() => expect(within(box).getAllByTestId("box-row").length).toBeGreaterThanOrEqual(items.length));
    const list = rows.querySelector<HTMLElement>(".whole-rows")!;
    expect(list.style.height).toBe(`${items.length * GRID_ROW}px`);
    const toggle = within(within(box).getAllByTestId("box-row")[2]!).getByRole("button", { name: "list, 4 elements" });
    await act(async () => {
      fireEvent.click(toggle);
    });
    await waitFor(() => expect(list.style.height).toBe(`${items.length * GRID_ROW + 4 * LINE}px`));
    // Closed, the row is its one height again.
    await act(async () => {
      fireEvent.click(toggle);
    });
    await waitFor(() => expect(list.style.height).toBe(`${items.length * GRID_ROW}px`));
  });
});
