import { describe, expect, it } from "vitest";
import { attributeText, base64ByteLength, byteCountLabel, compareKeyValues, decimalLiteral, isNumberText, numberLimit, parseDecimal, storedValue } from "./attributeValue";

describe("attribute values", () => {
  it("orders numbers numerically with exact decimals beyond double precision", () => {
    const values = ["10", "9", "-1", "1E2", "-10.5", "0", "99999999999999999999999999999999999998", "99999999999999999999999999999999999999"];
    const sorted = values.map((N) => ({ N })).sort(compareKeyValues).map((v) => v.N);
    expect(sorted).toEqual(["-10.5", "-1", "0", "9", "10", "1E2", "99999999999999999999999999999999999998", "99999999999999999999999999999999999999"]);
    expect(compareKeyValues({ N: "1E2" }, { N: "100.000" })).toBe(0);
  });

  it("orders strings by UTF-8 bytes, not UTF-16 code units", () => {
    // U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts before U+1F600 (4 bytes, F0 ...), though its UTF-16 unit is larger.
    expect(compareKeyValues({ S: "\uff5e" }, { S: "\u{1F600}" })).toBeLessThan(0);
    expect(compareKeyValues({ S: "META" }, { S: "TS#2026" })).toBeLessThan(0);
  });

  it("orders binaries as unsigned bytes", () => {
    expect(compareKeyValues({ B: "/w==" }, { B: "AA==" })).toBeGreaterThan(0);
  });

  it("reads decimals exactly and writes them back as JSON literals", () => {
    expect(parseDecimal("-001.2300e2")).toEqual({ negative: true, digits: "123", exponent: 0 });
    expect(parseDecimal("abc")).toBeNull();
    expect(isNumberText("1e")).toBe(false);
    expect(decimalLiteral(parseDecimal("1.5E-3")!)).toBe("0.0015");
    expect(decimalLiteral(parseDecimal("1E125")!)).toBe("1E125");
  });

  it("knows DynamoDB's number limits: 38 significant digits, magnitudes from 1E-130 to 9.99…E+125, and zero", () => {
    const limit = (text: string) => numberLimit(parseDecimal(text)!);
    for (const ok of ["0", "0e999999", "-0.000", "1E-130", "-1E-130", "9.9999999999999999999999999999999999999E+125", "-9.9999999999999999999999999999999999999E+125", "42", "12345678901234567890123456789012345678", "1230000000000000000000000000000000000000000000"]) {
      expect(limit(ok), ok).toBeNull();
    }
    for (const range of ["1e126", "-1e126", "1e999999", "1E-131", "0.9E-130", "10E125"]) expect(limit(range), range).toBe("range");
    expect(limit("123456789012345678901234567890123456789")).toBe("digits");
    expect(limit("1.23456789012345678901234567890123456789")).toBe("digits");
  });

  it("writes one-line text forms and byte sizes", () => {
    expect(attributeText({ B: "AAEC" })).toBe("AAEC (3 bytes)");
    expect(attributeText({ SS: ["a", "b"] })).toBe("{a, b}");
    expect(attributeText({ M: { a: { S: "x" } } })).toBe("1 attribute");
    expect(base64ByteLength("AA==")).toBe(1);
    expect(byteCountLabel(409600)).toBe("400 KB");
    expect(byteCountLabel(1536)).toBe("1.5 KB");
  });
});

describe("storedValue", () => {
  it("writes a number as DynamoDB stores it, and leaves other values as they are", () => {
    expect(storedValue({ N: "1E2" })).toEqual({ N: "100" });
    expect(storedValue({ N: "+7.50" })).toEqual({ N: "7.5" });
    expect(storedValue({ N: "-0" })).toEqual({ N: "0" });
    expect(storedValue({ N: "0.0012" })).toEqual({ N: "0.0012" });
    expect(storedValue({ N: "not a number" })).toEqual({ N: "not a number" });
    expect(storedValue({ S: "1E2" })).toEqual({ S: "1E2" });
  });
});
