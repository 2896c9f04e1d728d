/**
 * What saving the item editor's item will cost (rule B.3, computed in Rust): the table's units
 * from the item before and after, each index's 0, 1 or 2 writes sized on the entry, and how the
 * figure changes sent transactionally, in a batch, or when the write's condition fails. Given the
 * ConsumedCapacity the write then reported, the estimate and the report side by side.
 */
import { useState } from "react";
import type { ConsumedCapacity, WriteEstimate as WriteEstimateData, WriteEstimateInput, WriteKindInput, WriteModeInput } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatBytes } from "../../shared/format";
import { Explanation, unitsText } from "./Explanation";
import { ReconciliationTable } from "./EstimatePanel";
import { useWriteEstimate } from "./useWriteEstimate";
import "./WriteEstimate.css";

export type WriteEstimateProps = {
  profileId: string;
  table: string;
  /** The write as the editor has it (`mode` and `conditionFails` are the panel's own choices). */
  write: Pick<WriteEstimateInput, "kind" | "existing" | "newItem"> | null;
  /** What the write reported once it ran. */
  actual?: ConsumedCapacity | null;
};

const MODES: { mode: WriteModeInput; label: string }[] = [
  { mode: "single", label: "Single request" },
  { mode: "transactional", label: "In a transaction" },
  { mode: "batch", label: "In a batch" },
];

export function WriteEstimate({ profileId, table, write, actual = null }: WriteEstimateProps) {
  const [mode, setMode] = useState<WriteModeInput>("single");
  const [conditionFails, setConditionFails] = useState(false);
  // A batch has no updates: the choice falls back to a single request.
  const effectiveMode: WriteModeInput = write?.kind === "update" && mode === "batch" ? "single" : mode;

  const { estimate, reconciled } = useWriteEstimate(profileId, table, write, effectiveMode, conditionFails, actual);

  if (write === null) return null;
  return (
    <section className="write-estimate" aria-label="Write cost">
      <div className="write-estimate-options">
        <label>
          Sent as{" "}
          <select value={effectiveMode} onChange={(e) => setMode(e.target.value as WriteModeInput)}>
            {MODES.filter((m) => !(m.mode === "batch" && write.kind === "update")).map((m) => (
              <option key={m.mode} value={m.mode}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={conditionFails} onChange={(e) => setConditionFails(e.target.checked)} /> If its
          condition fails
        </label>
      </div>
      {estimate === null || estimate.status === "loading" ? (
        <p className="muted" role="status">
          Estimating…
        </p>
      ) : estimate.status === "error" ? (
        <p className="field-error" role="alert">
          {errorTitle(estimate.error)}: {estimate.error.message}
        </p>
      ) : (
        <WriteFigures estimate={estimate.data} kind={write.kind} />
      )}
      {reconciled?.status === "ok" && <ReconciliationTable reconciliation={reconciled.data} />}
      {reconciled?.status === "error" && (
        <p className="field-error" role="alert">
          {errorTitle(reconciled.error)}: {reconciled.error.message}
        </p>
      )}
    </section>
  );
}

/** An index entry's size, or that the item has none in the index. */
function entryText(bytes: number | null): string {
  return bytes === null ? "no entry" : formatBytes(bytes);
}

/**
 * The table's part of a write in words: its units and the item they are for, sized as the write
 * is charged (rule B.3: a put or update on the larger of the item before and after, a delete on
 * the item deleted). "2 WCU on the table, for a new item of 1.6 KB".
 */
function tablePart(kind: WriteKindInput, units: string, before: number | null, after: number | null): string {
  const was = before === null ? null : formatBytes(before);
  const will = after === null ? null : formatBytes(after);
  const item =
    kind === "delete"
      ? was === null
        ? null
        : `deleting an item of ${was}`
      : was === null
        ? will === null
          ? null
          : `a new item of ${will}`
        : will === null
          ? `an item of ${was}`
          : kind === "update"
            ? `an item of ${was} that becomes ${will}`
            : `an item of ${was} replaced by one of ${will}`;
  return item === null ? `${units} WCU on the table` : `${units} WCU on the table, for ${item}`;
}

function WriteFigures({ estimate, kind }: { estimate: WriteEstimateData; kind: WriteKindInput }) {
  return (
    <div>
      <p className="write-estimate-total">
        <strong data-testid="write-total">{unitsText(estimate.cost.total, estimate.cost.exact)} WCU</strong>
        <span className="muted" data-testid="write-table">
          {" "}
          · {tablePart(kind, unitsText(estimate.tableUnits), estimate.beforeBytes, estimate.afterBytes)}
        </span>
      </p>
      {estimate.indexes.length > 0 && (
        <table className="estimate-table">
          <thead>
            <tr>
              <th scope="col">Index</th>
              <th scope="col">Writes</th>
              <th scope="col">Entry before → after</th>
              <th scope="col">WCU</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {estimate.indexes.map((index) => (
              <tr key={index.name} data-testid={`index-write-${index.name}`}>
                <th scope="row">
                  {index.name} <span className="muted">{index.kind === "global" ? "GSI" : "LSI"}</span>
                </th>
                <td>{index.writes}</td>
                <td>
                  {entryText(index.entryBeforeBytes)} → {entryText(index.entryAfterBytes)}
                </td>
                <td>
                  {unitsText(index.capacityUnits)}
                  {index.chargedToTable && <span className="muted"> (table's capacity)</span>}
                </td>
                <td className="muted">{index.reason.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Explanation lines={estimate.cost.lines} label="Why the write costs this" />
    </div>
  );
}
