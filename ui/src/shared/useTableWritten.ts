import { useEffect, useState } from "react";
import { onTableWritten } from "../ipc/tableWrites";

/**
 * A count that grows each time items of `table` on the connection `profileId` were written (saved,
 * deleted, pasted, bulk-edited, imported) from anywhere in the app: a hook that shows figures of
 * the table reads them again when it changes.
 */
export function useTableWritten(profileId: string, table: string): number {
  const [written, setWritten] = useState(0);
  useEffect(
    () => onTableWritten((write) => write.profileId === profileId && write.table === table && setWritten((n) => n + 1)),
    [profileId, table],
  );
  return written;
}
