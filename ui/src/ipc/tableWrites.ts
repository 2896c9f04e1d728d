/**
 * Writes to a table, heard wherever they were made: the item editor, a paste, a bulk edit, a
 * deletion of selected items, an import. The commands the views call announce each write that
 * succeeded with its connection and table, so what is shown of that table (its header's counts,
 * an export's estimate) reads again instead of keeping the figures from before.
 */
import type { Commands } from "./CommandsContext";

export type TableWrite = { profileId: string; table: string };

/** The commands that write items, and which argument names the table (the profile id is the first). */
const WRITES: Partial<Record<keyof Commands, number>> = {
  putItem: 1,
  deleteItem: 1,
  updateItem: 1,
  deleteItems: 1,
  importItems: 2,
  bulkCommit: 1,
  bulkUndo: 1,
};

const listeners = new Set<(write: TableWrite) => void>();

export function onTableWritten(listener: (write: TableWrite) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce(write: TableWrite): void {
  for (const listener of [...listeners]) listener(write);
}

/** `calls` with every successful write announced; the answers themselves unchanged. */
export function announcingWrites<T extends object>(calls: T): T {
  return new Proxy(calls, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      const at = typeof name === "string" ? WRITES[name as keyof Commands] : undefined;
      if (typeof value !== "function" || at === undefined) return value;
      return (...args: unknown[]) => {
        const answer: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        const [profileId, table] = [args[0], args[at]];
        if (!(answer instanceof Promise) || typeof profileId !== "string" || typeof table !== "string") return answer;
        return answer.then((result: unknown) => {
          if ((result as { status?: string } | null)?.status === "ok") announce({ profileId, table });
          return result;
        });
      };
    },
  });
}
