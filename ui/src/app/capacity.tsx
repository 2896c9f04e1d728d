import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

/** Capacity used since the app started, as DynamoDB reported it in ConsumedCapacity. */
export type CapacityTotals = { readUnits: number; writeUnits: number };

type Ledger = CapacityTotals & { record: (kind: "read" | "write", units: number) => void };

const CapacityContext = createContext<Ledger>({ readUnits: 0, writeUnits: 0, record: () => {} });

/** Keeps the capacity every read and write reported, for the status bar. */
export function CapacityProvider({ children }: { children: ReactNode }) {
  const [totals, setTotals] = useState<CapacityTotals>({ readUnits: 0, writeUnits: 0 });
  const record = useCallback((kind: "read" | "write", units: number) => {
    if (!Number.isFinite(units) || units <= 0) return;
    setTotals((current) =>
      kind === "read" ? { ...current, readUnits: current.readUnits + units } : { ...current, writeUnits: current.writeUnits + units },
    );
  }, []);
  const ledger = useMemo(() => ({ ...totals, record }), [totals, record]);
  return <CapacityContext.Provider value={ledger}>{children}</CapacityContext.Provider>;
}

export function useCapacityLedger(): Ledger {
  return useContext(CapacityContext);
}
