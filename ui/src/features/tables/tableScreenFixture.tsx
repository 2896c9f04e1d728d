/** What the table screen's tests share: the Telemetry table, a fake backend for it, and the screen drawn on it. */
import { afterAll, beforeAll, vi } from "vitest";
import { screen } from "@testing-library/react";
import { TableScreen } from "./TableScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import { CapacityProvider } from "../../app/capacity";
import type { AttributeValue, Profile, QueryInput, QueryPage, SortKeyOperator, TableDescription } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import type { Channel } from "@tauri-apps/api/core";
import type { BulkProgress } from "../../ipc/bindings.gen";
import { fakeBuild, pagedRun } from "../query/fakeQuerySource";

export const embedded: Profile = { id: "embedded", name: "Embedded", color: "#4f7cff", region: "local", readOnly: false, connection: { kind: "embedded" } };

export const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [
    { name: "vehicleId", type: "S" },
    { name: "recordedAt", type: "S" },
  ],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10410,
  sizeBytes: 1_000_000,
  indexes: [],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};

export const reading = (minute: number): Item => ({
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: `TS#2025-03-14T09:${String(minute).padStart(2, "0")}:00Z` },
  speedKph: { N: String(40 + minute) },
});

/** A page of VEH#V-7741's readings: two, then one. */
export const pageOf = async (_profile: string, input: QueryInput) => {
  const first = input.exclusiveStartKey === null;
  const page: QueryPage = {
    items: first ? [reading(9), reading(8)] : [reading(7)],
    count: first ? 2 : 1,
    scannedCount: first ? 2 : 1,
    lastEvaluatedKey: first ? { vehicleId: { S: "VEH#V-7741" }, recordedAt: reading(8).recordedAt! } : null,
    consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
    stop: first ? "limit" : "end",
  };
  return { status: "ok" as const, data: page };
};

