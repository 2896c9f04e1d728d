/**
 * The statements saved by name on a connection (the backend's `saved_statements` shelf): listed
 * when the editor opens, saved under a name (the same name replaces), deleted. Errors come back
 * as a sentence for the panel.
 */
import { useCallback, useEffect, useState } from "react";
import type { SavedStatement, SavedStatementContent } from "../../ipc/bindings.gen";
import { unwrap } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

export function useSavedStatements(profileId: string) {
  const source = useCommands();
  const [saved, setSaved] = useState<SavedStatement[]>([]);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const result = await unwrap(source.savedStatements(profileId));
    if (result.status === "ok") {
      setSaved(result.data);
      setError(null);
    } else if (result.status === "error") {
      setError(result.error.message);
    }
  }, [source, profileId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  /** Saves under `name`; true once saved. */
  const save = useCallback(
    async (name: string, content: SavedStatementContent) => {
      const result = await unwrap(source.saveStatement(profileId, name, content));
      if (result.status === "error") {
        setError(result.error.message);
        return false;
      }
      await reload();
      return true;
    },
    [source, profileId, reload],
  );

  const remove = useCallback(
    async (id: string) => {
      const result = await unwrap(source.deleteSavedStatement(id));
      if (result.status === "error") setError(result.error.message);
      await reload();
    },
    [source, reload],
  );

  return { saved, error, save, remove };
}
