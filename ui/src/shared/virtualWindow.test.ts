import { describe, expect, it } from "vitest";
import type { Virtualizer } from "@tanstack/react-virtual";
import { windowStyle } from "./virtualWindow";

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
