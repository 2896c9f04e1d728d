import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { EditorView } from "@codemirror/view";
import { currentCompletions, startCompletion } from "@codemirror/autocomplete";
import type {
  AttributeValue,
  CommandError,
  Profile,
  SavedStatement,
  SavedStatementContent,
  StatementInput,
  StatementPage,
  TableDescription,
} from "../../ipc/bindings.gen";
import { PartiqlScreen } from "./PartiqlScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

type Answer<T> = Promise<{ status: "ok"; data: T } | { status: "error"; error: CommandError }>;
const ok = <T,>(data: T) => Promise.resolve({ status: "ok" as const, data });
const failed = (error: CommandError) => Promise.resolve({ status: "error" as const, error });

const profile: Profile = {
  id: "embedded",
  name: "Embedded",
  color: "#336699",
  region: "local",
  readOnly: false,
  connection: { kind: "embedded" },
  createdAt: 0,
} as unknown as Profile;

const telemetry = {
  name: "Telemetry",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
  attributeDefinitions: [
    { name: "vehicleId", type: "S" },
    { name: "recordedAt", type: "S" },
    { name: "depotCode", type: "S" },
  ],
} as unknown as TableDescription;

function fakeSource(executeStatement: (profileId: string, input: StatementInput) => Answer<StatementPage>): Commands {
  return {
    executeStatement: vi.fn(executeStatement),
    executeBatch: vi.fn(() => ok({ results: [], consumedCapacity: [] })),
    executeTransaction: vi.fn(() => ok({ items: [], consumedCapacity: [] })),
    reservedWords: vi.fn(() => ok(["STATUS", "DATA", "NAME"])),
    listTables: vi.fn(() => ok({ names: ["Telemetry", "Pets"], nextStart: null })),
    describeTable: vi.fn(() => ok(telemetry)),
    // A shelf kept in memory, as the backend keeps it: a name replaces what had it.
    ...(() => {
      let shelf: SavedStatement[] = [];
      return {
        savedStatements: vi.fn(() => ok([...shelf].sort((a, b) => a.name.localeCompare(b.name)))),
        saveStatement: vi.fn((_p: string, name: string, content: SavedStatementContent) => {
          const entry = { id: `id-${name}`, name, content, savedAt: 1_700_000_000 };
          shelf = [...shelf.filter((e) => e.name !== name), entry];
          return ok(entry);
        }),
        deleteSavedStatement: vi.fn((id: string) => {
          shelf = shelf.filter((e) => e.id !== id);
          return ok(null);
        }),
      };
    })(),
  } as unknown as Commands;
}

const page = (items: Record<string, AttributeValue>[], nextToken: string | null = null): StatementPage => ({
  items,
  nextToken,
  consumedCapacity: { total: 1.5, table: 1.5, indexes: [] },
});

function editor(): EditorView {
  const content = screen.getByTestId("partiql-input");
  const view = EditorView.findFromDOM(content);
  if (view === null) throw new Error("no editor");
  return view;
}

/** Types `text` at the end of the editor, as keystrokes would insert it. */
function type(text: string) {
  const view = editor();
  act(() => {
    view.dispatch({ changes: { from: view.state.doc.length, insert: text }, selection: { anchor: view.state.doc.length + text.length }, userEvent: "input.type" });
  });
}

function ctrlEnter() {
  fireEvent.keyDown(screen.getByTestId("partiql-input"), { key: "Enter", ctrlKey: true, metaKey: false });
}

beforeEach(() => {
  window.localStorage.clear();
  Object.defineProperty(navigator, "platform", { value: "Linux x86_64", configurable: true });
});
afterEach(cleanup);

