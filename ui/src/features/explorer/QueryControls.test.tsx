import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { QueryControls, type QueryControlsProps } from "./QueryControls";
import type { IndexSummary, KeySchema } from "./model";

afterEach(cleanup);

const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const indexes: IndexSummary[] = [
  {
    name: "ByDepot",
    kind: "global",
    keys: { partitionKey: { name: "depotCode", type: "S" }, sortKey: { name: "recordedAt", type: "S" } },
    projection: { type: "ALL", attributes: [] }, itemCount: null, sizeBytes: null, status: null, backfilling: null,
  },
  {
    name: "BySpeed",
    kind: "local",
    keys: { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "speedKph", type: "N" } },
    projection: { type: "KEYS_ONLY", attributes: [] }, itemCount: null, sizeBytes: null, status: null, backfilling: null,
  },
];

function setup(overrides: Partial<QueryControlsProps> = {}) {
  const props: QueryControlsProps = {
    table: "Telemetry",
    keys,
    indexes,
    suggestions: [{ S: "VEH#V-7741" }, { S: "VEH#V-7742" }, { N: "7" }],
    onRun: vi.fn(),
    onIndexChange: vi.fn(),
    ...overrides,
  };
  render(<QueryControls {...props} />);
  return props;
}

const operatorSelect = () => screen.getByRole("combobox", { name: /Sort key condition/ }) as HTMLSelectElement;
const operatorLabels = () => [...operatorSelect().options].slice(1).map((o) => o.textContent);
const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("QueryControls", () => {
  it("offers exactly DynamoDB's sort-key operators, begins_with only for string and binary keys", () => {
    setup();
    expect(operatorLabels()).toEqual(["=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"]);
    fireEvent.change(screen.getByRole("combobox", { name: "Table or index" }), { target: { value: "BySpeed" } });
    expect(operatorLabels()).toEqual(["=", "<", "<=", ">", ">=", "BETWEEN"]);
  });

  it("runs a newest-first BETWEEN window with Ctrl+Enter", () => {
    const props = setup();
    type(/^vehicleId/, "VEH#V-7741");
    fireEvent.change(operatorSelect(), { target: { value: "between" } });
    type(/^recordedAt from/, "TS#2026-06-23T09:00:00Z");
    type(/^recordedAt to/, "TS#2026-06-23T09:10:00Z");
    fireEvent.click(screen.getByRole("checkbox", { name: "Newest / highest first" }));
    type(/^Limit/, "25");
    type("Filter", "speedKph > :min");
    fireEvent.keyDown(screen.getByLabelText(/^Limit/), { key: "Enter", ctrlKey: true });
    expect(props.onRun).toHaveBeenCalledWith({
      table: "Telemetry",
      index: null,
      partitionValue: { S: "VEH#V-7741" },
      sortCondition: { op: "between", low: { S: "TS#2026-06-23T09:00:00Z" }, high: { S: "TS#2026-06-23T09:10:00Z" } },
      scanIndexForward: false,
      limit: 25,
      consistentRead: false,
      projection: null,
      filter: "speedKph > :min",
      filterNames: null,
        filterValues: null,
        exclusiveStartKey: null,
    });
  });

  it("shows one value field for = and two for BETWEEN", () => {
    setup();
    fireEvent.change(operatorSelect(), { target: { value: "beginsWith" } });
    expect(screen.getByLabelText(/^recordedAt \(string\)/)).toBeTruthy();
    expect(screen.queryByLabelText(/^recordedAt to/)).toBeNull();
    fireEvent.change(operatorSelect(), { target: { value: "between" } });
    expect(screen.getByLabelText(/^recordedAt from/)).toBeTruthy();
    expect(screen.getByLabelText(/^recordedAt to/)).toBeTruthy();
  });

  it("says next to the field when a number key gets text, and does not run", () => {
    const props = setup();
    fireEvent.change(screen.getByRole("combobox", { name: "Table or index" }), { target: { value: "BySpeed" } });
    type(/^vehicleId/, "VEH#V-7741");
    fireEvent.change(operatorSelect(), { target: { value: "ge" } });
    type(/^speedKph \(number\)/, "fast");
    const field = screen.getByLabelText(/^speedKph \(number\)/);
    const error = document.getElementById(field.getAttribute("aria-describedby")!);
    expect(error?.textContent).toBe('speedKph is a number: "fast" is not one. Write it like 42 or -3.5.');
    expect(field.getAttribute("aria-invalid")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Run query" }));
    expect(props.onRun).not.toHaveBeenCalled();
    type(/^speedKph \(number\)/, "99999999999999999999.5");
    fireEvent.click(screen.getByRole("button", { name: "Run query" }));
    expect(props.onRun).toHaveBeenCalledWith(
      expect.objectContaining({ index: "BySpeed", sortCondition: { op: "ge", value: { N: "99999999999999999999.5" } } }),
    );
  });

  it("asks for the partition key value on Run and focuses it", () => {
    const props = setup();
    expect(screen.queryByRole("alert")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Run query" }));
    expect(screen.getByRole("alert").textContent).toBe("Enter a value for vehicleId.");
    expect(document.activeElement).toBe(screen.getByLabelText(/^vehicleId/));
    expect(props.onRun).not.toHaveBeenCalled();
  });

  it("refuses a BETWEEN whose lower bound is above its upper bound", () => {
    const props = setup();
    type(/^vehicleId/, "VEH#V-7741");
    fireEvent.change(operatorSelect(), { target: { value: "between" } });
    type(/^recordedAt from/, "TS#2");
    type(/^recordedAt to/, "TS#1");
    expect(screen.getByRole("alert").textContent).toBe("BETWEEN needs the upper bound to be greater than or equal to the lower bound.");
    fireEvent.click(screen.getByRole("button", { name: "Run query" }));
    expect(props.onRun).not.toHaveBeenCalled();
  });

  it("switches key names with the index and disables consistent reads on a GSI with the reason", () => {
    const props = setup();
    const consistent = () => screen.getByRole("checkbox", { name: "Strongly consistent read" }) as HTMLInputElement;
    fireEvent.click(consistent());
    expect(consistent().checked).toBe(true);
    fireEvent.change(screen.getByRole("combobox", { name: "Table or index" }), { target: { value: "ByDepot" } });
    expect(props.onIndexChange).toHaveBeenCalledWith("ByDepot");
    expect(screen.getByLabelText(/^depotCode/)).toBeTruthy();
    expect(screen.queryByLabelText(/^vehicleId/)).toBeNull();
    expect(consistent().disabled).toBe(true);
    expect(consistent().checked).toBe(false);
    expect(document.getElementById(consistent().getAttribute("aria-describedby")!)?.textContent).toBe(
      "Global secondary indexes only support eventually consistent reads.",
    );
    type(/^depotCode/, "DEP-LON-3");
    fireEvent.click(screen.getByRole("button", { name: "Run query" }));
    expect(props.onRun).toHaveBeenCalledWith(expect.objectContaining({ index: "ByDepot", partitionValue: { S: "DEP-LON-3" }, consistentRead: false }));
    fireEvent.change(screen.getByRole("combobox", { name: "Table or index" }), { target: { value: "BySpeed" } });
    expect(consistent().disabled).toBe(false);
  });

  it("suggests partition values of the key's type", () => {
    setup();
    const input = screen.getByLabelText(/^vehicleId/);
    const list = document.getElementById(input.getAttribute("list")!)!;
    expect([...list.querySelectorAll("option")].map((o) => o.getAttribute("value"))).toEqual(["VEH#V-7741", "VEH#V-7742"]);
  });

  it("checks Limit and starts from an earlier query", () => {
    const props = setup({
      initial: {
        table: "Telemetry",
        index: null,
        partitionValue: { S: "VEH#V-7742" },
        sortCondition: { op: "beginsWith", value: { S: "TS#" } },
        scanIndexForward: false,
        limit: 10,
        consistentRead: true,
        projection: "speedKph",
        filter: null,
        filterNames: null,
        filterValues: null,
        exclusiveStartKey: null,
      },
    });
    expect((screen.getByLabelText(/^vehicleId/) as HTMLInputElement).value).toBe("VEH#V-7742");
    type(/^Limit/, "0");
    expect(screen.getByRole("alert").textContent).toBe("Limit must be a whole number of 1 or more.");
    type(/^Limit/, "");
    fireEvent.submit(screen.getByRole("form", { name: "Query Telemetry" }));
    expect(props.onRun).toHaveBeenCalledWith(
      expect.objectContaining({ sortCondition: { op: "beginsWith", value: { S: "TS#" } }, limit: null, consistentRead: true, projection: "speedKph", scanIndexForward: false }),
    );
    expect(within(screen.getByRole("form")).getByRole("button", { name: "Run query" })).toBeTruthy();
  });
});

describe("QueryControls errors from a run", () => {
  it("shows a filter error beside the filter, with the exception name", () => {
    setup({ error: { name: "ValidationException", message: "Invalid FilterExpression: Syntax error; token: \">\", near: \"speedKph >\"", field: "filter" } });
    const filter = screen.getByLabelText("Filter");
    const error = document.getElementById(filter.getAttribute("aria-describedby")!)!;
    expect(error.textContent).toBe('Invalid FilterExpression: Syntax error; token: ">", near: "speedKph >" ValidationException');
    expect(error.querySelector("code")?.textContent).toBe("ValidationException");
  });

  it("shows an error about the query as a whole beside Run, and a key error beside the key", () => {
    setup({ error: { name: "ResourceNotFoundException", message: "Requested resource not found", field: null } });
    expect(screen.getByRole("alert").textContent).toBe("Requested resource not found ResourceNotFoundException");
    cleanup();
    setup({ error: { name: "ValidationException", message: "The key is too long.", field: "partitionValue" } });
    const pk = screen.getByLabelText(/^vehicleId/);
    expect(document.getElementById(pk.getAttribute("aria-describedby")!)?.textContent).toBe("The key is too long. (ValidationException)");
  });
});

describe("QueryControls and a window-wide Ctrl+Enter", () => {
  it("runs once when the shortcut is also bound on the window", () => {
    const onWindow = vi.fn();
    window.addEventListener("keydown", onWindow);
    try {
      const props = setup();
      type(/^vehicleId/, "VEH#V-7741");
      fireEvent.keyDown(screen.getByLabelText(/^vehicleId/), { key: "Enter", ctrlKey: true });
      expect(props.onRun).toHaveBeenCalledTimes(1);
      expect(onWindow).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener("keydown", onWindow);
    }
  });
});
