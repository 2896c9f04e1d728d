import { describe, expect, it } from "vitest";
import { projectionText } from "./projection";

describe("projectionText", () => {
  it("names a projection in the user's words first, DynamoDB's after, the same in every view", () => {
    expect(projectionText({ type: "ALL", attributes: [] })).toBe("All attributes (ALL)");
    expect(projectionText({ type: "KEYS_ONLY", attributes: [] })).toBe("Keys only (KEYS_ONLY)");
    expect(projectionText({ type: "INCLUDE", attributes: ["total", "status"] })).toBe("Keys and total, status (INCLUDE)");
  });
});
