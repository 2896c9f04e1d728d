/**
 * The Stream view of a table: a live tail of its DynamoDB stream. The user picks where to start
 * (the changes from now on, LATEST, or every change the stream keeps, TRIM_HORIZON), pauses and
 * resumes, and filters by key; each INSERT, MODIFY and REMOVE is a row of a virtualised list
 * (newest first, the last 1,000 kept), and the selected one shows its old and new images as a
 * diff. A deletion by Time to Live is marked as the service marks it. No stream: the view says
 * so and opens Settings, where it is turned on.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { Profile, StreamRecord, TableDescription, TailStart } from "../../ipc/bindings.gen";
import { errorTitle } from "../../ipc/result";
import { scalarValue } from "../../shared/attributeValue";
import { formatCount } from "../../shared/format";
import { ImageDiff } from "./ImageDiff";
import { keyText, matchesKey, recordTime, RING_SIZE, type Image } from "./records";
import { useStreamTail, type TailChannelFactory, type TailState } from "./useStreamTail";
import "./streams.css";
import { keyAttributes, keyNames } from "../../shared/keySchema";
import { windowStyle } from "../../shared/virtualWindow";
import { matchesShortcut } from "../../app/shortcuts";

/** A row's height in px (`.stream-row` in streams.css). */
const ROW_HEIGHT = 30;

export function StreamView({
  profile,
  table,
  makeChannel,
  onOpenSettings,
  capacity = RING_SIZE,
}: {
  profile: Profile;
  table: TableDescription;
  makeChannel?: TailChannelFactory | undefined;
  onOpenSettings: () => void;
  capacity?: number;
}) {
  const stream = useStreamTail({ profileId: profile.id, table: table.name, makeChannel, capacity });
  const [from, setFrom] = useState<TailStart>("LATEST");
  // The stream turned on or off in Settings: read what it is now.
  const seenViewType = useRef(table.streamViewType);
  const reload = stream.reload;
  useEffect(() => {
    if (seenViewType.current === table.streamViewType) return;
    seenViewType.current = table.streamViewType;
    reload();
  }, [table.streamViewType, reload]);
  const names = useMemo(() => keyNames(table.keys), [table]);

  if (stream.info.status === "loading") return <p className="muted">Reading the stream of {table.name}…</p>;
  if (stream.info.status === "error") {
    return (
      <p className="status-error" role="alert">
        {errorTitle(stream.info.error)}: {stream.info.error.message}
      </p>
    );
  }
  const info = stream.info.data;
  if (!info.enabled) return <StreamOff table={table.name} onOpenSettings={onOpenSettings} />;

  const running = stream.tail.kind === "running";
  return (
    <div className="stream-view" data-testid="stream-view">
      <div className="stream-toolbar" role="group" aria-label="Stream tail">
        <fieldset className="stream-from" disabled={running}>
          <legend className="sr-only">Start from</legend>
          <label>
            <input type="radio" name={`from-${table.name}`} checked={from === "LATEST"} onChange={() => setFrom("LATEST")} data-testid="stream-from-latest" />{" "}
            New changes (LATEST)
          </label>
          <label>
            <input type="radio" name={`from-${table.name}`} checked={from === "TRIM_HORIZON"} onChange={() => setFrom("TRIM_HORIZON")} data-testid="stream-from-trim-horizon" />{" "}
            Everything kept, 24 h (TRIM_HORIZON)
          </label>
        </fieldset>
        {running ? (
          <>
            {stream.tail.kind === "running" && stream.tail.paused ? (
              <button type="button" onClick={stream.resume} data-testid="stream-resume">
                Resume
              </button>
            ) : (
              <button type="button" onClick={stream.pause} data-testid="stream-pause">
                Pause
              </button>
            )}
            <button type="button" onClick={stream.stop} data-testid="stream-stop">
              Stop
            </button>
          </>
        ) : (
          <button type="button" className="primary" onClick={() => void stream.start(from)} data-testid="stream-start">
            Start the tail
          </button>
        )}
        <span className="muted">
          {info.viewType} · {info.shards} shard{info.shards === 1 ? "" : "s"}
        </span>
      </div>
      <KeyFilter table={table} onApply={(key) => stream.setFilter({ key, ttlOnly: false })} />
      <TailStatus tail={stream.tail} counts={stream.counts} kept={stream.records.length} capacity={capacity} />
      {stream.notice !== null && (
        <p className="warn" role="status">
          {stream.notice}
        </p>
      )}
      <RecordList
        records={stream.records}
        keyNames={names}
        filterKey={stream.filter.key as Image}
        viewType={info.viewType}
        empty={
          stream.tail.kind === "idle"
            ? "Start the tail to see every change to the table as it happens."
            : "No changes yet: write an item (in the Items view, with PartiQL or any SDK) and it appears here."
        }
      />
    </div>
  );
}

function StreamOff({ table, onOpenSettings }: { table: string; onOpenSettings: () => void }) {
  return (
    <div className="stream-off" data-testid="stream-off">
      <p>
        {table} has no stream turned on, so DynamoDB records none of its changes. Turn the stream on in Settings (with new and
        old images to see each change as a diff); changes made from then on appear here.
      </p>
      <button type="button" onClick={onOpenSettings} data-testid="stream-open-settings">
        Open Settings
      </button>
    </div>
  );
}

