import { useCallback, useEffect, useState } from "react";
import type { HistoryEntry, QueryInput, ReadRequest, SavedQuery, SortKeyCondition } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { attributeText } from "../items/attributeValue";
import { formatCountOf, formatUnits } from "../../shared/format";
import { useCommands } from "../../ipc/CommandsContext";

/** A history entry: a collection-view query, or a request of the query bar with its one-line summary. */
type Entry = Omit<HistoryEntry, "request"> &
  ({ kind: "collection"; request: QueryInput; line: string } | { kind: "builder"; request: ReadRequest; line: string });

/** Most history entries listed. */
const SHOWN = 20;

function sortText(condition: SortKeyCondition | null): string {
  if (condition === null) return "";
  const ops = { eq: "=", lt: "<", le: "<=", gt: ">", ge: ">=" } as const;
  if (condition.op === "between") return ` BETWEEN ${attributeText(condition.low)} AND ${attributeText(condition.high)}`;
  if (condition.op === "beginsWith") return ` begins_with ${attributeText(condition.value)}`;
  return ` ${ops[condition.op]} ${attributeText(condition.value)}`;
}

/** A query in one line: index, partition value, sort condition, direction, Limit, filter. */
export function describeQuery(input: QueryInput): string {
  const parts = [
    `${input.index === null ? "" : `${input.index}: `}${attributeText(input.partitionValue)}${sortText(input.sortCondition)}`,
    input.scanIndexForward ? "ascending" : "newest first",
  ];
  if (input.limit !== null) parts.push(`Limit ${input.limit}`);
  if (input.consistentRead) parts.push("strongly consistent");
  if (input.filter !== null) parts.push(`filter ${input.filter}`);
  return parts.join(" · ");
}

/**
 * The queries and scans run on this table (the backend records every first page: the query bar's
 * requests with their expressions written out, and queries of older versions in the collection
 * view's shape) and the ones saved by name. A saved or collection query runs again (`onRun`); a
 * request of the bar goes back into the bar (`onLoad`). `refresh` changes after each run.
 */
export function QueryHistory({
  profileId,
  table,
  current,
  refresh,
  onRun,
  onLoad,
}: {
  profileId: string;
  table: string;
  current: QueryInput | null;
  refresh: string | number;
  onRun: (input: QueryInput) => void;
  onLoad?: (request: ReadRequest) => void;
}) {
  const source = useCommands();
  const [history, setHistory] = useState<Entry[]>([]);
  const [saved, setSaved] = useState<SavedQuery[]>([]);
  const [name, setName] = useState("");
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

  const save = async () => {
    if (current === null) return;
    const result = await unwrap(source.saveQuery(profileId, name, { ...current, exclusiveStartKey: null }));
    if (result.status === "error") setError(result.error);
    else {
      setName("");
      await load();
    }
  };

  const remove = async (id: string) => {
    await unwrap(source.deleteSavedQuery(id));
    await load();
  };

  return (
    <section className="query-history" aria-label="History and saved queries">
      <form
        className="scan-controls"
        aria-label="Save the current query"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label>
          Save the current query as
          <input value={name} onChange={(e) => setName(e.target.value)} disabled={current === null} placeholder="a name" />
        </label>
        <button type="submit" disabled={current === null || name.trim() === ""}>
          Save
        </button>
      </form>
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      )}
      <h3>Saved</h3>
      {saved.length === 0 ? (
        <p className="muted">No saved queries on this table.</p>
      ) : (
        <ul className="history-list" aria-label="Saved queries">
          {saved.map((entry) => (
            <li key={entry.id}>
              <button type="button" className="table-link" onClick={() => onRun(entry.request)}>
                {entry.name}
              </button>
              <span className="muted"> {describeQuery(entry.request)} </span>
              <button type="button" onClick={() => void remove(entry.id)} aria-label={`Delete saved query ${entry.name}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <h3>Recent</h3>
      {history.length === 0 ? (
        <p className="muted">No query has run on this table yet.</p>
      ) : (
        <ul className="history-list" aria-label="Recent queries">
          {history.slice(0, SHOWN).map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="table-link"
                onClick={() => (entry.kind === "collection" ? onRun(entry.request) : onLoad?.(entry.request))}
                title={entry.kind === "collection" ? "Run it again" : "Load it into the query bar"}
              >
                {entry.line}
              </button>
              <span className="muted history-meta">
                {formatCountOf(entry.itemCount, "item")} · {formatUnits(entry.capacityUnits)} RCU · {new Date(entry.ranAt * 1000).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
