import { describe, expect, it } from "vitest";
import { itemToRows, retypeText, rowsToItem, rowValue, type FormRow } from "./formRows";
import type { Item } from "../../shared/attributeValue";

const row = (type: FormRow["type"], text: string, name = "a"): FormRow => ({ id: 1, name, type, text });

describe("form rows", () => {
  it("round-trips every type through rows", () => {
    const item: Item = {
      s: { S: "x" },
      n: { N: "1.50" },
      b: { B: "AAEC" },
      t: { BOOL: true },
      z: { NULL: true },
      ss: { SS: ["a", "b"] },
      ns: { NS: ["1", "2"] },
      bs: { BS: ["AA=="] },
      m: { M: { city: { S: "Leeds" } } },
      l: { L: [{ N: "1" }, { S: "two" }] },
    };
    const back = rowsToItem(itemToRows(item));
    expect(back.problems.size).toBe(0);
    expect(back.item).toEqual(item);
  });

  it("puts the leading names first", () => {
    expect(itemToRows({ z: { S: "1" }, pk: { S: "2" } }, ["pk"]).map((r) => r.name)).toEqual(["pk", "z"]);
  });

  it("explains bad values in sentences", () => {
    expect(rowValue(row("N", "1,5"))).toEqual({ problem: '"1,5" is not a number. Write it like 42 or -3.5.' });
    expect(rowValue(row("SS", "\n  \n"))).toEqual({ problem: "A set cannot be empty: write one value per line." });
    expect(rowValue(row("NS", "1\n1E0"))).toEqual({ problem: '"1E0" appears twice; a set holds each value once.' });
    expect(rowValue(row("BS", "AA==\n!!"))).toEqual({ problem: '"!!" in the binary set is not base64.' });
    expect(rowValue(row("M", '{"x": {"N": 1}}'))).toEqual({ problem: 'a.x: numbers in DynamoDB JSON are strings; write "1".' });
    expect(rowValue(row("L", "[1"))).toHaveProperty("problem");
  });

  it("refuses unnamed and duplicate names", () => {
    const { problems } = rowsToItem([
      { id: 1, name: "", type: "S", text: "" },
      { id: 2, name: "x", type: "S", text: "" },
      { id: 3, name: "x", type: "S", text: "" },
    ]);
    expect([...problems]).toEqual([
      [1, "Give the attribute a name."],
      [3, "Another attribute is already named x."],
    ]);
  });

  it("keeps text that still makes sense when the type changes", () => {
    expect(retypeText(row("S", "42"), "N")).toBe("42");
    expect(retypeText(row("SS", "a\nb"), "NS")).toBe("a\nb");
    expect(retypeText(row("S", "x"), "M")).toBe("{}");
    expect(retypeText(row("M", "{}"), "BOOL")).toBe("false");
  });
});
