import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { TypedValue, ValueOpenedContext } from "./TypedValue";

afterEach(cleanup);

describe("TypedValue", () => {
  it("shows a 38-digit number exactly as stored", () => {
    const { container } = render(<TypedValue value={{ N: "12345678901234567890123456789012345678" }} />);
    expect(container.querySelector(".tv-n")?.textContent).toBe("12345678901234567890123456789012345678");
  });

  it("shows a trailing-zero number as written, not as a JS number would print it", () => {
    const { container } = render(<TypedValue value={{ N: "1.50" }} />);
    expect(container.textContent).toBe("1.50");
  });

  it("marks the empty string as such", () => {
    render(<TypedValue value={{ S: "" }} />);
    expect(screen.getByTitle("empty string").textContent).toContain("(empty string)");
  });

  it("shows binary as base64 with a size badge", () => {
    render(<TypedValue value={{ B: "AAECAwQ=" }} />);
    expect(screen.getByText("AAECAwQ=")).toBeTruthy();
    expect(screen.getByLabelText("binary, 5 bytes").textContent).toBe("5 bytes");
  });

  it("cuts long binary in the view and keeps all of it in the tooltip", () => {
    const long = "A".repeat(40);
    const { container } = render(<TypedValue value={{ B: long }} binaryPreview={8} />);
    expect(container.querySelector("code")?.textContent).toBe("AAAAAAAA…");
    expect(container.querySelector(".tv-b")?.getAttribute("title")).toBe(long);
  });

  it("shows booleans and null", () => {
    const { container, rerender } = render(<TypedValue value={{ BOOL: false }} />);
    expect(container.querySelector(".tv-bool")?.textContent).toBe("false");
    rerender(<TypedValue value={{ NULL: true }} />);
    expect(container.querySelector(".tv-null")?.textContent).toBe("null");
  });

  it("shows sets as chips with their type", () => {
    render(<TypedValue value={{ NS: ["1", "2.50", "99999999999999999999"] }} />);
    const list = screen.getByRole("list", { name: "number set, 3 values" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["1", "2.50", "99999999999999999999"]);
    expect(screen.getByText("NS")).toBeTruthy();
  });

  it("opens and closes a map with the keyboard, nested levels starting closed", () => {
    render(<TypedValue value={{ M: { city: { S: "Leeds" }, geo: { L: [{ N: "53.8" }, { N: "-1.55" }] } } }} />);
    const toggle = screen.getByRole("button", { name: "map, 2 attributes" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("Leeds")).toBeNull();

    fireEvent.keyDown(toggle, { key: "ArrowRight" });
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("Leeds")).toBeTruthy();
    const inner = screen.getByRole("button", { name: "list, 2 elements" });
    expect(inner.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(inner);
    expect(screen.getByText("-1.55")).toBeTruthy();

    fireEvent.keyDown(toggle, { key: "ArrowLeft" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("Leeds")).toBeNull();
  });

  it("starts open when asked", () => {
    render(<TypedValue value={{ L: [{ S: "a" }] }} defaultExpanded />);
    expect(screen.getByRole("group", { name: "list contents" }).textContent).toContain("a");
  });
  it("keeps the keys it acts on from what is around it (a grid's row would act on them too)", () => {
    const around = vi.fn();
    render(
      <div onKeyDown={(event) => around(event.key)}>
        <TypedValue value={{ L: [{ N: "2.1" }, { N: "2.2" }] }} />
      </div>,
    );
    const toggle = screen.getByRole("button", { name: "list, 2 elements" });
    fireEvent.keyDown(toggle, { key: "ArrowRight" });
    fireEvent.keyDown(toggle, { key: "ArrowLeft" });
    fireEvent.keyDown(toggle, { key: "Enter" });
    fireEvent.keyDown(toggle, { key: " " });
    expect(around).not.toHaveBeenCalled();
    // What it does not act on goes on: ArrowLeft on a closed value, ArrowDown, Mod+C.
    fireEvent.keyDown(toggle, { key: "ArrowLeft" });
    fireEvent.keyDown(toggle, { key: "ArrowDown" });
    fireEvent.keyDown(toggle, { key: "c", ctrlKey: true });
    expect(around.mock.calls.map(([key]) => key)).toEqual(["ArrowLeft", "ArrowDown", "c"]);
  });

  it("tells ValueOpenedContext of each open and close, once drawn, with the value's element", () => {
    const opened = vi.fn((value: HTMLElement) => value.querySelector(".tv-entries") !== null);
    render(
      <ValueOpenedContext.Provider value={opened}>
        <TypedValue value={{ M: { a: { S: "x" } } }} />
      </ValueOpenedContext.Provider>,
    );
    expect(opened).not.toHaveBeenCalled();
    const toggle = screen.getByRole("button", { name: "map, 1 attribute" });
    act(() => {
      fireEvent.click(toggle);
    });
    act(() => {
      fireEvent.keyDown(toggle, { key: "ArrowLeft" });
    });
    // Drawn open, then drawn closed, when it was told.
    expect(opened.mock.results.map((r) => r.value)).toEqual([true, false]);
    expect(opened.mock.calls[0]![0].contains(toggle)).toBe(true);
  });
});
