/**
 * The table screen's cost panel: the estimate of the read the bar is set to (and, once that read
 * has run, the reported capacity beside it), what that read costs a month at a rate the user
 * types, and how the rate spreads over the table's partition keys. When the bar has moved on from
 * the Query that ran last (another key, a filter, a Scan), that Query's estimate and what it
 * reported follow under their own heading: the bar's read is estimated before it runs, and the
 * last one's figures are not lost. Every figure comes from the Rust estimator through the
 * backend's commands (ipc/CommandsContext.tsx).
 */
import { useState } from "react";
import type { QueryEstimate, QueryInput, QueryPage, TableDescription } from "../../ipc/bindings.gen";
import { EstimatePanel } from "./EstimatePanel";
import { MonthlyCost } from "./MonthlyCost";
import { HotPartitions, type HotLoad } from "./HotPartitions";
import { ScanEstimate, type ScanPlan } from "./ScanEstimate";
import "./CostPanel.css";

export type CostPanelProps = {
  profileId: string;
  table: TableDescription;
  /** The Query the bar is set to; `null` when none is set up (or the bar is set to a Scan). */
  query: QueryInput | null;
  /** The last page that Query returned (with its ConsumedCapacity); `null` before it runs. */
  lastPage: QueryPage | null;
  /** The Query that ran last, when the bar has changed since: its input and last page. */
  ran?: { input: QueryInput; lastPage: QueryPage | null } | null;
  /** A load asked for from outside (the start screen's hot-partition step). */
  hotLoad?: HotLoad | null;
  /** The Scan the bar is set to, when it is set to one (then `query` is null). */
  scan?: ScanPlan | null;
};

export function CostPanel({ profileId, table, query, lastPage, ran = null, hotLoad = null, scan = null }: CostPanelProps) {
  const [estimate, setEstimate] = useState<QueryEstimate | null>(null);
  // Price one read as the first page of the estimated query costs, in the consistency asked for.
  const readUnits = estimate?.firstPage.total ?? 0.5;
  return (
    <div className="cost-panel">
      {query === null && scan !== null ? (
        <ScanEstimate profileId={profileId} plan={scan} />
      ) : (
        (query !== null || ran === null) && <EstimatePanel profileId={profileId} query={query} lastPage={lastPage} onEstimate={setEstimate} />
      )}
      {ran !== null && (
        <section className="cost-last-read" aria-label="The Query that ran last" data-testid="cost-last-read">
          <h3>The Query that ran last</h3>
          <EstimatePanel profileId={profileId} query={ran.input} lastPage={ran.lastPage} past />
        </section>
      )}
      <MonthlyCost readUnitsPerRequest={readUnits} storedBytes={table.sizeBytes} />
      <HotPartitions profileId={profileId} table={table.name} readUnitsPerRequest={readUnits} load={hotLoad} />
    </div>
  );
}
