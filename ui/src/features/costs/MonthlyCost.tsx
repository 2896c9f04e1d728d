/**
 * Units turned into money for a request rate the user types, on-demand and provisioned, with an
 * editable price table that starts from the defaults (their date and source shown). The money is
 * computed in Rust (`monthly_cost`); this form only collects the numbers.
 */
import { useEffect, useId, useState } from "react";
import type { MonthlyCost as MonthlyCostData, Workload } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { Explanation } from "./Explanation";
import { useMonthlyCost, usePrices } from "./useMonthlyCost";
import "./MonthlyCost.css";

export type MonthlyCostProps = {
  /** Units one read request consumes (from the estimate); editable. */
  readUnitsPerRequest?: number;
  writeUnitsPerRequest?: number;
  /** The table's bytes, for the storage line. */
  storedBytes?: number;
};

type PriceField = "onDemandReadPerMillion" | "onDemandWritePerMillion" | "provisionedRcuHour" | "provisionedWcuHour" | "storageGbMonth";

const PRICE_FIELDS: { field: PriceField; label: string }[] = [
  { field: "onDemandReadPerMillion", label: "On-demand, per million read request units" },
  { field: "onDemandWritePerMillion", label: "On-demand, per million write request units" },
  { field: "provisionedRcuHour", label: "Provisioned, per RCU-hour" },
  { field: "provisionedWcuHour", label: "Provisioned, per WCU-hour" },
  { field: "storageGbMonth", label: "Storage, per GB-month" },
];

export function money(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 2 }).format(amount);
}

function NumberField({ label, value, onChange, step = "any" }: { label: string; value: number; onChange: (v: number) => void; step?: string }) {
  const id = useId();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  return (
    <div className="monthly-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={0}
        step={step}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const next = Number(e.target.value);
          if (e.target.value.trim() !== "" && Number.isFinite(next)) onChange(next);
        }}
      />
    </div>
  );
}

export function MonthlyCost({ readUnitsPerRequest = 0.5, writeUnitsPerRequest = 1, storedBytes = 0 }: MonthlyCostProps) {
  const { regions, prices, setPrices } = usePrices();
  const [regionIndex, setRegionIndex] = useState(0);
  const [workload, setWorkload] = useState<Workload>({
    readsPerSecond: 100,
    readUnitsPerRequest,
    writesPerSecond: 10,
    writeUnitsPerRequest,
    targetUtilisation: 0.7,
    storedBytes,
  });

  useEffect(() => {
    setWorkload((w) => ({ ...w, readUnitsPerRequest, writeUnitsPerRequest, storedBytes }));
  }, [readUnitsPerRequest, writeUnitsPerRequest, storedBytes]);

  const cost = useMonthlyCost(prices, workload);

  const edit = (field: PriceField, value: number) => setPrices((p) => (p === null ? p : { ...p, [field]: value }));
  const defaults = regions[regionIndex] ?? null;

  return (
    <section className="monthly-cost" aria-label="Monthly cost">
      <h3>Monthly cost</h3>
      <fieldset className="monthly-grid">
        <legend>Request rate</legend>
        <NumberField label="Reads per second" value={workload.readsPerSecond} onChange={(v) => setWorkload({ ...workload, readsPerSecond: v })} />
        <NumberField label="RCU per read" value={workload.readUnitsPerRequest} onChange={(v) => setWorkload({ ...workload, readUnitsPerRequest: v })} />
        <NumberField label="Writes per second" value={workload.writesPerSecond} onChange={(v) => setWorkload({ ...workload, writesPerSecond: v })} />
        <NumberField label="WCU per write" value={workload.writeUnitsPerRequest} onChange={(v) => setWorkload({ ...workload, writeUnitsPerRequest: v })} />
        <NumberField
          label="Provisioned target utilisation (%)"
          value={Math.round(workload.targetUtilisation * 100)}
          step="1"
          onChange={(v) => setWorkload({ ...workload, targetUtilisation: v / 100 })}
        />
      </fieldset>
      {cost?.status === "ok" && <CostFigures cost={cost.data} />}
      {cost?.status === "error" && (
        <p className="field-error" role="alert">
          {errorTitle(cost.error)}: {cost.error.message}
        </p>
      )}
      {prices !== null && (
        <details className="price-table">
          <summary>
            Prices: {prices.region}, {prices.currency}, as of {prices.asOf}
          </summary>
          {regions.length > 1 && (
            <label>
              Region{" "}
              <select
                value={regionIndex}
                onChange={(e) => {
                  const i = Number(e.target.value);
                  setRegionIndex(i);
                  setPrices(regions[i] ?? null);
                }}
              >
                {regions.map((r, i) => (
                  <option key={r.region} value={i}>
                    {r.region}
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="monthly-grid">
            {PRICE_FIELDS.map(({ field, label }) => (
              <NumberField key={field} label={label} value={prices[field] ?? 0} onChange={(v) => edit(field, v)} />
            ))}
          </div>
          <p className="muted">
            Defaults as of {defaults?.asOf ?? prices.asOf}: {defaults?.source ?? prices.source}.{" "}
            {defaults !== null && (
              <button type="button" onClick={() => setPrices(defaults)}>
                Restore the defaults
              </button>
            )}
          </p>
        </details>
      )}
    </section>
  );
}

function CostFigures({ cost }: { cost: MonthlyCostData }) {
  return (
    <div>
      <table className="estimate-table">
        <thead>
          <tr>
            <th scope="col">Capacity mode</th>
            <th scope="col">Reads</th>
            <th scope="col">Writes</th>
            <th scope="col">A month</th>
          </tr>
        </thead>
        <tbody>
          <tr data-testid="on-demand">
            <th scope="row">On-demand</th>
            <td>{money(cost.onDemand.reads, cost.currency)}</td>
            <td>{money(cost.onDemand.writes, cost.currency)}</td>
            <td>
              <strong>{money(cost.onDemand.total, cost.currency)}</strong>
            </td>
          </tr>
          <tr data-testid="provisioned">
            <th scope="row">
              Provisioned <span className="muted">({cost.provisionedRcu} RCU, {cost.provisionedWcu} WCU)</span>
            </th>
            <td>{money(cost.provisioned.reads, cost.currency)}</td>
            <td>{money(cost.provisioned.writes, cost.currency)}</td>
            <td>
              <strong>{money(cost.provisioned.total, cost.currency)}</strong>
            </td>
          </tr>
        </tbody>
      </table>
      {cost.storage !== null && <p className="muted">Storage: {money(cost.storage, cost.currency)} a month.</p>}
      <Explanation lines={cost.lines} label="How the money is computed" />
    </div>
  );
}
