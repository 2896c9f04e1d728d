import { describe, expect, it } from "vitest";
import { stagedEdit } from "./stagedEdit";

describe("the staged bulk edit", () => {
  it("builds SET values from their text, numbers kept as typed", () => {
    const staged = stagedEdit({
      kind: "update",
      set: [
        { name: "status", type: "S", text: "closed" },
        { name: "odometer", type: "N", text: "12345678901234567890.0000001" },
        { name: "seen", type: "BOOL", text: "true" },
        { name: "tags", type: "JSON", text: '{"SS": ["a"]}' },
        { name: "", type: "S", text: "" },
      ],
      remove: "note, old ",
    });
    expect(staged).toEqual({
      ok: true,
      edit: {
        kind: "update",
        set: { status: { S: "closed" }, odometer: { N: "12345678901234567890.0000001" }, seen: { BOOL: true }, tags: { SS: ["a"] } },
        remove: ["note", "old"],
      },
    });
  });

  it("says what is wrong: a bad number, a name set twice, nothing to do", () => {
    expect(stagedEdit({ kind: "update", set: [{ name: "n", type: "N", text: "12a" }], remove: "" })).toEqual({ ok: false, problem: 'n: "12a" is not a number.' });
    expect(
      stagedEdit({ kind: "update", set: [{ name: "a", type: "S", text: "1" }, { name: "a", type: "S", text: "2" }], remove: "" }),
    ).toEqual({ ok: false, problem: "a is set twice." });
    expect(stagedEdit({ kind: "update", set: [], remove: " , " })).toEqual({ ok: false, problem: "Set or remove at least one attribute." });
    expect(stagedEdit({ kind: "delete" })).toEqual({ ok: true, edit: { kind: "delete" } });
  });
});
