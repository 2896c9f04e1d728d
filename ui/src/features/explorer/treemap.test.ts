import { describe, expect, it } from "vitest";
import { neighbour, squarify, type Rect } from "./treemap";

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

describe("neighbour", () => {
  //  a a b
  //  a a c
  //  d e e
  const rects: Rect[] = [
    { x: 0, y: 0, width: 2, height: 2 }, // a
    { x: 2, y: 0, width: 1, height: 1 }, // b
    { x: 2, y: 1, width: 1, height: 1 }, // c
    { x: 0, y: 2, width: 1, height: 1 }, // d
    { x: 1, y: 2, width: 2, height: 1 }, // e
    { x: 0, y: 0, width: 0, height: 0 }, // nothing drawn
  ];

  it("is the rectangle beside, in the direction, whose middle is nearest", () => {
    expect(neighbour(rects, 0, "right")).toBe(1); // b and c both touch a, their middles as near: the first
    expect(neighbour(rects, 2, "left")).toBe(0);
    expect(neighbour(rects, 2, "down")).toBe(4);
    expect(neighbour(rects, 0, "down")).toBe(3); // d and e both touch a; d's middle is nearer
    expect(neighbour(rects, 4, "up")).toBe(2); // c's middle (x 2.5) is nearer e's (2) than a's (1)
    expect(neighbour(rects, 3, "right")).toBe(4);
  });

  it("is null at an edge, and never a rectangle of no area", () => {
    expect(neighbour(rects, 1, "right")).toBeNull();
    expect(neighbour(rects, 0, "up")).toBeNull();
    expect(neighbour(rects, 3, "left")).toBeNull();
    expect(neighbour(rects, 9, "left")).toBeNull();
  });

  it("takes the nearest across and along when nothing is beside it", () => {
    const apart: Rect[] = [
      { x: 0, y: 0, width: 1, height: 1 },
      { x: 3, y: 5, width: 1, height: 1 },
      { x: 2, y: 2, width: 1, height: 1 },
    ];
    expect(neighbour(apart, 0, "right")).toBe(2);
    expect(neighbour(apart, 0, "down")).toBe(2);
  });
});
