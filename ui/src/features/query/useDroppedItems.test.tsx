import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ConditionState, ProjectionState, QueryPage, ReadRequest } from "../../ipc/bindings.gen";
import { useDroppedItems } from "./useDroppedItems";
import type { QueryRun } from "./useQueryModel";
import { commandsWrapper } from "../../ipc/testCommands";

afterEach(cleanup);

const reading = (minute: number, speed = 40 + minute) => ({
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: `TS#09:0${minute}` },
  speedKph: { N: String(speed) },
});

const request: ReadRequest = {
  operation: "Query",
  tableName: "Telemetry",
  keyCondition: null,
  filter: { kind: "comparison", path: "speedKph", op: ">", value: { N: "42" } } as unknown as ConditionState,
  projection: { paths: ["recordedAt"] } as unknown as ProjectionState,
  limit: 3,
};
const page = (items: QueryPage["items"], scannedCount: number, last: QueryPage["lastEvaluatedKey"]): QueryPage => ({
  items,
  count: items.length,
  scannedCount,
  lastEvaluatedKey: last,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "limit",
});
const lastOf = (minute: number) => ({ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: `TS#09:0${minute}` } });
const run: QueryRun = {
  kind: "query",
  request,
  input: null,
  pages: [page([reading(3)], 3, lastOf(3)), page([reading(4), reading(5), reading(6)], 3, lastOf(6))],
  loading: false,
  error: null,
};

describe("useDroppedItems", () => {
  it("reads a page's stretch again without the filter or projection, from the same start, as many items as it evaluated", async () => {
    const readRequestPage = vi.fn(async () => ({ status: "ok" as const, data: page([reading(1), reading(2), reading(3)], 3, lastOf(3)) }));
    const { result } = renderHook(() => useDroppedItems({ profileId: "embedded", run, automatic: true }), { wrapper: commandsWrapper({ readRequestPage }) });
    await waitFor(() => expect(result.current.dropped.get(0)?.status).toBe("ok"));
    // Only the first page dropped anything; the second returned all it evaluated.
    expect(readRequestPage).toHaveBeenCalledTimes(1);
    expect(readRequestPage).toHaveBeenCalledWith("embedded", { ...request, filter: null, projection: null, limit: 3 }, null);
    const state = result.current.dropped.get(0);
    expect(state?.status === "ok" && state.rows.map((r) => r.dropped)).toEqual([true, true, false]);
  });

  it("starts a later page's read where that page started: after the page before it", async () => {
    const later: QueryRun = { ...run, pages: [page([reading(3)], 3, lastOf(3)), page([reading(6)], 3, lastOf(6))] };
    const readRequestPage = vi.fn(async () => ({ status: "ok" as const, data: page([reading(4), reading(5), reading(6)], 3, lastOf(6)) }));
    const { result } = renderHook(() => useDroppedItems({ profileId: "p1", run: later, automatic: false }), { wrapper: commandsWrapper({ readRequestPage }) });
    expect(readRequestPage).not.toHaveBeenCalled();
    await act(() => result.current.show(1));
    expect(readRequestPage).toHaveBeenCalledWith("p1", { ...request, filter: null, projection: null, limit: 3 }, lastOf(3));
    const state = result.current.dropped.get(1);
    expect(state?.status === "ok" && state.rows.map((r) => r.dropped)).toEqual([true, true, false]);
  });

  it("says so in a sentence when the read back fails or no longer matches", async () => {
    const readRequestPage = vi
      .fn()
      .mockResolvedValueOnce({ status: "error", error: { code: "THROTTLED", message: "Slow down." } })
      .mockResolvedValueOnce({ status: "ok", data: page([reading(7), reading(8)], 2, null) });
    const two: QueryRun = { ...run, pages: [page([reading(3)], 3, lastOf(3)), page([reading(4)], 3, lastOf(6))] };
    const { result } = renderHook(() => useDroppedItems({ profileId: "p1", run: two, automatic: false }), { wrapper: commandsWrapper({ readRequestPage }) });
    await act(() => result.current.show(0));
    await act(() => result.current.show(1));
    expect(result.current.dropped.get(0)).toEqual({ status: "error", message: "The dropped items could not be read: Slow down." });
    expect(result.current.dropped.get(1)).toEqual({
      status: "error",
      message: "The items changed after the page was read. Run the query again to see what its filter dropped.",
    });
  });
});
