import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Profile, TableChange, TableDescription } from "../../ipc/bindings.gen";
import { TableSettings } from "./TableSettings";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const profile: Profile = { id: "embedded", name: "Embedded engine", color: "#2f5fd0", region: "us-east-1", readOnly: false, connection: { kind: "embedded" } };

const trips: TableDescription = {
  name: "Trips",
  status: "ACTIVE",
  keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: null },
  attributeDefinitions: [{ name: "vehicleId", type: "S" }],
  billingMode: "PAY_PER_REQUEST",
  provisioned: null,
  itemCount: 10,
  sizeBytes: 1000,
  indexes: [
    { name: "ByDepot", kind: "global", keys: { partitionKey: { name: "depot", type: "S" }, sortKey: null }, projection: { type: "ALL", attributes: [] }, itemCount: 10, sizeBytes: 500, status: "ACTIVE", backfilling: null },
  ],
  streamViewType: null,
  ttlAttribute: null,
  createdAt: null,
  arn: "arn:aws:dynamodb:us-east-1:000000000000:table/Trips",
};

function source(overrides: Partial<Commands> = {}) {
  return {
    changeTable: vi.fn(async (_p: string, _t: string, _c: TableChange) => ({ status: "ok" as const, data: trips })),
    tableTags: vi.fn(async () => ({ status: "ok" as const, data: [{ key: "team", value: "fleet" }] })),
    describeTable: vi.fn(async () => ({ status: "ok" as const, data: trips })),
    ...overrides,
  };
}

