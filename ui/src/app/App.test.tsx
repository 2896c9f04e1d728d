import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { App } from "./App";
import type { AppInfo, NewTable, Profile } from "../ipc/bindings.gen";
import type { Commands } from "../ipc/CommandsContext";
import { CommandsProvider } from "../ipc/CommandsContext";
import { renderWithCommands } from "../ipc/testCommands";
import { render } from "@testing-library/react";
import type { TableDescription } from "../ipc/bindings.gen";

const embedded: Profile = { id: "embedded", name: "Embedded", color: "#3b82f6", region: "local", readOnly: false, connection: { kind: "embedded" } };
const ok = <T,>(data: T) => Promise.resolve({ status: "ok" as const, data });

function source(): Partial<Commands> {
  return {
    appInfo: vi.fn(() => ok({ version: "0.1.0", dataDir: "/d", enginePath: "/d/e", engine: { state: "ready", tableCount: 1, message: null } } as AppInfo)),
    listProfiles: vi.fn(() => ok([embedded])),
    listAwsProfiles: vi.fn(() => ok([])),
    listRegions: vi.fn(async () => ["us-east-1"]),
    sharedEngine: vi.fn(() => ok(null)),
    listTables: vi.fn(() => ok({ names: ["Pets"], nextStart: null })),
    checkNewTable: vi.fn(async (table: NewTable) => ({
      problem: null,
      code: { createTable: `{"TableName": "${table.name}"}`, updateTimeToLive: null, awsCli: "aws dynamodb create-table", cloudFormation: "Type: AWS::DynamoDB::Table" },
    })),
  } as unknown as Partial<Commands>;
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

async function openNewTable() {
  fireEvent.click(await screen.findByRole("button", { name: "+ New table" }));
  return screen.findByTestId("create-name");
}

const tabNamed = (title: string) => screen.queryByRole("tab", { name: new RegExp(`^${title}`) });

describe("closing a New table tab", () => {
  it("asks before a filled-in form is thrown away, and keeps it when the user says so", async () => {
    renderWithCommands(<App />, source());
    const name = await openNewTable();
    fireEvent.change(name, { target: { value: "Orders" } });

    fireEvent.click(screen.getByRole("button", { name: "Close New table" }));
    const dialog = await screen.findByTestId("discard-new-table");
    expect(dialog.textContent).toContain("Discard the new table?");
    expect(tabNamed("New table")).not.toBeNull();
    // Focus starts on keeping it; Escape keeps it too.
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Keep editing" }));
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByTestId("discard-new-table")).toBeNull());
    expect((screen.getByTestId("create-name") as HTMLInputElement).value).toBe("Orders");

    fireEvent.click(screen.getByRole("button", { name: "Close New table" }));
    fireEvent.click(await screen.findByTestId("discard-new-table-confirm"));
    await waitFor(() => expect(tabNamed("New table")).toBeNull());
    expect(screen.queryByTestId("discard-new-table")).toBeNull();
  });

  it("closes an untouched form at once", async () => {
    renderWithCommands(<App />, source());
    await openNewTable();
    fireEvent.click(screen.getByRole("button", { name: "Close New table" }));
    await waitFor(() => expect(tabNamed("New table")).toBeNull());
    expect(screen.queryByTestId("discard-new-table")).toBeNull();
  });
});

const pets = {
  name: "Pets",
  status: "ACTIVE",
  attributeDefinitions: [{ name: "AnimalType", type: "S" }],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
  keys: { partitionKey: { name: "AnimalType", type: "S" }, sortKey: null },
  indexes: [],
  itemCount: 10,
  sizeBytes: 275,
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
} as unknown as TableDescription;

/** The app on the fake backend; whatever else the screens ask stays unanswered. */
function renderApp(more: Record<string, unknown> = {}) {
  const fake = { ...source(), describeTable: vi.fn(() => ok(pets)), ...more } as Record<string, unknown>;
  const commands = new Proxy(fake, { get: (target, name: string) => target[name] ?? (() => new Promise(() => {})) }) as unknown as Commands;
  return render(
    <CommandsProvider commands={commands}>
      <App />
    </CommandsProvider>,
  );
}

describe("Select All", () => {
  it("selects nothing outside a text field (not the whole window's text), and is the field's inside one", async () => {
    renderApp();
    const search = await screen.findByLabelText("Search tables");
    const button = screen.getByRole("button", { name: "+ New connection" });
    expect(fireEvent.keyDown(button, { key: "a", ctrlKey: true })).toBe(false);
    expect(fireEvent.keyDown(document.body, { key: "a", ctrlKey: true })).toBe(false);
    expect(fireEvent.keyDown(search, { key: "a", ctrlKey: true })).toBe(true);
    const textarea = document.createElement("textarea");
    const editable = document.createElement("div");
    editable.setAttribute("contenteditable", "true");
    document.body.append(textarea, editable);
    expect(fireEvent.keyDown(textarea, { key: "a", ctrlKey: true })).toBe(true);
    expect(fireEvent.keyDown(editable, { key: "a", ctrlKey: true })).toBe(true);
    textarea.remove();
    editable.remove();
  });
});

describe("deleting a table", () => {
  it("closes its tab and says so in the status bar", async () => {
    const fake = {
      ...source(),
      describeTable: vi.fn(() =>
        ok({
          name: "Pets",
          status: "ACTIVE",
          attributeDefinitions: [{ name: "AnimalType", type: "S" }],
          streamViewType: null,
          ttlAttribute: null,
          createdAt: null,
          arn: null,
          keys: { partitionKey: { name: "AnimalType", type: "S" }, sortKey: null },
          indexes: [],
          itemCount: 10,
          sizeBytes: 275,
          billingMode: "PAY_PER_REQUEST",
          provisioned: null,
        } as unknown as TableDescription),
      ),
      confirmDeleteTable: vi.fn((_p: string, table: string) => ok({ token: "delete-1", table })),
      deleteTable: vi.fn(() => ok(null)),
    } as Record<string, unknown>;
    // Whatever else the table's views ask stays unanswered: only the deletion matters here.
    const commands = new Proxy(fake, { get: (target, name: string) => target[name] ?? (() => new Promise(() => {})) }) as unknown as Commands;
    render(
      <CommandsProvider commands={commands}>
        <App />
      </CommandsProvider>,
    );
    fireEvent.click(await screen.findByRole("option", { name: "Pets" }));
    fireEvent.click(await screen.findByTestId("view-tab-settings"));
    fireEvent.click(await screen.findByTestId("delete-table"));
    fireEvent.change(screen.getByTestId("delete-table-name"), { target: { value: "Pets" } });
    fireEvent.click(screen.getByTestId("delete-table-confirm"));
    await waitFor(() => expect(tabNamed("Pets")).toBeNull());
    expect(screen.getByTestId("status-notice").textContent).toBe("Deleted table Pets from Embedded: its tab was closed.");
  });
});
