import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { EstimatePanel } from "./EstimatePanel";
import type { QueryPage, Reconciliation } from "../../ipc/bindings.gen";
import { seedEstimate, seedQuery } from "./fixtures.test-data";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const matched: Reconciliation = {
  rows: [
    { target: "Total", estimated: 2.5, actual: 2.5, difference: 0 },
    { target: "Table", estimated: 2.5, actual: 2.5, difference: 0 },
  ],
  matches: true,
  lines: [{ rule: null, text: "Every reported figure equals the estimate" }],
};

function source(overrides: Partial<Commands> = {}) {
  return {
    estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: seedEstimate })),
    reconcileQuery: vi.fn(async () => ({ status: "ok" as const, data: matched })),
    ...overrides,
  };
}

const page: QueryPage = {
  items: [],
  count: 10,
  scannedCount: 10,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 2.5, table: 2.5, indexes: [] },
  stop: "end",
};

describe("EstimatePanel", () => {
  it("shows the seed example's figures, the other ways and their reasons before the query runs", async () => {
    const fake = source();
    renderWithCommands(<EstimatePanel profileId="embedded" query={seedQuery} lastPage={null} />, fake);
    expect((await screen.findByTestId("first-page-units")).textContent).toContain("2.5 RCU");
    expect((screen.getByTestId("query-eventual")).textContent).toContain("2.5");
    expect((screen.getByTestId("query-strong")).textContent).toContain("5");
    const gets = screen.getByTestId("way-getItems");
    expect((gets).textContent).toContain("N × GetItem");
    expect((gets).textContent).toContain("10");
    expect((gets).textContent).toContain("5");
    expect(screen.getByText("Each GetItem rounds its item up to 4 KB on its own")).not.toBeNull();
    expect((screen.getByTestId("way-scanWithFilter")).textContent).toContain("≈ 181");
    expect(screen.getByText(/live collection statistics/)).not.toBeNull();
    expect(fake.estimateQuery).toHaveBeenCalledWith("embedded", seedQuery);
    expect(fake.reconcileQuery).not.toHaveBeenCalled();
  });

  it("puts the reported capacity beside the estimate after the query ran", async () => {
    const fake = source();
    renderWithCommands(<EstimatePanel profileId="embedded" query={seedQuery} lastPage={page} />, fake);
    expect(await screen.findByText("The reported capacity equals the estimate.")).not.toBeNull();
    expect(fake.reconcileQuery).toHaveBeenCalledWith("embedded", seedQuery, page.consumedCapacity);
    expect((screen.getByTestId("reconcile-Total")).textContent).toContain("2.5");
  });

  it("explains a difference and does not estimate again for the same query", async () => {
    const differs: Reconciliation = {
      rows: [{ target: "Total", estimated: 2.5, actual: 3, difference: 0.5 }],
      matches: false,
      lines: [{ rule: "B.2", text: "The estimate assumed every item has the average size" }],
    };
    const fake = source({ reconcileQuery: vi.fn(async () => ({ status: "ok" as const, data: differs })) });
    const { rerender } = renderWithCommands(<EstimatePanel profileId="embedded" query={seedQuery} lastPage={page} />, fake);
    expect(await screen.findByText("The estimate assumed every item has the average size")).not.toBeNull();
    expect((screen.getByTestId("reconcile-Total")).textContent).toContain("+0.5");
    rerender(<EstimatePanel profileId="embedded" query={{ ...seedQuery }} lastPage={page} />);
    await waitFor(() => expect(fake.estimateQuery).toHaveBeenCalledTimes(1));
  });

  it("shows the command's error in plain words", async () => {
    const fake = source({
      estimateQuery: vi.fn(async () => ({ status: "error" as const, error: { code: "NOT_FOUND" as const, message: "No statistics of T yet", exception: null } })),
    });
    renderWithCommands(<EstimatePanel profileId="p1" query={seedQuery} lastPage={null} />, fake);
    expect((await screen.findByRole("alert")).textContent).toContain("No statistics of T yet");
  });
});
