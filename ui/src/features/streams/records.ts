/**
 * The stream viewer's vocabulary, without React: the ring of the last records kept, the diff of
 * a record's old and new images, and how a record's keys and time are written.
 */
import type { AttributeValue, StreamRecord } from "../../ipc/bindings.gen";
import { attributeText } from "../../shared/attributeValue";

export type Image = { [name in string]: AttributeValue };

/** How many records a view keeps: older ones fall off the ring (bounded memory). */
export const RING_SIZE = 1000;

/** `ring` with `added` appended, keeping only the last `capacity` (the newest last). */
export function pushRing<T>(ring: readonly T[], added: readonly T[], capacity: number): T[] {
  if (added.length === 0) return ring as T[];
  const next = ring.length + added.length <= capacity ? [...ring, ...added] : [...ring, ...added].slice(-capacity);
  return next;
}

/** A value as canonical text (map members in name order), to compare two values exactly. */
export function canonical(value: AttributeValue | undefined): string {
  if (value === undefined) return "";
  if ("M" in value && value.M !== undefined) {
    const members = Object.keys(value.M)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonical(value.M[name])}`);
    return `{"M":{${members.join(",")}}}`;
  }
  if ("L" in value && value.L !== undefined) return `{"L":[${value.L.map((v) => canonical(v)).join(",")}]}`;
  return JSON.stringify(value);
}

export type Change = "added" | "removed" | "changed" | "same";

export type DiffRow = { name: string; before: AttributeValue | undefined; after: AttributeValue | undefined; change: Change };

/**
 * The attributes of a change, old beside new: the key attributes first (in `keyNames` order),
 * then the others by name; each marked added, removed, changed or the same.
 */
export function imageDiff(before: Image | null, after: Image | null, keyNames: readonly string[]): DiffRow[] {
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const keys = keyNames.filter((k) => names.has(k));
  const others = [...names].filter((n) => !keys.includes(n)).sort();
  return [...keys, ...others].map((name) => {
    const old = before?.[name];
    const now = after?.[name];
    const change: Change =
      old === undefined ? "added" : now === undefined ? "removed" : canonical(old) === canonical(now) ? "same" : "changed";
    return { name, before: old, after: now, change };
  });
}

/** `vehicleId = VEH#1 · at = 3`: the record's key, in the table's key order. */
export function keyText(keys: Image, keyNames: readonly string[]): string {
  const names = [...keyNames.filter((k) => k in keys), ...Object.keys(keys).filter((k) => !keyNames.includes(k))];
  return names.map((name) => `${name} = ${attributeText(keys[name]!)}`).join(" · ");
}

/** A record's time as the user's local clock shows it, with the date when it is not today. */
export function recordTime(seconds: number | null, today: Date = new Date()): string {
  if (seconds === null) return "—";
  const at = new Date(seconds * 1000);
  const time = at.toLocaleTimeString(undefined, { hour12: false });
  return at.toDateString() === today.toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}

/** Whether `record` holds exactly these key values. */
export function matchesKey(record: StreamRecord, key: Image): boolean {
  return Object.entries(key).every(([name, value]) => canonical(record.keys[name]) === canonical(value));
}

/** Explains a record's images for the stream's view type. */
export function imagesNote(viewType: string | null): string | null {
  switch (viewType) {
    case "KEYS_ONLY":
      return "This stream carries only the keys (KEYS_ONLY): there are no images to compare. Change the view type in Settings to see them.";
    case "NEW_IMAGE":
      return "This stream carries only the new image (NEW_IMAGE): the item as it was before is not recorded.";
    case "OLD_IMAGE":
      return "This stream carries only the old image (OLD_IMAGE): the item as it became is not recorded.";
    default:
      return null;
  }
}
