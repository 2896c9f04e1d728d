import { commands } from "../../ipc/bindings.gen";

/** The backend calls the modeler makes; the app passes the generated commands, tests pass fakes. */
export type ModelerSource = Pick<
  typeof commands,
  "analyzeModel" | "takeModelSuggestion" | "exportModel" | "importWorkbenchModel" | "applyModelToEmbedded" | "applyModelToConnection" | "listProfiles" | "listTables" | "estimateModelSample" | "inferModel"
>;

export const defaultSource: ModelerSource = commands;
