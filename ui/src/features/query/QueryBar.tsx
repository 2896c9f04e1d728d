/**
 * The query bar, above every view of a table's tab: one form for the one query model
 * ([`useQueryModel`]). Query or Scan; the table or one of its indexes; the partition-key value (a
 * value for each attribute of a multi-attribute GSI partition key, rule B.18)
 * with completion from the collection statistics; a sort-key condition offering only the
 * operators DynamoDB allows for the key's type (rule B.5, as the backend lists them); filter and
 * projection (the builder's visual editors); order, Limit and consistency (disabled on a GSI).
 * Below, the request as it will be sent — expressions with their names and values, the DynamoDB
 * JSON body — and the same request as code, copyable. Ctrl+Enter (Cmd+Enter) runs it; asked for
 * before the request is checked (a filter typed a moment ago), the run waits for the check, and Run
 * says so ("Checking…").
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { AttributeValue, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { comboKeys, matchesShortcut, SHORTCUTS } from "../../app/shortcuts";
import { attributeText } from "../../shared/attributeValue";
import { formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { CodePanel } from "../builder/CodePanel";
import { ExpressionEditor } from "../builder/ExpressionEditor";
import { DiagnosticView } from "../builder/ExpressionTextMode";
import { GeneratedView } from "../builder/GeneratedView";
import { attributeSuggestions } from "../builder/model";
import { activeSortKey, describeRequest, formSummary, isGlobalIndex, keyNamesOf, sortKeysOf, withIndex, type FieldName, type SortChoice } from "./model";
import type { QueryModel } from "./useQueryModel";
import { useSortKeyOperators } from "./useSortKeyOperators";
import { explainRunError } from "./runError";
import { useFoldShortcut } from "./useFoldShortcut";
import "./QueryBar.css";

/** Ctrl+J (Cmd+J on macOS): the next page, as the shortcut list has it. */
const nextPageCombo = SHORTCUTS.find((s) => s.id === "next-page")!.combos[0]!;
/** Ctrl+Shift+F (Cmd+Shift+F on macOS): fold or unfold the bar. */
const foldCombo = SHORTCUTS.find((s) => s.id === "fold-query-bar")!.combos[0]!;

const TYPE_WORD = { S: "string", N: "number", B: "binary, base64" } as const;