describe("PartiqlScreen", () => {
  it("shows one typed input per ? in the statement, ignoring ? inside strings and names", () => {
    renderWithCommands(<PartiqlScreen profile={profile} />, fakeSource(() => ok(page([]))));
    expect(screen.queryByRole("group", { name: "Parameters" })).toBeNull();
    type(`SELECT * FROM "Telemetry" WHERE "vehicleId" = ?`);
    expect(screen.getAllByLabelText(/^Parameter \d$/)).toHaveLength(1);
    type(` AND "recordedAt" BETWEEN ? AND ? AND note = 'why?' AND "odd?" = 1`);
    expect(screen.getAllByLabelText(/^Parameter \d$/)).toHaveLength(3);
    act(() => {
      const view = editor();
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "SELECT * FROM Pets" } });
    });
    expect(screen.queryByLabelText("Parameter 1")).toBeNull();
  });

  it("runs with Ctrl+Enter, sending the parameters as typed values, and shows rows and capacity", async () => {
    const source = fakeSource(() =>
      ok(page([{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "META" }, odometerKm: { N: "184220.5" } }], "token-1")),
    );
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`SELECT * FROM "Telemetry" WHERE "vehicleId" = ? AND "odometerKm" > ?`);
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "VEH#V-7741" } });
    fireEvent.change(screen.getByLabelText("Parameter 2 type"), { target: { value: "N" } });
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "100000" } });
    ctrlEnter();
    await screen.findByTestId("partiql-summary");
    expect(source.executeStatement).toHaveBeenCalledTimes(1);
    expect(source.executeStatement).toHaveBeenCalledWith("embedded", {
      statement: `SELECT * FROM "Telemetry" WHERE "vehicleId" = ? AND "odometerKm" > ?`,
      parameters: [{ S: "VEH#V-7741" }, { N: "100000" }],
      nextToken: null,
      consistentRead: false,
      limit: null,
    });
    expect(screen.getByTestId("partiql-summary").textContent).toContain("1 item");
    expect(screen.getByTestId("partiql-capacity").textContent).toBe("Consumed capacity: 1.5 RCU (table 1.5)");

    // Next page sends the same statement with the NextToken and adds the items.
    fireEvent.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(screen.getByTestId("partiql-summary").textContent).toContain("2 items in 2 pages"));
    expect(vi.mocked(source.executeStatement).mock.calls[1]?.[1].nextToken).toBe("token-1");
    expect(screen.getByTestId("partiql-capacity").textContent).toContain("3 RCU");

    // The results open as item collections; the Items view is the flat grid of the same items.
    expect(screen.getByTestId("partiql-view-collections").getAttribute("aria-selected")).toBe("true");
    expect(screen.queryByRole("grid", { name: "Statement results" })).toBeNull();
    fireEvent.click(screen.getByTestId("partiql-view-items"));
    expect(screen.getByRole("grid", { name: "Statement results" }).getAttribute("aria-rowcount")).toBe("3");
  });

  it("switches the results between Collections and Items as a row of tabs: one Tab stop, the arrows move the focus", async () => {
    renderWithCommands(<PartiqlScreen profile={profile} />, fakeSource(() => ok(page([{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "META" } }]))));
    type(`SELECT * FROM "Telemetry"`);
    ctrlEnter();
    const collections = await screen.findByTestId("partiql-view-collections");
    const items = screen.getByTestId("partiql-view-items");
    expect([collections.tabIndex, items.tabIndex]).toEqual([0, -1]);
    collections.focus();
    fireEvent.keyDown(collections, { key: "ArrowRight" });
    expect(document.activeElement).toBe(items);
    expect(items.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("grid", { name: "Statement results" })).toBeTruthy();
    fireEvent.keyDown(items, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(collections);
    expect(screen.queryByRole("grid", { name: "Statement results" })).toBeNull();
  });

  it("shows DynamoDB's error with its exception and marks the place the message names", async () => {
    const source = fakeSource(() =>
      failed({
        code: "VALIDATION",
        exception: "ValidationException",
        message: "Statement wasn't well formed, can't be processed: Unexpected keyword WHERE at 1:22:5",
      }),
    );
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`SELECT * FROM "Pets" WHERE`);
    ctrlEnter();
    const alert = await screen.findByTestId("partiql-error");
    expect(within(alert).getByText("ValidationException")).toBeTruthy();
    expect(alert.textContent).toContain("Unexpected keyword WHERE");
    // The lint mark covers exactly "WHERE" (column 22, length 5).
    await waitFor(() => expect(document.querySelector(".cm-lintRange-error")?.textContent).toBe("WHERE"));
  });

  it("refuses to run several statements as one and sends them as a batch when asked", async () => {
    const source = fakeSource(() => ok(page([])));
    vi.mocked(source.executeBatch).mockImplementation(() =>
      ok({
        results: [
          { item: null, error: null },
          { item: null, error: { code: "DuplicateItem", message: "Duplicate primary key exists in table" } },
        ],
        consumedCapacity: [{ table: "Pets", capacity: { total: 2, table: 2, indexes: [] } }],
      }),
    );
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`INSERT INTO "Pets" VALUE {'AnimalType': ?, 'Name': 'a'};\nINSERT INTO "Pets" VALUE {'AnimalType': 'Dog', 'Name': ?}`);
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "Cat" } });
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "Rex" } });
    ctrlEnter();
    expect((await screen.findByTestId("partiql-error")).textContent).toContain("2 statements");
    expect(source.executeStatement).not.toHaveBeenCalled();

    fireEvent.click(screen.getByLabelText("Batch"));
    ctrlEnter();
    await screen.findByTestId("partiql-summary");
    expect(source.executeBatch).toHaveBeenCalledWith(
      "embedded",
      [
        { statement: `INSERT INTO "Pets" VALUE {'AnimalType': ?, 'Name': 'a'}`, parameters: [{ S: "Cat" }] },
        { statement: `INSERT INTO "Pets" VALUE {'AnimalType': 'Dog', 'Name': ?}`, parameters: [{ S: "Rex" }] },
      ],
      false,
    );
    expect(screen.getByText(/Statement 2: DuplicateItem/)).toBeTruthy();
    expect(screen.getByTestId("partiql-capacity").textContent).toBe("Consumed capacity: 2 WCU (Pets 2)");
  });

  it("offers the connection's table names after FROM and quotes reserved attribute names", async () => {
    const source = fakeSource(() => ok(page([{ vehicleId: { S: "x" }, status: { S: "ok" } }])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    await waitFor(() => expect(source.listTables).toHaveBeenCalled());
    type("SELECT * FROM ");
    const view = editor();
    await act(async () => {
      startCompletion(view);
      await new Promise((r) => setTimeout(r, 100));
    });
    await waitFor(() => expect(currentCompletions(view.state).map((c) => c.label)).toEqual(expect.arrayContaining(["Telemetry", "Pets"])));

    // After a run, attributes seen are offered; `status` is reserved, so it comes quoted.
    type(`"Telemetry" WHERE `);
    ctrlEnter();
    await screen.findByTestId("partiql-summary");
    await waitFor(() => expect(source.describeTable).toHaveBeenCalledWith("embedded", "Telemetry"));
    await act(async () => {
      startCompletion(view);
      await new Promise((r) => setTimeout(r, 100));
    });
    await waitFor(() => {
      const options = currentCompletions(view.state);
      expect(options.find((c) => c.label === "status")?.apply).toBe('"status"');
      expect(options.find((c) => c.label === "depotCode")?.apply).toBe("depotCode");
    });
  });

  it("keeps the statements run in the history and puts one back on click", async () => {
    const source = fakeSource(() => ok(page([])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`SELECT * FROM "Pets" WHERE "AnimalType" = 'Dog'`);
    ctrlEnter();
    await screen.findByTestId("partiql-summary");
    act(() => {
      const view = editor();
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "" } });
    });
    fireEvent.click(screen.getByText(`SELECT * FROM "Pets" WHERE "AnimalType" = 'Dog'`));
    expect(editor().state.doc.toString()).toBe(`SELECT * FROM "Pets" WHERE "AnimalType" = 'Dog'`);
  });

  it("saves the statement on screen under a name, with its parameters and mode, and loads it back", async () => {
    const source = fakeSource(() => ok(page([])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    expect(await screen.findByText("Saved statements (0)")).toBeTruthy();
    type(`SELECT * FROM "Telemetry" WHERE "vehicleId" = ?`);
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "VEH#V-7741" } });
    fireEvent.change(screen.getByLabelText("Name of the statement to save"), { target: { value: "one vehicle" } });
    fireEvent.click(screen.getByRole("button", { name: "Save the statement" }));
    await screen.findByText("Saved statements (1)");
    expect(source.saveStatement).toHaveBeenCalledWith("embedded", "one vehicle", {
      statement: `SELECT * FROM "Telemetry" WHERE "vehicleId" = ?`,
      parameters: [{ S: "VEH#V-7741" }],
      mode: "statement",
    });
    // Cleared, then loaded back: the text and the parameter's typed value.
    act(() => {
      const view = editor();
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: "" } });
    });
    fireEvent.click(screen.getByRole("button", { name: "one vehicle" }));
    expect(editor().state.doc.toString()).toBe(`SELECT * FROM "Telemetry" WHERE "vehicleId" = ?`);
    expect((screen.getByLabelText("Parameter 1") as HTMLInputElement).value).toBe("VEH#V-7741");
    fireEvent.click(screen.getByRole("button", { name: "Delete the saved statement one vehicle" }));
    await screen.findByText("Saved statements (0)");
  });

  it("does not run with parameters never filled in, and says so when Ctrl+Enter is pressed", async () => {
    const source = fakeSource(() => ok(page([])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`SELECT * FROM "Telemetry" WHERE vehicleId = ? AND recordedAt > ?`);
    const runButton = screen.getByRole("button", { name: /^Run/ }) as HTMLButtonElement;
    expect(runButton.disabled).toBe(true);
    expect(screen.getByTestId("partiql-run-blocked").textContent).toBe(
      "Run is off until this is fixed: Fill in parameters ?1 and ?2: each ? takes the value typed for it.",
    );
    expect(runButton.getAttribute("aria-describedby")).toBe(screen.getByTestId("partiql-run-blocked").id);
    ctrlEnter();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Not run. Run is off until this is fixed: Fill in parameters ?1 and ?2: each ? takes the value typed for it.");
    expect(source.executeStatement).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "VEH#V-7741" } });
    expect(screen.getByTestId("partiql-run-blocked").textContent).toBe("Run is off until this is fixed: Fill in parameter ?2: each ? takes the value typed for it.");
  });

  it("refuses a run while a parameter is not valid, saying why, and marks the results on screen as the previous run's", async () => {
    const source = fakeSource(() => ok(page([{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "META" } }])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    type(`SELECT * FROM "Telemetry" WHERE vehicleId = ? AND recordedAt > ?`);
    fireEvent.change(screen.getByLabelText("Parameter 1"), { target: { value: "VEH#V-7741" } });
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "A" } });
    ctrlEnter();
    await screen.findByTestId("partiql-summary");
    expect(screen.queryByTestId("partiql-stale")).toBeNull();
    expect(source.executeStatement).toHaveBeenCalledTimes(1);

    fireEvent.change(screen.getByLabelText("Parameter 2 type"), { target: { value: "N" } });
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "abc" } });
    const blocked = screen.getByTestId("partiql-run-blocked");
    expect(blocked.textContent).toMatch(/^Run is off until this is fixed: \?2 is not valid: ./);
    expect((screen.getByRole("button", { name: /^Run/ }) as HTMLButtonElement).disabled).toBe(true);
    ctrlEnter();
    await waitFor(() => expect(screen.getByTestId("partiql-run-blocked").getAttribute("role")).toBe("alert"));
    expect(screen.getByTestId("partiql-run-blocked").textContent).toMatch(/^Not run\. /);
    expect(source.executeStatement).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("partiql-stale").textContent).toBe(
      `Results of the previous run (SELECT * FROM "Telemetry" WHERE vehicleId = ? AND recordedAt > ?), not of the statement and parameters in the editor: run it to see what they return.`,
    );

    // A valid value again: Run is on; the result is still the previous run's until it runs.
    fireEvent.change(screen.getByLabelText("Parameter 2"), { target: { value: "5" } });
    expect(screen.queryByTestId("partiql-run-blocked")).toBeNull();
    expect(screen.getByTestId("partiql-stale")).toBeTruthy();
    ctrlEnter();
    await waitFor(() => expect(source.executeStatement).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByTestId("partiql-stale")).toBeNull());
    expect(vi.mocked(source.executeStatement).mock.calls[1]?.[1].parameters).toEqual([{ S: "VEH#V-7741" }, { N: "5" }]);
  });

  it("names the missing table and the connection, and says where a positioned error is", async () => {
    const answers: Answer<StatementPage>[] = [
      failed({ code: "NOT_FOUND", exception: "ResourceNotFoundException", message: "Requested resource not found" }),
      failed({ code: "VALIDATION", exception: "ValidationException", message: "Statement wasn't well formed, can't be processed: Unexpected keyword WHERE at 1:22:5" }),
    ];
    const source = fakeSource(() => answers.shift() ?? ok(page([])));
    renderWithCommands(<PartiqlScreen profile={profile} />, source);
    await waitFor(() => expect(source.listTables).toHaveBeenCalled());
    type(`SELECT * FROM "Nope"`);
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    ctrlEnter();
    expect((await screen.findByTestId("partiql-error-sentence")).textContent).toBe('No table named "Nope" on Embedded.');
    expect(screen.queryByTestId("partiql-error-at")).toBeNull();

    act(() => {
      const view = editor();
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: `SELECT * FROM "Pets" WHERE` } });
    });
    ctrlEnter();
    await waitFor(() => expect(screen.getByTestId("partiql-error-at").textContent).toBe("At line 1, column 22 (marked in the editor)."));
    expect(screen.queryByTestId("partiql-error-sentence")).toBeNull();
  });
});
