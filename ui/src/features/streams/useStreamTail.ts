/**
 * A live tail of a table's stream, as a hook: what the stream is (`streamInfo`), and a tail that
 * starts from LATEST or TRIM_HORIZON (`tailStream`, its records arriving through a channel),
 * pauses, resumes and changes its key filter while it runs (`controlStreamTail`), and stops
 * (`cancelOperation`, also when the view goes away). Only the last `capacity` records are kept.
 * A pause is what the user asked (`paused`) until the tail says it has paused (`pauseReported`);
 * from then on it reports how many new records it holds for the resume (`held`).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Channel } from "@tauri-apps/api/core";
import type { StreamFilter, StreamInfo, StreamRecord, TailEnd, TailStart, TailUpdate } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { pushRing, RING_SIZE } from "./records";
import { useCommands } from "../../ipc/CommandsContext";

export type TailChannelFactory = (onMessage: (update: TailUpdate) => void) => Channel<TailUpdate>;

const tauriChannel: TailChannelFactory = (onMessage) => {
  const channel = new Channel<TailUpdate>();
  channel.onmessage = onMessage;
  return channel;
};

export type TailState =
  | { kind: "idle" }
  | {
      kind: "running";
      id: string;
      start: TailStart;
      /** Paused as the user last asked. */
      paused: boolean;
      /** Paused as the tail last said. */
      pauseReported: boolean;
      /** New records waiting for the resume, as the paused tail last counted them. */
      held: number;
      shards: number;
    }
  | { kind: "ended"; end: TailEnd }
  | { kind: "failed"; error: UiError };

export const NO_FILTER: StreamFilter = { key: {}, ttlOnly: false };

let nextTail = 0;

export function useStreamTail({
  profileId,
  table,
  makeChannel = tauriChannel,
  capacity = RING_SIZE,
  baseFilter = NO_FILTER,
}: {
  profileId: string;
  table: string;
  makeChannel?: TailChannelFactory | undefined;
  capacity?: number;
  /** The filter the tail starts with (the TTL view reads TTL deletions only). */
  baseFilter?: StreamFilter;
}) {
  const source = useCommands();
  const [info, setInfo] = useState<Loadable<StreamInfo, UiError>>({ status: "loading" });
  const [tail, setTail] = useState<TailState>({ kind: "idle" });
  const [records, setRecords] = useState<StreamRecord[]>([]);
  const [counts, setCounts] = useState({ read: 0, delivered: 0 });
  const [notice, setNotice] = useState<string | null>(null);
  const [filter, setFilterState] = useState<StreamFilter>(baseFilter);
  const running = useRef<string | null>(null);
  const sourceRef = useRef(source);
  sourceRef.current = source;

  const reload = useCallback(() => {
    setInfo({ status: "loading" });
    void unwrap(source.streamInfo(profileId, table)).then(setInfo);
  }, [profileId, table, source]);
  useEffect(reload, [reload]);

  // A tail still running when the view goes away is stopped.
  useEffect(
    () => () => {
      if (running.current !== null) void sourceRef.current.cancelOperation(running.current);
    },
    [],
  );

  const start = useCallback(
    async (from: TailStart) => {
      if (running.current !== null) return;
      nextTail += 1;
      const id = `stream-${table}-${Date.now()}-${nextTail}`;
      running.current = id;
      setRecords([]);
      setCounts({ read: 0, delivered: 0 });
      setNotice(null);
      setTail({ kind: "running", id, start: from, paused: false, pauseReported: false, held: 0, shards: 0 });
      const channel = makeChannel((update) => {
        // A tail already stopped may still deliver what it had read: it is not shown.
        if (running.current !== id) return;
        if (update.records.length > 0) setRecords((ring) => pushRing(ring, update.records, capacity));
        setCounts({ read: update.read, delivered: update.delivered });
        if (update.notice !== null) setNotice(update.notice);
        setTail((t) =>
          t.kind === "running" && t.id === id ? { ...t, pauseReported: update.paused, held: update.held, shards: update.shards } : t,
        );
      });
      const result = await unwrap(source.tailStream(profileId, { tailId: id, table, start: from, filter }, channel));
      // A tail stopped from here has said so already (and another may be running now).
      if (running.current !== id) return;
      running.current = null;
      if (result.status === "ok") setTail({ kind: "ended", end: result.data.end });
      else if (result.status === "error") setTail({ kind: "failed", error: result.error });
    },
    [profileId, table, source, makeChannel, capacity, filter],
  );

  const stop = useCallback(() => {
    const id = running.current;
    if (id === null) return;
    running.current = null;
    setTail({ kind: "ended", end: "cancelled" });
    void source.cancelOperation(id);
  }, [source]);

  const control = useCallback(
    (paused: boolean, next: StreamFilter) => {
      const id = running.current;
      if (id === null) return;
      setTail((t) => (t.kind === "running" ? { ...t, paused } : t));
      void source.controlStreamTail(id, { paused, filter: next });
    },
    [source],
  );

  const paused = tail.kind === "running" && tail.paused;
  const pause = useCallback(() => control(true, filter), [control, filter]);
  const resume = useCallback(() => control(false, filter), [control, filter]);
  /** A new filter: applied to what is read from now on, and to the records kept. */
  const setFilter = useCallback(
    (next: StreamFilter) => {
      setFilterState(next);
      control(paused, next);
    },
    [control, paused],
  );

  return { info, reload, tail, records, counts, notice, filter, setFilter, start, stop, pause, resume };
}
