import { describe, expect, it } from "vitest";
import type { ReadRequest } from "../../ipc/bindings.gen";
import { explainRunError } from "./runError";

const between: ReadRequest = {
  operation: "Query",
  tableName: "Telemetry",
  keyCondition: {
    partitionKey: "vehicleId",
    partitionValue: { S: "VEH#V-7741" },
    sort: { type: "between", name: "recordedAt", low: { S: "TS#b" }, high: { S: "TS#a" } },
  },
};

describe("explainRunError", () => {
  it("says a reversed BETWEEN of the key condition in words, on the sort key's second field", () => {
    const error = {
      code: "VALIDATION" as const,
      exception: "ValidationException",
      message:
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:TS#b}, upper bound operand: AttributeValue: {S:TS#a}",
    };
    expect(explainRunError(error, between)).toEqual({
      sentence: "The range of recordedAt is reversed: the first value must not be greater than the second.",
      field: "sortHigh",
    });
  });

  it("names the filter when DynamoDB could not read it, and falls back on the error's kind", () => {
    const syntax = { code: "VALIDATION" as const, exception: "ValidationException", message: 'Invalid FilterExpression: Syntax error; token: "<EOF>", near: ">"' };
    expect(explainRunError(syntax, between)).toEqual({ sentence: "DynamoDB could not read the filter: it has a syntax error.", field: "filter" });
    const keyFilter = {
      code: "VALIDATION" as const,
      exception: "ValidationException",
      message: "Filter Expression can only contain non-primary key attributes: Primary key attribute: recordedAt",
    };
    expect(explainRunError(keyFilter, between).field).toBe("filter");
    expect(explainRunError({ code: "NOT_FOUND", message: "Requested resource not found" }, between).sentence).toBe("The table or index does not exist (any more).");
    expect(explainRunError({ code: "THROTTLED", message: "Rate exceeded" }, null).sentence).toBe("DynamoDB throttled the read: try again in a moment.");
  });

  it("says who refused an invalid request: DynamoDB when it named the exception, DynoTable's own check when nothing was sent", () => {
    expect(explainRunError({ code: "VALIDATION", exception: "ValidationException", message: "One or more parameter values were invalid" }, null).sentence).toBe(
      "DynamoDB refused the request as invalid.",
    );
    expect(explainRunError({ code: "VALIDATION", exception: null, message: "A Limit is a whole number from 1" }, null).sentence).toBe(
      "DynoTable's own check refused this.",
    );
  });
});
