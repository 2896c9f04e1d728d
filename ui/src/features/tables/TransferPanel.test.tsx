import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import { TransferPanel } from "./TransferPanel";
import type { ImportPreview, TransferProgress, TransferSummary } from "../../ipc/bindings.gen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const summary = (items: number, capacityUnits: number, more: Partial<TransferSummary> = {}): TransferSummary => ({
  progress: { stage: "transferring", items, expectedItems: items, capacityUnits, retries: 0 },
  cancelled: false,
  budgetReached: false,
  ...more,
});

const exportEstimate = {
  items: 1_000_000,
  bytes: 200 * 1024 * 1024,
  pages: 200,
  capacityUnits: 25700.5,
  approximate: true,
  sizeUnknown: false,
  lines: [],
};

function source(): Partial<Commands> {
  return {
    exportItems: vi.fn(async () => ({ status: "ok" as const, data: summary(1441, 12.5) })),
    importItems: vi.fn(async () => ({ status: "ok" as const, data: summary(1441, 1441) })),
    estimateExport: vi.fn(async () => ({ status: "ok" as const, data: exportEstimate })),
    estimateImportFile: vi.fn(async () => ({
      status: "ok" as const,
      data: { items: 1441, requests: 58, capacityUnits: 2500, tableUnits: 1441, indexes: [{ name: "ByDepot", units: 1059 }], exact: true, lines: [] },
    })),
    cancelOperation: vi.fn(async () => true),
    chooseFile: vi.fn(async () => ({ status: "ok" as const, data: null })),
    previewImportFile: vi.fn(async () => ({ status: "ok" as const, data: petsPreview() })),
  };
}

/** What the backend answers for a plain CSV of pets (a header without types) on a table keyed by AnimalType and Name. */
function petsPreview(): ImportPreview {
  const column = (name: string, more: Partial<ImportPreview["columns"][number]> = {}): ImportPreview["columns"][number] => ({
    header: name,
    name,
    type: "S",
    source: "inferred",
    tableKey: false,
    emptyCells: 0,
    misfits: [],
    numberChange: null,
    ...more,
  });
  return {
    columns: [
      column("AnimalType", { source: "key", tableKey: true, misfits: [{ type: "N", row: 1, message: '"Dog" is not a DynamoDB number (not a decimal number)' }] }),
      column("Name", { source: "key", tableKey: true }),
      column("Age", { type: "N", emptyCells: 1, numberChange: { cell: "007", stored: "7" }, misfits: [{ type: "BOOL", row: 1, message: '"007" is not true or false' }] }),
      column("Vaccinated", { type: "BOOL" }),
      column("Chip", { misfits: [{ type: "N", row: 2, message: '"A-12" is not a DynamoDB number (not a decimal number)' }] }),
    ],
    rows: [
      ["Dog", "Fido", "007", "true", "12"],
      ["Cat", "Tom", "", "FALSE", "A-12"],
    ],
    rowsRead: 2,
    moreRows: false,
    missingKeys: [],
  };
}

const channel = () => ({}) as Channel<TransferProgress>;

