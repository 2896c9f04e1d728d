import { useRef, useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { AttributeValue, commands, ScanSummary, ScanTotals, ScanUpdate, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle, unwrap, type UiError } from "../../ipc/result";
import { useCapacityLedger } from "../../app/capacity";
import { attributeText } from "../items/attributeValue";
import { formatCount, formatUnits } from "./format";

export type ScanSource = Pick<typeof commands, "scan" | "cancelOperation">;

/** A collection the scan has passed through, and how many of its items it saw. */
type SeenCollection = { value: AttributeValue; items: number };

/** Makes the channel a scan streams its pages through; tests hand a fake one. */
export type ChannelFactory = (onMessage: (update: ScanUpdate) => void) => Channel<ScanUpdate>;

const tauriChannel: ChannelFactory = (onMessage) => {
  const channel = new Channel<ScanUpdate>();
  channel.onmessage = onMessage;
  return channel;
};

let scanCounter = 0;

/**
 * A Scan of the whole table, streamed page by page with a progress bar and a Cancel button. The
 * items are shown as what a scan really visits: item collections, in the order it met them;
 * opening one queries that collection.
 */
export function ScanPanel({
  profileId,
  table,
  source,
  onOpenCollection,
  makeChannel = tauriChannel,
}: {
  profileId: string;
  table: TableDescription;
  source: ScanSource;
  onOpenCollection: (value: AttributeValue) => void;
  makeChannel?: ChannelFactory | undefined;
}) {
  const [running, setRunning] = useState<string | null>(null);
  const [totals, setTotals] = useState<ScanTotals | null>(null);
  const [summary, setSummary] = useState<ScanSummary | null>(null);
  const [error, setError] = useState<UiError | null>(null);
  const [collections, setCollections] = useState<SeenCollection[]>([]);
  const [segments, setSegments] = useState(1);
  const seen = useRef(new Map<string, SeenCollection>());
  const ledger = useCapacityLedger();
  const recorded = useRef(0);

  const start = async () => {
    const id = `scan-${Date.now()}-${++scanCounter}`;
    seen.current = new Map();
    recorded.current = 0;
    setCollections([]);
    setSummary(null);
    setError(null);
    setTotals(null);
    setRunning(id);
    const pk = table.keys.partitionKey.name;
    const channel = makeChannel((update) => {
      for (const item of update.page.items) {
        const value = item[pk];
        if (value === undefined) continue;
        const key = JSON.stringify(value);
        const entry = seen.current.get(key);
        if (entry === undefined) seen.current.set(key, { value, items: 1 });
        else entry.items += 1;
      }
      setCollections([...seen.current.values()]);
      ledger.record("read", update.totals.capacityUnits - recorded.current);
      recorded.current = update.totals.capacityUnits;
      setTotals(update.totals);
    });
    const result = await unwrap(
      source.scan(
        profileId,
        {
          scanId: id,
          table: table.name,
          index: null,
          filter: null,
          filterNames: null,
          filterValues: null,
          consistentRead: false,
          pageLimit: null,
          segments,
          capacityBudget: null,
        },
        channel,
      ),
    );
    setRunning(null);
    if (result.status === "ok") setSummary(result.data);
    else if (result.status === "error") setError(result.error);
  };

  const cancel = () => {
    if (running !== null) void source.cancelOperation(running);
  };

  const expected = totals?.expectedItems ?? table.itemCount;
  const fraction = totals === null || expected <= 0 ? 0 : Math.min(1, totals.scanned / expected);
  return (
    <section className="scan-panel" aria-label="Scan">
      <div className="scan-controls">
        <button type="button" onClick={() => void start()} disabled={running !== null}>
          Scan the table
        </button>
        <label>
          Segments
          <select value={segments} onChange={(e) => setSegments(Number(e.target.value))} disabled={running !== null}>
            {[1, 2, 4, 8].map((n) => (
              <option key={n} value={n}>
                {n === 1 ? "1 (plain scan)" : `${n} (parallel scan)`}
              </option>
            ))}
          </select>
        </label>
        {running !== null && (
          <button type="button" onClick={cancel}>
            Cancel
          </button>
        )}
      </div>
      {(running !== null || totals !== null) && (
        <div className="scan-progress" data-testid="scan-progress">
          <progress max={1} value={fraction} aria-label="Scan progress" />
          <span>
            {formatCount(totals?.scanned ?? 0)} of about {formatCount(expected)} items read · {totals?.pages ?? 0} pages ·{" "}
            {formatUnits(totals?.capacityUnits ?? 0)} RCU
          </span>
        </div>
      )}
      {summary !== null && (
        <p className="muted" data-testid="scan-summary">
          {summary.end === "completed" && "The scan read the whole table."}
          {summary.end === "cancelled" && "Cancelled: the scan stopped after its current page."}
          {summary.end === "budgetReached" && "Stopped: the capacity budget was used up."}
        </p>
      )}
      {error !== null && (
        <p className="status-error" role="alert">
          {errorTitle(error.code)}: {error.message}
          {error.exception != null && <span className="muted"> ({error.exception})</span>}
        </p>
      )}
      {collections.length > 0 && (
        <>
          <h3>{formatCount(collections.length)} collections met, in scan order</h3>
          <ul className="scan-collections">
            {collections.slice(0, 500).map((c) => (
              <li key={JSON.stringify(c.value)}>
                <button type="button" className="table-link" onClick={() => onOpenCollection(c.value)}>
                  {attributeText(c.value)}
                </button>
                <span className="muted"> · {formatCount(c.items)} items</span>
              </li>
            ))}
          </ul>
          {collections.length > 500 && <p className="muted">and {formatCount(collections.length - 500)} more.</p>}
        </>
      )}
    </section>
  );
}
