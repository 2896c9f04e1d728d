import { useEffect, useState } from "react";
import type { MonthlyCost, RegionPrices, Workload } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/** The default price table of every region, and the prices in use (the first region's, then edited). */
export function usePrices() {
  const source = useCommands();
  const [regions, setRegions] = useState<RegionPrices[]>([]);
  const [prices, setPrices] = useState<RegionPrices | null>(null);
  useEffect(() => {
    let cancelled = false;
    void source.defaultPrices().then((defaults) => {
      if (cancelled) return;
      setRegions(defaults);
      setPrices(defaults[0] ?? null);
    });
    return () => {
      cancelled = true;
    };
  }, [source]);
  return { regions, prices, setPrices };
}

/** What `workload` costs a month at `prices` (asked again when either changes; `null` before). */
export function useMonthlyCost(prices: RegionPrices | null, workload: Workload): Loadable<MonthlyCost, UiError> | null {
  const source = useCommands();
  const [cost, setCost] = useState<Loadable<MonthlyCost, UiError> | null>(null);
  useEffect(() => {
    if (prices === null) return;
    let cancelled = false;
    void unwrap(source.monthlyCost(prices, workload)).then((next) => !cancelled && setCost(next));
    return () => {
      cancelled = true;
    };
  }, [prices, workload, source]);
  return cost;
}
