import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook } from "@testing-library/react";
import { collectionKey, useCollections, type CollectionsSource } from "./useCollections";
import type { CollectionStats, QueryInput, QueryPage } from "../../ipc/bindings.gen";

afterEach(cleanup);

function statsOf(names: string[]): CollectionStats {
  return {
    table: "Telemetry",
    index: null,
    distinctPartitionKeys: names.length,
    itemCount: names.length,
    sizeBytes: names.length * 100,
    collections: names.map((S) => ({ partitionValue: { S }, itemCount: 1, sizeBytes: 100, limitedSizeBytes: null })),
    collectionSizeLimit: null,
    gatheredAt: null,
  };
}

/** A source whose answers the test releases one by one. */
function heldSource() {
  const pending: { input: QueryInput; resolve: () => void }[] = [];
  const source: CollectionsSource = {
    query: vi.fn(
      (_p: string, input: QueryInput) =>
        new Promise((resolve) => {
          const page: QueryPage = { items: [{ vehicleId: input.partitionValue }], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" };
          pending.push({ input, resolve: () => resolve({ status: "ok" as const, data: page }) });
        }),
    ) as unknown as CollectionsSource["query"],
  };
  return { source, pending };
}

const key = (S: string) => collectionKey({ S });

describe("useCollections", () => {
  it("lists the collections in key order and reads at most `concurrency` boxes at a time", async () => {
    const { source, pending } = heldSource();
    const stats = statsOf(["c", "a", "d", "b"]);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", stats, source, concurrency: 2 }));
    expect(result.current.collections.map((c) => c.key)).toEqual(["a", "b", "c", "d"].map(key));
    act(() => result.current.want(["a", "b", "c"].map(key)));
    expect(pending.map((p) => p.input.partitionValue)).toEqual([{ S: "a" }, { S: "b" }]);
    expect(result.current.boxes.get(key("a"))).toEqual({ status: "loading" });
    await act(async () => pending[0]!.resolve());
    // One answer in, the next box starts.
    expect(pending.map((p) => p.input.partitionValue)).toEqual([{ S: "a" }, { S: "b" }, { S: "c" }]);
    expect(result.current.boxes.get(key("a"))).toMatchObject({ status: "ok", more: false });
    // Asking again for a box already read reads nothing.
    act(() => result.current.want(["a"].map(key)));
    expect(pending).toHaveLength(3);
  });

  it("does not read a box that left the view before its turn, and reads it when it comes back", async () => {
    const { source, pending } = heldSource();
    const stats = statsOf(["a", "b", "c"]);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", stats, source, concurrency: 1 }));
    act(() => result.current.want(["a", "b"].map(key)));
    act(() => result.current.want(["c"].map(key)));
    await act(async () => pending[0]!.resolve());
    // b scrolled away while a was read: c is next, not b.
    expect(pending.map((p) => p.input.partitionValue)).toEqual([{ S: "a" }, { S: "c" }]);
    await act(async () => pending[1]!.resolve());
    act(() => result.current.want(["b"].map(key)));
    expect(pending.map((p) => p.input.partitionValue)).toEqual([{ S: "a" }, { S: "c" }, { S: "b" }]);
  });

  it("starts over on new statistics, dropping the answers to the old reads", async () => {
    const { source, pending } = heldSource();
    let stats = statsOf(["a"]);
    const { result, rerender } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", stats, source }));
    act(() => result.current.want([key("a")]));
    stats = statsOf(["a", "b"]);
    rerender();
    expect(result.current.boxes.size).toBe(0);
    await act(async () => pending[0]!.resolve());
    expect(result.current.boxes.get(key("a"))).toBeUndefined();
    // The new run reads a again.
    act(() => result.current.want([key("a")]));
    expect(pending).toHaveLength(2);
  });
});
