import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, renderHook } from "@testing-library/react";
import { collectionKey } from "../../shared/collectionValue";
import { useCollections, type CollectionsSource } from "./useCollections";
import type { CollectionStat, KeySchema, QueryInput, QueryPage } from "../../ipc/bindings.gen";
import { commandsWrapper } from "../../ipc/testCommands";

afterEach(cleanup);

const stat = (S: string): CollectionStat => ({ partitionValue: { S }, itemCount: 1, sizeBytes: 100, limitedSizeBytes: null });

/** A source whose answers (listings and Queries) the test releases one by one. */
function heldSource(run: string[]) {
  const queries: { input: QueryInput; resolve: () => void }[] = [];
  const listings: { index: string | null; offset: number; limit: number; resolve: () => void }[] = [];
  const source: CollectionsSource = {
    collectionPage: vi.fn(
      (_p: string, input: QueryInput) =>
        new Promise((resolve) => {
          const page: QueryPage = { items: [{ vehicleId: input.partitionValue }], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" };
          queries.push({ input, resolve: () => resolve({ status: "ok" as const, data: page }) });
        }),
    ) as unknown as CollectionsSource["collectionPage"],
    collectionRange: vi.fn(
      (_p: string, table: string, index: string | null, offset: number, limit: number) =>
        new Promise((resolve) => {
          const collections = run.slice(offset, offset + limit).map(stat);
          listings.push({ index, offset, limit, resolve: () => resolve({ status: "ok" as const, data: { table, index, offset, total: run.length, collections } }) });
        }),
    ) as unknown as CollectionsSource["collectionRange"],
    collectionPosition: vi.fn(async (_p: string, _t: string, _i: string | null, value) => {
      const at = run.indexOf("S" in value ? value.S : "");
      return { status: "ok" as const, data: at < 0 ? null : at };
    }) as unknown as CollectionsSource["collectionPosition"],
  };
  return { source, queries, listings };
}

const key = (S: string) => collectionKey({ S });

describe("useCollections", () => {
  it("lists the run a page at a time as positions come into sight", async () => {
    const run = Array.from({ length: 25 }, (_, i) => `K${String(i).padStart(2, "0")}`);
    const { source, listings } = heldSource(run);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", listPage: 10 }), { wrapper: commandsWrapper(source) });
    expect(result.current.total).toBeNull();
    // Nothing in sight yet: the first page is listed, which says how long the run is.
    act(() => result.current.want([]));
    expect(listings.map((l) => l.offset)).toEqual([0]);
    await act(async () => listings[0]!.resolve());
    expect(result.current.total).toBe(25);
    expect(result.current.at(3)?.key).toBe(key("K03"));
    expect(result.current.at(12)).toBeUndefined();
    // Positions 9-12 straddle pages 0 and 1: only page 1 is listed again.
    act(() => result.current.want([9, 10, 11, 12]));
    expect(listings.map((l) => [l.offset, l.limit])).toEqual([
      [0, 10],
      [10, 10],
    ]);
    await act(async () => listings[1]!.resolve());
    expect(result.current.at(12)?.key).toBe(key("K12"));
    // A page asked for once is not asked for again.
    act(() => result.current.want([11, 12]));
    expect(listings).toHaveLength(2);
  });

  it("reads at most `concurrency` listed boxes at a time, and not a box that left the view before its turn", async () => {
    const { source, queries, listings } = heldSource(["a", "b", "c", "d"]);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", concurrency: 1 }), { wrapper: commandsWrapper(source) });
    act(() => result.current.want([0, 1]));
    await act(async () => listings[0]!.resolve());
    expect(queries.map((q) => q.input.partitionValue)).toEqual([{ S: "a" }]);
    expect(result.current.boxes.get(key("a"))).toEqual({ status: "loading" });
    act(() => result.current.want([2]));
    await act(async () => queries[0]!.resolve());
    // b scrolled away while a was read: c is next, not b.
    expect(queries.map((q) => q.input.partitionValue)).toEqual([{ S: "a" }, { S: "c" }]);
    expect(result.current.boxes.get(key("a"))).toMatchObject({ status: "ok", more: false });
    await act(async () => queries[1]!.resolve());
    act(() => result.current.want([1]));
    expect(queries.map((q) => q.input.partitionValue)).toEqual([{ S: "a" }, { S: "c" }, { S: "b" }]);
    // Asking again for a box already read reads nothing.
    act(() => result.current.want([0]));
    expect(queries).toHaveLength(3);
  });

  it("lists and reads an index's run when grouped by it, and starts over, dropping late answers", async () => {
    const { source, queries, listings } = heldSource(["a", "b"]);
    let index: string | null = null;
    const { result, rerender } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", index }), { wrapper: commandsWrapper(source) });
    act(() => result.current.want([0]));
    await act(async () => listings[0]!.resolve());
    expect(queries).toHaveLength(1);
    index = "ByDepot";
    rerender();
    expect(result.current.total).toBeNull();
    expect(result.current.boxes.size).toBe(0);
    await act(async () => queries[0]!.resolve());
    // The table's late answer does not land in the index's run.
    expect(result.current.boxes.get(key("a"))).toBeUndefined();
    act(() => result.current.want([0]));
    expect(listings.at(-1)).toMatchObject({ index: "ByDepot", offset: 0 });
    await act(async () => listings.at(-1)!.resolve());
    expect(queries.at(-1)!.input).toMatchObject({ index: "ByDepot", partitionValue: { S: "a" } });
  });

  it("locates a collection from the listed pages, or asks the backend where it stands", async () => {
    const run = Array.from({ length: 30 }, (_, i) => `K${String(i).padStart(2, "0")}`);
    const { source, listings } = heldSource(run);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", listPage: 10 }), { wrapper: commandsWrapper(source) });
    act(() => result.current.want([0]));
    await act(async () => listings[0]!.resolve());
    await expect(result.current.locate({ S: "K04" })).resolves.toBe(4);
    expect(source.collectionPosition).not.toHaveBeenCalled();
    await expect(result.current.locate({ S: "K27" })).resolves.toBe(27);
    await expect(result.current.locate({ S: "nope" })).resolves.toBeNull();
    expect(source.collectionPosition).toHaveBeenCalledTimes(2);
  });

  it("reads a box of a multi-attribute GSI key with one equality per partition-key attribute", async () => {
    const keys: KeySchema = {
      partitionKey: { name: "tournament", type: "S" },
      morePartitionKeys: [{ name: "region", type: "S" }],
      sortKey: { name: "score", type: "N" },
    };
    const { source, queries } = heldSource([]);
    // The statistics name such a collection by the list of its partition-key values (rule B.18.3).
    source.collectionRange = (async (_p: string, table: string, index: string | null, offset: number) => ({
      status: "ok" as const,
      data: { table, index, offset, total: 1, collections: [{ partitionValue: { L: [{ S: "spring" }, { S: "eu" }] }, itemCount: 2, sizeBytes: 60, limitedSizeBytes: null }] },
    })) as unknown as CollectionsSource["collectionRange"];
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Scores", index: "ByRegion", keys }), { wrapper: commandsWrapper(source) });
    await act(async () => result.current.want([0]));
    expect(queries.map((q) => [q.input.index, q.input.partitionValue, q.input.morePartitionValues])).toEqual([["ByRegion", { S: "spring" }, [{ S: "eu" }]]]);
  });

  it("draws a box from the rows a statistics scan kept without counting a Query, and counts the Query of a box that was read", async () => {
    const { source, listings } = heldSource(["kept", "read"]);
    const read = 1_796_025_055;
    source.collectionPage = (async (_p: string, input: QueryInput) => {
      const kept = "S" in input.partitionValue && input.partitionValue.S === "kept";
      const page: QueryPage = {
        items: [{ vehicleId: input.partitionValue }],
        count: 1,
        scannedCount: 1,
        lastEvaluatedKey: null,
        consumedCapacity: kept ? null : { total: 0.5, table: 0.5, indexes: [] },
        stop: "end",
        ...(kept ? { keptFromScan: read } : {}),
      };
      return { status: "ok" as const, data: page };
    }) as unknown as CollectionsSource["collectionPage"];
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Fleet" }), { wrapper: commandsWrapper(source) });
    act(() => result.current.want([0, 1]));
    await act(async () => listings[0]!.resolve());
    expect(result.current.boxes.get(key("kept"))).toMatchObject({ status: "ok", keptFromScan: read, consumedUnits: null });
    expect(result.current.boxes.get(key("read"))).toMatchObject({ status: "ok", consumedUnits: 0.5 });
    expect(result.current.boxes.get(key("read"))).not.toHaveProperty("keptFromScan");
    // One Query was sent (the other box's rows cost nothing).
    expect(result.current.spent).toEqual({ queries: 1, units: 0.5 });
  });

  it("keeps the reads of at most `keptBoxes` boxes, forgetting those out of sight longest, and reads a forgotten box again when it comes back", async () => {
    const run = ["a", "b", "c", "d", "e", "f"];
    const { source, queries, listings } = heldSource(run);
    const { result } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", concurrency: 6, keptBoxes: 3 }), { wrapper: commandsWrapper(source) });
    act(() => result.current.want([0, 1]));
    await act(async () => listings[0]!.resolve());
    await act(async () => queries.forEach((q) => q.resolve()));
    act(() => result.current.want([2, 3]));
    await act(async () => queries.slice(2).forEach((q) => q.resolve()));
    // Four boxes read, three kept: a, out of sight longest, is forgotten; c and d are in sight.
    expect([...result.current.boxes.keys()].sort()).toEqual([key("b"), key("c"), key("d")]);
    act(() => result.current.want([4, 5]));
    await act(async () => queries.slice(4).forEach((q) => q.resolve()));
    // Boxes in sight are never forgotten, even past the bound.
    expect(result.current.boxes.get(key("e"))).toMatchObject({ status: "ok" });
    expect(result.current.boxes.get(key("f"))).toMatchObject({ status: "ok" });
    expect(result.current.boxes.size).toBe(3);
    // a comes back into sight: it is read again; f, still kept, is not.
    act(() => result.current.want([0, 5]));
    expect(queries.slice(6).map((q) => q.input.partitionValue)).toEqual([{ S: "a" }]);
    await act(async () => queries[6]!.resolve());
    expect(result.current.boxes.get(key("a"))).toMatchObject({ status: "ok" });
  });

  it("reads the listing and the boxes in sight again after a write, showing the old rows until the new come, forgetting boxes out of sight and dropping answers asked before", async () => {
    const { source, queries, listings } = heldSource(["a", "b", "c"]);
    // Each answer says which version of the table it read.
    let version = 1;
    const plain = source.collectionPage;
    source.collectionPage = ((p: string, input: QueryInput) => {
      const read = version;
      return (plain(p, input) as Promise<{ status: "ok"; data: QueryPage }>).then((answer) => ({
        ...answer,
        data: { ...answer.data, items: [{ vehicleId: input.partitionValue, v: { N: String(read) } }] },
      }));
    }) as unknown as CollectionsSource["collectionPage"];
    let written = 0;
    const { result, rerender } = renderHook(() => useCollections({ profileId: "p", table: "Telemetry", concurrency: 3, written }), {
      wrapper: commandsWrapper(source),
    });
    act(() => result.current.want([0, 1, 2]));
    await act(async () => listings[0]!.resolve());
    await act(async () => queries.slice(0, 2).forEach((q) => q.resolve()));
    // c's first read is still in flight when the user scrolls c away and writes.
    act(() => result.current.want([0, 1]));
    version = 2;
    written = 1;
    rerender();
    // The listing is asked again, and a and b (in sight) are read again; c is not.
    expect(listings.map((l) => l.offset)).toEqual([0, 0]);
    expect(queries.slice(3).map((q) => q.input.partitionValue)).toEqual([{ S: "a" }, { S: "b" }]);
    // Until the new answers come, the boxes show what they showed (no "loading" flash).
    expect(result.current.boxes.get(key("a"))).toMatchObject({ status: "ok", items: [{ v: { N: "1" } }] });
    // c's answer, asked before the write, is dropped: c is forgotten and read when it comes back.
    await act(async () => queries[2]!.resolve());
    expect(result.current.boxes.get(key("c"))).toBeUndefined();
    await act(async () => listings[1]!.resolve());
    await act(async () => queries.slice(3).forEach((q) => q.resolve()));
    expect(result.current.boxes.get(key("a"))).toMatchObject({ status: "ok", items: [{ v: { N: "2" } }] });
    expect(result.current.boxes.get(key("b"))).toMatchObject({ status: "ok", items: [{ v: { N: "2" } }] });
    act(() => result.current.want([2]));
    expect(queries.at(-1)!.input.partitionValue).toEqual({ S: "c" });
    await act(async () => queries.at(-1)!.resolve());
    expect(result.current.boxes.get(key("c"))).toMatchObject({ status: "ok", items: [{ v: { N: "2" } }] });
  });
});
