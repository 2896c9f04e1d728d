/**
 * A squarified treemap (Bruls, Huizing and van Wijk, 2000): rectangles whose areas are
 * proportional to the values, laid out in rows along the shorter side of what is left, a row
 * growing while that keeps its rectangles closer to squares. The rectangles come back in the
 * order of the values, so "largest first" and "key order" are both just the order given. `neighbour`
 * finds the rectangle beside one in a direction, for moving between them with the arrow keys.
 */

export type Rect = { x: number; y: number; width: number; height: number };

/** Lays `values` (non-negative) out in `bounds`; a zero value gets a zero-area rectangle. */
export function squarify(values: number[], bounds: Rect): Rect[] {
  const total = values.reduce((sum, v) => sum + Math.max(0, v), 0);
  const out: Rect[] = values.map(() => ({ x: bounds.x, y: bounds.y, width: 0, height: 0 }));
  if (total <= 0 || bounds.width <= 0 || bounds.height <= 0) return out;
  const scale = (bounds.width * bounds.height) / total;
  const areas = values.map((v) => Math.max(0, v) * scale);

  let free = { ...bounds };
  let row: number[] = []; // indexes into values
  let rowArea = 0;
  const order = areas.map((_, i) => i).filter((i) => (areas[i] ?? 0) > 0);
  for (let k = 0; k < order.length; ) {
    const i = order[k] as number;
    const area = areas[i] as number;
    const side = Math.min(free.width, free.height);
    if (row.length === 0 || worst(row, rowArea + area, area, areas, side) <= worst(row, rowArea, 0, areas, side)) {
      row.push(i);
      rowArea += area;
      k++;
    } else {
      free = layRow(row, rowArea, areas, free, out);
      row = [];
      rowArea = 0;
    }
  }
  if (row.length > 0) layRow(row, rowArea, areas, free, out);
  return out;
}

/** The worst aspect ratio of a row of total `sum` along `side`, optionally with one more area. */
function worst(row: number[], sum: number, extra: number, areas: number[], side: number): number {
  let max = extra;
  let min = extra > 0 ? extra : Infinity;
  for (const i of row) {
    const a = areas[i] as number;
    if (a > max) max = a;
    if (a < min) min = a;
  }
  const s2 = sum * sum;
  const w2 = side * side;
  return Math.max((w2 * max) / s2, s2 / (w2 * min));
}

/** Places a row along the shorter side of `free` and returns the rectangle left over. */
function layRow(row: number[], rowArea: number, areas: number[], free: Rect, out: Rect[]): Rect {
  if (free.width >= free.height) {
    // A column on the left, as tall as the free rectangle.
    const width = rowArea / free.height;
    let y = free.y;
    for (const i of row) {
      const height = (areas[i] as number) / width;
      out[i] = { x: free.x, y, width, height };
      y += height;
    }
    return { x: free.x + width, y: free.y, width: free.width - width, height: free.height };
  }
  // A row along the top, as wide as the free rectangle.
  const height = rowArea / free.width;
  let x = free.x;
  for (const i of row) {
    const width = (areas[i] as number) / height;
    out[i] = { x, y: free.y, width, height };
    x += width;
  }
  return { x: free.x, y: free.y + height, width: free.width, height: free.height - height };
}

/** A way to move from one rectangle to another, as the arrow keys do. */
export type Direction = "left" | "right" | "up" | "down";

/** How far apart two edges may be and still touch (rounding in the layout). */
const TOUCH = 0.5;

/**
 * The rectangle next to `rects[from]` in `direction`, for the arrow keys of a map drawn from them:
 * among those wholly on that side of it (their edges may touch), first those beside it (sharing
 * some of its extent across the direction), the nearest, and of those the one whose middle is
 * nearest its middle; when none is beside it, the one nearest across and along together.
 * Zero-area rectangles (nothing drawn) are passed over. Null: nothing on that side (an edge).
 */
export function neighbour(rects: readonly Rect[], from: number, direction: Direction): number | null {
  const r = rects[from];
  if (r === undefined) return null;
  const across = direction === "left" || direction === "right" ? ([r.y, r.y + r.height] as const) : ([r.x, r.x + r.width] as const);
  let best: number | null = null;
  let bestScore: [number, number, number] = [Infinity, Infinity, Infinity];
  rects.forEach((c, i) => {
    if (i === from || c.width <= 0 || c.height <= 0) return;
    const along =
      direction === "right"
        ? c.x - (r.x + r.width)
        : direction === "left"
          ? r.x - (c.x + c.width)
          : direction === "down"
            ? c.y - (r.y + r.height)
            : r.y - (c.y + c.height);
    if (along < -TOUCH) return;
    const [b0, b1] = direction === "left" || direction === "right" ? [c.y, c.y + c.height] : [c.x, c.x + c.width];
    const shared = Math.min(across[1], b1) - Math.max(across[0], b0);
    const gap = Math.max(0, along);
    const middle = Math.abs((across[0] + across[1]) / 2 - (b0 + b1) / 2);
    const score: [number, number, number] = shared > TOUCH ? [0, gap, middle] : [1, gap - shared, middle];
    if (score[0] < bestScore[0] || (score[0] === bestScore[0] && (score[1] < bestScore[1] - 1e-9 || (Math.abs(score[1] - bestScore[1]) <= 1e-9 && score[2] < bestScore[2])))) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}
