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
