import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import type { CollectionStats, ScanTotals, StatisticsScan } from "../../ipc/bindings.gen";
import { StatisticsGate } from "./StatisticsGate";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

const cost = { tableBytes: 409_600, itemCount: 400, pages: 1, readUnits: 50, explanation: "half a read unit per 4 KB" };

function stats(scan: StatisticsScan | null): CollectionStats {
  return {
    table: "Fleet",
    index: null,
    distinctPartitionKeys: 3,
    itemCount: 25,
    sizeBytes: 25_000,
    collections: [],
    collectionSizeLimit: null,
    gatheredAt: 1_796_000_000,
    scan,
  };
}

function source(kept: CollectionStats | null, gathered: CollectionStats): Commands & Record<string, ReturnType<typeof vi.fn>> {
  return {
    collectionStats: vi.fn(async () =>
      kept === null
        ? { status: "error" as const, error: { code: "NOT_FOUND" as const, message: "No statistics of Fleet yet", exception: null } }
        : { status: "ok" as const, data: kept },
    ),
    statisticsScanCost: vi.fn(async () => ({ status: "ok" as const, data: cost })),
    gatherStatistics: vi.fn(async (_p: string, _id: string, _request: unknown, channel: Channel<ScanTotals>) => {
      (channel as unknown as { send: (t: ScanTotals) => void }).send({ pages: 2, items: 25, scanned: 25, bytes: 25_000, capacityUnits: 3.5, expectedItems: 400 });
      return { status: "ok" as const, data: gathered };
    }),
    cancelOperation: vi.fn(async () => ({ status: "ok" as const, data: true })),
  } as never;
}

/** A channel the test drives: `send` calls the gate's handler as a Tauri channel would. */
const testChannel = (onMessage: (totals: ScanTotals) => void) => ({ send: onMessage }) as unknown as Channel<ScanTotals>;

afterEach(cleanup);

describe("StatisticsGate", () => {
  it("before anything is gathered, tells the whole scan's cost and scans up to the budget the user sets", async () => {
    const partial = stats({ complete: false, itemsRead: 25, capacityUnits: 3.5, expectedItems: 400, openCollection: { S: "VEH#V-017" } });
    const fake = source(null, partial);
    const onGathered = vi.fn();
    renderWithCommands(<StatisticsGate profileId="p1" table="Fleet" index={null} onGathered={onGathered} makeChannel={testChannel} />, fake);
    await waitFor(() => expect(screen.getByTestId("statistics-cost").textContent).toContain("Estimated: 50 RCU"));
    const budget = screen.getByTestId("statistics-budget") as HTMLInputElement;
    expect(budget.value).toBe("50");
    fireEvent.change(budget, { target: { value: "4" } });
    fireEvent.click(screen.getByTestId("statistics-start"));
    await waitFor(() => expect(onGathered).toHaveBeenCalledWith(partial));
    expect(fake.gatherStatistics).toHaveBeenCalledWith("p1", expect.any(String), { table: "Fleet", index: null, budget: 4, resume: false }, expect.anything());
    // What it read is kept and said: partial, the collection that may go on named.
    const state = await screen.findByTestId("statistics-state");
    expect(state.textContent).toContain("Partial statistics.");
    expect(state.textContent).toContain("25 of about 400 items (6%)");
    expect(state.textContent).toContain("VEH#V-017");
  });

  it("while it scans, shows the items read and the RCU spent against the budget, and Cancel stops it", async () => {
    const partial = stats({ complete: false, itemsRead: 25, capacityUnits: 3.5, expectedItems: 400, openCollection: { S: "VEH#V-017" } });
    const fake = source(null, partial);
    // A scan that reports its progress, then waits until it is cancelled.
    let finish: () => void = () => {};
    const gather = vi.mocked(fake.gatherStatistics);
    gather.mockImplementation(async (_p: string, _id: string, _request: unknown, channel: Channel<ScanTotals>) => {
      (channel as unknown as { send: (t: ScanTotals) => void }).send({ pages: 2, items: 100, scanned: 100, bytes: 100_000, capacityUnits: 12.5, expectedItems: 400 });
      await new Promise<void>((resolve) => (finish = resolve));
      return { status: "ok" as const, data: partial };
    });
    vi.mocked(fake.cancelOperation).mockImplementation(async () => {
      finish();
      return true;
    });
    renderWithCommands(<StatisticsGate profileId="p1" table="Fleet" index={null} onGathered={vi.fn()} makeChannel={testChannel} />, fake);
    await waitFor(() => expect((screen.getByTestId("statistics-budget") as HTMLInputElement).value).toBe("50"));
    fireEvent.click(screen.getByTestId("statistics-start"));
    const progress = await screen.findByTestId("statistics-progress");
    expect(progress.textContent).toBe("100 items read · 12.5 RCU so far of 50");
    expect((progress.querySelector("progress") as HTMLProgressElement).value).toBeCloseTo(0.25);
    const id = gather.mock.calls[0]![1];
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(fake.cancelOperation).toHaveBeenCalledWith(id);
    await waitFor(() => expect(screen.queryByTestId("statistics-progress")).toBeNull());
    expect((await screen.findByTestId("statistics-state")).textContent).toContain("Partial statistics.");
  });

  it("continues a partial scan of an index from where it stopped", async () => {
    const partial = { ...stats({ complete: false, itemsRead: 25, capacityUnits: 3.5, expectedItems: 400, openCollection: null }), index: "ByDepot" };
    const whole = { ...stats({ complete: true, itemsRead: 400, capacityUnits: 52, expectedItems: 400, openCollection: null }), index: "ByDepot" };
    const fake = source(partial, whole);
    renderWithCommands(<StatisticsGate profileId="p1" table="Fleet" index="ByDepot" onGathered={vi.fn()} makeChannel={testChannel} />, fake);
    expect((await screen.findByTestId("statistics-state")).textContent).toContain("The scan of the index ByDepot stopped after 25");
    expect(fake.collectionStats).toHaveBeenCalledWith("p1", "Fleet", "ByDepot");
    fireEvent.click(await screen.findByTestId("statistics-continue"));
    await waitFor(() => expect(screen.getByTestId("statistics-state").textContent).toContain("by a whole scan of the index ByDepot: 400 items for 52 RCU"));
    // Its pages are what the boxes' first rows are drawn from.
    expect(screen.getByTestId("statistics-state").textContent).toContain("The boxes draw their first rows from its pages, without a Query of their own, wherever those rows are exactly what a Query returns.");
    expect(fake.gatherStatistics).toHaveBeenCalledWith("p1", expect.any(String), { table: "Fleet", index: "ByDepot", budget: 50, resume: true }, expect.anything());
    // A whole scan offers to scan again, not to continue.
    expect(screen.queryByTestId("statistics-continue")).toBeNull();
    expect(screen.getByTestId("statistics-start").textContent).toBe("Scan again");
  });

  it("refuses a budget that is not a positive number", async () => {
    renderWithCommands(<StatisticsGate profileId="p1" table="Fleet" index={null} onGathered={vi.fn()} makeChannel={testChannel} />, source(null, stats(null)));
    const budget = await screen.findByTestId("statistics-budget");
    await waitFor(() => expect((screen.getByTestId("statistics-start") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.change(budget, { target: { value: "0" } });
    expect((screen.getByTestId("statistics-start") as HTMLButtonElement).disabled).toBe(true);
    expect(budget.getAttribute("aria-invalid")).toBe("true");
  });
});
