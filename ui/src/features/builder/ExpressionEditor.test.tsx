import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import type { ExpressionState } from "../../ipc/bindings.gen";
import { ExpressionEditor } from "./ExpressionEditor";
import { fakeSource } from "./fakeSource";
import type { Commands } from "../../ipc/CommandsContext";
import { renderWithCommands } from "../../ipc/testCommands";

afterEach(cleanup);

const statusActive: ExpressionState = {
  parameter: "FilterExpression",
  state: { type: "compare", left: { type: "path", path: ["status"] }, op: "=", right: { type: "value", value: { S: "active" } } },
};

function Harness() {
  const [state, setState] = useState<ExpressionState>(statusActive);
  return <ExpressionEditor state={state} onChange={setState} suggestions={["status", "speedKph"]} />;
}

const noSpeed: ExpressionState = { parameter: "FilterExpression", state: { type: "attributeNotExists", path: ["speedKph"] } };

/** The editor with a button that sets its expression from outside, as loading a saved request does. */
function LoadingHarness() {
  const [state, setState] = useState<ExpressionState>(statusActive);
  return (
    <>
      <button type="button" onClick={() => setState(noSpeed)}>
        Load saved
      </button>
      <ExpressionEditor state={state} onChange={setState} suggestions={["status", "speedKph"]} />
    </>
  );
}

// Rendering many controls is slow on a busy machine: 20 s, not the default 5 s.
describe("ExpressionEditor", { timeout: 20_000 }, () => {
  it("shows the generated expression with its names and values beside the visual builder", async () => {
    const generateExpression = vi.fn<Commands["generateExpression"]>(async () => ({
      status: "ok" as const,
      data: {
        parameter: "FilterExpression" as const,
        expression: "#status = :status",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":status": { S: "active" } },
      },
    }));
    renderWithCommands(<Harness />, fakeSource({ generateExpression }));
    await waitFor(() => expect(screen.getByTestId("generated-expression").textContent).toBe("#status = :status"));
    expect(generateExpression).toHaveBeenCalledWith(statusActive);
    expect(screen.getByTestId("generated-names").textContent).toContain("#status");
    expect(screen.getByTestId("generated-values").textContent).toContain('{"S":"active"}');
  });

  it("switches Visual and Text as a row of tabs: one Tab stop, the arrows move the focus with the mode", () => {
    renderWithCommands(<Harness />, fakeSource({}));
    const visual = screen.getByRole("tab", { name: "Visual" });
    const text = screen.getByRole("tab", { name: "Text" });
    expect([visual.tabIndex, text.tabIndex]).toEqual([0, -1]);
    visual.focus();
    fireEvent.keyDown(visual, { key: "ArrowRight" });
    expect(document.activeElement).toBe(text);
    expect(text.getAttribute("aria-selected")).toBe("true");
    expect([visual.tabIndex, text.tabIndex]).toEqual([-1, 0]);
    // The other arrow goes back (not a toggle of whatever is selected), and Home and End work too.
    fireEvent.keyDown(text, { key: "ArrowLeft" });
    expect(document.activeElement).toBe(visual);
    fireEvent.keyDown(visual, { key: "End" });
    expect(document.activeElement).toBe(text);
    fireEvent.keyDown(text, { key: "End" });
    expect(document.activeElement).toBe(text);
    expect(text.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(text, { key: "Home" });
    expect(visual.getAttribute("aria-selected")).toBe("true");
  });

  it("turns valid text back into the visual form", async () => {
    const typed: ExpressionState = {
      parameter: "FilterExpression",
      state: { type: "attributeNotExists", path: ["speedKph"] },
    };
    const generateExpression = vi.fn<Commands["generateExpression"]>(async (state) => ({
      status: "ok" as const,
      data: {
        parameter: "FilterExpression" as const,
        expression: state.state === typed.state ? "attribute_not_exists(speedKph)" : "#status = :status",
        ExpressionAttributeNames: {},
        ExpressionAttributeValues: {},
      },
    }));
    const parseExpressions = vi.fn<Commands["parseExpressions"]>(async () => ({ status: "parsed" as const, states: [typed] }));
    renderWithCommands(<Harness />, fakeSource({ generateExpression, parseExpressions }));
    await waitFor(() => expect(screen.getByTestId("generated-expression").textContent).toBe("#status = :status"));
    fireEvent.click(screen.getByRole("tab", { name: "Text" }));
    // The text mode starts from the generated expression.
    expect((screen.getByRole("textbox", { name: "FilterExpression" }) as HTMLTextAreaElement).value).toBe("#status = :status");
    fireEvent.change(screen.getByRole("textbox", { name: "FilterExpression" }), { target: { value: "attribute_not_exists(speedKph)" } });
    await waitFor(() => expect(screen.getByText("Valid: shown in the visual builder.")).toBeTruthy());
    fireEvent.click(screen.getByRole("tab", { name: "Visual" }));
    expect((screen.getByLabelText("Kind 1.1") as HTMLSelectElement).value).toBe("attributeNotExists");
    expect((screen.getByLabelText("Attribute 1.1") as HTMLInputElement).value).toBe("speedKph");
  });

  it("in the text mode, shows an expression set from outside (a saved request loaded), not the older text", async () => {
    const generateExpression = vi.fn<Commands["generateExpression"]>(async (state) => {
      const loaded = state.state === noSpeed.state;
      return {
        status: "ok" as const,
        data: {
          parameter: "FilterExpression" as const,
          expression: loaded ? "attribute_not_exists(speedKph)" : "#status = :status",
          ExpressionAttributeNames: loaded ? {} : { "#status": "status" },
          ExpressionAttributeValues: loaded ? {} : { ":status": { S: "active" } },
        },
      };
    });
    renderWithCommands(<LoadingHarness />, fakeSource({ generateExpression }));
    await waitFor(() => expect(screen.getByTestId("generated-expression").textContent).toBe("#status = :status"));
    fireEvent.click(screen.getByRole("tab", { name: "Text" }));
    const box = () => screen.getByRole("textbox", { name: "FilterExpression" }) as HTMLTextAreaElement;
    expect(box().value).toBe("#status = :status");
    fireEvent.click(screen.getByRole("button", { name: "Load saved" }));
    await waitFor(() => expect(box().value).toBe("attribute_not_exists(speedKph)"));
  });
});
