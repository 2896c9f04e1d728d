import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { IndexesView } from "./IndexesView";
import type { IndexesSideBySide, TableDescription, ViewSource } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const keys = { partitionKey: { name: "vehicleId", type: "S" as const }, sortKey: { name: "recordedAt", type: "S" as const } };
const depotKeys = { partitionKey: { name: "depotCode", type: "S" as const }, sortKey: { name: "recordedAt", type: "S" as const } };

const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys,
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10,
  sizeBytes: 1000,
  indexes: [{ name: "ByDepot", kind: "global", keys: depotKeys, projection: { type: "ALL", attributes: [] }, itemCount: null, sizeBytes: null, status: null, backfilling: null }],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};

const item = (ts: string, depot: string | null) => ({
  vehicleId: { S: "VEH#1" },
  recordedAt: { S: ts },
  ...(depot === null ? {} : { depotCode: { S: depot } }),
});
const items = [item("TS#1", "DEP-N"), item("TS#2", null), item("TS#3", "DEP-S")];

const layout: IndexesSideBySide = {
  table: "Telemetry",
  // The key map in name order, as the backend sends it.
  items: items.map((it, id) => ({ id, key: { recordedAt: it.recordedAt, vehicleId: it.vehicleId }, item: it, sizeBytes: 60 })),
  columns: [
    {
      index: null,
      kind: null,
      keys,
      projection: null,
      queryReturns: ["depotCode", "recordedAt", "vehicleId"],
      queryNote: "A Query on the table returns every attribute of each item.",
      collections: [
        { partitionValue: { S: "VEH#1" }, entries: items.map((it, id) => ({ itemId: id, sortValue: it.recordedAt, projected: it, sizeBytes: 60 })) },
      ],
      absent: [],
    },
    {
      index: "ByDepot",
      kind: "global",
      keys: depotKeys,
      projection: { type: "ALL", attributes: [] },
      queryReturns: ["depotCode", "recordedAt", "vehicleId"],
      queryNote: "The index projects every attribute.",
      collections: [
        { partitionValue: { S: "DEP-N" }, entries: [{ itemId: 0, sortValue: { S: "TS#1" }, projected: items[0]!, sizeBytes: 60 }] },
        { partitionValue: { S: "DEP-S" }, entries: [{ itemId: 2, sortValue: { S: "TS#3" }, projected: items[2]!, sizeBytes: 60 }] },
      ],
      absent: [{ itemId: 1, missing: ["depotCode"], reason: "No depotCode attribute, so the item has no entry in the sparse index ByDepot" }],
    },
  ],
  placements: [],
  collectionLimits: null,
  readUnits: 0.5,
  truncated: false,
};

function source(overrides: Partial<Commands> = {}) {
  return {
    indexesSideBySide: vi.fn(async () => ({ status: "ok" as const, data: layout })),
    query: vi.fn(async () => ({
      status: "ok" as const,
      data: { items: [items[2]!], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: { total: 0.5, table: 0, indexes: [{ name: "ByDepot", units: 0.5 }] }, stop: "end" as const },
    })),
    ...overrides,
  };
}

