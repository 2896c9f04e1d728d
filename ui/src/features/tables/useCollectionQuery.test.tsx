import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { useCollectionQuery, type RunQuery } from "./useCollectionQuery";
import { CapacityProvider, useCapacityLedger } from "../../app/capacity";
import type { QueryInput, QueryPage } from "../../ipc/bindings.gen";

const input: QueryInput = {
  table: "Telemetry",
  index: null,
  partitionValue: { S: "VEH#V-7741" },
  sortCondition: { op: "between", low: { S: "TS#2025-03-14T09:00:00Z" }, high: { S: "TS#2025-03-14T09:09:00Z" } },
  scanIndexForward: false,
  limit: 4,
  consistentRead: false,
  projection: null,
  filter: null,
  filterNames: null,
  filterValues: null,
  exclusiveStartKey: null,
};

function page(n: number, last: boolean): QueryPage {
  return {
    items: [{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: `TS#${n}` } }],
    count: 1,
    scannedCount: 1,
    lastEvaluatedKey: last ? null : { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: `TS#${n}` } },
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: last ? "end" : "limit",
  };
}

const wrapper = ({ children }: { children: ReactNode }) => <CapacityProvider>{children}</CapacityProvider>;

afterEach(cleanup);

describe("useCollectionQuery", () => {
  it("follows LastEvaluatedKey page by page and records each page's capacity", async () => {
    const runQuery = vi.fn(async (_profile: string, q: QueryInput) => ({
      status: "ok" as const,
      data: page(q.exclusiveStartKey === null ? 1 : 2, q.exclusiveStartKey !== null),
    }));
    const { result } = renderHook(() => ({ query: useCollectionQuery("embedded", runQuery as RunQuery), ledger: useCapacityLedger() }), { wrapper });
    await act(() => result.current.query.run(input));
    expect(result.current.query.pages).toHaveLength(1);
    expect(result.current.query.hasMore).toBe(true);
    act(() => result.current.query.loadMore());
    await waitFor(() => expect(result.current.query.pages).toHaveLength(2));
    expect(runQuery.mock.calls[1]![1].exclusiveStartKey).toEqual({ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#1" } });
    expect(result.current.query.hasMore).toBe(false);
    expect(result.current.ledger.readUnits).toBe(1);
  });

  it("keeps the pages it has and shows the error when a page fails", async () => {
    let calls = 0;
    const runQuery = vi.fn(async () =>
      ++calls === 1
        ? { status: "ok" as const, data: page(1, false) }
        : { status: "error" as const, error: { code: "THROTTLED" as const, message: "Slow down.", exception: "ThrottlingException" } },
    );
    const { result } = renderHook(() => useCollectionQuery("embedded", runQuery as RunQuery), { wrapper });
    await act(() => result.current.run(input));
    act(() => result.current.loadMore());
    await waitFor(() => expect(result.current.error?.code).toBe("THROTTLED"));
    expect(result.current.pages).toHaveLength(1);
    expect(result.current.hasMore).toBe(true);
  });

  it("ignores the answer to a query that a newer one replaced", async () => {
    const answers: Array<(value: { status: "ok"; data: QueryPage }) => void> = [];
    const runQuery = vi.fn(() => new Promise<{ status: "ok"; data: QueryPage }>((resolve) => answers.push(resolve)));
    const { result } = renderHook(() => useCollectionQuery("embedded", runQuery as unknown as RunQuery), { wrapper });
    act(() => void result.current.run(input));
    act(() => void result.current.run({ ...input, limit: 2 }));
    await act(async () => answers[1]!({ status: "ok", data: page(2, true) }));
    await act(async () => answers[0]!({ status: "ok", data: page(1, false) }));
    expect(result.current.pages.map((p) => p.items[0]!.recordedAt)).toEqual([{ S: "TS#2" }]);
    expect(result.current.input?.limit).toBe(2);
  });
});
