import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Model, ModelAnalysis, ModelProblem } from "../../../ipc/bindings.gen";
import { ModelerScreen } from "../ModelerScreen";
import { TELEMETRY_STARTER } from "../starter";
import { EMPTY_MODEL, addIndex, addTable, changeEntity, changeTable } from "./modelEdits";
import type { Commands } from "../../../ipc/CommandsContext";
import { renderWithCommands } from "../../../ipc/testCommands";

/** A backend that answers every model with no collections, or with `problem` when it is set. */
function quietSource(problem: { current: ModelProblem | null } = { current: null }): Commands & { models: Model[] } {
  const models: Model[] = [];
  return {
    models,
    analyzeModel: vi.fn((model: Model) => {
      models.push(model);
      return Promise.resolve({ problem: problem.current, collections: [], patterns: [], growth: [], partitions: [] } as ModelAnalysis);
    }),
    takeModelSuggestion: vi.fn(),
    exportModel: vi.fn(),
    importWorkbenchModel: vi.fn(),
    applyModelToEmbedded: vi.fn(),
    applyModelToConnection: vi.fn(),
    listProfiles: vi.fn(() => Promise.resolve({ status: "ok", data: [] })),
  } as unknown as Commands & { models: Model[] };
}

const byId = (id: string) => screen.getByTestId(id) as HTMLInputElement;
const type = (id: string, value: string) => fireEvent.change(byId(id), { target: { value } });
const tick = (id: string) => fireEvent.click(byId(id));

/** The model the JSON view shows, read back from its text. */
function jsonView(): Model {
  fireEvent.click(screen.getByTestId("modeler-view-json"));
  const model = JSON.parse((screen.getByTestId("modeler-model") as HTMLTextAreaElement).value) as Model;
  fireEvent.click(screen.getByTestId("modeler-view-form"));
  return model;
}

afterEach(cleanup);

