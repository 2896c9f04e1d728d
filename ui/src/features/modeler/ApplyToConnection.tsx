/**
 * Applying the model to a connection (issue 21 point 4): the model's tables created with
 * CreateTable on an AWS account or any endpoint — keys, billing and indexes, no sample data —
 * only after the user confirms, naming the tables and the connection, since it creates real
 * (billed) tables there.
 */
import { useId, useState } from "react";
import type { Model } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { ConfirmInline } from "./ConfirmInline";
import { useApplyToConnection } from "./useApplyToConnection";

export function ApplyToConnection({ model, onApplied }: { model: Model | null; onApplied?: (() => void) | undefined }) {
  const c = useApplyToConnection(onApplied);
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const tables = model?.tables.map((t) => t.name).join(", ") ?? "";
  if (c.connections.status === "loading") return <p className="muted">Listing the connections…</p>;
  if (c.connections.status === "error")
    return (
      <p className="modeler-error">
        {errorTitle(c.connections.error.code)}: {c.connections.error.message}
      </p>
    );
  if (c.connections.data.length === 0) return <p className="muted">No AWS or endpoint connection yet: add one in the sidebar (+ New connection) to create the model's tables there.</p>;
  return (
    <div className="modeler-controls" data-testid="modeler-apply-connection">
      <label htmlFor={id}>Connection</label>
      <select
        id={id}
        value={c.chosen}
        data-testid="modeler-apply-connection-choice"
        onChange={(e) => {
          c.choose(e.target.value);
          c.reset();
          setConfirming(false);
        }}
      >
        {c.connections.data.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.region}){p.readOnly ? " · read-only" : ""}
          </option>
        ))}
      </select>
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)} disabled={model === null || c.profile === undefined || c.profile.readOnly} data-testid="modeler-apply-connection-start">
          Create the tables there…
        </button>
      ) : (
        <ConfirmInline
          action="Create"
          testId="modeler-apply-connection-confirm"
          onConfirm={() => {
            setConfirming(false);
            if (model !== null) void c.apply(model);
          }}
          onCancel={() => setConfirming(false)}
        >
          Create {tables} on {c.profile?.name} ({c.profile?.region})? CreateTable makes real tables there, billed as the model says; no sample data is written.
        </ConfirmInline>
      )}
      {c.profile?.readOnly && <span className="muted">This connection is read-only.</span>}
      {c.applied?.status === "loading" && <span className="muted">Creating…</span>}
      {c.applied?.status === "ok" && (
        <p data-testid="modeler-applied-connection">
          Created {c.applied.data.tables.join(", ")} on {c.profile?.name}.
        </p>
      )}
      {c.applied?.status === "error" && (
        <p className="modeler-error">
          {errorTitle(c.applied.error.code)}: {c.applied.error.message}
        </p>
      )}
    </div>
  );
}
