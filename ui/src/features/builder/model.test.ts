import { describe, expect, it } from "vitest";
import { telemetry } from "./fixtures";
import { attributeSuggestions, byteToIndex, formatPath, keySchemaOf, parsePath, parseValue } from "./model";

describe("paths", () => {
  it("reads and writes nested paths with list indexes", () => {
    expect(parsePath("order.items[2].sku")).toEqual(["order", "items", 2, "sku"]);
    expect(formatPath(["order", "items", 2, "sku"])).toBe("order.items[2].sku");
    expect(parsePath("a[0][1]")).toEqual(["a", 0, 1]);
  });

  it("refuses what is no path", () => {
    for (const bad of ["", "a..b", "[0]", "a[x]", "a[1", "a.]"]) expect(parsePath(bad)).toBeNull();
  });
});

describe("values", () => {
  it("types the text, and says why a text is not a value", () => {
    expect(parseValue("N", " 12.5 ")).toEqual({ value: { N: "12.5" } });
    expect(parseValue("N", "12,5")).toEqual({ error: "A number: digits, a point, an exponent." });
    expect(parseValue("SS", "a\nb\n")).toEqual({ value: { SS: ["a", "b"] } });
    expect(parseValue("SS", "a\na")).toEqual({ error: "A set has no duplicates." });
    expect(parseValue("BOOL", "false")).toEqual({ value: { BOOL: false } });
    expect(parseValue("M", '{"a":{"N":"1"}}')).toEqual({ value: { M: { a: { N: "1" } } } });
    expect("error" in parseValue("L", "{}")).toBe(true);
    expect("error" in parseValue("B", "not base64!")).toBe(true);
  });
});

describe("tables", () => {
  it("gives the key schema of the table or an index", () => {
    expect(keySchemaOf(telemetry, null)?.partitionKey.name).toBe("vehicleId");
    expect(keySchemaOf(telemetry, "ByDepot")?.partitionKey.name).toBe("depotCode");
    expect(keySchemaOf(telemetry, "Nope")).toBeNull();
  });

  it("suggests keys first, then index keys, then attributes seen, each once", () => {
    expect(attributeSuggestions(telemetry, ["speedKph", "recordedAt", "coolantC"])).toEqual([
      "vehicleId",
      "recordedAt",
      "depotCode",
      "coolantC",
      "speedKph",
    ]);
  });

  it("turns byte offsets into string indexes", () => {
    const text = "größe = :v";
    // "ö" and "ß" take two bytes each: byte 7 is the index 5 (the space after the name).
    expect(byteToIndex(text, 7)).toBe(5);
    expect(byteToIndex("abc", 2)).toBe(2);
  });
});
