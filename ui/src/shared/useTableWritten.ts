import { useEffect, useState } from "react";
import { onTableWritten } from "../ipc/tableWrites";
import { useDebounced } from "./useDebounced";

/** How long after the last write of a burst the figures are read again. */
const SETTLE_MS = 300;

/**
 * A count that grows when items of `table` on the connection `profileId` were written (saved,
 * deleted, pasted, bulk-edited, imported) from anywhere in the app: a hook that shows figures of
 * the table reads them again when it changes. A burst of writes (a paste puts its items one by
 * one) counts once, `SETTLE_MS` after its last write, so the figures are read once per burst,
 * not once per item.
 */
export function useTableWritten(profileId: string, table: string): number {
  const [written, setWritten] = useState(0);
  useEffect(
    () => onTableWritten((write) => write.profileId === profileId && write.table === table && setWritten((n) => n + 1)),
    [profileId, table],
  );
  return useDebounced(written, SETTLE_MS);
}
