import { useEffect, useState } from "react";
import type { NewTable, NewTableCheck } from "../../ipc/bindings.gen";
import { useDebounced } from "../../shared/useDebounced";
import { useCommands } from "../../ipc/CommandsContext";

/**
 * DynamoDB's verdict on a draft table and its code, asked of the backend (the engine's own
 * CreateTable rules) a moment after each change; `null` until the first answer. `current` says
 * whether the answer is for the draft as it is now, so a create never goes out on a stale verdict.
 */
export function useNewTableCheck(table: NewTable, delay = 120) {
  const source = useCommands();
  const settled = useDebounced(table, delay);
  const [answer, setAnswer] = useState<{ for: string; check: NewTableCheck } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const key = JSON.stringify(settled);
    void source
      .checkNewTable(settled)
      .then((check) => !cancelled && setAnswer({ for: key, check }))
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [settled, source]);
  return { check: answer?.check ?? null, current: answer !== null && answer.for === JSON.stringify(table) };
}
