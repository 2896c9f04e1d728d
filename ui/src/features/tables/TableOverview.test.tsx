import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { TableOverview } from "./TableOverview";
import type { TableDescription } from "../../ipc/bindings.gen";
import { formatBytes, formatUnits } from "../../shared/format";

const telemetry: TableDescription = {
  name: "Telemetry",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [
    { name: "vehicleId", type: "S" },
    { name: "recordedAt", type: "S" },
    { name: "depotCode", type: "S" },
  ],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10410,
  sizeBytes: 1_572_864,
  indexes: [
    {
      name: "ByDepot",
      kind: "global",
      keys: { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
      projection: { type: "INCLUDE", attributes: ["speedKph", "fuelPct"] },
      itemCount: 7800,
      sizeBytes: 1000,
      status: "ACTIVE", backfilling: null,
    },
  ],
  streamViewType: "NEW_AND_OLD_IMAGES",
  ttlAttribute: null,
  createdAt: null,
  arn: null,
};

afterEach(cleanup);

describe("TableOverview", () => {
  it("shows keys, counts, billing, stream, TTL and each index with its projection", () => {
    render(<TableOverview table={telemetry} />);
    expect(screen.getByTestId("table-keys").textContent).toBe("vehicleId (S, partition) + recordedAt (S, sort)");
    expect(screen.getByTestId("table-count").textContent).toBe("10,410 items · 1.5 MB");
    expect(screen.getByText("On-demand (PAY_PER_REQUEST)")).toBeTruthy();
    expect(screen.getByText("On · NEW_AND_OLD_IMAGES")).toBeTruthy();
    const index = screen.getByTestId("index-ByDepot");
    expect(index.textContent).toContain("GSI");
    expect(index.textContent).toContain("Keys and speedKph, fuelPct (INCLUDE)");
    expect(index.textContent).toContain("7,800");
  });

  it("says a single item in the singular", () => {
    render(<TableOverview table={{ ...telemetry, itemCount: 1, sizeBytes: 96 }} />);
    expect(screen.getByTestId("table-count").textContent).toBe("1 item · 96 B");
  });

  it("says when there is no index", () => {
    render(<TableOverview table={{ ...telemetry, indexes: [] }} />);
    expect(screen.getByText("No secondary indexes.")).toBeTruthy();
  });
});

describe("formatting", () => {
  it("counts bytes in 1,024s and keeps half capacity units", () => {
    expect(formatBytes(1023)).toBe("1,023 B");
    expect(formatBytes(2048)).toBe("2.0 KB");
    expect(formatBytes(400 * 1024)).toBe("400 KB");
    expect(formatUnits(2.5)).toBe("2.5");
    expect(formatUnits(128.5)).toBe("128.5");
    expect(formatUnits(1 / 3)).toBe("0.33");
  });
});