function TailStatus({
  tail,
  counts,
  kept,
  capacity,
}: {
  tail: TailState;
  counts: { read: number; delivered: number };
  kept: number;
  capacity: number;
}) {
  let text: string;
  switch (tail.kind) {
    case "idle":
      text = "Not tailing.";
      break;
    case "running":
      text = tail.paused
        ? pausedText(tail.pauseReported, tail.held)
        : `Tailing from ${tail.start === "LATEST" ? "LATEST" : "TRIM_HORIZON"}, ${tail.shards} shard${tail.shards === 1 ? "" : "s"}: ${formatCount(counts.read)} read, ${formatCount(counts.delivered)} shown.`;
      break;
    case "ended":
      text = tail.end === "streamClosed" ? "The stream was turned off: every record it held has been read." : "Stopped.";
      break;
    case "failed":
      return (
        <p className="status-error" role="alert">
          {errorTitle(tail.error)}: {tail.error.message}
        </p>
      );
  }
  return (
    <p className="muted" role="status" data-testid="stream-status">
      {text}
      {counts.delivered > kept && kept >= capacity && ` Showing the last ${formatCount(kept)} of ${formatCount(counts.delivered)} records.`}
    </p>
  );
}

/** What a paused tail says: asked to pause, then how many new records it holds for the resume. */
function pausedText(reported: boolean, held: number): string {
  if (!reported) return "Pausing…";
  if (held === 0) return "Paused: no new records yet. The stream keeps its records for 24 hours; Resume shows what came meanwhile.";
  return `Paused: ${formatCount(held)} new record${held === 1 ? "" : "s"} held until you resume.`;
}

/** Key values to filter on, typed by the table's key types; blank fields are not filtered. */
function KeyFilter({ table, onApply }: { table: TableDescription; onApply: (key: Image) => void }) {
  const keys = keyAttributes(table.keys);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const apply = (next: Record<string, string>) => {
    const key: Image = {};
    for (const k of keys) {
      const text = next[k.name] ?? "";
      if (text !== "") key[k.name] = scalarValue(k.type, text);
    }
    onApply(key);
  };
  return (
    <form
      className="stream-filter"
      onSubmit={(event) => {
        event.preventDefault();
        apply(texts);
      }}
      aria-label="Filter by key"
    >
      {keys.map((k) => (
        <label key={k.name}>
          {k.name} <span className="muted">({k.type})</span>{" "}
          <input
            value={texts[k.name] ?? ""}
            onChange={(event) => setTexts({ ...texts, [k.name]: event.target.value })}
            data-testid={`stream-filter-${k.name}`}
            placeholder="any"
          />
        </label>
      ))}
      <button type="submit" data-testid="stream-filter-apply">
        Filter
      </button>
      <button
        type="button"
        onClick={() => {
          setTexts({});
          apply({});
        }}
      >
        Clear
      </button>
    </form>
  );
}

export function RecordList({
  records,
  keyNames,
  filterKey,
  viewType,
  empty,
}: {
  records: readonly StreamRecord[];
  keyNames: readonly string[];
  filterKey: Image;
  viewType: string | null;
  empty: string;
}) {
  // Newest first; the filter also applies to the records already kept.
  const shown = useMemo(() => records.filter((r) => matchesKey(r, filterKey)).reverse(), [records, filterKey]);
  const [selected, setSelected] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    useFlushSync: false,
  });
  const chosen = shown.find((r) => r.eventId === selected) ?? null;
  if (shown.length === 0) {
    return (
      <p className="muted" data-testid="stream-empty">
        {empty}
      </p>
    );
  }
  const move = (step: number) => {
    const at = chosen === null ? -1 : shown.indexOf(chosen);
    const next = shown[Math.max(0, Math.min(shown.length - 1, at + step))];
    if (next) {
      setSelected(next.eventId);
      virtualizer.scrollToIndex(shown.indexOf(next));
    }
  };
  return (
    <div className="stream-records">
      <div
        className="stream-list"
        ref={scroller}
        role="listbox"
        aria-label="Stream records, newest first"
        tabIndex={0}
        aria-activedescendant={chosen === null ? undefined : `record-${chosen.eventId}`}
        onKeyDown={(event) => {
          if (!matchesShortcut("move-change", event.nativeEvent)) return;
          move(event.key === "ArrowDown" ? 1 : -1);
          event.preventDefault();
        }}
      >
        <div style={{ height: virtualizer.getTotalSize() }}>
          <div style={windowStyle(virtualizer)}>
            {virtualizer.getVirtualItems().map((row) => {
              const record = shown[row.index]!;
              return (
                <div
                  key={record.eventId}
                  id={`record-${record.eventId}`}
                  role="option"
                  aria-selected={record.eventId === selected}
                  className={`stream-row${record.eventId === selected ? " stream-row-selected" : ""}`}
                  onClick={() => setSelected(record.eventId)}
                  data-testid="stream-record"
                  data-event={record.eventName}
                >
                  <span className="stream-time">{recordTime(record.createdAt)}</span>
                  <span className={`stream-event stream-event-${record.eventName.toLowerCase()}`}>{record.eventName}</span>
                  <span className="stream-keys">{keyText(record.keys, keyNames)}</span>
                  {record.ttlDeletion && (
                    <span className="stream-ttl" title="userIdentity: type Service, principalId dynamodb.amazonaws.com" data-testid="stream-ttl-mark">
                      TTL
                    </span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {chosen === null ? (
        <p className="muted">Select a record to see its old and new images side by side.</p>
      ) : (
        <ImageDiff record={chosen} keyNames={keyNames} viewType={viewType} />
      )}
    </div>
  );
}
