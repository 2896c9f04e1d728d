/** Which views of a table have the query bar above them (TableScreen's BAR_VIEWS). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { TableScreen } from "./TableScreen";
import { CommandsProvider, type Commands } from "../../ipc/CommandsContext";
import { CapacityProvider } from "../../app/capacity";
import type { Profile, TableDescription } from "../../ipc/bindings.gen";

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

function renderPets() {
  const fake: Record<string, unknown> = { describeTable: vi.fn(async () => ({ status: "ok" as const, data: pets })) };
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
});
