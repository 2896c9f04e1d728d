import { useEffect, useState } from "react";
import type { ReadRequest } from "../../ipc/bindings.gen";
import { unwrap, type UiError, errorTitle } from "../../ipc/result";
import { formatCount, formatUnits } from "../tables/format";
import type { BuilderSource } from "./source";

/** Most runs listed. */
const SHOWN = 10;

type Run = { id: number; request: ReadRequest; summary: string; ranAt: number; itemCount: number; capacityUnits: number };

/**
 * The builder's requests that ran on this table, newest first, from the backend's query history
 * (it records each first page); loading one puts it back into the builder. `refresh` changes
 * after each run.
 */
export function RecentRuns({
  profileId,
  table,
  refresh,
  source,
  onLoad,
}: {
  profileId: string;
  table: string;
  refresh: number;
  source: Pick<BuilderSource, "queryHistory">;
  onLoad: (request: ReadRequest) => void;
}) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<UiError | null>(null);

  useEffect(() => {
    let live = true;
    void unwrap(source.queryHistory(profileId, table)).then((result) => {
      if (!live) return;
      if (result.status === "ok") {
        setError(null);
        setRuns(
          result.data.flatMap(({ id, request, ranAt, itemCount, capacityUnits }) =>
            request.kind === "builder" ? [{ id, request: request.request, summary: request.summary, ranAt, itemCount, capacityUnits }] : [],
          ),
        );
      } else if (result.status === "error") setError(result.error);
    });
    return () => {
      live = false;
    };
  }, [source, profileId, table, refresh]);

  return (
    <details className="saved-expressions">
      <summary>Recent runs ({runs.length})</summary>
      {error ? (
        <p className="expression-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      ) : null}
      {runs.length === 0 ? (
        <p className="muted">Nothing has run from the builder on this table yet.</p>
      ) : (
        <ul className="saved-list" aria-label="Recent builder runs">
          {runs.slice(0, SHOWN).map((run) => (
            <li key={run.id}>
              <button type="button" className="table-link" onClick={() => onLoad(run.request)} title="Load into the builder">
                {run.summary}
              </button>
              <span className="muted">
                {" "}
                · {formatCount(run.itemCount)} items · {formatUnits(run.capacityUnits)} RCU · {new Date(run.ranAt * 1000).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
