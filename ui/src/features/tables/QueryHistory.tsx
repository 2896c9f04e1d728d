import type { QueryInput, ReadRequest } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatCountOf, formatUnits } from "../../shared/format";
import { useQueryHistory } from "./useQueryHistory";

import { describeQuery } from "./queryLine";

export { describeQuery };

/** Most history entries listed. */
const SHOWN = 20;

/**
 * The queries and scans run on this table (the backend records every first page: the query bar's
 * requests with their expressions written out, and queries of older versions in the collection
 * view's shape). A collection query runs again (`onRun`); a request of the bar goes back into the
 * bar (`onLoad`). `refresh` changes after each run. Saving by name is the bar's saved requests,
 * one list (`SavedRequests`).
 */
export function QueryHistory({
  profileId,
  table,
  refresh,
  onRun,
  onLoad,
}: {
  profileId: string;
  table: string;
  refresh: string | number;
  onRun: (input: QueryInput) => void;
  onLoad?: (request: ReadRequest) => void;
}) {
  const { history, error } = useQueryHistory(profileId, table, refresh);

  return (
    <section className="query-history" aria-label="History">
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error)}: {error.message}
        </p>
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
