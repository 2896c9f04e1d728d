import { describe, expect, it } from "vitest";
import { errorTitle } from "./result";

describe("errorTitle", () => {
  it("blames DynamoDB for an invalid request only when DynamoDB named the exception", () => {
    expect(errorTitle({ code: "VALIDATION", exception: "ValidationException" })).toBe("DynamoDB refused the request as invalid");
    expect(errorTitle({ code: "VALIDATION", exception: "ResourceInUseException" })).toBe("DynamoDB refused the request as invalid");
  });

  it("says DynoTable's own check refused what never reached DynamoDB (no exception: a file, the editor's check, a name clash)", () => {
    expect(errorTitle({ code: "VALIDATION", exception: null })).toBe("DynoTable's own check refused this");
  });

  it("claims neither when it is given only the code, or an error that does not say", () => {
    expect(errorTitle("VALIDATION")).toBe("Not valid");
    expect(errorTitle({ code: "VALIDATION" })).toBe("Not valid");
  });

  it("titles the other codes as before, from the code or the error", () => {
    expect(errorTitle("NOT_FOUND")).toBe("The table, index or item does not exist");
    expect(errorTitle({ code: "THROTTLED", exception: "ThrottlingException" })).toBe("DynamoDB throttled the request");
    expect(errorTitle({ code: "IPC_FAILURE", message: "gone" } as never)).toBe("The app's backend did not answer");
  });
});
