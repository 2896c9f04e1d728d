/**
 * The data modeler (issue 21): a key schema sketched in a form or as JSON (two views of one
 * model) — tables, entity types with key templates, access patterns — and, live while it is edited, the collections its sample data
 * forms on the table and every index (dashed boxes with their sizes), each pattern's Query with
 * its cost (a Scan flagged, with the GSI that would serve it), the largest collection's growth
 * against the LSI 10 GB limit, and the partition map. Exports, NoSQL Workbench import, and
 * applying the model to the embedded engine sit below. "From a table…" infers a model from a
 * live table (`FromTable`).
 */
import { useState } from "react";
import type { ModelExportFormat, PartitionMap, ReadRequest, Resolution, TargetCollections } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatBytes, formatCountOf, formatUnits } from "../../shared/format";
import { ApplyToConnection } from "./ApplyToConnection";
import { ConfirmInline } from "./ConfirmInline";
import { FromTable } from "./FromTable";
import { ModelForm } from "./form/ModelForm";
import { useModeler } from "./useModeler";
import { useTabList } from "../../shared/useTabList";
import { ARRIVAL } from "../../shared/arrival";
import "./modeler.css";

const FORMATS: { format: ModelExportFormat; label: string }[] = [
  { format: "createTable", label: "CreateTable JSON" },
  { format: "cloudFormation", label: "CloudFormation" },
  { format: "cdk", label: "AWS CDK (TypeScript)" },
  { format: "terraform", label: "Terraform" },
  { format: "workbench", label: "NoSQL Workbench" },
];

/** How many boxes a table or index shows before "and N more". */
const SHOWN_BOXES = 12;

const keyText = (key: unknown) => {
  const value = Object.values(key as Record<string, unknown>)[0];
  return typeof value === "string" ? value : JSON.stringify(value);
};

function Collections({ target }: { target: TargetCollections }) {
  const title = target.target.index ? `${target.target.table} · ${target.target.index}` : target.target.table;
  return (
    <section className="modeler-target" data-testid={`modeler-target-${target.target.index ?? "table"}`}>
      <h4>
        {title} <span className="muted">({target.kind})</span>
        <span className="muted">
          {" "}
          {formatCountOf(target.items, "item")} · {formatBytes(target.bytes)} · {formatCountOf(target.collections.length, "collection")}
        </span>
      </h4>
      <div className="modeler-boxes">
        {target.collections.slice(0, SHOWN_BOXES).map((c) => (
          <div className="modeler-box" key={JSON.stringify(c.key)} data-testid="modeler-box" title={Object.entries(c.entities).map(([e, n]) => `${e}: ${n}`).join(", ")}>
            <strong>{keyText(c.key)}</strong>
            <span>
              {formatCountOf(c.items, "item")} · {formatBytes(c.bytes)}
            </span>
          </div>
        ))}
        {target.collections.length > SHOWN_BOXES && <span className="muted">and {target.collections.length - SHOWN_BOXES} more</span>}
      </div>
    </section>
  );
}

function Pattern({ r, onTake, onRun, applied }: { r: Resolution; onTake: () => void; onRun: (() => void) | undefined; applied: boolean }) {
  const where = r.target.index ? `${r.target.table} · ${r.target.index}` : r.target.table;
  return (
    <li className={r.operation === "Scan" ? "modeler-pattern modeler-scan" : "modeler-pattern"} data-testid="modeler-pattern">
      <div>
        <strong>{r.pattern}</strong>
        {r.operation === "Scan" && <span className="modeler-flag">Scan</span>}
      </div>
      <div className="muted">
        {r.operation} on {where}
        {r.keyCondition !== null && (
          <>
            {" "}
            · <code>{r.keyCondition}</code>
          </>
        )}
      </div>
      <div>
        {formatUnits(r.readUnitsPerCall)} RCU a call ({formatCountOf(r.itemsRead, "item")}, {formatBytes(r.bytesRead)}) ·{" "}
        {r.costPerMonth.toFixed(2)} {r.currency} a month
      </div>
      {onRun !== undefined && (
        <div>
          <button
            type="button"
            onClick={onRun}
            data-testid="modeler-run-pattern"
            title={applied ? undefined : "The model's tables must be on the embedded engine: apply the model first (below)."}
          >
            Run on the embedded engine
          </button>{" "}
          <span className="muted">opens {r.target.table} with this {r.operation} in its query bar, and the box it reads highlighted</span>
        </div>
      )}
      {r.notes.map((n) => (
        <div className="muted" key={n}>
          {n}
        </div>
      ))}
      {r.suggestion !== null && (
        <div className="modeler-suggestion">
          Suggested GSI <strong>{r.suggestion.index.name}</strong>: {r.suggestion.index.partitionKey.name}
          {r.suggestion.index.sortKey ? ` / ${r.suggestion.index.sortKey.name}` : ""}, projection {r.suggestion.index.projection?.type ?? "all"}; adds{" "}
          {formatUnits(r.suggestion.writeUnitsPerWrite)} WCU to every {r.suggestion.entity} write ({r.suggestion.writeCostPerMonth.toFixed(2)}{" "}
          {r.suggestion.currency} a month).{" "}
          <button type="button" onClick={onTake} data-testid="modeler-take-suggestion">
            Take it
          </button>
        </div>
      )}
    </li>
  );
}

