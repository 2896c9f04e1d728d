/**
 * The one formatter of whole numbers. `Number.prototype.toLocaleString` builds a new formatter at
 * every call: in WebKit that took 13 % of the Collections view's scroll, and its garbage stayed in
 * the web process (bench/app/views.md).
 */
const wholeNumber = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** Bytes for people: 1,234 B, 12.3 KB, 4.5 MB (1 KB = 1,024 bytes, as DynamoDB counts). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${wholeNumber.format(bytes)} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A count for people: 17,280. */
export function formatCount(count: number): string {
  return wholeNumber.format(Math.round(count));
}

/**
 * Capacity units as DynamoDB reports them: halves are real (0.5 RCU), more digits are not; the
 * whole part grouped for people (25,000 RCU, 3,363.68 RCU).
 */
export function formatUnits(units: number): string {
  const text = Number.isInteger(units * 2) ? String(units) : units.toFixed(2);
  const point = text.indexOf(".");
  const whole = point < 0 ? text : text.slice(0, point);
  return wholeNumber.format(Number(whole)) + (point < 0 ? "" : text.slice(point));
}

/**
 * A label cut in the middle to at most `max` characters: the start and the end stay, since keys
 * tell themselves apart by both (`VE…1007`), and a label that fits is left whole. The end, where
 * keys that share a prefix differ, keeps two thirds; the start keeps at least one character.
 */
export function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const keep = Math.max(2, max - 1);
  const head = Math.max(1, Math.floor(keep / 3));
  const tail = keep - head;
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/** A share as a percentage for people: "13.5 %", "< 0.1 %". */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return "0 %";
  const pct = (part / whole) * 100;
  if (pct > 0 && pct < 0.1) return "< 0.1 %";
  return `${pct >= 99.95 ? "100" : pct.toFixed(1)} %`;
}

/**
 * A share that may be tiny, as a gauge against a limit needs it: "13.5 %", "0.021 %" (two
 * significant digits under 0.1 %), "under 0.001 %" (where a figure would only be zeros).
 */
export function formatFineShare(part: number, whole: number): string {
  if (whole <= 0 || part <= 0) return "0 %";
  const pct = (part / whole) * 100;
  if (pct >= 0.1) return formatShare(part, whole);
  if (pct < 0.001) return "under 0.001 %";
  return `${Number(pct.toPrecision(2))} %`;
}

/** A count and its noun for people: "1 request", "1,204 requests" (`plural`: the noun's plural). */
export function formatCountOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(count)} ${count === 1 ? noun : plural}`;
}
