import { describe, expect, it } from "vitest";
import type { Item } from "./attributeValue";
import { formatDynamoJson, formatPlainJson, numberLiteral, parseDynamoJson, parsePlainJson, plainJsonOf } from "./dynamoJson";

const reading: Item = {
  vehicleId: { S: "VEH#V-7741" },
  recordedAt: { S: "TS#2026-06-23T09:00:01Z" },
  speedKph: { N: "87.5" },
  odometer: { N: "12345678901234567890123456789012345678" },
  ok: { BOOL: true },
  note: { NULL: true },
  tags: { SS: ["fleet", "north"] },
  axles: { NS: ["2", "3"] },
  blob: { B: "AAEC" },
  blobs: { BS: ["AA==", "AQ=="] },
  driver: { M: { name: { S: "Ada" }, shifts: { L: [{ N: "1" }, { S: "night" }] } } },
};

describe("plain JSON", () => {
  it("writes 38-digit numbers exactly, never through a JS number", () => {
    const text = formatPlainJson(reading);
    expect(text).toContain('"odometer": 12345678901234567890123456789012345678');
    expect(text).toContain('"speedKph": 87.5');
    expect(text).toContain('"note": null');
    expect(text).toContain('"blob": "AAEC"');
  });

  it("reads number literals back as the same N strings, digit for digit", () => {
    const parsed = parsePlainJson('{"a": 0.10000000000000000000000000000000000001, "b": -1E+130, "c": 9007199254740993}');
    expect(parsed).toEqual({
      ok: true,
      value: { a: { N: "0.10000000000000000000000000000000000001" }, b: { N: "-1E+130" }, c: { N: "9007199254740993" } },
    });
  });

  it("round-trips an item through plain JSON when the old item gives the set and binary types", () => {
    const parsed = parsePlainJson(formatPlainJson(reading), reading);
    expect(parsed).toEqual({ ok: true, value: reading });
  });

  it("maps sets and binary to lists and strings when there is no hint", () => {
    const parsed = parsePlainJson(formatPlainJson({ tags: { SS: ["a"] }, blob: { B: "AAEC" } }));
    expect(parsed).toEqual({ ok: true, value: { tags: { L: [{ S: "a" }] }, blob: { S: "AAEC" } } });
  });

  it("does not keep a hinted set type when the value no longer fits it", () => {
    const parsed = parsePlainJson('{"tags": ["a", 1]}', { tags: { SS: ["a"] } });
    expect(parsed).toEqual({ ok: true, value: { tags: { L: [{ S: "a" }, { N: "1" }] } } });
  });

  it("writes N strings that are not JSON syntax as the same value in JSON syntax", () => {
    expect(numberLiteral("+7")).toBe("7");
    expect(numberLiteral(".5")).toBe("0.5");
    expect(numberLiteral("5.")).toBe("5");
    expect(numberLiteral("007")).toBe("7");
    expect(numberLiteral("-0.50")).toBe("-0.50");
    expect(plainJsonOf({ NS: ["1", ".25"] })).toBe("[1, 0.25]");
  });

  it("says where the JSON is wrong, by line and column", () => {
    const parsed = parsePlainJson('{\n  "a": 1,\n  "b": tru\n}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.message).toBe("The JSON is not valid at line 3, column 8: unexpected \"t\".");
  });

  it("refuses a name used twice and a top level that is not an object", () => {
    const twice = parsePlainJson('{"a": 1, "a": 2}');
    expect(!twice.ok && twice.problem.message).toContain('the name "a" appears twice');
    const list = parsePlainJson("[1]");
    expect(!list.ok && list.problem.message).toBe("An item must be a JSON object of attribute names to values.");
  });
});

describe("DynamoDB JSON", () => {
  it("round-trips every type", () => {
    expect(parseDynamoJson(formatDynamoJson(reading))).toEqual({ ok: true, value: reading });
  });

  it("explains a number written as a JSON number", () => {
    const parsed = parseDynamoJson('{"speedKph": {"N": 87.5}}');
    expect(parsed).toEqual({ ok: false, problem: { path: "speedKph", message: 'speedKph: numbers in DynamoDB JSON are strings; write "87.5".' } });
  });

  it("names the nested path of a bad value", () => {
    const parsed = parseDynamoJson('{"driver": {"M": {"shifts": {"L": [{"X": "1"}]}}}}');
    expect(!parsed.ok && parsed.problem.path).toBe("driver.shifts[0]");
    expect(!parsed.ok && parsed.problem.message).toContain('"X" is not a DynamoDB type');
  });

  it("refuses values with no type key or two", () => {
    expect(parseDynamoJson('{"a": {}}').ok).toBe(false);
    expect(parseDynamoJson('{"a": {"S": "x", "N": "1"}}').ok).toBe(false);
    expect(parseDynamoJson('{"a": {"B": "not base64!"}}').ok).toBe(false);
    expect(parseDynamoJson('{"a": {"NS": ["1", "x"]}}').ok).toBe(false);
  });
});