function Partitions({ map }: { map: PartitionMap }) {
  return (
    <section className="modeler-partitions" data-testid="modeler-partitions">
      <h4>
        {map.table}: {map.partitions.length} partitions <span className="muted">(estimated {map.estimated}: {map.bySize} by size, {map.byThroughput} by throughput; {map.splits} splits)</span>
      </h4>
      <div className="modeler-ring">
        {map.partitions.map((p) => (
          <div
            key={p.start}
            className={p.hot ? "modeler-partition hot" : "modeler-partition"}
            title={`${p.start}..${p.end}: ${p.collections.length} collections, ${formatBytes(p.bytes)}, ${formatUnits(p.readUnits)} RCU, ${formatUnits(p.writeUnits)} WCU`}
          >
            <div className="modeler-load" style={{ height: `${Math.min(100, p.load * 100)}%` }} />
            <span>{p.collections.length}</span>
          </div>
        ))}
      </div>
      {map.hotKeys.length > 0 && <p className="modeler-warning">Hot keys (alone on a partition they overload): {map.hotKeys.map(keyText).join(", ")}</p>}
      {map.notes.map((n) => (
        <p className="muted" key={n}>
          {n}
        </p>
      ))}
    </section>
  );
}

type TextClipboard = Pick<Clipboard, "writeText">;

/**
 * An export as text, with a Copy button (the web clipboard, as the Code view copies). There is no
 * Save: the backend writes a chosen file only for an export of items.
 */
function ExportedText({ label, text, clipboard }: { label: string; text: string; clipboard: TextClipboard | undefined }) {
  const [said, setSaid] = useState("");
  const copy = async () => {
    if (clipboard === undefined) return;
    try {
      await clipboard.writeText(text);
      setSaid(`Copied the ${label} export.`);
    } catch {
      setSaid("The clipboard refused the copy.");
    }
  };
  return (
    <>
      <div className="modeler-controls">
        <button type="button" onClick={() => void copy()} disabled={clipboard === undefined} data-testid="modeler-export-copy">
          Copy
        </button>
        <span className="muted" role="status" data-testid="modeler-export-copied">
          {clipboard === undefined ? "This window has no clipboard access." : said}
        </span>
      </div>
      <pre className="modeler-export" data-testid="modeler-export">
        {text}
      </pre>
    </>
  );
}

