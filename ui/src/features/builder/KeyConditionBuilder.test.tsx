import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import type { KeyConditionState, KeySchemaState } from "../../ipc/bindings.gen";
import { emptyKeyCondition, KeyConditionBuilder } from "./KeyConditionBuilder";
import { fakeSource } from "./fakeSource";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

function Harness({ schema, onState }: { schema: KeySchemaState; onState: (s: KeyConditionState) => void }) {
  const [state, setState] = useState(emptyKeyCondition(schema));
  return (
    <KeyConditionBuilder
      schema={schema}
      condition={state}
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
    renderWithCommands(
      <KeyConditionBuilder
        schema={{ partitionKey: { name: "deviceId", type: "S" }, sortKey: { name: "readingTs", type: "N" } }}
        condition={{ partitionKey: "deviceId", partitionValue: { S: "DEV#a1b2" }, sort: null }}
        onChange={() => {}}
      />,
      source,
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
    renderWithCommands(<Harness schema={{ partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } }} onState={onState} />, fakeSource());
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

  it("asks for every partition-key attribute of a multi-attribute key and takes the sort-key attributes left to right", async () => {
    const onState = vi.fn();
    const schema: KeySchemaState = {
      partitionKey: { name: "tournamentId", type: "S" },
      morePartitionKeys: [{ name: "region", type: "S" }],
      sortKey: { name: "round", type: "N" },
      moreSortKeys: [{ name: "bracket", type: "S" }],
    };
    renderWithCommands(<Harness schema={schema} onState={onState} />, fakeSource());
    fireEvent.change(screen.getByLabelText("tournamentId value"), { target: { value: "WINTER2024" } });
    fireEvent.change(screen.getByLabelText("region value"), { target: { value: "NA-EAST" } });
    // Only the first sort-key attribute is offered until it holds `=`.
    expect(screen.queryByLabelText("bracket operator")).toBeNull();
    const round = screen.getByLabelText("round operator");
    await waitFor(() => expect(options(round)).toContain("="));
    expect(options(round)).not.toContain("begins_with");
    fireEvent.change(round, { target: { value: "=" } });
    fireEvent.change(screen.getByLabelText("round value"), { target: { value: "1" } });
    const bracket = screen.getByLabelText("bracket operator");
    await waitFor(() => expect(options(bracket)).toContain("begins_with"));
    fireEvent.change(bracket, { target: { value: "begins_with" } });
    fireEvent.change(screen.getByLabelText("bracket prefix"), { target: { value: "UP" } });
    expect(onState).toHaveBeenLastCalledWith({
      partitionKey: "tournamentId",
      partitionValue: { S: "WINTER2024" },
      morePartition: [{ name: "region", value: { S: "NA-EAST" } }],
      sortEqual: [{ name: "round", value: { N: "1" } }],
      sort: { type: "beginsWith", name: "bracket", prefix: { S: "UP" } },
    });
    // A range on the first sort attribute drops the condition on the second.
    fireEvent.change(screen.getByLabelText("round operator"), { target: { value: ">" } });
    expect(screen.queryByLabelText("bracket operator")).toBeNull();
    expect(onState).toHaveBeenLastCalledWith({
      partitionKey: "tournamentId",
      partitionValue: { S: "WINTER2024" },
      morePartition: [{ name: "region", value: { S: "NA-EAST" } }],
      sort: { type: "compare", name: "round", op: ">", value: { N: "1" } },
    });
  });
});
