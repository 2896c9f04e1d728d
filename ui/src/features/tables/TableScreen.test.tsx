import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { TableScreen } from "./TableScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import type { TableIntent } from "../../shared/tableIntent";
import { TEN_MINUTE_WINDOW } from "../start/story";
import { CapacityProvider } from "../../app/capacity";
import type { AttributeValue, Profile, ReadRequest, TableDescription } from "../../ipc/bindings.gen";
import { credentialsRenewed } from "../../ipc/credentials";
import { embedded, layOutCollections, openButton, reading, renderScreen, source, telemetry } from "./tableScreenFixture";

afterEach(cleanup);
layOutCollections();

describe("TableScreen", () => {
  it("opens a collection from its box in the Items view and follows LastEvaluatedKey to its end", async () => {
    const fake = source();
    renderScreen(fake);
    await waitFor(() => expect(screen.getByTestId("table-key-chips")).toBeTruthy());
    fireEvent.click(await openButton());
    await waitFor(() => expect(screen.getByRole("region", { name: /Item collection vehicleId = VEH#V-7741/ })).toBeTruthy());
    // The box's Query goes through the query bar's one model: the builder's request, run as built.
    const calls = () => (fake.runReadRequest as ReturnType<typeof vi.fn>).mock.calls as [string, ReadRequest, unknown][];
    expect(calls()[0]![1]).toMatchObject({
      operation: "Query",
      tableName: "Telemetry",
      keyCondition: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-7741" }, sort: null },
      limit: 100,
    });
    expect(calls()[0]![2]).toBeNull();
    expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("VEH#V-7741");
    fireEvent.click(screen.getByRole("button", { name: /Load more/ }));
    await waitFor(() => expect(calls()).toHaveLength(2));
    expect(calls()[1]![2]).toEqual({
      vehicleId: { S: "VEH#V-7741" },
      recordedAt: reading(8).recordedAt,
    });
    // The last page has no LastEvaluatedKey: nothing more to load.
    await waitFor(() => expect(screen.queryByRole("button", { name: /Load more/ })).toBeNull());
  });

  it("saves an edit with the condition that the item is as it was seen", async () => {
    const fake = source();
    renderScreen(fake);
    fireEvent.click(await openButton());
    const grid = await screen.findByRole("grid");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "Enter" });
    const dialog = await screen.findByRole("dialog", { name: "Item editor" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const confirm = await within(dialog).findByRole("alertdialog");
    expect(confirm.textContent).toContain("Save item vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:09:00Z?");
    fireEvent.click(within(confirm).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(fake.putItem).toHaveBeenCalled());
    const [, table, item, expect_] = (fake.putItem as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(table).toBe("Telemetry");
    expect(item).toEqual(reading(9));
    expect(expect_).toEqual({ kind: "unchanged", original: reading(9) });
    await waitFor(() => expect(screen.getByTestId("write-notice").textContent).toBe("Saved: 1 WCU consumed."));
    // The write's estimate was asked of the backend, and is shown beside what the write reported.
    expect(fake.estimateWrite).toHaveBeenCalledWith("embedded", "Telemetry", expect.objectContaining({ kind: "put", existing: reading(9) }));
    await waitFor(() => expect(fake.reconcileWrite).toHaveBeenCalled());
  });

  it("reads an item whole, by its key, before editing it from a run that returned only part of it", async () => {
    const whole = { ...reading(9), depotCode: { S: "DEP-W" }, fuelPct: { N: "96" } };
    const getItem = vi.fn(async () => ({ status: "ok" as const, data: { item: whole, consumedCapacity: { total: 1, table: 1, indexes: [] } } }));
    const fake = source({ getItem });
    renderScreen(fake);
    fireEvent.click(await openButton());
    await screen.findByRole("grid");
    // The same Query with a projection: its rows are parts of items.
    fireEvent.click(screen.getByTestId("qb-add-projection"));
    await waitFor(() => expect(screen.getByTestId("qb-run")).not.toHaveProperty("disabled", true));
    fireEvent.click(screen.getByTestId("qb-run"));
    await waitFor(() =>
      expect(fake.runReadRequest).toHaveBeenLastCalledWith("embedded", expect.objectContaining({ projection: expect.objectContaining({ paths: expect.any(Array) }) }), null),
    );
    // Projected items are not staged for a bulk edit (its undo puts back the items as staged).
    await waitFor(() => expect(screen.getByRole("button", { name: "Bulk edit…" })).toHaveProperty("disabled", true));
    const grid = await screen.findByRole("grid");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "Enter" });
    const dialog = await screen.findByRole("dialog", { name: "Item editor" });
    expect(getItem).toHaveBeenCalledWith("embedded", "Telemetry", { vehicleId: reading(9).vehicleId, recordedAt: reading(9).recordedAt }, true);
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const confirm = await within(dialog).findByRole("alertdialog");
    fireEvent.click(within(confirm).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(fake.putItem).toHaveBeenCalled());
    // What is put back is the whole item, not the part the run showed.
    const [, , item, expect_] = (fake.putItem as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(item).toEqual(whole);
    expect(expect_).toEqual({ kind: "unchanged", original: whole });
  });

  it("reads the table and its boxes again once its connection works again after the app-wide prompt", async () => {
    const fake = source();
    renderScreen(fake);
    await openButton();
    expect(fake.describeTable).toHaveBeenCalledTimes(1);
    const ranges = vi.mocked(fake.collectionRange).mock.calls.length;
    act(() => credentialsRenewed("embedded"));
    await waitFor(() => expect(fake.describeTable).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(vi.mocked(fake.collectionRange).mock.calls.length).toBeGreaterThan(ranges));
    // Another connection's renewal reads nothing here.
    act(() => credentialsRenewed("another"));
    expect(fake.describeTable).toHaveBeenCalledTimes(2);
  });

  it("says the statistics could not be read, and reads them again when asked", async () => {
    const fake = source();
    const stats = vi.mocked(fake.collectionStats);
    const ok = stats.getMockImplementation()!;
    stats.mockImplementationOnce(async () => ({
      status: "error" as const,
      error: { code: "INTERNAL" as const, message: "database is locked", exception: null },
    }));
    renderScreen(fake);
    const error = await screen.findByTestId("stats-error");
    expect(error.textContent).toContain("The collection statistics could not be read: database is locked");
    stats.mockImplementation(ok);
    fireEvent.click(within(error).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(screen.queryByTestId("stats-error")).toBeNull());
    expect(fake.collectionStats).toHaveBeenCalledTimes(2);
  });

  it("copies the selected item as DynamoDB JSON with Mod+C, and from the editor as code", async () => {
    const clipboard = { writeText: vi.fn(async () => {}) };
    renderScreen(source(), embedded, clipboard);
    fireEvent.click(await openButton());
    const grid = await screen.findByRole("grid");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "c", ctrlKey: true });
    await waitFor(() => expect(clipboard.writeText).toHaveBeenCalledTimes(1));
    expect(JSON.parse((clipboard.writeText.mock.calls[0] as unknown as [string])[0])).toEqual(reading(9));
    expect((await screen.findByTestId("copy-notice")).textContent).toBe("Copied the item as DynamoDB JSON.");
    // Said, it goes with the next action (not a modifier on its own): it does not stay under every view.
    fireEvent.keyDown(grid, { key: "Control", ctrlKey: true });
    expect(screen.getByTestId("copy-notice")).toBeTruthy();
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    await waitFor(() => expect(screen.queryByTestId("copy-notice")).toBeNull());
    fireEvent.keyDown(grid, { key: "ArrowUp" }); // (the first reading selected again)
    // The toolbar's copy acts on the same selection, in the form chosen.
    const toolbar = screen.getByRole("group", { name: "Copy the item" });
    fireEvent.change(within(toolbar).getByRole("combobox", { name: "Copy as" }), { target: { value: "plain" } });
    fireEvent.click(within(toolbar).getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(clipboard.writeText).toHaveBeenCalledTimes(2));
    expect((clipboard.writeText.mock.calls[1] as unknown as [string])[0]).toContain('"speedKph": 49');
    fireEvent.keyDown(grid, { key: "Enter" });
    const dialog = await screen.findByRole("dialog", { name: "Item editor" });
    const copy = within(dialog).getByRole("group", { name: "Copy the item" });
    fireEvent.change(within(copy).getByRole("combobox", { name: "Copy as" }), { target: { value: "aws-cli" } });
    fireEvent.click(within(copy).getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(clipboard.writeText).toHaveBeenCalledTimes(3));
    expect((clipboard.writeText.mock.calls[2] as unknown as [string])[0]).toBe(
      `aws dynamodb put-item \\\n  --table-name 'Telemetry' \\\n  --item '${JSON.stringify(reading(9))}'\n`,
    );
  });

  it("duplicates an item: the editor opens on its attributes and refuses the same key", async () => {
    const fake = source();
    renderScreen(fake);
    fireEvent.click(await openButton());
    const grid = await screen.findByRole("grid");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "Enter" });
    const dialog = await screen.findByRole("dialog", { name: "Item editor" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Duplicate…" }));
    const copy = await within(dialog).findByRole("region", { name: "Duplicate of vehicleId = VEH#V-7741, recordedAt = TS#2025-03-14T09:09:00Z" });
    fireEvent.click(within(copy).getByRole("radio", { name: "DynamoDB JSON" }));
    const text = within(copy).getByRole("textbox", { name: "Item as DynamoDB JSON" }) as HTMLTextAreaElement;
    expect(JSON.parse(text.value)).toEqual(reading(9));
    fireEvent.click(within(copy).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(copy.textContent).toContain("Change the key (vehicleId, recordedAt): this is the key of the item duplicated."));
    expect(within(copy).queryByRole("alertdialog")).toBeNull();
    fireEvent.change(text, { target: { value: JSON.stringify({ ...reading(9), recordedAt: { S: "TS#2025-03-14T10:00:00Z" } }) } });
    fireEvent.click(within(copy).getByRole("button", { name: "Create" }));
    const confirm = await within(copy).findByRole("alertdialog");
    fireEvent.click(within(confirm).getByRole("button", { name: "Create" }));
    await waitFor(() => expect(fake.putItem).toHaveBeenCalled());
    const [, , item, expect_] = (fake.putItem as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(item).toEqual({ ...reading(9), recordedAt: { S: "TS#2025-03-14T10:00:00Z" } });
    expect(expect_).toEqual({ kind: "absent" });
  });

  it("pastes items: read, previewed with their write cost, then put, each failure named", async () => {
    let n = 0;
    const fake = source({
      putItem: vi.fn(async () =>
        ++n === 2
          ? { status: "error" as const, error: { code: "CONDITION_FAILED" as const, message: "The conditional request failed", exception: "ConditionalCheckFailedException" } }
          : { status: "ok" as const, data: { consumedCapacity: { total: 1, table: 1, indexes: [] } } },
      ),
    });
    renderScreen(fake);
    fireEvent.click(await screen.findByTestId("view-tab-items"));
    fireEvent.click(screen.getByRole("button", { name: "Paste items…" }));
    const dialog = await screen.findByRole("dialog", { name: "Paste items" });
    // The odometer has more digits than a double holds: it must arrive as written.
    const text = '[{"vehicleId": "VEH#A", "recordedAt": "TS#1", "odometer": 123456789012345678901234567890}, {"vehicleId": "VEH#B", "recordedAt": "TS#2"}]';
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Pasted items" }), { target: { value: text } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Check" }));
    await waitFor(() => expect(within(dialog).getAllByTestId("paste-row")).toHaveLength(2));
    expect(within(dialog).getByTestId("paste-summary").textContent).toBe("2 items read as JSON: at least 2 WCU in all.");
    expect(fake.estimateWrite).toHaveBeenCalledWith("embedded", "Telemetry", expect.objectContaining({ kind: "put", existing: null }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Put 2 items" }));
    await waitFor(() => expect(within(dialog).getByTestId("paste-report").textContent).toBe("Put 1 of 2 items: 1 WCU consumed, 1 failed."));
    const calls = (fake.putItem as ReturnType<typeof vi.fn>).mock.calls;
    expect(calls[0]![2]).toEqual({ vehicleId: { S: "VEH#A" }, recordedAt: { S: "TS#1" }, odometer: { N: "123456789012345678901234567890" } });
    expect(calls[0]![3]).toEqual({ kind: "absent" });
    expect(within(dialog).getByRole("list", { name: "Failed puts" }).textContent).toContain(
      "vehicleId = VEH#B, recordedAt = TS#2: ConditionalCheckFailedException The conditional request failed",
    );
  });

  it("refuses pasted text whose keys do not fit the table, before anything is sent", async () => {
    const fake = source();
    renderScreen(fake);
    fireEvent.click(await screen.findByTestId("view-tab-items"));
    fireEvent.click(screen.getByRole("button", { name: "Paste items…" }));
    const dialog = await screen.findByRole("dialog", { name: "Paste items" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Pasted items" }), { target: { value: '{"vehicleId": {"S": "VEH#A"}}' } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Check" }));
    expect((await within(dialog).findByTestId("paste-problem")).textContent).toBe("Item 1: recordedAt is the sort key and is required.");
    expect(within(dialog).queryByRole("button", { name: /^Put/ })).toBeNull();
    expect(fake.putItem).not.toHaveBeenCalled();
  });

  it("stages a bulk edit for the items checked in the grid, or for every item read", async () => {
    const plan = { changes: [], totalUnits: 0, requests: 1 };
    const fake = source({
      bulkDryRun: vi.fn(async () => ({ status: "ok" as const, data: plan })),
      bulkCommit: vi.fn(async () => ({
        status: "ok" as const,
        data: { total: 1, written: 1, failures: [], cancelled: false, consumedUnits: 1, undoable: 1 },
      })),
    } as Partial<Commands>);
    renderScreen(fake);
    fireEvent.click(await openButton());
    const grid = await screen.findByRole("grid");
    expect(grid.getAttribute("aria-colcount")).toBe("2");
    fireEvent.click(screen.getByRole("button", { name: "Bulk edit…" }));
    const panel = await screen.findByRole("region", { name: "Bulk edit" });
    expect(within(panel).getByRole("heading").textContent).toBe("Bulk edit of the 2 items read");
    // A checkbox column now (jsdom draws no virtual rows: checked from the keyboard, Space on the
    // selected row).
    expect(grid.getAttribute("aria-colcount")).toBe("3");
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    fireEvent.keyDown(grid, { key: " " });
    expect(within(panel).getByRole("heading").textContent).toBe("Bulk edit of the 1 item checked");
    fireEvent.change(within(panel).getByRole("textbox", { name: "SET attribute 1" }), { target: { value: "status" } });
    fireEvent.change(within(panel).getByRole("textbox", { name: "Value of SET attribute 1" }), { target: { value: "checked" } });
    fireEvent.click(within(panel).getByRole("button", { name: "Dry run" }));
    await waitFor(() => expect(fake.bulkDryRun).toHaveBeenCalledTimes(1));
    const edit = { kind: "update", set: { status: { S: "checked" } }, remove: [] };
    expect((fake.bulkDryRun as ReturnType<typeof vi.fn>).mock.calls[0]).toEqual(["embedded", "Telemetry", [reading(8)], edit, "batches"]);
    fireEvent.click(await within(panel).findByRole("button", { name: "Commit" }));
    await waitFor(() => expect(fake.bulkCommit).toHaveBeenCalledTimes(1));
    expect((fake.bulkCommit as ReturnType<typeof vi.fn>).mock.calls[0]![3]).toEqual([reading(8)]);
    fireEvent.keyDown(grid, { key: "ArrowUp" });
    fireEvent.keyDown(grid, { key: " " });
    expect(within(panel).getByRole("heading").textContent).toBe("Bulk edit of the 2 items checked");
  });

  it("disables every write control on a read-only connection", async () => {
    renderScreen(source(), { ...embedded, readOnly: true });
    fireEvent.click(await screen.findByTestId("view-tab-items"));
    expect((screen.getByRole("button", { name: "New item" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("This connection is read-only.")).toBeTruthy();
  });

  it("says why a table cannot be shown", async () => {
    renderScreen(
      source({
        describeTable: vi.fn(async () => ({
          status: "error" as const,
          error: { code: "NOT_FOUND" as const, message: "Requested resource not found", exception: "ResourceNotFoundException" },
        })),
      }),
    );
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("Requested resource not found"));
  });

  it("on an AWS connection, shows the statistics scan's cost before the user starts it", async () => {
    const fake = source({
      collectionStats: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "NOT_FOUND" as const, message: "No statistics of Telemetry yet", exception: null },
      })),
    });
    const aws: Profile = { ...embedded, id: "p1", name: "prod", connection: { kind: "aws-profile", profileName: "prod" } };
    renderScreen(fake, aws);
    await waitFor(() => expect(screen.getByTestId("statistics-cost").textContent).toContain("Estimated: 128 RCU in 1 page for 10,410 items (1.0 MB)"));
    expect(fake.gatherStatistics).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Scan to gather statistics" })).toBeTruthy();
  });

  it("opens on the Collections view: the boxes in key order, each read with a Query, and the map brings a box into view", async () => {
    const fake = source();
    renderScreen(fake);
    await waitFor(() => expect(screen.getAllByTestId("collection-run-box")).toHaveLength(2));
    // Key order: VEH#V-1007 before VEH#V-7741 (the statistics list the largest first).
    expect(screen.getAllByTestId("collection-run-box").map((b) => b.getAttribute("data-key"))).toEqual(["VEH#V-1007", "VEH#V-7741"]);
    await waitFor(() =>
      expect(fake.collectionPage).toHaveBeenCalledWith("embedded", expect.objectContaining({ partitionValue: { S: "VEH#V-7741" }, limit: 20 })),
    );
    // The boxes' reads stay out of the query history: none went through the recorded Query.
    expect(fake.query).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("toggle-map"));
    fireEvent.click(screen.getByRole("button", { name: /^vehicleId = VEH#V-7741: / }));
    // The map opens the box in this view (not the Items view): marked and focused.
    expect(screen.getByTestId("view-tab-collections").getAttribute("aria-selected")).toBe("true");
    const box = screen.getAllByTestId("collection-run-box").find((b) => b.getAttribute("data-key") === "VEH#V-7741")!;
    expect(box.className).toContain("run-box-marked");
    await waitFor(() => expect(document.activeElement?.getAttribute("data-key")).toBe("VEH#V-7741"));
  });

  it("names the box a Query of a multi-attribute GSI reads by the list of its values, and brings that box into view", async () => {
    // Rule B.18.3: such an index's collections are named by the list of their partition-key values.
    const withRoutes: TableDescription = {
      ...telemetry,
      indexes: [
        {
          name: "ByDepotRoute",
          kind: "global",
          keys: { partitionKey: { name: "depotCode", type: "S" }, morePartitionKeys: [{ name: "routeNo", type: "N" }], sortKey: { name: "recordedAt", type: "S" } },
          projection: { type: "ALL", attributes: [] },
          backfilling: null,
          itemCount: null,
          sizeBytes: null,
          status: "ACTIVE",
        },
      ],
    };
    const fake = source({ describeTable: vi.fn(async () => ({ status: "ok" as const, data: withRoutes })) });
    const request: ReadRequest = {
      operation: "Query",
      tableName: "Telemetry",
      indexName: "ByDepotRoute",
      keyCondition: { partitionKey: "depotCode", partitionValue: { S: "DEP-W" }, morePartition: [{ name: "routeNo", value: { N: "7" } }], sort: null },
    };
    renderWithCommands(
      <CapacityProvider>
        <TableScreen profile={embedded} tableName="Telemetry" intent={{ n: 1, view: "collections", request }} />
      </CapacityProvider>,
      fake,
    );
    await waitFor(() => expect(fake.runReadRequest).toHaveBeenCalled());
    await waitFor(() =>
      expect(fake.collectionPosition).toHaveBeenCalledWith("embedded", "Telemetry", "ByDepotRoute", { L: [{ S: "DEP-W" }, { N: "7" }] }),
    );
  });

  it("carries out what it is asked from outside once per request: a view, a Query, a regrouping", async () => {
    const fake = source();
    // The start screen's ten-minute window, as it asks for it.
    const window = TEN_MINUTE_WINDOW;
    const view = (intent: TableIntent) => (
      <CapacityProvider>
        <TableScreen profile={embedded} tableName="Telemetry" intent={intent} />
      </CapacityProvider>
    );
    const runs = () => (fake.runReadRequest as ReturnType<typeof vi.fn>).mock.calls as [string, ReadRequest, unknown][];
    const { rerender } = renderWithCommands(view({ n: 1, view: "cost", query: window }), fake);
    await waitFor(() => expect(screen.getByTestId("view-tab-cost").getAttribute("aria-selected")).toBe("true"));
    // Run through the query bar's one model: the builder's request for the window, newest first.
    await waitFor(() => expect(runs()).toHaveLength(1));
    expect(runs()[0]![1]).toMatchObject({
      operation: "Query",
      tableName: "Telemetry",
      keyCondition: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-7741" } },
      direction: "descending",
    });
    // The same request again (same n) is not run twice; a new one switches the view and reveals.
    rerender(view({ n: 1, view: "cost", query: window }));
    rerender(view({ n: 2, view: "collections", groupBy: null, reveal: { S: "VEH#V-7741" } }));
    await waitFor(() => expect(screen.getByTestId("view-tab-collections").getAttribute("aria-selected")).toBe("true"));
    expect(runs()).toHaveLength(1);
    await waitFor(() =>
      expect(document.querySelector('[data-testid="collection-run-box"][data-key="VEH#V-7741"]')?.className).toContain("run-box-marked"),
    );
    // A builder request (a modeler pattern's) is loaded into the bar and run as it is.
    const pattern: ReadRequest = {
      operation: "Query",
      tableName: "Telemetry",
      indexName: null,
      keyCondition: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-1007" }, sort: { type: "beginsWith", name: "recordedAt", prefix: { S: "TS#" } } },
      direction: "descending",
      limit: 20,
    } as ReadRequest;
    rerender(view({ n: 3, view: "collections", groupBy: null, request: pattern }));
    await waitFor(() => expect(runs()).toHaveLength(2));
    expect(runs()[1]![1]).toMatchObject({
      operation: "Query",
      keyCondition: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-1007" }, sort: { type: "beginsWith", prefix: { S: "TS#" } } },
      direction: "descending",
      limit: 20,
    });
  });
  it("regrouped by an index after a Query of the table, carries no table key into the index: the run opens at its top and the bar reads the index", async () => {
    // The start screen's step 2 (the ten-minute window of VEH#V-7741) then step 3 (grouped by ByDepot).
    const withDepot: TableDescription = {
      ...telemetry,
      indexes: [
        {
          name: "ByDepot",
          kind: "global",
          keys: { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
          projection: { type: "ALL", attributes: [] },
          backfilling: null,
          itemCount: 9000,
          sizeBytes: null,
          status: "ACTIVE",
        },
      ],
    };
    const depots = Array.from({ length: 12 }, (_, i) => `DEP-${String(i).padStart(2, "0")}`).map((d) => ({ partitionValue: { S: d }, itemCount: 2000, sizeBytes: 200_000, limitedSizeBytes: null }));
    const vehicles = [
      { partitionValue: { S: "VEH#V-1007" }, itemCount: 31, sizeBytes: 10_000, limitedSizeBytes: null },
      { partitionValue: { S: "VEH#V-7741" }, itemCount: 1441, sizeBytes: 140_000, limitedSizeBytes: null },
    ];
    const fake = source({
      describeTable: vi.fn(async () => ({ status: "ok" as const, data: withDepot })),
      collectionRange: vi.fn(async (_p: string, table: string, index: string | null, offset: number, limit: number) => {
        const run = index === "ByDepot" ? depots : vehicles;
        return { status: "ok" as const, data: { table, index, offset, total: run.length, collections: run.slice(offset, offset + limit) } };
      }),
      collectionPosition: vi.fn(async (_p: string, _t: string, index: string | null, value: AttributeValue) => {
        const run = index === "ByDepot" ? depots : vehicles;
        const at = run.findIndex((c) => JSON.stringify(c.partitionValue) === JSON.stringify(value));
        return { status: "ok" as const, data: at < 0 ? null : at };
      }),
    });
    const view = (intent: TableIntent) => (
      <CapacityProvider>
        <TableScreen profile={embedded} tableName="Telemetry" intent={intent} />
      </CapacityProvider>
    );
    const { rerender } = renderWithCommands(view({ n: 1, view: "cost", query: TEN_MINUTE_WINDOW }), fake);
    await waitFor(() => expect(fake.runReadRequest).toHaveBeenCalled());
    await waitFor(() => expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("VEH#V-7741"));
    await waitFor(() => expect(fake.collectionPosition).toHaveBeenCalledWith("embedded", "Telemetry", null, { S: "VEH#V-7741" }));
    const tableRun = await screen.findByTestId("collections-run");
    tableRun.scrollTop = 400;
    rerender(view({ n: 2, view: "collections", groupBy: "ByDepot" }));
    await waitFor(() =>
      expect(screen.getAllByTestId("collection-run-box")[0]!.getAttribute("data-key")).toBe("DEP-00"),
    );
    // The vehicle's id is never looked for among the depots, nor said to be missing from them.
    expect(fake.collectionPosition).not.toHaveBeenCalledWith("embedded", "Telemetry", "ByDepot", expect.anything());
    expect(screen.queryByTestId("collections-not-found")).toBeNull();
    // The run of ByDepot opens at its top.
    expect(screen.getByTestId("collections-run").scrollTop).toBe(0);
    // The bar reads what the run is grouped by, its table key value gone.
    expect((screen.getByTestId("qb-index") as HTMLSelectElement).value).toBe("ByDepot");
    expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("");
    // Back to the table from the picker: the bar follows again.
    fireEvent.change(screen.getByTestId("collections-group-by"), { target: { value: "" } });
    await waitFor(() => expect((screen.getByTestId("qb-index") as HTMLSelectElement).value).toBe(""));
  });

  it("a fault in one view takes down that view alone: the tab's header and other views still work", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    // A malformed answer (a tag that is not one) makes the Settings view throw as it draws it.
    const fake = source({ tableTags: vi.fn(async () => ({ status: "ok" as const, data: [null] })) } as unknown as Partial<Commands>);
    renderScreen(fake);
    fireEvent.click(await screen.findByTestId("view-tab-settings"));
    const failed = await within(screen.getByTestId("view-settings")).findByTestId("view-failed");
    expect(failed.textContent).toContain("The Settings view stopped because of a fault in DynoTable");
    expect(screen.getByTestId("table-screen-Telemetry")).toBeTruthy();
    fireEvent.click(screen.getByTestId("view-tab-collections"));
    expect(screen.getByTestId("view-collections").hidden).toBe(false);
    expect(within(screen.getByTestId("view-collections")).queryByTestId("view-failed")).toBeNull();
    quiet.mockRestore();
  });
});
