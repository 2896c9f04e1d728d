import { describe, expect, it } from "vitest";
import { countParameters, errorRange, isWrite, lineAndColumn, splitStatements, statementErrorSentence } from "./statements";
import { quoteName, tablesIn } from "./completion";

describe("statements", () => {
  it("counts ? outside strings, quoted names and comments", () => {
    expect(countParameters(`SELECT * FROM t WHERE a = ? AND b = '?' AND "c?" = ? -- ?\n/* ? */`)).toBe(2);
    expect(countParameters(`SELECT * FROM t WHERE a = 'it''s ?' AND b = ?`)).toBe(1);
  });

  it("splits statements at top-level semicolons with their own parameter counts", () => {
    const text = `INSERT INTO t VALUE {'a': ?};  \n UPDATE t SET b = ';' WHERE a = ? AND c = ?;\n`;
    const spans = splitStatements(text);
    expect(spans.map((s) => [s.text, s.parameters])).toEqual([
      [`INSERT INTO t VALUE {'a': ?}`, 1],
      [`UPDATE t SET b = ';' WHERE a = ? AND c = ?`, 2],
    ]);
    expect(spans[1]?.from).toBe(text.indexOf("UPDATE"));
  });

  it("finds the place a positional message names, counting columns in characters", () => {
    const text = `SELECT *\nFROM "é" WHERE`;
    const range = errorRange(text, "Statement wasn't well formed, can't be processed: Unexpected keyword WHERE at 2:10:5");
    expect(range && text.slice(range.from, range.to)).toBe("WHERE");
    const reserved = errorRange(`SELECT * FROM t WHERE status = 1`, "Attribute name is a reserved keyword; reserved keyword: status");
    expect(reserved).toEqual({ from: 22, to: 28 });
    expect(errorRange("SELECT 1", "Requested resource not found")).toBeNull();
  });

  it("knows writes from reads as the backend does", () => {
    expect(isWrite(`-- note\nSELECT * FROM t`)).toBe(false);
    expect(isWrite(`-- SELECT\nDELETE FROM t WHERE a = 1`)).toBe(true);
    expect(isWrite(`update t set a = 1 where k = 1`)).toBe(true);
  });

  it("quotes names that are reserved or not plain identifiers, and finds the tables named", () => {
    const reserved = new Set(["STATUS"]);
    expect(quoteName("status", reserved)).toBe('"status"');
    expect(quoteName("vehicleId", reserved)).toBe("vehicleId");
    expect(quoteName("order-id", reserved)).toBe('"order-id"');
    expect(quoteName("value", reserved)).toBe('"value"');
    expect(tablesIn(`SELECT * FROM "Tele""metry" WHERE x IN (SELECT 1 FROM Pets)`)).toEqual(['Tele"metry', "Pets"]);
  });

  it("marks the first word of a statement that does not start with a verb, and gives lines and columns", () => {
    const text = `-- typo\n  SELEC * FROM "Pets"`;
    const range = errorRange(text, "Statement wasn't well formed, can't be processed: Expected data manipulation");
    expect(range && text.slice(range.from, range.to)).toBe("SELEC");
    expect(lineAndColumn(text, range!.from)).toEqual({ line: 2, column: 3 });
    expect(lineAndColumn("SELECT é, x", 10)).toEqual({ line: 1, column: 11 });
  });

  it("names the table DynamoDB did not find, and on which connection, when the table list says it is missing", () => {
    const notFound = { code: "NOT_FOUND", message: "Requested resource not found" };
    expect(statementErrorSentence(notFound, `SELECT * FROM "Nope"`, ["Pets", "Telemetry"], "Embedded", ["Nope"])).toBe('No table named "Nope" on Embedded.');
    expect(statementErrorSentence(notFound, `SELECT * FROM "Pets"."ByAge"`, ["Pets"], "Prod", ["Pets"])).toBe(
      '"Pets" was not found on Prod: the table, or an index the statement names.',
    );
    // The list not known: no claim that the table is missing.
    expect(statementErrorSentence(notFound, `SELECT * FROM "Nope"`, null, "Prod", ["Nope"])).toBe('"Nope" was not found on Prod: the table, or an index the statement names.');
    expect(
      statementErrorSentence({ code: "VALIDATION", message: "Statement wasn't well formed, can't be processed: Expected data manipulation" }, "SELEC * FROM t", [], "Embedded", ["t"]),
    ).toBe("A statement starts with SELECT, INSERT, UPDATE or DELETE: this one starts with SELEC.");
    expect(statementErrorSentence({ code: "THROTTLED", message: "Rate exceeded" }, "SELECT * FROM t", [], "Embedded", ["t"])).toBeNull();
  });
});
