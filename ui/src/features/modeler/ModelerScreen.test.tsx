import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Model, ModelAnalysis, Suggestion, Resolution } from "../../ipc/bindings.gen";
import { ModelerScreen } from "./ModelerScreen";
import { parseModel, workbenchDate } from "./useModeler";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

const ok = <T,>(data: T) => Promise.resolve({ status: "ok" as const, data });

const suggestion = {
  table: "TelemetryModel",
  entity: "Reading",
  index: {
    name: "ByDepotCode",
    partitionKey: { name: "depotCode", type: "S" },
    sortKey: { name: "recordedAt", type: "S" },
    projection: { type: "include", attributes: ["speedKph", "fuelPct"] },
  },
  fills: [{ attribute: "depotCode", template: "{depotCode}", presence: 1 }],
  entryBytes: 85,
  writeUnitsPerWrite: 1,
  writeUnitsPerMonth: 105120000,
  writeCostPerMonth: 65.7,
  currency: "USD",
} as unknown as Suggestion;

const resolution = (over: Partial<Resolution>): Resolution =>
  ({
    pattern: "recent readings of one vehicle",
    operation: "Query",
    target: { table: "TelemetryModel", index: null },
    kind: "table",
    keyCondition: 'vehicleId = "VEH#V-7741" AND begins_with(recordedAt, "TS#")',
    request: "{}",
    read: {
      operation: "Query",
      tableName: "TelemetryModel",
      indexName: null,
      keyCondition: { partitionKey: "vehicleId", partitionValue: { S: "VEH#V-7741" }, sort: { type: "beginsWith", name: "recordedAt", prefix: { S: "TS#" } } },
      direction: "descending",
      limit: 20,
    },
    filterFields: [],
    itemsRead: 20,
    bytesRead: 1919,
    readUnitsPerCall: 0.5,
    readUnitsPerMonth: 6570000,
    costPerMonth: 0.82125,
    currency: "USD",
    notes: [],
    suggestion: null,
    ...over,
  }) as Resolution;

function analysis(withGsi: boolean): ModelAnalysis {
  return {
    problem: null,
    collections: [
      {
        target: { table: "TelemetryModel", index: null },
        kind: "table",
        items: 222,
        bytes: 21198,
        collections: [
          { key: { S: "VEH#V-7741" }, items: 100, bytes: 9589, entities: { Reading: 99, Vehicle: 1 } },
          { key: { S: "VEH#V-7748" }, items: 15, bytes: 1428, entities: { Reading: 14, Vehicle: 1 } },
        ],
      },
    ],
    patterns: [
      resolution({}),
      withGsi
        ? resolution({ pattern: "a depot's readings, newest first", target: { table: "TelemetryModel", index: "ByDepotCode" }, kind: "global" })
        : resolution({ pattern: "a depot's readings, newest first", operation: "Scan", keyCondition: null, readUnitsPerCall: 3, suggestion }),
    ],
    growth: [],
    partitions: [
      {
        table: "TelemetryModel",
        estimated: 1,
        bySize: 1,
        byThroughput: 1,
        splits: 0,
        partitions: [
          { start: "0000000000000000", end: "ffffffffffffffff", bytes: 21198, readUnits: 100, writeUnits: 40, load: 0.04, hot: false, collections: [] },
        ],
        hotKeys: [],
        notes: ["DynamoDB's hash function is not public: placement on this ring is a model, not where AWS puts a key"],
      },
    ],
  } as unknown as ModelAnalysis;
}

function fakeSource(): Commands & { models: Model[] } {
  const models: Model[] = [];
  return {
    models,
    analyzeModel: vi.fn((model: Model) => {
      models.push(model);
      // A table named "Bad" stands for a model with a problem: nothing else is drawn for it.
      if (model.tables[0]!.name === "Bad")
        return Promise.resolve({
          problem: {
            code: "INVALID_TEMPLATE",
            message: "entity Reading, key vehicleId: a key template cannot be empty (rule B.7: key values are never empty)",
            exception: null,
            at: null,
          },
          collections: [],
          patterns: [],
          growth: [],
          partitions: [],
        } as ModelAnalysis);
      return Promise.resolve(analysis(model.tables[0]!.globalIndexes?.length === 1));
    }),
    takeModelSuggestion: vi.fn((model: Model) =>
      ok({ ...model, tables: [{ ...model.tables[0]!, globalIndexes: [suggestion.index] }] } as Model),
    ),
    exportModel: vi.fn(() => ok('resource "aws_dynamodb_table" "telemetry_model" {}\n')),
    importWorkbenchModel: vi.fn(() => ok({ name: "Imported", tables: [] } as unknown as Model)),
    applyModelToEmbedded: vi.fn(() => ok({ tables: ["TelemetryModel"], items: 222 })),
    applyModelToConnection: vi.fn(() => ok({ tables: ["TelemetryModel"], items: 0 })),
    listProfiles: vi.fn(() =>
      ok([
        { id: "embedded", name: "Embedded", color: "#000000", region: "local", readOnly: false, connection: { kind: "embedded" } },
        { id: "p-ro", name: "prod (read-only)", color: "#ff0000", region: "eu-west-1", readOnly: true, connection: { kind: "aws-profile", profileName: "prod" } },
        { id: "p-dev", name: "dev", color: "#00ff00", region: "eu-west-1", readOnly: false, connection: { kind: "aws-profile", profileName: "dev" } },
      ]),
    ),
  } as unknown as Commands & { models: Model[] };
}

