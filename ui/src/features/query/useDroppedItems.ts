/**
 * The items a Query's filter dropped, read back so the box that was read can draw them.
 *
 * A filter expression runs after the read (rule B.4, docs/dynamodb-rules.md): every item in the
 * page's key range is read and paid for, and the ones the filter rejects are simply not
 * returned. DynamoDB never sends them, so to draw them the app reads the same stretch again
 * without the filter and the projection: the same key condition, order, index and consistency,
 * from the same ExclusiveStartKey, with `Limit` set to the page's `ScannedCount`. That evaluates
 * exactly the items the page evaluated (the 1 MB cut falls on the same item, since it is counted
 * before the filter too), and `mergeDropped` (shared/droppedItems.ts) lays the returned items
 * back among them.
 *
 * On the embedded engine this second read costs nothing real and is made at once; on an AWS
 * connection it costs what the page cost, so it waits for the user (`show`) and its capacity
 * goes to the ledger like every other read.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { unwrap } from "../../ipc/result";
import { droppedCount, mergeDropped, type DroppedPage } from "../../shared/droppedItems";
import { useRecordCapacity } from "../../app/capacity";
import type { QueryRun } from "./useQueryModel";
import { useCommands } from "../../ipc/CommandsContext";

export function useDroppedItems({
  profileId,
  run,
  automatic,
}: {
  profileId: string;
  run: QueryRun | null;
  /** Read the dropped items without asking (the embedded engine, where reads cost nothing). */
  automatic: boolean;
}) {
  const source = useCommands();
  const recordCapacity = useRecordCapacity();
  const [dropped, setDropped] = useState<ReadonlyMap<number, DroppedPage>>(new Map());
  const asked = useRef(new Set<number>());
  const query = run?.kind === "query" ? run : null;
  const request = query?.request ?? null;
  const pages = query?.pages ?? null;

  // A new run starts with nothing read back.
  useEffect(() => {
    asked.current = new Set();
    setDropped(new Map());
  }, [request]);

  const show = useCallback(
    async (n: number) => {
      if (request === null || pages === null || asked.current.has(n)) return;
      const page = pages[n];
      if (page === undefined || droppedCount(page) === 0) return;
      asked.current.add(n);
      const mine = asked.current;
      setDropped((d) => new Map(d).set(n, { status: "loading" }));
      const start = n === 0 ? null : (pages[n - 1]?.lastEvaluatedKey ?? null);
      const unfiltered = { ...request, filter: null, projection: null, limit: page.scannedCount };
      const result = await unwrap(source.readRequestPage(profileId, unfiltered, start));
      if (mine !== asked.current) return;
      let state: DroppedPage;
      if (result.status === "ok") {
        recordCapacity("read", result.data.consumedCapacity?.total ?? 0);
        const rows = mergeDropped(page.items, result.data.items);
        state =
          rows === null
            ? { status: "error", message: "The items changed after the page was read. Run the query again to see what its filter dropped." }
            : { status: "ok", rows };
      } else if (result.status === "error") {
        state = { status: "error", message: `The dropped items could not be read: ${result.error.message}` };
      } else {
        return;
      }
      setDropped((d) => new Map(d).set(n, state));
    },
    [profileId, request, pages, source, recordCapacity],
  );

  useEffect(() => {
    if (!automatic || pages === null || query?.loading) return;
    pages.forEach((page, n) => {
      if (droppedCount(page) > 0 && !asked.current.has(n)) void show(n);
    });
  }, [automatic, pages, query?.loading, show]);

  return { dropped, show };
}
