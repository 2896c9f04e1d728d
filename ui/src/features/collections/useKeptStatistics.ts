import { useEffect, useState } from "react";
import type { CollectionStats, ScanCost } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type UiError } from "../../ipc/result";

/** The budget offered when DescribeTable reports no size yet. */
const UNKNOWN_SIZE_BUDGET = 10;

export type Kept = { status: "loading" } | { status: "none" } | { status: "kept"; stats: CollectionStats } | { status: "error"; error: UiError };

/**
 * What the statistics gate starts from, read again for each table or index: the statistics kept
 * from an earlier scan (none, or partial), what a whole scan would cost, and the budget offered
 * (the whole scan rounded up, until the user types another); `error` is the cost's failure.
 */
export function useKeptStatistics(profileId: string, table: string, index: string | null) {
  const source = useCommands();
  const [cost, setCost] = useState<ScanCost | null>(null);
  const [kept, setKept] = useState<Kept>({ status: "loading" });
  const [budget, setBudget] = useState<string>("");
  const [error, setError] = useState<UiError | null>(null);

  useEffect(() => {
    let stale = false;
    setKept({ status: "loading" });
    setCost(null);
    setError(null);
    void unwrap(source.collectionStats(profileId, table, index)).then((result) => {
      if (stale) return;
      if (result.status === "ok") setKept({ status: "kept", stats: result.data });
      else if (result.status === "error")
        setKept(result.error.code === "NOT_FOUND" ? { status: "none" } : { status: "error", error: result.error });
    });
    void unwrap(source.statisticsScanCost(profileId, table, index)).then((result) => {
      if (stale) return;
      if (result.status === "ok") {
        setCost(result.data);
        // The whole scan, rounded up to a whole unit, until the user says otherwise.
        // (With no size known yet, a small one: what it reads is kept and can be continued.)
        setBudget((b) => (b === "" ? String(result.data.readUnits > 0 ? Math.ceil(result.data.readUnits) : UNKNOWN_SIZE_BUDGET) : b));
      } else if (result.status === "error") setError(result.error);
    });
    return () => {
      stale = true;
    };
  }, [profileId, table, index, source]);

  return { cost, kept, setKept, budget, setBudget, error, setError };
}
