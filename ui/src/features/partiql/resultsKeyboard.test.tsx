/** The statement results reached and scrolled by keyboard: the grid and the collections (useResultCursor). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ResultsGrid } from "./ResultsGrid";
import { ResultCollections } from "./ResultCollections";
import { tabbables } from "../../shared/useModalDialog";

// jsdom lays nothing out: each result's scroll element is 600 px tall (a header and 20 rows of 28 px).
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, "clientHeight", {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains("partiql-grid") || this.classList.contains("pq-collections") ? 600 : 0;
    },
  });
});
afterAll(() => {
  delete (HTMLElement.prototype as unknown as Record<string, unknown>).clientHeight;
});
afterEach(cleanup);

const reading = (vehicle: string, minute: number) => ({
  vehicleId: { S: vehicle },
  recordedAt: { S: `TS#09:${String(minute).padStart(2, "0")}` },
  speedKph: { N: String(minute) },
});
const many = Array.from({ length: 200 }, (_, i) => reading("VEH#V-7741", i));
const KEYS = ["vehicleId", "recordedAt"];

/** The row the grid names as its active descendant, and its text. */
function active(grid: HTMLElement): HTMLElement | null {
  const id = grid.getAttribute("aria-activedescendant");
  return id === null ? null : document.getElementById(id);
}

describe("the results grid", () => {
  it("is one Tab stop whose keys move a selected row: ↑ ↓, Page Up, Page Down, Home", () => {
    render(<ResultsGrid items={many} keys={KEYS} />);
    const grid = screen.getByRole("grid", { name: "Statement results" });
    expect(grid.tabIndex).toBe(0);
    expect(tabbables(document.body)).toEqual([grid]);
    grid.focus();
    expect(active(grid)).toBeNull();
    const press = (key: string) => fireEvent.keyDown(grid, { key });
    expect(press("ArrowDown")).toBe(false);
    expect(active(grid)?.getAttribute("aria-rowindex")).toBe("2");
    expect(active(grid)?.getAttribute("aria-selected")).toBe("true");
    expect(active(grid)?.classList.contains("partiql-row-selected")).toBe(true);
    press("ArrowDown");
    expect(active(grid)?.textContent).toContain("TS#09:01");
    // A screen: the 20 rows in sight under the header, less one kept for context.
    press("PageDown");
    expect(active(grid)?.textContent).toContain("TS#09:20");
    press("ArrowUp");
    expect(active(grid)?.textContent).toContain("TS#09:19");
    press("PageUp");
    expect(active(grid)?.textContent).toContain("TS#09:00");
    press("Home");
    expect(active(grid)?.getAttribute("aria-rowindex")).toBe("2");
    expect(grid.querySelectorAll('[aria-selected="true"]')).toHaveLength(1);
  });

  it("moves to the last row with End, brought into sight, and a new result clears the selection", async () => {
    const { rerender } = render(<ResultsGrid items={many} keys={KEYS} />);
    const grid = screen.getByRole("grid", { name: "Statement results" });
    // jsdom does not scroll: the grid is as tall as its header and rows, and its scrollTo moves it
    // and says so, as a browser does.
    let top = 0;
    Object.defineProperty(grid, "scrollHeight", { configurable: true, value: 28 + 200 * 28 });
    Object.defineProperty(grid, "scrollTop", { configurable: true, get: () => top, set: (v: number) => (top = v) });
    grid.scrollTo = ((options: ScrollToOptions) => {
      top = options.top ?? 0;
      fireEvent.scroll(grid);
    }) as typeof grid.scrollTo;
    fireEvent.keyDown(grid, { key: "End" });
    await waitFor(() => expect(active(grid)?.textContent).toContain("TS#09:199"));
    // The last row sits at the bottom of the grid: 200 rows under the 28 px header, 600 px in sight.
    expect(grid.scrollTop).toBe(28 + 200 * 28 - 600);
    // Two screens up: the row stops right under the sticky header, not behind it.
    fireEvent.keyDown(grid, { key: "PageUp" });
    fireEvent.keyDown(grid, { key: "PageUp" });
    await waitFor(() => expect(active(grid)?.textContent).toContain("TS#09:161"));
    expect(grid.scrollTop).toBe(161 * 28);
    rerender(<ResultsGrid items={many.slice(0, 5)} keys={KEYS} />);
    expect(active(grid)).toBeNull();
    expect(grid.querySelectorAll('[aria-selected="true"]')).toHaveLength(0);
  });
});

describe("the results as collections", () => {
  it("is one Tab stop whose keys move a selected row through every box, skipping the boxes' heads", () => {
    render(<ResultCollections items={[reading("VEH#A", 1), reading("VEH#A", 2), reading("VEH#B", 3)]} keys={KEYS} />);
    const list = screen.getByRole("grid", { name: "Results by vehicleId" });
    expect(list.tabIndex).toBe(0);
    list.focus();
    const press = (key: string) => fireEvent.keyDown(list, { key });
    press("ArrowDown");
    expect(active(list)?.textContent).toBe("TS#09:011");
    press("ArrowDown");
    expect(active(list)?.textContent).toBe("TS#09:022");
    // On into the next box, past its head.
    press("ArrowDown");
    expect(active(list)?.textContent).toBe("TS#09:033");
    expect(active(list)?.getAttribute("data-testid")).toBe("partiql-box-row");
    press("ArrowDown");
    expect(active(list)?.textContent).toBe("TS#09:033");
    press("Home");
    expect(active(list)?.textContent).toBe("TS#09:011");
    press("End");
    expect(active(list)?.textContent).toBe("TS#09:033");
    expect(list.querySelectorAll('[aria-selected="true"]')).toHaveLength(1);
  });
});
