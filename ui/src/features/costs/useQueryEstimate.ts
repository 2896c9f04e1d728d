import { useEffect, useState } from "react";
import type { ConsumedCapacity, QueryEstimate, QueryInput, QueryPage, Reconciliation } from "../../ipc/bindings.gen";
import { useCommands } from "../../ipc/CommandsContext";
import { unwrap, type Loadable, type UiError } from "../../ipc/result";

/**
 * The estimate of `query` before it runs (`null` when there is no query; asked again when the
 * query's content changes) and, once `lastPage` came back, its reported capacity reconciled with
 * the estimate. `onEstimate` hears each new estimate.
 */
export function useQueryEstimate(
  profileId: string,
  query: QueryInput | null,
  lastPage: QueryPage | null,
  onEstimate?: (estimate: QueryEstimate) => void,
) {
  const source = useCommands();
  const [estimate, setEstimate] = useState<Loadable<QueryEstimate, UiError> | null>(null);
  const [reconciled, setReconciled] = useState<Loadable<Reconciliation, UiError> | null>(null);
  // The estimate is of a run from the start: the continuation key does not change it.
  const estimateKey = query === null ? null : JSON.stringify({ ...query, exclusiveStartKey: null });

  useEffect(() => {
    if (query === null) {
      setEstimate(null);
      return;
    }
    let cancelled = false;
    setEstimate({ status: "loading" });
    void unwrap(source.estimateQuery(profileId, { ...query, exclusiveStartKey: null })).then((next) => {
      if (cancelled) return;
      setEstimate(next);
      if (next.status === "ok") onEstimate?.(next.data);
    });
    return () => {
      cancelled = true;
    };
    // The query's content, not its identity, decides whether to estimate again.
  }, [profileId, estimateKey, source]);

  const actual: ConsumedCapacity | null = lastPage?.consumedCapacity ?? null;
  useEffect(() => {
    if (query === null || actual === null) {
      setReconciled(null);
      return;
    }
    let cancelled = false;
    setReconciled({ status: "loading" });
    void unwrap(source.reconcileQuery(profileId, query, actual)).then((next) => !cancelled && setReconciled(next));
    return () => {
      cancelled = true;
    };
  }, [profileId, lastPage, source]);

  return { estimate, reconciled };
}
