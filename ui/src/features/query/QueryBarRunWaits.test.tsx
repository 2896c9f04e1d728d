/**
 * Run asked for before the request on screen is checked (issue 17): a filter typed a moment ago is
 * still being read (a debounced parse), so the run waits for the check instead of being dropped,
 * and runs the text typed, never an older or a later one. On a clock moved by the test.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import type { ConditionState, QueryPage, ReadRequest } from "../../ipc/bindings.gen";
import { CapacityProvider } from "../../app/capacity";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";
import { fakeSource } from "../builder/fakeSource";
import { telemetry } from "../builder/fixtures";
import { fakeBuild } from "./fakeQuerySource";
import { QueryBar } from "./QueryBar";
import { useQueryModel } from "./useQueryModel";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const page: QueryPage = {
  items: [],
  count: 0,
  scannedCount: 0,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "end",
};

/** `attribute_exists(x)` reads as the builder's state for it; a text ending in `>` is DynamoDB's syntax error. */
const parseExpressions = vi.fn(async (input: Parameters<Commands["parseExpressions"]>[0]) => {
  const text = input.Expressions[0]!.text.trim();
  const named = /^attribute_exists\((\w+)\)$/.exec(text);
  if (named === null)
    return {
      status: "invalid" as const,
      diagnostics: [
        { exception: "ValidationException", message: "Invalid FilterExpression: Syntax error; token: <EOF>", expression: "FilterExpression" as const, span: null },
      ],
    };
  return { status: "parsed" as const, states: [{ parameter: "FilterExpression" as const, state: attributeExists(named[1]!) }] };
});
const attributeExists = (name: string): ConditionState => ({ type: "attributeExists", path: [name] });

function Harness() {
  const model = useQueryModel({ profileId: "embedded", table: telemetry });
  return <QueryBar table={telemetry} model={model} suggestions={[]} seenAttributes={["speedKph", "odometerKm"]} />;
}

/**
 * Moves the clock on by `ms`, running what falls due and the promises it settles, in steps: React
 * renders (and starts the next wait) only as each step ends.
 */
async function pass(ms: number) {
  for (let t = 0; t < ms; t += 50) await act(() => vi.advanceTimersByTimeAsync(50));
}

