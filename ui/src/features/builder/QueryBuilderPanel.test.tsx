import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { QueryPage, ReadRequest } from "../../ipc/bindings.gen";
import { seedQuery } from "../costs/fixtures.test-data";
import { fakeSource } from "./fakeSource";
import { telemetry } from "./fixtures";
import { QueryBuilderPanel } from "./QueryBuilderPanel";
import type { BuilderSource } from "./source";

afterEach(cleanup);

const page: QueryPage = {
  items: [{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:09:00Z" } }],
  count: 1,
  scannedCount: 1,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "end",
};

function built(request: ReadRequest) {
  return {
    status: "ok" as const,
    data: {
      request: {
        operation: request.operation,
        tableName: request.tableName,
        indexName: request.indexName ?? null,
        keyConditionExpression: "vehicleId = :vehicleId",
        filterExpression: null,
        projectionExpression: null,
        expressionAttributeNames: null,
        expressionAttributeValues: null,
        scanIndexForward: null,
        limit: null,
        consistentRead: null,
        returnConsumedCapacity: null,
      },
      body: JSON.stringify({ TableName: request.tableName }),
      diagnostics: [],
    },
  };
}

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("QueryBuilderPanel", { timeout: 20_000 }, () => {
  it("builds the seed's time-window query from clicks and runs it, newest first", async () => {
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>(async (r) => built(r));
    const runReadRequest = vi.fn<BuilderSource["runReadRequest"]>(async () => ({ status: "ok" as const, data: page }));
    const onResult = vi.fn();
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={onResult} source={fakeSource({ buildReadRequest, runReadRequest })} />);

    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#V-7741" } });
    const operator = screen.getByLabelText("recordedAt operator");
    await waitFor(() => expect([...(operator as HTMLSelectElement).options].map((o) => o.value)).toContain("BETWEEN"));
    fireEvent.change(operator, { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByLabelText("recordedAt from"), { target: { value: "TS#2025-03-14T09:00:00Z" } });
    fireEvent.change(screen.getByLabelText("recordedAt to"), { target: { value: "TS#2025-03-14T09:09:00Z" } });
    fireEvent.change(screen.getByLabelText("Order"), { target: { value: "descending" } });
    fireEvent.change(screen.getByLabelText("Limit"), { target: { value: "25" } });

    const run = screen.getByRole("button", { name: "Run Query" });
    await waitFor(() => expect((run as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(run);
    const expected: ReadRequest = {
      operation: "Query",
      tableName: "Telemetry",
      indexName: null,
      keyCondition: {
        partitionKey: "vehicleId",
        partitionValue: { S: "VEH#V-7741" },
        sort: { type: "between", name: "recordedAt", low: { S: "TS#2025-03-14T09:00:00Z" }, high: { S: "TS#2025-03-14T09:09:00Z" } },
      },
      filter: null,
      projection: null,
      direction: "descending",
      limit: 25,
      consistentRead: false,
      returnConsumedCapacity: "TOTAL",
    };
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(page, expected, null));
    expect(runReadRequest).toHaveBeenCalledWith("embedded", expected, null);
    // The backend checked the same request before it ran.
    await waitFor(() => expect(buildReadRequest).toHaveBeenLastCalledWith(expected, { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } }));
    expect(screen.getByTestId("run-status").textContent).toContain("1 items");
  });

  it("keeps Run disabled until the backend has checked the request as it is on screen", async () => {
    const pending: ((value: ReturnType<typeof built>) => void)[] = [];
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>((r) => new Promise((resolve) => pending.push(() => resolve(built(r)))));
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={vi.fn()} source={fakeSource({ buildReadRequest })} />);
    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#V-7741" } });
    const run = screen.getByRole("button", { name: "Run Query" }) as HTMLButtonElement;
    const answerAll = () => pending.splice(0).forEach((answer) => answer(built({ operation: "Query", tableName: "Telemetry" })));
    await waitFor(() => {
      answerAll();
      expect(run.disabled).toBe(false);
    });
    // A change on screen: the last check no longer describes the request, so Run waits for the next.
    fireEvent.change(screen.getByLabelText("Order"), { target: { value: "descending" } });
    expect(run.disabled).toBe(true);
    await waitFor(() => expect(pending.length).toBeGreaterThan(0));
    expect(run.disabled).toBe(true);
    await waitFor(() => {
      answerAll();
      expect(run.disabled).toBe(false);
    });
  });

  it("lists the builder's recent runs from the backend's history and loads one back", async () => {
    const scan: ReadRequest = {
      operation: "Scan",
      tableName: "Telemetry",
      indexName: "ByDepot",
      keyCondition: null,
      filter: null,
      projection: null,
      direction: "ascending",
      limit: 7,
      consistentRead: false,
      returnConsumedCapacity: "INDEXES",
    };
    const queryHistory = vi.fn<BuilderSource["queryHistory"]>(async () => ({
      status: "ok" as const,
      data: [
        { id: 2, table: "Telemetry", request: { kind: "builder" as const, request: scan, summary: "Scan on ByDepot · Limit 7" }, ranAt: 1_700_000_100, itemCount: 7, capacityUnits: 0.5 },
        {
          id: 1,
          table: "Telemetry",
          request: {
            kind: "collection" as const,
            request: { ...seedQuery, table: "Telemetry", partitionValue: { S: "VEH#V-7741" } },
          },
          ranAt: 1_700_000_000,
          itemCount: 25,
          capacityUnits: 0.5,
        },
      ],
    }));
    const runReadRequest = vi.fn<BuilderSource["runReadRequest"]>(async () => ({ status: "ok" as const, data: page }));
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>(async (r) => built(r));
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={vi.fn()} source={fakeSource({ queryHistory, runReadRequest, buildReadRequest })} />);
    const list = await screen.findByRole("list", { name: "Recent builder runs" });
    // Only the builder's own runs: the collection view's query is listed there, not here.
    expect(list.querySelectorAll("li")).toHaveLength(1);
    expect(list.textContent).toContain("7 items");
    fireEvent.click(screen.getByRole("button", { name: "Scan on ByDepot · Limit 7" }));
    expect((screen.getByRole("radio", { name: "Scan" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Table or index") as HTMLSelectElement).value).toBe("ByDepot");
    expect((screen.getByLabelText("Limit") as HTMLInputElement).value).toBe("7");
    // A run reloads the list.
    const calls = queryHistory.mock.calls.length;
    const run = screen.getByRole("button", { name: "Run Scan" }) as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(queryHistory.mock.calls.length).toBeGreaterThan(calls));
  });

  it("reads the next page from the last page's LastEvaluatedKey, with the request that ran", async () => {
    const lastKey = { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:05:00Z" } };
    const first: QueryPage = { ...page, lastEvaluatedKey: lastKey, stop: "limit" };
    const runReadRequest = vi.fn<BuilderSource["runReadRequest"]>(async (_p, _r, start) => ({ status: "ok" as const, data: start ? page : first }));
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>(async (r) => built(r));
    const onResult = vi.fn();
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={onResult} source={fakeSource({ buildReadRequest, runReadRequest })} />);
    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#V-7741" } });
    const run = screen.getByRole("button", { name: "Run Query" });
    await waitFor(() => expect((run as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(onResult).toHaveBeenCalledTimes(1));
    const sent = onResult.mock.calls[0]![1] as ReadRequest;
    // Editing the form after the run does not change the request being paged.
    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#V-1007" } });
    fireEvent.click(screen.getByRole("button", { name: "Next page" }));
    await waitFor(() => expect(onResult).toHaveBeenCalledTimes(2));
    expect(runReadRequest).toHaveBeenLastCalledWith("embedded", sent, lastKey);
    expect(onResult).toHaveBeenLastCalledWith(page, sent, lastKey);
    expect(screen.queryByRole("button", { name: "Next page" })).toBeNull();
  });

  it("queries an index with its own keys and no consistent read on a GSI", async () => {
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>(async (r) => built(r));
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={() => {}} source={fakeSource({ buildReadRequest })} />);
    fireEvent.change(screen.getByLabelText("Table or index"), { target: { value: "ByDepot" } });
    expect(screen.getByLabelText("depotCode value")).toBeTruthy();
    expect(screen.queryByLabelText("vehicleId value")).toBeNull();
    const consistent = screen.getByLabelText(/Strongly consistent read/) as HTMLInputElement;
    expect(consistent.disabled).toBe(true);
  });

  it("does not run what DynamoDB would refuse, and shows why at the position", async () => {
    const buildReadRequest = vi.fn<BuilderSource["buildReadRequest"]>(async (r) => {
      const ok = built(r);
      return {
        status: "ok" as const,
        data: {
          ...ok.data,
          diagnostics: [
            {
              exception: "ValidationException",
              message: "One or more parameter values were invalid: Condition parameter type does not match schema type",
              expression: "KeyConditionExpression" as const,
              span: { start: 12, end: 22 },
            },
          ],
        },
      };
    });
    const runReadRequest = vi.fn<BuilderSource["runReadRequest"]>();
    render(<QueryBuilderPanel profileId="embedded" table={telemetry} onResult={() => {}} source={fakeSource({ buildReadRequest, runReadRequest })} />);
    await waitFor(() => expect(screen.getByText(/Condition parameter type does not match schema type/)).toBeTruthy());
    expect(screen.getByText(":vehicleId", { selector: "mark" })).toBeTruthy();
    expect((screen.getByRole("button", { name: "Run Query" }) as HTMLButtonElement).disabled).toBe(true);
    expect(runReadRequest).not.toHaveBeenCalled();
  });

  it("saves the request under a name and loads a saved one", async () => {
    const saved = {
      id: "1",
      table: "Telemetry",
      name: "fast scan",
      savedAt: 0,
      content: {
        kind: "request" as const,
        request: {
          operation: "Scan" as const,
          tableName: "Telemetry",
          indexName: null,
          keyCondition: null,
          filter: { type: "attributeExists" as const, path: ["speedKph"] },
          projection: null,
          direction: "ascending" as const,
          limit: 10,
          consistentRead: false,
          returnConsumedCapacity: null,
        },
      },
    };
    const saveExpression = vi.fn<BuilderSource["saveExpression"]>(async () => ({ status: "ok" as const, data: saved }));
    const savedExpressions = vi.fn<BuilderSource["savedExpressions"]>(async () => ({ status: "ok" as const, data: [saved] }));
    render(
      <QueryBuilderPanel profileId="embedded" table={telemetry} onResult={() => {}} source={fakeSource({ saveExpression, savedExpressions })} />,
    );
    fireEvent.change(screen.getByLabelText("Name to save under"), { target: { value: "window" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saveExpression).toHaveBeenCalled());
    const [profile, table, name, content] = saveExpression.mock.calls[0]!;
    expect([profile, table, name, content.kind]).toEqual(["embedded", "Telemetry", "window", "request"]);
    fireEvent.click(await screen.findByRole("button", { name: "fast scan" }));
    expect(screen.getByRole("button", { name: "Run Scan" })).toBeTruthy();
    expect((screen.getByLabelText("Limit") as HTMLInputElement).value).toBe("10");
    expect(screen.getByLabelText("Attribute 1.1")).toBeTruthy();
  });
});
