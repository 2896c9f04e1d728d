import { describe, expect, it, vi } from "vitest";
import { renderHook, waitFor } from "@testing-library/react";
import type { CollectionStats } from "../../ipc/bindings.gen";
import { useKeySuggestions } from "./useKeySuggestions";
import type { Commands } from "../../ipc/CommandsContext";
import { commandsWrapper } from "../../ipc/testCommands";

function stats(index: string | null, values: string[]): CollectionStats {
  return {
    table: "Telemetry",
    index,
    distinctPartitionKeys: values.length,
    itemCount: values.length,
    sizeBytes: 100 * values.length,
    collections: values.map((v) => ({ partitionValue: { S: v }, itemCount: 1, sizeBytes: 100, limitedSizeBytes: null })),
    collectionSizeLimit: null,
    gatheredAt: null,
  };
}

describe("useKeySuggestions", () => {
  it("offers the table's largest collections, and an index's own when the bar reads the index", async () => {
    const source: Partial<Commands> = {
      collectionStats: vi.fn(async (_p: string, _t: string, index: string | null) => ({
        status: "ok" as const,
        data: stats(index, ["DEPOT#Leeds", "DEPOT#Turin"]),
      })),
    };
    const table = stats(null, ["VEH#V-7741", "VEH#V-100"]);
    const { result, rerender } = renderHook(({ index }: { index: string | null }) =>
      useKeySuggestions({ profileId: "embedded", table: "Telemetry", index, tableStats: table }), { wrapper: commandsWrapper(source), initialProps: { index: null as string | null } });
    expect(result.current).toEqual([{ S: "VEH#V-7741" }, { S: "VEH#V-100" }]);
    expect(source.collectionStats).not.toHaveBeenCalled();
    rerender({ index: "ByDepot" });
    // Nothing from the table while the index's values load: they are another key's values.
    expect(result.current).toEqual([]);
    await waitFor(() => expect(result.current).toEqual([{ S: "DEPOT#Leeds" }, { S: "DEPOT#Turin" }]));
    expect(source.collectionStats).toHaveBeenCalledWith("embedded", "Telemetry", "ByDepot");
  });

  it("offers nothing for an index whose statistics cannot be had", async () => {
    const source: Partial<Commands> = {
      collectionStats: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "NOT_FOUND" as const, message: "No statistics of the index ByDepot yet", exception: null },
      })),
    };
    const { result } = renderHook(() =>
      useKeySuggestions({ profileId: "aws", table: "Telemetry", index: "ByDepot", tableStats: null }), { wrapper: commandsWrapper(source) });
    await waitFor(() => expect(source.collectionStats).toHaveBeenCalled());
    expect(result.current).toEqual([]);
  });

  it("completes a typed start of a string key from anywhere in the run, in key order, not only the largest", async () => {
    // The run from the first key at or after "VEH#V-2": those that start with it, then the next.
    const run = ["VEH#V-2000", "VEH#V-2001", "VEH#V-2999", "VEH#V-3000"];
    const source: Partial<Commands> = {
      collectionsFrom: vi.fn(async (_p: string, table: string, index: string | null) => ({
        status: "ok" as const,
        data: { table, index, offset: 12, total: 40, collections: run.map((v) => ({ partitionValue: { S: v }, itemCount: 1, sizeBytes: 100, limitedSizeBytes: null })) },
      })),
    };
    const table = stats(null, ["VEH#V-7741", "VEH#V-1000"]);
    const { result, rerender } = renderHook(({ typed }: { typed: string }) =>
      useKeySuggestions({ profileId: "embedded", table: "Telemetry", index: null, tableStats: table, typed, stringKey: true }), {
      wrapper: commandsWrapper(source),
      initialProps: { typed: "" },
    });
    expect(result.current).toEqual([{ S: "VEH#V-7741" }, { S: "VEH#V-1000" }]);
    rerender({ typed: "VEH#V-2" });
    await waitFor(() => expect(result.current).toEqual([{ S: "VEH#V-2000" }, { S: "VEH#V-2001" }, { S: "VEH#V-2999" }]));
    expect(source.collectionsFrom).toHaveBeenCalledWith("embedded", "Telemetry", null, { S: "VEH#V-2" }, 50);
    // Cleared: the largest again, with no call.
    rerender({ typed: "" });
    await waitFor(() => expect(result.current).toEqual([{ S: "VEH#V-7741" }, { S: "VEH#V-1000" }]));
    expect(source.collectionsFrom).toHaveBeenCalledTimes(1);
  });

  it("does not complete a number key by its digits", async () => {
    const source: Partial<Commands> = { collectionsFrom: vi.fn() };
    const table = stats(null, ["VEH#V-7741"]);
    const { result } = renderHook(() =>
      useKeySuggestions({ profileId: "embedded", table: "Telemetry", index: null, tableStats: table, typed: "12", stringKey: false }), { wrapper: commandsWrapper(source) });
    await new Promise((r) => setTimeout(r, 200));
    expect(source.collectionsFrom).not.toHaveBeenCalled();
    expect(result.current).toEqual([{ S: "VEH#V-7741" }]);
  });
});
