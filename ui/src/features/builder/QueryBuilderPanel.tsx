import { useCallback, useEffect, useMemo, useState } from "react";
import type {
  BuiltRequest,
  ConditionState,
  Direction,
  KeyConditionState,
  ProjectionState,
  QueryPage,
  ReadOperation,
  ReadRequest,
  ReturnConsumedCapacity,
  SavedExpression,
  TableDescription,
} from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { CodePanel } from "./CodePanel";
import { ExpressionEditor } from "./ExpressionEditor";
import { RecentRuns } from "./RecentRuns";
import { emptyKeyCondition } from "./KeyConditionBuilder";
import { DiagnosticView } from "./ExpressionTextMode";
import { attributeSuggestions, keySchemaOf } from "./model";
import { defaultSource, type BuilderSource } from "./source";
import { useDebounced } from "./useDebounced";
import "./QueryBuilderPanel.css";

/** The builder's request from its parts. */
export function readRequestOf(parts: {
  operation: ReadOperation;
  table: string;
  index: string | null;
  keyCondition: KeyConditionState | null;
  filter: ConditionState | null;
  projection: ProjectionState | null;
  direction: Direction;
  limit: string;
  consistentRead: boolean;
  returnConsumedCapacity: ReturnConsumedCapacity | null;
}): ReadRequest {
  const limit = Number.parseInt(parts.limit, 10);
  return {
    operation: parts.operation,
    tableName: parts.table,
    indexName: parts.index,
    keyCondition: parts.operation === "Query" ? parts.keyCondition : null,
    filter: parts.filter,
    projection: parts.projection,
    direction: parts.direction,
    limit: Number.isFinite(limit) && limit > 0 ? limit : null,
    consistentRead: parts.consistentRead,
    returnConsumedCapacity: parts.returnConsumedCapacity,
  };
}

/** A page's LastEvaluatedKey: where the next page starts. */
export type StartKey = NonNullable<QueryPage["lastEvaluatedKey"]>;

/**
 * The query builder: a whole Query or Scan of `table` (or one of its indexes) — key condition,
 * filter, projection, direction, limit, consistency, ReturnConsumedCapacity — checked by the
 * backend as it is edited, run on the connection `profileId`, exported as code, and saved per
 * table. Each page read goes to `onResult` with the request that read it and the key it started
 * at: `null` for the first page of a run (a new result), the previous page's LastEvaluatedKey for
 * the pages "Next page" reads (to append).
 */
