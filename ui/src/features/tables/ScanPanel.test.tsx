import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import { ScanPanel, type ChannelFactory, type ScanSource } from "./ScanPanel";
import { CapacityProvider, useCapacityLedger } from "../../app/capacity";
import type { ScanSummary, ScanUpdate, TableDescription } from "../../ipc/bindings.gen";

const table: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 4,
  sizeBytes: 400,
  indexes: [],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};

function update(pages: number, vehicles: string[], capacity: number): ScanUpdate {
  return {
    scanId: "x",
    segment: 0,
    page: {
      items: vehicles.map((v, i) => ({ vehicleId: { S: v }, recordedAt: { S: `TS#${i}` } })),
      count: vehicles.length,
      scannedCount: vehicles.length,
      lastEvaluatedKey: null,
      consumedCapacity: { total: capacity, table: capacity, indexes: [] },
      stop: "size",
    },
    totals: { pages, items: pages * 2, scanned: pages * 2, bytes: 100, capacityUnits: pages * capacity, expectedItems: 4 },
  };
}

afterEach(cleanup);

function Used() {
  const ledger = useCapacityLedger();
  return <span data-testid="used">{ledger.readUnits}</span>;
}

describe("ScanPanel", () => {
  it("streams pages into a progress bar and the collections met, and records their capacity", async () => {
    let deliver: (u: ScanUpdate) => void = () => {};
    const makeChannel: ChannelFactory = (onMessage) => {
      deliver = onMessage;
      return {} as Channel<ScanUpdate>;
    };
    let finish: () => void = () => {};
    const source: ScanSource = {
      scan: vi.fn(
        () =>
          new Promise<{ status: "ok"; data: ScanSummary }>((resolve) => {
            finish = () => resolve({ status: "ok", data: { end: "completed", totals: update(2, [], 1).totals } });
          }),
      ),
      cancelOperation: vi.fn(async () => true),
    };
    const onOpen = vi.fn();
    render(
      <CapacityProvider>
        <ScanPanel profileId="embedded" table={table} source={source} onOpenCollection={onOpen} makeChannel={makeChannel} />
        <Used />
      </CapacityProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Scan the table" }));
    await waitFor(() => expect(source.scan).toHaveBeenCalled());
    deliver(update(1, ["VEH#A", "VEH#B"], 0.5));
    await waitFor(() => expect(screen.getByTestId("scan-progress").textContent).toContain("2 of about 4 items read · 1 pages"));
    expect((screen.getByRole("progressbar", { name: "Scan progress" }) as HTMLProgressElement).value).toBe(0.5);
    deliver(update(2, ["VEH#B", "VEH#C"], 0.5));
    await waitFor(() => expect(screen.getByText("3 collections met, in scan order")).toBeTruthy());
    expect(screen.getByTestId("used").textContent).toBe("1");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(source.cancelOperation).toHaveBeenCalledWith(expect.stringMatching(/^scan-/));
    finish();
    await waitFor(() => expect(screen.getByTestId("scan-summary").textContent).toBe("The scan read the whole table."));
    fireEvent.click(screen.getByRole("button", { name: "VEH#C" }));
    expect(onOpen).toHaveBeenCalledWith({ S: "VEH#C" });
  });
});
