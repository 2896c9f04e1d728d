import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import type { ConditionState } from "../../ipc/bindings.gen";
import { ConditionBuilder } from "./ConditionBuilder";

afterEach(cleanup);

function Harness({ initial, onState }: { initial: ConditionState | null; onState: (s: ConditionState | null) => void }) {
  const [state, setState] = useState(initial);
  return (
    <ConditionBuilder
      condition={state}
      suggestions={["status", "speedKph", "tags"]}
      onChange={(s) => {
        setState(s);
        onState(s);
      }}
    />
  );
}

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("ConditionBuilder", { timeout: 20_000 }, () => {
  it("adds conditions into an AND group, switches it to OR, negates and removes members", () => {
    const onState = vi.fn();
    render(<Harness initial={null} onState={onState} />);
    fireEvent.click(screen.getByRole("button", { name: "Add condition" }));
    expect(onState).toHaveBeenLastCalledWith({ type: "compare", left: { type: "path", path: ["status"] }, op: "=", right: { type: "value", value: { S: "" } } });
    fireEvent.change(screen.getByLabelText("Value 1.1"), { target: { value: "active" } });
    fireEvent.click(screen.getByRole("button", { name: "Add condition" }));
    fireEvent.change(screen.getByLabelText("Attribute 1.2"), { target: { value: "speedKph" } });
    fireEvent.change(screen.getByLabelText("Comparator 1.2"), { target: { value: ">=" } });
    fireEvent.change(screen.getByLabelText("Value 1.2 type"), { target: { value: "N" } });
    fireEvent.change(screen.getByLabelText("Value 1.2"), { target: { value: "100" } });
    fireEvent.change(screen.getByLabelText("Join of group 1"), { target: { value: "or" } });
    fireEvent.click(screen.getByLabelText("NOT 1.1"));
    expect(onState).toHaveBeenLastCalledWith({
      type: "or",
      conditions: [
        { type: "not", condition: { type: "compare", left: { type: "path", path: ["status"] }, op: "=", right: { type: "value", value: { S: "active" } } } },
        { type: "compare", left: { type: "path", path: ["speedKph"] }, op: ">=", right: { type: "value", value: { N: "100" } } },
      ],
    });
    fireEvent.click(screen.getByRole("button", { name: "Remove condition 1.1" }));
    expect(onState).toHaveBeenLastCalledWith({ type: "compare", left: { type: "path", path: ["speedKph"] }, op: ">=", right: { type: "value", value: { N: "100" } } });
  });

  it("offers BETWEEN, IN, size and the functions on nested paths", () => {
    const onState = vi.fn();
    render(<Harness initial={{ type: "attributeExists", path: ["status"] }} onState={onState} />);
    fireEvent.change(screen.getByLabelText("Kind 1.1"), { target: { value: "in" } });
    fireEvent.change(screen.getByLabelText("Value 1 of 1.1"), { target: { value: "a" } });
    fireEvent.click(screen.getByRole("button", { name: "Add value" }));
    fireEvent.change(screen.getByLabelText("Value 2 of 1.1"), { target: { value: "b" } });
    expect(onState).toHaveBeenLastCalledWith({
      type: "in",
      operand: { type: "path", path: ["status"] },
      list: [
        { type: "value", value: { S: "a" } },
        { type: "value", value: { S: "b" } },
      ],
    });
    fireEvent.change(screen.getByLabelText("Kind 1.1"), { target: { value: "between" } });
    fireEvent.change(screen.getByLabelText("Attribute 1.1"), { target: { value: "tags[0].count" } });
    fireEvent.click(screen.getByLabelText("size of"));
    expect(onState).toHaveBeenLastCalledWith({
      type: "between",
      operand: { type: "size", operand: { type: "path", path: ["tags", 0, "count"] } },
      low: { type: "value", value: { N: "0" } },
      high: { type: "value", value: { N: "1" } },
    });
    fireEvent.change(screen.getByLabelText("Kind 1.1"), { target: { value: "attributeType" } });
    fireEvent.change(screen.getByLabelText("Type 1.1"), { target: { value: "SS" } });
    expect(onState).toHaveBeenLastCalledWith({
      type: "attributeType",
      operand: { type: "size", operand: { type: "path", path: ["tags", 0, "count"] } },
      attributeType: "SS",
    });
  });

  it("nests a group of the other kind", () => {
    const onState = vi.fn();
    render(<Harness initial={{ type: "attributeExists", path: ["status"] }} onState={onState} />);
    fireEvent.click(screen.getByRole("button", { name: "Add group" }));
    expect(onState).toHaveBeenLastCalledWith({
      type: "and",
      conditions: [
        { type: "attributeExists", path: ["status"] },
        { type: "or", conditions: [{ type: "compare", left: { type: "path", path: ["status"] }, op: "=", right: { type: "value", value: { S: "" } } }] },
      ],
    });
  });
});
