import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Profile, QueryPage, ReadRequest, TableDescription } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import { CapacityProvider } from "../../app/capacity";
import { fakeSource } from "../builder/fakeSource";
import { telemetry } from "../builder/fixtures";
import { QueryBar } from "../query/QueryBar";
import { fakeBuild } from "../query/fakeQuerySource";
import { useQueryModel } from "../query/useQueryModel";
import { ItemsView } from "./ItemsView";
import { useItemWrites } from "./useItemWrites";
import { tabbables } from "../../shared/useModalDialog";

afterEach(cleanup);

/** A table keyed on a number: what is typed in the bar (1E2) is not what DynamoDB stores (100). */
const people: TableDescription = {
  ...telemetry,
  name: "People",
  keys: { partitionKey: { name: "PersonID", type: "N" }, sortKey: null },
  indexes: [],
};

const profile = { id: "embedded", name: "Embedded", region: "local", readOnly: false, connection: { kind: "embedded" } } as unknown as Profile;

const page: QueryPage = {
  items: [{ PersonID: { N: "100" }, name: { S: "Ada" } }],
  count: 1,
  scannedCount: 1,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "end",
};

function Harness() {
  const model = useQueryModel({ profileId: profile.id, table: people });
  const writes = useItemWrites({ profileId: profile.id, table: people.name, keys: people.keys, partialRun: false, replaceItem: model.replaceItem, onRefused: () => {} });
  return (
    <>
      <QueryBar table={people} model={model} suggestions={[]} />
      <ItemsView
        profile={profile}
        table={people}
        model={model}
        writes={writes}
        partialRun={false}
        largest={null}
        clipboard={undefined}
        onOpenCollection={() => {}}
        onCopyItem={() => {}}
        onTableChanged={() => {}}
      />
    </>
  );
}

describe("ItemsView", () => {
  it("heads a Query's items with the key as DynamoDB stores it, not as typed: PersonID = 100, not 1E2", async () => {
    const source: Partial<Commands> = {
      ...fakeSource(),
      buildReadRequest: vi.fn(fakeBuild),
      runReadRequest: vi.fn(async () => ({ status: "ok" as const, data: page })),
    };
    renderWithCommands(
      <CapacityProvider>
        <Harness />
      </CapacityProvider>,
      source,
    );
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "1E2" } });
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalled());
    // The request goes as typed (DynamoDB reads 1E2 as 100) …
    const [, sent] = (source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, ReadRequest];
    expect(sent.keyCondition?.partitionValue).toEqual({ N: "1E2" });
    // … and the items it read are headed by the key they have.
    const box = await screen.findByRole("region", { name: "Item collection PersonID = 100" });
    expect(box.querySelector(".collection-pk-value")?.textContent).toContain("100");
    expect(box.querySelector(".collection-pk-value")?.textContent).not.toContain("1E2");
  });

  it("opens the paste dialog as a modal dialog: the focus in its box, Tab kept inside, Escape closes it, the focus back on its button", () => {
    renderWithCommands(
      <CapacityProvider>
        <Harness />
      </CapacityProvider>,
      { ...fakeSource(), buildReadRequest: vi.fn(fakeBuild) },
    );
    const opener = screen.getByRole("button", { name: "Paste items…" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Paste items" });
    // In it, on the box to paste into.
    expect(document.activeElement).toBe(within(dialog).getByRole("textbox", { name: "Pasted items" }));
    // Tab and Shift+Tab go round its controls.
    const stops = tabbables(dialog);
    expect(stops.length).toBeGreaterThan(2);
    stops.at(-1)!.focus();
    fireEvent.keyDown(document.activeElement!, { key: "Tab" });
    expect(document.activeElement).toBe(stops[0]);
    fireEvent.keyDown(document.activeElement!, { key: "Tab", shiftKey: true });
    expect(document.activeElement).toBe(stops.at(-1));
    // Escape closes it, and the focus is where it was.
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("leaves Escape alone while pasted items are being put, as it does Close", async () => {
    let answer: (() => void) | null = null;
    const putItem = vi.fn(
      () =>
        new Promise<{ status: "ok"; data: { consumedCapacity: null } }>((resolve) => {
          answer = () => resolve({ status: "ok", data: { consumedCapacity: null } });
        }),
    );
    renderWithCommands(
      <CapacityProvider>
        <Harness />
      </CapacityProvider>,
      {
        ...fakeSource(),
        buildReadRequest: vi.fn(fakeBuild),
        checkItem: vi.fn(async () => ({ status: "ok" as const, data: { sizeBytes: 12, limitBytes: 409_600, problems: [] } })),
        estimateWrite: vi.fn(async () => ({ status: "error" as const, error: { code: "VALIDATION" as const, message: "not estimated", exception: null } })),
        putItem,
      },
    );
    fireEvent.click(screen.getByRole("button", { name: "Paste items…" }));
    const dialog = screen.getByRole("dialog", { name: "Paste items" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Pasted items" }), { target: { value: '{"PersonID": 7}' } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Check" }));
    fireEvent.click(await within(dialog).findByRole("button", { name: "Put 1 item" }));
    await waitFor(() => expect(putItem).toHaveBeenCalled());
    fireEvent.keyDown(within(dialog).getByRole("button", { name: "Cancel" }), { key: "Escape" });
    expect(screen.getByRole("dialog", { name: "Paste items" })).toBeTruthy();
    answer!();
    await waitFor(() => expect(within(dialog).getByTestId("paste-report")).toBeTruthy());
    fireEvent.keyDown(within(dialog).getByRole("textbox", { name: "Pasted items" }), { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
