import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, waitFor } from "@testing-library/react";
import { CollectionCard } from "./CollectionCard";
import { renderWithCommands } from "../../ipc/testCommands";
import type { AttributeValue, CollectionStat, CollectionStats, TableDescription } from "../../ipc/bindings.gen";
import { telemetry } from "../builder/fixtures";

afterEach(cleanup);

const v7741: CollectionStat = { partitionValue: { S: "VEH#V-7741" }, itemCount: 1441, sizeBytes: 133_375, limitedSizeBytes: null };

function stats(over: Partial<CollectionStats> = {}): CollectionStats {
  return {
    table: "Telemetry",
    index: null,
    distinctPartitionKeys: 300,
    itemCount: 10_710,
    sizeBytes: 988_741,
    collections: [v7741, { partitionValue: { S: "VEH#V-100" }, itemCount: 36, sizeBytes: 3400, limitedSizeBytes: null }],
    collectionSizeLimit: null,
    gatheredAt: null,
    ...over,
  };
}

function source(statsOf: CollectionStats, stat: CollectionStat | null = v7741) {
  return {
    collectionStats: vi.fn(async () => ({ status: "ok" as const, data: statsOf })),
    collectionPosition: vi.fn(async () => ({ status: "ok" as const, data: stat === null ? null : 251 })),
    collectionRange: vi.fn(async () => ({
      status: "ok" as const,
      data: { table: statsOf.table, index: statsOf.index, offset: 251, total: 300, collections: stat === null ? [] : [stat] },
    })),
  };
}

const value: AttributeValue = { S: "VEH#V-7741" };

describe("CollectionCard", () => {
  it("gives the collection's items, size, share of the table and rank, and says why there is no size limit without an LSI", async () => {
    const fake = source(stats());
    renderWithCommands(<CollectionCard profileId="embedded" table={telemetry} index={null} value={value} />, fake);
    await waitFor(() => expect(screen.getByTestId("collection-card-size").textContent).toBe("1,441 items · 130 KB"));
    expect(screen.getByTestId("collection-card-share").textContent).toBe("share of Telemetry13.5 %");
    expect(screen.getByTestId("collection-card-rank").textContent).toBe("the largest of 300 collections by size");
    expect(screen.getByTestId("collection-card-limit").textContent).toBe("No LSI on Telemetry: no 10 GB limit on a collection's size.");
    expect(fake.collectionPosition).toHaveBeenCalledWith("embedded", "Telemetry", null, value);
    expect(fake.collectionRange).toHaveBeenCalledWith("embedded", "Telemetry", null, 251, 1);
  });

  it("measures an LSI read against the table's collection and the 10 GB limit", async () => {
    const withLsi: TableDescription = {
      ...telemetry,
      indexes: [...telemetry.indexes, { ...telemetry.indexes[0]!, name: "BySpeed", kind: "local", keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "speedKph", type: "N" } } }],
    };
    const limited = { ...v7741, limitedSizeBytes: 8.6 * 1024 ** 3 };
    const fake = source(stats({ collectionSizeLimit: 10 * 1024 ** 3, collections: [limited] }), limited);
    renderWithCommands(<CollectionCard profileId="embedded" table={withLsi} index="BySpeed" value={value} />, fake);
    await waitFor(() => expect(screen.getByTestId("collection-card-limit").textContent).toContain("of the 10 GB item-collection limit (86.0 %)"));
    const gauge = screen.getByRole("meter", { name: "Item-collection size limit" });
    expect(Number(gauge.getAttribute("value"))).toBe(8.6 * 1024 ** 3);
    // The table's statistics: an LSI's collection is the table's.
    expect(fake.collectionStats).toHaveBeenCalledWith("embedded", "Telemetry", null);
  });

  it("says a GSI's collections have no size limit, and measures the share against the index", async () => {
    const fake = source(stats({ index: "ByDepot", distinctPartitionKeys: 4 }), { ...v7741, partitionValue: { S: "DEP-LON-3" } });
    renderWithCommands(<CollectionCard profileId="embedded" table={telemetry} index="ByDepot" value={{ S: "DEP-LON-3" }} />, fake);
    await waitFor(() => expect(screen.getByTestId("collection-card-limit").textContent).toContain("A GSI's collections have no size limit"));
    expect(screen.getByTestId("collection-card-share").textContent).toContain("share of GSI ByDepot");
    expect(screen.queryByTestId("collection-card-rank")).toBeNull();
    expect(fake.collectionStats).toHaveBeenCalledWith("embedded", "Telemetry", "ByDepot");
  });

  it("is not drawn when there is no such collection, or no statistics yet", async () => {
    const none = source(stats(), null);
    const { container } = renderWithCommands(<CollectionCard profileId="embedded" table={telemetry} index={null} value={{ S: "VEH#V-0000" }} />, none);
    await waitFor(() => expect(none.collectionPosition).toHaveBeenCalled());
    await waitFor(() => expect(container.querySelector('[data-testid="collection-card"]')).toBeNull());
    cleanup();
    const missing = {
      ...source(stats()),
      collectionStats: vi.fn(async () => ({ status: "error" as const, error: { code: "NOT_FOUND" as const, message: "No statistics yet.", exception: null } })),
    };
    const second = renderWithCommands(<CollectionCard profileId="aws" table={telemetry} index={null} value={value} />, missing);
    await waitFor(() => expect(missing.collectionStats).toHaveBeenCalled());
    await waitFor(() => expect(second.container.querySelector('[data-testid="collection-card"]')).toBeNull());
  });
});
