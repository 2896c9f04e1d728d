import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { MonthlyCost } from "./MonthlyCost";
import type { RegionPrices, Workload } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const defaults: RegionPrices = {
  region: "us-east-1",
  currency: "USD",
  asOf: "2024-11-01",
  source: "third-party summaries of AWS's 2024-11-01 price change, not AWS's own price list: verify against it",
  onDemandWritePerMillion: 0.625,
  onDemandReadPerMillion: 0.125,
  provisionedWcuHour: 0.00065,
  provisionedRcuHour: 0.00013,
  storageGbMonth: 0.25,
};

function source(): Partial<Commands> {
  return {
    defaultPrices: vi.fn(async () => [defaults]),
    // A stand-in for the Rust computation: proportional to the price and the rate.
    monthlyCost: vi.fn(async (prices: RegionPrices, workload: Workload) => {
      const reads = workload.readsPerSecond * workload.readUnitsPerRequest * 2.628 * prices.onDemandReadPerMillion;
      return {
        status: "ok" as const,
        data: {
          region: prices.region,
          currency: prices.currency,
          pricesAsOf: prices.asOf,
          onDemand: { reads, writes: 0, total: reads },
          provisioned: { reads: 1, writes: 0, total: 1 },
          provisionedRcu: 72,
          provisionedWcu: 15,
          storage: null,
          lines: [{ rule: "B.12", text: "A month is 730 hours" }],
        },
      };
    }),
  };
}

describe("MonthlyCost", () => {
  it("prices the rate with the default table and states its date", async () => {
    const fake = source();
    renderWithCommands(<MonthlyCost readUnitsPerRequest={2.5} />, fake);
    expect((await screen.findByTestId("on-demand")).textContent).toContain("$82.13");
    expect(screen.getByText("Prices: us-east-1, USD, as of 2024-11-01")).not.toBeNull();
    expect(screen.getByText(/Defaults as of 2024-11-01: third-party summaries/)).not.toBeNull();
    // The explanation's lines without their rule codes.
    expect(screen.getByText("A month is 730 hours").closest("li")!.textContent).toBe("A month is 730 hours");
    expect(screen.getByTestId("provisioned").textContent).toContain("72 RCU");
    expect(fake.monthlyCost).toHaveBeenCalledWith(defaults, expect.objectContaining({ readsPerSecond: 100, readUnitsPerRequest: 2.5 }));
  });

  it("recomputes when the rate or a price is edited", async () => {
    const fake = source();
    renderWithCommands(<MonthlyCost readUnitsPerRequest={2.5} />, fake);
    await screen.findByTestId("on-demand");
    fireEvent.change(screen.getByLabelText("Reads per second"), { target: { value: "200" } });
    await waitFor(() => expect(screen.getByTestId("on-demand").textContent).toContain("$164.25"));
    fireEvent.change(screen.getByLabelText("On-demand, per million read request units"), { target: { value: "0.25" } });
    await waitFor(() => expect(screen.getByTestId("on-demand").textContent).toContain("$328.50"));
    expect(fake.monthlyCost).toHaveBeenLastCalledWith({ ...defaults, onDemandReadPerMillion: 0.25 }, expect.objectContaining({ readsPerSecond: 200 }));
    fireEvent.click(screen.getByRole("button", { name: "Restore the defaults" }));
    await waitFor(() => expect(fake.monthlyCost).toHaveBeenLastCalledWith(defaults, expect.anything()));
  });
});
