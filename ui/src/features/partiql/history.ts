/**
 * The statements run on a connection, newest first, kept in the web view's storage (they are the
 * user's own text; nothing of the data is kept). A statement run again moves to the top.
 */
import type { AttributeValue } from "../../ipc/bindings.gen";

export type HistoryEntry = { statement: string; parameters: AttributeValue[]; mode: RunMode; ranAt: number };
export type RunMode = "statement" | "batch" | "transaction";

const LIMIT = 50;
const key = (profileId: string) => `dynotable.partiql.history.${profileId}`;

export function loadHistory(profileId: string): HistoryEntry[] {
  try {
    const raw = window.localStorage.getItem(key(profileId));
    const parsed: unknown = raw === null ? [] : JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
  } catch {
    return [];
  }
}

export function addToHistory(profileId: string, entry: HistoryEntry): HistoryEntry[] {
  const same = (e: HistoryEntry) => e.statement === entry.statement && e.mode === entry.mode;
  const next = [entry, ...loadHistory(profileId).filter((e) => !same(e))].slice(0, LIMIT);
  try {
    window.localStorage.setItem(key(profileId), JSON.stringify(next));
  } catch {
    // A full or refused storage loses the history, never the run.
  }
  return next;
}
