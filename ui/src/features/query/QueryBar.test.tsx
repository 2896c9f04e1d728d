import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Channel } from "@tauri-apps/api/core";
import type { QueryPage, ReadRequest, ScanInput, ScanUpdate, TableDescription } from "../../ipc/bindings.gen";
import { CapacityProvider } from "../../app/capacity";
import { fakeSource } from "../builder/fakeSource";
import { telemetry } from "../builder/fixtures";
import { QueryBar } from "./QueryBar";
import { fakeBuild } from "./fakeQuerySource";
import { SCAN_ITEMS_KEPT, useQueryModel, type ChannelFactory } from "./useQueryModel";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

/** Telemetry with its ByDepot GSI and an LSI whose sort key is a number. */
const table: TableDescription = {
  ...telemetry,
  indexes: [
    ...telemetry.indexes,
    {
      // A multi-attribute GSI key (rule B.18): two partition-key attributes, two sort-key attributes.
      name: "ByDepotRoute",
      kind: "global",
      keys: {
        partitionKey: { name: "depotCode", type: "S" },
        morePartitionKeys: [{ name: "routeNo", type: "N" }],
        sortKey: { name: "recordedAt", type: "S" },
        moreSortKeys: [{ name: "vehicleId", type: "S" }],
      },
      projection: { type: "ALL", attributes: [] },
      backfilling: null,
      itemCount: null,
      sizeBytes: null,
      status: "ACTIVE",
    },
    {
      name: "BySpeed",
      kind: "local",
      keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "speedKph", type: "N" } },
      projection: { type: "ALL", attributes: [] },
      backfilling: null,
      itemCount: null,
      sizeBytes: null,
      status: "ACTIVE",
    },
  ],
};

