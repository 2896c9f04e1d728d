import { useCallback, useEffect } from "react";
import type { SavedExpression } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap } from "../../ipc/result";

/**
 * Reads the table's saved requests and filters into `setSaved` (a failure into `setProblem`)
 * when the view opens, and again each time the `reload` it returns is called.
 */
export function useSavedExpressions(
  profileId: string,
  table: string,
  setSaved: (saved: SavedExpression[]) => void,
  setProblem: (problem: string) => void,
) {
  const source = useCommands();
  const reload = useCallback(async () => {
    const result = await unwrap(source.savedExpressions(profileId, table));
    if (result.status === "ok") setSaved(result.data);
    else if (result.status === "error") setProblem(result.error.message);
  }, [source, profileId, table]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return reload;
}
