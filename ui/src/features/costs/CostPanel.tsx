/**
 * The table screen's cost panel: the estimate of the query about to run (and, after it ran, the
 * reported capacity beside it), what that read costs a month at a rate the user types, and how
 * the rate spreads over the table's partition keys. Every figure comes from the Rust estimator
 * through the backend's commands (ipc/CommandsContext.tsx).
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
  /** The query about to run, or the one that produced `lastPage`; `null` when none is set up. */
  query: QueryInput | null;
  /** The last page that query returned (with its ConsumedCapacity); `null` before it runs. */
  lastPage: QueryPage | null;
  /** A load asked for from outside (the start screen's hot-partition step). */
  hotLoad?: HotLoad | null;
  /** The Scan the bar is set to, when it is set to one (then `query` is null). */
  scan?: ScanPlan | null;
};

export function CostPanel({ profileId, table, query, lastPage, hotLoad = null, scan = null }: CostPanelProps) {
  const [estimate, setEstimate] = useState<QueryEstimate | null>(null);
  // Price one read as the first page of the estimated query costs, in the consistency asked for.
  const readUnits = estimate?.firstPage.total ?? 0.5;
  return (
    <div className="cost-panel">
      {query === null && scan !== null ? (
        <ScanEstimate profileId={profileId} plan={scan} />
      ) : (
        <EstimatePanel profileId={profileId} query={query} lastPage={lastPage} onEstimate={setEstimate} />
      )}
      <MonthlyCost readUnitsPerRequest={readUnits} storedBytes={table.sizeBytes} />
      <HotPartitions profileId={profileId} table={table.name} readUnitsPerRequest={readUnits} load={hotLoad} />
    </div>
  );
}
