import { describe, expect, it } from "vitest";
import { squarify, type Rect } from "./treemap";

const area = (r: Rect) => r.width * r.height;
const overlaps = (a: Rect, b: Rect) =>
  a.x + 1e-9 < b.x + b.width && b.x + 1e-9 < a.x + a.width && a.y + 1e-9 < b.y + b.height && b.y + 1e-9 < a.y + a.height;

describe("squarify", () => {
  const bounds = { x: 0, y: 0, width: 1000, height: 600 };

  it("gives each value an area proportional to it, filling the bounds without overlap", () => {
    const values = [6, 6, 4, 3, 2, 2, 1];
    const rects = squarify(values, bounds);
    const total = values.reduce((a, b) => a + b, 0);
    rects.forEach((r, i) => expect(area(r)).toBeCloseTo(((values[i] as number) / total) * 600_000, 6));
    for (const r of rects) {
      expect(r.x).toBeGreaterThanOrEqual(-1e-9);
      expect(r.y).toBeGreaterThanOrEqual(-1e-9);
      expect(r.x + r.width).toBeLessThanOrEqual(1000 + 1e-6);
      expect(r.y + r.height).toBeLessThanOrEqual(600 + 1e-6);
    }
    for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) expect(overlaps(rects[i]!, rects[j]!)).toBe(false);
  });

  it("keeps boxes close to square for sorted values", () => {
    const rects = squarify([6, 6, 4, 3, 2, 2, 1], bounds);
    for (const r of rects) expect(Math.max(r.width / r.height, r.height / r.width)).toBeLessThan(3.5);
  });

  it("returns zero-area rectangles for zero values and for an empty total", () => {
    const rects = squarify([5, 0, 5], bounds);
    expect(area(rects[1]!)).toBe(0);
    expect(area(rects[0]!) + area(rects[2]!)).toBeCloseTo(600_000, 6);
    expect(squarify([0, 0], bounds).every((r) => area(r) === 0)).toBe(true);
  });

  it("handles thousands of values", () => {
    const values = Array.from({ length: 5000 }, (_, i) => 5000 - i);
    const rects = squarify(values, bounds);
    expect(rects.reduce((s, r) => s + area(r), 0)).toBeCloseTo(600_000, 3);
  });
});