describe("the model form", () => {
  it("opens on the Telemetry starter, and New model empties it", () => {
    renderWithCommands(<ModelerScreen />, quietSource());
    expect(byId("mf-table-0-name").value).toBe("TelemetryModel");
    expect(byId("mf-entity-1-name").value).toBe("Reading");
    fireEvent.click(screen.getByTestId("modeler-new"));
    expect(screen.queryByTestId("mf-table-0")).toBeNull();
    expect(jsonView()).toEqual(EMPTY_MODEL);
    fireEvent.click(screen.getByTestId("modeler-starter"));
    expect(jsonView()).toEqual(TELEMETRY_STARTER);
  });

  it("adds a table with its keys and billing, and the JSON view shows it", () => {
    renderWithCommands(<ModelerScreen />, quietSource());
    fireEvent.click(screen.getByTestId("modeler-new"));
    fireEvent.click(screen.getByTestId("mf-add-table"));
    type("mf-table-0-name", "Fleet");
    type("mf-table-0-pk-name", "vehicleId");
    tick("mf-table-0-has-sk");
    type("mf-table-0-sk-name", "recordedAt");
    type("mf-table-0-sk-type", "N");
    type("mf-table-0-billing", "provisioned");
    const table = jsonView().tables[0]!;
    expect(table.name).toBe("Fleet");
    expect(table.partitionKey).toEqual({ name: "vehicleId", type: "S" });
    expect(table.sortKey).toEqual({ name: "recordedAt", type: "N" });
    expect(table.billing).toEqual({ mode: "provisioned", readUnits: 5, writeUnits: 5 });
    // Every input is named by its label.
    const part = screen.getByTestId("mf-table-0");
    expect((within(part).getByLabelText("Table name") as HTMLInputElement).value).toBe("Fleet");
    expect((within(part).getByLabelText("Partition key type") as HTMLSelectElement).value).toBe("S");
  });

  it("adds a GSI with keys and an INCLUDE projection, and an LSI on the table's partition key", () => {
    renderWithCommands(<ModelerScreen />, quietSource());
    fireEvent.click(screen.getByTestId("modeler-new"));
    fireEvent.click(screen.getByTestId("mf-add-table"));
    // An LSI needs a table sort key (rule B.7).
    expect(byId("mf-table-0-add-lsi").disabled).toBe(true);
    tick("mf-table-0-has-sk");
    fireEvent.click(screen.getByTestId("mf-table-0-add-gsi"));
    type("mf-table-0-gsi-0-name", "ByDepot");
    type("mf-table-0-gsi-0-pk-name", "depotCode");
    tick("mf-table-0-gsi-0-has-sk");
    type("mf-table-0-gsi-0-sk-name", "recordedAt");
    type("mf-table-0-gsi-0-projection", "include");
    type("mf-table-0-gsi-0-include", "speedKph, fuelPct");
    fireEvent.click(screen.getByTestId("mf-table-0-add-lsi"));
    const table = jsonView().tables[0]!;
    expect(table.globalIndexes).toEqual([
      {
        name: "ByDepot",
        partitionKey: { name: "depotCode", type: "S" },
        sortKey: { name: "recordedAt", type: "S" },
        projection: { type: "include", attributes: ["speedKph", "fuelPct"] },
      },
    ]);
    expect(table.localIndexes?.[0]?.partitionKey).toEqual(table.partitionKey);
  });

  it("adds an entity with key templates, a sparse index key, fields and counts, and a pattern", () => {
    renderWithCommands(<ModelerScreen />, quietSource());
    fireEvent.click(screen.getByTestId("modeler-new"));
    fireEvent.click(screen.getByTestId("mf-add-table"));
    type("mf-table-0-pk-name", "vehicleId");
    tick("mf-table-0-has-sk");
    type("mf-table-0-sk-name", "recordedAt");
    fireEvent.click(screen.getByTestId("mf-table-0-add-gsi"));
    type("mf-table-0-gsi-0-pk-name", "depotCode");

    fireEvent.click(screen.getByTestId("mf-add-entity"));
    type("mf-entity-0-name", "Vehicle");
    // The table's key is always filled; the GSI's key only when ticked.
    expect(byId("mf-entity-0-key-vehicleId-fills").disabled).toBe(true);
    expect(screen.queryByTestId("mf-entity-0-key-depotCode-template")).toBeNull();
    type("mf-entity-0-key-vehicleId-template", "VEH#{vehicleId}");
    type("mf-entity-0-key-recordedAt-template", "META");
    tick("mf-entity-0-key-depotCode-fills");
    type("mf-entity-0-key-depotCode-template", "{depotCode}");
    type("mf-entity-0-key-depotCode-presence", "0.5");
    fireEvent.click(screen.getByTestId("mf-entity-0-add-field"));
    type("mf-entity-0-field-0-name", "vehicleId");
    type("mf-entity-0-field-0-gen-prefix", "V-");
    type("mf-entity-0-field-0-gen-start", "7741");
    fireEvent.click(screen.getByTestId("mf-entity-0-add-field"));
    type("mf-entity-0-field-1-name", "depotCode");
    type("mf-entity-0-field-1-gen-kind", "choice");
    type("mf-entity-0-field-1-gen-values", "DEP-N, DEP-S");
    type("mf-entity-0-field-1-gen-weights", "4, 1");
    type("mf-entity-0-count", "12");

    fireEvent.click(screen.getByTestId("mf-add-pattern"));
    type("mf-pattern-0-name", "a depot's vehicles");
    fireEvent.click(screen.getByTestId("mf-pattern-0-add-given"));
    type("mf-pattern-0-given-0-field", "depotCode");
    type("mf-pattern-0-given-0-value", "DEP-N");
    type("mf-pattern-0-limit", "50");

    const model = jsonView();
    expect(model.entities?.[0]).toEqual({
      name: "Vehicle",
      table: "MyTable",
      keys: [
        { attribute: "vehicleId", template: "VEH#{vehicleId}", presence: 1 },
        { attribute: "recordedAt", template: "META", presence: 1 },
        { attribute: "depotCode", template: "{depotCode}", presence: 0.5 },
      ],
      fields: [
        { name: "vehicleId", type: "S", generator: { kind: "sequence", prefix: "V-", start: 7741, step: 1, width: 0 } },
        { name: "depotCode", type: "S", generator: { kind: "choice", values: ["DEP-N", "DEP-S"], weights: [4, 1] } },
      ],
      count: 12,
      writesPerSecond: 0,
      retentionDays: null,
    });
    expect(model.patterns?.[0]).toMatchObject({ name: "a depot's vehicles", entity: "Vehicle", given: { depotCode: "DEP-N" }, limit: 50 });
  });

  it("shows an edit of the JSON in the form, and keeps the last valid model while the JSON is broken", () => {
    renderWithCommands(<ModelerScreen />, quietSource());
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    const editor = screen.getByTestId("modeler-model") as HTMLTextAreaElement;
    const good = editor.value;
    fireEvent.change(editor, { target: { value: good.replace('"TelemetryModel"', '"Fleet"') } });
    fireEvent.click(screen.getByTestId("modeler-view-form"));
    expect(byId("mf-table-0-name").value).toBe("Fleet");

    fireEvent.click(screen.getByTestId("modeler-view-json"));
    fireEvent.change(screen.getByTestId("modeler-model"), { target: { value: good.replace('"TelemetryModel"', '"Broken').slice(0, -3) } });
    fireEvent.click(screen.getByTestId("modeler-view-form"));
    expect(screen.getByTestId("modeler-parse-error").textContent).toContain("not valid JSON");
    expect(byId("mf-table-0-name").value).toBe("Fleet");

    // A change in the form makes the text valid again: the last valid model with the change.
    type("mf-table-0-name", "Fleet2");
    expect(screen.queryByTestId("modeler-parse-error")).toBeNull();
    expect(jsonView().tables[0]!.name).toBe("Fleet2");
  });

  it("sends the form's model to the analysis and shows its problem beside the key it concerns", async () => {
    const problem = { current: null as ModelProblem | null };
    const source = quietSource(problem);
    renderWithCommands(<ModelerScreen />, source);
    problem.current = {
      code: "INVALID_TEMPLATE",
      message: "entity Reading, key recordedAt: the template names when, which is not a field",
      exception: null,
      at: { part: "entity", name: "Reading", member: "key:recordedAt" },
    };
    type("mf-entity-1-key-recordedAt-template", "TS#{when}");
    await waitFor(() => expect(source.models.at(-1)?.entities?.[1]?.keys[1]?.template).toBe("TS#{when}"));
    const row = screen.getByTestId("mf-entity-1-key-recordedAt");
    await waitFor(() => expect(within(row).getByTestId("modeler-form-problem").textContent).toContain("names when"));
    expect(screen.getAllByTestId("modeler-form-problem")).toHaveLength(1);
  });

  it("shows a table's CreateTable refusal on that table", async () => {
    const problem = { current: null as ModelProblem | null };
    renderWithCommands(<ModelerScreen />, quietSource(problem));
    problem.current = {
      code: "INVALID_TABLE",
      message: "table T: 1 validation error detected: Value 'T' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
      exception: "ValidationException",
      at: { part: "table", name: "T", member: null },
    };
    type("mf-table-0-name", "T");
    // Rule B.8 is also on the input itself: 3–255 characters of A-Z a-z 0-9 _ - .
    expect([byId("mf-table-0-name").minLength, byId("mf-table-0-name").maxLength]).toEqual([3, 255]);
    expect(new RegExp(`^(?:${byId("mf-table-0-name").pattern})$`).test("Fleet-1.x_y")).toBe(true);
    expect(new RegExp(`^(?:${byId("mf-table-0-name").pattern})$`).test("Fleet 1")).toBe(false);
    await waitFor(() => expect(within(screen.getByTestId("mf-table-0")).getByTestId("modeler-form-problem").textContent).toContain("ValidationException"));
  });
});