describe("IndexesView", () => {
  it("lays the first items out as the table and the sparse GSI hold them, with the reason for an absence", async () => {
    const fake = source();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, fake);
    const gsi = await screen.findByRole("region", { name: "GSI ByDepot" });
    expect(fake.indexesSideBySide).toHaveBeenCalledWith("embedded", "Telemetry", { kind: "scan", limit: 25 });
    expect(within(gsi).getByText(/No depotCode attribute/)).not.toBeNull();
    expect(within(gsi).getByText("Projection:").textContent).toContain("ALL");
    expect(screen.getByTestId("returns-ByDepot").textContent).toContain("depotCode, recordedAt, vehicleId");
    expect(screen.queryByLabelText(/limit/)).toBeNull();
  });

  it("names each index entry's item by its table key, partition-key value first", async () => {
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source());
    const gsi = await screen.findByRole("region", { name: "GSI ByDepot" });
    const bases = [...gsi.querySelectorAll(".side-base")].map((e) => e.textContent);
    expect(bases).toEqual(["VEH#1 · TS#1", "VEH#1 · TS#3"]);
    expect(within(gsi).getByRole("group", { name: /Not in/ }).textContent).toContain("VEH#1 · TS#2");
  });

  it("highlights the selected item in every column, the absent one too", async () => {
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source());
    await screen.findByRole("region", { name: "GSI ByDepot" });
    const inTable = screen.getAllByRole("button").filter((b) => b.getAttribute("data-item") === "1");
    expect(inTable).toHaveLength(2);
    fireEvent.click(inTable[0]!);
    for (const button of screen.getAllByRole("button").filter((b) => b.getAttribute("data-item") === "1")) {
      expect(button.getAttribute("aria-pressed")).toBe("true");
    }
    const other = screen.getAllByRole("button").filter((b) => b.getAttribute("data-item") === "0");
    expect(other.every((b) => b.getAttribute("aria-pressed") === "false")).toBe(true);
    fireEvent.keyDown(inTable[0]!, { key: "Escape" });
    expect(inTable[0]!.getAttribute("aria-pressed")).toBe("false");
  });

  it("makes each column's items one Tab stop, moved along with the arrow keys, Home and End", async () => {
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source());
    const gsi = await screen.findByRole("region", { name: "GSI ByDepot" });
    const table = screen.getByRole("region", { name: "Table" });
    const entries = (column: HTMLElement) => [...column.querySelectorAll<HTMLElement>("button.side-entry")];
    // One item of each column in the Tab order: its first.
    expect(entries(table).map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    expect(entries(gsi).map((b) => b.tabIndex)).toEqual([0, -1, -1]);
    // Down the GSI's items, across its collections and on to those not in it.
    const [north, south, absent] = entries(gsi);
    north!.focus();
    fireEvent.keyDown(north!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(south);
    fireEvent.keyDown(south!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(absent);
    fireEvent.keyDown(absent!, { key: "ArrowDown" });
    expect(document.activeElement).toBe(absent);
    fireEvent.keyDown(absent!, { key: "Home" });
    expect(document.activeElement).toBe(north);
    fireEvent.keyDown(north!, { key: "End" });
    expect(document.activeElement).toBe(absent);
    fireEvent.keyDown(absent!, { key: "ArrowUp" });
    expect(document.activeElement).toBe(south);
    // The item focused last is the column's Tab stop; the other column keeps its own.
    expect(entries(gsi).map((b) => b.tabIndex)).toEqual([-1, 0, -1]);
    expect(entries(table).map((b) => b.tabIndex)).toEqual([0, -1, -1]);
  });

  it("queries one index collection and shows which collection it read", async () => {
    const fake = source();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, fake);
    const depotS = await screen.findByRole("group", { name: "depotCode = DEP-S" });
    fireEvent.click(within(depotS).getByRole("button", { name: "Query" }));
    expect((await within(depotS).findByRole("status")).textContent).toContain("Read by the last query: 1 item, 0.5 RCU");
    expect(fake.query).toHaveBeenCalledWith("embedded", expect.objectContaining({ table: "Telemetry", index: "ByDepot", partitionValue: { S: "DEP-S" } }));
    expect(within(depotS).getByRole("button", { name: /TS#3/ }).className).toContain("side-entry-read");
  });

  it("reads one collection by its typed partition-key value", async () => {
    const fake = source();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, fake);
    await screen.findByRole("region", { name: "GSI ByDepot" });
    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#1" } });
    fireEvent.click(screen.getByRole("button", { name: "Lay out" }));
    await waitFor(() =>
      expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "partition", value: { S: "VEH#1" }, limit: 25 } satisfies ViewSource),
    );
  });

  it("opens on the collection the query bar names, not on a scan, its value in the field", async () => {
    const fake = source();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} bar={{ ran: null, typed: "VEH#1" }} />, fake);
    await screen.findByRole("region", { name: "GSI ByDepot" });
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(1);
    expect(fake.indexesSideBySide).toHaveBeenCalledWith("embedded", "Telemetry", { kind: "partition", value: { S: "VEH#1" }, limit: 25 } satisfies ViewSource);
    expect((screen.getByLabelText("vehicleId value") as HTMLInputElement).value).toBe("VEH#1");
    expect((screen.getByRole("radio", { name: /One collection/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("follows the bar's runs once per value, while shown: not its keystrokes, and the scan picked here stays", async () => {
    const fake = source();
    const view = (bar: { ran: string | null; typed: string | null }, shown = true) => <IndexesView profileId="embedded" table={telemetry} bar={bar} shown={shown} />;
    const { rerender } = renderWithCommands(view({ ran: null, typed: null }), fake);
    await screen.findByRole("region", { name: "GSI ByDepot" });
    expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "scan", limit: 25 });
    // Typing in the bar lays nothing out.
    rerender(view({ ran: null, typed: "VEH" }));
    rerender(view({ ran: null, typed: "VEH#2" }));
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(1);
    // A run while the view is hidden is laid out when it is shown again, once.
    rerender(view({ ran: "VEH#2", typed: "VEH#2" }, false));
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(1);
    rerender(view({ ran: "VEH#2", typed: "VEH#2" }, true));
    await waitFor(() =>
      expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "partition", value: { S: "VEH#2" }, limit: 25 } satisfies ViewSource),
    );
    expect((screen.getByLabelText("vehicleId value") as HTMLInputElement).value).toBe("VEH#2");
    rerender(view({ ran: "VEH#2", typed: "VEH#2" }, false));
    rerender(view({ ran: "VEH#2", typed: "VEH#2" }, true));
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(2);
    // The user picks the scan here: the same run again leaves it; another collection run is laid out.
    fireEvent.click(screen.getByRole("radio", { name: /First items of a scan/ }));
    fireEvent.click(screen.getByRole("button", { name: "Lay out" }));
    await waitFor(() => expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "scan", limit: 25 }));
    rerender(view({ ran: "VEH#2", typed: "VEH#2" }));
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(3);
    rerender(view({ ran: "VEH#1", typed: "VEH#1" }));
    await waitFor(() =>
      expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "partition", value: { S: "VEH#1" }, limit: 25 } satisfies ViewSource),
    );
    expect(fake.indexesSideBySide).toHaveBeenCalledTimes(4);
  });

  it("lets the Items field be emptied while typing, and lays out what was typed", async () => {
    const fake = source();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, fake);
    await screen.findByRole("region", { name: "GSI ByDepot" });
    const items = screen.getByRole("spinbutton") as HTMLInputElement;
    fireEvent.change(items, { target: { value: "" } });
    expect(items.value).toBe("");
    fireEvent.change(items, { target: { value: "7" } });
    fireEvent.click(screen.getByRole("button", { name: "Lay out" }));
    await waitFor(() => expect(fake.indexesSideBySide).toHaveBeenLastCalledWith("embedded", "Telemetry", { kind: "scan", limit: 7 }));
  });

  it("shows only the last layout asked for when an earlier one answers later", async () => {
    let answerFirst: (() => void) | null = null;
    const second: IndexesSideBySide = { ...layout, readUnits: 2 };
    const fake = source({
      indexesSideBySide: vi
        .fn()
        .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = () => resolve({ status: "ok" as const, data: layout }))))
        .mockImplementationOnce(async () => ({ status: "ok" as const, data: second })),
    });
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Lay out" }));
    await waitFor(() => expect(fake.indexesSideBySide).toHaveBeenCalledTimes(2));
    await screen.findByRole("region", { name: "GSI ByDepot" });
    const shown = document.querySelector(".indexes-view")!.textContent;
    answerFirst!();
    await new Promise((r) => setTimeout(r, 20));
    expect(document.querySelector(".indexes-view")!.textContent).toBe(shown);
  });

  it("shows the 10 GB gauge only on tables with an LSI, warning from 80 %", async () => {
    const withLsi: IndexesSideBySide = {
      ...layout,
      collectionLimits: {
        limitBytes: 10 * 1024 ** 3,
        warningFraction: 0.8,
        collections: [{ partitionValue: { S: "VEH#1" }, sizeBytes: 9 * 1024 ** 3, fraction: 0.9, warning: true }],
      },
    };
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source({ indexesSideBySide: vi.fn(async () => ({ status: "ok" as const, data: withLsi })) }));
    const gauge = await screen.findByLabelText(/Collection size against the 10 GB limit/);
    expect(gauge.getAttribute("value")).toBe(String(9 * 1024 ** 3));
    expect(screen.getByText(/near the item-collection limit/)).not.toBeNull();
    cleanup();
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source());
    await screen.findByRole("region", { name: "GSI ByDepot" });
    expect(screen.queryByLabelText(/Collection size against/)).toBeNull();
  });

  it("draws a tiny collection's gauge with a visible mark and a share that is not all zeros", async () => {
    // The demo's customers: a couple of kilobytes against 10 GB.
    const tiny: IndexesSideBySide = {
      ...layout,
      collectionLimits: {
        limitBytes: 10 * 1024 ** 3,
        warningFraction: 0.8,
        collections: [{ partitionValue: { S: "VEH#1" }, sizeBytes: 2150, fraction: 2150 / (10 * 1024 ** 3), warning: false }],
      },
    };
    renderWithCommands(<IndexesView profileId="embedded" table={telemetry} />, source({ indexesSideBySide: vi.fn(async () => ({ status: "ok" as const, data: tiny })) }));
    const figure = await screen.findByTestId("side-gauge-figure");
    expect(figure.textContent).toBe("2.1 KB of 10 GB (under 0.001 %)");
    expect(figure.textContent).not.toContain("0.000 %");
    expect(figure.getAttribute("title")).toBe("2,150 bytes of 10,737,418,240");
    expect(screen.getByTestId("side-gauge-mark")).not.toBeNull();
  });
});
