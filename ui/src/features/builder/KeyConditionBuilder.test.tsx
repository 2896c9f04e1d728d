import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import type { KeyConditionState, KeySchemaState } from "../../ipc/bindings.gen";
import { emptyKeyCondition, KeyConditionBuilder } from "./KeyConditionBuilder";
import { fakeSource } from "./fakeSource";

afterEach(cleanup);

function Harness({ schema, onState }: { schema: KeySchemaState; onState: (s: KeyConditionState) => void }) {
  const [state, setState] = useState(emptyKeyCondition(schema));
  return (
    <KeyConditionBuilder
      schema={schema}
      condition={state}
      source={fakeSource()}
      onChange={(s) => {
        setState(s);
        onState(s);
      }}
    />
  );
}

const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.value);

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("KeyConditionBuilder", { timeout: 20_000 }, () => {
  it("offers only the operators the backend allows for the sort key's type", async () => {
    const source = fakeSource();
    render(
      <KeyConditionBuilder
        schema={{ partitionKey: { name: "deviceId", type: "S" }, sortKey: { name: "readingTs", type: "N" } }}
        condition={{ partitionKey: "deviceId", partitionValue: { S: "DEV#a1b2" }, sort: null }}
        source={source}
        onChange={() => {}}
      />,
    );
    const select = screen.getByLabelText("readingTs operator");
    await waitFor(() => expect(options(select)).toContain("BETWEEN"));
    expect(source.sortKeyOperators).toHaveBeenCalledWith("N");
    expect(options(select)).toEqual(["none", "=", "<", "<=", ">", ">=", "BETWEEN"]);
    expect(options(select)).not.toContain("<>");
    // The partition key takes `=` and a value of its own type only.
    expect(options(screen.getByLabelText("deviceId value type"))).toEqual(["S"]);
  });

  it("builds the time window: partition value and a BETWEEN on the sort key", async () => {
    const onState = vi.fn();
    render(<Harness schema={{ partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } }} onState={onState} />);
    fireEvent.change(screen.getByLabelText("vehicleId value"), { target: { value: "VEH#V-7741" } });
    const select = screen.getByLabelText("recordedAt operator");
    await waitFor(() => expect(options(select)).toContain("begins_with"));
    fireEvent.change(select, { target: { value: "BETWEEN" } });
    fireEvent.change(screen.getByLabelText("recordedAt from"), { target: { value: "TS#2025-03-14T09:00:00Z" } });
    fireEvent.change(screen.getByLabelText("recordedAt to"), { target: { value: "TS#2025-03-14T09:09:00Z" } });
    expect(onState).toHaveBeenLastCalledWith({
      partitionKey: "vehicleId",
      partitionValue: { S: "VEH#V-7741" },
      sort: { type: "between", name: "recordedAt", low: { S: "TS#2025-03-14T09:00:00Z" }, high: { S: "TS#2025-03-14T09:09:00Z" } },
    });
  });
});
