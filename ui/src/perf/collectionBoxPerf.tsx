/**
 * A measurement page for the collection box (not part of the app bundle): renders a collection of
 * `?n=` telemetry items (default 100,000) in a 700 px box, then scrolls it for `?frames=` frames
 * (default 300) of a `?step=` px wheel (default 120), then as many random jumps (a scrollbar
 * drag), and reports in `<pre id="result">` (and `window.perfResult`):
 * - renderMs: from `render()` to the first frame painted after the box was committed;
 * - frame times while scrolling (p50, p95, max) and how many frames took over 50 ms, per mode;
 * - the most item rows that were in the DOM at once;
 * - the JS heap in use (Chromium only, with --enable-precise-memory-info).
 * Serve it with `npm run ui:dev` and open /perf/collection-box.html, or build it and drive it
 * from a headless browser.
 */
import { useLayoutEffect } from "react";
import { createRoot } from "react-dom/client";
import { CollectionBox } from "../features/explorer/CollectionBox";
import type { KeySchema, QueryPage } from "../ipc/bindings.gen";
import type { Item } from "../shared/attributeValue";
import "../app/theme.css";

const params = new URLSearchParams(location.search);
const n = Number(params.get("n") ?? "100000");
const pageSize = Number(params.get("page") ?? "2500");
const keys: KeySchema = { partitionKey: { name: "vehicleId", type: "S" }, sortKey: { name: "recordedAt", type: "S" } };
const pk = { S: "VEH#V-7741" };

function makePages(): QueryPage[] {
  const items: Item[] = [{ vehicleId: pk, recordedAt: { S: "META" }, plate: { S: "KX26 ABC" }, model: { S: "eVan 3" }, depotCode: { S: "DEP-LON-3" } }];
  const start = Date.UTC(2026, 5, 23, 9, 0, 0);
  for (let i = 1; i < n; i++) {
    items.push({
      vehicleId: pk,
      recordedAt: { S: `TS#${new Date(start + i * 5000).toISOString().replace(".000Z", "Z")}` },
      speedKph: { N: String((i * 7) % 130) },
      coolantC: { N: String(80 + (i % 20)) },
      fuelPct: { N: (100 - (i % 1000) / 10).toFixed(1) },
    });
  }
  const pages: QueryPage[] = [];
  for (let at = 0; at < items.length; at += pageSize) {
    const slice = items.slice(at, at + pageSize);
    const last = at + pageSize >= items.length;
    pages.push({
      items: slice,
      count: slice.length,
      scannedCount: slice.length,
      lastEvaluatedKey: last ? null : { vehicleId: pk, recordedAt: slice[slice.length - 1]!.recordedAt! },
      consumedCapacity: { total: 64, table: 64, indexes: [] },
      stop: last ? "end" : "size",
    });
  }
  return pages;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}

/**
 * Scrolls `count` frames: `step` px down per frame (a fast wheel), or with `jump`, to a far random
 * offset each frame (dragging the scrollbar across the whole collection).
 */
async function scrollFrames(scroller: HTMLElement, count: number, step: number, jump: boolean): Promise<{ frames: number[]; maxRows: number }> {
  const frames: number[] = [];
  let maxRows = 0;
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  let last = await nextFrame();
  for (let i = 0; i < count; i++) {
    const max = scroller.scrollHeight - scroller.clientHeight;
    scroller.scrollTop = jump ? random() * max : Math.min(max, scroller.scrollTop + step);
    const now = await nextFrame();
    frames.push(now - last);
    last = now;
    maxRows = Math.max(maxRows, scroller.querySelectorAll(".item-row").length);
  }
  return { frames, maxRows };
}

function summary(frames: number[]) {
  const sorted = [...frames].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    frames: frames.length,
    p50Ms: round(percentile(sorted, 0.5)),
    p95Ms: round(percentile(sorted, 0.95)),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    over50Ms: frames.filter((f) => f > 50).length,
  };
}

function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

function Measured({ pages, onCommitted }: { pages: QueryPage[]; onCommitted: () => void }) {
  useLayoutEffect(onCommitted, [onCommitted]);
  return (
    <div className="perf-frame">
      <CollectionBox keys={keys} partitionValue={pk} pages={pages} loading={false} onLoadMore={() => {}} onEdit={() => {}} />
    </div>
  );
}

const pages = makePages();
const root = document.getElementById("root")!;
const started = performance.now();
createRoot(root).render(
  <Measured
    pages={pages}
    onCommitted={() => {
      void nextFrame().then(async () => {
        const renderMs = performance.now() - started;
        const scroller = document.querySelector<HTMLElement>(".collection-scroll")!;
        scroller.style.height = "700px";
        await nextFrame();
        const count = Number(params.get("frames") ?? "300");
        const wheel = await scrollFrames(scroller, count, Number(params.get("step") ?? "120"), false);
        const drag = await scrollFrames(scroller, count, 0, true);
        const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
        const result = {
          items: n,
          renderMs: Math.round(renderMs),
          wheel: summary(wheel.frames),
          drag: summary(drag.frames),
          maxItemRowsInDom: Math.max(wheel.maxRows, drag.maxRows),
          usedJSHeapMB: memory ? Math.round(memory.usedJSHeapSize / 1e5) / 10 : null,
        };
        (window as unknown as { perfResult: unknown }).perfResult = result;
        const pre = document.createElement("pre");
        pre.id = "result";
        pre.textContent = JSON.stringify(result, null, 2);
        document.body.append(pre);
      });
    }}
  />,
);
