/**
 * The TTL view of a table: the attribute its items expire on, the items that expire first (and
 * those already expired, still read until a sweep deletes them), the embedded engine's next sweep
 * with a "Sweep now", and the deletions Time to Live made, read from the table's stream (TTL
 * deletions only, from TRIM_HORIZON: the last 24 hours). TTL or the stream off: the view says so
 * and opens Settings.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ExpiringItem, ExpiringItems, Profile, StreamFilter, TableDescription } from "../../ipc/bindings.gen";
import { errorTitle, type Loadable, type UiError } from "../../ipc/result";
import { formatCount, formatUnits } from "../../shared/format";
import { keyText, recordTime } from "../streams/records";
import { RecordList } from "../streams/StreamView";
import { useStreamTail, type TailChannelFactory } from "../streams/useStreamTail";
import { relativeTime, useTtl, MAX_PAGES } from "./useTtl";
import "../streams/streams.css";
import { keyNames } from "../../shared/keySchema";
import { windowStyle } from "../../shared/virtualWindow";

/** A row's height in px (`.ttl-row` in streams.css). */
const ROW_HEIGHT = 30;
const TTL_ONLY: StreamFilter = { key: {}, ttlOnly: true };

export function TtlView({
  profile,
  table,
  makeChannel,
  onOpenSettings,
}: {
  profile: Profile;
  table: TableDescription;
  makeChannel?: TailChannelFactory | undefined;
  onOpenSettings: () => void;
}) {
  const embedded = profile.connection.kind === "embedded";
  const ttl = useTtl({ profileId: profile.id, table: table.name, embedded });
  const deletions = useStreamTail({ profileId: profile.id, table: table.name, makeChannel, baseFilter: TTL_ONLY });
  const names = useMemo(() => keyNames(table.keys), [table]);
  // TTL or the stream changed in Settings: read them again.
  const seen = useRef({ ttl: table.ttlAttribute, stream: table.streamViewType });
  const reloadOverview = ttl.reload;
  const reloadStream = deletions.reload;
  useEffect(() => {
    if (seen.current.ttl !== table.ttlAttribute) void reloadOverview();
    if (seen.current.stream !== table.streamViewType) reloadStream();
    seen.current = { ttl: table.ttlAttribute, stream: table.streamViewType };
  }, [table.ttlAttribute, table.streamViewType, reloadOverview, reloadStream]);
  const [now, setNow] = useState(() => Date.now() / 1000);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now() / 1000), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const backendNow = now + ttl.clockOffset;

  // The deletions seen: a tail of TTL deletions from the oldest record kept, once the stream is known on.
  const streamOn = deletions.info.status === "ok" && deletions.info.data.enabled;
  const ttlOn = ttl.overview.status === "ok" && ttl.overview.data.attribute !== null;
  const { start: startDeletions, stop: stopDeletions } = deletions;
  useEffect(() => {
    if (!streamOn || !ttlOn) return;
    void startDeletions("TRIM_HORIZON");
    return stopDeletions;
    // Started once per stream and TTL being on, not again when the tail's callbacks change.
  }, [streamOn, ttlOn]);

  // A scheduled sweep just passed: read the overview (the next time) and the items again.
  const nextSweep = ttl.overview.status === "ok" ? ttl.overview.data.nextSweepAt : null;
  const reload = ttl.reload;
  const findExpiring = ttl.findExpiring;
  useEffect(() => {
    if (nextSweep === null || backendNow < nextSweep + 1) return;
    void reload().then(() => embedded && void findExpiring());
  }, [nextSweep !== null && backendNow >= nextSweep + 1]);

  if (ttl.overview.status === "loading") return <p className="muted">Reading the time to live of {table.name}…</p>;
  if (ttl.overview.status === "error") {
    return (
      <p className="status-error" role="alert">
        {errorTitle(ttl.overview.error)}: {ttl.overview.error.message}
      </p>
    );
  }
  const overview = ttl.overview.data;
  if (overview.attribute === null) {
    return (
      <div className="stream-off" data-testid="ttl-off">
        <p>
          Time to live is off for {table.name}: no item expires. Turn it on in Settings, naming the attribute that holds each
          item's expiry (a Number of seconds since 1970); DynamoDB then deletes the items whose time has passed.
        </p>
        <button type="button" onClick={onOpenSettings} data-testid="ttl-open-settings">
          Open Settings
        </button>
      </div>
    );
  }

  return (
    <div className="ttl-view" data-testid="ttl-view">
      <p>
        Items expire at the time in their <strong>{overview.attribute}</strong> attribute (a Number of seconds since 1970).
        Expired items are still read until they are deleted; deleting them costs no write capacity.
      </p>
      <section aria-label="Sweeps">
        {overview.embedded ? (
          <p data-testid="ttl-next-sweep">
            The embedded engine deletes expired items every {overview.sweepIntervalSeconds ?? "—"} s
            {overview.nextSweepAt !== null && (
              <>
                : next sweep {overview.nextSweepAt > backendNow ? relativeTime(overview.nextSweepAt, backendNow) : "now"} (
                {recordTime(overview.nextSweepAt)})
              </>
            )}
            .{" "}
            <button
              type="button"
              onClick={() => void ttl.sweepNow()}
              disabled={profile.readOnly || ttl.sweep?.status === "loading"}
              data-testid="ttl-sweep-now"
            >
              Sweep now
            </button>
            {profile.readOnly && <span className="muted"> This connection is read-only.</span>}
          </p>
        ) : (
          <p className="muted" data-testid="ttl-next-sweep">
            DynamoDB deletes expired items on its own schedule, typically within a few days of their expiry; it does not say
            when.
          </p>
        )}
        <SweepResult sweep={ttl.sweep} />
      </section>
      <section aria-label="Items due to expire">
        <h3>Due to expire</h3>
        <Expiring expiring={ttl.expiring} embedded={embedded} onFind={() => void ttl.findExpiring()} keyNames={names} now={backendNow} />
      </section>
      <section aria-label="Deletions seen">
        <h3>Deletions by Time to Live</h3>
        {deletions.info.status === "ok" && !deletions.info.data.enabled ? (
          <p className="muted" data-testid="ttl-deletions-off">
            The table's stream is off, so its deletions cannot be seen. Turn the stream on in Settings to see each deletion
            Time to Live makes.{" "}
            <button type="button" onClick={onOpenSettings}>
              Open Settings
            </button>
          </p>
        ) : deletions.tail.kind === "failed" ? (
          <p className="status-error" role="alert">
            {errorTitle(deletions.tail.error)}: {deletions.tail.error.message}
          </p>
        ) : (
          <>
            <p className="muted" role="status" data-testid="ttl-deletions-status">
              {formatCount(deletions.counts.delivered)} deletion{deletions.counts.delivered === 1 ? "" : "s"} by Time to Live in the
              stream's last 24 hours ({formatCount(deletions.counts.read)} records read).
            </p>
            <RecordList
              records={deletions.records}
              keyNames={names}
              filterKey={{}}
              viewType={deletions.info.status === "ok" ? deletions.info.data.viewType : null}
              empty="None seen yet: an expired item appears here when a sweep deletes it."
            />
          </>
        )}
      </section>
    </div>
  );
}