/** A Query of one vehicle with a filter in the text mode, checked and ready to run. */
async function renderWithTextFilter() {
  const source: Partial<Commands> = {
    ...fakeSource(),
    generateExpression: vi.fn(async () => ({
      status: "ok" as const,
      data: { parameter: "FilterExpression" as const, expression: "attribute_exists(speedKph)", ExpressionAttributeNames: {}, ExpressionAttributeValues: {} },
    })),
    parseExpressions,
    buildReadRequest: vi.fn(fakeBuild),
    runReadRequest: vi.fn(async () => ({ status: "ok" as const, data: page })),
  };
  renderWithCommands(
    <CapacityProvider>
      <Harness />
    </CapacityProvider>,
    source,
  );
  fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
  fireEvent.click(screen.getByTestId("qb-add-filter"));
  await pass(1000);
  fireEvent.click(screen.getByRole("tab", { name: "Text" }));
  await pass(1000);
  const text = screen.getByRole("textbox", { name: "FilterExpression" }) as HTMLTextAreaElement;
  expect(text.value).toBe("attribute_exists(speedKph)");
  const run = screen.getByTestId("qb-run") as HTMLButtonElement;
  expect(run.disabled).toBe(false);
  const sent = () => (source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls.map((c) => c[1] as ReadRequest);
  return { source, text, run, sent };
}

describe("QueryBar: Run asked for while the request is being checked", () => {
  it("runs on Ctrl+Enter pressed right after typing a filter, once the text is read, with the filter typed", async () => {
    const { text, run, sent } = await renderWithTextFilter();
    fireEvent.change(text, { target: { value: "attribute_exists(odometerKm)" } });
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    // Waiting, and saying so: not a dead Run.
    expect(sent()).toEqual([]);
    expect(run.textContent).toBe("Checking…");
    expect(run.getAttribute("aria-busy")).toBe("true");
    expect(run.disabled).toBe(false);
    expect(screen.getByTestId("qb-run-queued").textContent).toContain("a change to the bar before then cancels it");
    expect(run.getAttribute("aria-describedby")).toBe(screen.getByTestId("qb-run-queued").id);
    expect(screen.queryByTestId("qb-run-blocked")).toBeNull();

    await pass(1000);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.filter).toEqual(attributeExists("odometerKm"));
    expect(run.textContent).toBe("Run Query");
    expect(run.getAttribute("aria-busy")).toBeNull();
    expect(screen.queryByTestId("qb-run-queued")).toBeNull();
  });

  it("runs on a click on Run right after typing too", async () => {
    const { text, run, sent } = await renderWithTextFilter();
    fireEvent.change(text, { target: { value: "attribute_exists(odometerKm)" } });
    fireEvent.click(run);
    expect(run.textContent).toBe("Checking…");
    await pass(1000);
    expect(sent().map((r) => r.filter)).toEqual([attributeExists("odometerKm")]);
  });

  it("does not run a text the check finds wrong: the error shows as ever, and the run asked for is dropped", async () => {
    const { text, run, sent } = await renderWithTextFilter();
    fireEvent.change(text, { target: { value: "speedKph >" } });
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    expect(run.textContent).toBe("Checking…");
    await pass(1000);
    expect(sent()).toEqual([]);
    expect(screen.getByText(/Syntax error; token: <EOF>/)).toBeTruthy();
    expect(screen.getByTestId("qb-run-blocked").textContent).toContain("The filter as typed is not valid");
    expect(run.disabled).toBe(true);
    expect(run.textContent).toBe("Run Query");
    // Corrected, the text is not run by itself: that run was dropped with the error.
    fireEvent.change(text, { target: { value: "attribute_exists(odometerKm)" } });
    await pass(1000);
    expect(sent()).toEqual([]);
    expect(run.disabled).toBe(false);
  });

  it("drops the run asked for when the bar is changed before the check: never a request the user did not run", async () => {
    const { text, run, sent } = await renderWithTextFilter();
    fireEvent.change(text, { target: { value: "attribute_exists(odometerKm)" } });
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    expect(run.textContent).toBe("Checking…");
    // Typing on in the filter.
    await pass(100);
    fireEvent.change(text, { target: { value: "attribute_exists(speedKph)" } });
    expect(run.textContent).toBe("Run Query");
    await pass(1000);
    expect(sent()).toEqual([]);

    // Another field changed while the run waits.
    fireEvent.change(text, { target: { value: "attribute_exists(odometerKm)" } });
    fireEvent.click(run);
    expect(run.textContent).toBe("Checking…");
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-1007" } });
    expect(run.textContent).toBe("Run Query");
    await pass(1000);
    expect(sent()).toEqual([]);

    // Back to the visual editor, which shows the filter read before: the text typed is not run.
    fireEvent.change(text, { target: { value: "attribute_exists(speedKph)" } });
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    expect(run.textContent).toBe("Checking…");
    fireEvent.click(screen.getByRole("tab", { name: "Visual" }));
    expect(run.textContent).toBe("Run Query");
    await pass(1000);
    expect(sent()).toEqual([]);

    // Asked for again, it runs what is on screen then.
    fireEvent.click(run);
    await pass(1000);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.keyCondition?.partitionValue).toEqual({ S: "VEH#V-1007" });
    expect(sent()[0]!.filter).toEqual(attributeExists("odometerKm"));
  });

  it("waits for the backend's check of a key value typed a moment ago, saying so", async () => {
    const { run, sent } = await renderWithTextFilter();
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-1007" } });
    fireEvent.keyDown(screen.getByTestId("qb-pk"), { key: "Enter", ctrlKey: true });
    expect(run.textContent).toBe("Checking…");
    expect(screen.getByTestId("qb-run-queued").textContent).toContain("Runs once the request is checked");
    await pass(1000);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.keyCondition?.partitionValue).toEqual({ S: "VEH#V-1007" });
  });

  it("keeps a loaded request's run through an update that changes nothing (the Collections view's grouping, already the bar's)", async () => {
    let model: ReturnType<typeof useQueryModel> | null = null;
    function Exposed() {
      model = useQueryModel({ profileId: "embedded", table: telemetry });
      return <QueryBar table={telemetry} model={model} suggestions={[]} seenAttributes={[]} />;
    }
    const source: Partial<Commands> = {
      ...fakeSource(),
      parseExpressions,
      buildReadRequest: vi.fn(fakeBuild),
      runReadRequest: vi.fn(async () => ({ status: "ok" as const, data: page })),
    };
    renderWithCommands(
      <CapacityProvider>
        <Exposed />
      </CapacityProvider>,
      source,
    );
    await pass(500);
    const request: ReadRequest = {
      operation: "Query",
      tableName: "Telemetry",
      indexName: null,
      keyCondition: { partitionValue: { S: "VEH#V-7741" }, sort: null },
      filter: null,
      projection: null,
      limit: null,
      consistentRead: false,
      scanIndexForward: true,
    } as unknown as ReadRequest;
    act(() => {
      model!.loadRequest(request, true);
      // What the Collections view does on every render of a grouping: the bar's index already.
      model!.setForm((f) => f);
    });
    await pass(1000);
    const sent = (source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls.map((c) => c[1] as ReadRequest);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.keyCondition?.partitionValue).toEqual({ S: "VEH#V-7741" });
  });
});