describe("TableSettings", () => {
  it("sends each change as one command: capacity, a new GSI, stream, TTL, tags", async () => {
    const backend = source();
    renderWithCommands(<TableSettings profile={profile} table={trips} onChanged={() => {}} />, backend);
    fireEvent.click(screen.getByTestId("settings-provisioned"));
    fireEvent.change(screen.getByTestId("settings-rcu"), { target: { value: "4" } });
    fireEvent.change(screen.getByTestId("settings-wcu"), { target: { value: "3" } });
    fireEvent.click(screen.getByTestId("settings-billing-apply"));
    await waitFor(() =>
      expect(backend.changeTable).toHaveBeenLastCalledWith("embedded", "Trips", { kind: "billing", billing: { mode: "provisioned", read_units: 4, write_units: 3 } }),
    );

    fireEvent.change(screen.getByTestId("settings-gsi-name"), { target: { value: "ByDriver" } });
    fireEvent.change(screen.getByTestId("settings-gsi-pk"), { target: { value: "driver" } });
    await waitFor(() => expect(screen.getByTestId("settings-gsi-add")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("settings-gsi-add"));
    await waitFor(() =>
      expect(backend.changeTable).toHaveBeenLastCalledWith("embedded", "Trips", {
        kind: "addIndex",
        index: { name: "ByDriver", kind: "global", keys: { partitionKey: { name: "driver", type: "S" }, sortKey: null }, projection: { type: "ALL", attributes: [] } },
      }),
    );

    fireEvent.change(screen.getByTestId("settings-stream"), { target: { value: "NEW_IMAGE" } });
    await waitFor(() => expect(screen.getByTestId("settings-stream-apply")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("settings-stream-apply"));
    await waitFor(() => expect(backend.changeTable).toHaveBeenLastCalledWith("embedded", "Trips", { kind: "stream", viewType: "NEW_IMAGE" }));

    fireEvent.change(screen.getByTestId("settings-ttl"), { target: { value: "expiresAt" } });
    await waitFor(() => expect(screen.getByTestId("settings-ttl-on")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("settings-ttl-on"));
    await waitFor(() => expect(backend.changeTable).toHaveBeenLastCalledWith("embedded", "Trips", { kind: "timeToLive", attribute: "expiresAt" }));

    await waitFor(() => expect(screen.getByTestId("settings-tag-team").textContent).toContain("fleet"));
    fireEvent.change(screen.getByTestId("settings-tag-key"), { target: { value: "env" } });
    fireEvent.change(screen.getByTestId("settings-tag-value"), { target: { value: "test" } });
    await waitFor(() => expect(screen.getByTestId("settings-tag-add")).toHaveProperty("disabled", false));
    fireEvent.click(screen.getByTestId("settings-tag-add"));
    await waitFor(() => expect(backend.changeTable).toHaveBeenLastCalledWith("embedded", "Trips", { kind: "tags", set: [{ key: "env", value: "test" }], remove: [] }));
  });

  it("deletes a GSI only after a second click, and shows DynamoDB's refusal as it came", async () => {
    const backend = source({
      changeTable: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "VALIDATION" as const, exception: "ValidationException", message: "Time to live has been modified multiple times within a fixed interval" },
      })),
    });
    renderWithCommands(<TableSettings profile={profile} table={trips} onChanged={() => {}} />, backend);
    fireEvent.click(screen.getByTestId("settings-delete-gsi-ByDepot"));
    expect(backend.changeTable).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("settings-delete-gsi-confirm-ByDepot"));
    await waitFor(() => expect(backend.changeTable).toHaveBeenCalledWith("embedded", "Trips", { kind: "deleteIndex", name: "ByDepot" }));
    expect((await screen.findByTestId("settings-index-error")).textContent).toBe("ValidationException: Time to live has been modified multiple times within a fixed interval");
  });

  it("follows a new GSI's backfill from DescribeTable until it is ACTIVE", async () => {
    const creating: TableDescription = {
      ...trips,
      indexes: [...trips.indexes, { ...trips.indexes[0]!, name: "ByDriver", status: "CREATING", backfilling: true, itemCount: 4 }],
    };
    const active: TableDescription = { ...creating, indexes: creating.indexes.map((i) => ({ ...i, status: "ACTIVE", backfilling: false, itemCount: 10 })) };
    const backend = source({ describeTable: vi.fn(async () => ({ status: "ok" as const, data: active })) });
    const onChanged = vi.fn();
    renderWithCommands(<TableSettings profile={profile} table={creating} onChanged={onChanged} />, backend);
    expect(screen.getByTestId("settings-backfill-ByDriver").textContent).toContain("backfilling: 4 of 10 items so far");
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(active));
  });

  it("offers no change on a read-only connection, and says why", () => {
    const backend = source();
    renderWithCommands(<TableSettings profile={{ ...profile, readOnly: true, name: "prod" }} table={trips} onChanged={() => {}} />, backend);
    expect(screen.getByTestId("settings-read-only").textContent).toContain("prod is a read-only connection");
    expect(screen.queryByTestId("settings-billing-apply")).toBeNull();
  });

  it("checks capacity as typed (a whole number from 1 to 40,000), and says Apply changes the GSIs too", async () => {
    const backend = source();
    renderWithCommands(<TableSettings profile={profile} table={trips} onChanged={() => {}} />, backend);
    fireEvent.click(screen.getByTestId("settings-provisioned"));
    for (const bad of ["0", "abc", "-3", "2.5", "50000"]) {
      fireEvent.change(screen.getByTestId("settings-rcu"), { target: { value: bad } });
      expect(screen.getByTestId("settings-rcu-problem").textContent).toContain("Enter a whole number from 1 to 40,000.");
      expect(screen.getByTestId("settings-billing-apply")).toHaveProperty("disabled", true);
    }
    fireEvent.submit(screen.getByRole("form", { name: "Capacity" }));
    expect(backend.changeTable).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId("settings-rcu"), { target: { value: "4" } });
    expect(screen.getByTestId("settings-gsi-capacity").textContent).toBe(
      "Apply sets the table and its GSI ByDepot to 4 RCU and 5 WCU each: an index's own capacity cannot be set apart here.",
    );
    expect(screen.getByTestId("settings-billing-apply")).toHaveProperty("disabled", false);
  });

  it("keeps Add GSI off, with the reason, until the index is named and keyed as the table allows", () => {
    const backend = source();
    const provisioned: TableDescription = { ...trips, attributeDefinitions: [...trips.attributeDefinitions, { name: "depot", type: "S" }] };
    renderWithCommands(<TableSettings profile={profile} table={provisioned} onChanged={() => {}} />, backend);
    const add = screen.getByTestId("settings-gsi-add");
    expect(add).toHaveProperty("disabled", true);
    expect(screen.getByTestId("settings-gsi-blocked").textContent).toBe("Add GSI is off until this is fixed: Name the index: 3 to 255 characters of letters, digits, _ . and -.");
    fireEvent.change(screen.getByTestId("settings-gsi-name"), { target: { value: "ByDepot" } });
    expect(screen.getByTestId("settings-gsi-blocked").textContent).toBe("Add GSI is off until this is fixed: Another index is named ByDepot: each index needs its own name.");
    fireEvent.change(screen.getByTestId("settings-gsi-name"), { target: { value: "ByDepot2" } });
    expect(screen.getByTestId("settings-gsi-blocked").textContent).toBe("Add GSI is off until this is fixed: Name the index's partition key.");
    fireEvent.change(screen.getByTestId("settings-gsi-pk"), { target: { value: "depot" } });
    fireEvent.change(screen.getByLabelText("New index partition key type"), { target: { value: "N" } });
    expect(screen.getByTestId("settings-gsi-blocked").textContent).toContain("depot is a String (S) in the table: an attribute has one type");
    fireEvent.submit(screen.getByRole("form", { name: "Add a GSI" }));
    expect(backend.changeTable).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText("New index partition key type"), { target: { value: "S" } });
    expect(screen.queryByTestId("settings-gsi-blocked")).toBeNull();
    expect(add).toHaveProperty("disabled", false);
  });

  it("offers only the stream changes DynamoDB accepts, and shows a stream refusal under the stream's own row", async () => {
    const streamed: TableDescription = { ...trips, name: "Streamed", streamViewType: "KEYS_ONLY" };
    const backend = source({
      changeTable: vi.fn(async () => ({
        status: "error" as const,
        error: { code: "VALIDATION" as const, exception: "ValidationException", message: "Table does not have an enabled stream" },
      })),
    });
    renderWithCommands(<TableSettings profile={profile} table={streamed} onChanged={() => {}} />, backend);
    // No view type to pick while a stream is on: off first, then on with the new type.
    expect(screen.queryByTestId("settings-stream")).toBeNull();
    expect(screen.getByTestId("settings-stream-on").textContent).toBe("On · KEYS_ONLY");
    expect(screen.getByRole("form", { name: "Stream" }).textContent).toContain("To change the view type, turn the stream off, then on with the new type");
    fireEvent.click(screen.getByTestId("settings-stream-off"));
    await waitFor(() => expect(backend.changeTable).toHaveBeenCalledWith("embedded", "Streamed", { kind: "stream", viewType: null }));
    const error = await screen.findByTestId("settings-stream-error");
    const ttlForm = screen.getByRole("form", { name: "Time to live" });
    // The stream's error comes before the TTL row, not under it.
    expect(error.compareDocumentPosition(ttlForm) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole("form", { name: "Stream" }).nextElementSibling).toBe(error);
  });

  it("does not offer a second change of time to live within DynamoDB's hour, and says from when", async () => {
    const now = Date.now();
    // Created ten minutes ago with time to live on: the next change is an hour after that at the earliest.
    const fresh: TableDescription = { ...trips, name: "Fresh", ttlAttribute: "expiresAt", createdAt: (now - 10 * 60 * 1000) / 1000 };
    const backend = source();
    const { unmount } = renderWithCommands(<TableSettings profile={profile} table={fresh} onChanged={() => {}} />, backend);
    expect(screen.getByTestId("settings-ttl-off")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("settings-ttl-wait").textContent).toContain("DynamoDB allows one change an hour, so the next from");
    unmount();

    // Created long ago: Turn on is offered; once this app has turned it on, Turn off waits the hour.
    const old: TableDescription = { ...trips, name: "Old", createdAt: (now - 3 * 60 * 60 * 1000) / 1000 };
    const on: TableDescription = { ...old, ttlAttribute: "expiresAt" };
    const changing = source({ changeTable: vi.fn(async () => ({ status: "ok" as const, data: on })) });
    let shown = old;
    const view = renderWithCommands(<TableSettings profile={profile} table={shown} onChanged={(t) => (shown = t)} />, changing);
    fireEvent.change(screen.getByTestId("settings-ttl"), { target: { value: "expiresAt" } });
    fireEvent.click(screen.getByTestId("settings-ttl-on"));
    await waitFor(() => expect(shown).toBe(on));
    view.rerender(<TableSettings profile={profile} table={shown} onChanged={(t) => (shown = t)} />);
    expect(screen.getByTestId("settings-ttl-off")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("settings-ttl-wait").textContent).toContain("Time to live was changed at");
  });

  it("the inline Delete index confirmation takes the focus on Keep, and Esc keeps the index and gives the focus back", () => {
    const backend = source();
    renderWithCommands(<TableSettings profile={profile} table={trips} onChanged={() => {}} />, backend);
    fireEvent.click(screen.getByTestId("settings-delete-gsi-ByDepot"));
    expect(document.activeElement).toBe(screen.getByTestId("settings-delete-gsi-keep-ByDepot"));
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId("settings-delete-gsi-ByDepot"));
    expect(backend.changeTable).not.toHaveBeenCalled();
  });

  it("labels the Add GSI and Add tag fields where they can be seen, not only in placeholders", () => {
    renderWithCommands(<TableSettings profile={profile} table={trips} onChanged={() => {}} />, source());
    const caption = (el: Element) => el.closest("label")?.textContent ?? "";
    expect(caption(screen.getByTestId("settings-gsi-name"))).toMatch(/^Index name/);
    expect(caption(screen.getByTestId("settings-gsi-pk"))).toMatch(/^Partition key/);
    expect(caption(screen.getByLabelText("New index projection"))).toMatch(/^Projection/);
    expect(caption(screen.getByTestId("settings-tag-key"))).toMatch(/^Tag key/);
    expect(caption(screen.getByTestId("settings-tag-value"))).toMatch(/^Value/);
  });
});