function SweepResult({ sweep }: { sweep: Loadable<{ deleted: number }, UiError> | null }) {
  if (sweep === null) return null;
  if (sweep.status === "loading") return <p className="muted">Sweeping…</p>;
  if (sweep.status === "error") {
    return (
      <p className="status-error" role="alert">
        {errorTitle(sweep.error)}: {sweep.error.message}
      </p>
    );
  }
  const n = sweep.data.deleted;
  return (
    <p className="test-ok" role="status" data-testid="ttl-swept">
      Swept: {n === 0 ? "no item had expired" : `${formatCount(n)} expired item${n === 1 ? "" : "s"} deleted`}.
    </p>
  );
}

function stateText(item: ExpiringItem, now: number): string {
  switch (item.state) {
    case "pending":
      return `expires ${relativeTime(item.expiresAt, now)}`;
    case "due":
      return `expired ${relativeTime(item.expiresAt, now)}: deleted at the next sweep`;
    case "tooOld":
      return "expired over five years ago: Time to Live never deletes it";
  }
}

function Expiring({
  expiring,
  embedded,
  onFind,
  keyNames,
  now,
}: {
  expiring: Loadable<ExpiringItems, UiError> | null;
  embedded: boolean;
  onFind: () => void;
  keyNames: readonly string[];
  now: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const items = expiring?.status === "ok" ? expiring.data.items : [];
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    useFlushSync: false,
  });
  if (expiring === null) {
    return (
      <p>
        {embedded ? null : "Finding them is a Scan of the table, which you pay for (up to "}
        {embedded ? null : `${MAX_PAGES} pages of 1 MB). `}
        <button type="button" onClick={onFind} data-testid="ttl-find">
          Find the items due to expire
        </button>
      </p>
    );
  }
  if (expiring.status === "loading") return <p className="muted">Scanning for expiries…</p>;
  if (expiring.status === "error") {
    return (
      <p className="status-error" role="alert">
        {errorTitle(expiring.error)}: {expiring.error.message}
      </p>
    );
  }
  const data = expiring.data;
  return (
    <>
      <p className="muted" data-testid="ttl-summary">
        {formatCount(data.withExpiry)} of {formatCount(data.scanned)} items read carry an expiry; {formatCount(data.expired)}{" "}
        {data.expired === 1 ? "has" : "have"} expired.{" "}
        {data.complete ? "" : `Only the first ${MAX_PAGES} pages were read. `}
        {data.items.length < data.withExpiry && `The ${formatCount(data.items.length)} that expire first: `}(
        {formatUnits(data.capacityUnits)} RCU){" "}
        <button type="button" onClick={onFind} data-testid="ttl-refresh">
          Read again
        </button>
      </p>
      {items.length === 0 ? (
        <p className="muted" data-testid="ttl-none">
          No item carries a Number in this attribute: nothing will expire.
        </p>
      ) : (
        <div className="ttl-items" ref={scroller} role="list" aria-label="Items by expiry, earliest first">
          <div style={{ height: virtualizer.getTotalSize() }}>
            <div style={windowStyle(virtualizer)}>
              {virtualizer.getVirtualItems().map((row) => {
                const item = items[row.index]!;
                return (
                  <div
                    key={row.key}
                    role="listitem"
                    className={`ttl-row ttl-${item.state === "tooOld" ? "too-old" : item.state}`}
                    data-testid="ttl-item"
                    data-state={item.state}
                  >
                    <span className="stream-keys">{keyText(item.keys, keyNames)}</span>
                    <span title={`${item.expiryText} seconds since 1970`}>{new Date(item.expiresAt * 1000).toLocaleString()}</span>
                    <span>{stateText(item, now)}</span>
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      )}
    </>
  );
}
