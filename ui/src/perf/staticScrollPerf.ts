/**
 * The floor under bench/app's scroll figures (not part of the app bundle): the cheapest page that
 * scrolls the way the Collections view is scrolled, with no framework, no virtualisation and no
 * loading. A scroll container as large as the view's run, filled once with `?rows=` (default
 * 2,000) plain rows of three text cells, is scrolled `?step=` px (default 240) a frame for
 * `?frames=` frames (default 240), each frame's time taken from requestAnimationFrame as
 * collectionsRunPerf.tsx and bench/app/views.py take it. `?rows=0` scrolls an empty block of the
 * same height. Whatever this page's frame time is, in a given web engine on a given machine, no
 * page can scroll faster there.
 */

export {};

const params = new URLSearchParams(location.search);
const rows = Number(params.get("rows") ?? "2000");
const frames = Number(params.get("frames") ?? "240");
const step = Number(params.get("step") ?? "240");
const ROW_PX = 28;

const percentile = (values: number[], p: number) => {
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.min(ordered.length - 1, Math.round((p / 100) * (ordered.length - 1)))] ?? 0;
};

const run = document.createElement("div");
run.style.cssText = "height: calc(100vh - 2rem); overflow-y: auto; margin: 1rem; font: 13px system-ui;";
const content = document.createElement("div");
const height = Math.max(rows, 2000) * ROW_PX;
content.style.cssText = `height: ${height}px; position: relative;`;
const lines: string[] = [];
for (let i = 0; i < rows; i++) {
  lines.push(
    `<div style="position:absolute;top:${i * ROW_PX}px;height:${ROW_PX}px;display:flex;gap:2rem">` +
      `<span>VEH#${String(i).padStart(5, "0")}</span><span>${i}</span><span>${(i * 7) % 120}</span></div>`,
  );
}
content.innerHTML = lines.join("");
run.append(content);
document.getElementById("root")!.append(run);

function report(result: object) {
  (window as unknown as { perfResult: object }).perfResult = result;
  const pre = document.createElement("pre");
  pre.id = "result";
  pre.textContent = JSON.stringify(result, null, 1);
  document.body.append(pre);
}

setTimeout(() => {
  const times: number[] = [];
  let last = performance.now();
  const frame = (now: number) => {
    times.push(now - last);
    last = now;
    if (times.length > frames) {
      const t = times.slice(1);
      report({
        page: "static-scroll",
        rows,
        frames: t.length,
        p50: Math.round(percentile(t, 50) * 10) / 10,
        p95: Math.round(percentile(t, 95) * 10) / 10,
        max: Math.round(Math.max(...t) * 10) / 10,
        scrolledPx: run.scrollTop,
      });
      return;
    }
    run.scrollTop += step;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}, 1000);
