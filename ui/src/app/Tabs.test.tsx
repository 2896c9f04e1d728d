import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { Tabs, type TabInfo } from "./Tabs";

afterEach(cleanup);

const tabs: TabInfo[] = [
  { id: "t1", title: "Telemetry", detail: "Embedded" },
  { id: "q1", title: "Telemetry", detail: "Query · VEH#V-7741" },
  { id: "t2", title: "Music" },
];

function setup(activeId = "q1") {
  const onSelect = vi.fn();
  const onClose = vi.fn();
  render(
    <Tabs tabs={tabs} activeId={activeId} onSelect={onSelect} onClose={onClose}>
      <p>panel content</p>
    </Tabs>,
  );
  return { onSelect, onClose };
}

describe("Tabs", () => {
  it("shows the tabs with the active one selected and its panel", () => {
    setup();
    const all = screen.getAllByRole("tab");
    expect(all.map((t) => t.textContent)).toEqual(["TelemetryEmbedded", "TelemetryQuery · VEH#V-7741", "Music"]);
    expect(all.map((t) => t.getAttribute("aria-selected"))).toEqual(["false", "true", "false"]);
    expect(screen.getByRole("tabpanel").textContent).toBe("panel content");
    expect(screen.getByRole("tabpanel").getAttribute("aria-labelledby")).toBe("tab-q1");
  });

  it("closes with the close button and with Ctrl+W", () => {
    const { onClose } = setup();
    fireEvent.click(screen.getByRole("button", { name: "Close Music" }));
    expect(onClose).toHaveBeenLastCalledWith("t2");
    fireEvent.keyDown(window, { key: "w", ctrlKey: true });
    expect(onClose).toHaveBeenLastCalledWith("q1");
  });

  it("cycles with Ctrl+Tab and Ctrl+Shift+Tab, wrapping around", () => {
    const { onSelect } = setup("t2");
    fireEvent.keyDown(window, { key: "Tab", ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith("t1");
    fireEvent.keyDown(window, { key: "Tab", ctrlKey: true, shiftKey: true });
    expect(onSelect).toHaveBeenLastCalledWith("q1");
  });

  it("jumps with Ctrl+1..9, 9 being the last tab", () => {
    const { onSelect } = setup();
    fireEvent.keyDown(window, { key: "1", ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith("t1");
    fireEvent.keyDown(window, { key: "9", ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith("t2");
    onSelect.mockClear();
    fireEvent.keyDown(window, { key: "5", ctrlKey: true });
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("moves between tabs with the arrow keys and closes the focused one with Delete", () => {
    const { onSelect, onClose } = setup("t1");
    const [first] = screen.getAllByRole("tab");
    fireEvent.keyDown(first!, { key: "ArrowLeft" });
    expect(onSelect).toHaveBeenLastCalledWith("t2");
    fireEvent.keyDown(first!, { key: "ArrowRight" });
    expect(onSelect).toHaveBeenLastCalledWith("q1");
    fireEvent.keyDown(first!, { key: "Delete" });
    expect(onClose).toHaveBeenLastCalledWith("t1");
  });
});
