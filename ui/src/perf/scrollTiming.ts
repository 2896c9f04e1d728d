/**
 * How ui/perf's measurement pages time a scroll and hand back their figures, the same way
 * bench/app/views.py does in the app's window: `frames` frames of `step` px, each frame's time
 * the gap between two requestAnimationFrame callbacks (the first, which only starts the clock,
 * left out).
 */

/** The frame times of the scroll, and where it ended. */
export type ScrollFigures = { frames: number; p50: number; p95: number; max: number; scrolledPx: number };

function percentile(values: number[], p: number): number {
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.min(ordered.length - 1, Math.round((p / 100) * (ordered.length - 1)))] ?? 0;
}

const tenths = (ms: number) => Math.round(ms * 10) / 10;

/** Scrolls `run` and calls `done` with the figures. */
export function timeScroll(run: HTMLElement, frames: number, step: number, done: (figures: ScrollFigures) => void): void {
  const times: number[] = [];
  let last = performance.now();
  const frame = (now: number) => {
    times.push(now - last);
    last = now;
    if (times.length > frames) {
      const t = times.slice(1);
      done({ frames: t.length, p50: tenths(percentile(t, 50)), p95: tenths(percentile(t, 95)), max: tenths(Math.max(...t)), scrolledPx: run.scrollTop });
      return;
    }
    run.scrollTop += step;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/** The page's result, where bench/app/page.py reads it (`window.perfResult`) and on the page. */
export function report(result: object): void {
  (window as unknown as { perfResult: object }).perfResult = result;
  const pre = document.createElement("pre");
  pre.id = "result";
  pre.textContent = JSON.stringify(result, null, 1);
  document.body.append(pre);
}
