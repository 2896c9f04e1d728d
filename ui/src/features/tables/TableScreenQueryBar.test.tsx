/** Which views of a table have the query bar above them (TableScreen's BAR_VIEWS), and answer its Ctrl+Enter and Ctrl+J. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { TableScreen } from "./TableScreen";
import { CommandsProvider, type Commands } from "../../ipc/CommandsContext";
import { CapacityProvider } from "../../app/capacity";
import type { Profile, QueryPage, TableDescription } from "../../ipc/bindings.gen";
import { fakeBuild } from "../query/fakeQuerySource";

afterEach(cleanup);

const embedded: Profile = { id: "embedded", name: "Embedded", color: "#4f7cff", region: "local", readOnly: false, connection: { kind: "embedded" } };
const pets = {
  name: "Pets",
  status: "ACTIVE",
  keys: { partitionKey: { name: "AnimalType", type: "S" }, sortKey: { name: "Name", type: "S" } },
  attributeDefinitions: [
    { name: "AnimalType", type: "S" },
    { name: "Name", type: "S" },
  ],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10,
  sizeBytes: 275,
  indexes: [],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: null,
} as TableDescription;

function renderPets(more: Record<string, unknown> = {}) {
  const fake: Record<string, unknown> = { describeTable: vi.fn(async () => ({ status: "ok" as const, data: pets })), ...more };
  // What the views ask beyond the description stays unanswered: only where the bar is matters here.
  const commands = new Proxy(fake, { get: (target, name: string) => target[name] ?? (() => new Promise(() => {})) }) as unknown as Commands;
  render(
    <CommandsProvider commands={commands}>
      <CapacityProvider>
        <TableScreen profile={embedded} tableName="Pets" makeChannel={() => ({}) as never} makeTailChannel={() => ({}) as never} />
      </CapacityProvider>
    </CommandsProvider>,
  );
}

const bar = () => screen.getByTestId("query-bar");
const shown = () => bar().closest("[hidden]") === null;
const view = (id: string) => fireEvent.click(screen.getByTestId(`view-tab-${id}`));

describe("the query bar", () => {
  it("is above the views that read with it, hidden above Settings, Stream and TTL, and kept as it was", async () => {
    renderPets();
    await waitFor(() => expect(bar()).toBeTruthy());
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "Dog" } });
    for (const id of ["collections", "items", "indexes", "cost", "code", "transfer"]) {
      view(id);
      expect(shown(), id).toBe(true);
    }
    for (const id of ["settings", "stream", "ttl"]) {
      view(id);
      expect(shown(), id).toBe(false);
      expect(screen.getByTestId("table-screen-Pets").classList.contains("table-screen-no-bar")).toBe(true);
    }
    view("items");
    expect(shown()).toBe(true);
    expect(screen.getByTestId("table-screen-Pets").classList.contains("table-screen-no-bar")).toBe(false);
    // Hidden, not dropped: what was typed is still there.
    expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("Dog");
  });

  it("runs with Ctrl+Enter only on the views that show it: on Settings, Stream and TTL the key does nothing", async () => {
    const page: QueryPage = { items: [], count: 0, scannedCount: 0, lastEvaluatedKey: null, consumedCapacity: null, stop: "end" };
    const runReadRequest = vi.fn(async () => ({ status: "ok" as const, data: page }));
    renderPets({ buildReadRequest: vi.fn(fakeBuild), runReadRequest });
    await waitFor(() => expect(bar()).toBeTruthy());
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "Dog" } });
    const ctrlEnter = () => fireEvent.keyDown(document.body, { key: "Enter", ctrlKey: true });
    // Where the bar is shown, the key runs its Query (from outside the bar too).
    view("items");
    expect(ctrlEnter()).toBe(false);
    await waitFor(() => expect(runReadRequest).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((screen.getByTestId("qb-run") as HTMLButtonElement).disabled).toBe(false));
    for (const id of ["settings", "stream", "ttl"]) {
      view(id);
      // Not taken either: the key is left to whatever else on the view wants it.
      expect(ctrlEnter(), id).toBe(true);
    }
    view("items");
    expect((screen.getByTestId("qb-run") as HTMLButtonElement).disabled).toBe(false);
    expect(runReadRequest).toHaveBeenCalledTimes(1);
  });

  it("reads the next page with Ctrl+J only on the views that show it: on Settings, Stream and TTL the key does nothing", async () => {
    const page: QueryPage = {
      items: [{ AnimalType: { S: "Dog" }, Name: { S: "Rex" } }],
      count: 1,
      scannedCount: 1,
      lastEvaluatedKey: { AnimalType: { S: "Dog" }, Name: { S: "Rex" } },
      consumedCapacity: null,
      stop: "limit",
    };
    const runReadRequest = vi.fn(async () => ({ status: "ok" as const, data: page }));
    renderPets({ buildReadRequest: vi.fn(fakeBuild), runReadRequest });
    await waitFor(() => expect(bar()).toBeTruthy());
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "Dog" } });
    view("collections");
    fireEvent.keyDown(document.body, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(runReadRequest).toHaveBeenCalledTimes(1));
    await waitFor(() => expect((screen.getByTestId("qb-run") as HTMLButtonElement).disabled).toBe(false));
    const ctrlJ = () => fireEvent.keyDown(document.body, { key: "j", ctrlKey: true });
    for (const id of ["settings", "stream", "ttl"]) {
      view(id);
      // Not taken: the key is left to whatever else on the view wants it.
      expect(ctrlJ(), id).toBe(true);
    }
    expect(runReadRequest).toHaveBeenCalledTimes(1);
    // Where the bar is shown, the key reads the next page (from outside the bar too).
    view("collections");
    expect(ctrlJ()).toBe(false);
    await waitFor(() => expect(runReadRequest).toHaveBeenCalledTimes(2));
  });
});
