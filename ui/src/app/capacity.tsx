import { createContext, useCallback, useContext, useState, type ReactNode } from "react";

/** Capacity used since the app started, as DynamoDB reported it in ConsumedCapacity. */
export type CapacityTotals = { readUnits: number; writeUnits: number };

/** Adds what one read or write reported to the totals. */
export type RecordCapacity = (kind: "read" | "write", units: number) => void;

// Two contexts: the recorder never changes, so the components that record (the table screen,
// the query bar, the Collections view's reads) do not render again when a total changes; only
// what shows the totals (the status bar) does. With one context holding both, each box read while
// scrolling a run rendered the whole table screen again.
const RecordContext = createContext<RecordCapacity>(() => {});
const TotalsContext = createContext<CapacityTotals>({ readUnits: 0, writeUnits: 0 });

/** Keeps the capacity every read and write reported, for the status bar. */
export function CapacityProvider({ children }: { children: ReactNode }) {
  const [totals, setTotals] = useState<CapacityTotals>({ readUnits: 0, writeUnits: 0 });
  const record = useCallback<RecordCapacity>((kind, units) => {
    if (!Number.isFinite(units) || units <= 0) return;
    setTotals((current) =>
      kind === "read" ? { ...current, readUnits: current.readUnits + units } : { ...current, writeUnits: current.writeUnits + units },
    );
  }, []);
  return (
    <RecordContext.Provider value={record}>
      <TotalsContext.Provider value={totals}>{children}</TotalsContext.Provider>
    </RecordContext.Provider>
  );
}

/** The recorder: the same function for the app's whole life. */
export function useRecordCapacity(): RecordCapacity {
  return useContext(RecordContext);
}

/** The totals so far. */
export function useCapacityTotals(): CapacityTotals {
  return useContext(TotalsContext);
}
