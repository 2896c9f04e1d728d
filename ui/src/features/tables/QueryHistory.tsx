import { useState } from "react";
import type { QueryInput, ReadRequest } from "../../ipc/bindings.gen";
import { errorTitle, unwrap } from "../../ipc/result";
import { formatCountOf, formatUnits } from "../../shared/format";
import { useCommands } from "../../ipc/CommandsContext";
import { useQueryHistory } from "./useQueryHistory";

import { describeQuery } from "./queryLine";

export { describeQuery };

/** Most history entries listed. */
const SHOWN = 20;

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
  const { history, saved, error, setError, load } = useQueryHistory(profileId, table, refresh);
  const [name, setName] = useState("");


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
