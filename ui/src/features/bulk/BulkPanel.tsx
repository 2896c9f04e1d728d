/**
 * Staged bulk edits (issue 20, point 7) on the items the Items view read (a Query's pages or a
 * Scan's): stage a SET/REMOVE update or a delete, try it dry (each item's change and write cost,
 * index writes included — computed in Rust, `bulk.rs`), commit it in batches or all or nothing
 * (transactions of 100) with progress and cancel, read the failures with their exceptions, and
 * undo the last commit. A read-only connection is refused by the backend; here its controls are
 * disabled too.
 */
import { useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { BulkMode, BulkPlan, BulkProgress, BulkReport } from "../../ipc/bindings.gen";
import { errorTitle, unwrap } from "../../ipc/result";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { describeKey } from "../../shared/itemKey";
import { formatUnits } from "../../shared/format";
import { stagedEdit, type SetRow, type SetType, type StagedForm } from "./stagedEdit";
import { useCommands, type Commands } from "../../ipc/CommandsContext";

export type BulkChannelFactory = (onMessage: (progress: BulkProgress) => void) => Channel<BulkProgress>;

const tauriChannel: BulkChannelFactory = (onMessage) => {
  const channel = new Channel<BulkProgress>();
  channel.onmessage = onMessage;
  return channel;
};

let bulkCounter = 0;

export type BulkPanelProps = {
  profileId: string;
  table: string;
  keys: KeySchema;
  /** The items the edit is for. */
  items: Item[];
  /** Whether they are every item read or the ones checked in the grid. */
  scope?: "read" | "checked";
  readOnly: boolean;
  makeChannel?: BulkChannelFactory | undefined;
  /** Something was written (the views re-read). */
  onWritten?: () => void;
};

const SET_TYPES: SetType[] = ["S", "N", "BOOL", "NULL", "JSON"];

export function BulkPanel({ profileId, table, keys, items, scope = "read", readOnly, makeChannel = tauriChannel, onWritten = () => {} }: BulkPanelProps) {
  const source = useCommands();
  const [kind, setKind] = useState<"update" | "delete">("update");
  const [rows, setRows] = useState<SetRow[]>([{ name: "", type: "S", text: "" }]);
  const [remove, setRemove] = useState("");
  const [allOrNothing, setAllOrNothing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The dry run, and the items it was of: the commit sends exactly those.
  const [plan, setPlan] = useState<{ plan: BulkPlan; items: Item[] } | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [progress, setProgress] = useState<BulkProgress | null>(null);
  const [report, setReport] = useState<{ verb: string; report: BulkReport } | null>(null);
  const [undoable, setUndoable] = useState(0);

  const form: StagedForm = kind === "delete" ? { kind } : { kind, set: rows, remove };
  const mode: BulkMode = allOrNothing ? "allOrNothing" : "batches";
  const stale = () => setPlan(null);

  const dryRun = async () => {
    setReport(null);
    const staged = stagedEdit(form);
    if (!staged.ok) {
      setProblem(staged.problem);
      return;
    }
    const result = await unwrap(source.bulkDryRun(profileId, table, items, staged.edit, mode));
    if (result.status === "error") {
      setProblem(`${result.error.exception ?? errorTitle(result.error)}: ${result.error.message}`);
      return;
    }
    if (result.status !== "ok") return;
    setProblem(null);
    setPlan({ plan: result.data, items });
  };

  const run = async (verb: string, call: (id: string, channel: Channel<BulkProgress>) => ReturnType<Commands["bulkUndo"]>) => {
    const id = `bulk-${Date.now()}-${++bulkCounter}`;
    setRunning(id);
    setProgress(null);
    const result = await unwrap(call(id, makeChannel(setProgress)));
    setRunning(null);
    if (result.status === "error") {
      setProblem(`${result.error.exception ?? errorTitle(result.error)}: ${result.error.message}`);
      return;
    }
    if (result.status !== "ok") return;
    setReport({ verb, report: result.data });
    setUndoable(result.data.undoable);
    if (result.data.written > 0) onWritten();
  };

  const commit = () => {
    const staged = stagedEdit(form);
    if (!staged.ok || plan === null) return;
    const planned = plan.items;
    setPlan(null);
    void run("Committed", (id, channel) => source.bulkCommit(profileId, table, id, planned, staged.edit, mode, channel));
  };
  const undo = () => void run("Undone", (id, channel) => source.bulkUndo(profileId, table, id, channel));

  return (
    <section className="bulk-panel" aria-label="Bulk edit">
      <h3>
        Bulk edit of the {items.length} {items.length === 1 ? "item" : "items"} {scope}
      </h3>
      <p className="muted">
        {scope === "read" ? "Check items in the grid (click the box, or Space on a row) to edit only those." : "Uncheck them all to edit every item read."}
      </p>
      <div role="radiogroup" aria-label="Change">
        <label>
          <input type="radio" checked={kind === "update"} onChange={() => (setKind("update"), stale())} /> Update (SET / REMOVE)
        </label>
        <label>
          <input type="radio" checked={kind === "delete"} onChange={() => (setKind("delete"), stale())} /> Delete
        </label>
      </div>
      {kind === "update" && (
        <div className="bulk-form">
          {rows.map((row, i) => (
            <div key={i} className="bulk-set-row">
              SET{" "}
              <input
                aria-label={`SET attribute ${i + 1}`}
                value={row.name}
                onChange={(e) => (setRows(rows.map((r, j) => (j === i ? { ...r, name: e.target.value } : r))), stale())}
              />
              <select
                aria-label={`Type of SET attribute ${i + 1}`}
                value={row.type}
                onChange={(e) => (setRows(rows.map((r, j) => (j === i ? { ...r, type: e.target.value as SetType } : r))), stale())}
              >
                {SET_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t === "JSON" ? "DynamoDB JSON" : t}
                  </option>
                ))}
              </select>
              ={" "}
              <input
                aria-label={`Value of SET attribute ${i + 1}`}
                value={row.text}
                disabled={row.type === "NULL"}
                onChange={(e) => (setRows(rows.map((r, j) => (j === i ? { ...r, text: e.target.value } : r))), stale())}
              />
            </div>
          ))}
          <button type="button" onClick={() => setRows([...rows, { name: "", type: "S", text: "" }])}>
            Add a SET
          </button>
          <label>
            REMOVE <input aria-label="REMOVE attributes" placeholder="name, name" value={remove} onChange={(e) => (setRemove(e.target.value), stale())} />
          </label>
        </div>
      )}
      <label>
        <input type="checkbox" checked={allOrNothing} onChange={(e) => (setAllOrNothing(e.target.checked), stale())} /> All or nothing
        (TransactWriteItems, 100 items a transaction)
      </label>
      <div className="item-actions">
        <button type="button" disabled={items.length === 0 || running !== null} onClick={() => void dryRun()}>
          Dry run
        </button>
        <button type="button" className="primary" disabled={readOnly || plan === null || running !== null} onClick={commit}>
          Commit
        </button>
        <button type="button" disabled={readOnly || undoable === 0 || running !== null} onClick={undo}>
          Undo the last commit
        </button>
        {running !== null && (
          <>
            <span role="status" data-testid="bulk-progress">
              {progress === null ? "Starting…" : `${progress.done} of ${progress.total}…`}
            </span>
            <button type="button" onClick={() => void source.cancelOperation(running)}>
              Cancel
            </button>
          </>
        )}
        {readOnly && <span className="muted">This connection is read-only.</span>}
      </div>
      {problem !== null && (
        <p className="field-error" role="alert" data-testid="bulk-problem">
          {problem}
        </p>
      )}
      {plan !== null && (
        <PlanTable plan={plan.plan} keys={keys} />
      )}
      {report !== null && (
        <>
          <p role="status" data-testid="bulk-report">
            {report.verb}: {report.report.written} of {report.report.total} written, {formatUnits(report.report.consumedUnits)} WCU consumed
            {report.report.failures.length > 0 ? `, ${report.report.failures.length} failed` : ""}
            {report.report.cancelled ? ", cancelled" : ""}.
          </p>
          {report.report.failures.length > 0 && (
            <ul aria-label="Failures">
              {report.report.failures.map((f, i) => (
                <li key={i}>
                  {describeKey(keys, f.key)}: <code>{f.exception}</code> {f.message}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** The dry run: each item's change and its write units, index writes by index. */
function PlanTable({ plan, keys }: { plan: BulkPlan; keys: KeySchema }) {
  return (
    <>
      <p data-testid="bulk-plan-summary">
        {plan.changes.length} {plan.changes.length === 1 ? "change" : "changes"} in {plan.requests}{" "}
        {plan.requests === 1 ? "request" : "requests"}: {formatUnits(plan.totalUnits)} WCU, index writes included.
      </p>
      <table className="bulk-plan" aria-label="Changes of the dry run">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Changes</th>
            <th scope="col">WCU</th>
            <th scope="col">Index writes</th>
          </tr>
        </thead>
        <tbody>
          {plan.changes.map((change, i) => (
            <tr key={i} data-testid="bulk-change">
              <td>{describeKey(keys, change.key)}</td>
              <td>{change.after === null ? "deleted" : change.changed.join(", ") || "no change"}</td>
              <td>{formatUnits(change.estimate.cost.total)}</td>
              <td>{change.estimate.indexes.map((x) => `${x.name}: ${x.writes}`).join(", ") || "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
