import { useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { CollectionStats, ScanTotals, StatisticsScan } from "../../ipc/bindings.gen";
import { errorTitle, unwrap } from "../../ipc/result";
import { useRecordCapacity } from "../../app/capacity";
import { formatBytes, formatCount, formatCountOf, formatUnits } from "../../shared/format";
import { attributeText } from "../../shared/attributeValue";
import { useCommands } from "../../ipc/CommandsContext";
import { useKeptStatistics } from "./useKeptStatistics";

export type TotalsChannelFactory = (onMessage: (totals: ScanTotals) => void) => Channel<ScanTotals>;

const tauriChannel: TotalsChannelFactory = (onMessage) => {
  const channel = new Channel<ScanTotals>();
  channel.onmessage = onMessage;
  return channel;
};

/**
 * The Collections view's statistics on a connection where they are not free (AWS, any endpoint):
 * they come from Scan pages the user pays for. Before anything is gathered it tells what reading
 * the table (or the index the view is grouped by) whole would cost and asks for a budget; while
 * the scan runs it shows the items read and the read units spent, with Cancel; a scan the budget
 * or Cancel stopped keeps what it read (partial statistics, drawn as boxes) and can be continued;
 * a whole one says when it was gathered and can be run again.
 */
export function StatisticsGate({
  profileId,
  table,
  index,
  onGathered,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: string;
  /** The index whose collections to gather; `null`: the table's. */
  index: string | null;
  onGathered: (stats: CollectionStats) => void;
  makeChannel?: TotalsChannelFactory | undefined;
}) {
  const source = useCommands();
  const { cost, kept, setKept, budget, setBudget, error, setError } = useKeptStatistics(profileId, table, index);
  const [running, setRunning] = useState<string | null>(null);
  const [totals, setTotals] = useState<ScanTotals | null>(null);
  const recordCapacity = useRecordCapacity();
  const what = index === null ? table : `the index ${index}`;

  const budgetValue = Number(budget);
  const budgetValid = budget.trim() !== "" && Number.isFinite(budgetValue) && budgetValue > 0;
  const scan = kept.status === "kept" ? (kept.stats.scan ?? null) : null;
  const partial = scan !== null && !scan.complete;

  const start = async (resume: boolean) => {
    if (!budgetValid) return;
    const id = `statistics-${table}-${index ?? ""}-${Date.now()}`;
    setRunning(id);
    setError(null);
    setTotals(null);
    let recorded = 0;
    const channel = makeChannel((next) => {
      recordCapacity("read", next.capacityUnits - recorded);
      recorded = next.capacityUnits;
      setTotals(next);
    });
    const result = await unwrap(source.gatherStatistics(profileId, id, { table, index, budget: budgetValue, resume }, channel));
    setRunning(null);
    if (result.status === "error") setError(result.error);
    else if (result.status === "ok") {
      setKept({ status: "kept", stats: result.data });
      onGathered(result.data);
    }
  };

  const controls = (
    <div className="scan-controls">
      <label>
        Budget{" "}
        <input
          type="number"
          min="0.5"
          step="any"
          inputMode="decimal"
          value={budget}
          onChange={(event) => setBudget(event.target.value)}
          disabled={running !== null}
          aria-invalid={!budgetValid}
          data-testid="statistics-budget"
        />{" "}
        RCU
      </label>
      {partial ? (
        <>
          <button type="button" onClick={() => void start(true)} disabled={running !== null || !budgetValid} data-testid="statistics-continue">
            Continue the scan
          </button>
          <button type="button" onClick={() => void start(false)} disabled={running !== null || !budgetValid}>
            Start over
          </button>
        </>
      ) : (
        <button type="button" onClick={() => void start(false)} disabled={running !== null || !budgetValid || cost === null} data-testid="statistics-start">
          {kept.status === "kept" ? "Scan again" : "Scan to gather statistics"}
        </button>
      )}
      {running !== null && (
        <button type="button" onClick={() => void source.cancelOperation(running)}>
          Cancel
        </button>
      )}
    </div>
  );

  return (
    <div className={`statistics-gate${kept.status === "kept" && !partial ? " statistics-gate-done" : ""}`} data-testid="statistics-gate">
      {kept.status === "loading" && <p className="muted">Looking for statistics gathered earlier…</p>}
      {kept.status === "none" && (
        <p>
          On this connection the collections of {what} come from Scan pages, which you pay for. Set a budget: the scan stops there, and
          what it read is drawn and kept, so it can be continued later.
        </p>
      )}
      {scan !== null && <ScanState scan={scan} gatheredAt={kept.status === "kept" ? kept.stats.gatheredAt : null} what={what} />}
      {cost !== null && (kept.status === "none" || partial) && (
        <p data-testid="statistics-cost">
          Estimated{partial ? " for the whole scan" : ""}: <strong>{formatUnits(cost.readUnits)} RCU</strong> in {cost.pages} page
          {cost.pages === 1 ? "" : "s"} for {formatCountOf(cost.itemCount, "item")} ({formatBytes(cost.tableBytes)}).{" "}
          <span className="muted">{cost.explanation}</span>
        </p>
      )}
      {kept.status !== "loading" && controls}
      {running !== null && totals !== null && (
        <div className="scan-progress" data-testid="statistics-progress">
          <progress
            max={1}
            value={totals.expectedItems > 0 ? Math.min(1, totals.scanned / totals.expectedItems) : 0}
            aria-label="Statistics scan progress"
          />
          <span>
            {formatCountOf(totals.scanned, "item")} read · {formatUnits(totals.capacityUnits)} RCU so far
            {budgetValid && <> of {formatUnits(budgetValue)}</>}
          </span>
        </div>
      )}
      {kept.status === "error" && (
        <p className="status-error" role="alert">
          {errorTitle(kept.error)}: {kept.error.message}
        </p>
      )}
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error)}: {error.message}
        </p>
      )}
    </div>
  );
}

/** How far the kept statistics got. */
function ScanState({ scan, gatheredAt, what }: { scan: StatisticsScan; gatheredAt: number | null; what: string }) {
  const when = gatheredAt === null ? "" : ` on ${new Date(gatheredAt * 1000).toLocaleString()}`;
  if (scan.complete)
    return (
      <p className="muted" data-testid="statistics-state">
        Gathered{when} by a whole scan of {what}: {formatCountOf(scan.itemsRead, "item")} for {formatUnits(scan.capacityUnits)} RCU. The
        boxes draw their first rows from its pages, without a Query of their own, wherever those
        rows are exactly what a Query returns.
      </p>
    );
  const share = scan.expectedItems > 0 ? Math.min(100, Math.round((scan.itemsRead / scan.expectedItems) * 100)) : null;
  return (
    <p className="statistics-partial" role="status" data-testid="statistics-state">
      <strong>Partial statistics.</strong> The scan of {what} stopped after {formatCount(scan.itemsRead)} of about{" "}
      {formatCountOf(scan.expectedItems, "item")}{share !== null && <> ({share}%)</>}, {formatUnits(scan.capacityUnits)} RCU spent{when}. The
      boxes below are the collections it read
      {scan.openCollection !== null && (
        <>
          ; the last, <code>{attributeText(scan.openCollection)}</code>, may have more items
        </>
      )}
      .
    </p>
  );
}