afterEach(cleanup);

describe("ModelerScreen", () => {
  it("draws the Telemetry starter's boxes, flags the depot Scan and takes its suggested GSI", async () => {
    const source = fakeSource();
    renderWithCommands(<ModelerScreen />, source);
    const boxes = await screen.findAllByTestId("modeler-box");
    expect(boxes[0]!.textContent).toContain("VEH#V-7741");
    expect(boxes[0]!.textContent).toContain("100 items");
    const scan = screen.getAllByTestId("modeler-pattern")[1]!;
    expect(within(scan).getByText("Scan")).toBeTruthy();
    expect(scan.textContent).toContain("ByDepotCode");
    expect(screen.getByTestId("modeler-partitions").textContent).toContain("not public");

    fireEvent.click(screen.getByTestId("modeler-take-suggestion"));
    // The form on the left re-renders with the taken index too: slow on a busy machine.
    await waitFor(() => expect(screen.queryByTestId("modeler-take-suggestion")).toBeNull());
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    expect((screen.getByTestId("modeler-model") as HTMLTextAreaElement).value).toContain('"ByDepotCode"');
    expect(screen.getAllByTestId("modeler-pattern")[1]!.textContent).toContain("Query on TelemetryModel · ByDepotCode");
  });

  it("switches Form and JSON as a row of tabs: one Tab stop, the arrows move the focus with the view", async () => {
    renderWithCommands(<ModelerScreen />, fakeSource());
    const form = screen.getByTestId("modeler-view-form");
    const json = screen.getByTestId("modeler-view-json");
    expect([form.tabIndex, json.tabIndex]).toEqual([0, -1]);
    form.focus();
    fireEvent.keyDown(form, { key: "ArrowRight" });
    expect(document.activeElement).toBe(json);
    expect(json.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByTestId("modeler-model")).toBeTruthy();
    fireEvent.keyDown(json, { key: "Home" });
    expect(document.activeElement).toBe(form);
    expect(screen.getByTestId("modeler-form")).toBeTruthy();
  });

  it("runs a pattern's own request on the embedded engine when asked, and offers nothing where it cannot", async () => {
    const onRunPattern = vi.fn();
    const { rerender } = renderWithCommands(<ModelerScreen onRunPattern={onRunPattern} />, fakeSource());
    const first = (await screen.findAllByTestId("modeler-pattern"))[0]!;
    fireEvent.click(within(first).getByTestId("modeler-run-pattern"));
    expect(onRunPattern).toHaveBeenCalledWith(expect.objectContaining({ operation: "Query", tableName: "TelemetryModel", limit: 20 }));
    rerender(<ModelerScreen />);
    await waitFor(() => expect(screen.queryByTestId("modeler-run-pattern")).toBeNull());
  });

  it("shows an edit that is not JSON without asking the backend, then analyses the fixed text", async () => {
    const source = fakeSource();
    renderWithCommands(<ModelerScreen />, source);
    await screen.findAllByTestId("modeler-box");
    const calls = (source.analyzeModel as ReturnType<typeof vi.fn>).mock.calls.length;
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    const editor = screen.getByTestId("modeler-model") as HTMLTextAreaElement;
    const good = editor.value;
    fireEvent.change(editor, { target: { value: good.slice(0, 20) } });
    expect(screen.getByText(/not valid JSON/)).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect((source.analyzeModel as ReturnType<typeof vi.fn>).mock.calls.length).toBe(calls);
    fireEvent.change(editor, { target: { value: good.replace("\"TelemetryModel\"", "\"Fleet\"") } });
    await waitFor(() => expect(source.models.at(-1)?.tables[0]?.name).toBe("Fleet"));
  });

  it("keeps the last picture, dimmed and inert, while the model has a problem, said without rule numbers", async () => {
    const source = fakeSource();
    renderWithCommands(<ModelerScreen />, source);
    await screen.findAllByTestId("modeler-box");
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    const editor = screen.getByTestId("modeler-model") as HTMLTextAreaElement;
    const good = editor.value;
    fireEvent.change(editor, { target: { value: good.replace('"TelemetryModel"', '"Bad"') } });
    const problem = await screen.findByTestId("modeler-problem");
    expect(problem.textContent).toBe("entity Reading, key vehicleId: a key template cannot be empty (key values are never empty)");
    expect(screen.queryByText(/rule B\./)).toBeNull();
    // The last picture stays, dimmed and out of reach (its suggestion is the old model's).
    const picture = screen.getByTestId("modeler-picture");
    expect(picture.classList.contains("modeler-stale")).toBe(true);
    expect(picture.hasAttribute("inert")).toBe(true);
    expect(within(picture).getAllByTestId("modeler-box")[0]!.textContent).toContain("VEH#V-7741");
    expect(within(picture).getAllByTestId("modeler-pattern")).toHaveLength(2);
    expect(screen.getByTestId("modeler-stale-note")).toBeTruthy();

    // Fixed, the picture is live again.
    fireEvent.change(editor, { target: { value: good } });
    await waitFor(() => expect(screen.queryByTestId("modeler-problem")).toBeNull());
    expect(screen.getByTestId("modeler-picture").classList.contains("modeler-stale")).toBe(false);
    expect(screen.getByTestId("modeler-picture").hasAttribute("inert")).toBe(false);
  });

  it("says what to do first in an empty model", async () => {
    const source = fakeSource();
    (source.analyzeModel as ReturnType<typeof vi.fn>).mockImplementation(() =>
      Promise.resolve({ problem: null, collections: [], patterns: [], growth: [], partitions: [] } as unknown as ModelAnalysis),
    );
    renderWithCommands(<ModelerScreen />, source);
    expect((await screen.findByTestId("modeler-empty-hint")).textContent).toContain("Start with a table");
  });

  it("sets the seed and the what-if traffic above the results they draw, not under the form", async () => {
    const { container } = renderWithCommands(<ModelerScreen />, fakeSource());
    await screen.findAllByTestId("modeler-box");
    const traffic = screen.getByRole("group", { name: "Sample data and traffic" });
    // Under the form, the bar covered its last lines (and took two rows of it at 1024 px).
    expect(traffic.closest(".modeler-editor")).toBeNull();
    const results = container.querySelector(".modeler-results")!;
    expect(results.firstElementChild).toBe(traffic);
    expect(within(traffic).getByTestId("modeler-rcu")).toBeTruthy();
  });

  it("copies an export to the clipboard", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    renderWithCommands(<ModelerScreen clipboard={{ writeText }} />, fakeSource());
    await screen.findAllByTestId("modeler-box");
    fireEvent.click(screen.getByText("Terraform"));
    await screen.findByTestId("modeler-export");
    fireEvent.click(screen.getByTestId("modeler-export-copy"));
    await waitFor(() => expect(screen.getByTestId("modeler-export-copied").textContent).toBe("Copied the Terraform export."));
    expect(writeText).toHaveBeenCalledWith('resource "aws_dynamodb_table" "telemetry_model" {}\n');
  });

  it("exports, and applies to the embedded engine only once confirmed", async () => {
    const source = fakeSource();
    const onApplied = vi.fn();
    renderWithCommands(<ModelerScreen onApplied={onApplied} />, source);
    await screen.findAllByTestId("modeler-box");
    fireEvent.click(screen.getByText("Terraform"));
    expect((await screen.findByTestId("modeler-export")).textContent).toContain("aws_dynamodb_table");
    expect((source.exportModel as ReturnType<typeof vi.fn>).mock.calls[0]![1]).toBe("terraform");

    fireEvent.click(screen.getByTestId("modeler-apply"));
    expect(source.applyModelToEmbedded).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("modeler-apply-confirm"));
    expect((await screen.findByTestId("modeler-applied")).textContent).toBe("Created TelemetryModel with 222 items.");
    // The connection lists hear of the new tables.
    expect(onApplied).toHaveBeenCalledTimes(1);
  });
});

