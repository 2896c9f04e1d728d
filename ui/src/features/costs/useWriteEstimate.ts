import { useEffect, useState } from "react";
import type {
  ConsumedCapacity,
  Reconciliation,
  WriteEstimate,
  WriteEstimateInput,
  WriteModeInput,
} from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/**
 * What `write` costs sent as `mode` (the last estimate kept on show while the next is computed;
 * `null` without a write) and, once it ran and reported `actual`, the report reconciled with it.
 */
export function useWriteEstimate(
  profileId: string,
  table: string,
  write: Pick<WriteEstimateInput, "kind" | "existing" | "newItem"> | null,
  effectiveMode: WriteModeInput,
  conditionFails: boolean,
  actual: ConsumedCapacity | null,
) {
  const source = useCommands();
  const [estimate, setEstimate] = useState<Loadable<WriteEstimate, UiError> | null>(null);
  const [reconciled, setReconciled] = useState<Loadable<Reconciliation, UiError> | null>(null);
  const writeKey = write === null ? null : JSON.stringify(write);

  useEffect(() => {
    if (write === null) {
      setEstimate(null);
      return;
    }
    let cancelled = false;
    // Keep showing the last estimate while the next one is computed, so the panel does not jump.
    setEstimate((current) => (current?.status === "ok" ? current : { status: "loading" }));
    void unwrap(source.estimateWrite(profileId, table, { ...write, mode: effectiveMode, conditionFails })).then(
      (next) => !cancelled && setEstimate(next),
    );
    return () => {
      cancelled = true;
    };
  }, [profileId, table, writeKey, effectiveMode, conditionFails, source]);

  useEffect(() => {
    if (write === null || actual === null) {
      setReconciled(null);
      return;
    }
    let cancelled = false;
    // The write that ran was a single request whose condition held.
    void unwrap(source.reconcileWrite(profileId, table, { ...write, mode: "single", conditionFails: false }, actual)).then(
      (next) => !cancelled && setReconciled(next),
    );
    return () => {
      cancelled = true;
    };
  }, [profileId, table, writeKey, actual, source]);

  return { estimate, reconciled };
}