export function QueryBuilderPanel({
  profileId,
  table,
  onResult,
  seenAttributes = [],
  source = defaultSource,
}: {
  profileId: string;
  table: TableDescription;
  onResult: (page: QueryPage, request: ReadRequest, startKey: StartKey | null) => void;
  /** Attribute names seen in the data (e.g. the columns of the collection view), for suggestions. */
  seenAttributes?: readonly string[];
  source?: BuilderSource;
}) {
  const [operation, setOperation] = useState<ReadOperation>("Query");
  const [index, setIndex] = useState<string | null>(null);
  const schema = useMemo(() => keySchemaOf(table, index), [table, index]);
  const [keyCondition, setKeyCondition] = useState<KeyConditionState | null>(schema ? emptyKeyCondition(schema) : null);
  const [filter, setFilter] = useState<ConditionState | null>(null);
  const [projection, setProjection] = useState<ProjectionState | null>(null);
  const [direction, setDirection] = useState<Direction>("ascending");
  const [limit, setLimit] = useState("");
  const [consistentRead, setConsistentRead] = useState(false);
  const [capacity, setCapacity] = useState<ReturnConsumedCapacity | null>("TOTAL");
  // What the backend made of the request, with the request it was made from: the Run button
  // waits until it describes what is on screen, so a click never runs an unchecked request.
  const [checked, setChecked] = useState<{ key: string; built: BuiltRequest | { error: string } } | null>(null);
  const [running, setRunning] = useState(false);
  const [runError, setRunError] = useState<UiError | null>(null);
  const [lastRun, setLastRun] = useState<{ count: number; scanned: number; more: boolean } | null>(null);
  const [next, setNext] = useState<{ request: ReadRequest; key: StartKey } | null>(null);
  // Counts finished runs, so the recent runs reload after each.
  const [runs, setRuns] = useState(0);

  const suggestions = useMemo(() => attributeSuggestions(table, seenAttributes), [table, seenAttributes]);
  const isGlobalIndex = table.indexes.find((i) => i.name === index)?.kind === "global";
  const request = readRequestOf({
    operation,
    table: table.name,
    index,
    keyCondition,
    filter,
    projection,
    direction,
    limit,
    consistentRead: consistentRead && !isGlobalIndex,
    returnConsumedCapacity: capacity,
  });
  const settled = useDebounced(request, 200);
  const settledKey = JSON.stringify(settled);

  useEffect(() => {
    let live = true;
    source.buildReadRequest(settled, settled.operation === "Query" ? keySchemaOf(table, settled.indexName ?? null) : null).then(
      (result) => live && setChecked({ key: settledKey, built: result.status === "ok" ? result.data : { error: result.error.message } }),
      (err: unknown) => live && setChecked({ key: settledKey, built: { error: String(err) } }),
    );
    return () => {
      live = false;
    };
    // `settled` is compared by value.
  }, [settledKey, source, table]);

  const chooseIndex = (name: string | null) => {
    setIndex(name);
    const next = keySchemaOf(table, name);
    setKeyCondition(next ? emptyKeyCondition(next) : null);
  };

  const loadRequest = (r: ReadRequest) => {
    setOperation(r.operation);
    setIndex(r.indexName ?? null);
    const nextSchema = keySchemaOf(table, r.indexName ?? null);
    setKeyCondition(r.keyCondition ?? (nextSchema ? emptyKeyCondition(nextSchema) : null));
    setFilter(r.filter ?? null);
    setProjection(r.projection ?? null);
    setDirection(r.direction ?? "ascending");
    setLimit(r.limit ? String(r.limit) : "");
    setConsistentRead(r.consistentRead ?? false);
    setCapacity(r.returnConsumedCapacity ?? null);
  };

  const load = (saved: SavedExpression) => {
    const content = saved.content;
    if (content.kind === "request") {
      loadRequest(content.request);
    } else {
      const state = content.state;
      if (state.parameter === "FilterExpression" || state.parameter === "ConditionExpression") setFilter(state.state);
      else if (state.parameter === "ProjectionExpression") setProjection(state.state);
      else if (state.parameter === "KeyConditionExpression") setKeyCondition(state.state);
    }
  };

  /** Reads one page of `sent` from `start` (the first page when `null`). */
  const read = async (sent: ReadRequest, start: StartKey | null) => {
    setRunning(true);
    setRunError(null);
    const result = await unwrap(source.runReadRequest(profileId, sent, start));
    setRunning(false);
    setRuns((n) => n + 1);
    if (result.status === "ok") {
      const last = result.data.lastEvaluatedKey;
      setLastRun({ count: result.data.count, scanned: result.data.scannedCount, more: last !== null });
      setNext(last ? { request: sent, key: last } : null);
      onResult(result.data, sent, start);
    } else if (result.status === "error") {
      setRunError(result.error);
    }
  };
  const run = () => read(request, null);

  const built = checked?.built ?? null;
  const current = checked !== null && checked.key === JSON.stringify(request);
  const diagnostics = built && "diagnostics" in built ? built.diagnostics : [];
  const blocked = !current || built === null || "error" in built || diagnostics.length > 0;
  const textOf = (parameter: string | null): string => {
    if (!built || !("request" in built)) return "";
    const r = built.request;
    if (parameter === "KeyConditionExpression") return r.keyConditionExpression ?? "";
    if (parameter === "FilterExpression") return r.filterExpression ?? "";
    if (parameter === "ProjectionExpression") return r.projectionExpression ?? "";
    return "";
  };

  return (
    <section className="query-builder" aria-label="Query builder">
      <div className="query-builder-target">
        <div role="radiogroup" aria-label="Operation" className="segmented">
          {(["Query", "Scan"] as const).map((op) => (
            <label key={op}>
              <input type="radio" name={`operation-${table.name}`} checked={operation === op} onChange={() => setOperation(op)} />
              {op}
            </label>
          ))}
        </div>
        <label>
          Read
          <select aria-label="Table or index" value={index ?? ""} onChange={(e) => chooseIndex(e.target.value === "" ? null : e.target.value)}>
            <option value="">{table.name} (table)</option>
            {table.indexes.map((i) => (
              <option key={i.name} value={i.name}>
                {i.name} ({i.kind === "global" ? "GSI" : "LSI"})
              </option>
            ))}
          </select>
        </label>
      </div>

      {operation === "Query" && keyCondition && schema ? (
        <ExpressionEditor
          label="Key condition"
          state={{ parameter: "KeyConditionExpression", state: keyCondition }}
          onChange={(s) => s.parameter === "KeyConditionExpression" && setKeyCondition(s.state)}
          source={source}
          suggestions={suggestions}
          keySchema={schema}
        />
      ) : null}

      {filter ? (
        <ExpressionEditor
          label="Filter"
          state={{ parameter: "FilterExpression", state: filter }}
          onChange={(s) => s.parameter === "FilterExpression" && setFilter(s.state)}
          onClear={() => setFilter(null)}
          source={source}
          suggestions={suggestions}
        />
      ) : (
        <button
          type="button"
          onClick={() => setFilter({ type: "attributeExists", path: [suggestions.find((s) => s !== schema?.partitionKey.name) ?? suggestions[0] ?? "attribute"] })}
        >
          Add filter
        </button>
      )}

      {projection ? (
        <ExpressionEditor
          label="Projection"
          state={{ parameter: "ProjectionExpression", state: projection }}
          onChange={(s) => s.parameter === "ProjectionExpression" && setProjection(s.state)}
          onClear={() => setProjection(null)}
          source={source}
          suggestions={suggestions}
        />
      ) : (
        <button type="button" onClick={() => setProjection({ paths: suggestions.slice(0, 2).map((s) => [s]) })}>
          Choose attributes
        </button>
      )}

      <fieldset className="query-options">
        <legend>Options</legend>
        {operation === "Query" ? (
          <label>
            Order
            <select aria-label="Order" value={direction} onChange={(e) => setDirection(e.target.value as Direction)}>
              <option value="ascending">ascending (oldest first)</option>
              <option value="descending">descending (newest first)</option>
            </select>
          </label>
        ) : null}
        <label>
          Limit (items evaluated per page)
          <input aria-label="Limit" inputMode="numeric" value={limit} placeholder="none" onChange={(e) => setLimit(e.target.value.replace(/\D/g, ""))} />
        </label>
        <label>
          <input type="checkbox" checked={consistentRead && !isGlobalIndex} disabled={isGlobalIndex} onChange={(e) => setConsistentRead(e.target.checked)} />
          Strongly consistent read{isGlobalIndex ? " (not on a global index)" : ""}
        </label>
        <label>
          ReturnConsumedCapacity
          <select
            aria-label="ReturnConsumedCapacity"
            value={capacity ?? ""}
            onChange={(e) => setCapacity(e.target.value === "" ? null : (e.target.value as ReturnConsumedCapacity))}
          >
            <option value="">not set</option>
            <option value="TOTAL">TOTAL</option>
            <option value="INDEXES">INDEXES</option>
            <option value="NONE">NONE</option>
          </select>
        </label>
      </fieldset>

      <div className="query-check" aria-live="polite">
        {built && "error" in built ? (
          <p className="expression-error" role="alert">
            {built.error}
          </p>
        ) : diagnostics.length > 0 ? (
          <ul className="diagnostics" role="alert">
            {diagnostics.map((d, i) => (
              <li key={i}>
                <DiagnosticView diagnostic={d} text={textOf(d.expression)} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>

      <div className="query-run">
        <button type="button" className="run-button" onClick={run} disabled={blocked || running}>
          {running ? "Running…" : `Run ${operation}`}
        </button>
        {next ? (
          <button type="button" onClick={() => read(next.request, next.key)} disabled={running}>
            Next page
          </button>
        ) : null}
        {lastRun ? (
          <span className="builder-hint" role="status" data-testid="run-status">
            {lastRun.count} items ({lastRun.scanned} evaluated){lastRun.more ? "; more pages" : ""}
          </span>
        ) : null}
        {runError ? (
          <p className="expression-error" role="alert">
            {errorTitle(runError.code)}: {runError.message}
          </p>
        ) : null}
      </div>

      {built && "body" in built ? (
        <details className="request-body">
          <summary>Request (DynamoDB JSON)</summary>
          <pre data-testid="request-body">{built.body}</pre>
        </details>
      ) : null}

      <details className="query-code">
        <summary>Code</summary>
        <CodePanel request={settled} source={source} />
      </details>

      <SavedPanel profileId={profileId} table={table.name} request={request} filter={filter} source={source} onLoad={load} />
      <RecentRuns profileId={profileId} table={table.name} refresh={runs} source={source} onLoad={loadRequest} />
    </section>
  );
}

/** Saved requests and filters of the table: save the current one under a name, load, delete. */
function SavedPanel({
  profileId,
  table,
  request,
  filter,
  source,
  onLoad,
}: {
  profileId: string;
  table: string;
  request: ReadRequest;
  filter: ConditionState | null;
  source: Pick<BuilderSource, "saveExpression" | "savedExpressions" | "deleteSavedExpression">;
  onLoad: (saved: SavedExpression) => void;
}) {
  const [saved, setSaved] = useState<SavedExpression[]>([]);
  const [name, setName] = useState("");
  const [what, setWhat] = useState<"request" | "filter">("request");
  const [problem, setProblem] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const result = await unwrap(source.savedExpressions(profileId, table));
    if (result.status === "ok") setSaved(result.data);
    else if (result.status === "error") setProblem(result.error.message);
  }, [source, profileId, table]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const save = async () => {
    const content =
      what === "filter" && filter
        ? ({ kind: "expression", state: { parameter: "FilterExpression", state: filter } } as const)
        : ({ kind: "request", request } as const);
    const result = await unwrap(source.saveExpression(profileId, table, name, content));
    if (result.status === "error") setProblem(result.error.message);
    else {
      setProblem(null);
      setName("");
      await reload();
    }
  };

  return (
    <details className="saved-expressions">
      <summary>Saved ({saved.length})</summary>
      <div className="saved-form">
        <input aria-label="Name to save under" value={name} placeholder="name" onChange={(e) => setName(e.target.value)} />
        <select aria-label="What to save" value={what} onChange={(e) => setWhat(e.target.value as "request" | "filter")}>
          <option value="request">the whole request</option>
          <option value="filter" disabled={!filter}>
            the filter
          </option>
        </select>
        <button type="button" onClick={save} disabled={name.trim() === ""}>
          Save
        </button>
      </div>
      {problem ? (
        <p className="expression-error" role="alert">
          {problem}
        </p>
      ) : null}
      <ul className="saved-list">
        {saved.map((s) => (
          <li key={s.id}>
            <button type="button" className="link-button" onClick={() => onLoad(s)}>
              {s.name}
            </button>
            <span className="builder-hint">{s.content.kind === "request" ? s.content.request.operation : s.content.state.parameter}</span>
            <button
              type="button"
              aria-label={`Delete saved ${s.name}`}
              onClick={async () => {
                await unwrap(source.deleteSavedExpression(s.id));
                await reload();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
