import { describe, expect, it } from "vitest";
import { resultColumns, resultTemplate } from "./ResultsGrid";

const reading = (sk: string) => ({ vehicleId: { S: "VEH#V-7741" }, recordedAt: { S: sk }, speedKph: { N: "91" } });

describe("the PartiQL result grid's columns", () => {
  it("puts the table's keys first, then the other names as first seen", () => {
    const items = [{ speedKph: { N: "1" }, recordedAt: { S: "META" }, vehicleId: { S: "V" } }, { depot: { S: "D" } }];
    expect(resultColumns(items, ["vehicleId", "recordedAt"])).toEqual(["vehicleId", "recordedAt", "speedKph", "depot"]);
  });

  it("makes each column as wide as its longest value, so a reading's sort key is whole", () => {
    const template = resultTemplate([reading("META"), reading("TS#2025-03-14T08:00:00Z")], ["vehicleId", "recordedAt", "speedKph"]);
    // "TS#2025-03-14T08:00:00Z" is 23 characters: 23 × 0.62 + 1 → 16em; "VEH#V-7741" 10 → 8em;
    // the bold name "speedKph" (longer than "91"), 8 × 0.7 + 1 → 7em.
    expect(template).toBe("3.5rem 8em 16em 7em");
  });

  it("bounds a column between 6 and 40 characters, and reads widths from the first rows only", () => {
    const long = { note: { S: "x".repeat(500) } };
    expect(resultTemplate([long], ["note"])).toBe("3.5rem 26em");
    expect(resultTemplate([{ n: { N: "1" } }], ["n"])).toBe("3.5rem 5em");
    expect(resultTemplate([{ commissioned: { N: "2021" } }], ["commissioned"])).toBe("3.5rem 10em");
    const many = [...Array.from({ length: 2000 }, () => ({ a: { S: "x" } })), { a: { S: "y".repeat(30) } }];
    expect(resultTemplate(many, ["a"])).toBe("3.5rem 5em");
  });

  it("keeps one column when the result has no attributes", () => {
    expect(resultTemplate([], [])).toBe("3.5rem 12rem");
  });
});
