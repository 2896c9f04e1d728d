import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import type { BulkPlan, BulkProgress, BulkReport } from "../../ipc/bindings.gen";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { BulkPanel } from "./BulkPanel";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "trip", type: "N" } };
const item = (i: number): Item => ({ vehicleId: { S: "VEH#1" }, trip: { N: String(i) }, status: { S: "open" } });
const items = [item(1), item(2)];

const plan: BulkPlan = {
  changes: items.map((it) => ({
    key: { vehicleId: it.vehicleId!, trip: it.trip! },
    before: it,
    after: { ...it, status: { S: "closed" } },
    changed: ["status"],
    estimate: {
      cost: { total: 2, table: 1, indexes: [], exact: true, lines: [] },
      beforeBytes: 30,
      afterBytes: 32,
      tableUnits: 1,
      indexes: [
        {
          name: "ByStatus",
          kind: "global",
          writes: 2,
          entryBeforeBytes: 20,
          entryAfterBytes: 22,
          capacityUnits: 1,
          chargedToTable: false,
          reason: { rule: "B.3", text: "the key changed" },
        },
      ],
    },
  })),
  totalUnits: 4,
  requests: 2,
} as unknown as BulkPlan;

const report = (over: Partial<BulkReport> = {}): BulkReport => ({
  total: 2,
  written: 1,
  failures: [{ key: { vehicleId: { S: "VEH#1" }, trip: { N: "2" } }, exception: "ConditionalCheckFailedException", message: "The conditional request failed" }],
  cancelled: false,
  consumedUnits: 1,
  undoable: 1,
  ...over,
});

function source(): Partial<Commands> {
  return {
    bulkDryRun: vi.fn(async () => ({ status: "ok" as const, data: plan })),
    bulkCommit: vi.fn(async () => ({ status: "ok" as const, data: report() })),
    bulkUndo: vi.fn(async () => ({ status: "ok" as const, data: report({ written: 1, failures: [], undoable: 0, total: 1 }) })),
    cancelOperation: vi.fn(async () => true),
  } as unknown as Commands;
}

const channel = () => ({}) as Channel<BulkProgress>;

describe("BulkPanel", () => {
  it("stages a SET and REMOVE, lists the dry run's changes and costs, commits, reports failures and undoes", async () => {
    const fake = source();
    const onWritten = vi.fn();
    renderWithCommands(<BulkPanel profileId="p" table="Trips" keys={keys} items={items} readOnly={false} makeChannel={channel} onWritten={onWritten} />, fake);
    expect((screen.getByRole("button", { name: "Commit" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole("textbox", { name: "SET attribute 1" }), { target: { value: "status" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Value of SET attribute 1" }), { target: { value: "closed" } });
    fireEvent.change(screen.getByRole("textbox", { name: "REMOVE attributes" }), { target: { value: "note" } });
    fireEvent.click(screen.getByRole("checkbox", { name: /All or nothing/ }));
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(screen.getAllByTestId("bulk-change")).toHaveLength(2));
    const edit = { kind: "update", set: { status: { S: "closed" } }, remove: ["note"] };
    expect(fake.bulkDryRun).toHaveBeenCalledWith("p", "Trips", items, edit, "allOrNothing");
    expect(screen.getByTestId("bulk-plan-summary").textContent).toBe("2 changes in 2 requests: 4 WCU, index writes included.");
    expect(screen.getAllByTestId("bulk-change")[0]!.textContent).toBe("vehicleId = VEH#1, trip = 1status2ByStatus: 2");
    fireEvent.click(screen.getByRole("button", { name: "Commit" }));
    await waitFor(() => expect(screen.getByTestId("bulk-report").textContent).toBe("Committed: 1 of 2 written, 1 WCU consumed, 1 failed."));
    const call = (fake.bulkCommit as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(call.slice(0, 2)).toEqual(["p", "Trips"]);
    expect(call.slice(3, 6)).toEqual([items, edit, "allOrNothing"]);
    expect(screen.getByRole("list", { name: "Failures" }).textContent).toBe(
      "vehicleId = VEH#1, trip = 2: ConditionalCheckFailedException The conditional request failed",
    );
    expect(onWritten).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Undo the last commit" }));
    await waitFor(() => expect(screen.getByTestId("bulk-report").textContent).toBe("Undone: 1 of 1 written, 1 WCU consumed."));
    expect((screen.getByRole("button", { name: "Undo the last commit" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says what is wrong with the staged edit before anything is asked", async () => {
    const fake = source();
    renderWithCommands(<BulkPanel profileId="p" table="Trips" keys={keys} items={items} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.change(screen.getByRole("textbox", { name: "SET attribute 1" }), { target: { value: "odometer" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Type of SET attribute 1" }), { target: { value: "N" } });
    fireEvent.change(screen.getByRole("textbox", { name: "Value of SET attribute 1" }), { target: { value: "lots" } });
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    expect((await screen.findByTestId("bulk-problem")).textContent).toBe('odometer: "lots" is not a number.');
    expect(fake.bulkDryRun).not.toHaveBeenCalled();
  });

  it("stages a delete and, on a read-only connection, offers no commit", async () => {
    const fake = source();
    renderWithCommands(<BulkPanel profileId="p" table="Trips" keys={keys} items={items} readOnly={true} makeChannel={channel} />, fake);
    fireEvent.click(within(screen.getByRole("radiogroup", { name: "Change" })).getByRole("radio", { name: "Delete" }));
    fireEvent.click(screen.getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(fake.bulkDryRun).toHaveBeenCalledWith("p", "Trips", items, { kind: "delete" }, "batches"));
    expect((screen.getByRole("button", { name: "Commit" }) as HTMLButtonElement).disabled).toBe(true);
  });
});
