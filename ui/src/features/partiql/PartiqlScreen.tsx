/**
 * A connection's PartiQL tab: the statement editor, one typed input per `?`, the run mode (one
 * statement, a batch of up to 25 each answered on its own, a transaction of up to 100 all or
 * nothing), then the items with the capacity they cost — as item collections (dashed boxes by
 * partition key, in sort-key order) or as a flat grid —, "Next page" while DynamoDB gives a
 * NextToken, and the statements run before.
 */
import { useEffect, useState, type KeyboardEvent } from "react";
import type { Profile, TableCapacity } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { comboKeys, matchesShortcut, SHORTCUTS } from "../../app/shortcuts";
import { formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { ValueInput } from "../builder/ValueInput";
import { PartiqlEditor } from "./PartiqlEditor";
import { ResultCollections } from "./ResultCollections";
import { ResultsGrid } from "./ResultsGrid";
import { tablesIn } from "./completion";
import { isWrite, statementErrorSentence } from "./statements";
import { useCatalog } from "./useCatalog";
import { useSavedStatements } from "./useSavedStatements";
import { totalUnits, usePartiql } from "./usePartiql";
import type { RunMode } from "./history";
import { useTabList } from "../../shared/useTabList";
import "./partiql.css";

const MODES: { mode: RunMode; label: string; title: string }[] = [
  { mode: "statement", label: "Statement", title: "ExecuteStatement: one statement, page by page" },
  { mode: "batch", label: "Batch", title: "BatchExecuteStatement: up to 25 statements separated by ;, each answered on its own" },
  { mode: "transaction", label: "Transaction", title: "ExecuteTransaction: up to 100 statements separated by ;, all or nothing" },
];

/** Consumed capacity as one line: the total, then the table's and each index's share. */
export function capacityText(capacity: readonly TableCapacity[], writes: boolean): string {
  if (capacity.length === 0) return "no consumed capacity reported";
  const unit = writes ? "WCU" : "RCU";
  const parts = capacity.flatMap((c) => [
    ...(c.capacity.table !== null ? [`${c.table === "" ? "table" : c.table} ${formatUnits(c.capacity.table)}`] : []),
    ...c.capacity.indexes.map((i) => `${i.name} ${formatUnits(i.units)}`),
  ]);
  const total = `${formatUnits(totalUnits(capacity))} ${unit}`;
  return parts.length === 0 ? total : `${total} (${parts.join(", ")})`;
}

export function PartiqlScreen({ profile }: { profile: Profile }) {
  const p = usePartiql(profile.id);
  const catalog = useCatalog(profile.id, p.text);
  const firstTable = tablesIn(p.text)[0] ?? null;
  const writes = isWrite(p.text);
  const runKeys = comboKeys(SHORTCUTS.find((s) => s.id === "run-statement")?.combos[0] ?? { key: "Enter", mod: true }).join("+");
  const blockerId = `partiql-run-blocked-${profile.id}`;

  useEffect(() => {
    if (p.outcome.status === "ok") catalog.see(firstTable, p.outcome.items);
  }, [p.outcome]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // The editor handles the shortcut itself (and marks the event handled).
    if (!event.defaultPrevented && matchesShortcut("run-statement", event.nativeEvent)) {
      event.preventDefault();
      void p.run();
    }
  };

  return (
    <section className="partiql" aria-label={`PartiQL on ${profile.name}`} onKeyDown={onKeyDown} data-testid="partiql-screen">
      <header className="partiql-header">
        <h2>
          PartiQL <span className="muted">· {profile.name}</span>
        </h2>
        {profile.readOnly && (
          <span className="partiql-badge" title="INSERT, UPDATE and DELETE are refused on this connection">
            read-only
          </span>
        )}
      </header>
      <div className="partiql-toolbar">
        <span className="partiql-modes" role="radiogroup" aria-label="Run as">
          {MODES.map((m) => (
            <label key={m.mode} title={m.title}>
              <input type="radio" name={`partiql-mode-${profile.id}`} checked={p.mode === m.mode} onChange={() => p.setMode(m.mode)} />
              {m.label}
            </label>
          ))}
        </span>
        <label>
          <input type="checkbox" checked={p.consistentRead} onChange={(e) => p.setConsistentRead(e.target.checked)} />
          Consistent read
        </label>
        <label>
          Limit{" "}
          <input
            className="partiql-limit"
            aria-label="Limit"
            inputMode="numeric"
            placeholder="none"
            value={p.limit ?? ""}
            onChange={(e) => {
              const n = Number.parseInt(e.target.value, 10);
              p.setLimit(Number.isFinite(n) && n > 0 ? n : null);
            }}
          />
        </label>
        <button
          type="button"
          className="primary"
          onClick={() => void p.run()}
          disabled={p.outcome.status === "running" || p.blocker !== null}
          title={p.blocker ?? `Run (${runKeys})`}
          aria-describedby={p.blocker !== null ? blockerId : undefined}
        >
          Run <kbd>{runKeys}</kbd>
        </button>
      </div>
      <PartiqlEditor value={p.text} onChange={p.edit} onRun={() => void p.run()} completion={catalog.completion} marks={p.marks} />
      {p.parameterCount > 0 && (
        <fieldset className="partiql-parameters" aria-label="Parameters">
          <legend>Parameters</legend>
          {p.parameters.map((value, i) => (
            <label key={i} className="partiql-parameter">
              <span className="muted">? {i + 1}</span>
              <ValueInput
                label={`Parameter ${i + 1}`}
                value={value}
                onChange={(v) => p.setParameter(i, v)}
                onProblem={(problem) => p.setParameterProblem(i, problem)}
              />
            </label>
          ))}
        </fieldset>
      )}
      {p.blocker !== null && (
        // Said as an alert once a run was asked for: Ctrl+Enter never does nothing without a word.
        <p id={blockerId} className={`partiql-blocked${p.refused ? " field-error" : " muted"}`} role={p.refused ? "alert" : undefined} data-testid="partiql-run-blocked">
          {p.refused ? "Not run. " : ""}Run is off until this is fixed: {p.blocker}
        </p>
      )}
      <Outcome p={p} keys={catalog.keysOf(firstTable)} writes={writes} tables={catalog.tableNames} connection={profile.name} />
      <SavedStatements p={p} profileId={profile.id} />
      {p.history.length > 0 && (
        <details className="partiql-history">
          <summary>History ({p.history.length})</summary>
          <ol>
            {p.history.map((entry) => (
              <li key={`${entry.ranAt}-${entry.statement}`}>
                <button type="button" className="link" onClick={() => p.restore(entry)} title={new Date(entry.ranAt).toLocaleString()}>
                  <code>{entry.statement}</code>
                </button>
                {entry.mode !== "statement" && <span className="muted"> · {entry.mode}</span>}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

/** Save the statement on screen under a name; the saved ones, to load or delete. */
function SavedStatements({ p, profileId }: { p: ReturnType<typeof usePartiql>; profileId: string }) {
  const shelf = useSavedStatements(profileId);
  const [name, setName] = useState("");
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    const done = await shelf.save(name, { statement: p.text, parameters: p.parameters, mode: p.mode });
    setSaving(false);
    if (done) setName("");
  };
  return (
    <details className="partiql-history partiql-saved" data-testid="partiql-saved">
      <summary>Saved statements ({shelf.saved.length})</summary>
      <form
        className="partiql-save"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <input aria-label="Name of the statement to save" placeholder="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
        <button type="submit" disabled={saving || p.text.trim() === ""}>
          Save the statement
        </button>
      </form>
      {shelf.error !== null && (
        <p className="field-error" role="alert">
          {shelf.error}
        </p>
      )}
      {shelf.saved.length === 0 ? (
        <p className="muted">Nothing saved on this connection yet.</p>
      ) : (
        <ul>
          {shelf.saved.map((entry) => (
            <li key={entry.id}>
              <button
                type="button"
                className="link"
                onClick={() => p.restore({ ...entry.content, ranAt: entry.savedAt * 1000 })}
                title={entry.content.statement}
              >
                {entry.name}
              </button>
              {entry.content.mode !== "statement" && <span className="muted"> · {entry.content.mode}</span>}{" "}
              <code className="muted">{entry.content.statement}</code>{" "}
              <button type="button" className="link" aria-label={`Delete the saved statement ${entry.name}`} onClick={() => void shelf.remove(entry.id)}>
                delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}

type ResultView = "collections" | "items";

const RESULT_VIEWS: readonly (readonly [ResultView, string])[] = [
  ["collections", "Collections"],
  ["items", "Items"],
];

function Outcome({
  p,
  keys,
  writes,
  tables,
  connection,
}: {
  p: ReturnType<typeof usePartiql>;
  keys: string[];
  writes: boolean;
  /** The connection's table names, null while not known. */
  tables: readonly string[] | null;
  connection: string;
}) {
  const outcome = p.outcome;
  const [view, setView] = useState<ResultView>("collections");
  const viewTabs = useTabList(
    RESULT_VIEWS.map(([id]) => id),
    view,
    setView,
  );
  if (outcome.status === "idle") return <p className="muted partiql-hint">Type a statement, then run it. `?` takes a typed parameter.</p>;
  if (outcome.status === "running") return <p className="muted">Running…</p>;
  // What is on screen answers the statement run before, not the one in the editor: it says so.
  const stale = p.stale ? (
    <p className="partiql-stale" data-testid="partiql-stale">
      {outcome.status === "error" ? "Error of the previous run" : "Results of the previous run"}
      {p.ranText !== null && ` (${shorten(p.ranText)})`}, not of the statement and parameters in the editor: run it to see what they return.
    </p>
  ) : null;
  if (outcome.status === "error") {
    const ranText = p.ranText ?? p.text;
    const sentence = statementErrorSentence(outcome.error, ranText, tables, connection, tablesIn(ranText));
    return (
      <>
        {stale}
        <div className={`partiql-error${p.stale ? " partiql-result-stale" : ""}`} role="alert" data-testid="partiql-error">
          <strong>{outcome.error.exception ?? errorTitle(outcome.error)}</strong>
          {sentence !== null && <p data-testid="partiql-error-sentence">{sentence}</p>}
          <p>{outcome.error.message}</p>
          {p.errorAt !== null && (
            <p className="muted" data-testid="partiql-error-at">
              At line {p.errorAt.line}, column {p.errorAt.column} (marked in the editor).
            </p>
          )}
        </div>
      </>
    );
  }
  const count = outcome.items.length;
  return (
    <div className={`partiql-outcome${p.stale ? " partiql-result-stale" : ""}`}>
      {stale}
      <p className="partiql-summary" data-testid="partiql-summary">
        <span>
          {formatCountOf(count, "item")}
          {outcome.pages > 1 && ` in ${formatCount(outcome.pages)} pages`}
          {outcome.mode !== "statement" && ` from ${formatCountOf(outcome.statements, "statement")}`}
        </span>
        <span data-testid="partiql-capacity">Consumed capacity: {capacityText(outcome.capacity, writes)}</span>
        {outcome.nextToken !== null && (
          <button type="button" onClick={() => void p.nextPage()}>
            Next page
          </button>
        )}
      </p>
      {outcome.failures.length > 0 && (
        <ul className="partiql-failures" role="alert">
          {outcome.failures.map((f) => (
            <li key={f.index}>
              <strong>
                Statement {f.index + 1}: {f.code}
              </strong>{" "}
              {f.message}
            </li>
          ))}
        </ul>
      )}
      {count > 0 && (
        <>
          <div className="partiql-views" role="tablist" aria-label="Show the results as">
            {RESULT_VIEWS.map(([id, label]) => (
              <button key={id} type="button" {...viewTabs.tabProps(id)} className={view === id ? "primary" : undefined} data-testid={`partiql-view-${id}`}>
                {label}
              </button>
            ))}
          </div>
          {view === "collections" ? <ResultCollections items={outcome.items} keys={keys} /> : <ResultsGrid items={outcome.items} keys={keys} />}
        </>
      )}
    </div>
  );
}

/** A statement on one line, cut to a length a sentence can carry. */
function shorten(statement: string): string {
  const line = statement.replace(/\s+/g, " ").trim();
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}
