import { useEffect, useState } from "react";
import type { TableDescription, TableTag } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type UiError } from "../../ipc/result";

/** How often a GSI being backfilled is described again. */
const BACKFILL_POLL_MS = 2000;

/** While a change of `table` is still being applied, DescribeTable again now and then (`onChanged`). */
export function useBackfill(profileId: string, table: TableDescription, onChanged: (table: TableDescription) => void) {
  const source = useCommands();
  // A change still being applied (the table UPDATING, a GSI CREATING or DELETING): described
  // again until the table and every index are ACTIVE.
  const backfilling =
    table.status === "UPDATING" ||
    table.indexes.some((i) => i.kind === "global" && (i.status === "CREATING" || i.backfilling === true || i.status === "DELETING"));
  useEffect(() => {
    if (!backfilling) return;
    const timer = setTimeout(() => {
      void unwrap(source.describeTable(profileId, table.name)).then((next) => next.status === "ok" && onChanged(next.data));
    }, BACKFILL_POLL_MS);
    return () => clearTimeout(timer);
  }, [backfilling, table, profileId, source, onChanged]);
}

/** The table's tags, read again when `version` changes (after each change of them). */
export function useTableTags(profileId: string, table: string, version: number) {
  const source = useCommands();
  const [tags, setTags] = useState<TableTag[] | null>(null);
  const [loadError, setLoadError] = useState<UiError | null>(null);
  useEffect(() => {
    let cancelled = false;
    void unwrap(source.tableTags(profileId, table)).then((next) => {
      if (cancelled) return;
      if (next.status === "ok") setTags(next.data);
      else if (next.status === "error") setLoadError(next.error);
    });
    return () => {
      cancelled = true;
    };
  }, [profileId, table, source, version]);
  return { tags, loadError };
}

/** DynamoDB allows one change of a table's time to live an hour (docs/dynamodb-rules.md, B.7). */
export const TTL_CHANGE_INTERVAL_MS = 60 * 60 * 1000;

/** When this app last changed each table's time to live (profile id, NUL, table name → ms). */
const ttlChanges = new Map<string, number>();

/** Remembers that this app changed `table`'s time to live at `at`. */
export function rememberTtlChange(profileId: string, table: string, at: number = Date.now()) {
  ttlChanges.set(`${profileId}\u0000${table}`, at);
}

export type TtlWait = { since: number; until: number; why: "changed" | "created" };

/**
 * Whether a change of `table`'s time to live would be refused now ("modified multiple times
 * within a fixed interval"), and until when: an hour after this app last changed it, or — time to
 * live on, the table created less than an hour ago — an hour after its creation at the earliest.
 * Updates itself when the hour is over.
 */
export function useTtlWait(profileId: string, table: TableDescription, now: () => number = Date.now): TtlWait | null {
  const [, tick] = useState(0);
  const changed = ttlChanges.get(`${profileId}\u0000${table.name}`);
  const created = table.ttlAttribute !== null && table.createdAt !== null ? table.createdAt * 1000 : null;
  const last = changed !== undefined ? { since: changed, why: "changed" as const } : created !== null ? { since: created, why: "created" as const } : null;
  const until = last === null ? null : last.since + TTL_CHANGE_INTERVAL_MS;
  const left = until === null ? 0 : until - now();
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => tick((n) => n + 1), left);
    return () => clearTimeout(timer);
  }, [left]);
  return last !== null && until !== null && left > 0 ? { since: last.since, until, why: last.why } : null;
}
