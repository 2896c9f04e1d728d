import { useEffect, useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { CollectionStats, commands, ScanCost, ScanTotals } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useCapacityLedger } from "../../app/capacity";
import { formatBytes, formatCount, formatUnits } from "./format";

export type StatisticsSource = Pick<typeof commands, "statisticsScanCost" | "gatherStatistics" | "cancelOperation">;

export type TotalsChannelFactory = (onMessage: (totals: ScanTotals) => void) => Channel<ScanTotals>;

const tauriChannel: TotalsChannelFactory = (onMessage) => {
  const channel = new Channel<ScanTotals>();
  channel.onmessage = onMessage;
  return channel;
};

/**
 * For a connection whose statistics are not free (AWS, any endpoint): what the scan that gathers
 * them will cost, a button to start it once the user has read that, progress and cancel, and the
 * statistics when it completes.
 */
export function StatisticsGate({
  profileId,
  table,
  source,
  onGathered,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: string;
  source: StatisticsSource;
  onGathered: (stats: CollectionStats) => void;
  makeChannel?: TotalsChannelFactory | undefined;
}) {
  const [cost, setCost] = useState<ScanCost | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [running, setRunning] = useState<string | null>(null);
  const [totals, setTotals] = useState<ScanTotals | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const ledger = useCapacityLedger();

  useEffect(() => {
    let stale = false;
    void unwrap(source.statisticsScanCost(profileId, table)).then((result) => {
      if (stale) return;
      if (result.status === "ok") setCost(result.data);
      else if (result.status === "error") setError(result.error);
    });
    return () => {
      stale = true;
    };
  }, [profileId, table, source]);

  const start = async () => {
    const id = `statistics-${table}-${Date.now()}`;
    setRunning(id);
    setCancelled(false);
    setError(null);
    let recorded = 0;
    const channel = makeChannel((next) => {
      ledger.record("read", next.capacityUnits - recorded);
      recorded = next.capacityUnits;
      setTotals(next);
    });
    const result = await unwrap(source.gatherStatistics(profileId, id, table, channel));
    setRunning(null);
    if (result.status === "error") setError(result.error);
    else if (result.status === "ok") {
      if (result.data === null) setCancelled(true);
      else onGathered(result.data);
    }
  };

  return (
    <div className="statistics-gate" data-testid="statistics-gate">
      <p>On this connection the collection statistics come from a scan of the whole table, which you pay for.</p>
      {cost !== null && (
        <p data-testid="statistics-cost">
          Estimated: <strong>{formatUnits(cost.readUnits)} RCU</strong> in {cost.pages} page{cost.pages === 1 ? "" : "s"} for{" "}
          {formatCount(cost.itemCount)} items ({formatBytes(cost.tableBytes)}). <span className="muted">{cost.explanation}</span>
        </p>
      )}
      <div className="scan-controls">
        <button type="button" onClick={() => void start()} disabled={running !== null || cost === null}>
          Scan to gather statistics
        </button>
        {running !== null && (
          <button type="button" onClick={() => void source.cancelOperation(running)}>
            Cancel
          </button>
        )}
      </div>
      {running !== null && totals !== null && (
        <div className="scan-progress">
          <progress max={1} value={totals.expectedItems > 0 ? Math.min(1, totals.scanned / totals.expectedItems) : 0} aria-label="Statistics scan progress" />
          <span>
            {formatCount(totals.scanned)} items read · {formatUnits(totals.capacityUnits)} RCU
          </span>
        </div>
      )}
      {cancelled && <p className="muted">Cancelled: no statistics were kept.</p>}
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
        </p>
      )}
    </div>
  );
}
