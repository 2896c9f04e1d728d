import { afterEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { ItemDialog, type Editing } from "./ItemDialog";
import { renderWithCommands } from "../../ipc/testCommands";
import type { KeySchema, WriteEstimate, WriteEstimateInput } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { tabbables } from "../../shared/useModalDialog";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const reading: Item = { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:09:00Z" }, speedKph: { N: "49" } };

/** A row that opens the dialog (as a double-click in the Items view does), and the dialog. */
function Host({ start }: { start: Editing }) {
  const [editing, setEditing] = useState<Editing | null>(null);
  return (
    <>
      <div role="row" tabIndex={0} data-testid="row" onDoubleClick={() => setEditing(start)}>
        VEH#V-7741
      </div>
      {editing !== null && (
        <ItemDialog
          editing={editing}
          profileId="embedded"
          table="Telemetry"
          keys={keys}
          readOnly={false}
          clipboard={undefined}
          validate={async () => ({ sizeBytes: 80, problems: [] })}
          saving={false}
          saveError={null}
          onSave={vi.fn()}
          onRemove={vi.fn()}
          onEdit={setEditing}
          onDuplicate={(item) => setEditing({ kind: "create", template: item, duplicateOf: item })}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

function open(
  start: Editing = { kind: "edit", original: reading },
  // The estimate is asked of the backend and, unless a test says otherwise, never answers: the dialog's keys are the subject.
  estimateWrite: (...args: [string, string, WriteEstimateInput]) => Promise<unknown> = vi.fn(() => new Promise<never>(() => {})),
) {
  renderWithCommands(<Host start={start} />, { estimateWrite } as never);
  const row = screen.getByTestId("row");
  row.focus();
  fireEvent.doubleClick(row);
  return { row, dialog: screen.getByRole("dialog", { name: "Item editor" }) };
}

describe("ItemDialog", () => {
  it("takes the focus as it opens and keeps Tab inside it", () => {
    const { dialog } = open();
    const stops = tabbables(dialog);
    expect(stops.length).toBeGreaterThan(2);
    // The first control of the dialog has the focus.
    expect(document.activeElement).toBe(stops[0]);
    // From the last control Tab goes round to the first; from the first Shift+Tab to the last.
    stops[stops.length - 1]!.focus();
    fireEvent.keyDown(document.activeElement!, { key: "Tab" });
    expect(document.activeElement).toBe(stops[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(stops[stops.length - 1]);
  });

  it("closes on Escape with nothing changed, and gives the focus back to the row that opened it", () => {
    const { row } = open();
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(row);
  });

  it("asks before Escape throws away edits", () => {
    const { row, dialog } = open();
    const speed = within(dialog).getByLabelText("Value of speedKph");
    speed.focus();
    fireEvent.change(speed, { target: { value: "50" } });
    fireEvent.keyDown(speed, { key: "Escape" });
    const ask = within(dialog).getByRole("alertdialog");
    expect(ask.textContent).toContain("Discard your changes to item vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:09:00Z?");
    // Back (or Escape again) keeps the edits, where they were.
    fireEvent.click(within(ask).getByRole("button", { name: "Back" }));
    expect(within(dialog).queryByRole("alertdialog")).toBeNull();
    expect((within(dialog).getByLabelText("Value of speedKph") as HTMLInputElement).value).toBe("50");
    expect(document.activeElement).toBe(within(dialog).getByLabelText("Value of speedKph"));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.getByRole("dialog", { name: "Item editor" })).toBeTruthy();
    expect(within(dialog).queryByRole("alertdialog")).toBeNull();
    // Changed back to what it was: nothing to lose, nothing asked.
    fireEvent.change(within(dialog).getByLabelText("Value of speedKph"), { target: { value: "49" } });
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(row);
  });

  it("discards the edits when told to", () => {
    const { row, dialog } = open();
    fireEvent.change(within(dialog).getByLabelText("Value of speedKph"), { target: { value: "50" } });
    fireEvent.keyDown(dialog, { key: "Escape" });
    fireEvent.click(within(within(dialog).getByRole("alertdialog")).getByRole("button", { name: "Discard changes" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(row);
  });

  it("leaves an Escape in the save confirmation to it: back to the editor, the dialog open", async () => {
    const { dialog } = open();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const confirm = await within(dialog).findByRole("alertdialog");
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(within(dialog).queryByRole("alertdialog")).toBeNull();
    expect(confirm.isConnected).toBe(false);
    expect(screen.getByRole("dialog", { name: "Item editor" })).toBeTruthy();
  });
});

/** The dialog as the table screen drives it: a save in flight, then refused by the table. */
function RefusingHost() {
  const [editing, setEditing] = useState<Editing | null>({ kind: "edit", original: reading });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<{ name: string; message: string } | null>(null);
  const save = async () => {
    setSaving(true);
    setSaveError(null);
    await Promise.resolve();
    setSaving(false);
    setSaveError({ name: "ConditionalCheckFailedException", message: "The item changed since it was read." });
  };
  return editing === null ? (
    <p>closed</p>
  ) : (
    <ItemDialog
      editing={editing}
      profileId="embedded"
      table="Telemetry"
      keys={keys}
      readOnly={false}
      clipboard={undefined}
      validate={async () => ({ sizeBytes: 80, problems: [] })}
      saving={saving}
      saveError={saveError}
      onSave={() => void save()}
      onRemove={vi.fn()}
      onEdit={setEditing}
      onDuplicate={vi.fn()}
      onClose={() => setEditing(null)}
    />
  );
}

describe("ItemDialog after a refused save", () => {
  it("puts the focus on why (the confirmation that held it is gone), and Escape still closes the dialog", async () => {
    renderWithCommands(<RefusingHost />, { estimateWrite: vi.fn(() => new Promise<never>(() => {})) } as never);
    const dialog = screen.getByRole("dialog", { name: "Item editor" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const confirm = await within(dialog).findByRole("alertdialog");
    fireEvent.click(within(confirm).getByRole("button", { name: "Save" }));
    const why = await within(dialog).findByText(/The item was not saved: The item changed since it was read\./);
    await waitFor(() => expect(document.activeElement).toBe(why));
    expect(dialog.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByText("closed")).toBeTruthy();
  });
});

describe("ItemDialog's write cost", () => {
  /** What the backend would say: a put of a 24-byte item, new or replacing one. */
  const answer = vi.fn(async (_p: string, _t: string, input: WriteEstimateInput) => ({
    status: "ok" as const,
    data: {
      cost: { total: 1, table: 1, indexes: [], exact: true, lines: [] },
      beforeBytes: input.existing === null ? null : 24,
      afterBytes: 24,
      tableUnits: 1,
      indexes: [],
    } satisfies WriteEstimate,
  }));
  const cost = () => screen.queryByRole("region", { name: "Write cost" });

  it("says nothing of a new item's cost until it has its key, then its size and units in words", async () => {
    answer.mockClear();
    const { dialog } = open({ kind: "create", template: null }, answer);
    // The editor has the blank item checked as it opens (its size is shown): still no cost, and none asked.
    await within(dialog).findByRole("meter", { name: "Item size" });
    expect(cost()).toBeNull();
    expect(answer).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText("Value of vehicleId"), { target: { value: "VEH#V-9" } });
    fireEvent.change(within(dialog).getByLabelText("Value of recordedAt"), { target: { value: "META" } });
    await waitFor(() => expect(within(cost()!).getByTestId("write-table").textContent).toBe(" · 1 WCU on the table, for a new item of 24 B"));
    expect(answer).toHaveBeenCalledTimes(1);
    expect(answer.mock.calls[0]![2]).toMatchObject({ kind: "put", existing: null, newItem: { vehicleId: { S: "VEH#V-9" }, recordedAt: { S: "META" } } });
  });

  it("drops the cost while the item has a problem, and gives it again for the item once it has none", async () => {
    answer.mockClear();
    const { dialog } = open({ kind: "edit", original: reading }, answer);
    await waitFor(() => expect(within(cost()!).getByTestId("write-table").textContent).toBe(" · 1 WCU on the table, for an item of 24 B replaced by one of 24 B"));
    expect(answer).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ existing: reading, newItem: reading }));
    fireEvent.change(within(dialog).getByLabelText("Value of speedKph"), { target: { value: "4x2" } });
    expect(cost()).toBeNull();
    expect((within(dialog).getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText("Value of speedKph"), { target: { value: "50" } });
    await waitFor(() => expect(answer).toHaveBeenLastCalledWith("embedded", "Telemetry", expect.objectContaining({ existing: reading, newItem: { ...reading, speedKph: { N: "50" } } })));
    await waitFor(() => expect(within(cost()!).getByTestId("write-table").textContent).toBe(" · 1 WCU on the table, for an item of 24 B replaced by one of 24 B"));
  });
});
