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
  const chosen = (name: string, replaces = false) => ({ handle: `file-1-${name}`, name, replaces });

  it("has no field to type a path into: files come only from the system's dialog", () => {
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={source()} makeChannel={channel} />);
    expect(screen.queryByLabelText("File")).toBeNull();
    expect(screen.queryAllByRole("textbox")).toHaveLength(0);
    expect((screen.getByRole("button", { name: "Export" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("exports the table to the file chosen, by its handle, in the format chosen", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.csv") }));
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    expect(fake.chooseFile).toHaveBeenCalledWith("save", "Telemetry.csv", "csv");
    fireEvent.click(await screen.findByRole("button", { name: "Export to Telemetry.csv" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Exported 1,441 items: 12.5 capacity units consumed."));
    expect((fake.exportItems as ReturnType<typeof vi.fn>).mock.calls[0]!.slice(2, 5)).toEqual([
      { kind: "table", table: "Telemetry" },
      "csv",
      "file-1-Telemetry.csv",
    ]);
  });

  it("asks before an export replaces an existing file", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.ddb.jsonl", true) }));
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    const ask = await screen.findByRole("alertdialog", { name: "Replace the file" });
    expect(ask.textContent).toContain("Telemetry.ddb.jsonl already exists.");
    const exportButton = screen.getByRole("button", { name: "Export to Telemetry.ddb.jsonl" }) as HTMLButtonElement;
    expect(exportButton.disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Replace Telemetry.ddb.jsonl" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(exportButton.disabled).toBe(false);
    fireEvent.click(exportButton);
    await waitFor(() => expect(fake.exportItems).toHaveBeenCalledTimes(1));
  });

  it("imports only after the estimate of what the chosen file will cost was shown", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("t.ddb.jsonl") }));
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from t.ddb.jsonl."));
    expect(fake.chooseFile).toHaveBeenCalledWith("open", "Telemetry.ddb.jsonl", "jsonl");
    expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
    await waitFor(() =>
      expect(screen.getByTestId("import-estimate").textContent).toBe(
        "Importing 1,441 items takes 58 BatchWriteItem requests and 2500 WCU (1441 for the table, 1059 for ByDepot).",
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Imported 1,441 items: 1441 capacity units consumed."));
    expect(fake.importItems).toHaveBeenCalledWith("embedded", expect.stringMatching(/^transfer-/), "Telemetry", "dynamodbJson", "file-1-t.ddb.jsonl", expect.anything());
  });

  it("keeps the file chosen when the dialog is cancelled", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("a.ddb.jsonl") }));
    render(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} source={fake} makeChannel={channel} />);
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from a.ddb.jsonl."));
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: null }));
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(fake.chooseFile).toHaveBeenCalled());
    expect(screen.getByTestId("transfer-files").textContent).toContain("Import from a.ddb.jsonl.");
  });

  it("turns importing off on a read-only connection", () => {
    render(<TransferPanel profileId="p" table="Telemetry" query={null} readOnly={true} source={source()} makeChannel={channel} />);
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Choose a file to import…" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("This connection is read-only: importing is off.")).toBeTruthy();
  });
});
