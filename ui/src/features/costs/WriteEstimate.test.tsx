import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { WriteEstimate } from "./WriteEstimate";
import type { WriteEstimate as Data, WriteEstimateInput } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const reading = { vehicleId: { S: "VEH#T-1" }, recordedAt: { S: "TS#1" }, depotCode: { S: "DEP-N" } };

function estimate(input: WriteEstimateInput): Data {
  const table = input.conditionFails ? 2 : input.mode === "transactional" ? 4 : 2;
  const gsi = input.conditionFails ? 0 : 2;
  return {
    cost: { total: table + gsi, table, indexes: [{ name: "ByDepot", kind: "global", units: gsi }], exact: true, lines: [{ rule: "B.3", text: `mode ${input.mode}` }] },
    beforeBytes: null,
    afterBytes: 1600,
    tableUnits: table,
    indexes: [
      {
        name: "ByDepot",
        kind: "global",
        writes: input.conditionFails ? 0 : 1,
        entryBeforeBytes: null,
        entryAfterBytes: 1600,
        capacityUnits: gsi,
        chargedToTable: false,
        reason: { rule: "B.3", text: "the entry appears: one write of its size" },
      },
    ],
  };
}

function source(sizes: Pick<Data, "beforeBytes" | "afterBytes"> | null = null): Partial<Commands> {
  return {
    estimateWrite: vi.fn(async (_p: string, _t: string, input: WriteEstimateInput) => ({ status: "ok" as const, data: { ...estimate(input), ...sizes } })),
    reconcileWrite: vi.fn(async () => ({
      status: "ok" as const,
      data: { rows: [{ target: "Total", estimated: 4, actual: 4, difference: 0 }], matches: true, lines: [] },
    })),
  };
}

describe("WriteEstimate", () => {
  it("shows the table's units, each index's writes and why", async () => {
    const fake = source();
    renderWithCommands(<WriteEstimate profileId="embedded" table="Telemetry" write={{ kind: "put", existing: null, newItem: reading }} />, fake);
    expect((await screen.findByTestId("write-total")).textContent).toContain("4 WCU");
    const row = screen.getByTestId("index-write-ByDepot");
    expect(row.textContent).toContain("GSI");
    expect(row.textContent).toContain("the entry appears");
    expect(fake.estimateWrite).toHaveBeenCalledWith("embedded", "Telemetry", { kind: "put", existing: null, newItem: reading, mode: "single", conditionFails: false });
  });

  it("says the table's part in words: its units and the item they are for, sized", async () => {
    const cases: [WriteEstimateInput["kind"], Pick<Data, "beforeBytes" | "afterBytes">, string][] = [
      ["put", { beforeBytes: null, afterBytes: 24 }, " · 2 WCU on the table, for a new item of 24 B"],
      ["put", { beforeBytes: 1200, afterBytes: 1600 }, " · 2 WCU on the table, for an item of 1.2 KB replaced by one of 1.6 KB"],
      ["update", { beforeBytes: 1200, afterBytes: 1600 }, " · 2 WCU on the table, for an item of 1.2 KB that becomes 1.6 KB"],
      ["delete", { beforeBytes: 1200, afterBytes: null }, " · 2 WCU on the table, for deleting an item of 1.2 KB"],
    ];
    for (const [kind, sizes, line] of cases) {
      const write = { kind, existing: sizes.beforeBytes === null ? null : reading, newItem: kind === "delete" ? null : reading };
      renderWithCommands(<WriteEstimate profileId="embedded" table="Telemetry" write={write} />, source(sizes));
      expect((await screen.findByTestId("write-table")).textContent, kind).toBe(line);
      expect(document.body.textContent).not.toContain("none");
      cleanup();
    }
  });

  it("says an index entry the item does not have in words", async () => {
    renderWithCommands(<WriteEstimate profileId="embedded" table="Telemetry" write={{ kind: "put", existing: null, newItem: reading }} />, source());
    const row = await screen.findByTestId("index-write-ByDepot");
    expect(row.textContent).toContain("no entry → 1.6 KB");
  });

  it("shows nothing without a write", () => {
    const fake = source();
    renderWithCommands(<WriteEstimate profileId="embedded" table="Telemetry" write={null} />, fake);
    expect(screen.queryByRole("region", { name: "Write cost" })).toBeNull();
    expect(fake.estimateWrite).not.toHaveBeenCalled();
  });

  it("estimates again sent in a transaction and when the condition fails", async () => {
    const fake = source();
    renderWithCommands(<WriteEstimate profileId="embedded" table="Telemetry" write={{ kind: "put", existing: null, newItem: reading }} />, fake);
    await screen.findByTestId("write-total");
    fireEvent.change(screen.getByLabelText(/Sent as/), { target: { value: "transactional" } });
    await waitFor(() => expect(screen.getByTestId("write-total").textContent).toContain("6 WCU"));
    fireEvent.click(screen.getByLabelText(/If its condition fails/));
    await waitFor(() => expect(screen.getByTestId("write-total").textContent).toContain("2 WCU"));
    expect(fake.estimateWrite).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ mode: "transactional", conditionFails: true }));
  });

  it("offers no batch for an update, and reconciles with what the write reported", async () => {
    const fake = source();
    renderWithCommands(
      <WriteEstimate
        profileId="embedded"
        table="Telemetry"
        write={{ kind: "update", existing: reading, newItem: reading }}
        actual={{ total: 4, table: 2, indexes: [{ name: "ByDepot", units: 2 }] }}
      />,
      fake,
    );
    const options = [...(screen.getByLabelText(/Sent as/) as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(["single", "transactional"]);
    expect(await screen.findByText("The reported capacity equals the estimate.")).not.toBeNull();
    expect(fake.reconcileWrite).toHaveBeenCalledWith(
      "embedded",
      "Telemetry",
      { kind: "update", existing: reading, newItem: reading, mode: "single", conditionFails: false },
      { total: 4, table: 2, indexes: [{ name: "ByDepot", units: 2 }] },
    );
  });
});
