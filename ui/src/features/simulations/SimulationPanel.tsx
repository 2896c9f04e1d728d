/**
 * The embedded engine's simulations in a table's Settings view (issue 18.7): a switch to enforce
 * capacity (throttle like DynamoDB, rule B.19), an eventual-consistency lag in milliseconds with
 * its seed (rule B.20), and what they did to this table: the requests throttled on it and the
 * reads that saw an older version. The switches hold for every table of the embedded engine; the
 * counts are this table's, read about once a second while the section is shown.
 */
import { useId, useState } from "react";
import type { SimulationSettings } from "../../ipc/bindings.gen";
import { errorTitle, type UiError } from "../../ipc/result";
import { formatCountOf } from "../../shared/format";
import { COUNTS_HELP, ENFORCE_CAPACITY_HELP, EVENTUAL_LAG_HELP, SIMULATIONS_INTRO } from "../../shared/simulations";
import { useTableSimulations } from "./useTableSimulations";
import "./simulations.css";

function Failure({ error, testId }: { error: UiError | null; testId: string }) {
  if (error === null) return null;
  return (
    <p className="status-error" role="alert" data-testid={testId}>
      <strong>{errorTitle(error)}</strong>: {error.message}
    </p>
  );
}

export function SimulationPanel({
  profileId,
  table,
  active,
}: {
  profileId: string;
  table: string;
  /** Whether the panel is on screen (its counts are read only then). */
  active: boolean;
}) {
  const { state, saving, saveError, apply } = useTableSimulations({ profileId, table, active });
  // Every open table has this section: ids of its own.
  const helpId = useId();
  if (state.status === "loading") return <p className="muted">Reading the embedded engine's simulations…</p>;
  if (state.status === "error") return <Failure error={state.error} testId="sim-load-error" />;
  const { settings, throttledRequests, laggedReads, throttledOnEveryTable } = state.data;
  return (
    <div className="simulations" data-testid="simulations">
      <p className="muted">{SIMULATIONS_INTRO}</p>
      <div className="simulation">
        <label>
          <input
            type="checkbox"
            data-testid="sim-enforce-capacity"
            checked={settings.enforceCapacity}
            disabled={saving}
            aria-describedby={helpId}
            onChange={(event) => void apply({ ...settings, enforceCapacity: event.target.checked })}
          />{" "}
          Enforce capacity (throttle like DynamoDB)
        </label>
        <p className="muted simulation-help" id={helpId}>
          {ENFORCE_CAPACITY_HELP}
        </p>
      </div>
      <LagForm key={`${settings.eventualLagMs ?? "off"}/${settings.seed}`} settings={settings} disabled={saving} onApply={apply} />
      <dl className="simulation-counts" data-testid="sim-counts">
        <dt>Throttled on {table}</dt>
        <dd data-testid="sim-throttled">{formatCountOf(throttledRequests, "request")}</dd>
        <dt>Throttled on every table</dt>
        <dd data-testid="sim-throttled-everywhere">{formatCountOf(throttledOnEveryTable, "request")}</dd>
        <dt>Reads of {table} that saw an older version</dt>
        <dd data-testid="sim-lagged">{formatCountOf(laggedReads, "read")}</dd>
      </dl>
      <p className="muted simulation-help">{COUNTS_HELP}</p>
      <Failure error={saveError} testId="sim-save-error" />
    </div>
  );
}

/** The lag and its seed, applied together; an empty lag turns it off. */
function LagForm({
  settings,
  disabled,
  onApply,
}: {
  settings: SimulationSettings;
  disabled: boolean;
  onApply: (settings: SimulationSettings) => Promise<boolean>;
}) {
  const [lag, setLag] = useState(settings.eventualLagMs === null ? "" : String(settings.eventualLagMs));
  const [seed, setSeed] = useState(String(settings.seed));
  const helpId = useId();
  const whole = (text: string) => /^\d+$/.test(text.trim());
  const lagValid = lag.trim() === "" || whole(lag);
  const seedValid = whole(seed) && Number(seed) <= 4294967295;
  return (
    <form
      className="simulation"
      aria-label="Eventual-consistency lag"
      onSubmit={(event) => {
        event.preventDefault();
        if (!lagValid || !seedValid) return;
        void onApply({ ...settings, eventualLagMs: lag.trim() === "" ? null : Number(lag), seed: Number(seed) });
      }}
    >
      <label>
        Eventual-consistency lag (ms){" "}
        <input
          data-testid="sim-lag-ms"
          inputMode="numeric"
          size={8}
          placeholder="off"
          value={lag}
          aria-invalid={!lagValid}
          aria-describedby={helpId}
          onChange={(event) => setLag(event.target.value)}
        />
      </label>{" "}
      <label>
        Seed{" "}
        <input data-testid="sim-seed" inputMode="numeric" size={6} value={seed} aria-invalid={!seedValid} onChange={(event) => setSeed(event.target.value)} />
      </label>{" "}
      <button type="submit" data-testid="sim-lag-apply" disabled={disabled || !lagValid || !seedValid}>
        Apply lag
      </button>
      {!lagValid && <span className="status-error"> The lag is a whole number of milliseconds, or empty for none.</span>}
      {!seedValid && <span className="status-error"> The seed is a whole number from 0 to 4294967295.</span>}
      <p className="muted simulation-help" id={helpId}>
        {EVENTUAL_LAG_HELP}
      </p>
    </form>
  );
}
