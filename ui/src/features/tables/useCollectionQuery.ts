import { useCallback, useRef, useState } from "react";
import type { commands, QueryInput, QueryPage } from "../../ipc/bindings.gen";
import type { Item } from "../explorer/model";
import { unwrap, type UiError } from "../../ipc/result";
import { useCapacityLedger } from "../../app/capacity";

export type RunQuery = typeof commands.query;

/** The pages of one collection's Query, in the order they were read. */
export type CollectionQuery = {
  input: QueryInput | null;
  pages: QueryPage[];
  loading: boolean;
  error: UiError | null;
  /** Whether the last page has a LastEvaluatedKey (DynamoDB may have more). */
  hasMore: boolean;
};

/**
 * Runs a Query and follows LastEvaluatedKey page by page on request. A new run discards the
 * pages of the previous one, and an answer to a superseded request is ignored.
 */
export function useCollectionQuery(profileId: string, runQuery: RunQuery) {
  const [state, setState] = useState<CollectionQuery>({ input: null, pages: [], loading: false, error: null, hasMore: false });
  const generation = useRef(0);
  const ledger = useCapacityLedger();

  const fetchPage = useCallback(
    async (input: QueryInput, previous: QueryPage[]) => {
      const mine = ++generation.current;
      setState({ input, pages: previous, loading: true, error: null, hasMore: false });
      const result = await unwrap(runQuery(profileId, input));
      if (mine !== generation.current) return;
      if (result.status === "ok") {
        ledger.record("read", result.data.consumedCapacity?.total ?? 0);
        const pages = [...previous, result.data];
        setState({ input, pages, loading: false, error: null, hasMore: result.data.lastEvaluatedKey !== null });
      } else if (result.status === "error") {
        setState({ input, pages: previous, loading: false, error: result.error, hasMore: previous.at(-1)?.lastEvaluatedKey != null });
      }
    },
    [profileId, runQuery, ledger],
  );

  const run = useCallback((input: QueryInput) => fetchPage({ ...input, exclusiveStartKey: null }, []), [fetchPage]);

  const loadMore = useCallback(() => {
    const last = state.pages.at(-1);
    if (state.input === null || last === undefined || last.lastEvaluatedKey === null || state.loading) return;
    void fetchPage({ ...state.input, exclusiveStartKey: last.lastEvaluatedKey }, state.pages);
  }, [state, fetchPage]);

  /**
   * Puts `item` where the item with the same key was (after an edit), or removes that item when
   * `item` is null (after a delete); the pages otherwise stay as DynamoDB returned them.
   */
  const replaceItem = useCallback((keyNames: string[], original: Item, item: Item | null) => {
    const sameKey = (candidate: Item) =>
      keyNames.every((name) => JSON.stringify(candidate[name]) === JSON.stringify(original[name]));
    setState((current) => ({
      ...current,
      pages: current.pages.map((page) => {
        if (!page.items.some(sameKey)) return page;
        const items = item === null ? page.items.filter((i) => !sameKey(i)) : page.items.map((i) => (sameKey(i) ? item : i));
        return { ...page, items, count: items.length };
      }),
    }));
  }, []);

  return { ...state, run, loadMore, replaceItem };
}
