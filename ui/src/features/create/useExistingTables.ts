import { useEffect, useState } from "react";
import type { TableList } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/**
 * The names of the connection's tables (ListTables, every page), for the form to say a name is
 * taken as it is typed; `null` while they are read or when they could not be (CreateTable's own
 * ResourceInUseException still answers then).
 */
export function useExistingTables(profileId: string): Set<string> | null {
  const source = useCommands();
  const [names, setNames] = useState<Set<string> | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const all: string[] = [];
      let start: string | null = null;
      do {
        const page: Loadable<TableList, UiError> = await unwrap(source.listTables(profileId, start));
        if (!live || page.status !== "ok") return;
        all.push(...page.data.names);
        start = page.data.nextStart;
      } while (start !== null);
      if (live) setNames(new Set(all));
    })();
    return () => {
      live = false;
    };
  }, [profileId, source]);
  return names;
}
