import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { CostPanel } from "./CostPanel";
import { seedEstimate, seedQuery, sensorReadings as table } from "./fixtures.test-data";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);


describe("CostPanel", () => {
  it("estimates the query and prices one read at the estimate's first page", async () => {
    const fake: Partial<Commands> = {
      estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: seedEstimate })),
      reconcileQuery: vi.fn(),
      defaultPrices: vi.fn(async () => []),
      monthlyCost: vi.fn(),
      hotPartitions: vi.fn(async () => ({
        status: "ok" as const,
        data: { partitionReadUnits: 3000, partitionWriteUnits: 1000, tableReadUnits: 2500, tableWriteUnits: 100, keys: [], throttlingKeys: 0, lines: [] },
      })),
    };
    renderWithCommands(<CostPanel profileId="embedded" table={table} query={seedQuery} lastPage={null} />, fake);
    expect((await screen.findByTestId("first-page-units")).textContent).toContain("2.5 RCU");
    await waitFor(() =>
      expect(fake.hotPartitions).toHaveBeenLastCalledWith("embedded", "SensorReadings", expect.objectContaining({ readUnitsPerRequest: 2.5 })),
    );
    expect(screen.getByRole("region", { name: "Monthly cost" })).not.toBeNull();
    expect(fake.reconcileQuery).not.toHaveBeenCalled();
  });
});
