import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import type { UpdateState } from "../../ipc/bindings.gen";
import { UpdateBuilder } from "./UpdateBuilder";

afterEach(cleanup);

function Harness({ onState }: { onState: (s: UpdateState) => void }) {
  const [state, setState] = useState<UpdateState>({ actions: [] });
  return (
    <UpdateBuilder
      update={state}
      suggestions={["count", "tags"]}
      onChange={(s) => {
        setState(s);
        onState(s);
      }}
    />
  );
}

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("UpdateBuilder", { timeout: 20_000 }, () => {
  it("builds SET with if_not_exists and arithmetic, REMOVE, ADD and DELETE on nested paths", () => {
    const onState = vi.fn();
    render(<Harness onState={onState} />);
    fireEvent.click(screen.getByRole("button", { name: "Add action" }));
    fireEvent.change(screen.getByLabelText("Form of action 1"), { target: { value: "ifNotExists" } });
    fireEvent.change(screen.getByLabelText("Fallback of action 1"), { target: { value: "5" } });
    fireEvent.click(screen.getByRole("button", { name: "Add action" }));
    fireEvent.change(screen.getByLabelText("Form of action 2"), { target: { value: "plus" } });
    fireEvent.click(screen.getByRole("button", { name: "Add action" }));
    fireEvent.change(screen.getByLabelText("Action 3"), { target: { value: "remove" } });
    fireEvent.change(screen.getByLabelText("Path of action 3"), { target: { value: "order.items[2]" } });
    fireEvent.click(screen.getByRole("button", { name: "Add action" }));
    fireEvent.change(screen.getByLabelText("Action 4"), { target: { value: "delete" } });
    fireEvent.change(screen.getByLabelText("Path of action 4"), { target: { value: "tags" } });
    fireEvent.change(screen.getByLabelText("Value of action 4"), { target: { value: "old\nstale" } });
    expect(onState).toHaveBeenLastCalledWith({
      actions: [
        { action: "set", path: ["count"], value: { type: "operand", operand: { type: "ifNotExists", path: ["count"], fallback: { type: "value", value: { N: "5" } } } } },
        { action: "set", path: ["count"], value: { type: "plus", left: { type: "path", path: ["count"] }, right: { type: "value", value: { N: "1" } } } },
        { action: "remove", path: ["order", "items", 2] },
        { action: "delete", path: ["tags"], value: { SS: ["old", "stale"] } },
      ],
    });
    // DELETE takes sets only; ADD numbers and sets.
    expect([...(screen.getByLabelText("Value of action 4 type") as HTMLSelectElement).options].map((o) => o.value)).toEqual(["SS", "NS", "BS"]);
    fireEvent.click(screen.getByRole("button", { name: "Remove action 1" }));
    expect(onState.mock.lastCall?.[0].actions).toHaveLength(3);
  });
});
