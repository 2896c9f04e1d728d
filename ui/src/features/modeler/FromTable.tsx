/**
 * "From a table…" (issue 21 point 5): a model inferred from a live table of any connection —
 * keys and indexes from DescribeTable, entity types from a bounded sample whose estimated cost is
 * shown before it is read and whose consumed capacity is reported after, access patterns from
 * the connection's query history of the table. The inferred model replaces the editor's, after a
 * confirmation when the current one has edits.
 */
import { useId } from "react";
import type { Model } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { formatBytes, formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { ConfirmInline } from "./ConfirmInline";
import { useInferModel } from "./useInferModel";
import { withoutRuleCitations } from "./ruleCitations";

export function FromTable({ edited, onInferred }: { edited: boolean; onInferred: (model: Model) => void }) {
  const f = useInferModel(edited, onInferred);
  const id = useId();
  if (f.connections.status === "loading") return <p className="muted">Listing the connections…</p>;
  if (f.connections.status === "error")
    return (
      <p className="modeler-error">
        {errorTitle(f.connections.error.code)}: {f.connections.error.message}
      </p>
    );
  const e = f.estimate;
  const r = f.inferred;
  return (
    <section className="modeler-from-table" data-testid="modeler-from-table" aria-label="Infer a model from a table">
      <div className="modeler-controls">
        <label htmlFor={`${id}-connection`}>Connection</label>
        <select id={`${id}-connection`} value={f.profileId} data-testid="modeler-infer-connection" onChange={(ev) => f.chooseProfile(ev.target.value)}>
          {f.connections.data.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
              {p.connection.kind === "embedded" ? "" : ` (${p.region})`}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-table`}>Table</label>
        <select id={`${id}-table`} value={f.table} data-testid="modeler-infer-table" onChange={(ev) => f.chooseTable(ev.target.value)} disabled={f.tables?.status !== "ok"}>
          {f.tables?.status === "ok" &&
            f.tables.data.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
        </select>
        <label>
          Sample{" "}
          <input
            type="number"
            min={1}
            max={5000}
            value={f.sample}
            data-testid="modeler-infer-sample"
            onChange={(ev) => f.setSample(Number.isFinite(Number(ev.target.value)) ? Math.floor(Number(ev.target.value)) : f.sample)}
          />{" "}
          items
        </label>
      </div>
      {f.tables?.status === "error" && (
        <p className="modeler-error">
          {errorTitle(f.tables.error.code)}: {f.tables.error.message}
        </p>
      )}
      {f.tables?.status === "ok" && f.tables.data.length === 0 && <p className="muted">This connection has no tables.</p>}
      {e?.status === "loading" && <p className="muted">Estimating the sample…</p>}
      {e?.status === "error" && (
        <p className="modeler-error" data-testid="modeler-infer-estimate-error">
          {errorTitle(e.error.code)}: {e.error.message}
        </p>
      )}
      {e?.status === "ok" && (
        <p data-testid="modeler-infer-estimate">
          The sample reads {formatCount(e.data.items)} of {formatCount(e.data.tableItems)} items ({formatBytes(e.data.bytes)}, {formatCountOf(e.data.pages, "page")}): about <strong>{formatUnits(e.data.capacityUnits)} read units</strong>, eventually consistent
          {e.data.approximate ? " (DescribeTable's figures are refreshed about every six hours)" : ""}.
        </p>
      )}
      {e?.status === "ok" && (
        <ul className="muted modeler-infer-lines" data-testid="modeler-infer-lines">
          {e.data.lines.map((l) => (
            <li key={l.text}>
              {l.text}
            </li>
          ))}
        </ul>
      )}
      {!f.confirming ? (
        <button type="button" className="primary" onClick={f.start} disabled={f.table === "" || r?.status === "loading"} data-testid="modeler-infer-run">
          Read the sample and infer the model
        </button>
      ) : (
        <ConfirmInline action="Replace" testId="modeler-infer-confirm" onConfirm={f.confirm} onCancel={f.cancel}>
          The model has edits: the inferred model replaces them.
        </ConfirmInline>
      )}
      {r?.status === "loading" && <p className="muted">Reading the sample…</p>}
      {r?.status === "error" && (
        <p className="modeler-error" data-testid="modeler-infer-error">
          {errorTitle(r.error.code)}: {r.error.message}
        </p>
      )}
      {r?.status === "ok" && (
        <div data-testid="modeler-inferred">
          <p>
            Inferred from {formatCountOf(r.data.sampledItems, "item")} in {formatCount(r.data.pages)} page{r.data.pages === 1 ? "" : "s"}:{" "}
            {r.data.consumedCapacity !== null ? (
              <strong data-testid="modeler-infer-consumed">{formatUnits(r.data.consumedCapacity)} read units consumed</strong>
            ) : (
              "the service reported no consumed capacity"
            )}
            ; {formatCount(r.data.model.patterns?.length ?? 0)} access pattern{r.data.model.patterns?.length === 1 ? "" : "s"} from {formatCount(r.data.historyReads)} quer
            {r.data.historyReads === 1 ? "y" : "ies"} of the history.
          </p>
          <ul className="modeler-inferred-entities">
            {r.data.entities.map((en) => (
              <li key={en.name} data-testid="modeler-inferred-entity">
                <strong>{en.name}</strong> <span className="muted">{formatCount(en.sampled)} sampled, about {formatCount(en.estimated)} in the table · {en.attributes.join(", ")}</span>
              </li>
            ))}
          </ul>
          {r.data.notes.map((n) => (
            <p className="muted" key={n}>
              {withoutRuleCitations(n)}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}
