import { describe, expect, it } from "vitest";
import type { KeySchema } from "../../ipc/bindings.gen";
import { readPastedItems } from "./pasteItems";

const keys: KeySchema = { partitionKey: { name: "pk", type: "S" }, sortKey: { name: "sk", type: "N" } };

describe("pasted items", () => {
  it("reads one DynamoDB JSON item", () => {
    const read = readPastedItems('{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "0.30000000000000000001"}}', keys);
    expect(read).toEqual({ ok: true, format: "dynamo", items: [{ pk: { S: "a" }, sk: { N: "1" }, n: { N: "0.30000000000000000001" } }] });
  });

  it("reads an array of plain JSON items keeping numbers exact", () => {
    const read = readPastedItems('[{"pk": "a", "sk": 12345678901234567890123}, {"pk": "b", "sk": 2, "x": [1, "y"]}]', keys);
    expect(read).toEqual({
      ok: true,
      format: "plain",
      items: [
        { pk: { S: "a" }, sk: { N: "12345678901234567890123" } },
        { pk: { S: "b" }, sk: { N: "2" }, x: { L: [{ N: "1" }, { S: "y" }] } },
      ],
    });
  });

  it("reads JSON Lines and the CLI's Items and Item wrappers", () => {
    const lines = readPastedItems('{"pk": {"S": "a"}, "sk": {"N": "1"}}\n{"pk": {"S": "b"}, "sk": {"N": "2"}}\n', keys);
    expect(lines.ok && lines.items.length).toBe(2);
    const wrapped = readPastedItems('{"Items": [{"pk": {"S": "a"}, "sk": {"N": "1"}}], "Count": 1}', keys);
    expect(wrapped).toEqual({ ok: true, format: "dynamo", items: [{ pk: { S: "a" }, sk: { N: "1" } }] });
    const plainWrapped = readPastedItems('{"Items": [{"pk": "a", "sk": 10.50}], "Count": 1}', keys);
    expect(plainWrapped).toEqual({ ok: true, format: "plain", items: [{ pk: { S: "a" }, sk: { N: "10.50" } }] });
    const one = readPastedItems('{"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}', keys);
    expect(one.ok && one.items).toEqual([{ pk: { S: "a" }, sk: { N: "1" } }]);
  });

  it("refuses a missing or mistyped key, naming the item", () => {
    const read = readPastedItems('[{"pk": "a", "sk": 1}, {"pk": "b", "sk": "two"}]', keys);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.item).toBe(1);
    expect(read.problems[0]?.message).toMatch(/sk is the sort key: it must be a number \(N\), not a string/);
  });

  it("refuses two items with the same key", () => {
    const same = readPastedItems('[{"pk": "a", "sk": 1}, {"pk": "b", "sk": 1}, {"pk": "a", "sk": 1.0, "x": 1}]', keys);
    // 1 and 1.0 are one number to DynamoDB.
    expect(same.ok === false && same.item).toBe(2);
    expect(same.ok === false && same.problems[0]?.message).toMatch(/Items 1 and 3 have the same key/);
    const apart = readPastedItems('[{"pk": "a", "sk": 1}, {"pk": "a", "sk": 10}]', keys);
    expect(apart.ok).toBe(true);
  });

  it("says what is wrong with text that is not JSON or holds no item", () => {
    const bad = readPastedItems("{nope", keys);
    expect(bad.ok === false && bad.problems[0]?.message).toMatch(/not valid JSON/);
    const empty = readPastedItems("[]", keys);
    expect(empty.ok === false && empty.problems[0]?.message).toBe("The text holds no item.");
    const bad2 = readPastedItems('{"pk": {"S": "a"}, "sk": {"N": 1}}', keys);
    expect(bad2.ok).toBe(false);
  });
});