export function ModelerScreen({
  onRunPattern,
  onApplied,
  clipboard = typeof navigator !== "undefined" ? navigator.clipboard : undefined,
}: {
  /** Where an export is copied to (tests give their own). */
  clipboard?: TextClipboard | undefined;
  /** Heard once the model's tables are created, so the connection lists show them. */
  onApplied?: (() => void) | undefined;
  /** Runs a pattern's request on the embedded engine (its table's tab, the query bar). */
  onRunPattern?: ((read: ReadRequest) => void) | undefined;
}) {
  const m = useModeler(onApplied);
  const [workbench, setWorkbench] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [view, setView] = useState<"form" | "json">("form");
  const viewTabs = useTabList(["form", "json"] as const, view, setView);
  const [fromTable, setFromTable] = useState(false);
  const a = m.analysis;
  // What is drawn: the answer for the model as it is, or, while it has a problem (or the backend
  // failed), the last one that had none, dimmed and out of reach of the pointer and the keyboard.
  const problem = a.status === "ok" ? a.data.problem : null;
  const stale = problem !== null || a.status === "error";
  const picture = m.picture;
  const number = (text: string, fallback: number) => (Number.isFinite(Number(text)) && text !== "" ? Number(text) : fallback);
  return (
    <div className="modeler">
      <div className="modeler-editor">
        <div className="modeler-controls">
          <button type="button" onClick={m.newModel} data-testid="modeler-new">
            New model
          </button>
          <button type="button" onClick={m.starterModel} data-testid="modeler-starter">
            Telemetry starter
          </button>
          <button type="button" onClick={() => setFromTable((o) => !o)} aria-expanded={fromTable} data-testid="modeler-from-table-open">
            From a table…
          </button>
          <span className="modeler-views" role="tablist" aria-label="Model editor">
            {(["form", "json"] as const).map((v) => (
              <button
                key={v}
                type="button"
                {...viewTabs.tabProps(v)}
                id={`modeler-view-${v}`}
                aria-controls="modeler-view-panel"
                className={view === v ? "selected" : undefined}
                data-testid={`modeler-view-${v}`}
              >
                {v === "form" ? "Form" : "JSON"}
              </button>
            ))}
          </span>
        </div>
        {fromTable && <FromTable edited={m.edited} onInferred={m.loadModel} />}
        {!m.parsed.ok && (
          <p className="modeler-error" data-testid="modeler-parse-error">
            {m.parsed.message}
            {view === "form" ? " The form shows the last valid model; a change made in it replaces the text." : ""}
          </p>
        )}
        <div className="modeler-view" id="modeler-view-panel" role="tabpanel" aria-labelledby={`modeler-view-${view}`}>
          {view === "form" ? (
            <ModelForm model={m.model} problem={a.status === "ok" ? a.data.problem : null} onChange={m.setModel} />
          ) : (
            <>
              <label htmlFor="modeler-model">Model (JSON)</label>
              <textarea id="modeler-model" data-testid="modeler-model" {...ARRIVAL} spellCheck={false} value={m.text} onChange={(e) => m.setText(e.target.value)} />
            </>
          )}
        </div>
        {m.actionError !== null && (
          <p className="modeler-error">
            {errorTitle(m.actionError.code)}: {m.actionError.message}
          </p>
        )}
      </div>
      <div className="modeler-results" aria-live="polite">
        <div className="modeler-controls modeler-traffic" role="group" aria-label="Sample data and traffic" data-testid="modeler-traffic">
          <label>
            Seed <input type="number" value={m.seed} onChange={(e) => m.setSeed(number(e.target.value, 7))} />
          </label>
          <label>
            RCU/s <input type="number" data-testid="modeler-rcu" value={m.traffic.readUnitsPerSecond} onChange={(e) => m.setTraffic({ ...m.traffic, readUnitsPerSecond: number(e.target.value, 0) })} />
          </label>
          <label>
            WCU/s <input type="number" value={m.traffic.writeUnitsPerSecond} onChange={(e) => m.setTraffic({ ...m.traffic, writeUnitsPerSecond: number(e.target.value, 0) })} />
          </label>
          <label>
            Spread{" "}
            <select value={m.traffic.spread ?? "byItems"} onChange={(e) => m.setTraffic({ ...m.traffic, spread: e.target.value as "byItems" | "uniform" })}>
              <option value="byItems">by items (skew follows the data)</option>
              <option value="uniform">evenly</option>
            </select>
          </label>
        </div>
        {a.status === "loading" && picture === null && <p className="muted">Analysing…</p>}
        {a.status === "error" && (
          <p className="modeler-error" role="alert">
            {errorTitle(a.error.code)}: {a.error.message}
          </p>
        )}
        {problem !== null && (
          <p className="modeler-error" data-testid="modeler-problem">
            {problem.exception ? `${problem.exception}: ` : ""}
            {problem.message}
          </p>
        )}
        {stale && picture !== null && (
          <p className="muted" data-testid="modeler-stale-note">
            Below, dimmed: the last version of the model that could be drawn. It comes back to life once the problem is fixed.
          </p>
        )}
        {picture !== null && (
          <div className={stale ? "modeler-picture modeler-stale" : "modeler-picture"} data-testid="modeler-picture" inert={stale}>
            {picture.collections.length === 0 && (
              <p className="muted" data-testid="modeler-empty-hint">
                Start with a table and its keys, then an entity type whose key templates fill them: the collections its sample items form appear
                here, then each access pattern's Query and cost, and the partition map.
              </p>
            )}
            <h3>Collections</h3>
            {picture.collections.map((t) => (
              <Collections key={`${t.target.table}/${t.target.index ?? ""}`} target={t} />
            ))}
            {picture.growth.map((g) => (
              <p key={g.table} className={g.daysToLimit !== null ? "modeler-warning" : "muted"} data-testid="modeler-growth">
                {keyText(g.key)} in {g.table} grows {formatBytes(g.bytesPerDay)} a day
                {g.steadyBytes !== null ? `, levelling at ${formatBytes(g.steadyBytes)}` : ""}
                {g.limitBytes !== null ? (g.daysToLimit !== null ? `: it passes the LSI 10 GB limit in ${g.daysToLimit} days` : ": within the LSI 10 GB limit") : ""}.
              </p>
            ))}
            <h3>Access patterns</h3>
            <ul className="modeler-patterns">
              {picture.patterns.map((r) => (
                <Pattern
                  key={r.pattern}
                  r={r}
                  onTake={() => r.suggestion !== null && void m.takeSuggestion(r.suggestion)}
                  onRun={onRunPattern === undefined ? undefined : () => onRunPattern(r.read)}
                  applied={m.applied?.status === "ok"}
                />
              ))}
            </ul>
            <h3>Partition map</h3>
            {picture.partitions.map((p) => (
              <Partitions key={p.table} map={p} />
            ))}
          </div>
        )}
        <h3>Export</h3>
        <div className="modeler-controls">
          {FORMATS.map((f) => (
            <button type="button" key={f.format} onClick={() => void m.exportAs(f.format)} disabled={!m.parsed.ok}>
              {f.label}
            </button>
          ))}
        </div>
        {m.exported !== null && m.exported.result.status === "ok" && (
          <ExportedText
            key={`${m.exported.format}/${m.exported.result.data.length}`}
            label={FORMATS.find((f) => f.format === m.exported!.format)?.label ?? m.exported.format}
            text={m.exported.result.data}
            clipboard={clipboard}
          />
        )}
        {m.exported !== null && m.exported.result.status === "error" && <p className="modeler-error">{m.exported.result.error.message}</p>}
        <h3>Import a NoSQL Workbench model</h3>
        <textarea className="modeler-import" aria-label="NoSQL Workbench model JSON" value={workbench} onChange={(e) => setWorkbench(e.target.value)} />
        <button type="button" onClick={() => void m.importWorkbench(workbench)} disabled={workbench.trim() === ""}>
          Import
        </button>
        <h3>Apply to the embedded engine</h3>
        {!confirming ? (
          <button type="button" onClick={() => setConfirming(true)} disabled={!m.parsed.ok} data-testid="modeler-apply">
            Create the tables and the sample data…
          </button>
        ) : (
          <ConfirmInline
            action="Create"
            testId="modeler-apply-confirm"
            onConfirm={() => {
              setConfirming(false);
              void m.apply();
            }}
            onCancel={() => setConfirming(false)}
          >
            Create {m.parsed.ok ? m.parsed.model.tables.map((t) => t.name).join(", ") : ""} in the embedded engine?
          </ConfirmInline>
        )}
        {m.applied?.status === "ok" && (
          <p data-testid="modeler-applied">
            Created {m.applied.data.tables.join(", ")} with {formatCountOf(m.applied.data.items, "item")}.
          </p>
        )}
        {m.applied?.status === "error" && (
          <p className="modeler-error">
            {errorTitle(m.applied.error.code)}: {m.applied.error.message}
          </p>
        )}
        <h3>Apply to a connection (AWS or an endpoint)</h3>
        <ApplyToConnection model={m.parsed.ok ? m.parsed.model : null} onApplied={onApplied} />
      </div>
    </div>
  );
}