const page: QueryPage = {
  items: [{ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:09:00Z" } }],
  count: 1,
  scannedCount: 3,
  lastEvaluatedKey: null,
  consumedCapacity: { total: 0.5, table: 0.5, indexes: [] },
  stop: "end",
};

function querySource(overrides: Partial<Commands> = {}) {
  return {
    ...fakeSource(),
    buildReadRequest: vi.fn(fakeBuild),
    runReadRequest: vi.fn(async () => ({ status: "ok" as const, data: page })),
    scan: vi.fn(() => new Promise(() => {})),
    cancelOperation: vi.fn(async () => ({ status: "ok" as const, data: true })),
    ...overrides,
  } as Commands;
}

function Harness({ makeChannel }: { makeChannel?: ChannelFactory | undefined }) {
  const model = useQueryModel({ profileId: "embedded", table, makeChannel });
  return (
    <>
      <QueryBar table={table} model={model} suggestions={[{ S: "VEH#V-7741" }, { S: "VEH#V-1007" }]} />
      <output data-testid="ran-input">{JSON.stringify(model.ranInput)}</output>
      {model.run?.kind === "scan" && (
        <output data-testid="scan-kept">
          {JSON.stringify({
            kept: model.run.pages.reduce((n, p) => n + p.items.length, 0),
            notKept: model.run.notKept,
            met: [...model.run.met.values()].map((c) => [c.value, c.items]),
            attributed: model.run.attributed,
          })}
        </output>
      )}
    </>
  );
}

function renderBar(source = querySource(), makeChannel?: ChannelFactory) {
  renderWithCommands(
    <CapacityProvider>
      <Harness makeChannel={makeChannel} />
    </CapacityProvider>,
    source,
  );
  return source;
}

const lastBuilt = (source: Commands) => {
  const calls = (source.buildReadRequest as ReturnType<typeof vi.fn>).mock.calls;
  return calls.at(-1)?.[0] as ReadRequest | undefined;
};

/** Sets the bar to Scan and runs it: the Scan's input, and a way to stream it a page. */
async function runScan() {
  let deliver: ((update: ScanUpdate) => void) | null = null;
  const source = renderBar(querySource(), (onMessage) => {
    deliver = onMessage;
    return {} as Channel<ScanUpdate>;
  });
  fireEvent.click(screen.getByLabelText("Scan"));
  fireEvent.click(screen.getByTestId("qb-run"));
  await waitFor(() => expect(source.scan).toHaveBeenCalled());
  const [, input] = (source.scan as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, ScanInput];
  return { deliver: (update: ScanUpdate) => deliver!(update), input };
}

const optionsOf = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.value);

describe("QueryBar", () => {
  it("offers only the sort-key operators legal for the key's type: begins_with on a string key, not on a number", async () => {
    const source = renderBar();
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("begins_with"));
    expect(optionsOf(screen.getByTestId("qb-sort-op"))).toEqual(["none", "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"]);
    expect(source.sortKeyOperators).toHaveBeenLastCalledWith("S");
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "BySpeed" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).not.toContain("begins_with"));
    expect(source.sortKeyOperators).toHaveBeenLastCalledWith("N");
    expect(optionsOf(screen.getByTestId("qb-sort-op"))).toEqual(["none", "=", "<", "<=", ">", ">=", "BETWEEN"]);
    // The label says which key, and a number key refuses text that is no number.
    expect(screen.getByLabelText("speedKph operator")).toBeTruthy();
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain(">"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: ">" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "fast" } });
    expect(screen.getByRole("alert").textContent).toContain('speedKph is a number: "fast" is not one.');
  });

  it("says when a number key's value is outside DynamoDB's number range or too precise, and keeps Run off", async () => {
    const source = renderBar();
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "ByDepotRoute" } });
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "BER-1" } });
    const route = screen.getByTestId("qb-pk-1");
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    for (const big of ["1e126", "1e999999", "-1E-131"]) {
      fireEvent.change(route, { target: { value: big } });
      expect(screen.getByRole("alert").textContent).toBe("routeNo is outside DynamoDB's number range (about ±1E-130 to ±9.99E+125).");
      expect(run.disabled).toBe(true);
      expect(screen.getByTestId("qb-run-blocked").textContent).toContain("routeNo is outside DynamoDB's number range");
    }
    fireEvent.change(route, { target: { value: "1234567890123456789012345678901234567891" } });
    expect(screen.getByRole("alert").textContent).toBe("routeNo has more than 38 significant digits: DynamoDB keeps 38 at most.");
    // The Request panel says why there is no request, instead of going blank.
    expect(screen.getByTestId("qb-request-missing").textContent).toContain("routeNo has more than 38 significant digits");
    fireEvent.keyDown(route, { key: "Enter", ctrlKey: true });
    expect(source.runReadRequest).not.toHaveBeenCalled();
    // The largest number DynamoDB has is fine.
    fireEvent.change(route, { target: { value: "9.9999999999999999999999999999999999999E+125" } });
    expect(screen.queryByRole("alert")).toBeNull();
    await waitFor(() => expect(lastBuilt(source)?.keyCondition?.morePartition).toEqual([{ name: "routeNo", value: { N: "9.9999999999999999999999999999999999999E+125" } }]));
    await waitFor(() => expect(run.disabled).toBe(false));
  });

  it("keeps Run off and says why when the request could not be checked", async () => {
    const source = renderBar(querySource({ buildReadRequest: vi.fn(async () => ({ status: "error" as const, error: { code: "INTERNAL" as const, message: "the builder failed", exception: null } })) }));
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("the builder failed"));
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    expect(run.disabled).toBe(true);
    expect(screen.getByTestId("qb-run-blocked").textContent).toContain("The request could not be checked");
    expect(source.runReadRequest).not.toHaveBeenCalled();
  });

  it("catches a reversed BETWEEN before sending it, in DynamoDB's order: numbers numerically, strings by their bytes", async () => {
    const source = renderBar();
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "BySpeed" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("BETWEEN"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "BETWEEN" } });
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    // 9 to 10 is in order (though "10" < "9" as text); 10 to 9 is reversed.
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "9" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "10" } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "10" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "9" } });
    expect(screen.getByRole("alert").textContent).toBe("The range of speedKph is reversed: the first value must not be greater than the second.");
    expect(screen.getByTestId("qb-sk-high").getAttribute("aria-invalid")).toBe("true");
    expect(run.disabled).toBe(true);
    // Strings by their UTF-8 bytes.
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("begins_with"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "TS#2025-03-14T09:09:00Z" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "TS#2025-03-14T09:00:00Z" } });
    expect(screen.getByRole("alert").textContent).toBe("The range of recordedAt is reversed: the first value must not be greater than the second.");
    fireEvent.keyDown(screen.getByTestId("qb-sk"), { key: "Enter", ctrlKey: true });
    expect(source.runReadRequest).not.toHaveBeenCalled();
  });

  it("says a failed Query in a plain sentence naming the field, with DynamoDB's message folded under it", async () => {
    const message =
      "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:TS#a}, upper bound operand: AttributeValue: {S:TS#b}";
    const source = renderBar(
      querySource({ runReadRequest: vi.fn(async () => ({ status: "error" as const, error: { code: "VALIDATION" as const, message, exception: "ValidationException" } })) }),
    );
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("BETWEEN"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "TS#a" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "TS#b" } });
    fireEvent.keyDown(screen.getByTestId("qb-sk"), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalled());
    const error = await screen.findByTestId("qb-error");
    expect(within(error).getByTestId("qb-error-sentence").textContent).toBe(
      "The Query failed: The range of recordedAt is reversed: the first value must not be greater than the second.",
    );
    const details = error.querySelector("details")!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain(message);
    expect(details.textContent).toContain("ValidationException");
    // The field it is about is marked, and described by the error.
    expect(screen.getByTestId("qb-sk-high").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("qb-sk-high").getAttribute("aria-describedby")).toBe(error.id);
    // No summary stands for the failed request.
    expect(screen.queryByTestId("qb-summary")).toBeNull();
  });

  it("starts a filter on an attribute that is no key of what the Query reads (rule B.4)", async () => {
    renderBar();
    fireEvent.click(screen.getByTestId("qb-add-filter"));
    await waitFor(() => expect(document.querySelector("input.path-input")).not.toBeNull());
    const path = document.querySelector<HTMLInputElement>("input.path-input")!;
    expect(path.value).not.toBe("");
    // The table's keys are vehicleId and recordedAt: a Query's filter may read neither.
    expect(["vehicleId", "recordedAt"]).not.toContain(path.value);
  });

  it("disables strong consistency on a global secondary index and never sends it there", async () => {
    const source = renderBar();
    const consistent = screen.getByTestId("qb-consistent") as HTMLInputElement;
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    fireEvent.click(consistent);
    await waitFor(() => expect(lastBuilt(source)?.consistentRead).toBe(true));
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "ByDepot" } });
    expect(consistent.disabled).toBe(true);
    expect(consistent.checked).toBe(false);
    expect(screen.getByText("A global secondary index supports only eventually consistent reads.")).toBeTruthy();
    // The partition key changed (depotCode), so its value was cleared; with one, the request reads the GSI eventually consistent.
    expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("");
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "BER-1" } });
    await waitFor(() => expect(lastBuilt(source)?.indexName).toBe("ByDepot"));
    expect(lastBuilt(source)).toMatchObject({ consistentRead: false, keyCondition: { partitionKey: "depotCode", partitionValue: { S: "BER-1" } } });
    // An LSI allows strongly consistent reads again.
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "BySpeed" } });
    expect(consistent.disabled).toBe(false);
  });

  it("asks for every partition-key attribute of a multi-attribute index and sends an equality on each", async () => {
    const source = renderBar();
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "ByDepotRoute" } });
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "BER-1" } });
    const route = screen.getByTestId("qb-pk-1");
    expect(screen.getByLabelText(/routeNo =/)).toBe(route);
    // Without the second attribute nothing can be run, and Run says what is missing.
    fireEvent.click(screen.getByTestId("qb-run"));
    expect(screen.getByRole("alert").textContent).toBe("Enter a value for routeNo.");
    expect(source.runReadRequest).not.toHaveBeenCalled();
    fireEvent.change(route, { target: { value: "x" } });
    expect(screen.getByRole("alert").textContent).toContain('routeNo is a number: "x" is not one.');
    fireEvent.change(route, { target: { value: "12" } });
    await waitFor(() => expect(lastBuilt(source)?.indexName).toBe("ByDepotRoute"));
    expect(lastBuilt(source)?.keyCondition).toEqual({
      partitionKey: "depotCode",
      partitionValue: { S: "BER-1" },
      morePartition: [{ name: "routeNo", value: { N: "12" } }],
      sort: null,
    });
    // Back on a single-attribute index, the other values are dropped.
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "ByDepot" } });
    expect(screen.queryByTestId("qb-pk-1")).toBeNull();
    await waitFor(() => expect(lastBuilt(source)?.indexName).toBe("ByDepot"));
    expect(lastBuilt(source)?.keyCondition).toEqual({ partitionKey: "depotCode", partitionValue: { S: "BER-1" }, sort: null });
  });

  it("takes the sort-key attributes of a multi-attribute index left to right", async () => {
    const source = renderBar();
    fireEvent.change(screen.getByTestId("qb-index"), { target: { value: "ByDepotRoute" } });
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "BER-1" } });
    fireEvent.change(screen.getByTestId("qb-pk-1"), { target: { value: "12" } });
    // recordedAt first; `=` on it offers to go on to vehicleId.
    expect(screen.getByLabelText("recordedAt operator")).toBe(screen.getByTestId("qb-sort-op"));
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("="));
    expect(screen.queryByTestId("qb-sk-next")).toBeNull();
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "=" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "TS#2025-03-14" } });
    fireEvent.click(screen.getByTestId("qb-sk-next"));
    expect((screen.getByTestId("qb-sk-eq-0") as HTMLInputElement).value).toBe("TS#2025-03-14");
    expect(screen.getByLabelText("vehicleId operator")).toBe(screen.getByTestId("qb-sort-op"));
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("begins_with"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "begins_with" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "VEH#" } });
    await waitFor(() => expect(lastBuilt(source)?.keyCondition?.sort).toMatchObject({ type: "beginsWith", name: "vehicleId" }));
    expect(lastBuilt(source)?.keyCondition).toEqual({
      partitionKey: "depotCode",
      partitionValue: { S: "BER-1" },
      morePartition: [{ name: "routeNo", value: { N: "12" } }],
      sortEqual: [{ name: "recordedAt", value: { S: "TS#2025-03-14" } }],
      sort: { type: "beginsWith", name: "vehicleId", prefix: { S: "VEH#" } },
    });
    // Back to a condition on recordedAt: its held value becomes the `=` condition again.
    fireEvent.click(screen.getByTestId("qb-sk-release-0"));
    expect(screen.queryByTestId("qb-sk-eq-0")).toBeNull();
    await waitFor(() => expect(lastBuilt(source)?.keyCondition?.sort).toMatchObject({ name: "recordedAt", op: "=" }));
    expect(lastBuilt(source)?.keyCondition?.sortEqual).toBeUndefined();
  });

  it("completes the partition-key value from the collection statistics", () => {
    renderBar();
    const input = screen.getByTestId("qb-pk");
    const list = document.getElementById(input.getAttribute("list")!)!;
    expect([...list.querySelectorAll("option")].map((o) => o.getAttribute("value"))).toEqual(["VEH#V-7741", "VEH#V-1007"]);
  });

  it("shows the generated request, its names and values, its JSON body, and the same request as code", async () => {
    const source = renderBar();
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("BETWEEN"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "TS#2025-03-14T09:00:00Z" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "TS#2025-03-14T09:09:00Z" } });
    // The order is the sort key's, whatever it holds (not always time: no "newest first").
    expect([...(screen.getByLabelText("Order") as HTMLSelectElement).options].map((o) => [o.value, o.textContent])).toEqual([
      ["ascending", "Ascending (sort-key order)"],
      ["descending", "Descending (reverse sort-key order)"],
    ]);
    fireEvent.change(screen.getByLabelText("Order"), { target: { value: "descending" } });
    const expression = await screen.findByTestId("qb-key-expression");
    await waitFor(() => expect(expression.textContent).toBe("vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAtFrom AND :recordedAtTo"));
    const request = screen.getByTestId("qb-request");
    const generated = within(request).getByRole("region", { name: "Generated KeyConditionExpression" });
    expect(within(generated).getByTestId("generated-values").textContent).toContain(':recordedAtTo{"S":"TS#2025-03-14T09:09:00Z"}');
    expect(lastBuilt(source)).toMatchObject({ direction: "descending", returnConsumedCapacity: "INDEXES" });
    // The code panel exports exactly the request on screen.
    await waitFor(() => expect(source.exportCode).toHaveBeenCalled());
    const [exported] = (source.exportCode as ReturnType<typeof vi.fn>).mock.calls.at(-1)!;
    expect(exported).toEqual(lastBuilt(source));
    expect(within(request).getByTestId("code").textContent).toBe("aws dynamodb query");
  });

  it("runs the Query with Ctrl+Enter: the checked request goes to the source, and the summary counts what the filter dropped", async () => {
    const source = renderBar();
    const pk = screen.getByTestId("qb-pk");
    fireEvent.change(pk, { target: { value: "VEH#V-7741" } });
    fireEvent.keyDown(pk, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalledTimes(1));
    const [profile, sent, start] = (source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls[0]!;
    expect(profile).toBe("embedded");
    expect(start).toBeNull();
    expect(sent).toEqual(lastBuilt(source));
    await waitFor(() => expect(screen.getByTestId("qb-summary").textContent).toContain("1 returned of 3 read · 1 page · 0.5 RCU"));
  });

  it("keeps the Query that ran, its filter as the builder wrote it, while the bar is changed for the next one", async () => {
    // The builder writes the filter's expression (the fake only writes key conditions).
    const build = vi.fn(async (request: ReadRequest) => {
      const built = await fakeBuild(request);
      if (!request.filter) return built;
      return { ...built, data: { ...built.data, request: { ...built.data.request, filterExpression: "attribute_exists(speedKph)" } } };
    });
    const source = renderBar(querySource({ buildReadRequest: build }));
    const pk = screen.getByTestId("qb-pk");
    fireEvent.change(pk, { target: { value: "VEH#V-7741" } });
    fireEvent.click(screen.getByTestId("qb-add-filter"));
    await waitFor(() => expect(lastBuilt(source)?.filter).toBeTruthy());
    fireEvent.keyDown(pk, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(JSON.parse(screen.getByTestId("ran-input").textContent!)).toMatchObject({ partitionValue: { S: "VEH#V-7741" }, filter: "attribute_exists(speedKph)" }));
    fireEvent.change(pk, { target: { value: "VEH#V-1007" } });
    await waitFor(() => expect(lastBuilt(source)?.keyCondition?.partitionValue).toEqual({ S: "VEH#V-1007" }));
    expect(JSON.parse(screen.getByTestId("ran-input").textContent!)).toMatchObject({ partitionValue: { S: "VEH#V-7741" }, filter: "attribute_exists(speedKph)" });
  });

  it("sends the filter as typed in the text mode: an empty box sends none, a text with an error stops Run, and Remove filter takes it away", async () => {
    const typedState = { type: "attributeExists" as const, path: ["speedKph"] };
    const source = renderBar(
      querySource({
        generateExpression: vi.fn(async () => ({
          status: "ok" as const,
          data: { parameter: "FilterExpression" as const, expression: "attribute_exists(vehicleId)", ExpressionAttributeNames: {}, ExpressionAttributeValues: {} },
        })),
        parseExpressions: vi.fn(async (input: Parameters<Commands["parseExpressions"]>[0]) =>
          input.Expressions[0]!.text.trim().endsWith(">")
            ? {
                status: "invalid" as const,
                diagnostics: [
                  { exception: "ValidationException", message: "Invalid FilterExpression: Syntax error; token: <EOF>", expression: "FilterExpression" as const, span: null },
                ],
              }
            : { status: "parsed" as const, states: [{ parameter: "FilterExpression" as const, state: typedState }] },
        ),
      }),
    );
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    fireEvent.click(screen.getByTestId("qb-add-filter"));
    await waitFor(() => expect(lastBuilt(source)?.filter).toBeTruthy());
    fireEvent.click(screen.getByRole("tab", { name: "Text" }));
    const text = () => screen.getByRole("textbox", { name: "FilterExpression" });
    await waitFor(() => expect((text() as HTMLTextAreaElement).value).toBe("attribute_exists(vehicleId)"));

    // Emptied: the request has no filter, and Run sends none.
    fireEvent.change(text(), { target: { value: "" } });
    await waitFor(() => expect(lastBuilt(source)?.filter).toBeNull());
    expect(screen.getByText("Empty: the request is sent without a filter.")).toBeTruthy();
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalledTimes(1));
    expect((source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls[0]![1]).toMatchObject({ filter: null });

    // A text with an error: Run is off and says why; Ctrl+Enter sends nothing either.
    fireEvent.change(text(), { target: { value: "speedKph >" } });
    await waitFor(() => expect(screen.getByText(/Syntax error; token: <EOF>/)).toBeTruthy());
    await waitFor(() => expect(screen.getByTestId("qb-run-blocked").textContent).toContain("The filter as typed is not valid"));
    expect(run.disabled).toBe(true);
    expect(run.getAttribute("aria-describedby")).toBe(screen.getByTestId("qb-run-blocked").id);
    fireEvent.keyDown(text(), { key: "Enter", ctrlKey: true });
    expect(source.runReadRequest).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId("qb-request-missing").textContent).toContain("The filter as typed is not valid");

    // A valid text is the filter sent.
    fireEvent.change(text(), { target: { value: "attribute_exists(speedKph)" } });
    await waitFor(() => expect(lastBuilt(source)?.filter).toEqual(typedState));
    await waitFor(() => expect(run.disabled).toBe(false));

    // Remove filter, in the text mode as in the visual one.
    fireEvent.click(screen.getByRole("button", { name: "Remove filter" }));
    expect(screen.queryByRole("textbox", { name: "FilterExpression" })).toBeNull();
    expect(screen.getByTestId("qb-add-filter")).toBeTruthy();
    await waitFor(() => expect(lastBuilt(source)?.filter).toBeNull());
    expect(run.disabled).toBe(false);
  }, 20_000);

  it("says the result answers the previous request once the bar changes, and names it on next page", async () => {
    const first: QueryPage = { ...page, lastEvaluatedKey: { vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: "TS#2025-03-14T09:09:00Z" } }, stop: "limit" };
    const runReadRequest = vi.fn(async (_profile: string, _request: ReadRequest, start: unknown) => ({ status: "ok" as const, data: start === null ? first : page }));
    const source = renderBar(querySource({ runReadRequest }));
    const pk = screen.getByTestId("qb-pk");
    fireEvent.change(pk, { target: { value: "VEH#V-7741" } });
    fireEvent.keyDown(pk, { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(screen.getByRole("button", { name: "next page" })).toBeTruthy());
    expect(screen.queryByTestId("qb-stale")).toBeNull();

    fireEvent.change(pk, { target: { value: "VEH#V-1007" } });
    expect(screen.getByTestId("qb-stale").textContent).toBe("Result of the previous request (vehicleId = VEH#V-7741) — Run to read vehicleId = VEH#V-1007.");
    expect(screen.getByTestId("qb-summary").className).toContain("qb-summary-stale");
    // Next page continues the request that produced the result, and says so.
    fireEvent.click(screen.getByRole("button", { name: "next page of the previous request" }));
    await waitFor(() => expect(runReadRequest).toHaveBeenCalledTimes(2));
    const [, sent, start] = runReadRequest.mock.calls[1]!;
    expect(sent.keyCondition?.partitionValue).toEqual({ S: "VEH#V-7741" });
    expect(start).toEqual(first.lastEvaluatedKey);

    // Cleared: the bar has no request yet.
    fireEvent.change(pk, { target: { value: "" } });
    expect(screen.getByTestId("qb-stale").textContent).toBe("Result of the previous request (vehicleId = VEH#V-7741) — Run to read the new one once its fields are complete.");
    // Back to the request that ran: the result is its answer again.
    fireEvent.change(pk, { target: { value: "VEH#V-7741" } });
    expect(screen.queryByTestId("qb-stale")).toBeNull();
    expect(source.runReadRequest).toHaveBeenCalledTimes(2);
  });

  it("does not run a Query without a partition-key value, and says what is missing", async () => {
    const source = renderBar();
    fireEvent.click(screen.getByTestId("qb-run"));
    expect(screen.getByRole("alert").textContent).toBe("Enter a value for vehicleId.");
    expect(source.runReadRequest).not.toHaveBeenCalled();
  });

  it("runs a Scan as a stream with its running cost, and cancels it", async () => {
    let deliver: ((update: ScanUpdate) => void) | null = null;
    const makeChannel: ChannelFactory = (onMessage) => {
      deliver = onMessage;
      return {} as Channel<ScanUpdate>;
    };
    const source = renderBar(querySource(), makeChannel);
    fireEvent.click(screen.getByLabelText("Scan"));
    expect(screen.queryByTestId("qb-pk")).toBeNull();
    fireEvent.click(screen.getByTestId("qb-run"));
    await waitFor(() => expect(source.scan).toHaveBeenCalled());
    const [, input] = (source.scan as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, ScanInput];
    expect(input).toMatchObject({ table: "Telemetry", index: null, filter: null, projection: null, segments: 1, capacityBudget: null });
    deliver!({
      scanId: input.scanId,
      segment: 0,
      page,
      totals: { pages: 1, items: 1, scanned: 3, bytes: 100, capacityUnits: 0.5, expectedItems: 10 },
    });
    await waitFor(() => expect(screen.getByTestId("scan-progress").textContent).toContain("3 of about 10 items read · 1 returned · 1 page · 0.5 RCU"));
    fireEvent.click(screen.getByTestId("qb-cancel"));
    expect(source.cancelOperation).toHaveBeenCalledWith(input.scanId);
  });

  it("refuses a Scan budget that is not a number of read units above 0, instead of scanning without one", async () => {
    const source = renderBar(querySource(), () => ({}) as Channel<ScanUpdate>);
    fireEvent.click(screen.getByLabelText("Scan"));
    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    const budget = screen.getByLabelText("Capacity budget");
    for (const wrong of ["-5", "ten", "0", "1e3x"]) {
      fireEvent.change(budget, { target: { value: wrong } });
      expect(screen.getByRole("alert").textContent).toBe("The budget is a number of read units above 0, like 50.");
      expect(budget.getAttribute("aria-invalid")).toBe("true");
      expect(run.disabled).toBe(true);
      fireEvent.keyDown(budget, { key: "Enter", ctrlKey: true });
    }
    expect(source.scan).not.toHaveBeenCalled();
    // Empty is no budget; a number is the budget sent.
    fireEvent.change(budget, { target: { value: "" } });
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.change(budget, { target: { value: " 50 " } });
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(source.scan).toHaveBeenCalledTimes(1));
    expect((source.scan as ReturnType<typeof vi.fn>).mock.calls[0]![1]).toMatchObject({ capacityBudget: 50 });
  });

  it("sends a Scan's projection with it: the attributes chosen in the bar, as document paths", async () => {
    const source = renderBar(querySource(), () => ({}) as Channel<ScanUpdate>);
    fireEvent.click(screen.getByLabelText("Scan"));
    fireEvent.click(screen.getByTestId("qb-add-projection"));
    await waitFor(() => expect(screen.getByTestId("qb-run")).not.toHaveProperty("disabled", true));
    fireEvent.click(screen.getByTestId("qb-run"));
    await waitFor(() => expect(source.scan).toHaveBeenCalled());
    const [, input] = (source.scan as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, ScanInput];
    // "Choose attributes" starts from the first two attributes the table is known to have.
    expect(input.projection).toBe("vehicleId, recordedAt");
  });

  it("keeps the first items of a big Scan for the grid, and counts every item returned into its collection", async () => {
    const { deliver, input } = await runScan();
    // Three pages of 10,000 items: two collections, the third page's items without their key (a projection).
    const big = (vehicle: string | null, n: number): QueryPage => ({
      ...page,
      items: Array.from({ length: n }, (_, i) => ({ ...(vehicle === null ? {} : { vehicleId: { S: vehicle } }), recordedAt: { S: `TS#${i}` } })),
      count: n,
      scannedCount: n,
    });
    const pages = [big("VEH#V-1", 10_000), big("VEH#V-2", 10_000), big(null, 10_000)];
    pages.forEach((p, i) =>
      deliver({
        scanId: input.scanId,
        segment: 0,
        page: p,
        totals: { pages: i + 1, items: (i + 1) * 10_000, scanned: (i + 1) * 10_000, bytes: 0, capacityUnits: i + 1, expectedItems: 30_000 },
      }),
    );
    await waitFor(() =>
      expect(JSON.parse(screen.getByTestId("scan-kept").textContent!)).toEqual({
        kept: SCAN_ITEMS_KEPT,
        notKept: 30_000 - SCAN_ITEMS_KEPT,
        met: [
          [{ S: "VEH#V-1" }, 10_000],
          [{ S: "VEH#V-2" }, 10_000],
        ],
        attributed: false,
      }),
    );
  });

  it("says how many items a Scan read, not 'of about 0', when the table's item count is not known yet", async () => {
    const { deliver, input } = await runScan();
    deliver({ scanId: input.scanId, segment: 0, page, totals: { pages: 1, items: 1, scanned: 3, bytes: 100, capacityUnits: 0.5, expectedItems: 0 } });
    await waitFor(() => expect(screen.getByTestId("scan-progress").textContent).toContain("3 items read · 1 returned · 1 page · 0.5 RCU"));
    // Running, with nothing to measure against: the bar has no value (indeterminate).
    expect(screen.getByLabelText("Scan progress").hasAttribute("value")).toBe(false);
  });
});

