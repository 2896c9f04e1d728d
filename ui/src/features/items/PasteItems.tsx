/**
 * Paste items (issue 20, point 8): text in DynamoDB JSON or plain JSON, one item or several,
 * read exactly (`pasteItems.ts`), checked by the engine's item rules (`checkItem`), previewed with
 * each put's write cost including its index writes (`estimateWrite`, rule B.3), then put one by
 * one with progress, a cancel between puts, and each failure with its exception.
 *
 * The estimate is of a put that creates the item; where it replaces one the charge is on the
 * larger of the two images (rule B.3), so the figure is the least the put costs. By default a put
 * is conditional on the key being free (`attribute_not_exists`), so a paste never overwrites an
 * item silently; "Replace items that exist" drops the condition.
 *
 * Shown in a modal dialog (the Items view's): while puts run, Close is off and Escape is left
 * alone too (marked handled, so the dialog does not close on it).
 */
import { useRef, useState } from "react";
import { errorTitle, unwrap } from "../../ipc/result";
import type { KeySchema } from "../../ipc/bindings.gen";
import type { Item } from "../../shared/attributeValue";
import { formatUnits } from "../../shared/format";
import { byteCountLabel } from "../../shared/attributeValue";
import { describeKey } from "../../shared/itemKey";
import { readPastedItems } from "./pasteItems";
import { useCommands } from "../../ipc/CommandsContext";
import { matchesShortcut } from "../../app/shortcuts";

type Row = { item: Item; key: string; sizeBytes: number | null; units: number | null; indexWrites: number; problems: string[] };
type Failure = { key: string; name: string; message: string };

export type PasteItemsProps = {
  profileId: string;
  table: string;
  keys: KeySchema;
  readOnly: boolean;
  /** Called after a put run with the items written (to refresh the views). */
  onWritten: (items: Item[], units: number) => void;
  onClose: () => void;
};

