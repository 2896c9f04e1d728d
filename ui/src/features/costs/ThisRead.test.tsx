import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { ThisRead } from "./ThisRead";
import { renderWithCommands } from "../../ipc/testCommands";
import type { QueryPage } from "../../ipc/bindings.gen";
import { seedEstimate, seedQuery } from "./fixtures.test-data";

afterEach(cleanup);

function page(count: number, scanned: number, units: number | null): QueryPage {
  return {
    items: [],
    count,
    scannedCount: scanned,
    lastEvaluatedKey: null,
    consumedCapacity: units === null ? null : { total: units, table: units, indexes: [] },
    stop: "end",
  };
}

describe("ThisRead", () => {
  it("sets a Query's reported units beside the same pages' estimate, with the same items read other ways", async () => {
    const estimateQuery = vi.fn(async () => ({ status: "ok" as const, data: seedEstimate }));
    const onDetails = vi.fn();
    renderWithCommands(
      <ThisRead profileId="embedded" read={{ kind: "query", input: seedQuery, pages: [page(10, 10, 2.5)], loading: false }} onDetails={onDetails} />,
      { estimateQuery },
    );
    await waitFor(() => expect(screen.getByTestId("this-read-estimated").textContent).toBe("2.5 RCU · 1 page ✓"));
    expect(screen.getByTestId("this-read-items").textContent).toBe("10 / 10 items");
    expect(screen.getByTestId("this-read-reported").textContent).toBe("2.5 RCU · 1 page");
    expect(screen.getByTestId("this-read-whole").textContent).toBe("2.5 RCU · 10 items");
    expect(screen.getByTestId("this-read-scan").textContent).toBe("181 RCU");
    expect(screen.getByTestId("this-read-gets").textContent).toBe("5 RCU");
    expect(screen.getByText("10 × GetItem")).toBeTruthy();
    // Estimated from the start: the continuation key plays no part.
    expect(estimateQuery).toHaveBeenCalledWith("embedded", { ...seedQuery, exclusiveStartKey: null });
    fireEvent.click(screen.getByTestId("this-read-details"));
    expect(onDetails).toHaveBeenCalled();
  });

  it("marks no match when what the pages reported differs from their estimate, and reads strongly consistent units for a strong Query", async () => {
    const strong = { ...seedEstimate, requested: "strong" as const };
    renderWithCommands(
      <ThisRead profileId="embedded" read={{ kind: "query", input: { ...seedQuery, consistentRead: true }, pages: [page(10, 10, 6)], loading: false }} onDetails={() => {}} />,
      { estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: strong })) },
    );
    await waitFor(() => expect(screen.getByTestId("this-read-estimated").textContent).toBe("5 RCU · 1 page"));
    expect(screen.getByTestId("this-read-scan").textContent).toBe("362 RCU");
    expect(screen.getByTestId("this-read-gets").textContent).toBe("10 RCU");
  });

  it("says so when the read ran more pages than were estimated, or the connection reported no capacity", async () => {
    renderWithCommands(
      <ThisRead profileId="embedded" read={{ kind: "query", input: seedQuery, pages: [page(5, 5, null), page(5, 5, null)], loading: true }} onDetails={() => {}} />,
      { estimateQuery: vi.fn(async () => ({ status: "ok" as const, data: seedEstimate })) },
    );
    await waitFor(() => expect(screen.getByTestId("this-read-estimated").textContent).toBe("more pages than estimated"));
    expect(screen.getByTestId("this-read-reported").textContent).toBe("not reported here");
    expect(screen.getByTestId("this-read-items").textContent).toBe("10 / 10 items so far");
  });

  it("sets a Scan's reported units so far beside the whole scan's estimate, doubled when strongly consistent", async () => {
    const statisticsScanCost = vi.fn(async () => ({
      status: "ok" as const,
      data: { tableBytes: 988741, itemCount: 10710, pages: 1, readUnits: 121, explanation: "" },
    }));
    renderWithCommands(
      <ThisRead
        profileId="embedded"
        read={{ kind: "scan", table: "Telemetry", index: "ByDepot", consistentRead: true, pages: [page(40, 100, 12.5)], running: false, completed: false }}
        onDetails={() => {}}
      />,
      { statisticsScanCost },
    );
    await waitFor(() => expect(screen.getByTestId("this-read-estimated").textContent).toBe("242 RCU"));
    expect(screen.getByTestId("this-read-items").textContent).toBe("100 / 40 items (stopped)");
    expect(screen.getByTestId("this-read-reported").textContent).toBe("12.5 RCU · 1 page");
    expect(statisticsScanCost).toHaveBeenCalledWith("embedded", "Telemetry", "ByDepot");
  });
});
