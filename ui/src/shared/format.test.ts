import { describe, expect, it } from "vitest";
import { formatCountOf, formatFineShare, formatShare, formatUnits, middleEllipsis } from "./format";

describe("middleEllipsis", () => {
  it("leaves a label that fits whole, and cuts a long one in the middle, keeping its end", () => {
    expect(middleEllipsis("VEH#V-7741", 10)).toBe("VEH#V-7741");
    expect(middleEllipsis("VEH#V-7741", 8)).toBe("VE…-7741");
    expect(middleEllipsis("VEH#V-1007", 7)).toBe("VE…1007");
    expect(middleEllipsis("VEH#V-100", 6)).toBe("V…-100");
    // Never only the end: at least one character of the start stays.
    expect(middleEllipsis("VEH#V-100", 1)).toBe("V…0");
    expect(middleEllipsis("ÉÉÉÉÉÉÉÉÉÉ", 5)).toBe("É…ÉÉÉ");
  });
});

describe("formatShare", () => {
  it("writes a share of the whole as a percentage", () => {
    expect(formatShare(135, 1000)).toBe("13.5 %");
    expect(formatShare(1, 4)).toBe("25.0 %");
    expect(formatShare(4, 4)).toBe("100 %");
    expect(formatShare(1, 100_000)).toBe("< 0.1 %");
    expect(formatShare(0, 0)).toBe("0 %");
  });
});

describe("formatFineShare", () => {
  it("writes a tiny share with digits that say something, and one too small for them as under 0.001 %", () => {
    expect(formatFineShare(135, 1000)).toBe("13.5 %");
    expect(formatFineShare(21, 100_000)).toBe("0.021 %");
    expect(formatFineShare(15, 1_000_000)).toBe("0.0015 %");
    // 2.1 KB of 10 GB.
    expect(formatFineShare(2150, 10 * 1024 ** 3)).toBe("under 0.001 %");
    expect(formatFineShare(0, 10)).toBe("0 %");
  });
});

describe("formatCountOf", () => {
  it("writes a count with its noun, singular only for one", () => {
    expect(formatCountOf(0, "request")).toBe("0 requests");
    expect(formatCountOf(1, "request")).toBe("1 request");
    expect(formatCountOf(1204, "read")).toBe("1,204 reads");
    expect(formatCountOf(2, "entry", "entries")).toBe("2 entries");
  });
});

describe("formatUnits", () => {
  it("keeps halves, rounds other fractions to two digits, and groups the whole part", () => {
    expect(formatUnits(0.5)).toBe("0.5");
    expect(formatUnits(16.5)).toBe("16.5");
    expect(formatUnits(1 / 3)).toBe("0.33");
    expect(formatUnits(25000)).toBe("25,000");
    expect(formatUnits(3363.675)).toBe("3,363.68");
    expect(formatUnits(1234567.5)).toBe("1,234,567.5");
  });
});