/** Two table tabs, each with its own model and bar, one shown at a time, as the app keeps them. */
function TwoTabs() {
  const first = useQueryModel({ profileId: "embedded", table });
  const second = useQueryModel({ profileId: "embedded", table });
  const [shown, setShown] = useState<"first" | "second">("first");
  const [barShown, setBarShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown(shown === "first" ? "second" : "first")}>
        other tab
      </button>
      <button type="button" onClick={() => setBarShown((b) => !b)}>
        toggle bar
      </button>
      <div hidden={shown !== "first"} data-testid="tab-first">
        {barShown && <QueryBar table={table} model={first} suggestions={[]} />}
      </div>
      <div hidden={shown !== "second"} data-testid="tab-second">
        <QueryBar table={table} model={second} suggestions={[]} />
      </div>
    </>
  );
}

describe("QueryBar folded to one line", () => {
  it("is unfolded at first, folds to the request in one line, and Run (the button or Ctrl+Enter) still runs it", async () => {
    const source = renderBar();
    const fold = screen.getByTestId("qb-fold");
    expect(fold.getAttribute("aria-expanded")).toBe("true");
    expect(fold.textContent).toBe("▾ Query");
    fireEvent.change(screen.getByTestId("qb-pk"), { target: { value: "VEH#V-7741" } });
    await waitFor(() => expect(optionsOf(screen.getByTestId("qb-sort-op"))).toContain("BETWEEN"));
    fireEvent.change(screen.getByTestId("qb-sort-op"), { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByTestId("qb-sk"), { target: { value: "TS#2025-03-14T09:00:00Z" } });
    fireEvent.change(screen.getByTestId("qb-sk-high"), { target: { value: "TS#2025-03-14T10:00:00Z" } });
    fireEvent.change(screen.getByTestId("qb-limit"), { target: { value: "25" } });

    fireEvent.click(fold);
    expect(screen.getByTestId("qb-fold").getAttribute("aria-expanded")).toBe("false");
    expect(screen.getByTestId("qb-fold").textContent).toBe("▸ Query");
    expect(screen.queryByTestId("qb-pk")).toBeNull();
    // The options and the Request are hidden, not dropped (an editor's text mode keeps its text).
    expect(screen.getByTestId("qb-limit").closest("[hidden]")).not.toBeNull();
    expect(screen.getByTestId("qb-request").closest("[hidden]")).not.toBeNull();
    expect(screen.getByTestId("qb-folded-summary").textContent).toBe(
      "Query Telemetry · vehicleId = VEH#V-7741 · recordedAt BETWEEN TS#2025-03-14T09:00:00Z AND TS#2025-03-14T10:00:00Z · 25 per page",
    );

    const run = screen.getByTestId("qb-run") as HTMLButtonElement;
    await waitFor(() => expect(run.disabled).toBe(false));
    fireEvent.click(run);
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalledTimes(1));
    const [, sent] = (source.runReadRequest as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, ReadRequest];
    expect(sent.limit).toBe(25);
    expect(sent.keyCondition?.sort).toMatchObject({ type: "between", name: "recordedAt" });
    // Ctrl+Enter in the folded bar runs it too.
    await waitFor(() => expect((screen.getByTestId("qb-run") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(screen.getByTestId("qb-fold"), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(source.runReadRequest).toHaveBeenCalledTimes(2));

    // Unfolded again, the fields hold what was typed.
    fireEvent.click(screen.getByTestId("qb-fold"));
    expect((screen.getByTestId("qb-pk") as HTMLInputElement).value).toBe("VEH#V-7741");
    expect(screen.queryByTestId("qb-folded-summary")).toBeNull();
  });

  it("says a Scan, a filter and values not typed yet in the folded line", async () => {
    renderBar();
    fireEvent.click(screen.getByTestId("qb-fold"));
    expect(screen.getByTestId("qb-folded-summary").textContent).toBe("Query Telemetry · vehicleId = …");
    fireEvent.click(screen.getByTestId("qb-fold"));
    fireEvent.click(screen.getByLabelText("Scan"));
    fireEvent.click(screen.getByTestId("qb-add-filter"));
    fireEvent.click(screen.getByTestId("qb-fold"));
    expect(screen.getByTestId("qb-fold").textContent).toBe("▸ Scan");
    expect(screen.getByTestId("qb-folded-summary").textContent).toBe("Scan Telemetry · filtered");
  });

  it("folds with Ctrl+Shift+F, only the tab on show, and each tab keeps its own choice", () => {
    renderWithCommands(
      <CapacityProvider>
        <TwoTabs />
      </CapacityProvider>,
      querySource(),
    );
    const foldOf = (tab: string) => within(screen.getByTestId(tab)).getByTestId("qb-fold");
    fireEvent.keyDown(document.body, { key: "F", ctrlKey: true, shiftKey: true });
    expect(foldOf("tab-first").getAttribute("aria-expanded")).toBe("false");
    expect(foldOf("tab-second").getAttribute("aria-expanded")).toBe("true");
    // The other tab: its bar is still unfolded, and folding there leaves the first as it is.
    fireEvent.click(screen.getByText("other tab"));
    expect(within(screen.getByTestId("tab-second")).getByTestId("qb-pk")).toBeTruthy();
    fireEvent.keyDown(document.body, { key: "F", ctrlKey: true, shiftKey: true });
    fireEvent.keyDown(document.body, { key: "F", ctrlKey: true, shiftKey: true });
    expect(foldOf("tab-second").getAttribute("aria-expanded")).toBe("true");
    expect(foldOf("tab-first").getAttribute("aria-expanded")).toBe("false");
    // Back on the first tab, and with its bar drawn anew, it is still folded.
    fireEvent.click(screen.getByText("other tab"));
    fireEvent.click(screen.getByText("toggle bar"));
    expect(within(screen.getByTestId("tab-first")).queryByTestId("qb-fold")).toBeNull();
    fireEvent.click(screen.getByText("toggle bar"));
    expect(foldOf("tab-first").getAttribute("aria-expanded")).toBe("false");
    expect(within(screen.getByTestId("tab-first")).queryByTestId("qb-pk")).toBeNull();
  });
});
