import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { NewTable, NewTableCheck, Profile, TableDescription } from "../../ipc/bindings.gen";
import { CreateTableScreen } from "./CreateTableScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const embedded: Profile = { id: "embedded", name: "Embedded engine", color: "#2f5fd0", region: "us-east-1", readOnly: false, connection: { kind: "embedded" } };

/**
 * A backend that answers as the engine's CreateTable check would for the few rules these tests
 * type their way through (the real rules are tested in Rust, tests/table_life.rs): the messages
 * are DynamoDB's.
 */
function verdict(table: NewTable): NewTableCheck["problem"] {
  const invalid = (message: string) => ({ code: "VALIDATION" as const, exception: "ValidationException", message });
  if (table.name.length < 3) return invalid("TableName must be at least 3 characters long and at most 255 characters long");
  if (!/^[a-zA-Z0-9_.-]+$/.test(table.name)) {
    return invalid(
      `1 validation error detected: Value '${table.name}' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+`,
    );
  }
  const lsi = table.indexes.find((i) => i.kind === "local");
  if (lsi !== undefined && table.keys.sortKey === null) {
    return invalid("One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
  }
  return null;
}

function fakeSource(): Partial<Commands> & { checkNewTable: ReturnType<typeof vi.fn>; createTable: ReturnType<typeof vi.fn> } {
  return {
    listTables: vi.fn(async (_profile: string, start: string | null) => ({
      status: "ok" as const,
      data: start === null ? { names: ["Pets"], nextStart: "Pets" } : { names: ["Telemetry"], nextStart: null },
    })),
    checkNewTable: vi.fn(async (table: NewTable) => ({
      problem: verdict(table),
      code: { createTable: `{"TableName": "${table.name}"}`, updateTimeToLive: null, awsCli: `aws dynamodb create-table --table-name '${table.name}'`, cloudFormation: "Type: AWS::DynamoDB::Table" },
    })),
    createTable: vi.fn(async (_profile: string, table: NewTable) => ({ status: "ok" as const, data: { name: table.name } as TableDescription })),
  };
}

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe("CreateTableScreen", () => {
  it("says what is wrong with the name in plain words as it is typed, DynamoDB's message beneath, and nothing on an untouched form", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    await waitFor(() => expect(source.checkNewTable).toHaveBeenCalled());
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(screen.queryByTestId("create-problem")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByTestId("create-hint").textContent).toBe("Name the table to create it.");
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);

    type("create-name", "Tr");
    expect(screen.getByTestId("create-name-problem").textContent).toBe("A table name has 3 to 255 characters: this one has 2.");
    await waitFor(() => expect(screen.getByTestId("create-problem").querySelector("details")!.textContent).toContain("TableName must be at least 3 characters long"));
    expect(screen.getByTestId("create-problem-sentence").textContent).toBe("Create is off until this is fixed: A table name has 3 to 255 characters: this one has 2.");

    type("create-name", "my table");
    expect(screen.getByTestId("create-name-problem").textContent).toBe("A table name may only use letters a–z and A–Z, digits, _ . and -: this one has spaces.");
    type("create-name", "Trips!");
    await waitFor(() => expect(screen.getByTestId("create-problem").textContent).toContain("Value 'Trips!' at 'tableName'"));
    expect(screen.getByTestId("create-problem-sentence").textContent).not.toContain("validation error");
    expect(screen.getByTestId("create-name-problem").textContent).toContain("this one has “!”");

    type("create-name", "");
    expect(screen.getByTestId("create-name-problem").textContent).toBe("Name the table: 3 to 255 characters of letters, digits, _ . and -.");

    type("create-name", "Trips");
    await waitFor(() => expect(screen.getByTestId("create-ok")).toBeTruthy());
    expect(screen.queryByTestId("create-problem")).toBeNull();
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", false);
  });

  it("says a sort key named like the partition key, and a GSI key of another type than the table's, for what they are", () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    fireEvent.click(screen.getByTestId("create-sk-on"));
    type("create-sk-name", "pk");
    expect(screen.getByTestId("create-sk-problem").textContent).toBe("The partition key and the sort key must have different names.");
    type("create-sk-name", "sk");
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    fireEvent.change(screen.getByTestId("create-index-1-pk-name"), { target: { value: "sk" } });
    fireEvent.change(screen.getByTestId("create-index-1-pk-type"), { target: { value: "N" } });
    expect(screen.getByTestId("create-index-1-pk-problem").textContent).toBe(
      "sk is a String (S) in the table's key: an attribute has one type across the table and its indexes, so use S here, or another name.",
    );
    fireEvent.change(screen.getByTestId("create-index-1-pk-type"), { target: { value: "S" } });
    expect(screen.queryByTestId("create-index-1-pk-problem")).toBeNull();
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    fireEvent.change(screen.getByTestId("create-index-2-name"), { target: { value: "GSI1" } });
    expect(screen.getByTestId("create-index-2-name-problem").textContent).toBe("Another index is named GSI1: each index needs its own name.");
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);
  });

  it("an LSI takes the table's partition key, and without a table sort key the service's objection shows", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    fireEvent.click(screen.getByTestId("create-add-lsi"));
    await waitFor(() => expect(screen.getByTestId("create-problem").textContent).toContain("Table KeySchema does not have a range key"));
    expect(screen.getByTestId("create-problem-sentence").textContent).toBe(
      "Create is off until this is fixed: A local secondary index needs the table to have a sort key: tick Sort key, or remove the LSI.",
    );
    const sent = source.checkNewTable.mock.lastCall![0] as NewTable;
    expect(sent.indexes[0]).toMatchObject({ kind: "local", keys: { partitionKey: { name: "pk", type: "S" } } });
    fireEvent.click(screen.getByTestId("create-sk-on"));
    await waitFor(() => expect(screen.getByTestId("create-ok")).toBeTruthy());
  });

  it("sends the whole definition: keys, provisioned throughput, a GSI with INCLUDE, stream, TTL", async () => {
    const source = fakeSource();
    const onCreated = vi.fn();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={onCreated} />, source);
    type("create-name", "Trips");
    type("create-pk-name", "vehicleId");
    fireEvent.click(screen.getByTestId("create-sk-on"));
    type("create-sk-name", "startedAt");
    fireEvent.change(screen.getByTestId("create-sk-type"), { target: { value: "N" } });
    fireEvent.click(screen.getByTestId("create-provisioned"));
    type("create-rcu", "7");
    type("create-wcu", "3");
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    const gsi = screen.getByTestId("create-index-1");
    fireEvent.change(within(gsi).getByTestId("create-index-1-name"), { target: { value: "ByDepot" } });
    fireEvent.change(within(gsi).getByTestId("create-index-1-pk-name"), { target: { value: "depot" } });
    fireEvent.change(within(gsi).getByTestId("create-index-1-projection"), { target: { value: "INCLUDE" } });
    fireEvent.change(within(gsi).getByTestId("create-index-1-include"), { target: { value: "distanceKm, driver" } });
    fireEvent.change(screen.getByTestId("create-stream"), { target: { value: "NEW_IMAGE" } });
    type("create-ttl", "expiresAt");
    await waitFor(() => expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("create-submit"));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith({ name: "Trips" }));
    expect(source.createTable).toHaveBeenCalledWith("embedded", {
      name: "Trips",
      keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "startedAt", type: "N" } },
      billing: { mode: "provisioned", read_units: 7, write_units: 3 },
      indexes: [
        {
          name: "ByDepot",
          kind: "global",
          keys: { partitionKey: { name: "depot", type: "S" }, sortKey: null },
          projection: { type: "INCLUDE", attributes: ["distanceKm", "driver"] },
        },
      ],
      streamViewType: "NEW_IMAGE",
      ttlAttribute: "expiresAt",
      tags: [],
    });
  });

  it("draws the collections the example items form on the table and on a sparse GSI", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Fleet");
    // The example items take the keys' names as they are typed.
    type("create-pk-name", "vehicleId");
    fireEvent.click(screen.getByTestId("create-sk-on"));
    type("create-sk-name", "recordedAt");
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    fireEvent.change(screen.getByTestId("create-index-1-name"), { target: { value: "ByDepot" } });
    fireEvent.change(screen.getByTestId("create-index-1-pk-name"), { target: { value: "depot" } });
    const table = screen.getByTestId("preview-table-Fleet");
    // Two vehicles: two collections of the table, each in sort-key order (META before TS#…).
    const boxes = within(table).getAllByTestId("preview-box");
    expect(boxes).toHaveLength(2);
    expect(boxes.map((b) => b.querySelector(".collection-pk-value")?.textContent)).toEqual(["VEH#V-2208", "VEH#V-7741"]);
    expect(within(boxes[1]!).getAllByRole("listitem").map((li) => li.querySelector(".preview-sort")?.textContent)).toEqual([
      "META",
      "TS#2025-03-14T09:00:00Z",
      "TS#2025-03-14T09:01:00Z",
    ]);
    // The GSI: one collection per depot; the reading without a depot is not in it.
    const index = screen.getByTestId("preview-global-ByDepot");
    expect(within(index).getAllByTestId("preview-box").map((b) => b.querySelector(".collection-pk-value")?.textContent)).toEqual(["North", "South"]);
    expect(index.textContent).toContain("no depot, not in this index");

    // Edited example items are the user's: an item without the partition key is refused.
    fireEvent.change(screen.getByLabelText("Example items"), {
      target: { value: '[{"vehicleId": {"S": "VEH#1"}, "recordedAt": {"S": "META"}}, {"depot": {"S": "North"}}]' },
    });
    expect(within(screen.getByTestId("preview-table-Fleet")).getAllByTestId("preview-box")).toHaveLength(1);
    expect(screen.getByTestId("preview-table-Fleet").textContent).toContain("no vehicleId, so PutItem would refuse it");
  });

  it("draws at most 100 example items, and says so", () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Many");
    const items = Array.from({ length: 250 }, (_, i) => ({ pk: { S: `P#${i}` } }));
    fireEvent.change(screen.getByLabelText("Example items"), { target: { value: JSON.stringify(items) } });
    expect(within(screen.getByTestId("preview-table-Many")).getAllByTestId("preview-box")).toHaveLength(100);
    expect(screen.getByTestId("create-preview-cut").textContent).toBe("The first 100 of 250 example items are drawn.");
  });

  it("shows the code the backend wrote for the request, in each form", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    await waitFor(() => expect(screen.getByTestId("create-code").textContent).toContain('"TableName": "Trips"'));
    fireEvent.click(screen.getByTestId("create-code-cli"));
    expect(screen.getByTestId("create-code").textContent).toBe("aws dynamodb create-table --table-name 'Trips'");
    fireEvent.click(screen.getByTestId("create-code-cloudformation"));
    expect(screen.getByTestId("create-code").textContent).toContain("AWS::DynamoDB::Table");
  });

  it("switches the code's form as a row of tabs: one Tab stop, the arrows move the focus with the selection", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    await waitFor(() => expect(screen.getByTestId("create-code").textContent).toContain('"TableName": "Trips"'));
    const [json, cli, cloudFormation] = ["json", "cli", "cloudformation"].map((id) => screen.getByTestId(`create-code-${id}`));
    expect([json, cli, cloudFormation].map((t) => t!.tabIndex)).toEqual([0, -1, -1]);
    json!.focus();
    fireEvent.keyDown(json!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(cli);
    expect(screen.getByTestId("create-code").textContent).toBe("aws dynamodb create-table --table-name 'Trips'");
    fireEvent.keyDown(cli!, { key: "End" });
    expect(document.activeElement).toBe(cloudFormation);
    expect(cloudFormation!.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(cloudFormation!, { key: "ArrowRight" });
    expect(document.activeElement).toBe(json);
    expect(screen.getByTestId("create-code").textContent).toContain('"TableName": "Trips"');
  });

  it("on a read-only connection Create stays unavailable and says why", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={{ ...embedded, id: "p1", name: "prod", readOnly: true }} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    await waitFor(() => expect(screen.getByTestId("create-ok")).toBeTruthy());
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);
    expect(screen.getByText(/read-only: tables cannot be created/)).toBeTruthy();
  });

  it("a key name emptied to be retyped says to name it, and the preview waits for the name (no crash)", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Fleet");
    type("create-pk-name", "");
    expect(screen.getByTestId("create-pk-problem").textContent).toBe("Name the partition key.");
    expect(screen.getByTestId("create-pk-name").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("preview-table-Fleet").textContent).toContain("Name the partition key to see the collections");
    expect(within(screen.getByTestId("preview-table-Fleet")).queryAllByTestId("preview-box")).toHaveLength(0);
    await waitFor(() => expect(source.checkNewTable).toHaveBeenLastCalledWith(expect.objectContaining({ name: "Fleet" })));
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);

    type("create-pk-name", "vehicleId");
    fireEvent.click(screen.getByTestId("create-sk-on"));
    type("create-sk-name", "");
    expect(screen.getByTestId("create-sk-problem").textContent).toBe("Name the sort key.");
    expect(screen.getByTestId("preview-table-Fleet").textContent).toContain("Name the sort key to see the collections");

    // A GSI whose partition key is emptied: the table's collections are still drawn.
    type("create-sk-name", "recordedAt");
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    fireEvent.change(screen.getByTestId("create-index-1-pk-name"), { target: { value: "" } });
    expect(within(screen.getByTestId("preview-table-Fleet")).getAllByTestId("preview-box")).toHaveLength(2);
    expect(screen.getByTestId("preview-global-GSI1").textContent).toContain("Name the index's partition key to see the collections");
  });

  it("heads the table's preview plainly before the table is named", () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    const heading = screen.getByTestId("preview-table-").querySelector("h4")!.textContent!;
    expect(heading).toContain("The table (not named yet)");
    expect(heading).not.toContain("Table the table");
  });

  it("a fault in the form takes down the form alone, with a sentence and a way to draw it again", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const source = fakeSource();
    // A malformed answer (no code) makes the form throw as it draws it.
    source.checkNewTable.mockImplementation(async () => ({ problem: null, code: null }));
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    expect((await screen.findByTestId("view-failed")).textContent).toContain("The New table form stopped because of a fault in DynoTable");
    source.checkNewTable.mockImplementation(fakeSource().checkNewTable);
    fireEvent.click(screen.getByTestId("view-failed-reload"));
    expect(screen.getByTestId("create-table-screen")).toBeTruthy();
    quiet.mockRestore();
  });

  it("checks the capacity fields as typed: a whole number from 1 to 40,000, never 0 sent for what is not one", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    fireEvent.click(screen.getByTestId("create-provisioned"));
    for (const bad of ["-1", "1.5", "abc", "0", "99999999999999999999", "40001"]) {
      type("create-rcu", bad);
      expect(screen.getByTestId("create-rcu-problem").textContent).toBe("Enter a whole number from 1 to 40,000.");
      expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);
    }
    expect(screen.getByTestId("create-problem").textContent).not.toContain("'0'");
    expect(screen.getByTestId("create-problem").textContent).toContain("Create is off until this is fixed: Enter a whole number from 1 to 40,000.");
    fireEvent.submit(screen.getByRole("form", { name: "New table" }));
    expect(source.createTable).not.toHaveBeenCalled();
    type("create-rcu", "40000");
    expect(screen.queryByTestId("create-rcu-problem")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", false));
  });

  it("says plainly that a GSI takes the table's provisioned capacity", () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    fireEvent.click(screen.getByTestId("create-provisioned"));
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    expect(screen.getByTestId("create-gsi-capacity").textContent).toBe(
      "GSI1 gets the same RCU and WCU as the table, on top of the table's: this form has no separate capacity for an index.",
    );
  });

  it("says a name is taken as it is typed, from every page of the connection's tables", async () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Telemetry");
    await waitFor(() => expect(screen.getByTestId("create-name-problem").textContent).toBe("A table named Telemetry already exists on Embedded engine."));
    await waitFor(() => expect(source.checkNewTable).toHaveBeenLastCalledWith(expect.objectContaining({ name: "Telemetry" })));
    expect(screen.queryByTestId("create-ok")).toBeNull();
    expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", true);
    // Names are case-sensitive.
    type("create-name", "telemetry");
    await waitFor(() => expect(screen.getByTestId("create-ok")).toBeTruthy());
    expect(screen.queryByTestId("create-name-problem")).toBeNull();
  });

  it("a refused create never stands under a green 'would accept', and says the clash plainly", async () => {
    const source = fakeSource();
    source.createTable.mockImplementation(async () => ({
      status: "error" as const,
      error: { code: "VALIDATION" as const, exception: "ResourceInUseException", message: "Table already exists: Trips" },
    }));
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    type("create-name", "Trips");
    await waitFor(() => expect(screen.getByTestId("create-submit")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("create-submit"));
    const failure = await screen.findByTestId("create-failure");
    expect(failure.querySelector("p")!.textContent).toBe("The table was not created: a table named Trips already exists on Embedded engine.");
    expect(failure.querySelector("details")!.textContent).toContain("Table already exists: Trips");
    expect(screen.queryByTestId("create-ok")).toBeNull();
  });

  it("labels every field of the index and tag rows where it can be seen", () => {
    const source = fakeSource();
    renderWithCommands(<CreateTableScreen profile={embedded} onCreated={() => {}} />, source);
    fireEvent.click(screen.getByTestId("create-add-gsi"));
    const caption = (el: Element) => el.closest("label, .create-field")!.textContent!;
    expect(caption(screen.getByTestId("create-index-1-name"))).toMatch(/^Name/);
    expect(caption(screen.getByTestId("create-index-1-pk-name"))).toMatch(/^Partition key/);
    expect(caption(screen.getByTestId("create-index-1-projection"))).toMatch(/^Projection/);
    fireEvent.change(screen.getByTestId("create-index-1-projection"), { target: { value: "INCLUDE" } });
    expect(caption(screen.getByTestId("create-index-1-include"))).toMatch(/^Projected attributes/);
    expect(screen.getByRole("button", { name: "Remove the index GSI1" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Add tag" }));
    expect(caption(screen.getByTestId("create-tag-0-key"))).toMatch(/^Tag key/);
    expect(caption(screen.getByTestId("create-tag-0-value"))).toMatch(/^Value/);
  });
});
