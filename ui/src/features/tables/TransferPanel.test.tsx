import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import { TransferPanel, type TransferSource } from "./TransferPanel";
import type { TransferProgress } from "../../ipc/bindings.gen";

afterEach(cleanup);

function source(): TransferSource {
  return {
    exportItems: vi.fn(async () => ({ status: "ok" as const, data: { progress: { items: 1441, capacityUnits: 12.5, retries: 0 }, cancelled: false } })),
    importItems: vi.fn(async () => ({ status: "ok" as const, data: { progress: { items: 1441, capacityUnits: 1441, retries: 1 }, cancelled: false } })),
    estimateImportFile: vi.fn(async () => ({
      status: "ok" as const,
      data: { items: 1441, requests: 58, capacityUnits: 2500, tableUnits: 1441, indexes: [{ name: "ByDepot", units: 1059 }], exact: true, lines: [] },
    })),
    cancelOperation: vi.fn(async () => true),
    chooseFile: vi.fn(async () => ({ status: "ok" as const, data: null })),
  };
}

const channel = () => ({}) as Channel<TransferProgress>;

describe("TransferPanel", () => {
  it("exports the table to the file typed, in the format chosen", async () => {
    const fake = source();
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    fireEvent.change(screen.getByLabelText("File"), { target: { value: "/tmp/t.csv" } });
    fireEvent.click(screen.getByRole("button", { name: "Export" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Exported 1,441 items: 12.5 capacity units consumed."));
    expect((fake.exportItems as ReturnType<typeof vi.fn>).mock.calls[0]!.slice(2, 5)).toEqual([{ kind: "table", table: "Telemetry" }, "csv", "/tmp/t.csv"]);
  });

  it("imports only after the estimate of what the file will cost was shown", async () => {
    const fake = source();
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.change(screen.getByLabelText("File"), { target: { value: "/tmp/t.ddb.jsonl" } });
    expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
    await waitFor(() =>
      expect(screen.getByTestId("import-estimate").textContent).toBe(
        "Importing 1,441 items takes 58 BatchWriteItem requests and 2500 WCU (1441 for the table, 1059 for ByDepot).",
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Imported 1,441 items: 1441 capacity units consumed."));
    expect(fake.importItems).toHaveBeenCalledWith("embedded", expect.stringMatching(/^transfer-/), "Telemetry", "dynamodbJson", "/tmp/t.ddb.jsonl", expect.anything());
  });

  it("fills the file from the system's dialog, suggesting a name with the format's extension", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: "/home/me/Telemetry.csv" }));
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    await waitFor(() => expect((screen.getByLabelText("File") as HTMLInputElement).value).toBe("/home/me/Telemetry.csv"));
    expect(fake.chooseFile).toHaveBeenCalledWith("save", "Telemetry.csv", "csv");
    // Cancelling the dialog leaves the field as it was.
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: null }));
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "dynamodbJson" } });
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(fake.chooseFile).toHaveBeenCalledWith("open", "Telemetry.ddb.jsonl", "jsonl"));
    expect((screen.getByLabelText("File") as HTMLInputElement).value).toBe("/home/me/Telemetry.csv");
  });

  it("turns importing off on a read-only connection", () => {
    render(<TransferPanel profileId="p" table="Telemetry" query={null} readOnly={true} source={source()} makeChannel={channel} />);
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Choose a file to import…" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("This connection is read-only: importing is off.")).toBeTruthy();
  });
});
