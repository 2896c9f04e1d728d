import { useEffect, useState } from "react";
import type { HotPartitionReport, KeySpread } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

export type SpreadKind = KeySpread["kind"];

/** A request rate, its units, and how it spreads over the keys (`uniformKeys` for an even spread). */
export type HotRate = { reads: number; readUnits: number; writes: number; writeUnits: number; spreadKind: SpreadKind; uniformKeys: number };

/**
 * The rate spread over the table's partition keys, asked again whenever a figure changes; the
 * last report stays on show while the next is on its way.
 */
export function useHotPartitions(
  profileId: string,
  table: string,
  { reads, readUnits, writes, writeUnits, spreadKind, uniformKeys }: HotRate,
): Loadable<HotPartitionReport, UiError> | null {
  const source = useCommands();
  const [report, setReport] = useState<Loadable<HotPartitionReport, UiError> | null>(null);
  useEffect(() => {
    const spread: KeySpread = spreadKind === "uniform" ? { kind: "uniform", keys: uniformKeys } : { kind: spreadKind };
    let cancelled = false;
    setReport((r) => (r === null ? { status: "loading" } : r));
    void unwrap(
      source.hotPartitions(profileId, table, {
        readsPerSecond: reads,
        readUnitsPerRequest: readUnits,
        writesPerSecond: writes,
        writeUnitsPerRequest: writeUnits,
        spread,
      }),
    ).then((next) => !cancelled && setReport(next));
    return () => {
      cancelled = true;
    };
  }, [profileId, table, reads, readUnits, writes, writeUnits, spreadKind, uniformKeys, source]);
  return report;
}
