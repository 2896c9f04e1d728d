import { useEffect, useState } from "react";
import type { CollectionStats } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type UiError } from "../../ipc/result";
import { useScanCost } from "../../shared/useScanCost";

/** The budget offered when DescribeTable reports no size yet. */
const UNKNOWN_SIZE_BUDGET = 10;

export type Kept = { status: "loading" } | { status: "none" } | { status: "kept"; stats: CollectionStats } | { status: "error"; error: UiError };

/**
 * What the statistics gate starts from, read again for each table or index: the statistics kept
 * from an earlier scan (none, or partial), what a whole scan would cost (`useScanCost`), and the
 * budget offered (the whole scan rounded up, until the user types another). `error` is the
 * gate's last failure (`setError`), or else the cost's.
 */
export function useKeptStatistics(profileId: string, table: string, index: string | null) {
  const source = useCommands();
  const scan = useScanCost(profileId, table, index);
  const cost = scan.status === "ok" ? scan.data : null;
  const [kept, setKept] = useState<Kept>({ status: "loading" });
  // What the user typed as the budget, if anything.
  const [typed, setBudget] = useState<string | null>(null);
  const [gateError, setError] = useState<UiError | null>(null);

  useEffect(() => {
    let stale = false;
    setKept({ status: "loading" });
    setError(null);
    void unwrap(source.collectionStats(profileId, table, index)).then((result) => {
      if (stale) return;
      if (result.status === "ok") setKept({ status: "kept", stats: result.data });
      else if (result.status === "error")
        setKept(result.error.code === "NOT_FOUND" ? { status: "none" } : { status: "error", error: result.error });
    });
    return () => {
      stale = true;
    };
  }, [profileId, table, index, source]);

  // The whole scan, rounded up to a whole unit, until the user says otherwise. (With no size known
  // yet, a small one: what it reads is kept and can be continued.)
  const offered = cost === null ? "" : String(cost.readUnits > 0 ? Math.ceil(cost.readUnits) : UNKNOWN_SIZE_BUDGET);
  const budget = typed ?? offered;

  const error = gateError ?? (scan.status === "error" ? scan.error : null);
  return { cost, kept, setKept, budget, setBudget, error, setError };
}
