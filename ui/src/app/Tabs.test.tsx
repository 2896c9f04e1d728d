import { afterEach, describe, expect, it, vi } from "vitest";
import { useState } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
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

  it("goes to the previous tab with Ctrl+Shift+Tab as WebKitGTK reports it (key Unidentified, code Tab)", () => {
    const { onSelect } = setup("t1");
    fireEvent.keyDown(window, { key: "Unidentified", code: "Tab", ctrlKey: true, shiftKey: true });
    expect(onSelect).toHaveBeenLastCalledWith("t2");
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

/** The tabs as the app keeps them: closing one selects its neighbour; each page has a control. */
function Closable() {
  const [open, setOpen] = useState(tabs);
  const [active, setActive] = useState<string | null>("q1");
  const close = (id: string) => {
    const at = open.findIndex((t) => t.id === id);
    const next = open.filter((t) => t.id !== id);
    setOpen(next);
    if (active === id) setActive(next[Math.min(at, next.length - 1)]?.id ?? null);
  };
  return (
    <Tabs tabs={open} activeId={active} onSelect={setActive} onClose={close}>
      {open.map((t) => (
        <button key={t.id} type="button" hidden={t.id !== active}>
          {`control of ${t.id}`}
        </button>
      ))}
    </Tabs>
  );
}

describe("closing a tab", () => {
  const tabOf = (name: RegExp) => screen.getByRole("tab", { name });

  it("with Ctrl+W from inside its page, puts the focus on the tab now active, not on the window's body", () => {
    render(<Closable />);
    screen.getByRole("button", { name: "control of q1" }).focus();
    fireEvent.keyDown(document.activeElement!, { key: "w", ctrlKey: true });
    expect(screen.queryByRole("tab", { name: /Query/ })).toBeNull();
    expect(document.activeElement).toBe(tabOf(/^Music/));
  });

  it("with Delete on the focused tab, puts the focus on the tab now active", () => {
    render(<Closable />);
    tabOf(/Query/).focus();
    fireEvent.keyDown(document.activeElement!, { key: "Delete" });
    expect(document.activeElement).toBe(tabOf(/^Music/));
    fireEvent.keyDown(document.activeElement!, { key: "Delete" });
    expect(document.activeElement).toBe(tabOf(/Embedded/));
    expect(tabOf(/Embedded/).getAttribute("aria-selected")).toBe("true");
  });

  it("leaves the focus where it is when it was not in what closed", () => {
    render(
      <>
        <input aria-label="search" />
        <Closable />
      </>,
    );
    const search = screen.getByLabelText("search");
    search.focus();
    fireEvent.keyDown(search, { key: "w", ctrlKey: true });
    expect(screen.queryByRole("tab", { name: /Query/ })).toBeNull();
    expect(document.activeElement).toBe(search);
  });
});

describe("a strip with more tabs than it shows", () => {
  /** The strip as a narrow window lays it out: 300 px wide, its tabs 900 px. */
  function narrow(strip: HTMLElement) {
    Object.defineProperty(strip, "clientWidth", { configurable: true, value: 300 });
    Object.defineProperty(strip, "scrollWidth", { configurable: true, value: 900 });
  }

  it("brings the active tab into sight when it changes", () => {
    const into = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = into;
    try {
      const props = { tabs, onSelect: () => {}, onClose: () => {} };
      const { rerender } = render(<Tabs {...props} activeId="t1" />);
      into.mockClear();
      rerender(<Tabs {...props} activeId="t2" />);
      expect(into).toHaveBeenCalledWith({ block: "nearest", inline: "nearest" });
      expect(into.mock.contexts.at(-1)).toBe(screen.getByRole("tab", { name: "Music" }).parentElement);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it("scrolls sideways with the mouse wheel, and shows a › (then a ‹) where tabs are beyond", () => {
    setup("t1");
    const strip = screen.getByRole("tablist");
    narrow(strip);
    fireEvent.scroll(strip);
    expect(screen.queryByTestId("tabs-scroll-left")).toBeNull();
    const right = screen.getByRole("button", { name: "Show the tabs to the right" });
    expect(right.getAttribute("tabindex")).toBe("-1");

    const wheel = new WheelEvent("wheel", { deltaY: 120, bubbles: true, cancelable: true });
    act(() => void strip.dispatchEvent(wheel));
    expect(wheel.defaultPrevented).toBe(true);
    expect(strip.scrollLeft).toBe(120);
    expect(screen.getByTestId("tabs-scroll-left")).toBeTruthy();

    const scrollBy = vi.fn();
    strip.scrollBy = scrollBy;
    fireEvent.click(right);
    expect(scrollBy).toHaveBeenCalledWith({ left: 240, behavior: "smooth" });
  });

  it("leaves the wheel alone when every tab is in sight", () => {
    setup("t1");
    const strip = screen.getByRole("tablist");
    const wheel = new WheelEvent("wheel", { deltaY: 120, bubbles: true, cancelable: true });
    strip.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(false);
    expect(screen.queryByTestId("tabs-scroll-right")).toBeNull();
  });
});