export function source(overrides: Partial<Commands> = {}) {
  return {
    describeTable: vi.fn(async () => ({ status: "ok" as const, data: telemetry })),
    // The partition-key field's completion of a typed start: the two collections.
    collectionsFrom: vi.fn(async (_p: string, table: string, index: string | null) => ({
      status: "ok" as const,
      data: {
        table,
        index,
        offset: 0,
        total: 2,
        collections: [
          { partitionValue: { S: "VEH#V-1007" }, itemCount: 31, sizeBytes: 10_000, limitedSizeBytes: null },
          { partitionValue: { S: "VEH#V-7741" }, itemCount: 1441, sizeBytes: 140_000, limitedSizeBytes: null },
        ],
      },
    })),
    collectionStats: vi.fn(async () => ({
      status: "ok" as const,
      data: {
        table: "Telemetry",
        index: null,
        distinctPartitionKeys: 2,
        itemCount: 1441,
        sizeBytes: 150_000,
        collections: [
          { partitionValue: { S: "VEH#V-7741" }, itemCount: 1441, sizeBytes: 140_000, limitedSizeBytes: null },
          { partitionValue: { S: "VEH#V-1007" }, itemCount: 31, sizeBytes: 10_000, limitedSizeBytes: null },
        ],
        collectionSizeLimit: null,
        gatheredAt: null,
      },
    })),
    // The engine's key-ordered run of the same two collections.
    collectionRange: vi.fn(async (_p: string, table: string, index: string | null, offset: number, limit: number) => {
      const run = [
        { partitionValue: { S: "VEH#V-1007" }, itemCount: 31, sizeBytes: 10_000, limitedSizeBytes: null },
        { partitionValue: { S: "VEH#V-7741" }, itemCount: 1441, sizeBytes: 140_000, limitedSizeBytes: null },
      ];
      return { status: "ok" as const, data: { table, index, offset, total: run.length, collections: run.slice(offset, offset + limit) } };
    }),
    collectionPosition: vi.fn(async (_p: string, _t: string, _i: string | null, value: AttributeValue) => ({
      status: "ok" as const,
      data: "S" in value ? ["VEH#V-1007", "VEH#V-7741"].indexOf(value.S) : null,
    })),
    query: vi.fn(pageOf),
    // The Collections view's box reads: the same pages, kept out of the history.
    collectionPage: vi.fn(pageOf),
    buildReadRequest: vi.fn(fakeBuild),
    sortKeyOperators: vi.fn(async () => ["=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"] as SortKeyOperator[]),
    runReadRequest: pagedRun(
      {
        items: [reading(9), reading(8)],
        count: 2,
        scannedCount: 2,
        lastEvaluatedKey: { vehicleId: { S: "VEH#V-7741" }, recordedAt: reading(8).recordedAt! },
        consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
        stop: "limit",
      },
      { items: [reading(7)], count: 1, scannedCount: 1, lastEvaluatedKey: null, consumedCapacity: { total: 0.5, table: 0.5, indexes: [] }, stop: "end" },
    ),
    putItem: vi.fn(async () => ({ status: "ok" as const, data: { consumedCapacity: { total: 1, table: 1, indexes: [] } } })),
    deleteItem: vi.fn(async () => ({ status: "ok" as const, data: { consumedCapacity: { total: 1, table: 1, indexes: [] } } })),
    checkItem: vi.fn(async () => ({ status: "ok" as const, data: { sizeBytes: 80, limitBytes: 409600, problems: [] } })),
    scan: vi.fn(),
    cancelOperation: vi.fn(),
    chooseFile: vi.fn(),
    confirmDeleteTable: vi.fn(),
    deleteTable: vi.fn(),
    changeTable: vi.fn(),
    tableTags: vi.fn(async () => ({ status: "ok" as const, data: [] })),
    statisticsScanCost: vi.fn(async () => ({
      status: "ok" as const,
      data: { tableBytes: 1_048_576, itemCount: 10410, pages: 1, readUnits: 128, explanation: "half a read unit per 4 KB" },
    })),
    gatherStatistics: vi.fn(),
    estimateWrite: vi.fn(async () => ({
      status: "ok" as const,
      data: {
        cost: { total: 1, table: 1, indexes: [], exact: true, lines: [{ rule: "B.3", text: "one 1 KB block" }] },
        beforeBytes: 80,
        afterBytes: 80,
        tableUnits: 1,
        indexes: [],
      },
    })),
    exportItems: vi.fn(),
    queryHistory: vi.fn(),
    savedQueries: vi.fn(),
    saveQuery: vi.fn(),
    deleteSavedQuery: vi.fn(),
    importItems: vi.fn(),
    estimateImportFile: vi.fn(),
    reconcileWrite: vi.fn(async () => ({
      status: "ok" as const,
      data: { rows: [{ target: "Total", estimated: 1, actual: 1, difference: 0 }], matches: true, lines: [] },
    })),
    // The views' own calls (cost, indexes, builder): left pending, these tests are about the screen.
    ...Object.fromEntries(
      [
        "estimateExport",
        "estimateQuery",
        "reconcileQuery",
        "defaultPrices",
        "monthlyCost",
        "hotPartitions",
        "indexesSideBySide",
        "generateExpression",
        "parseExpressions",
        "checkExpressions",
        "exportCode",
        "saveExpression",
        "savedExpressions",
        "deleteSavedExpression",
        "streamInfo",
        "tailStream",
        "controlStreamTail",
        "ttlOverview",
        "expiringItems",
        "sweepExpired",
        "bulkDryRun",
        "bulkCommit",
        "bulkUndo",
        "tableSimulations",
        "setSimulations",
      ].map((name) => [name, vi.fn(() => new Promise(() => {}))]),
    ),
    ...overrides,
  } as Commands;
}


/** jsdom lays nothing out: the Collections view's run gets a 600 px viewport, each box 200 px. */
export function layOutCollections(): void {
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("collections-run") ? 600 : 0;
    },
  });
  Object.defineProperty(HTMLElement.prototype, "offsetHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("collections-slot") ? 200 : 0;
    },
  });
});
afterAll(() => {
  for (const name of ["clientHeight", "offsetHeight"]) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name];
});
}

export const openButton = () => screen.findByRole("button", { name: "Open vehicleId = VEH#V-7741 in Items" });

export function renderScreen(fake: Commands, profile = embedded, clipboard?: { writeText: (text: string) => Promise<void> }) {
  return renderWithCommands(
    <CapacityProvider>
      <TableScreen profile={profile} tableName="Telemetry" clipboard={clipboard} makeBulkChannel={() => ({}) as Channel<BulkProgress>} />
    </CapacityProvider>,
    fake,
  );
}

