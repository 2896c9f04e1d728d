/**
 * A measurement page for the Collections view (not part of the app bundle): the real
 * `CollectionsView` and `useCollections` on a synthetic source shaped like bench/app/views.py's
 * tables, so the view's own rendering can be timed in any web engine without the app's backend.
 * - `?table=fleet` (default): 10,000 collections of 100 items (pk S, sk N, speed N);
 *   `?table=hot`: one collection of 100,000 items.
 * - `?frames=` (default 240) frames of `?step=` px (default 240) are scrolled after the first box's
 *   rows are drawn; `?delay=` ms (default 2) is the source's answer time.
 * It reports in `<pre id="result">` (and `window.perfResult`): the time from render to the first
 * box and to its rows, and each scroll frame's time (p50, p95, max), as bench/app/views.py does in
 * the app's window.
 */
import { useLayoutEffect } from "react";
import { createRoot } from "react-dom/client";
import { CollectionsView } from "../features/collections/CollectionsView";
import { useCollections, type CollectionsSource } from "../features/collections/useCollections";
import type { CollectionStat, QueryInput, TableDescription } from "../ipc/bindings.gen";
import { CommandsProvider, type Commands } from "../ipc/CommandsContext";
import "../app/theme.css";
import { report, timeScroll } from "./scrollTiming";

const params = new URLSearchParams(location.search);
const which = params.get("table") ?? "fleet";
const frames = Number(params.get("frames") ?? "240");
const step = Number(params.get("step") ?? "240");
const delay = Number(params.get("delay") ?? "2");
const rowsPerBox = Number(params.get("rows") ?? "20");
// `?css=`: a style sheet added to the page, to compare a change of the view's CSS in one run.
const extraCss = params.get("css");
if (extraCss !== null) {
  const style = document.createElement("style");
  style.textContent = extraCss;
  document.head.append(style);
}
const [collections, itemsEach] = which === "hot" ? [1, 100_000] : [10_000, 100];
const pkOf = (c: number) => (which === "hot" ? "VEH#hot" : `VEH#${String(c).padStart(5, "0")}`);

const table = {
  name: which === "hot" ? "Hot" : "Fleet",
  keys: { partitionKey: { name: "pk", type: "S" }, sortKey: { name: "sk", type: "N" } },
  indexes: [],
  itemCount: collections * itemsEach,
} as unknown as TableDescription;

const later = <T,>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), delay));

const source: CollectionsSource = {
  collectionRange: ((_p: string, name: string, index: string | null, offset: number, limit: number) => {
    const stats: CollectionStat[] = [];
    for (let c = offset; c < Math.min(collections, offset + limit); c++) {
      stats.push({ partitionValue: { S: pkOf(c) }, itemCount: itemsEach, sizeBytes: itemsEach * 28, limitedSizeBytes: null });
    }
    return later({ status: "ok" as const, data: { table: name, index, offset, total: collections, collections: stats } });
  }) as unknown as CollectionsSource["collectionRange"],
  collectionPage: ((_p: string, input: QueryInput) => {
    const pk = "S" in input.partitionValue ? input.partitionValue.S : "";
    const c = which === "hot" ? 0 : Number(pk.slice(4));
    const items = Array.from({ length: Math.min(itemsEach, input.limit ?? itemsEach) }, (_, i) => ({
      pk: { S: pk },
      sk: { N: String(i) },
      speed: { N: String((c * 7 + i) % 120) },
    }));
    const page = { items, count: items.length, scannedCount: items.length, lastEvaluatedKey: items.length < itemsEach ? { pk: { S: pk }, sk: { N: String(items.length - 1) } } : null, consumedCapacity: { total: 0.5 }, stop: "limit" };
    return later({ status: "ok" as const, data: page });
  }) as unknown as CollectionsSource["collectionPage"],
  collectionPosition: (async () => ({ status: "ok" as const, data: null })) as unknown as CollectionsSource["collectionPosition"],
};

const t0 = performance.now();

function measureScroll(firstBox: number, firstRows: number) {
  const run = document.querySelector<HTMLElement>('[data-testid="collections-run"]')!;
  timeScroll(run, frames, step, (figures) =>
    report({
      table: table.name,
      firstBoxMs: Math.round(firstBox),
      firstRowsMs: Math.round(firstRows),
      ...figures,
      domNodes: document.getElementsByTagName("*").length,
    }),
  );
}

function Page() {
  const data = useCollections({ profileId: "perf", table: table.name, keys: table.keys, rowsPerBox });
  useLayoutEffect(() => {
    let firstBox: number | null = null;
    const look = () => {
      const box = document.querySelector('[data-testid="collection-run-box"]');
      if (box !== null && firstBox === null) firstBox = performance.now() - t0;
      if (box?.querySelector('[data-testid="box-row"]')) {
        const firstRows = performance.now() - t0;
        setTimeout(() => measureScroll(firstBox!, firstRows), 1000);
      } else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  }, []);
  return (
    <div style={{ padding: "1rem", height: "100vh", boxSizing: "border-box" }}>
      <CollectionsView table={table} data={data} onOpen={() => {}} rowsPerBox={rowsPerBox} />
    </div>
  );
}

// The synthetic source answers the only commands the Collections view calls.
createRoot(document.getElementById("root")!).render(
  <CommandsProvider commands={source as Commands}>
    <Page />
  </CommandsProvider>,
);
