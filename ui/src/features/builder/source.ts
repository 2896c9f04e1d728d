import { commands } from "../../ipc/commands";

/** The backend calls the builder makes; the app passes the generated commands, tests pass fakes. */
export type BuilderSource = Pick<
  typeof commands,
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

export const defaultSource: BuilderSource = commands;
