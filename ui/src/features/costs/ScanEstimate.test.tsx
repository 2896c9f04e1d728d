import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { CostPanel } from "./CostPanel";
import { renderWithCommands } from "../../ipc/testCommands";
import type { Commands } from "../../ipc/CommandsContext";
import type { TableDescription } from "../../ipc/bindings.gen";
import { telemetry } from "../builder/fixtures";
import { seedEstimate, seedQuery } from "./fixtures.test-data";

afterEach(cleanup);

// The demo Telemetry as DescribeTable counts it (its size is what a whole Scan reads).
const table: TableDescription = { ...telemetry, itemCount: 10710, sizeBytes: 988741, indexes: [] };

function fake(): Partial<Commands> {
  return {
    statisticsScanCost: vi.fn(async () => ({
      status: "ok" as const,
      data: { tableBytes: 988741, itemCount: 10710, pages: 1, readUnits: 121, explanation: "A full eventually consistent scan reads 988,741 bytes." },
    })),
    estimateQuery: vi.fn(),
    defaultPrices: vi.fn(async () => []),
    monthlyCost: vi.fn(async () => ({ status: "error" as const, error: { code: "INTERNAL" as const, message: "not in this test", exception: null } })),
    hotPartitions: vi.fn(async () => ({ status: "error" as const, error: { code: "INTERNAL" as const, message: "not in this test", exception: null } })),
  };
}

describe("the Cost view of a Scan", () => {
  it("says what scanning the table whole costs, eventually and strongly consistent, and that a filter does not lower it", async () => {
    const commands = fake();
    renderWithCommands(
      <CostPanel profileId="embedded" table={table} query={null} lastPage={null} scan={{ table: "Telemetry", index: null, consistentRead: false, filtered: true }} />,
      commands,
    );
    await waitFor(() => expect(screen.getByTestId("scan-estimate-units").textContent).toBe("121 RCU to scan Telemetry whole, eventually consistent"));
    expect(screen.getByTestId("scan-estimate").textContent).toContain("10,710 items, 966 KB, in 1 page of up to 1 MB; 242 RCU strongly consistent.");
    expect(screen.getByTestId("scan-estimate-filter").textContent).toContain("does not lower this");
    expect(commands.statisticsScanCost).toHaveBeenCalledWith("embedded", "Telemetry", null);
    expect(commands.estimateQuery).not.toHaveBeenCalled();
  });

  it("doubles the units for a strongly consistent Scan, and says nothing of a filter when there is none", async () => {
    renderWithCommands(
      <CostPanel profileId="embedded" table={table} query={null} lastPage={null} scan={{ table: "Telemetry", index: null, consistentRead: true, filtered: false }} />,
      fake(),
    );
    await waitFor(() => expect(screen.getByTestId("scan-estimate-units").textContent).toBe("242 RCU to scan Telemetry whole, strongly consistent"));
    expect(screen.queryByTestId("scan-estimate-filter")).toBeNull();
  });

  it("estimates the Scan the bar is set to, and keeps the Query that ran last under its own heading", async () => {
    const commands = { ...fake(), estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: seedEstimate })) };
    renderWithCommands(
      <CostPanel
        profileId="embedded"
        table={table}
        query={null}
        lastPage={null}
        ran={{ input: seedQuery, lastPage: null }}
        scan={{ table: "Telemetry", index: null, consistentRead: false, filtered: false }}
      />,
      commands,
    );
    await waitFor(() => expect(screen.getByTestId("scan-estimate-units").textContent).toBe("121 RCU to scan Telemetry whole, eventually consistent"));
    const last = screen.getByRole("region", { name: "The Query that ran last" });
    await waitFor(() => expect(last.querySelector('[data-testid="first-page-units"]')?.textContent).toContain("2.5 RCU"));
    expect(commands.estimateQuery).toHaveBeenCalledWith("embedded", seedQuery);
    expect(last.querySelector("h3 + section h3")?.textContent).toBe("Before it ran");
    // The Scan comes first: it is what runs next.
    expect(screen.getByTestId("scan-estimate").compareDocumentPosition(last) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