describe("TransferPanel", () => {
  const chosen = (name: string, replaces = false) => ({ handle: `file-1-${name}`, name, replaces });

  it("has no field to type a path into: files come only from the system's dialog", () => {
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, source());
    expect(screen.queryByLabelText("File")).toBeNull();
    expect(screen.queryAllByRole("textbox")).toHaveLength(0);
    expect((screen.getByRole("button", { name: "Export" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("exports the table to the file chosen, by its handle, in the format chosen", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.csv") }));
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    expect(fake.chooseFile).toHaveBeenCalledWith("save", "Telemetry.csv", "csv");
    fireEvent.click(await screen.findByRole("button", { name: "Export to Telemetry.csv" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Exported 1,441 items: 12.5 capacity units consumed."));
    expect((fake.exportItems as ReturnType<typeof vi.fn>).mock.calls[0]!.slice(2, 6)).toEqual([
      { kind: "table", table: "Telemetry" },
      "csv",
      "file-1-Telemetry.csv",
      null,
    ]);
  });

  it("asks before an export replaces an existing file", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.ddb.jsonl", true) }));
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
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
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from t.ddb.jsonl."));
    expect(fake.chooseFile).toHaveBeenCalledWith("open", "Telemetry.ddb.jsonl", "jsonl");
    expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
    await waitFor(() =>
      expect(screen.getByTestId("import-estimate").textContent).toBe(
        "Importing 1,441 items takes 58 BatchWriteItem requests and 2,500 WCU (1,441 for the table, 1,059 for ByDepot).",
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "Import" }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Imported 1,441 items: 1,441 capacity units consumed."));
    expect(fake.importItems).toHaveBeenCalledWith("embedded", expect.stringMatching(/^transfer-/), "Telemetry", "dynamodbJson", "file-1-t.ddb.jsonl", null, expect.anything());
    // A JSON file's values carry their types: no preview, no column types.
    expect(fake.previewImportFile).not.toHaveBeenCalled();
    expect(fake.estimateImportFile).toHaveBeenCalledWith("embedded", "Telemetry", "dynamodbJson", "file-1-t.ddb.jsonl", null);
  });

  it("keeps the file chosen when the dialog is cancelled", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("a.ddb.jsonl") }));
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from a.ddb.jsonl."));
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: null }));
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(fake.chooseFile).toHaveBeenCalled());
    expect(screen.getByTestId("transfer-files").textContent).toContain("Import from a.ddb.jsonl.");
  });

  it("lets go of the files chosen when the format changes, and says so: a CSV file is not read as JSON lines", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async (purpose: string) => ({ status: "ok" as const, data: chosen(purpose === "open" ? "pets.csv" : "out.csv") }));
    renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from pets.csv."));
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    await screen.findByRole("button", { name: "Export to out.csv" });
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "jsonLines" } });
    expect(screen.getByTestId("transfer-files").textContent).toBe("No file chosen to import. No file chosen to export to.");
    expect(screen.getByTestId("transfer-files-dropped").textContent).toBe(
      "The format is now JSON lines: pets.csv and out.csv were chosen for the other format, so choose the file again.",
    );
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Export" }) as HTMLButtonElement).disabled).toBe(true);
    expect(fake.estimateImportFile).not.toHaveBeenCalled();
    // Choosing again under the new format clears the note.
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.queryByTestId("transfer-files-dropped")).toBeNull());
    expect(fake.chooseFile).toHaveBeenLastCalledWith("open", "Pets.jsonl", "jsonl");
  });

  it("does not blame DynamoDB for a file that failed DynoTable's own reading of it", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("pets.csv") }));
    fake.estimateImportFile = vi.fn(async () => ({
      status: "error" as const,
      error: { code: "VALIDATION" as const, message: "pets.csv: line 1: a line is not a JSON object", exception: null },
    }));
    renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
    await waitFor(() => expect(screen.getByTestId("transfer-files").textContent).toContain("Import from pets.csv."));
    fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("DynoTable's own check refused this: pets.csv: line 1: a line is not a JSON object");
    expect(alert.textContent).not.toContain("DynamoDB");
  });

  it("says, once CSV is chosen, where each column's type comes from and that it can be changed before importing", () => {
    renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, source());
    expect(screen.queryByTestId("csv-types")).toBeNull();
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
    const note = screen.getByTestId("csv-types").textContent ?? "";
    expect(note).toContain("a key attribute of the table or of an index has its key schema's type");
    expect(note).toContain("a header that names a type gives it, as in Age (N), active (BOOL) or Name (S);");
    expect(note).toContain("any other column's type is inferred from the first rows: N when every non-empty cell is a number, written exactly as the file spells it");
    expect(note).toContain("Change a column's type, or skip it, before importing.");
    expect(note).toContain("an empty cell leaves the attribute out");
    expect(note).toContain("a column of mixed or other types (sets, maps, lists, binary) is written as DynamoDB JSON");
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "jsonLines" } });
    expect(screen.queryByTestId("csv-types")).toBeNull();
  });

  describe("a CSV file to import", () => {
    const chooseCsv = async (fake: Partial<Commands>) => {
      fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("pets.csv") }));
      renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, fake);
      fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
      fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
      return screen.findByTestId("csv-preview");
    };
    const typeOf = (name: string) => screen.getByLabelText(`Type of ${name}`) as HTMLSelectElement;

    it("is previewed by its handle: its first rows, each column's type from the backend, and its empty cells as absent attributes", async () => {
      const fake = source();
      const shown = await chooseCsv(fake);
      expect(fake.previewImportFile).toHaveBeenCalledWith("embedded", "Pets", "file-1-pets.csv");
      expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["AnimalType (key)", "Name (key)", "Age", "Vaccinated", "Chip"]);
      expect(["AnimalType", "Name", "Age", "Vaccinated", "Chip"].map((n) => typeOf(n).value)).toEqual(["S", "S", "N", "BOOL", "S"]);
      // A key attribute's type is the key schema's: it cannot be changed.
      expect(typeOf("AnimalType").disabled).toBe(true);
      expect(typeOf("Age").disabled).toBe(false);
      expect(screen.getAllByTestId("csv-type-source").map((c) => c.textContent)).toEqual([
        "key schema",
        "key schema",
        "inferred",
        "inferred",
        "inferred",
      ]);
      const rows = screen.getAllByTestId("csv-row");
      expect(rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent))).toEqual([
        ["Dog", "Fido", "007", "true", "12"],
        ["Cat", "Tom", "absent", "FALSE", "A-12"],
      ]);
      expect(shown.textContent).toContain("An empty cell leaves the attribute out of that item, whatever the column's type.");
      expect(shown.textContent).toContain("from the first 2 rows of the file");
      // What N stores for 007 is said while Age is read as N.
      expect(screen.getByTestId("csv-notes").textContent).toBe("Age: DynamoDB stores numbers normalised, so 007 is stored as 7. Read the column as S to keep its text.");
    });

    it("sends the types as the user left them with the estimate and the import, and asks for a new estimate after a change", async () => {
      const fake = source();
      await chooseCsv(fake);
      fireEvent.change(typeOf("Age"), { target: { value: "S" } });
      fireEvent.change(typeOf("Vaccinated"), { target: { value: "SKIP" } });
      fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
      await screen.findByTestId("import-estimate");
      const columns = [
        { header: "AnimalType", type: "S" },
        { header: "Name", type: "S" },
        { header: "Age", type: "S" },
        { header: "Vaccinated", type: "SKIP" },
        { header: "Chip", type: "S" },
      ];
      expect(fake.estimateImportFile).toHaveBeenCalledWith("embedded", "Pets", "csv", "file-1-pets.csv", columns);
      // A type changed after the estimate: the estimate no longer holds, and importing waits for a new one.
      fireEvent.change(typeOf("Age"), { target: { value: "N" } });
      expect(screen.queryByTestId("import-estimate")).toBeNull();
      expect((screen.getByRole("button", { name: "Import" }) as HTMLButtonElement).disabled).toBe(true);
      fireEvent.click(screen.getByRole("button", { name: "Estimate the import" }));
      await screen.findByTestId("import-estimate");
      fireEvent.click(screen.getByRole("button", { name: "Import" }));
      await screen.findByTestId("transfer-done");
      const sent = (fake.importItems as ReturnType<typeof vi.fn>).mock.calls[0]!;
      expect(sent.slice(2, 6)).toEqual(["Pets", "csv", "file-1-pets.csv", columns.map((c) => (c.header === "Age" ? { ...c, type: "N" } : c))]);
    });

    it("warns, for the type chosen, about the first row read that does not fit it", async () => {
      const fake = source();
      await chooseCsv(fake);
      expect(screen.getByTestId("csv-notes").textContent).not.toContain("Chip");
      fireEvent.change(typeOf("Chip"), { target: { value: "N" } });
      const warning = screen.getAllByRole("listitem").find((li) => li.textContent?.startsWith("Chip"));
      expect(warning?.textContent).toBe('Chip, row 2: "A-12" is not a DynamoDB number (not a decimal number). Read as N, the import stops there and imports nothing.');
      expect(warning?.className).toBe("status-error");
      fireEvent.change(typeOf("Age"), { target: { value: "BOOL" } });
      expect(screen.getByTestId("csv-notes").textContent).toContain('Age, row 1: "007" is not true or false.');
      // The note about normalised numbers is for N only.
      expect(screen.getByTestId("csv-notes").textContent).not.toContain("stored as 7");
    });

    it("says when the table's key attribute is no column of the file, and waits for the preview before estimating", async () => {
      const fake = source();
      let answer: (value: { status: "ok"; data: ImportPreview }) => void = () => {};
      fake.previewImportFile = vi.fn(() => new Promise<{ status: "ok"; data: ImportPreview }>((resolve) => (answer = resolve)));
      fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("pets.csv") }));
      renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, fake);
      fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
      fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
      await waitFor(() => expect(fake.previewImportFile).toHaveBeenCalled());
      expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
      await act(async () => answer({ status: "ok", data: { ...petsPreview(), missingKeys: ["Name"] } }));
      expect(screen.getByTestId("csv-missing-keys").textContent).toBe("No column of this file is the table's key attribute Name: every row would be refused.");
      expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(false);
    });

    it("shows why a file cannot be previewed", async () => {
      const fake = source();
      fake.previewImportFile = vi.fn(async () => ({
        status: "error" as const,
        error: { code: "VALIDATION" as const, message: "pets.csv: row 2: found record with 1 field, but the previous record has 2 fields", exception: null },
      }));
      fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("pets.csv") }));
      renderWithCommands(<TransferPanel profileId="embedded" table="Pets" query={null} readOnly={false} makeChannel={channel} />, fake);
      fireEvent.change(screen.getByLabelText("Format"), { target: { value: "csv" } });
      fireEvent.click(screen.getByRole("button", { name: "Choose a file to import…" }));
      const alert = await screen.findByRole("alert");
      expect(alert.textContent).toContain("pets.csv: row 2: found record with 1 field");
      expect(screen.queryByTestId("csv-preview")).toBeNull();
      expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
    });
  });

  it("turns importing off on a read-only connection", () => {
    renderWithCommands(<TransferPanel profileId="p" table="Telemetry" query={null} readOnly={true} makeChannel={channel} />, source());
    expect((screen.getByRole("button", { name: "Estimate the import" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Choose a file to import…" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("This connection is read-only: importing is off.")).toBeTruthy();
  });

  it("shows what the export will read and cost before it starts, and passes the read budget set", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.jsonl") }));
    fake.exportItems = vi.fn(async () => ({ status: "ok" as const, data: summary(5120, 640.5, { budgetReached: true }) }));
    renderWithCommands(<TransferPanel profileId="aws" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
    const shown = await screen.findByTestId("export-estimate");
    expect(fake.estimateExport).toHaveBeenCalledWith("aws", { kind: "table", table: "Telemetry" });
    expect(shown.textContent).toContain("Exporting reads about 1,000,000 items (200 MB) in 200 pages: at most 25,700.5 RCU, eventually consistent.");
    expect(shown.textContent).toContain("refreshed about every six hours");
    fireEvent.change(screen.getByLabelText("Read budget (RCU)"), { target: { value: "640" } });
    expect(screen.getByTestId("export-budget").textContent).toContain("The budget of 640 RCU covers about 2 % of that: the export stops once it has consumed the budget");
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    fireEvent.click(await screen.findByRole("button", { name: "Export to Telemetry.jsonl" }));
    await waitFor(() =>
      expect(screen.getByTestId("transfer-done").textContent).toBe(
        "Stopped at the read budget of 640 capacity units, after 5,120 items (640.5 consumed): Telemetry.jsonl holds those 5,120 items, not the whole table.",
      ),
    );
    expect((fake.exportItems as ReturnType<typeof vi.fn>).mock.calls[0]![5]).toBe(640);
  });

  it("says the cost is not known, rather than showing a 0-cost estimate, when DescribeTable reports 0 bytes", async () => {
    const fake = source();
    fake.estimateExport = vi.fn(async () => ({
      status: "ok" as const,
      data: { items: 0, bytes: 0, pages: 1, capacityUnits: 1, approximate: true, sizeUnknown: true, lines: [] },
    }));
    renderWithCommands(<TransferPanel profileId="dynalite" table="Readings" query={null} readOnly={false} makeChannel={channel} />, fake);
    const shown = await screen.findByTestId("export-estimate");
    expect(shown.textContent).toContain("The cost of this export is not known before it starts: DescribeTable reports a size of 0 bytes");
    expect(shown.textContent).toContain("Set a read budget to bound what the export may consume.");
    expect(shown.textContent).not.toContain("RCU, eventually consistent");
    expect(shown.textContent).not.toContain("about 0 items");
    fireEvent.change(screen.getByLabelText("Read budget (RCU)"), { target: { value: "500" } });
    expect(screen.getByTestId("export-estimate").textContent).toContain("The export stops once it has consumed the budget of 500 RCU.");
    expect(screen.queryByTestId("export-budget")).toBeNull();
  });

  it("refuses a budget that is not a number of units above 0, in a plain sentence", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("Telemetry.jsonl") }));
    renderWithCommands(<TransferPanel profileId="aws" table="Telemetry" query={null} readOnly={false} makeChannel={channel} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    const exportButton = (await screen.findByRole("button", { name: "Export to Telemetry.jsonl" })) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText("Read budget (RCU)"), { target: { value: "-5" } });
    expect(screen.getByRole("alert").textContent).toBe("A read budget is a number of capacity units above 0, or empty for none.");
    expect(exportButton.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText("Read budget (RCU)"), { target: { value: "" } });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(exportButton.disabled).toBe(false);
  });

  it("shows a progress bar against the expected count and cancels the running transfer", async () => {
    const fake = source();
    fake.chooseFile = vi.fn(async () => ({ status: "ok" as const, data: chosen("big.csv") }));
    let report: (progress: TransferProgress) => void = () => {};
    let end: (value: { status: "ok"; data: TransferSummary }) => void = () => {};
    fake.exportItems = vi.fn(() => new Promise<{ status: "ok"; data: TransferSummary }>((resolve) => (end = resolve)));
    const makeChannel = (onMessage: (progress: TransferProgress) => void) => {
      report = onMessage;
      return {} as Channel<TransferProgress>;
    };
    renderWithCommands(<TransferPanel profileId="embedded" table="Telemetry" query={null} readOnly={false} makeChannel={makeChannel} />, fake);
    fireEvent.click(screen.getByRole("button", { name: "Export to…" }));
    fireEvent.click(await screen.findByRole("button", { name: "Export to big.csv" }));
    await waitFor(() => expect(fake.exportItems).toHaveBeenCalled());
    const bar = () => screen.getByRole("progressbar", { name: "Transfer progress" }) as HTMLProgressElement;
    expect(bar().hasAttribute("value")).toBe(false);
    act(() => report({ stage: "transferring", items: 250_000, expectedItems: 1_000_000, capacityUnits: 6400, retries: 0 }));
    expect(bar().value).toBe(250_000);
    expect(bar().max).toBe(1_000_000);
    expect(screen.getByTestId("transfer-progress").textContent).toContain("Transferring: 250,000 of 1,000,000 items · 6,400 capacity units");
    act(() => report({ stage: "finishing", items: 10_000, expectedItems: 1_000_000, capacityUnits: 25600, retries: 0 }));
    expect(screen.getByTestId("transfer-progress").textContent).toContain("Writing the CSV rows: 10,000 of 1,000,000 items");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    const id = (fake.exportItems as ReturnType<typeof vi.fn>).mock.calls[0]![1] as string;
    expect(fake.cancelOperation).toHaveBeenCalledWith(id);
    act(() => end({ status: "ok", data: summary(250_000, 6400, { cancelled: true }) }));
    await waitFor(() => expect(screen.getByTestId("transfer-done").textContent).toBe("Cancelled after 250,000 items: nothing was written to the file."));
    expect(screen.queryByRole("progressbar")).toBeNull();
  });
});
