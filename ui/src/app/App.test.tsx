import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { App } from "./App";
import type { AppInfo, NewTable, Profile } from "../ipc/bindings.gen";
import type { Commands } from "../ipc/CommandsContext";
import { CommandsProvider } from "../ipc/CommandsContext";
import { renderWithCommands } from "../ipc/testCommands";
import { render } from "@testing-library/react";
import type { TableDescription } from "../ipc/bindings.gen";
import { tabbables } from "../shared/useModalDialog";

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

describe("a tab opened from elsewhere", () => {
  it("takes the focus into its content: a table chosen in the search, on its selected view's tab", async () => {
    renderApp();
    const search = await screen.findByLabelText("Search tables");
    search.focus();
    fireEvent.change(search, { target: { value: "pe" } });
    fireEvent.keyDown(search, { key: "Enter" });
    // Once the table is described and drawn.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("view-tab-collections")));
    expect(tabNamed("Pets")?.getAttribute("aria-selected")).toBe("true");
  });

  it("takes the focus into its content: PartiQL's editor, the modeler's first field", async () => {
    renderApp();
    fireEvent.click(await screen.findByTestId("partiql-embedded"));
    await waitFor(() => expect(document.activeElement?.getAttribute("data-testid")).toBe("partiql-input"));
    fireEvent.click(screen.getByTestId("open-modeler"));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("mf-model-name")));
  });

  it("leaves the focus where the user put it meanwhile", async () => {
    let describe: (value: unknown) => void = () => {};
    renderApp({ describeTable: vi.fn(() => new Promise((resolve) => (describe = resolve))) });
    const search = await screen.findByLabelText("Search tables");
    search.focus();
    fireEvent.keyDown(search, { key: "Enter" });
    // Still being described: the user goes on typing in the search.
    fireEvent.keyDown(search, { key: "p" });
    describe({ status: "ok", data: pets });
    await screen.findByTestId("view-tab-collections");
    expect(document.activeElement).toBe(search);
  });

  it("is reached from “Skip to content”, the window's first Tab stop", async () => {
    renderApp();
    const skip = screen.getByTestId("skip-to-content");
    expect(tabbables(document.body)[0]).toBe(skip);
    fireEvent.click(await screen.findByTestId("open-table-Pets"));
    await screen.findByTestId("view-tab-collections");
    skip.focus();
    fireEvent.click(skip);
    expect(document.activeElement).toBe(screen.getByTestId("view-tab-collections"));
  });
});

describe("the start screen's steps", () => {
  it("open their table with the focus on the view they show, not left on the hidden step", async () => {
    const telemetry = { ...pets, name: "Telemetry", keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } } };
    renderApp({
      listTables: vi.fn(() => ok({ names: ["CustomerOrders", "Telemetry"], nextStart: null })),
      describeTable: vi.fn((_p: string, name: string) => ok({ ...telemetry, name })),
    });
    const step = async (n: number) => {
      fireEvent.click(screen.getByRole("tab", { name: /^Start/ }));
      const button = await screen.findByRole("button", { name: new RegExp(`^Step ${n}:`) });
      await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
      button.focus();
      fireEvent.click(button);
    };
    const tabOfView = (table: string, view: string) => within(screen.getByTestId(`table-screen-${table}`)).getByTestId(`view-tab-${view}`);
    await step(2);
    await waitFor(() => expect(document.activeElement).toBe(tabOfView("Telemetry", "cost")));
    await step(4);
    await waitFor(() => expect(document.activeElement).toBe(tabOfView("CustomerOrders", "indexes")));
    // A table already open, on another view.
    await step(3);
    await waitFor(() => expect(document.activeElement).toBe(tabOfView("Telemetry", "collections")));
    expect(tabOfView("Telemetry", "collections").getAttribute("aria-selected")).toBe("true");
  });
});

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