export function PasteItems({ profileId, table, keys, readOnly, onWritten, onClose }: PasteItemsProps) {
  const source = useCommands();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [format, setFormat] = useState<string>("");
  const [replace, setReplace] = useState(false);
  const [checking, setChecking] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [report, setReport] = useState<string | null>(null);
  const cancelled = useRef(false);

  const check = async () => {
    setRows(null);
    setReport(null);
    setFailures([]);
    const read = readPastedItems(text, keys);
    if (!read.ok) {
      const where = read.item === null ? "" : `Item ${read.item + 1}: `;
      setProblem(where + read.problems.map((p) => p.message).join(" "));
      return;
    }
    setProblem(null);
    setFormat(read.format === "dynamo" ? "DynamoDB JSON" : "JSON");
    setChecking(true);
    const checked: Row[] = [];
    for (const item of read.items) {
      const [verdict, estimate] = await Promise.all([
        unwrap(source.checkItem(profileId, table, item)),
        unwrap(source.estimateWrite(profileId, table, { kind: "put", existing: null, newItem: item, mode: "single", conditionFails: false })),
      ]);
      const problems =
        verdict.status === "ok" ? verdict.data.problems.map((p) => (p.path === "" ? p.message : `${p.path}: ${p.message}`)) : verdict.status === "error" ? [verdict.error.message] : [];
      checked.push({
        item,
        key: describeKey(keys, item),
        sizeBytes: verdict.status === "ok" ? verdict.data.sizeBytes : null,
        units: estimate.status === "ok" ? estimate.data.cost.total : null,
        indexWrites: estimate.status === "ok" ? estimate.data.indexes.reduce((n, i) => n + i.writes, 0) : 0,
        problems,
      });
    }
    setChecking(false);
    setRows(checked);
  };

  const put = async () => {
    if (rows === null) return;
    cancelled.current = false;
    const failed: Failure[] = [];
    const written: Item[] = [];
    let units = 0;
    setProgress({ done: 0, total: rows.length });
    for (const [i, row] of rows.entries()) {
      if (cancelled.current) break;
      const result = await unwrap(source.putItem(profileId, table, row.item, replace ? { kind: "anything" } : { kind: "absent" }));
      if (result.status === "ok") {
        written.push(row.item);
        units += result.data.consumedCapacity?.total ?? 0;
      } else if (result.status === "error") {
        failed.push({ key: row.key, name: result.error.exception ?? errorTitle(result.error), message: result.error.message });
      }
      setProgress({ done: i + 1, total: rows.length });
    }
    setProgress(null);
    setFailures(failed);
    const skipped = rows.length - written.length - failed.length;
    setReport(
      `Put ${written.length} of ${rows.length} ${rows.length === 1 ? "item" : "items"}: ${formatUnits(units)} WCU consumed` +
        (failed.length > 0 ? `, ${failed.length} failed` : "") +
        (skipped > 0 ? `, ${skipped} not sent (cancelled)` : "") +
        ".",
    );
    if (written.length > 0) onWritten(written, units);
  };

  const blocked = rows === null || rows.some((r) => r.problems.length > 0);
  const total = rows?.reduce((n, r) => n + (r.units ?? 0), 0) ?? 0;
  return (
    <section
      className="paste-items"
      aria-label="Paste items"
      onKeyDown={(event) => {
        if (progress !== null && matchesShortcut("close-dialog", event.nativeEvent)) event.preventDefault();
      }}
    >
      <h3>Paste items into {table}</h3>
      <p className="muted">One item or a list, in DynamoDB JSON or plain JSON (also JSON Lines, or the CLI's {"{\"Items\": […]}"}).</p>
      <textarea
        aria-label="Pasted items"
        rows={10}
        spellCheck={false}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setRows(null);
        }}
      />
      <div className="paste-actions">
        <button type="button" onClick={() => void check()} disabled={checking || progress !== null}>
          {checking ? "Checking…" : "Check"}
        </button>
        <label>
          <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} /> Replace items that exist
        </label>
        <button type="button" onClick={onClose} disabled={progress !== null}>
          Close
        </button>
      </div>
      {problem !== null && (
        <p className="field-error" role="alert" data-testid="paste-problem">
          {problem}
        </p>
      )}
      {rows !== null && (
        <>
          <p data-testid="paste-summary">
            {rows.length} {rows.length === 1 ? "item" : "items"} read as {format}: at least {formatUnits(total)} WCU in all.
          </p>
          <table className="paste-preview" aria-label="Items to put">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Size</th>
                <th scope="col">WCU</th>
                <th scope="col">Index writes</th>
                <th scope="col">Problems</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i} data-testid="paste-row">
                  <td>{row.key}</td>
                  <td>{row.sizeBytes === null ? "—" : byteCountLabel(row.sizeBytes)}</td>
                  <td>{row.units === null ? "—" : formatUnits(row.units)}</td>
                  <td>{row.indexWrites}</td>
                  <td className={row.problems.length > 0 ? "field-error" : undefined}>{row.problems.join(" ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="paste-actions">
            <button type="button" className="primary" disabled={readOnly || blocked || progress !== null} onClick={() => void put()}>
              Put {rows.length} {rows.length === 1 ? "item" : "items"}
            </button>
            {progress !== null && (
              <>
                <span role="status">
                  {progress.done} of {progress.total}…
                </span>
                <button type="button" onClick={() => (cancelled.current = true)}>
                  Cancel
                </button>
              </>
            )}
            {readOnly && <span className="muted">This connection is read-only.</span>}
          </div>
        </>
      )}
      {report !== null && (
        <p role="status" data-testid="paste-report">
          {report}
        </p>
      )}
      {failures.length > 0 && (
        <ul className="paste-failures" aria-label="Failed puts">
          {failures.map((f, i) => (
            <li key={i}>
              {f.key}: <code>{f.name}</code> {f.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
