import { describe, expect, it } from "vitest";
import { mergeDropped } from "./droppedItems";

const reading = (minute: number, speed = 40 + minute) => ({
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: `TS#09:0${minute}` },
  speedKph: { N: String(speed) },
});

describe("mergeDropped", () => {
  it("lays the returned items among everything the page evaluated, in read order", () => {
    const evaluated = [reading(1), reading(2), reading(3), reading(4)];
    const rows = mergeDropped([reading(2), reading(4)], evaluated);
    expect(rows?.map((r) => [r.item.recordedAt, r.dropped])).toEqual([
      [{ S: "TS#09:01" }, true],
      [{ S: "TS#09:02" }, false],
      [{ S: "TS#09:03" }, true],
      [{ S: "TS#09:04" }, false],
    ]);
  });

  it("matches a projected item by the attributes it kept, and keeps the projected item for its row", () => {
    const projected = { recordedAt: { S: "TS#09:02" } };
    const rows = mergeDropped([projected], [reading(1), reading(2)]);
    expect(rows).toEqual([
      { item: reading(1), dropped: true },
      { item: projected, dropped: false },
    ]);
  });

  it("gives up when a returned item is not among the evaluated ones (the table changed)", () => {
    expect(mergeDropped([reading(2, 99)], [reading(1), reading(2)])).toBeNull();
  });
});
