import { useEffect, useState } from "react";
import type { ScanCost } from "../ipc/bindings.gen";
import { useCommands } from "../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../ipc/result";

/**
 * What reading a table or index whole once costs (`statisticsScanCost`: from DescribeTable's size
 * on AWS, the live statistics on the embedded engine), read again for each table or index. The
 * Cost view's Scan estimate and the statistics gate's budget both start from it.
 */
export function useScanCost(profileId: string, table: string, index: string | null): Loadable<ScanCost, UiError> {
  const source = useCommands();
  const [cost, setCost] = useState<Loadable<ScanCost, UiError>>({ status: "loading" });
  useEffect(() => {
    let stale = false;
    setCost({ status: "loading" });
    void unwrap(source.statisticsScanCost(profileId, table, index)).then((result) => {
      if (!stale && result.status !== "loading") setCost(result);
    });
    return () => {
      stale = true;
    };
  }, [profileId, table, index, source]);
  return cost;
}

/**
 * The units of one whole scan, from its eventually consistent cost: a strongly consistent read
 * costs twice as much (rule B.2, docs/dynamodb-rules.md).
 */
export function wholeScanUnits(cost: ScanCost, consistentRead: boolean): number {
  return consistentRead ? cost.readUnits * 2 : cost.readUnits;
}
