import { afterEach, describe, expect, it } from "vitest";
import { useState } from "react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useTabList } from "./useTabList";

afterEach(cleanup);

const KEYS = ["one", "two", "three"] as const;
type Key = (typeof KEYS)[number];

function Row({ start = "one" as Key | null }) {
  const [selected, setSelected] = useState<Key | null>(start);
  const tabs = useTabList(KEYS, selected, setSelected);
  return (
    <>
      <div role="tablist" aria-label="Numbers">
        {KEYS.map((k) => (
          <button key={k} type="button" {...tabs.tabProps(k)}>
            {k}
          </button>
        ))}
      </div>
      <p data-testid="shown">{selected}</p>
    </>
  );
}

const tab = (name: string) => screen.getByRole("tab", { name });
const stops = () => screen.getAllByRole("tab").filter((t) => t.tabIndex === 0);

describe("useTabList", () => {
  it("makes the row one Tab stop, the selected tab (the first while none is)", () => {
    render(<Row start="two" />);
    expect(stops()).toEqual([tab("two")]);
    expect(tab("two").getAttribute("aria-selected")).toBe("true");
    expect(tab("one").getAttribute("aria-selected")).toBe("false");
    cleanup();
    render(<Row start={null} />);
    expect(stops()).toEqual([tab("one")]);
  });

  it("moves the focus and the selection with ← → (wrapping round), Home and End", () => {
    render(<Row />);
    tab("one").focus();
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    press("ArrowRight");
    expect(document.activeElement).toBe(tab("two"));
    expect(screen.getByTestId("shown").textContent).toBe("two");
    expect(stops()).toEqual([tab("two")]);
    press("End");
    expect(document.activeElement).toBe(tab("three"));
    press("ArrowRight");
    expect(document.activeElement).toBe(tab("one"));
    press("ArrowLeft");
    expect(document.activeElement).toBe(tab("three"));
    press("Home");
    expect(document.activeElement).toBe(tab("one"));
    expect(screen.getByTestId("shown").textContent).toBe("one");
  });

  it("leaves the keys with a modifier, and other keys, alone", () => {
    render(<Row />);
    tab("one").focus();
    fireEvent.keyDown(tab("one"), { key: "ArrowRight", altKey: true });
    fireEvent.keyDown(tab("one"), { key: "ArrowDown" });
    expect(document.activeElement).toBe(tab("one"));
    expect(screen.getByTestId("shown").textContent).toBe("one");
  });

  it("selects a tab clicked", () => {
    render(<Row />);
    fireEvent.click(tab("three"));
    expect(screen.getByTestId("shown").textContent).toBe("three");
    expect(stops()).toEqual([tab("three")]);
  });
});
