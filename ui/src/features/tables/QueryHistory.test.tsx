import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { describeQuery, QueryHistory } from "./QueryHistory";
import type { QueryInput, ReadRequest } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const window: QueryInput = {
  table: "Telemetry",
  index: null,
  partitionValue: { S: "VEH#V-7741" },
  sortCondition: { op: "between", low: { S: "TS#09:00" }, high: { S: "TS#09:59" } },
  scanIndexForward: false,
  limit: 25,
  consistentRead: false,
  projection: null,
  filter: null,
  filterNames: null,
  filterValues: null,
  exclusiveStartKey: null,
};

const builderScan: ReadRequest = {
  operation: "Scan",
  tableName: "Telemetry",
  indexName: null,
  keyCondition: null,
  filter: null,
  projection: null,
  direction: "ascending",
  limit: null,
  consistentRead: false,
  returnConsumedCapacity: null,
};

function source(): Partial<Commands> {
  return {
    queryHistory: vi.fn(async () => ({
      status: "ok" as const,
      data: [
        { id: 1, table: "Telemetry", request: { kind: "collection" as const, request: window }, ranAt: 1_700_000_000, itemCount: 25, capacityUnits: 0.5 },
        {
          id: 2,
          table: "Telemetry",
          request: { kind: "builder" as const, request: builderScan, summary: "Scan · filter speedKph >= 100" },
          ranAt: 1_700_000_100,
          itemCount: 3,
          capacityUnits: 1,
        },
      ],
    })),
  };
}

describe("QueryHistory", () => {
  it("describes a query in one line", () => {
    expect(describeQuery(window)).toBe("VEH#V-7741 BETWEEN TS#09:00 AND TS#09:59 · descending · Limit 25");
  });

  it("lists the backend's history of this table: runs a query again, loads a request of the bar back into it", async () => {
    const onRun = vi.fn();
    const onLoad = vi.fn();
    const fake = source();
    renderWithCommands(<QueryHistory profileId="embedded" table="Telemetry" refresh={0} onRun={onRun} onLoad={onLoad} />, fake);
    const recent = await screen.findByRole("list", { name: "Recent queries" });
    const entries = within(recent)
      .getAllByRole("listitem")
      .map((li) => [li.querySelector("button")?.textContent, li.querySelector(".history-meta")?.textContent?.split(" RCU")[0]]);
    // Each request, and under it what it returned; the query bar's with their expressions written out.
    expect(entries).toEqual([
      ["VEH#V-7741 BETWEEN TS#09:00 AND TS#09:59 · descending · Limit 25", "25 items · 0.5"],
      ["Scan · filter speedKph >= 100", "3 items · 1"],
    ]);
    const [collection, builder] = within(recent).getAllByRole("button");
    fireEvent.click(collection!);
    expect(onRun).toHaveBeenCalledWith(window);
    fireEvent.click(builder!);
    expect(onLoad).toHaveBeenCalledWith(builderScan);
    expect(fake.queryHistory).toHaveBeenCalledWith("embedded", "Telemetry");
  });
});
