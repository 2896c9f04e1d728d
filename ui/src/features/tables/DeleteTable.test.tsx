import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Profile } from "../../ipc/bindings.gen";
import { DeleteTable } from "./DeleteTable";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const profile: Profile = { id: "embedded", name: "Embedded engine", color: "#2f5fd0", region: "us-east-1", readOnly: false, connection: { kind: "embedded" } };

function source(confirmed: boolean): Partial<Commands> & { confirmDeleteTable: ReturnType<typeof vi.fn>; deleteTable: ReturnType<typeof vi.fn> } {
  return {
    confirmDeleteTable: vi.fn(async (_p: string, table: string) => ({ status: "ok" as const, data: confirmed ? { token: "delete-1-abc", table } : null })),
    deleteTable: vi.fn(async () => ({ status: "ok" as const, data: null })),
  };
}

describe("DeleteTable", () => {
  it("asks for the table's name, then the native confirmation, and deletes with the token it issued", async () => {
    const backend = source(true);
    const onDeleted = vi.fn();
    renderWithCommands(<DeleteTable profile={profile} table="Trips" onDeleted={onDeleted} />, backend);
    fireEvent.click(screen.getByTestId("delete-table"));
    const confirm = screen.getByTestId("delete-table-confirm");
    expect(confirm).toHaveProperty("disabled", true);
    fireEvent.change(screen.getByTestId("delete-table-name"), { target: { value: "trips" } });
    expect(confirm).toHaveProperty("disabled", true);
    fireEvent.change(screen.getByTestId("delete-table-name"), { target: { value: "Trips" } });
    expect(confirm).toHaveProperty("disabled", false);
    fireEvent.click(confirm);
    await waitFor(() => expect(onDeleted).toHaveBeenCalled());
    expect(backend.confirmDeleteTable).toHaveBeenCalledWith("embedded", "Trips");
    expect(backend.deleteTable).toHaveBeenCalledWith("embedded", "Trips", "delete-1-abc");
  });

  it("deletes nothing when the native dialog is declined", async () => {
    const backend = source(false);
    const onDeleted = vi.fn();
    renderWithCommands(<DeleteTable profile={profile} table="Trips" onDeleted={onDeleted} />, backend);
    fireEvent.click(screen.getByTestId("delete-table"));
    fireEvent.change(screen.getByTestId("delete-table-name"), { target: { value: "Trips" } });
    fireEvent.click(screen.getByTestId("delete-table-confirm"));
    await waitFor(() => expect(screen.getByTestId("delete-table-declined").textContent).toContain("nothing was deleted"));
    expect(backend.deleteTable).not.toHaveBeenCalled();
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it("on a read-only connection the button is unavailable and says why", () => {
    const backend = source(true);
    renderWithCommands(<DeleteTable profile={{ ...profile, readOnly: true, name: "prod" }} table="Trips" onDeleted={() => {}} />, backend);
    expect(screen.getByTestId("delete-table")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("delete-table-why").textContent).toContain("prod is a read-only connection");
  });
});
