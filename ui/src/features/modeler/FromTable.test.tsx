import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import type { InferredModel, Model, ModelAnalysis, SampleEstimate } from "../../ipc/bindings.gen";
import { ModelerScreen } from "./ModelerScreen";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

const ok = <T,>(data: T) => Promise.resolve({ status: "ok" as const, data });

const inferredModel = {
  name: "Telemetry (inferred)",
  description: "",
  author: "",
  tables: [{ name: "Telemetry", partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" }, globalIndexes: [], localIndexes: [], items: [] }],
  entities: [
    { name: "META", table: "Telemetry", keys: [{ attribute: "recordedAt", template: "META", presence: 1 }], fields: [], count: 66 },
    { name: "TS", table: "Telemetry", keys: [{ attribute: "recordedAt", template: "TS#{recordedAt}", presence: 1 }], fields: [], count: 1934 },
  ],
  patterns: [],
} as unknown as Model;

const estimate: SampleEstimate = {
  table: "Telemetry",
  items: 500,
  bytes: 51200,
  pages: 1,
  capacityUnits: 6.5,
  tableItems: 10710,
  approximate: false,
  lines: [{ rule: "B.2", text: "Each page's sizes summed and rounded up to 4 KB once" }],
};

const inferred: InferredModel = {
  model: inferredModel,
  entities: [
    { name: "META", prefix: "META", sampled: 17, estimated: 364, attributes: ["vehicleId", "recordedAt"] },
    { name: "TS", prefix: "TS", sampled: 483, estimated: 10346, attributes: ["vehicleId", "recordedAt", "speedKph"] },
  ],
  notes: [],
  sampledItems: 500,
  pages: 1,
  consumedCapacity: 6,
  tableItems: 10710,
  historyReads: 0,
};

function fakeSource(): Commands & { models: Model[] } {
  const models: Model[] = [];
  return {
    models,
    analyzeModel: vi.fn((model: Model) => {
      models.push(model);
      return Promise.resolve({ problem: null, collections: [], patterns: [], growth: [], partitions: [] } as unknown as ModelAnalysis);
    }),
    takeModelSuggestion: vi.fn(),
    exportModel: vi.fn(),
    importWorkbenchModel: vi.fn(),
    applyModelToEmbedded: vi.fn(),
    applyModelToConnection: vi.fn(),
    listProfiles: vi.fn(() =>
      ok([
        { id: "p-dev", name: "dev", color: "#00ff00", region: "eu-west-1", readOnly: false, connection: { kind: "aws-profile", profileName: "dev" } },
        { id: "embedded", name: "Embedded", color: "#000000", region: "local", readOnly: false, connection: { kind: "embedded" } },
      ]),
    ),
    // Two pages of table names: every page is listed.
    listTables: vi.fn((profileId: string, start: string | null) =>
      ok(start === null ? { names: ["Music", "Telemetry"], nextStart: "Telemetry" } : { names: [`Zoo-${profileId}`], nextStart: null }),
    ),
    estimateModelSample: vi.fn((_p: string, _t: string, limit: number) => ok({ ...estimate, items: limit })),
    inferModel: vi.fn(() => ok(inferred)),
  } as unknown as Commands & { models: Model[] };
}

afterEach(cleanup);

async function openFromTable(source: Commands) {
  renderWithCommands(<ModelerScreen />, source);
  fireEvent.click(screen.getByTestId("modeler-from-table-open"));
  const tables = (await screen.findByTestId("modeler-infer-table")) as HTMLSelectElement;
  await waitFor(() => expect([...tables.options].map((o) => o.value)).toEqual(["Music", "Telemetry", "Zoo-embedded"]));
  fireEvent.change(tables, { target: { value: "Telemetry" } });
}

describe("a model from a table", () => {
  it("offers the embedded engine first, shows the sample's estimated cost, and replaces an unedited model with the inferred one", async () => {
    const source = fakeSource();
    await openFromTable(source);
    const connection = screen.getByTestId("modeler-infer-connection") as HTMLSelectElement;
    expect([...connection.options].map((o) => o.value)).toEqual(["embedded", "p-dev"]);
    const shown = await screen.findByTestId("modeler-infer-estimate");
    await waitFor(() => expect(shown.textContent).toContain("500 of 10,710 items"));
    expect(shown.textContent).toContain("6.5 read units");
    // How the estimate was made, line by line, without the rule codes that mean nothing to a user.
    expect(screen.getByTestId("modeler-infer-lines").textContent).toContain("Each page's sizes summed");
    expect(screen.getByTestId("modeler-infer-lines").textContent).not.toContain("B.2");
    expect(shown.textContent).toContain("1 page)");
    expect(source.estimateModelSample).toHaveBeenLastCalledWith("embedded", "Telemetry", 500);
    expect(source.inferModel).not.toHaveBeenCalled();

    // A larger sample is estimated again before it is read.
    fireEvent.change(screen.getByTestId("modeler-infer-sample"), { target: { value: "1000" } });
    await waitFor(() => expect(source.estimateModelSample).toHaveBeenLastCalledWith("embedded", "Telemetry", 1000));

    fireEvent.click(screen.getByTestId("modeler-infer-run"));
    expect((await screen.findByTestId("modeler-infer-consumed")).textContent).toBe("6 read units consumed");
    expect(source.inferModel).toHaveBeenCalledWith("embedded", "Telemetry", 1000);
    const entities = screen.getAllByTestId("modeler-inferred-entity").map((e) => e.textContent);
    expect(entities[0]).toContain("META");
    expect(entities[1]).toContain("TS");
    // The editor holds the inferred model, and the analysis is asked for it.
    await waitFor(() => expect(source.models.at(-1)?.name).toBe("Telemetry (inferred)"));
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    expect((screen.getByTestId("modeler-model") as HTMLTextAreaElement).value).toContain('"template": "TS#{recordedAt}"');
  });

  it("asks before an inferred model replaces one with edits", async () => {
    const source = fakeSource();
    await openFromTable(source);
    fireEvent.click(screen.getByTestId("modeler-view-json"));
    const editor = screen.getByTestId("modeler-model") as HTMLTextAreaElement;
    fireEvent.change(editor, { target: { value: editor.value.replace('"TelemetryModel"', '"Fleet"') } });

    fireEvent.click(screen.getByTestId("modeler-infer-run"));
    expect(screen.getByRole("group", { name: "Confirm" }).textContent).toContain("The model has edits");
    fireEvent.click(screen.getByText("Cancel"));
    expect(source.inferModel).not.toHaveBeenCalled();
    expect(editor.value).toContain('"Fleet"');

    fireEvent.click(screen.getByTestId("modeler-infer-run"));
    fireEvent.click(screen.getByTestId("modeler-infer-confirm"));
    await screen.findByTestId("modeler-infer-consumed");
    expect(source.inferModel).toHaveBeenCalledTimes(1);
    expect((screen.getByTestId("modeler-model") as HTMLTextAreaElement).value).toContain("Telemetry (inferred)");
  });

  it("shows a refused sample size with the backend's sentence", async () => {
    const source = fakeSource();
    (source.estimateModelSample as ReturnType<typeof vi.fn>).mockImplementation(() =>
      Promise.resolve({ status: "error", error: { code: "VALIDATION", message: "A sample reads 1 to 5000 items, not 0.", exception: null } }),
    );
    await openFromTable(source);
    fireEvent.change(screen.getByTestId("modeler-infer-sample"), { target: { value: "0" } });
    expect((await screen.findByTestId("modeler-infer-estimate-error")).textContent).toContain("A sample reads 1 to 5000 items, not 0.");
  });
});
