import { useCallback, useEffect, useState } from "react";
import type { HistoryEntry, QueryInput, ReadRequest } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type UiError } from "../../ipc/result";
import { describeQuery } from "./queryLine";

/** A history entry: a collection-view query, or a request of the query bar with its one-line summary. */
export type Entry = Omit<HistoryEntry, "request"> &
  ({ kind: "collection"; request: QueryInput; line: string } | { kind: "builder"; request: ReadRequest; line: string });

/**
 * The table's query history, each entry in one line, read when the view opens and again when
 * `refresh` changes; `error` is the read's failure. (What is saved by name is the bar's saved
 * requests, `useSavedExpressions`.)
 */
export function useQueryHistory(profileId: string, table: string, refresh: string | number) {
  const source = useCommands();
  const [history, setHistory] = useState<Entry[]>([]);
  const [error, setError] = useState<UiError | null>(null);

  const load = useCallback(async () => {
    const h = await unwrap(source.queryHistory(profileId, table));
    if (h.status === "ok") {
      setHistory(
        h.data.map((entry): Entry => {
          const r = entry.request;
          return r.kind === "collection"
            ? { ...entry, kind: "collection", request: r.request, line: describeQuery(r.request) }
            : { ...entry, kind: "builder", request: r.request, line: r.summary };
        }),
      );
    }
    setError(h.status === "error" ? h.error : null);
  }, [profileId, table, source]);

  useEffect(() => {
    void load();
  }, [load, refresh]);

  return { history, error };
}
