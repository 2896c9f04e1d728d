import { commands } from "../../ipc/commands";

/** The backend calls the PartiQL editor makes; the app passes the generated commands, tests pass fakes. */
export type PartiqlSource = Pick<
  typeof commands,
  | "executeStatement"
  | "executeBatch"
  | "executeTransaction"
  | "reservedWords"
  | "listTables"
  | "describeTable"
  | "saveStatement"
  | "savedStatements"
  | "deleteSavedStatement"
>;

export const defaultSource: PartiqlSource = commands;
