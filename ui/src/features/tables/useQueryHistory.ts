import { useCallback, useEffect, useState } from "react";
import type { HistoryEntry, QueryInput, ReadRequest, SavedQuery } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type UiError } from "../../ipc/result";
import { describeQuery } from "./queryLine";

/** A history entry: a collection-view query, or a request of the query bar with its one-line summary. */
export type Entry = Omit<HistoryEntry, "request"> &
  ({ kind: "collection"; request: QueryInput; line: string } | { kind: "builder"; request: ReadRequest; line: string });

/**
 * The table's query history (each entry in one line) and its saved queries, read when the view
 * opens and again when `refresh` changes or `load` is called; `error` is the first read's failure.
 */
export function useQueryHistory(profileId: string, table: string, refresh: string | number) {
  const source = useCommands();
  const [history, setHistory] = useState<Entry[]>([]);
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [error, setError] = useState<UiError | null>(null);

  const load = useCallback(async () => {
    const [h, s] = await Promise.all([unwrap(source.queryHistory(profileId, table)), unwrap(source.savedQueries(profileId, table))]);
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
    if (s.status === "ok") setSaved(s.data);
    const failed = h.status === "error" ? h.error : s.status === "error" ? s.error : null;
    setError(failed);
  }, [profileId, table, source]);

  useEffect(() => {
    void load();
  }, [load, refresh]);

  return { history, saved, error, setError, load };
}
