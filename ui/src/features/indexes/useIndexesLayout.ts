import { useEffect, useRef, useState } from "react";
import type { IndexesSideBySide, ViewSource } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/** How many items of a scan the view lays out at first. */
export const DEFAULT_LIMIT = 25;

/**
 * The items of `table` laid out as the table and each index hold them: `first` as the view opens
 * (by default the first items of a scan), the first items of a scan for a new table (or
 * connection), then whatever `load` is asked for. `onLoad` runs as each load starts.
 */
export function useIndexesLayout(profileId: string, table: string, onLoad: () => void, first: ViewSource = { kind: "scan", limit: DEFAULT_LIMIT }) {
  const source = useCommands();
  const [layout, setLayout] = useState<Loadable<IndexesSideBySide, UiError> | null>(null);
  // Only the last load asked for is shown: an earlier one that answers late is dropped.
  const latest = useRef(0);

  const load = async (viewSource: ViewSource) => {
    const mine = ++latest.current;
    setLayout({ status: "loading" });
    onLoad();
    const result = await unwrap(source.indexesSideBySide(profileId, table, viewSource));
    if (mine === latest.current) setLayout(result);
  };

  // The view opens on `first`; a new table (or connection) starts over with the first items of a scan.
  const opened = useRef({ on: `${profileId}\n${table}`, first });
  useEffect(() => {
    const start = opened.current.on === `${profileId}\n${table}` ? opened.current.first : ({ kind: "scan", limit: DEFAULT_LIMIT } as const);
    void load(start);
  }, [profileId, table]);

  return { layout, load };
}