describe("applying to a connection", () => {
  it("offers every connection but the embedded engine, refuses a read-only one, and creates only once confirmed", async () => {
    const source = fakeSource();
    const onApplied = vi.fn();
    renderWithCommands(<ModelerScreen onApplied={onApplied} />, source);
    const choice = (await screen.findByTestId("modeler-apply-connection-choice")) as HTMLSelectElement;
    expect([...choice.options].map((o) => o.value)).toEqual(["p-ro", "p-dev"]);
    // The first, read-only, cannot be applied to.
    expect((screen.getByTestId("modeler-apply-connection-start") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(choice, { target: { value: "p-dev" } });
    fireEvent.click(screen.getByTestId("modeler-apply-connection-start"));
    expect(screen.getByRole("group", { name: "Confirm" }).textContent).toContain("Create TelemetryModel on dev (eu-west-1)?");
    expect(source.applyModelToConnection).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId("modeler-apply-connection-confirm"));
    expect((await screen.findByTestId("modeler-applied-connection")).textContent).toBe("Created TelemetryModel on dev.");
    const [profileId, model] = (source.applyModelToConnection as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, Model];
    expect(profileId).toBe("p-dev");
    expect(model.tables[0]!.name).toBe("TelemetryModel");
    expect(onApplied).toHaveBeenCalledTimes(1);
  });
});

describe("the modeler's helpers", () => {
  it("parses a model and refuses what is not one", () => {
    expect(parseModel('{"name":"x","tables":[]}').ok).toBe(true);
    expect(parseModel("[1]").ok).toBe(false);
    expect(parseModel("{").ok).toBe(false);
  });

  it("dates a file as NoSQL Workbench does", () => {
    expect(workbenchDate(new Date(2026, 11, 4, 20, 5))).toBe("Dec 4, 2026, 08:05 PM");
    expect(workbenchDate(new Date(2026, 0, 2, 0, 30))).toBe("Jan 2, 2026, 12:30 AM");
  });
});