describe("the form's edits", () => {
  it("carry a table's and a key's rename to the entities, and keep an LSI on the table's partition key", () => {
    let model = addTable(EMPTY_MODEL);
    model = { ...model, entities: [{ name: "E", table: "MyTable", keys: [{ attribute: "pk", template: "E#{id}", presence: 1 }], fields: [] }] };
    const table = addIndex({ ...model.tables[0]!, sortKey: { name: "sk", type: "S" } }, "local");
    model = changeTable(model, 0, { ...table, name: "Fleet", partitionKey: { name: "vehicleId", type: "S" } });
    expect(model.entities?.[0]?.table).toBe("Fleet");
    expect(model.entities?.[0]?.keys[0]?.attribute).toBe("vehicleId");
    expect(model.tables[0]!.localIndexes?.[0]?.partitionKey).toEqual({ name: "vehicleId", type: "S" });
  });

  it("carry an entity's rename to its patterns and to the generators that name it", () => {
    const renamed = changeEntity(TELEMETRY_STARTER, 0, { ...TELEMETRY_STARTER.entities![0]!, name: "Van" });
    const reading = renamed.entities![1]!;
    expect(reading.fields?.map((f) => ("entity" in f.generator ? f.generator.entity : null))).toEqual(["Van", "Van", null, null, null]);
    expect(renamed.patterns?.every((p) => p.entity === "Reading")).toBe(true);
    const readingRenamed = changeEntity(renamed, 1, { ...reading, name: "Sample" });
    expect(readingRenamed.patterns?.map((p) => p.entity)).toEqual(["Sample", "Sample"]);
  });
});
