import { vi } from "vitest";
import type { Commands } from "../../ipc/CommandsContext";

/** The backend calls the builder and the query bar make. */
export type BuilderCommands = Pick<
  Commands,
  | "generateExpression"
  | "parseExpressions"
  | "checkExpressions"
  | "sortKeyOperators"
  | "buildReadRequest"
  | "exportCode"
  | "runReadRequest"
  | "saveExpression"
  | "savedExpressions"
  | "deleteSavedExpression"
  | "queryHistory"
>;

/**
 * A fake backend for the builder's tests (given to a `CommandsProvider`): every call is a `vi.fn` answering something plausible,
 * and each test overrides what it checks.
 */
export function fakeSource(overrides: Partial<BuilderCommands> = {}): BuilderCommands {
  return {
    generateExpression: vi.fn(async () => ({
      status: "ok" as const,
      data: { parameter: "FilterExpression" as const, expression: "", ExpressionAttributeNames: {}, ExpressionAttributeValues: {} },
    })),
    parseExpressions: vi.fn(async () => ({ status: "parsed" as const, states: [] })),
    checkExpressions: vi.fn(async () => []),
    sortKeyOperators: vi.fn(async (keyType: "S" | "N" | "B") =>
      keyType === "N"
        ? (["=", "<", "<=", ">", ">=", "BETWEEN"] as const).slice()
        : (["=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"] as const).slice(),
    ),
    buildReadRequest: vi.fn(async () => ({ status: "error" as const, error: { code: "VALIDATION" as const, message: "not built", exception: null } })),
    exportCode: vi.fn(async () => ({ status: "ok" as const, data: "aws dynamodb query" })),
    runReadRequest: vi.fn(async () => ({ status: "error" as const, error: { code: "VALIDATION" as const, message: "not run", exception: null } })),
    saveExpression: vi.fn(async () => ({ status: "error" as const, error: { code: "VALIDATION" as const, message: "not saved", exception: null } })),
    savedExpressions: vi.fn(async () => ({ status: "ok" as const, data: [] })),
    deleteSavedExpression: vi.fn(async () => ({ status: "ok" as const, data: null })),
    queryHistory: vi.fn(async () => ({ status: "ok" as const, data: [] })),
    ...overrides,
  } as BuilderCommands;
}
