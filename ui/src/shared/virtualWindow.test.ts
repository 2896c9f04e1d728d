import { describe, expect, it } from "vitest";
import type { Virtualizer } from "@tanstack/react-virtual";
import { measureUnlessHidden, windowStyle } from "./virtualWindow";

/** A virtualizer as far as windowStyle reads it: the rows in sight and the scroll margin. */
function virtualizer(starts: number[], scrollMargin = 0) {
  return {
    getVirtualItems: () => starts.map((start, index) => ({ index, key: index, start, end: start + 30, size: 30, lane: 0 })),
    options: { scrollMargin },
  } as unknown as Virtualizer<HTMLElement, Element>;
}

describe("a virtual list's window", () => {
  it("is moved down to where the first row in sight starts", () => {
    expect(windowStyle(virtualizer([300, 330, 360]))).toEqual({ transform: "translateY(300px)" });
  });

  it("counts from the rows' own start in the scroll element (the scroll margin, or the origin given)", () => {
    expect(windowStyle(virtualizer([1030, 1057], 1000))).toEqual({ transform: "translateY(30px)" });
    expect(windowStyle(virtualizer([1030, 1057], 1000), 30)).toEqual({ transform: "translateY(1000px)" });
  });

  it("stays at the top when no row is in sight", () => {
    expect(windowStyle(virtualizer([], 500))).toEqual({ transform: "translateY(0px)" });
  });
});

describe("a row's measurement in a view that can be hidden", () => {
  /** The virtualizer as the measurement reads it: row 3's key is "c", whose size it knows. */
  const instance = {
    indexFromElement: () => 3,
    itemSizeCache: new Map([["c", 240]]),
    options: { getItemKey: (i: number) => (i === 3 ? "c" : i), estimateSize: () => 100, horizontal: false },
  } as unknown as Virtualizer<Element, Element>;
  const row = document.createElement("div");
  const entry = (blockSize: number) => ({ borderBoxSize: [{ blockSize, inlineSize: 800 }] }) as unknown as ResizeObserverEntry;
  const list = (height: number) => ({ clientHeight: height }) as Element;

  it("is the row's own size while its list is shown", () => {
    expect(measureUnlessHidden(() => list(600))(row, entry(180), instance)).toBe(180);
  });

  it("keeps the size last measured while the list is hidden (no height), not the 0 it lays out at", () => {
    expect(measureUnlessHidden(() => list(0))(row, entry(0), instance)).toBe(240);
  });

  it("falls back on the estimate for a row never measured", () => {
    const unknown = { ...instance, itemSizeCache: new Map() } as unknown as Virtualizer<Element, Element>;
    expect(measureUnlessHidden(() => list(0))(row, entry(0), unknown)).toBe(100);
  });
});