export function QueryBar({
  table,
  model,
  suggestions,
  seenAttributes = [],
}: {
  table: TableDescription;
  model: QueryModel;
  /** Partition-key values to complete from (the collection statistics of the table). */
  suggestions: AttributeValue[];
  /** Attribute names seen in the data, for the filter and projection editors. */
  seenAttributes?: readonly string[];
}) {
  const id = useId();
  const { form, setForm, schema, problems, run } = model;
  const [tried, setTried] = useState(false);
  const barRef = useRef<HTMLElement>(null);
  const { folded, setFolded } = model;
  useFoldShortcut(barRef, () => setFolded((f) => !f));
  // Rule B.18.5: on a multi-attribute sort key the condition is on the attribute after those held equal.
  const sortKey = form.operation === "Query" ? activeSortKey(form, schema) : null;
  const sortKeys = form.operation === "Query" ? sortKeysOf(schema) : [];
  const nextSortKey = form.sortOp === "=" ? (sortKeys[form.sortEqual.length + 1] ?? null) : null;
  const sortType = sortKey?.type ?? null;

  const operators = useSortKeyOperators(sortType);

  const set = <K extends keyof typeof form>(name: K, value: (typeof form)[K]) => setForm((f) => ({ ...f, [name]: value }));
  const global = isGlobalIndex(table, form.index);
  const attributes = attributeSuggestions(table, seenAttributes);
  // Missing values show once Run was tried; a value of the wrong type (or a filter or projection
  // text that cannot be used) as soon as it is typed.
  const shown = (name: FieldName) => {
    const problem = problems[name];
    if (problem === undefined) return undefined;
    if (name === "filter" || name === "projection" || name === "budget") return problem;
    const [list, position] = name.split(".");
    const text =
      list === "morePartition" || list === "sortEqual"
        ? (form[list][Number(position)] ?? "")
        : form[name as "partition" | "sort" | "sortHigh" | "limit"];
    return tried || text !== "" ? problem : undefined;
  };
  // What keeps Run off, in words: the first problem on show.
  // Never a Run that does nothing: every reason the request cannot go is said.
  const blocker =
    (Object.keys(problems) as FieldName[]).map(shown).find((p) => p !== undefined) ??
    (model.diagnostics.length > 0
      ? "DynamoDB would refuse the request as it stands (its objection is shown above)."
      : model.checkError !== null
        ? "The request could not be checked (the reason is shown above)."
        : null);
  const blockerId = `${id}-blocked`;
  const setSortEqual = (i: number, value: string) =>
    setForm((f) => ({ ...f, sortEqual: f.sortEqual.map((v, j) => (j === i ? value : v)) }));
  // The `=` on the current attribute becomes a held equality; the condition moves to the next.
  const holdSortValue = () => setForm((f) => ({ ...f, sortEqual: [...f.sortEqual, f.sort], sortOp: "none", sort: "", sortHigh: "" }));
  const releaseFrom = (i: number) =>
    setForm((f) => ({ ...f, sortEqual: f.sortEqual.slice(0, i), sortOp: "=", sort: f.sortEqual[i] ?? "", sortHigh: "" }));
  const setMorePartition = (i: number, value: string) =>
    setForm((f) => {
      const morePartition = [...f.morePartition];
      morePartition[i] = value;
      return { ...f, morePartition };
    });

  const submit = () => {
    setTried(true);
    model.execute();
  };

  // Adding a filter or a projection puts the focus in its editor's first field; removing one (its
  // Remove button, its last condition removed) puts it back on the button that adds it. The focus
  // would otherwise fall to the document with the control that had it, and Tab start over.
  const filterRef = useRef<HTMLDivElement>(null);
  const projectionRef = useRef<HTMLDivElement>(null);
  const addFilterRef = useRef<HTMLButtonElement>(null);
  const addProjectionRef = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<"filter" | "projection" | "add-filter" | "add-projection" | null>(null);
  const hasFilter = !!form.filter;
  const hasProjection = !!form.projection;
  useEffect(() => {
    const next = focusNext.current;
    focusNext.current = null;
    if (next === "filter") firstField(filterRef.current)?.focus();
    else if (next === "projection") firstField(projectionRef.current)?.focus();
    else if (next === "add-filter") addFilterRef.current?.focus();
    else if (next === "add-projection") addProjectionRef.current?.focus();
  }, [hasFilter, hasProjection]);
  /** Clears the filter or the projection; the focus goes to its Add button if it was in the editor. */
  const clearExpression = (name: "filter" | "projection") => {
    const editor = (name === "filter" ? filterRef : projectionRef).current;
    if (editor?.contains(document.activeElement)) focusNext.current = name === "filter" ? "add-filter" : "add-projection";
    set(name, null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (matchesShortcut("run-query", event.nativeEvent)) {
      event.preventDefault();
      event.stopPropagation();
      submit();
    }
  };

  const pkName = schema?.partitionKey.name ?? table.keys.partitionKey.name;
  const pkType = schema?.partitionKey.type ?? table.keys.partitionKey.type;
  const completion = suggestions.filter((v) => pkType in v);
  const listId = `${id}-pk-values`;
  const built = model.built;
  const r = built?.request ?? null;
  const runError = run?.error ?? null;
  const explained = runError === null ? null : explainRunError(runError, run?.request ?? null);
  const errorId = `${id}-run-error`;
  // The field a failed run was about, marked while the bar still holds that request.
  const faulty = explained !== null && JSON.stringify(run?.request ?? null) === JSON.stringify(model.request) ? explained.field : null;
  const flag = (name: FieldName) => (faulty === name ? errorId : undefined);

  const foldKeys = comboKeys(foldCombo).join("+");
  const summary = formSummary(form, table.name, schema);
  const foldButton = (
    <button
      type="button"
      className="qb-fold"
      data-testid="qb-fold"
      aria-expanded={!folded}
      aria-keyshortcuts="Control+Shift+F Meta+Shift+F"
      title={`${folded ? "Unfold the query bar" : "Fold the query bar to one line"} (${foldKeys})`}
      onClick={() => setFolded((f) => !f)}
    >
      {folded ? "▸" : "▾"} {form.operation}
    </button>
  );
  const queuedId = `${id}-queued`;
  const runButton = (
    <button
      type="button"
      className="primary qb-run"
      data-testid="qb-run"
      // While a run reads, the button stays enabled in the DOM and says it is unavailable
      // (aria-disabled), its clicks ignored: a disabled button drops the focus to the document, and
      // a keyboard user who ran with Enter would lose their place. A blocked request (a problem
      // to fix in the bar, where the focus is) disables it for real.
      onClick={() => {
        if (!model.busy) submit();
      }}
      disabled={blocker !== null}
      aria-disabled={model.busy || undefined}
      aria-busy={model.queued || undefined}
      aria-keyshortcuts="Control+Enter Meta+Enter"
      aria-describedby={blocker !== null ? blockerId : model.queued ? queuedId : undefined}
      title={blocker ?? "Run (Ctrl+Enter)"}
    >
      {model.busy ? "Running…" : model.queued ? "Checking…" : `Run ${form.operation}`}
    </button>
  );
  const cancelButton = run?.kind === "scan" && run.running && (
    <button type="button" data-testid="qb-cancel" onClick={model.cancel}>
      Cancel
    </button>
  );

  return (
    <section
      ref={barRef}
      className={`query-bar${folded ? " query-bar-folded" : ""}`}
      aria-label={`Query bar of ${table.name}`}
      data-testid="query-bar"
      onKeyDown={onKeyDown}
    >
      <div className="qb-row">
        {foldButton}
        {folded && (
          <span className="qb-folded-summary" data-testid="qb-folded-summary" title={summary}>
            {summary}
          </span>
        )}
        {!folded && (
          <>
            <div role="radiogroup" aria-label="Operation" className="qb-segmented">
              {(["Query", "Scan"] as const).map((op) => (
                <label key={op} className={form.operation === op ? "qb-on" : undefined}>
                  <input type="radio" name={`${id}-operation`} checked={form.operation === op} onChange={() => set("operation", op)} />
                  {op}
                </label>
              ))}
            </div>
            <label className="qb-field">
              <span className="qb-label">Read</span>
              <select
                aria-label="Table or index"
                data-testid="qb-index"
                value={form.index ?? ""}
                onChange={(e) => setForm((f) => withIndex(f, table, e.target.value === "" ? null : e.target.value))}
              >
                <option value="">{table.name} (table)</option>
                {table.indexes.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.name} ({i.kind === "global" ? "GSI" : "LSI"})
                  </option>
                ))}
              </select>
            </label>
            {form.operation === "Query" ? (
              <>
                <KeyField
                  id={`${id}-pk`}
                  testId="qb-pk"
                  label={`${pkName} =`}
                  hint={TYPE_WORD[pkType]}
                  value={form.partition}
                  onChange={(v) => set("partition", v)}
                  error={shown("partition")}
                  flaggedBy={flag("partition")}
                  list={completion.length > 0 ? listId : undefined}
                  wide
                />
                {(schema?.morePartitionKeys ?? []).map((key, i) => (
                  <KeyField
                    key={key.name}
                    id={`${id}-pk-${i + 1}`}
                    testId={`qb-pk-${i + 1}`}
                    label={`${key.name} =`}
                    hint={TYPE_WORD[key.type]}
                    value={form.morePartition[i] ?? ""}
                    onChange={(v) => setMorePartition(i, v)}
                    error={shown(`morePartition.${i}`)}
                  />
                ))}
                <datalist id={listId}>
                  {completion.slice(0, 200).map((v) => (
                    <option key={JSON.stringify(v)} value={attributeText(v)} />
                  ))}
                </datalist>
                {sortKeys.slice(0, form.sortEqual.length).map((key, i) => (
                  <div key={key.name} className="qb-held">
                    <KeyField
                      id={`${id}-sk-eq-${i}`}
                      testId={`qb-sk-eq-${i}`}
                      label={`${key.name} =`}
                      hint={TYPE_WORD[key.type]}
                      value={form.sortEqual[i] ?? ""}
                      onChange={(v) => setSortEqual(i, v)}
                      error={shown(`sortEqual.${i}`)}
                    />
                    <button type="button" className="qb-link" data-testid={`qb-sk-release-${i}`} onClick={() => releaseFrom(i)}>
                      Condition on {key.name}
                    </button>
                  </div>
                ))}
                {sortKey !== null && (
                  <label className="qb-field">
                    <span className="qb-label">{sortKey.name}</span>
                    <select
                      aria-label={`${sortKey.name} operator`}
                      data-testid="qb-sort-op"
                      value={form.sortOp}
                      onChange={(e) => set("sortOp", e.target.value as SortChoice)}
                    >
                      <option value="none">any</option>
                      {operators.map((op) => (
                        <option key={op} value={op}>
                          {op}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
                {sortKey !== null && form.sortOp !== "none" && (
                  <KeyField
                    id={`${id}-sk`}
                    testId="qb-sk"
                    label={form.sortOp === "BETWEEN" ? `${sortKey.name} from` : form.sortOp === "begins_with" ? `${sortKey.name} prefix` : `${sortKey.name} value`}
                    hint={TYPE_WORD[sortKey.type]}
                    value={form.sort}
                    onChange={(v) => set("sort", v)}
                    error={shown("sort")}
                    flaggedBy={flag("sort")}
                    wide
                  />
                )}
                {nextSortKey !== null && (
                  <button type="button" className="qb-link" data-testid="qb-sk-next" onClick={holdSortValue}>
                    Then a condition on {nextSortKey.name}
                  </button>
                )}
                {sortKey !== null && form.sortOp === "BETWEEN" && (
                  <KeyField
                    id={`${id}-sk-high`}
                    testId="qb-sk-high"
                    label={`${sortKey.name} to`}
                    hint={TYPE_WORD[sortKey.type]}
                    value={form.sortHigh}
                    onChange={(v) => set("sortHigh", v)}
                    error={shown("sortHigh")}
                    flaggedBy={flag("sortHigh")}
                    wide
                  />
                )}
          </>
        ) : (
          <span className="qb-note muted">A Scan reads every collection of {form.index ?? table.name}, 1 MB a page, and filters after reading.</span>
        )}
          </>
        )}
        {runButton}
        {cancelButton}
      </div>

      {/* Folded, the rest is hidden, not dropped: an editor's text mode and what it holds stay. */}
      <div className="qb-unfolded" hidden={folded}>
        <div className="qb-row qb-options">
          {form.operation === "Query" && (
            <label className="qb-field">
              <span className="qb-label">Order</span>
              <select aria-label="Order" value={form.direction} onChange={(e) => set("direction", e.target.value as typeof form.direction)}>
                <option value="ascending">Ascending (sort-key order)</option>
                <option value="descending">Descending (reverse sort-key order)</option>
              </select>
            </label>
          )}
          <KeyField
            id={`${id}-limit`}
            testId="qb-limit"
            label="Limit"
            hint="per page"
            value={form.limit}
            onChange={(v) => set("limit", v.trim())}
            error={shown("limit")}
          />
          <label className="qb-check">
            <input
              type="checkbox"
              data-testid="qb-consistent"
              checked={form.consistentRead && !global}
              disabled={global}
              aria-describedby={global ? `${id}-gsi-note` : undefined}
              onChange={(e) => set("consistentRead", e.target.checked)}
            />
            Strongly consistent
          </label>
          {global && (
            <span id={`${id}-gsi-note`} className="qb-note muted">
              A global secondary index supports only eventually consistent reads.
            </span>
          )}
          {form.operation === "Scan" && (
            <>
              <label className="qb-field">
                <span className="qb-label">Segments</span>
                <select
                  aria-label="Segments"
                  value={model.scanOptions.segments}
                  onChange={(e) => model.setScanOptions((o) => ({ ...o, segments: Number(e.target.value) }))}
                >
                  {[1, 2, 4, 8].map((n) => (
                    <option key={n} value={n}>
                      {n === 1 ? "1 (plain)" : `${n} (parallel)`}
                    </option>
                  ))}
                </select>
              </label>
              <KeyField
                id={`${id}-budget`}
                testId="qb-budget"
                label="Stop after"
                hint="RCU"
                ariaLabel="Capacity budget"
                inputMode="decimal"
                size={6}
                placeholder="no limit"
                value={model.scanOptions.budget}
                onChange={(v) => model.setScanOptions((o) => ({ ...o, budget: v }))}
                error={shown("budget")}
              />
            </>
          )}
          {!form.filter && (
            <button
              ref={addFilterRef}
              type="button"
              data-testid="qb-add-filter"
              // A first condition on an attribute that is not a key: a Query's filter may read no key
              // attribute of what it reads (rule B.4), and a Scan's filter rarely wants one.
              onClick={() => {
                const keys = keyNamesOf(schema);
                const first = attributes.find((s) => !keys.includes(s) && s !== pkName) ?? attributes[0] ?? "attribute";
                focusNext.current = "filter";
                set("filter", { type: "attributeExists", path: [first] });
              }}
            >
              Add filter
            </button>
          )}
          {!form.projection && (
            <button
              ref={addProjectionRef}
              type="button"
              data-testid="qb-add-projection"
              onClick={() => {
                focusNext.current = "projection";
                set("projection", { paths: attributes.slice(0, 2).map((s) => [s]) });
              }}
            >
              Choose attributes
            </button>
          )}
        </div>

        {(form.filter || form.projection) && (
          // The filter and projection editors share a bounded height and scroll inside it, so an
          // open editor never pushes the views under the bar out of the window.
          <div className="qb-expressions" data-testid="qb-expressions">
            {form.filter && (
              <div className="qb-expression" ref={filterRef}>
                <ExpressionEditor
                  label="Filter"
                  state={{ parameter: "FilterExpression", state: form.filter }}
                  onChange={(s) => s.parameter === "FilterExpression" && model.setExpression("filter", s.state)}
                  onEdit={model.edited}
                  onClear={() => clearExpression("filter")}
                  onTextIssue={(issue) => model.setTextIssue("filter", issue)}
                  suggestions={attributes}
                />
              </div>
            )}
            {form.projection && (
              <div className="qb-expression" ref={projectionRef}>
                <ExpressionEditor
                  label="Projection"
                  state={{ parameter: "ProjectionExpression", state: form.projection }}
                  onChange={(s) => s.parameter === "ProjectionExpression" && model.setExpression("projection", s.state)}
                  onEdit={model.edited}
                  onClear={() => clearExpression("projection")}
                  onTextIssue={(issue) => model.setTextIssue("projection", issue)}
                  suggestions={attributes}
                />
              </div>
            )}
          </div>
        )}

      </div>

      <div className="qb-status" aria-live="polite">
        {model.diagnostics.length > 0 && (
          <ul className="diagnostics" role="alert">
            {model.diagnostics.map((d, i) => (
              <li key={i}>
                <DiagnosticView
                  diagnostic={d}
                  text={
                    d.expression === "KeyConditionExpression"
                      ? (r?.keyConditionExpression ?? "")
                      : d.expression === "FilterExpression"
                        ? (r?.filterExpression ?? "")
                        : d.expression === "ProjectionExpression"
                          ? (r?.projectionExpression ?? "")
                          : ""
                  }
                />
              </li>
            ))}
          </ul>
        )}
        {model.checkError !== null && (
          <p className="field-error" role="alert">
            {model.checkError}
          </p>
        )}
        {blocker !== null && (
          <p id={blockerId} className="qb-note muted" data-testid="qb-run-blocked">
            Run is off until this is fixed: {blocker}
          </p>
        )}
        {blocker === null && model.queued && (
          <p id={queuedId} className="qb-note muted" data-testid="qb-run-queued">
            {model.textChecking ? "Runs once the text typed is read and the request checked" : "Runs once the request is checked"}; a change
            to the bar before then cancels it.
          </p>
        )}
        {runError !== null && explained !== null && (
          <div className="field-error qb-error" role="alert" data-testid="qb-error" id={errorId}>
            <p data-testid="qb-error-sentence">
              {run?.kind === "scan" ? "The Scan failed" : run?.pages.length ? "The next page could not be read" : "The Query failed"}:{" "}
              {explained.sentence}
            </p>
            <details>
              <summary>DynamoDB's message</summary>
              <code>{runError.exception ?? errorTitle(runError)}</code> {runError.message}
            </details>
          </div>
        )}
        {!folded && <RunSummary model={model} />}
      </div>

      <details className="qb-request" data-testid="qb-request" hidden={folded}>
        <summary>
          Request{r !== null ? `: ${r.operation} on ${r.indexName ?? r.tableName}` : ""}
          {r?.keyConditionExpression ? (
            <code className="qb-summary-expression" data-testid="qb-key-expression">
              {r.keyConditionExpression}
            </code>
          ) : null}
        </summary>
        {r === null ? (
          <p className="muted" data-testid="qb-request-missing">
            {model.request === null && !model.textChecking
              ? `The request cannot be built yet: ${Object.values(problems)[0] ?? "fill in the key values."}`
              : "Checking…"}
          </p>
        ) : (
          <div className="qb-generated">
            {r.keyConditionExpression && (
              <GeneratedView
                parameter="KeyConditionExpression"
                expression={r.keyConditionExpression}
                names={r.expressionAttributeNames ?? null}
                values={r.expressionAttributeValues ?? null}
              />
            )}
            {r.filterExpression && (
              <GeneratedView parameter="FilterExpression" expression={r.filterExpression} names={r.expressionAttributeNames ?? null} values={r.expressionAttributeValues ?? null} />
            )}
            {r.projectionExpression && (
              <GeneratedView
                parameter="ProjectionExpression"
                expression={r.projectionExpression}
                names={r.expressionAttributeNames ?? null}
                values={r.expressionAttributeValues ?? null}
              />
            )}
            <h4 id={`${id}-body-title`}>DynamoDB JSON</h4>
            {/* It scrolls past 16rem: focusable, so the keyboard can scroll it too. */}
            <pre className="qb-body" data-testid="qb-body" tabIndex={0} role="region" aria-labelledby={`${id}-body-title`}>
              {built?.body}
            </pre>
            {model.request !== null && <CodePanel request={model.request} />}
          </div>
        )}
      </details>
    </section>
  );
}

/** One line on what the last run read; when the bar has changed since, that it answers the previous request. */
function RunSummary({ model }: { model: QueryModel }) {
  const run = model.run;
  if (run === null) return null;
  const stale = model.stale && (run.kind === "scan" || run.pages.length > 0) ? (
    <p className="qb-stale" data-testid="qb-stale">
      Result of the previous request ({describeRequest(run.request)}) — Run to read{" "}
      {model.request === null ? "the new one once its fields are complete" : describeRequest(model.request)}.
    </p>
  ) : null;
  return (
    <>
      {stale}
      <RunFigures model={model} run={run} />
    </>
  );
}

function RunFigures({ model, run }: { model: QueryModel; run: NonNullable<QueryModel["run"]> }) {
  if (run.kind === "query") {
    const count = run.pages.reduce((n, p) => n + p.count, 0);
    const scanned = run.pages.reduce((n, p) => n + p.scannedCount, 0);
    const units = run.pages.reduce((n, p) => n + (p.consumedCapacity?.total ?? 0), 0);
    const last = run.pages.at(-1);
    if (last === undefined) return run.loading ? <p className="muted">Reading…</p> : null;
    return (
      <p className={`qb-summary${model.stale ? " qb-summary-stale" : ""}`} data-testid="qb-summary">
        {formatCount(count)} returned of {formatCount(scanned)} read · {run.pages.length} {run.pages.length === 1 ? "page" : "pages"} ·{" "}
        {formatUnits(units)} RCU
        {last.lastEvaluatedKey !== null && (
          <>
            {" "}
            ·{" "}
            <button
              type="button"
              className="link"
              onClick={model.loadMore}
              disabled={run.loading}
              aria-keyshortcuts="Control+J Meta+J"
              title={`The next page${model.stale ? ` of the previous request (${describeRequest(run.request)})` : ""} (${comboKeys(nextPageCombo).join("+")}, anywhere in the table's tab)`}
            >
              {model.stale ? "next page of the previous request" : "next page"}
            </button>
          </>
        )}
      </p>
    );
  }
  const totals = run.totals;
  const expected = totals?.expectedItems ?? 0;
  const fraction = totals === null || expected <= 0 ? 0 : Math.min(1, totals.scanned / expected);
  return (
    <div className={`qb-scan${model.stale ? " qb-summary-stale" : ""}`} data-testid="scan-progress">
      {/* Without a count to measure against (DescribeTable's lags on AWS), a running scan's bar only says it runs. */}
      <progress max={1} value={run.summary?.end === "completed" ? 1 : expected > 0 || !run.running ? fraction : undefined} aria-label="Scan progress" />
      <span>
        {expected > 0 ? (
          <>
            {formatCount(totals?.scanned ?? 0)} of about {formatCountOf(expected, "item")} read
          </>
        ) : (
          <>{formatCountOf(totals?.scanned ?? 0, "item")} read</>
        )}{" "}
        · {formatCount(totals?.items ?? 0)} returned ·{" "}
        {formatCountOf(totals?.pages ?? 0, "page")} · {formatUnits(totals?.capacityUnits ?? 0)} RCU
      </span>
      {run.summary !== null && (
        <span className="muted" data-testid="scan-summary">
          {run.summary.end === "completed" && " · the scan read every collection."}
          {run.summary.end === "cancelled" && " · cancelled: the scan stopped after its current page."}
          {run.summary.end === "budgetReached" && " · stopped: the capacity budget was used up."}
        </span>
      )}
    </div>
  );
}

/** The first field of an expression editor's form (its Visual or Text panel), to put the focus in. */
function firstField(editor: HTMLElement | null): HTMLElement | null {
  return editor?.querySelector<HTMLElement>('[role="tabpanel"] input, [role="tabpanel"] select, [role="tabpanel"] textarea') ?? null;
}

function KeyField(props: {
  id: string;
  testId: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  /** The id of a run's error that is about this field (the field is marked invalid, described by it). */
  flaggedBy?: string | undefined;
  list?: string | undefined;
  wide?: boolean;
  ariaLabel?: string;
  inputMode?: "decimal";
  size?: number;
  placeholder?: string;
}) {
  const errorId = `${props.id}-error`;
  return (
    <div className={`qb-field${props.wide ? " qb-wide" : ""}`}>
      <label className="qb-label" htmlFor={props.id}>
        {props.label} <span className="muted">({props.hint})</span>
      </label>
      <input
        id={props.id}
        data-testid={props.testId}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        list={props.list}
        aria-label={props.ariaLabel}
        inputMode={props.inputMode}
        size={props.size}
        placeholder={props.placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={props.error !== undefined || props.flaggedBy !== undefined}
        aria-describedby={props.error !== undefined ? errorId : props.flaggedBy}
      />
      {props.error !== undefined && (
        <span id={errorId} className="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}
