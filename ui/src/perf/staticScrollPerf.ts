/**
 * The floor under bench/app's scroll figures (not part of the app bundle): the cheapest page that
 * scrolls the way the Collections view is scrolled, with no framework, no virtualisation and no
 * loading. A scroll container as large as the view's run, filled once with `?rows=` (default
 * 2,000) plain rows of three text cells, is scrolled `?step=` px (default 240) a frame for
 * `?frames=` frames (default 240), each frame's time taken from requestAnimationFrame as
 * collectionsRunPerf.tsx and bench/app/views.py take it. `?rows=0` scrolls an empty block of the
 * same height. Whatever this page's frame time is, in a given web engine on a given machine, no
 * page can scroll faster there.
 *
 * `?churn=1` keeps only the rows in sight (and 20 either side) in the document, removing and
 * creating rows as it scrolls, by hand: the document churn of a virtualised view without its
 * framework, to tell what the web engine keeps of removed rows from what a view's script keeps.
 */

import { report, timeScroll } from "./scrollTiming";

const params = new URLSearchParams(location.search);
const rows = Number(params.get("rows") ?? "2000");
const frames = Number(params.get("frames") ?? "240");
const step = Number(params.get("step") ?? "240");
const churn = params.get("churn") === "1";
const ROW_PX = 28;

const run = document.createElement("div");
run.style.cssText = "height: calc(100vh - 2rem); overflow-y: auto; margin: 1rem; font: 13px system-ui;";
const content = document.createElement("div");
const height = Math.max(rows, 2000) * ROW_PX;
content.style.cssText = `height: ${height}px; position: relative;`;
const rowHtml = (i: number) =>
  `<div style="position:absolute;top:${i * ROW_PX}px;height:${ROW_PX}px;display:flex;gap:2rem">` +
  `<span>VEH#${String(i).padStart(5, "0")}</span><span>${i}</span><span>${(i * 7) % 120}</span></div>`;
if (!churn) content.innerHTML = Array.from({ length: rows }, (_, i) => rowHtml(i)).join("");
run.append(content);
if (churn) {
  // Only the rows in sight (and 20 either side) exist; each scroll removes and creates rows.
  const shown = new Map<number, HTMLElement>();
  const place = () => {
    const first = Math.max(0, Math.floor(run.scrollTop / ROW_PX) - 20);
    const last = Math.min(rows, Math.ceil((run.scrollTop + run.clientHeight) / ROW_PX) + 20);
    for (const [i, el] of shown) {
      if (i < first || i >= last) {
        el.remove();
        shown.delete(i);
      }
    }
    for (let i = first; i < last; i++) {
      if (shown.has(i)) continue;
      const t = document.createElement("template");
      t.innerHTML = rowHtml(i);
      const el = t.content.firstElementChild as HTMLElement;
      content.append(el);
      shown.set(i, el);
    }
  };
  run.addEventListener("scroll", place);
  place();
}
document.getElementById("root")!.append(run);

setTimeout(() => timeScroll(run, frames, step, (figures) => report({ page: "static-scroll", rows, ...figures })), 1000);
