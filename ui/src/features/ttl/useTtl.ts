/**
 * What the TTL view reads: the table's TTL attribute and the embedded engine's next sweep
 * (`ttlOverview`), the items that expire first (`expiringItems`: free to read on the embedded
 * engine, a paid Scan elsewhere, so there only on request), and a sweep on demand
 * (`sweepExpired`, embedded only). The deletions seen come from a stream tail of TTL deletions
 * (see `useStreamTail`).
 */
import { useCallback, useEffect, useState } from "react";
import type { ExpiringItems, SweepOutcome, TtlOverview } from "../../ipc/bindings.gen";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";
import { useCommands } from "../../ipc/CommandsContext";

/** Items listed, and Scan pages read at most, to find them. */
export const LISTED = 200;
export const MAX_PAGES = 20;

export function useTtl({ profileId, table, embedded }: { profileId: string; table: string; embedded: boolean }) {
  const source = useCommands();
  const [overview, setOverview] = useState<Loadable<TtlOverview, UiError>>({ status: "loading" });
  const [expiring, setExpiring] = useState<Loadable<ExpiringItems, UiError> | null>(null);
  const [sweep, setSweep] = useState<Loadable<SweepOutcome, UiError> | null>(null);
  // The offset of the app's clock from the backend's, so a countdown needs no new call.
  const [clockOffset, setClockOffset] = useState(0);

  const loadOverview = useCallback(async () => {
    const next = await unwrap(source.ttlOverview(profileId, table));
    if (next.status === "ok") setClockOffset(next.data.now - Date.now() / 1000);
    setOverview(next);
    return next;
  }, [profileId, table, source]);

  const findExpiring = useCallback(async () => {
    setExpiring({ status: "loading" });
    setExpiring(await unwrap(source.expiringItems(profileId, { table, limit: LISTED, maxPages: MAX_PAGES })));
  }, [profileId, table, source]);

  useEffect(() => {
    void loadOverview().then((next) => {
      // On the embedded engine the scan is free: list at once.
      if (embedded && next.status === "ok" && next.data.attribute !== null) void findExpiring();
    });
  }, [loadOverview, findExpiring, embedded]);

  const sweepNow = useCallback(async () => {
    setSweep({ status: "loading" });
    const outcome = await unwrap(source.sweepExpired(profileId));
    setSweep(outcome);
    await loadOverview();
    await findExpiring();
  }, [profileId, source, loadOverview, findExpiring]);

  return { overview, expiring, findExpiring, sweep, sweepNow, clockOffset, reload: loadOverview };
}

/** "in 3 min", "12 s ago": a time relative to `now` (both in epoch seconds). */
export function relativeTime(at: number, now: number): string {
  const delta = Math.round(at - now);
  const size = Math.abs(delta);
  const text =
    size < 60 ? `${size} s` : size < 3600 ? `${Math.round(size / 60)} min` : size < 86400 ? `${Math.round(size / 3600)} h` : `${Math.round(size / 86400)} days`;
  return delta >= 0 ? `in ${text}` : `${text} ago`;
}
